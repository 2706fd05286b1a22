//! `hcl-ref`: the reference interpreter behind the subprocess protocol
//! (`runner/PROTOCOL.md`), so that any harness can use it as an oracle.
//!
//! Every line it reads gets one line of answer carrying the request's id
//! (`null` only when no id can be read): a value, an error with the
//! interpreter's diagnostics, `unsupported`, or `malformed` for a request
//! it cannot read. It never stops serving because of what a request holds.

use clap::{CommandFactory, FromArgMatches, Parser};
use hcl_conformance_format::decoding::{json_within, with_request_budget, within_request_budget};
use hcl_conformance_format::envelope::{check_hello, duplicate_member, json_kind};
use hcl_conformance_format::kinds::{Keyword, Kind};
use hcl_conformance_format::wire::{
    read_request, version, AnswerLine, Attribute, Capabilities, ErrorAnswer, Hello, HelloAnswer,
    Outcome, PROTOCOL_VERSION,
};
use hcl_conformance_runner::reference;
use hcl_interpreter::budget::{text_bytes, Budget, BudgetExceeded};
use hcl_interpreter::diagnostic::shown;
use hcl_interpreter::large_stack::{self, Failure};
use hcl_interpreter::{native, Diagnostic, Phase};
use serde::Deserialize;
use serde_json::Value as Json;
use std::io::{BufRead, Write};
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
    /// The evaluation budget of each request, in bytes: the memory that reading the request and
    /// evaluating, converting or unifying build, and the work they do, counted as bytes
    /// (runner/PROTOCOL.md § Limits)
    #[arg(long, value_name = "BYTES", default_value_t = Budget::DEFAULT_LIMIT)]
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
    // A build with planted bugs (scripts/fuzz-planted) refuses an unknown
    // HCL_REF_PLANTED_BUG; any other build has nothing to check.
    if let Err(why) = hcl_interpreter::check_planted_bug!() {
        eprintln!("hcl-ref: {why}");
        return ExitCode::FAILURE;
    }
    // Requests are served on the main thread's own stack; a request, or an
    // answer, that nests deeper than it holds is handled on a larger stack
    // of its own (`respond`), and the interpreter takes one for input that
    // nests deeper (`large_stack`). Nothing is reserved up front.
    serve(&options)
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

/// The stack one level of an answer's nesting may take when it is encoded
/// (a value, its type, or a block, and what encloses it): about 2.6 KiB in
/// debug builds (a tuple, with its type), 0.7 KiB in release builds.
const ANSWER_BYTES_PER_LEVEL: usize = 4 << 10;

/// What answering a request gives: an answer line already written (to
/// `hello`, or to a request that cannot be read), or the outcome of a case
/// request, to be encoded within what is left of its budget.
enum Answer {
    Line(String),
    Outcome {
        id: String,
        outcome: Outcome,
        budget: Budget,
        kind: Option<String>,
    },
}

/// The answer line to one request line.
///
/// Reading a request recurses as deep as it nests (at most
/// [`MAX_REQUEST_DEPTH`] levels), and so does the interpreter's work on
/// the values it holds; encoding an answer recurses as deep as the answer
/// nests, which may be as deep as the input (a value of 199,999 nested
/// tuples). Each runs here, on the caller's stack, when what is left of it
/// holds that nesting, or else on a larger stack of its own
/// ([`large_stack::run_levels`]); a stack the system refuses is an error
/// answer that says so, and serving goes on.
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
    // Reading the request, as what is done with it, is paid for from the
    // request's evaluation budget.
    let budget = Budget::new(options.budget);
    let answered = large_stack::run_levels(scanned.depth, native::BYTES_PER_LEVEL, || {
        read_and_answer(text, id, budget)
    });
    let (answer_id, outcome, budget, kind) = match answered {
        Ok(Answer::Line(line)) => return line,
        Ok(Answer::Outcome {
            id,
            outcome,
            budget,
            kind,
        }) => (id, outcome, budget, kind),
        Err(failure) => return answer_line(id, &failed(failure, "the request", scanned.depth)),
    };
    let levels = answer_levels(&outcome);
    let encoded = large_stack::run_levels(levels, ANSWER_BYTES_PER_LEVEL, || {
        answer_within(&answer_id, &outcome, budget, kind.as_deref())
    });
    dismantle(outcome);
    encoded.unwrap_or_else(|failure| {
        answer_line(Some(&answer_id), &failed(failure, "the answer", levels))
    })
}

