//! The hcl-rs adapter: puts the hcl-rs crate behind the hcl-conformance
//! subprocess protocol (runner/PROTOCOL.md), in persistent mode.
//!
//! It reads one JSON request a line from standard input and writes one JSON
//! answer a line to standard output; standard error carries its own notes.
//!
//! Failure policy: hcl-rs is the implementation under test, so a panic
//! inside it is a crash of that implementation, not an answer. Each request
//! runs on its own thread (with a 256 MiB stack, so hcl-rs's recursive
//! parser and evaluator meet deep nesting as they would in a program that
//! gives them room); when that thread panics the adapter writes the panic
//! to standard error and exits with status 101 without answering, and the
//! runner reports CRASH for the case and starts a fresh process for the
//! next one. A stack overflow aborts the process, with the same verdict.

mod diagnostics;
mod functions;
mod numbers;
mod requests;
mod values;

use serde_json::{Value as Json, json};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::thread;

/// The stack each request runs on.
const STACK_SIZE: usize = 256 * 1024 * 1024;

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("hcl-rs adapter: hcl-rs panicked: {info}");
    }));
    let stdin = io::stdin();
    let mut stdout = io::stdout().lock();
    let mut line = Vec::new();
    let mut input = stdin.lock();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => return ExitCode::SUCCESS,
            Ok(_) => {}
            Err(e) => {
                eprintln!("hcl-rs adapter: cannot read standard input: {e}");
                return ExitCode::FAILURE;
            }
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let request: Json = match serde_json::from_slice(&line) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("hcl-rs adapter: a request line is not JSON: {e}");
                let answer = json!({ "id": Json::Null, "unsupported": format!("not JSON: {e}") });
                if write_line(&mut stdout, &answer).is_err() {
                    return ExitCode::FAILURE;
                }
                continue;
            }
        };
        let id = request.get("id").cloned().unwrap_or(Json::Null);
        let Some(mut answer) = answer_on_own_thread(request) else {
            eprintln!("hcl-rs adapter: exiting after a panic in request {id}");
            return ExitCode::from(101);
        };
        if let Json::Object(fields) = &mut answer {
            fields.insert("id".into(), id);
        }
        if let Err(e) = write_line(&mut stdout, &answer) {
            eprintln!("hcl-rs adapter: cannot write an answer: {e}");
            return ExitCode::FAILURE;
        }
    }
}

/// Answers one request on a fresh thread with a large stack; `None` when
/// hcl-rs panicked (or the thread could not be started).
fn answer_on_own_thread(request: Json) -> Option<Json> {
    let worker = thread::Builder::new()
        .name("request".into())
        .stack_size(STACK_SIZE)
        .spawn(move || requests::answer(&request));
    match worker {
        Ok(handle) => handle.join().ok(),
        Err(e) => {
            eprintln!("hcl-rs adapter: cannot start a request thread: {e}");
            None
        }
    }
}

/// Writes one answer as a line of JSON and flushes it.
fn write_line(out: &mut impl Write, answer: &Json) -> io::Result<()> {
    serde_json::to_writer(&mut *out, answer)?;
    out.write_all(b"\n")?;
    out.flush()
}
