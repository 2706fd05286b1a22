//! `hcl-ref` as an oracle facing any input: every request line gets one
//! answer line carrying its id, the process keeps serving after any of
//! them, and it says why it rejects what it rejects (runner/PROTOCOL.md §
//! Limits, § Errors).

mod deep_json;

use deep_json::{nesting, parse_deep};
use serde_json::{json, Value as Json};
use std::io::Write;
use std::process::{Command, Stdio};

/// Sends `lines` to one `hcl-ref` process (with `args`) and returns its
/// answer lines, after checking that it exited successfully.
fn exchange(args: &[&str], lines: &[Vec<u8>]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hcl-ref"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("hcl-ref starts");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input: Vec<u8> = lines
        .iter()
        .flat_map(|l| l.iter().chain(b"\n"))
        .copied()
        .collect();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("hcl-ref runs");
    writer.join().expect("the writer").expect("hcl-ref reads");
    assert!(
        output.status.success(),
        "hcl-ref exited with {}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("answers are UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn line(request: &Json) -> Vec<u8> {
    request.to_string().into_bytes()
}

/// A shallow answer line, parsed.
fn parse(answer: &str) -> Json {
    serde_json::from_str(answer).unwrap_or_else(|e| panic!("not JSON ({e}): {answer}"))
}

/// An answer of any depth, parsed on a large stack: its id, and the depth
/// of its deepest nesting.
fn id_and_depth(answer: String) -> (Json, usize) {
    std::thread::Builder::new()
        .stack_size(8 << 30)
        .spawn(move || {
            let parsed = parse_deep(&answer).expect("the answer is JSON");
            let id = parsed["id"].clone();
            let deepest = nesting(&parsed);
            // Dropped here, on the large stack.
            (id, deepest)
        })
        .expect("a thread")
        .join()
        .expect("the answer parses")
}

fn one() -> Json {
    json!({ "id": "next", "kind": "expr", "expr": "1", "variables": {} })
}

/// Checks that the last answer is the one to [`one`]: the process served on.
fn served_on(answers: &[String]) {
    let last = parse(answers.last().expect("answers"));
    assert_eq!(last["id"], "next", "the request after was not answered");
    assert_eq!(last["value"]["value"], "1");
}

#[test]
fn the_deepest_expression_accepted_is_answered_with_its_value() {
    let depth = 199_999;
    let expr = "[".repeat(depth) + "1" + &"]".repeat(depth);
    let request = json!({ "id": "deep", "kind": "expr", "expr": expr, "variables": {} });
    let mut answers = exchange(&[], &[line(&request), line(&one())]);
    served_on(&answers);
    let (id, nesting) = id_and_depth(answers.remove(0));
    assert_eq!(id, "deep");
    // The value nests `depth` arrays, inside `{"value": {"value": ...}}`.
    assert!(nesting >= depth, "the answer nests only {nesting} levels");
}

#[test]
fn the_deepest_blocks_accepted_are_answered_with_their_body() {
    let depth = 199_999;
    let config = "b {\n".repeat(depth) + &"}\n".repeat(depth);
    let request = json!({ "id": "blocks", "kind": "config", "syntax": "native", "config": config, "variables": {} });
    let mut answers = exchange(&[], &[line(&request), line(&one())]);
    served_on(&answers);
    let (id, nesting) = id_and_depth(answers.remove(0));
    assert_eq!(id, "blocks");
    assert!(
        nesting >= 3 * depth,
        "the answer nests only {nesting} levels"
    );
}

#[test]
fn nested_dynamic_blocks_are_answered_with_their_body() {
    let depth = 10_000;
    let config =
        "dynamic \"b\" {\n for_each = [1]\n content {\n".repeat(depth) + &"}\n}\n".repeat(depth);
    let request = json!({ "id": "dynamic", "kind": "config", "syntax": "native", "config": config,
        "variables": {}, "extensions": ["dynblock"] });
    let mut answers = exchange(&[], &[line(&request), line(&one())]);
    served_on(&answers);
    let (id, nesting) = id_and_depth(answers.remove(0));
    assert_eq!(id, "dynamic");
    assert!(
        nesting >= 3 * depth,
        "the answer nests only {nesting} levels"
    );
}

#[test]
fn nesting_beyond_the_limit_is_a_parse_error_that_says_why() {
    let depth = 200_001;
    let expr = "[".repeat(depth) + "1" + &"]".repeat(depth);
    let request = json!({ "id": "too-deep", "kind": "expr", "expr": expr, "variables": {} });
    let answers = exchange(&[], &[line(&request), line(&one())]);
    served_on(&answers);
    let answer = parse(&answers[0]);
    assert_eq!(answer["id"], "too-deep");
    assert_eq!(answer["error"]["phase"], "parse");
    assert_eq!(
        answer["error"]["diagnostics"][0]["summary"],
        "Nesting too deep"
    );
}

#[test]
fn a_three_level_for_product_ends_in_the_budget_diagnostic() {
    let list: Vec<u32> = (0..1000).collect();
    let request = json!({ "id": "product", "kind": "expr",
        "expr": "length([for a in l: [for b in l: [for c in l: 1]]])",
        "variables": { "l": { "type": ["list", "number"], "value": list } } });
    let answers = exchange(&[], &[line(&request), line(&one())]);
    served_on(&answers);
    let answer = parse(&answers[0]);
    assert_eq!(answer["id"], "product");
    assert_eq!(answer["error"]["phase"], "eval");
    assert_eq!(
        answer["error"]["diagnostics"][0]["summary"],
        "Evaluation budget exceeded"
    );
}

#[test]
fn the_budget_is_settable_on_the_command_line() {
    // 40 elements of 40 elements: 1,600 values, beyond a budget of 1,000
    // bytes (with its source's allowance) and within the default.
    let list: Vec<u32> = (0..40).collect();
    let request = json!({ "id": "b", "kind": "expr",
        "expr": "length([for a in l: [for b in l: b]])",
        "variables": { "l": { "type": ["list", "number"], "value": list } } });
    let small = parse(&exchange(&["--budget", "1000"], &[line(&request)])[0]);
    assert_eq!(
        small["error"]["diagnostics"][0]["summary"],
        "Evaluation budget exceeded"
    );
    let default = parse(&exchange(&[], &[line(&request)])[0]);
    assert_eq!(default["value"]["value"], "40");
}

#[test]
fn a_line_that_is_not_utf8_is_answered_and_the_next_is_served() {
    let bad = b"{\"id\": \"x\", \"kind\": \"expr\", \"expr\": \"\xff\"}".to_vec();
    let answers = exchange(&[], &[bad, line(&one())]);
    served_on(&answers);
    let answer = parse(&answers[0]);
    assert_eq!(answer["id"], "x", "the id was readable");
    assert!(answer["malformed"].as_str().unwrap().contains("UTF-8"));
}

#[test]
fn error_answers_carry_the_interpreters_summary_and_detail() {
    let request = json!({ "id": "e", "kind": "expr", "expr": "nope", "variables": {} });
    let answer = parse(&exchange(&[], &[line(&request)])[0]);
    let diagnostic = &answer["error"]["diagnostics"][0];
    assert_eq!(diagnostic["summary"], "Unknown variable");
    assert!(diagnostic["detail"].as_str().unwrap().contains("nope"));
    assert!(diagnostic["range"].is_object());
}

/// Each request is malformed in one member; the answer names it.
#[test]
fn malformed_requests_are_answered_malformed_naming_the_member() {
    let number = |v: Json| json!({ "type": "number", "value": v });
    let cases: Vec<(Json, &str)> = vec![
        (
            json!({ "id": "1", "kind": "expr", "expr": 1, "variables": {} }),
            "`expr`",
        ),
        (
            json!({ "id": "2", "kind": "template", "template": true, "variables": {} }),
            "`template`",
        ),
        (
            json!({ "id": "3", "kind": "expr", "expr": "x", "variables": { "x":
                { "type": "number", "value": 1, "unknown": true } } }),
            "unknown",
        ),
        (
            json!({ "id": "4", "kind": "expr", "expr": "x", "variables": { "x":
                { "type": ["list", "number"], "value": [1, 2], "unknown": [true] } } }),
            "unknown marks",
        ),
        (
            json!({ "id": "5", "kind": "expr", "expr": "x", "variables": { "x":
                { "type": ["object", { "a": "number" }], "value": { "a": 1 }, "unknown": { "b": true } } } }),
            "\"b\"",
        ),
        (
            json!({ "id": "6", "kind": "expr", "expr": "x", "variables": { "x":
                { "type": "number", "value": 1, "unknown": [true] } } }),
            "unknown marks",
        ),
        (
            json!({ "id": "7", "kind": "config", "syntax": "native", "config": "", "variables": {}, "extensions": ["nope"] }),
            "`extensions`",
        ),
        (
            json!({ "id": "8", "kind": "expr", "expr": "1", "variables": {}, "extensions": ["dynblock"] }),
            "`extensions`",
        ),
        (
            json!({ "id": "9", "kind": "hello", "protocol": 99 }),
            "protocol version 99",
        ),
        (
            json!({ "id": "10", "kind": "unify", "types": [["object", {}, "junk"]] }),
            "`types`[0]",
        ),
        (
            json!({ "id": "11", "kind": "expr", "expr": "1", "variables": {}, "exprs": "2" }),
            "`exprs`",
        ),
        (
            json!({ "id": "12", "kind": "operation", "op": "add", "operands": [number(json!(1)), 2] }),
            "`operands`[1]",
        ),
        (
            json!({ "id": "13", "kind": "config", "syntax": "yaml", "config": "", "variables": {} }),
            "`syntax`",
        ),
        (
            json!({ "id": "14", "kind": "config", "syntax": "native", "config": "", "variables": {},
                "schema": { "attributes": [], "block": [] } }),
            "`schema`",
        ),
        (
            json!({ "id": "15", "kind": "convert", "value": number(json!(1)) }),
            "`to`",
        ),
        (
            json!({ "id": "16", "kind": "template", "template": "x" }),
            "`variables`",
        ),
    ];
    let lines: Vec<Vec<u8>> = cases.iter().map(|(r, _)| line(r)).collect();
    let answers = exchange(&[], &lines);
    assert_eq!(answers.len(), cases.len());
    for ((request, member), answer) in cases.iter().zip(&answers) {
        let answer = parse(answer);
        assert_eq!(answer["id"], request["id"], "{answer}");
        let why = answer["malformed"]
            .as_str()
            .unwrap_or_else(|| panic!("{request} was not answered malformed: {answer}"));
        assert!(
            why.contains(member),
            "{request}: {why:?} does not name {member}"
        );
    }
}

#[test]
fn the_id_is_read_from_a_request_too_deep_or_broken_to_parse() {
    let nested = "[".repeat(127) + &"]".repeat(127);
    let deep = format!(
        r#"{{"id": "deep", "kind": "expr", "expr": "1", "variables": {{}}, "x": {nested}}}"#
    );
    let too_deep = format!(r#"{{"id": "too-deep", "x": {}}}"#, "[".repeat(5000));
    let cut = r#"{"kind": "expr", "id": "cut", "expr": "#.to_string();
    let answers = exchange(
        &[],
        &[deep.into_bytes(), too_deep.into_bytes(), cut.into_bytes()],
    );
    for (answer, id) in answers.iter().zip(["deep", "too-deep", "cut"]) {
        let answer = parse(answer);
        assert_eq!(answer["id"], id, "{answer}");
        assert!(answer["malformed"].is_string(), "{answer}");
    }
}

#[test]
fn an_unknown_kind_is_unsupported() {
    let answer = parse(&exchange(&[], &[line(&json!({ "id": "k", "kind": "frobnicate" }))])[0]);
    assert_eq!(answer["id"], "k");
    assert!(answer["unsupported"].is_string());
}

#[test]
fn the_command_line_has_help_a_version_and_usage_errors() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hcl-ref"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("hcl-ref runs")
    };
    let help = run(&["--help"]);
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: hcl-ref"));
    let version = run(&["--version"]);
    assert!(version.status.success());
    assert!(String::from_utf8_lossy(&version.stdout).contains("protocol version 1"));
    let bad = run(&["--bogus"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--bogus"));
    let bad_budget = run(&["--budget", "lots"]);
    assert_eq!(bad_budget.status.code(), Some(2));
}