/// The error answer of a request whose work on `what`, nested `levels`
/// levels deep, could not run: the system refused the stack it needed, or
/// it panicked (a bug).
fn failed(failure: Failure, what: &str, levels: usize) -> Outcome {
    let diagnostic = match failure {
        Failure::Refused(size) => Diagnostic::new(
            Phase::Eval,
            large_stack::NOT_ENOUGH_STACK,
            format!(
                "{what} nests {levels} levels deep, and the stack that needs ({} MiB) was refused by the system.",
                size.div_ceil(1 << 20)
            ),
        ),
        Failure::Panicked => Diagnostic {
            phase: Phase::Eval,
            summary: Diagnostic::INTERNAL_ERROR.into(),
            detail: "hcl-ref panicked on this request: please report it with the request.".into(),
            range: None,
        },
    };
    Outcome::Error(ErrorAnswer::from_diagnostics(&[diagnostic]))
}

/// Reads a request line that is UTF-8 text (`id`, the id a scan found in
/// it) and answers it, within `budget`.
fn read_and_answer(text: &str, id: Option<&str>, budget: Budget) -> Answer {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    // The depth is bounded above, and the work runs on a stack that holds
    // it.
    deserializer.disable_recursion_limit();
    let request = match json_within(&mut deserializer, &budget).and_then(|request| {
        deserializer.end()?;
        Ok(request)
    }) {
        Ok(request) => request,
        Err(_) if budget.is_exceeded() => {
            return Answer::Line(answer_line(id, &out_of_budget(&budget, None)))
        }
        Err(e) => {
            let why = format!("the request is not JSON: {e}");
            return Answer::Line(answer_line(id, &Outcome::Malformed(why)));
        }
    };
    // A JSON parser keeps one of two members of the same name; the
    // protocol has none. Two ids are no id.
    if let Some(duplicate) = duplicate_member(text) {
        let id = match duplicate.place.is_top() && duplicate.name == "id" {
            true => None,
            false => id,
        };
        return Answer::Line(answer_line(id, &Outcome::Malformed(duplicate.to_string())));
    }
    answer_request(request, budget)
}

/// How deep an answer's outcome nests: a value's levels (its type's
/// included), a body's blocks and the levels of its attributes' values, a
/// type's levels. Counted without recursion.
fn answer_levels(outcome: &Outcome) -> usize {
    let body = match outcome {
        Outcome::Value { value, .. } => return value.0.levels(),
        Outcome::Type(ty) => return ty.0.levels(),
        Outcome::Body(body) => body,
        _ => return 1,
    };
    let mut bodies = vec![(body, 1)];
    let mut deepest = 0;
    while let Some((body, depth)) = bodies.pop() {
        deepest = deepest.max(depth);
        for attribute in body.attributes.values() {
            if let Attribute::Value(value) = attribute {
                deepest = deepest.max(depth + value.0.levels());
            }
        }
        bodies.extend(body.blocks.iter().map(|b| (&b.body, depth + 1)));
        bodies.extend(body.remain.as_deref().map(|r| (r, depth + 1)));
    }
    deepest
}

/// Drops an outcome without recursion: a body's blocks nest as deep as
/// the input (its values and types drop without recursion).
fn dismantle(outcome: Outcome) {
    let Outcome::Body(body) = outcome else {
        return;
    };
    let mut bodies = vec![body];
    while let Some(mut body) = bodies.pop() {
        bodies.extend(body.blocks.drain(..).map(|b| b.body));
        bodies.extend(body.remain.take().map(|r| *r));
    }
}

