//! The protocol read strictly on both sides (runner/PROTOCOL.md § Requests,
//! § Errors, § What the runner does with answers): `hcl-ref` answers
//! `malformed`, in the terms of the request's JSON, for a member named
//! twice, missing or of the wrong type; the runner refuses an answer that
//! names a member twice or has two answer members; and a message quotes no
//! more than 100 characters of what it was given.

use hcl_conformance_format::kinds::{self, Input};
use hcl_conformance_format::suite::CaseInput;
use hcl_conformance_format::wire::Outcome;
use hcl_conformance_runner::subprocess::{ImplementationCommand, Pool};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Sends request lines to one `hcl-ref` process and returns its answers,
/// parsed.
fn ask(lines: &[String]) -> Vec<Json> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hcl-ref"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("hcl-ref starts");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("hcl-ref runs");
    writer.join().expect("the writer").expect("hcl-ref reads");
    assert!(
        output.status.success(),
        "hcl-ref exited with {}",
        output.status
    );
    let answers: Vec<Json> = String::from_utf8(output.stdout)
        .expect("answers are UTF-8")
        .lines()
        .map(|a| serde_json::from_str(a).unwrap_or_else(|e| panic!("not JSON ({e}): {a}")))
        .collect();
    assert_eq!(answers.len(), lines.len(), "one answer a request");
    answers
}

/// The `malformed` message of an answer, which must be one.
fn malformed<'a>(request: &str, answer: &'a Json) -> &'a str {
    answer["malformed"]
        .as_str()
        .unwrap_or_else(|| panic!("{request} was not answered malformed: {answer}"))
}

