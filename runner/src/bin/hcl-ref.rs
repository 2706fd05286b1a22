//! `hcl-ref`: the reference interpreter behind the subprocess protocol
//! (`runner/PROTOCOL.md`), so that any harness can use it as an oracle.
//!
//! Every line it reads gets one line of answer carrying the request's id
//! (`null` only when no id can be read): a value, an error with the
//! interpreter's diagnostics, `unsupported`, or `malformed` for a request
//! it cannot read. It never stops serving because of what a request holds.

use clap::{CommandFactory, FromArgMatches, Parser};
use hcl_conformance::envelope::{check_hello, duplicate_member, json_kind};
use hcl_conformance::kinds::{Keyword, Kind};
use hcl_conformance::reference;
use hcl_conformance::wire::{
    read_request, version, AnswerLine, Capabilities, ErrorAnswer, Hello, HelloAnswer, Outcome,
    PROTOCOL_VERSION,
};
use hcl_interpreter::diagnostic::shown;
use hcl_interpreter::eval_context::Budget;
use hcl_interpreter::{large_stack, native, Diagnostic, Phase};
use serde::Deserialize;
use serde_json::Value as Json;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;

/// The HCL reference interpreter behind the hcl-conformance protocol
/// (runner/PROTOCOL.md): reads one JSON request a line on standard input,
/// writes one JSON answer a line on standard output.
#[derive(Parser)]
#[command(name = "hcl-ref")]
struct Options {
    /// Answer one request, then exit
    #[arg(long)]
    one_shot: bool,
    /// The evaluation budget of each request, in units of work (runner/PROTOCOL.md § Limits)
    #[arg(long, value_name = "UNITS", default_value_t = Budget::DEFAULT_LIMIT)]
    budget: u64,
}

/// The features of runner/PROTOCOL.md the reference interpreter has; it
/// answers every kind.
const FEATURES: &[&str] = &[
    "unknown",
    "safety",
    "ranges",
    "dynblock",
    "exact-types",
    "big-numbers",
    "schema",
    "typeexpr",
    "namespaced-functions",
];

/// The deepest JSON nesting a request may have (runner/PROTOCOL.md §
/// Limits). Deeper requests are answered `malformed` without being parsed.
const MAX_REQUEST_DEPTH: usize = 4096;

fn main() -> ExitCode {
    let matches = Options::command().version(version()).get_matches();
    let options = Options::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
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

/// An answer line.
fn answer_line(id: Option<&str>, outcome: &Outcome) -> String {
    serde_json::to_string(&AnswerLine { id, outcome }).unwrap_or_default()
}

/// The answer line to one request line.
fn respond(line: &[u8], options: &Options) -> String {
    let scanned = scan(line);
    let id = scanned.id.as_deref();
    let malformed = |why: String| answer_line(id, &Outcome::Malformed(why));
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(e) => {
            return malformed(format!(
                "the request is not UTF-8 text (an invalid byte at offset {})",
                e.valid_up_to()
            ))
        }
    };
    if scanned.depth > MAX_REQUEST_DEPTH {
        return malformed(format!(
            "the request nests deeper than {MAX_REQUEST_DEPTH} levels"
        ));
    }
    let mut deserializer = serde_json::Deserializer::from_str(text);
    // The depth is bounded above, and the work runs on a large stack.
    deserializer.disable_recursion_limit();
    let request = match Json::deserialize(&mut deserializer).and_then(|request| {
        deserializer.end()?;
        Ok(request)
    }) {
        Ok(request) => request,
        Err(e) => return malformed(format!("the request is not JSON: {e}")),
    };
    // A JSON parser keeps one of two members of the same name; the
    // protocol has none. Two ids are no id.
    if let Some(duplicate) = duplicate_member(text) {
        let id = match duplicate.place.is_top() && duplicate.name == "id" {
            true => None,
            false => id,
        };
        return answer_line(id, &Outcome::Malformed(duplicate.to_string()));
    }
    let answered = catch_unwind(AssertUnwindSafe(|| answer_request(&request, options)));
    answered.unwrap_or_else(|_| {
        let diagnostic = Diagnostic {
            phase: Phase::Eval,
            summary: "Internal error of the reference interpreter".into(),
            detail: "hcl-ref panicked on this request: please report it with the request.".into(),
            range: None,
        };
        let error = Outcome::Error(ErrorAnswer::from_diagnostics(&[diagnostic]));
        answer_line(id, &error)
    })
}

/// The answer to a request that is JSON.
fn answer_request(request: &Json, options: &Options) -> String {
    let Some(members) = request.as_object() else {
        let why = format!("a request is a JSON object, not {}", json_kind(request));
        return answer_line(None, &Outcome::Malformed(why));
    };
    let id = match members.get("id") {
        Some(Json::String(id)) => id.as_str(),
        Some(other) => {
            let why = format!("`id` must be a string, not {}", json_kind(other));
            return answer_line(None, &Outcome::Malformed(why));
        }
        None => {
            let why = "the request lacks `id` (a string)".to_string();
            return answer_line(None, &Outcome::Malformed(why));
        }
    };
    if members.get("kind").and_then(Json::as_str) == Some("hello") {
        if let Err(why) = check_hello(members) {
            return answer_line(Some(id), &Outcome::Malformed(why));
        }
        return hello(id, request);
    }
    let outcome = match read_request(members) {
        Ok(Ok(input)) => reference::run_with_budget(&input, options.budget),
        Ok(Err(unknown_kind)) => Outcome::Unsupported(unknown_kind),
        Err(why) => Outcome::Malformed(why),
    };
    answer_line(Some(id), &outcome)
}

/// The answer to `hello`: the implementation's name, version and
/// capabilities, once the protocol version is one `hcl-ref` speaks.
fn hello(id: &str, request: &Json) -> String {
    let malformed = |why: String| answer_line(Some(id), &Outcome::Malformed(why));
    let hello = match Hello::deserialize(request) {
        Ok(hello) => hello,
        Err(e) => return malformed(format!("a `hello` request: {}", shown(e))),
    };
    if hello.protocol != PROTOCOL_VERSION {
        return malformed(format!(
            "protocol version {} is not supported: hcl-ref speaks version {PROTOCOL_VERSION}",
            hello.protocol
        ));
    }
    let answer = HelloAnswer {
        name: "hcl-ref".into(),
        version: format!(
            "hcl-conformance reference interpreter {}",
            env!("CARGO_PKG_VERSION")
        ),
        capabilities: Capabilities {
            kinds: Kind::ALL.iter().map(|k| k.name().to_string()).collect(),
            features: FEATURES.iter().map(|f| f.to_string()).collect(),
            syntaxes: Some(["native", "json"].map(String::from).into()),
        },
    };
    #[derive(serde::Serialize)]
    struct Line<'a> {
        id: &'a str,
        #[serde(flatten)]
        answer: HelloAnswer,
    }
    serde_json::to_string(&Line { id, answer }).unwrap_or_default()
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
