//! `hcl-ref`: the reference interpreter behind the subprocess protocol
//! (`runner/PROTOCOL.md`), so that any harness can use it as an oracle.
//!
//! Every line it reads gets one line of answer carrying the request's id
//! (`null` only when no id can be read): a value, an error with the
//! interpreter's diagnostics, `unsupported`, or `malformed` for a request
//! it cannot read. It never stops serving because of what a request holds.

use hcl_conformance::reference;
use hcl_conformance::suite::CASE_KINDS;
use hcl_conformance::wire::{answer, input_from_request, PROTOCOL_VERSION};
use hcl_interpreter::eval_context::Budget;
use hcl_interpreter::{large_stack, native};
use serde::Deserialize;
use serde_json::{json, Value as Json};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;

const USAGE: &str = "\
usage: hcl-ref [--one-shot] [--budget UNITS]

The HCL reference interpreter behind the hcl-conformance protocol
(runner/PROTOCOL.md): reads one JSON request a line on standard input,
writes one JSON answer a line on standard output.

options:
  --one-shot        answer one request, then exit
  --budget UNITS    the evaluation budget of each request, in units of work
                    (default 33554432; see runner/PROTOCOL.md § Limits)
  -h, --help        print this help
  -V, --version     print the versions of hcl-ref and of the protocol";

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

/// The deepest JSON nesting a request may have (runner/PROTOCOL.md §
/// Limits). Deeper requests are answered `malformed` without being parsed.
const MAX_REQUEST_DEPTH: usize = 4096;

/// What the command line asks for.
struct Options {
    one_shot: bool,
    budget: u64,
}

