//! `hcl-ref` under fire: requests mutated from the suite's own requests
//! (at the level of their JSON and of their bytes), and generated ones
//! (deep nesting of every kind, huge numbers and strings, many attributes
//! and labels, work beyond the evaluation budget, products of objects and
//! of big numbers, conversion and unification of many object types, large
//! request values, hostile Unicode), sent to one `hcl-ref` process under a
//! 4 GiB address-space cap. Every request must be answered, in time, with one
//! well-formed line carrying its id; the process must never crash.
//!
//! - `HCL_FUZZ_SECONDS` bounds the run (default 40); a long local run:
//!   `HCL_FUZZ_SECONDS=3600 cargo test --release --test protocol_fuzz`.
//! - `HCL_FUZZ_SEED` replays a run (the seed is printed); a failure also
//!   writes the request that caused it to `protocol-fuzz-failure.json` in
//!   the test's temporary folder.

mod deep_json;

use deep_json::{nesting, parse_deep};
use hcl_conformance_format::envelope;
use hcl_conformance_format::kinds::{Keyword, Kind, MAX_DEPTH};
use hcl_conformance_format::suite::load_suite;
use hcl_conformance_format::wire::{self, RequestLine};
use hcl_random_inputs::{mutate_text, Mutations, Rng};
use serde_json::{json, Value as Json};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// An answer must come within this time (a debug build of `hcl-ref`
/// answers the deepest inputs in a few seconds).
const ANSWER_TIME: Duration = Duration::from_secs(120);

/// The address space `hcl-ref` runs in here (`ulimit -v 4194304`, as the
/// hostile-input tests of runner/tests/hostile_*.rs).
const ADDRESS_SPACE: libc::rlim_t = 4 << 30;

/// The evaluation budget `hcl-ref` runs with here: smaller than the
/// default, so that the requests that exceed it end quickly.
const BUDGET: &str = "33554432";

/// One `hcl-ref` process, its answers read on a thread of their own.
struct HclRef {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<Option<Vec<u8>>>,
}

