//! `hcl-ref`: the reference interpreter behind the subprocess protocol
//! (`runner/PROTOCOL.md`), so that any harness can use it as an oracle.
//!
//! ```text
//! hcl-ref              answer requests until standard input closes
//! hcl-ref --one-shot   answer one request, then exit
//! ```

use hcl_conformance::reference;
use hcl_conformance::suite::CASE_KINDS;
use hcl_conformance::wire::{answer, input_from_request};
use serde_json::{json, Value as Json};
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// The reference interpreter answers every kind of the suite.
const KINDS: &[&str] = CASE_KINDS;
const FEATURES: &[&str] = &[
    "unknown",
    "safety",
    "ranges",
    "dynblock",
    "exact-types",
    "big-numbers",
    "schema",
    "typeexpr",
];

fn respond(line: &str) -> Json {
    let request: Json = match serde_json::from_str(line) {
        Ok(request) => request,
        Err(e) => {
            return json!({ "id": null, "error": { "phase": "parse", "diagnostics": [
                { "severity": "error", "summary": format!("the request is not JSON: {e}") } ] } })
        }
    };
    let id = request
        .get("id")
        .and_then(Json::as_str)
        .unwrap_or("")
        .to_string();
    if request.get("kind").and_then(Json::as_str) == Some("hello") {
        return json!({
            "id": id,
            "name": "hcl-ref",
            "version": format!("hcl-conformance reference interpreter {}", env!("CARGO_PKG_VERSION")),
            "capabilities": { "kinds": KINDS, "features": FEATURES },
        });
    }
    match input_from_request(&request) {
        Ok(input) if KINDS.contains(&input.kind()) => answer(&id, &reference::run(&input)),
        Ok(input) => json!({ "id": id, "unsupported": format!("kind {}", input.kind()) }),
        Err(e) if e.starts_with("unknown kind") => json!({ "id": id, "unsupported": e }),
        Err(e) => json!({ "id": id, "error": { "phase": "parse", "diagnostics": [
            { "severity": "error", "summary": format!("malformed request: {e}") } ] } }),
    }
}

fn main() -> ExitCode {
    let one_shot = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--one-shot") => true,
        Some(other) => {
            eprintln!("hcl-ref: unknown argument `{other}`\nusage: hcl-ref [--one-shot]");
            return ExitCode::from(2);
        }
    };
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else {
            eprintln!("hcl-ref: standard input is not UTF-8 text");
            return ExitCode::FAILURE;
        };
        if line.trim().is_empty() {
            continue;
        }
        let out = respond(&line);
        if writeln!(stdout, "{out}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return ExitCode::FAILURE;
        }
        if one_shot {
            break;
        }
    }
    ExitCode::SUCCESS
}