/// Reads the command line: `Ok(None)` when it asked for help or the version
/// (printed), an error with what to do otherwise.
fn options() -> Result<Option<Options>, String> {
    let mut options = Options {
        one_shot: false,
        budget: Budget::DEFAULT_LIMIT,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--one-shot" => options.one_shot = true,
            "--budget" => {
                let value = args.next().ok_or("--budget needs a number of units")?;
                options.budget = value.parse().map_err(|_| {
                    format!("--budget takes a positive whole number of units, not {value:?}")
                })?;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(None);
            }
            "-V" | "--version" => {
                println!(
                    "hcl-ref {} (protocol version {PROTOCOL_VERSION})",
                    env!("CARGO_PKG_VERSION")
                );
                return Ok(None);
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(Some(options))
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(Some(options)) => options,
        Ok(None) => return ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("hcl-ref: {why}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // Answers nest as deep as the input may (200,000 levels), and encoding,
    // comparing and dropping them recurses: all the work runs on the
    // interpreter's large stack.
    match large_stack::run(native::STACK_SIZE, || serve(&options)) {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("hcl-ref: could not serve requests ({failure:?})");
            ExitCode::FAILURE
        }
    }
}

/// Answers requests until standard input closes (or after one, in one-shot
/// mode). Standard output closing ends the loop quietly.
fn serve(options: &Options) -> ExitCode {
    let stdin = std::io::stdin();
    let mut stdin = stdin.lock();
    let mut stdout = std::io::stdout().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match stdin.read_until(b'\n', &mut line) {
            Ok(0) => return ExitCode::SUCCESS,
            Ok(_) => {}
            Err(e) => {
                eprintln!("hcl-ref: cannot read standard input: {e}");
                return ExitCode::FAILURE;
            }
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let out = respond(&line, options);
        if writeln!(stdout, "{out}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            // Nobody reads the answers any more.
            return ExitCode::SUCCESS;
        }
        if options.one_shot {
            return ExitCode::SUCCESS;
        }
    }
}

/// The answer line to one request line.
fn respond(line: &[u8], options: &Options) -> String {
    let scanned = scan(line);
    let id = scanned.id.map_or(Json::Null, Json::String);
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(e) => {
            return malformed(
                id,
                format!(
                    "the request is not UTF-8 text (an invalid byte at offset {})",
                    e.valid_up_to()
                ),
            )
        }
    };
    if scanned.depth > MAX_REQUEST_DEPTH {
        return malformed(
            id,
            format!("the request nests deeper than {MAX_REQUEST_DEPTH} levels"),
        );
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    // The depth is bounded above, and the work runs on a large stack.
    deserializer.disable_recursion_limit();
    let request = match Json::deserialize(&mut deserializer).and_then(|request| {
        deserializer.end()?;
        Ok(request)
    }) {
        Ok(request) => request,
        Err(e) => return malformed(id, format!("the request is not JSON: {e}")),
    };
    let answered = catch_unwind(AssertUnwindSafe(|| answer_request(&request, options)));
    let answer = answered.unwrap_or_else(|_| {
        json!({ "id": id, "error": { "phase": "eval", "diagnostics": [{
            "severity": "error",
            "summary": "Internal error of the reference interpreter",
            "detail": "hcl-ref panicked on this request: please report it with the request.",
        }] } })
    });
    answer.to_string()
}

/// The answer to a request that is JSON.
fn answer_request(request: &Json, options: &Options) -> Json {
    let id = match request.get("id") {
        Some(Json::String(id)) => id.clone(),
        Some(other) => {
            return json!({ "id": other, "malformed": format!("`id` must be a string, not {other}") })
        }
        None => return json!({ "id": null, "malformed": "the request lacks its `id` (a string)" }),
    };
    if request.get("kind").and_then(Json::as_str) == Some("hello") {
        return hello(&id, request);
    }
    match input_from_request(request) {
        Ok(input) => answer(&id, &reference::run_with_budget(&input, options.budget)),
        Err(e) if e.starts_with("unknown kind") => json!({ "id": id, "unsupported": e }),
        Err(e) => json!({ "id": id, "malformed": e }),
    }
}

/// The answer to `hello`: the implementation's name, version and
/// capabilities, once the protocol version is one `hcl-ref` speaks.
fn hello(id: &str, request: &Json) -> Json {
    if let Some(extra) = request.as_object().and_then(|members| {
        members
            .keys()
            .find(|k| !["id", "kind", "protocol"].contains(&k.as_str()))
    }) {
        return json!({ "id": id, "malformed": format!("a `hello` request has no member `{extra}` (its members: id, kind, protocol)") });
    }
    match request.get("protocol") {
        Some(Json::Number(n)) if n.as_u64() == Some(PROTOCOL_VERSION) => {}
        Some(other) => {
            return json!({ "id": id, "malformed": format!(
                "protocol version {other} is not supported: hcl-ref speaks version {PROTOCOL_VERSION}"
            ) })
        }
        None => {
            return json!({ "id": id, "malformed": format!(
                "the `hello` request lacks `protocol` (hcl-ref speaks version {PROTOCOL_VERSION})"
            ) })
        }
    }
    json!({
        "id": id,
        "name": "hcl-ref",
        "version": format!("hcl-conformance reference interpreter {}", env!("CARGO_PKG_VERSION")),
        "capabilities": { "kinds": KINDS, "features": FEATURES },
    })
}

/// A `malformed` answer.
fn malformed(id: Json, why: String) -> String {
    json!({ "id": id, "malformed": why }).to_string()
}

/// What a quick scan of a request line finds, without parsing it: how deep
/// it nests, and the string value of its top-level `id` member, if any.
struct Scan {
    depth: usize,
    id: Option<String>,
}

/// Scans a request line byte by byte (it may not be UTF-8 or JSON), in
/// linear time and without recursion.
fn scan(line: &[u8]) -> Scan {
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut id = None;
    // The last string at the top level of the request object, and whether
    // a colon follows the member name `"id"`.
    let mut last_string: Option<&[u8]> = None;
    let mut value_of_id = false;
    let mut i = 0;
    while i < line.len() {
        match line[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < line.len() && line[i] != b'"' {
                    i += if line[i] == b'\\' { 2 } else { 1 };
                }
                let end = (i + 1).min(line.len());
                if depth == 1 {
                    let string = &line[start..end];
                    if value_of_id && id.is_none() {
                        id = serde_json::from_slice::<String>(string).ok();
                    }
                    value_of_id = false;
                    last_string = Some(string);
                }
            }
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
                value_of_id = false;
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b':' if depth == 1 => value_of_id = last_string.take() == Some(b"\"id\""),
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => value_of_id = false,
        }
        i += 1;
    }
    Scan { depth: deepest, id }
}