impl HclRef {
    fn start() -> HclRef {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hcl-ref"));
        command
            .args(["--budget", BUDGET])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // Under the address-space cap of the hostile-input tests, so that
        // a request that makes hcl-ref grow beyond it shows as a crash.
        // SAFETY: only an async-signal-safe call between fork and exec.
        unsafe {
            command.pre_exec(|| {
                let cap = libc::rlimit {
                    rlim_cur: ADDRESS_SPACE,
                    rlim_max: ADDRESS_SPACE,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &cap) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            });
        }
        let mut child = command.spawn().expect("hcl-ref starts");
        let stdin = child.stdin.take().expect("a pipe");
        let stdout = child.stdout.take().expect("a pipe");
        let (sender, answers) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => {
                        let _ = sender.send(None);
                        return;
                    }
                    Ok(_) => {
                        if sender.send(Some(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        HclRef {
            child,
            stdin,
            answers,
        }
    }

    /// Sends one request line and waits for its answer line.
    fn ask(&mut self, request: &[u8]) -> Result<Vec<u8>, String> {
        self.stdin
            .write_all(request)
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("hcl-ref no longer reads its input: {e}"))?;
        match self.answers.recv_timeout(ANSWER_TIME) {
            Ok(Some(answer)) => Ok(answer),
            Ok(None) => Err(format!(
                "hcl-ref closed its output (exit status {:?})",
                self.child.wait().ok()
            )),
            Err(RecvTimeoutError::Timeout) => Err(format!("no answer within {ANSWER_TIME:?}")),
            Err(RecvTimeoutError::Disconnected) => Err("the reader thread ended".into()),
        }
    }
}

impl Drop for HclRef {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The members of which an answer has exactly one: those of the answers to
/// cases (`wire::ANSWER_MEMBERS`), and `capabilities`, the answer to
/// `hello`.
fn answer_members() -> impl Iterator<Item = &'static str> {
    wire::ANSWER_MEMBERS.iter().copied().chain(["capabilities"])
}

/// Checks one answer to one request line.
fn check(request: &[u8], answer: &[u8]) -> Result<(), String> {
    let answer =
        std::str::from_utf8(answer).map_err(|e| format!("the answer is not UTF-8: {e}"))?;
    let answer = answer
        .strip_suffix('\n')
        .ok_or("the answer line does not end in a newline")?;
    if answer.contains('\n') {
        return Err("the answer spans lines".into());
    }
    let parsed = parse_deep(answer).ok_or("the answer is not JSON")?;
    let members = parsed.as_object().ok_or("the answer is not an object")?;
    let id = members.get("id").ok_or("the answer has no `id`")?;
    // A request that is JSON but names a member twice is malformed, and
    // its id is null when the member is the id (runner/PROTOCOL.md §
    // Errors).
    let text = std::str::from_utf8(request).ok();
    let json = text.and_then(parse_deep);
    let duplicate = text
        .filter(|_| json.is_some())
        .and_then(envelope::duplicate_member);
    if let Some(duplicate) = &duplicate {
        if !members.get("malformed").is_some_and(Json::is_string) {
            return Err(format!(
                "a request in which {duplicate} is not answered malformed"
            ));
        }
    }
    let two_ids = duplicate.is_some_and(|d| d.place.is_top() && d.name == "id");
    // The id must be the request's whenever the request is JSON with a
    // (single) string id; otherwise a string or null.
    let request_id = json.and_then(|r| r.get("id").cloned());
    match request_id {
        _ if two_ids && !id.is_null() => {
            return Err(format!("the answer's id is {id}, not null for two ids"))
        }
        _ if two_ids => {}
        Some(Json::String(expected)) if *id != Json::String(expected.clone()) => {
            return Err(format!(
                "the answer's id is {id}, the request's {expected:?}"
            ))
        }
        Some(Json::String(_)) => {}
        _ if !(id.is_null() || id.is_string() || request_id.as_ref() == Some(id)) => {
            return Err(format!("the answer's id is {id}"))
        }
        _ => {}
    }
    let found: Vec<&str> = answer_members()
        .filter(|m| members.contains_key(*m))
        .collect();
    if found.len() != 1 {
        return Err(format!(
            "the answer has {found:?}, not exactly one answer member"
        ));
    }
    match found[0] {
        "error" => {
            let error = &members["error"];
            let phase = error["phase"].as_str().ok_or("an error without a phase")?;
            if hcl_interpreter::Phase::ALL
                .iter()
                .all(|known| known.name() != phase)
            {
                return Err(format!("an error in the unknown phase {phase:?}"));
            }
            let diagnostics = error["diagnostics"]
                .as_array()
                .filter(|d| !d.is_empty())
                .ok_or("an error without diagnostics")?;
            if diagnostics
                .iter()
                .any(|d| d["summary"].as_str().is_none_or(str::is_empty))
            {
                return Err("a diagnostic without a summary".into());
            }
        }
        "malformed" | "unsupported" if !members[found[0]].is_string() => {
            return Err(format!("`{}` is not a string", found[0]));
        }
        _ => {}
    }
    // An answer to a request of a known kind reads as one (as the runner
    // reads answers: up to its nesting limit).
    if nesting(&parsed) > MAX_DEPTH {
        return Ok(());
    }
    if let Some(kind) = std::str::from_utf8(request)
        .ok()
        .and_then(parse_deep)
        .and_then(|r| r.get("kind").and_then(Json::as_str).map(str::to_string))
    {
        let answered = !matches!(found[0], "malformed" | "unsupported" | "capabilities");
        if let Some(kind) = Kind::ALL
            .iter()
            .find(|k| k.name() == kind)
            .filter(|_| answered)
        {
            wire::outcome_from_answer(&parsed, *kind)
                .map(drop)
                .map_err(|e| {
                    format!("the answer does not read as one to `{}`: {e}", kind.name())
                })?;
        }
    }
    Ok(())
}

/// Characters that break naive text handling.
const HOSTILE: &[&str] = &[
    "\u{0}",
    "\u{7f}",
    "\u{feff}",
    "\u{200d}",
    "\u{202e}",
    "\u{2028}",
    "\u{fffd}",
    "\u{ffff}",
    "\u{10ffff}",
    "e\u{301}",
    "\u{1f600}",
    "\u{e9}",
    "\r",
    "\t",
    "\\",
    "\"",
    "\\u",
    "\\ud800",
    "$${",
    "%%{",
    "${",
    "%{",
    "}",
    "~}",
    "\u{85}",
    "\u{3000}",
    "\u{180e}",
];

/// Pieces of HCL that source mutations splice in.
const TOKENS: &[&str] = &[
    "${", "}", "%{", "~}", "{", "[", "(", ")", "]", "\"", "<<EOT\n", "<<-EOT\n", "\nEOT\n", "\n",
    "for", "in", "if", "else", "endif", "endfor", "...", "[*]", ".*", ".0", "?", ":", "=>", "==",
    "!", "&&", "-", "/", "%", "1e99999", "null", "true", "x", "#", "//", "/*", "*/", "=",
    "dynamic", "content", "for_each", "convert(", "list(", "object({",
];

/// A text of a request (a source, a name) mutated, hostile strings and
/// any character included.
fn mutate_source(text: &str, rng: &mut Rng) -> String {
    let how = Mutations {
        pieces: TOKENS,
        hostile: HOSTILE,
        chars_below: 0x11_0000,
    };
    mutate_text(text, rng, &how)
}

/// A random JSON value of a random kind.
fn random_json(rng: &mut Rng) -> Json {
    match rng.below(9) {
        0 => Json::Null,
        1 => json!(rng.chance(2)),
        2 => json!(rng.below(1000)),
        3 => json!(-1.5e300),
        4 => json!(mutate_source("x", rng)),
        5 => json!([]),
        6 => json!({}),
        7 => json!(["object", {}, "junk"]),
        _ => json!({ "type": "number", "value": 1, "unknown": [true] }),
    }
}

/// Mutates one place of a request's JSON tree.
fn mutate_json(request: &mut Json, rng: &mut Rng) {
    // Choose a random place, as a JSON pointer.
    let mut pointer = String::new();
    let mut at: &Json = request;
    while rng.below(3) != 0 {
        match at {
            Json::Object(members) if !members.is_empty() => {
                let (key, next) = members
                    .iter()
                    .nth(rng.below(members.len()))
                    .expect("a member");
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                at = next;
            }
            Json::Array(items) if !items.is_empty() => {
                let i = rng.below(items.len());
                pointer.push_str(&format!("/{i}"));
                at = &items[i];
            }
            _ => break,
        }
    }
    let place = request.pointer_mut(&pointer).expect("the chosen place");
    match place {
        Json::String(text) if rng.below(3) != 0 => *text = mutate_source(text, rng),
        Json::Object(members) if rng.chance(2) => {
            if rng.chance(2) && !members.is_empty() {
                let key = members.keys().nth(rng.below(members.len())).cloned();
                if let Some(key) = key {
                    members.remove(&key);
                }
            } else {
                let name = rng.pick(&["unknown", "id", "kind", "extensions", "junk", "value"]);
                members.insert(name.to_string(), random_json(rng));
            }
        }
        Json::Array(items) if rng.chance(2) => {
            if rng.chance(2) {
                items.push(random_json(rng));
            } else {
                items.truncate(rng.below(items.len() + 1));
            }
        }
        other => *other = random_json(rng),
    }
}

/// The request's text with one member of one of its objects (at any depth)
/// written twice, the second time with a value of its own; the request
/// itself when it has no member.
fn with_a_member_twice(request: &Json, rng: &mut Rng) -> String {
    // The JSON pointers of the objects that have members.
    let mut objects = Vec::new();
    let mut stack = vec![(String::new(), request)];
    while let Some((pointer, v)) = stack.pop() {
        match v {
            Json::Object(members) if !members.is_empty() => {
                for (key, member) in members {
                    let key = key.replace('~', "~0").replace('/', "~1");
                    stack.push((format!("{pointer}/{key}"), member));
                }
                objects.push(pointer);
            }
            Json::Array(items) => stack.extend(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| (format!("{pointer}/{i}"), item)),
            ),
            _ => {}
        }
    }
    if objects.is_empty() {
        return request.to_string();
    }
    let mut copy = request.clone();
    let Some(Json::Object(members)) = copy.pointer_mut(rng.pick(objects.as_slice()).as_str())
    else {
        return request.to_string();
    };
    let name = members
        .keys()
        .nth(rng.below(members.len()))
        .cloned()
        .unwrap_or_default();
    // A member no request has marks the place, then becomes the second.
    const MARK: &str = r"\u0001twice";
    members.insert("\u{1}twice".into(), Json::Null);
    let second = match rng.chance(2) {
        true => members[&name].clone(),
        false => random_json(rng),
    };
    copy.to_string().replacen(
        &format!("\"{MARK}\":null"),
        &format!("{}:{second}", Json::String(name)),
        1,
    )
}

/// Mutates a request line's bytes (never adding a line break).
fn mutate_bytes(line: &mut Vec<u8>, rng: &mut Rng) {
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(line.len() + 1);
        match rng.below(5) {
            0 if at < line.len() => line[at] ^= 1 << rng.below(8),
            1 => line.insert(
                at,
                *rng.pick(&[0xff, 0xc3, 0xe2, 0xed, 0x80, 0x00, b'"', b'{', b']']),
            ),
            2 => line.truncate(at),
            3 if !line.is_empty() => {
                let from = rng.below(line.len());
                let end = (from + 1 + rng.below(32)).min(line.len());
                let copy = line[from..end].to_vec();
                line.splice(at..at, copy);
            }
            _ => {
                let tail = line.split_off(at);
                line.extend_from_slice(b"[[[[{{{{");
                line.extend(tail);
            }
        }
    }
    for b in line.iter_mut() {
        if *b == b'\n' {
            *b = b' ';
        }
    }
}