/// The error answer of a request whose reading ran out of its budget: in
/// the phase of the request's work (`conversion` for `convert`,
/// `unification` for `unify`, else `eval`).
fn out_of_budget(budget: &Budget, kind: Option<&str>) -> Outcome {
    let phase = match kind {
        Some("convert") => Phase::Conversion,
        Some("unify") => Phase::Unification,
        _ => Phase::Eval,
    };
    let exceeded = BudgetExceeded {
        limit: budget.limit(),
    };
    Outcome::Error(ErrorAnswer::from_diagnostics(&[exceeded.diagnostic(phase)]))
}

/// The answer to a request that is JSON, read and answered within
/// `budget`.
fn answer_request(request: Json, budget: Budget) -> Answer {
    let Json::Object(members) = request else {
        let why = format!("a request is a JSON object, not {}", json_kind(&request));
        return Answer::Line(answer_line(None, &Outcome::Malformed(why)));
    };
    let id = match members.get("id") {
        Some(Json::String(id)) => id.clone(),
        Some(other) => {
            let why = format!("`id` must be a string, not {}", json_kind(other));
            return Answer::Line(answer_line(None, &Outcome::Malformed(why)));
        }
        None => {
            let why = "the request lacks `id` (a string)".to_string();
            return Answer::Line(answer_line(None, &Outcome::Malformed(why)));
        }
    };
    let kind = members
        .get("kind")
        .and_then(Json::as_str)
        .map(str::to_owned);
    if kind.as_deref() == Some("hello") {
        if let Err(why) = check_hello(&members) {
            return Answer::Line(answer_line(Some(&id), &Outcome::Malformed(why)));
        }
        return Answer::Line(hello(&id, &Json::Object(members)));
    }
    let (read, budget) = within_request_budget(budget, || read_request(members));
    let (outcome, budget) = match read {
        Ok(Ok(input)) => reference::run_within(input, budget),
        Ok(Err(unknown_kind)) => (Outcome::Unsupported(unknown_kind), budget),
        Err(_) if budget.is_exceeded() => (out_of_budget(&budget, kind.as_deref()), budget),
        Err(why) => (Outcome::Malformed(why), budget),
    };
    Answer::Outcome {
        id,
        outcome,
        budget,
        kind,
    }
}

/// The answer line of a request of kind `kind`, written within what is
/// left of its budget: the answer's text, and the work of writing its
/// large numbers, are paid for from it (an answer can be several times the
/// memory of its value: a string of control characters takes six bytes a
/// character). An answer beyond the budget is the budget's error.
fn answer_within(id: &str, outcome: &Outcome, budget: Budget, kind: Option<&str>) -> String {
    let line = AnswerLine {
        id: Some(id),
        outcome,
    };
    let (written, budget) = within_request_budget(budget, || {
        let mut text = ChargedText(Vec::new());
        serde_json::to_writer(&mut text, &line).map(|()| text.0)
    });
    match written {
        Ok(text) => String::from_utf8(text).unwrap_or_default(),
        Err(_) if budget.is_exceeded() => answer_line(Some(id), &out_of_budget(&budget, kind)),
        Err(_) => answer_line(Some(id), outcome),
    }
}

/// The text of an answer, its room paid for from the request's budget
/// before it grows.
struct ChargedText(Vec<u8>);

impl Write for ChargedText {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let needed = self.0.len().saturating_add(bytes.len());
        if needed > self.0.capacity() {
            let grown = needed.max(self.0.capacity().saturating_mul(2)).max(4096);
            with_request_budget(|budget| match budget {
                Some(budget) => budget.charge(text_bytes(grown)),
                None => Ok(()),
            })
            .map_err(|exceeded| std::io::Error::other(exceeded.detail()))?;
            self.0.reserve_exact(grown - self.0.len());
        }
        self.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
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