#[test]
fn a_member_named_twice_anywhere_is_malformed_naming_it_and_where() {
    let number = r#"{"type": "number", "value": 1}"#;
    let cases: Vec<(String, &str)> = vec![
        (
            r#"{"id": "top", "kind": "expr", "expr": "1", "expr": "2", "variables": {}}"#.into(),
            "the member `expr` appears twice",
        ),
        (
            format!(r#"{{"id": "vars", "kind": "expr", "expr": "a", "variables": {{"a": {number}, "a": {number}}}}}"#),
            "`variables`: the member `a` appears twice",
        ),
        (
            r#"{"id": "value", "kind": "expr", "expr": "a", "variables": {"a": {"type": ["object", {"x": "string"}], "value": {"x": "1", "x": "2"}}}}"#.into(),
            "`variables`.a.value: the member `x` appears twice",
        ),
        (
            r#"{"id": "type", "kind": "convert", "value": {"type": "number", "value": 1}, "to": ["object", {"x": "number", "x": "string"}]}"#.into(),
            "`to`[1]: the member `x` appears twice",
        ),
        (
            r#"{"id": "member-of-value", "kind": "convert", "value": {"type": "number", "type": "string", "value": 1}, "to": "string"}"#.into(),
            "`value`: the member `type` appears twice",
        ),
        (
            r#"{"id": "schema", "kind": "config", "syntax": "native", "config": "", "variables": {}, "schema": {"blocks": [{"type": "a", "type": "b"}]}}"#.into(),
            "`schema`.blocks[0]: the member `type` appears twice",
        ),
        (
            // The same name, once escaped.
            r#"{"id": "escaped", "kind": "expr", "expr": "1", "variables": {}, "variable\u0073": {}}"#.into(),
            "the member `variables` appears twice",
        ),
    ];
    let lines: Vec<String> = cases.iter().map(|(l, _)| l.clone()).collect();
    for ((request, message), answer) in cases.iter().zip(ask(&lines)) {
        let id = serde_json::from_str::<Json>(request).expect("JSON")["id"].clone();
        assert_eq!(answer["id"], id, "{answer}");
        assert_eq!(malformed(request, &answer), *message, "{request}");
    }
    // The same requests without the second member are answered.
    let control = [
        r#"{"id": "top", "kind": "expr", "expr": "1", "variables": {}}"#.to_string(),
        format!(r#"{{"id": "vars", "kind": "expr", "expr": "a", "variables": {{"a": {number}}}}}"#),
        r#"{"id": "value", "kind": "expr", "expr": "a", "variables": {"a": {"type": ["object", {"x": "string"}], "value": {"x": "1"}}}}"#.into(),
    ];
    for (request, answer) in control.iter().zip(ask(&control)) {
        assert!(answer["value"].is_object(), "{request}: {answer}");
    }
}

#[test]
fn two_ids_are_no_id() {
    let request = r#"{"id": "1", "id": "2", "kind": "expr", "expr": "1", "variables": {}}"#;
    let answer = &ask(&[request.into()])[0];
    assert_eq!(answer["id"], Json::Null, "{answer}");
    assert_eq!(malformed(request, answer), "the member `id` appears twice");
}

/// Words of the case files' YAML, which a message about a request must not
/// use.
const CASE_FILE_WORDS: &[&str] = &[
    "YAML",
    "yaml",
    "case file",
    "scalar",
    "mapping",
    "quote it",
    "invalid type",
];

#[test]
fn malformed_messages_speak_of_the_requests_json_members() {
    let cases: Vec<(Json, &str)> = vec![
        (
            json!({ "id": "1", "kind": "expr", "syntax": "native", "expr": 1 }),
            "`expr` must be a string, not a number",
        ),
        (
            json!({ "id": "2", "kind": "template", "template": ["x"], "variables": {} }),
            "`template` must be a string, not an array",
        ),
        (
            json!({ "id": "3", "kind": "expr", "expr": "1", "variables": [] }),
            "`variables` must be an object, not an array",
        ),
        (
            json!({ "id": "4", "kind": "expr", "expr": "1", "variables": {}, "extensions": [true] }),
            "`extensions`[0] must be a string, not a bool",
        ),
        (
            json!({ "id": "5", "kind": "typeexpr", "syntax": "native", "expr": "string", "constraint": "yes" }),
            "`constraint` must be true or false, not a string",
        ),
        (
            json!({ "id": "6", "kind": "config", "syntax": "native", "config": "", "variables": {},
                    "schema": "everything" }),
            "`schema` must be \"attributes\" or a body schema (an object), not the string \"everything\"",
        ),
        (
            json!({ "id": "7", "kind": "config", "syntax": "native", "config": "", "variables": {},
                    "schema": { "attributes": [1] } }),
            "`schema`.attributes[0] must be an attribute name or an attribute schema (an object), not a number",
        ),
        (
            json!({ "id": "8", "kind": "config", "syntax": "native", "config": "", "variables": {},
                    "schema": { "blocks": [{ "labels": [] }] } }),
            "`schema`.blocks[0] lacks `type` (a block schema requires it)",
        ),
        (
            json!({ "id": "9", "kind": "identical", "types": ["string", "string", "string"] }),
            "`types` must hold two elements, not 3",
        ),
        (
            json!({ "id": "10", "kind": "expr", "expr": "1", "variables": {}, "literal_only": true }),
            "a request of kind `expr` has no member `literal_only` (its members: `id`, `kind`, `expr`, `variables`, `extensions`)",
        ),
        (
            json!({ "id": "11", "kind": "hello", "protocol": "1" }),
            "`protocol` must be a whole number, not a string",
        ),
        (
            json!({ "id": "12", "kind": 7 }),
            "`kind` must be a string, not a number",
        ),
    ];
    let lines: Vec<String> = cases.iter().map(|(r, _)| r.to_string()).collect();
    for ((request, message), answer) in cases.iter().zip(ask(&lines)) {
        assert_eq!(answer["id"], request["id"], "{answer}");
        let why = malformed(&request.to_string(), &answer);
        assert_eq!(why, *message, "{request}");
        for word in CASE_FILE_WORDS {
            assert!(!why.contains(word), "{request}: {why:?} speaks of {word}");
        }
    }
}

/// A request of each kind with every member its kind requires, and
/// nothing else.
fn complete_requests() -> Vec<Json> {
    let number = json!({ "type": "number", "value": 1 });
    vec![
        json!({ "id": "convert", "kind": "convert", "value": number, "to": "string" }),
        json!({ "id": "unify", "kind": "unify", "types": ["number"] }),
        json!({ "id": "identical", "kind": "identical", "types": ["number", "number"] }),
        json!({ "id": "matches", "kind": "matches", "type": "number", "spec": "dynamic" }),
        json!({ "id": "operation", "kind": "operation", "op": "negate", "operands": [number] }),
        json!({ "id": "expr", "kind": "expr", "expr": "1", "variables": {} }),
        json!({ "id": "template", "kind": "template", "template": "x", "variables": {} }),
        json!({ "id": "config", "kind": "config", "syntax": "native", "config": "", "variables": {} }),
        json!({ "id": "static", "kind": "static", "syntax": "native", "expr": "[1]", "analysis": "list" }),
        json!({ "id": "typeexpr", "kind": "typeexpr", "syntax": "native", "expr": "string", "constraint": false }),
    ]
}

#[test]
fn every_member_the_protocol_names_is_required() {
    let complete = complete_requests();
    // Complete, each is answered.
    let lines: Vec<String> = complete.iter().map(Json::to_string).collect();
    for (request, answer) in complete.iter().zip(ask(&lines)) {
        assert!(
            answer.get("malformed").is_none() && answer.get("unsupported").is_none(),
            "{request}: {answer}"
        );
    }
    // Without any one member but `id` and `kind`, each is malformed,
    // naming the member.
    let mut lacking = Vec::new();
    for request in &complete {
        let members = request.as_object().expect("an object");
        for name in members
            .keys()
            .filter(|n| !matches!(n.as_str(), "id" | "kind"))
        {
            let mut without = members.clone();
            without.remove(name);
            lacking.push((Json::Object(without), name.clone()));
        }
    }
    assert!(
        lacking.len() >= 20,
        "{} requests lack a member",
        lacking.len()
    );
    let lines: Vec<String> = lacking.iter().map(|(r, _)| r.to_string()).collect();
    for ((request, name), answer) in lacking.iter().zip(ask(&lines)) {
        let why = malformed(&request.to_string(), &answer);
        let kind = request["kind"].as_str().expect("a kind");
        assert_eq!(
            why,
            format!("the request lacks `{name}` (a request of kind `{kind}` requires it)"),
            "{request}"
        );
    }
}

/// The longest message the tests below accept: what is quoted (100
/// characters, escaped) and the words around it.
const MESSAGE_BOUND: usize = 1_000;

#[test]
fn long_inputs_are_cut_in_messages() {
    let digits = "1".repeat(1_000_000);
    let long = "a".repeat(1_000_000);
    let string = |s: &str| json!({ "type": "string", "value": s });
    let requests = [
        // A conversion error's summary: a string that is not a number.
        json!({ "id": "number", "kind": "convert", "value": string(&format!("{digits}x")), "to": "number" }),
        // ... nor a bool.
        json!({ "id": "bool", "kind": "convert", "value": string(&digits), "to": "bool" }),
        // An unknown name.
        json!({ "id": "variable", "kind": "expr", "expr": long, "variables": {} }),
        json!({ "id": "attribute", "kind": "expr", "expr": format!("{{}}.{long}"), "variables": {} }),
        // Malformed requests: a member, a type name, a number, an
        // analysis, a variable's name, all of a million characters.
        json!({ "id": "member", "kind": "expr", "expr": "1", "variables": {}, long.clone(): 1 }),
        json!({ "id": "type-name", "kind": "convert", "value": string("x"), "to": long }),
        json!({ "id": "value", "kind": "expr", "expr": "a", "variables": {
            "a": { "type": "number", "value": format!("{digits}x") } } }),
        json!({ "id": "analysis", "kind": "static", "syntax": "native", "expr": "1", "analysis": long }),
        json!({ "id": "name", "kind": "expr", "expr": "a", "variables": {
            long.clone(): { "type": "number", "value": "x" } } }),
        // An unknown kind is unsupported, and says so briefly too.
        json!({ "id": "kind", "kind": long }),
    ];
    let lines: Vec<String> = requests.iter().map(Json::to_string).collect();
    for (request, answer) in requests.iter().zip(ask(&lines)) {
        let id = &request["id"];
        assert_eq!(answer["id"], *id, "{answer:.300}");
        let message = match (
            &answer["error"],
            &answer["malformed"],
            &answer["unsupported"],
        ) {
            (Json::Object(error), _, _) => {
                let diagnostic = &error["diagnostics"][0];
                format!("{}: {}", diagnostic["summary"], diagnostic["detail"])
            }
            (_, Json::String(why), _) | (_, _, Json::String(why)) => why.clone(),
            _ => panic!("{id}: neither an error, malformed nor unsupported: {answer:.300}"),
        };
        assert!(
            message.chars().count() < MESSAGE_BOUND,
            "{id}: a message of {} characters: {message:.300}",
            message.chars().count()
        );
        assert!(
            message.contains("more characters)"),
            "{id}: the message does not say what it left out: {message:.300}"
        );
    }
}

const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fakes/ambiguous.py");

/// What the runner makes of the fake's answer (in `mode`) to `1`.
fn outcome(mode: &str) -> Outcome {
    let pool = Pool::start(ImplementationCommand::new(
        "python3".into(),
        vec![FAKE.into(), mode.into()],
        Duration::from_secs(10),
    ))
    .expect("the fake answers hello");
    let input: CaseInput = Input::Expr(kinds::Expr {
        expr: "1".into(),
        variables: BTreeMap::new(),
        extensions: Vec::new(),
    });
    pool.run(&input)
}

#[test]
fn an_answer_the_runner_reads_as_one_value() {
    for mode in ["good", "null-error"] {
        assert!(
            matches!(outcome(mode), Outcome::Value { .. }),
            "{mode}: {:?}",
            outcome(mode)
        );
    }
}

#[test]
fn an_answer_with_two_answer_members_is_broken() {
    for (mode, members) in [
        ("value-and-error", "`value` and `error`"),
        ("value-and-unsupported", "`value` and `unsupported`"),
    ] {
        match outcome(mode) {
            Outcome::Broken(why) => assert!(
                why.contains(&format!("the answer has {members}")),
                "{mode}: {why}"
            ),
            other => panic!("{mode}: {other:?}"),
        }
    }
}

#[test]
fn an_answer_that_names_a_member_twice_is_broken() {
    for (mode, message) in [
        ("duplicate-id", "the member `id` appears twice"),
        ("duplicate-type", "`value`: the member `type` appears twice"),
        (
            "duplicate-nested",
            "`value`.value: the member `a` appears twice",
        ),
    ] {
        match outcome(mode) {
            Outcome::Broken(why) => assert!(why.contains(message), "{mode}: {why}"),
            other => panic!("{mode}: {other:?}"),
        }
    }
}

#[test]
fn a_hello_answer_that_names_a_member_twice_is_refused() {
    let started = Pool::start(ImplementationCommand::new(
        "python3".into(),
        vec![FAKE.into(), "duplicate-hello".into()],
        Duration::from_secs(10),
    ));
    match started {
        Err(why) => assert!(why.contains("the member `name` appears twice"), "{why}"),
        Ok(_) => panic!("a hello answer naming `name` twice was accepted"),
    }
}