/// A depth: mostly small, sometimes around the limits.
fn depth(rng: &mut Rng) -> usize {
    match rng.below(60) {
        0 => 199_999,
        1 => 200_001,
        2..=4 => 50_000 + rng.below(1000),
        5..=15 => 1_000 + rng.below(10_000),
        _ => 1 + rng.below(200),
    }
}

fn expr_request(expr: String, variables: Json) -> Json {
    json!({ "kind": "expr", "expr": expr, "variables": variables })
}

fn config_request(syntax: &str, config: String, extensions: &[&str]) -> Json {
    json!({ "kind": "config", "syntax": syntax, "config": config, "variables": {},
            "extensions": extensions })
}

fn number_list(n: usize) -> Json {
    json!({ "type": ["list", "number"], "value": (0..n).collect::<Vec<_>>() })
}

/// A generated request of one of the hostile families.
fn generated(rng: &mut Rng) -> Json {
    let n = depth(rng);
    match rng.below(21) {
        0 => {
            let (open, close) =
                *rng.pick(&[("[", "]"), ("(", ")"), ("{a = ", "}"), ("\"${", "}\"")]);
            expr_request(open.repeat(n) + "1" + &close.repeat(n), json!({}))
        }
        1 => expr_request("-".repeat(n) + "1", json!({})),
        2 => expr_request(vec!["1"; n.min(100_000) + 1].join(" + "), json!({})),
        3 => json!({ "kind": "template", "variables": {},
            "template": "%{ if true }".repeat(n) + "x" + &"%{ endif }".repeat(n) }),
        4 => config_request("native", "b {\n".repeat(n) + &"}\n".repeat(n), &[]),
        5 => config_request(
            "native",
            "dynamic \"b\" {\n for_each = [1]\n content {\n".repeat(n / 3)
                + &"}\n}\n".repeat(n / 3),
            &["dynblock"],
        ),
        6 => {
            let size = 10 + rng.below(2000);
            let levels = 2 + rng.below(3);
            let mut expr = "1".to_string();
            for level in 0..levels {
                expr = format!("[for v{level} in l: {expr}]");
            }
            expr_request(format!("length({expr})"), json!({ "l": number_list(size) }))
        }
        7 => {
            let big = "x".repeat(1 << (10 + rng.below(12)));
            expr_request(
                "[for a in l: [for b in l: s]]".into(),
                json!({ "l": number_list(200 + rng.below(2000)),
                        "s": { "type": "string", "value": big } }),
            )
        }
        8 => {
            let digits = 1 + rng.below(50_000);
            let number = "9".repeat(digits);
            let op = rng.pick(&["*", "+", "/", "%", "-"]);
            expr_request(
                format!("{number} {op} x"),
                json!({ "x": { "type": "number",
                "value": rng.pick(&["1e400000", "-1e-400000", "+Inf", "3", "0"]).to_string() } }),
            )
        }
        9 => expr_request(
            rng.pick(&[
                "1e999999999",
                "1e-999999999",
                "0.1e-99999999999999999999",
                "1.5e+",
            ])
            .to_string(),
            json!({}),
        ),
        10 => {
            let count = 1 + rng.below(100_000);
            let config: String = (0..count).map(|i| format!("a{i} = {i}\n")).collect();
            config_request("native", config, &[])
        }
        11 => {
            let labels: String = (0..1 + rng.below(20_000))
                .map(|i| format!(" \"l{i}\""))
                .collect();
            config_request("native", format!("b{labels} {{}}\n"), &[])
        }
        12 => {
            let hostile: String = (0..1 + rng.below(200))
                .map(|_| *rng.pick(HOSTILE))
                .collect();
            match rng.below(3) {
                0 => expr_request(format!("\"{hostile}\""), json!({})),
                1 => json!({ "kind": "template", "template": hostile, "variables": {} }),
                _ => expr_request(format!("x{hostile}"), json!({})),
            }
        }
        13 => {
            let (open, close) = *rng.pick(&[("[", "]"), ("{\"a\": ", "}")]);
            config_request(
                "json",
                format!("{{\"a\": {}1{}}}", open.repeat(n), close.repeat(n)),
                &[],
            )
        }
        14 => json!({ "kind": "typeexpr", "syntax": "native", "constraint": rng.chance(2),
            "expr": "list(".repeat(n) + "string" + &")".repeat(n) }),
        // The memory attacks of issue 26: what evaluation, conversion,
        // unification and decoding build grows far beyond the request.
        16 => expr_request(
            "length([for a in l: [for b in l: [for c in l: {x = c}]]])".into(),
            json!({ "l": number_list(10 + rng.below(1000)) }),
        ),
        17 => expr_request(
            "length([for a in l: [for b in l: 1e39999 + a * b]])".into(),
            json!({ "l": number_list(10 + rng.below(1000)) }),
        ),
        18 => expr_request(
            rng.pick(&[
                "length(convert([for i in l: {\"k${i}\" = i}], list(any)))",
                "length(convert([for i in l: {\"k${i}\" = i}], list(dynamic)))",
                "length(coalesce([for i in l: {\"k${i}\" = i}]...))",
            ])
            .to_string(),
            json!({ "l": number_list(10 + rng.below(20_000)) }),
        ),
        19 => {
            let types: Vec<Json> = (0..1 + rng.below(20_000))
                .map(|i| json!(["object", { format!("k{i}"): "number" }]))
                .collect();
            json!({ "kind": "unify", "types": types })
        }
        20 => {
            let count = 1 + rng.below(200_000);
            let value: Vec<Json> = (0..count).map(|_| json!({ "a": ["x"] })).collect();
            expr_request(
                "length(v)".into(),
                json!({ "v": { "type": ["list", ["object", { "a": ["list", "string"] }]],
                               "value": value } }),
            )
        }
        _ => json!({ "kind": "static", "syntax": "native", "analysis": "traversal",
            "expr": "a".to_string() + &".b".repeat(n) }),
    }
}

/// Runs the fuzzer on this (large-stack) thread.
fn fuzz(seed: u64, seconds: u64, failure_file: &Path) {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite"));
    let suite = load_suite(dir).expect("the suite loads");
    let requests: Vec<Json> = suite
        .cases()
        .map(|case| {
            let request = RequestLine {
                id: &case.id,
                input: &case.input,
            };
            serde_json::to_value(request).expect("a request")
        })
        .collect();
    let mut rng = Rng(seed | 1);
    let mut hcl_ref = HclRef::start();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut sent = 0usize;
    let mut families = [0usize; 3];
    while Instant::now() < deadline {
        let family = rng.below(10);
        let line: Vec<u8> = match family {
            // The suite's own requests, unchanged or mutated in their JSON.
            0..=4 => {
                let mut request = rng.pick(&requests).clone();
                for _ in 0..rng.below(3) {
                    mutate_json(&mut request, &mut rng);
                }
                match rng.chance(8) {
                    true => with_a_member_twice(&request, &mut rng),
                    false => request.to_string(),
                }
                .into_bytes()
            }
            // ... or in their bytes.
            5 | 6 => {
                let mut line = rng.pick(&requests).to_string().into_bytes();
                mutate_bytes(&mut line, &mut rng);
                line
            }
            // Generated hostile requests.
            _ => {
                let mut request = generated(&mut rng);
                request["id"] = json!(format!("g{sent}"));
                request.to_string().into_bytes()
            }
        };
        families[match family {
            0..=4 => 0,
            5 | 6 => 1,
            _ => 2,
        }] += 1;
        if line.iter().all(u8::is_ascii_whitespace) {
            // hcl-ref skips blank lines without an answer.
            continue;
        }
        let outcome = hcl_ref.ask(&line).and_then(|answer| check(&line, &answer));
        if let Err(why) = outcome {
            let _ = std::fs::write(failure_file, &line);
            panic!(
                "request {sent} of seed {seed}: {why}\n(the request is in {}; replay with HCL_FUZZ_SEED={seed})",
                failure_file.display()
            );
        }
        sent += 1;
    }
    println!(
        "seed {seed}: {sent} requests answered ({} suite requests mutated in JSON, {} in bytes, {} generated)",
        families[0], families[1], families[2]
    );
}

#[test]
fn every_request_is_answered_with_one_line_carrying_its_id() {
    let seed = std::env::var("HCL_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
    let seconds = std::env::var("HCL_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    println!("protocol fuzz: seed {seed} (replay with HCL_FUZZ_SEED={seed}), {seconds} s");
    let failure_file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("protocol-fuzz-failure.json");
    std::thread::Builder::new()
        .stack_size(8 << 30)
        .spawn(move || fuzz(seed, seconds, &failure_file))
        .expect("a thread")
        .join()
        .expect("the fuzz run passes");
}
