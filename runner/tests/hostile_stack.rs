//! `hcl-ref` and the stack (issue 26): it starts and serves under a 1 GiB
//! address-space cap, since it reserves no large stack up front; it takes
//! a larger stack only for a request, or an answer, that nests deeper than
//! its own stack holds; deep nesting costs memory in proportion to its
//! nesting; and a stack the system refuses ends in a named error, after
//! which it serves on (runner/PROTOCOL.md § Limits).
//!
//! Each test runs `hcl-ref` in its own process group under an address-space
//! cap and a time limit (`bounded`), and checks its peak resident memory.
//! The time limits are generous (the machine may be busy); the memory
//! bounds are not.

mod bounded;

use bounded::{run, Bounds, Ended};
use serde_json::{json, Value as Json};
use std::path::Path;
use std::time::Duration;

fn hcl_ref() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_hcl-ref"))
}

/// One request a line.
fn lines(requests: &[Json]) -> Vec<u8> {
    requests
        .iter()
        .flat_map(|r| (r.to_string() + "\n").into_bytes())
        .collect()
}

/// A 1 GiB address-space cap, with a generous time limit.
const SMALL_CAP: Bounds = Bounds {
    address_space: 1 << 30,
    time: Duration::from_secs(30),
};

/// The attack bounds' 4 GiB cap, with a generous time limit.
const ATTACK_CAP: Bounds = Bounds {
    address_space: Bounds::ATTACK.address_space,
    time: Duration::from_secs(30),
};

/// The memory of a process that answers a few small requests: its code,
/// its runtime and its heap (debug builds: about 8 MiB).
const PROCESS: u64 = 16 << 20;

/// Checks that the process served every request and ended well, and
/// returns its answer lines.
fn answers(ended: &Ended, count: usize) -> Vec<String> {
    assert_eq!(ended.code, Some(0), "{}", ended.account());
    assert!(!ended.timed_out, "{}", ended.account());
    assert!(
        !ended.stderr().contains("panicked"),
        "a panic trace: {}",
        ended.account()
    );
    let answers: Vec<String> = ended.stdout().lines().map(str::to_string).collect();
    assert_eq!(answers.len(), count, "{}", ended.account());
    answers
}

/// A shallow answer, parsed.
fn parse(answer: &str) -> Json {
    serde_json::from_str(answer).unwrap_or_else(|e| panic!("not JSON ({e}): {answer}"))
}

/// The request that follows a hostile one, and a check of its answer: the
/// process served on.
fn next() -> Json {
    json!({ "id": "next", "kind": "expr", "expr": "1 + 1", "variables": {} })
}

fn served_on(answer: &str) {
    let answer = parse(answer);
    assert_eq!(answer["id"], "next", "{answer}");
    assert_eq!(answer["value"]["value"], "2", "{answer}");
}

#[test]
fn hcl_ref_starts_and_serves_under_a_1_gib_address_space_cap() {
    let requests = [
        json!({ "id": "h", "kind": "hello", "protocol": 1 }),
        json!({ "id": "e", "kind": "expr", "expr": "[for x in [1, 2]: x * 2]", "variables": {} }),
        json!({ "id": "t", "kind": "template", "template": "a${1}b", "variables": {} }),
        json!({ "id": "c", "kind": "config", "syntax": "native", "config": "a = 1\nb {\n c = 2\n}\n", "variables": {} }),
        json!({ "id": "j", "kind": "config", "syntax": "json", "config": "{\"a\": [1, {\"b\": 2}]}", "variables": {} }),
        json!({ "id": "u", "kind": "unify", "types": ["string", "number"] }),
    ];
    // And a request nesting 4,000 levels, read on a stack of its own (the
    // member is not one of an expression request's: `malformed`).
    let deep = format!(
        "{{\"id\": \"d\", \"kind\": \"expr\", \"expr\": \"1\", \"variables\": {{}}, \"x\": {}{}}}\n",
        "[".repeat(4_000),
        "]".repeat(4_000)
    );
    let mut input = lines(&requests);
    input.extend(deep.into_bytes());
    input.extend(lines(&[next()]));
    let ended = run(hcl_ref(), &[], input, SMALL_CAP);
    let answers = answers(&ended, 8);
    assert_eq!(parse(&answers[0])["name"], "hcl-ref");
    assert_eq!(parse(&answers[1])["value"]["value"], json!(["2", "4"]));
    assert_eq!(parse(&answers[2])["value"]["value"], "a1b");
    assert_eq!(
        parse(&answers[3])["body"]["blocks"][0]["body"]["attributes"]["c"]["value"],
        "2"
    );
    assert_eq!(
        parse(&answers[4])["body"]["attributes"]["a"]["value"][1]["b"],
        "2"
    );
    assert_eq!(parse(&answers[5])["type"], "string");
    let deep = parse(&answers[6]);
    assert_eq!(deep["id"], "d");
    assert!(deep["malformed"].is_string(), "{deep}");
    served_on(&answers[7]);
    // Reading the deep request takes its stack: a few KiB a level in debug
    // builds.
    assert!(
        ended.peak_rss < PROCESS + 4_000 * (8 << 10),
        "{}",
        ended.account()
    );
}

/// A deeply nested input: its request, how many levels the parser reaches
/// in it, and the memory each level may cost.
struct Deep {
    name: &'static str,
    request: Json,
    source_len: u64,
    levels: u64,
    per_level: u64,
}

/// What a level of a deeply nested input may cost in memory (stack and
/// heap), in bytes, in debug and in release builds: when the input is
/// answered (parsing, evaluation and the answer's encoding), and when it is
/// nested beyond the limit (parsing alone, to the limit). The stack of the
/// deepest phase with about a third more, and the heap: debug builds
/// recurse in far larger frames.
struct PerLevel {
    answered: [u64; 2],
    parsed: [u64; 2],
}

impl Deep {
    fn new(
        name: &'static str,
        levels: usize,
        kind: &str,
        source: String,
        per_level: &PerLevel,
    ) -> Deep {
        let source_len = source.len() as u64;
        let member = if kind == "config" { "config" } else { "expr" };
        let mut request = json!({ "id": name, "kind": kind, "variables": {} });
        request[member] = Json::String(source);
        if kind == "config" {
            request["syntax"] = json!("native");
        }
        // The parser stops at its limit, 200,000 levels.
        let answered = levels <= 200_000;
        let figures = if answered {
            per_level.answered
        } else {
            per_level.parsed
        };
        Deep {
            name,
            request,
            source_len,
            levels: levels.min(200_000) as u64,
            per_level: figures[usize::from(!cfg!(debug_assertions))],
        }
    }

    /// The most memory it may cost: the process's own, 20 bytes per byte
    /// of its source, and its levels' share.
    fn bound(&self) -> u64 {
        PROCESS + 20 * self.source_len + self.levels * self.per_level
    }
}

fn nested(levels: usize, open: &str, inner: &str, close: &str) -> String {
    open.repeat(levels) + inner + &close.repeat(levels)
}

/// Blocks, brackets, parentheses and templates nested `levels` deep. The
/// stack of their deepest phase, measured: in debug builds, answered,
/// blocks 2.0 KiB a level (the answer's encoding), brackets 4.3 KiB,
/// parentheses 3.3 KiB, templates 3.9 KiB (evaluation); parsed alone, 1.8,
/// 2.8, 2.1 and 3.5 KiB. Release builds: answered, 0.6, 1.2, 0.6 and 1.2
/// KiB; parsed, 0.5, 0.9, 0.6 and 0.9 KiB.
fn deep_inputs(levels: usize) -> Vec<Deep> {
    const K: u64 = 1 << 10;
    vec![
        Deep::new(
            "blocks",
            levels,
            "config",
            nested(levels, "b {\n", "", "}\n"),
            &PerLevel {
                answered: [3 * K, K],
                parsed: [5 * K / 2, 3 * K / 4],
            },
        ),
        Deep::new(
            "brackets",
            levels,
            "expr",
            nested(levels, "[", "1", "]"),
            &PerLevel {
                answered: [11 * K / 2, 3 * K / 2],
                parsed: [4 * K, 5 * K / 4],
            },
        ),
        Deep::new(
            "parentheses",
            levels,
            "expr",
            nested(levels, "(", "1", ")"),
            &PerLevel {
                answered: [4 * K, K],
                parsed: [3 * K, K],
            },
        ),
        Deep::new(
            "templates",
            levels,
            "expr",
            nested(levels, "\"${", "1", "}\""),
            &PerLevel {
                answered: [5 * K, 3 * K / 2],
                parsed: [9 * K / 2, 5 * K / 4],
            },
        ),
    ]
}

/// Runs each input in a process of its own, followed by an ordinary
/// request, and checks its answer (a value or a body when `answered`, else
/// "Nesting too deep") and its memory.
fn check_deep(inputs: Vec<Deep>, answered: bool) {
    for input in inputs {
        let ended = run(
            hcl_ref(),
            &[],
            lines(&[input.request.clone(), next()]),
            ATTACK_CAP,
        );
        let answers = answers(&ended, 2);
        let head = format!("{{\"id\":\"{}\",", input.name);
        assert!(
            answers[0].starts_with(&head),
            "{}: {}",
            input.name,
            &answers[0][..100.min(answers[0].len())]
        );
        let answer = &answers[0][head.len()..];
        if answered {
            assert!(
                answer.starts_with("\"value\":") || answer.starts_with("\"body\":"),
                "{}: {}",
                input.name,
                &answer[..300.min(answer.len())]
            );
        } else {
            assert!(
                answer.starts_with("\"error\":{\"phase\":\"parse\"")
                    && answer.contains("\"summary\":\"Nesting too deep\""),
                "{}: {answer}",
                input.name
            );
        }
        served_on(&answers[1]);
        assert!(
            ended.peak_rss <= input.bound(),
            "{}: peak {} MiB, more than {} MiB ({} levels, a source of {} KiB): {}",
            input.name,
            ended.peak_rss >> 20,
            input.bound() >> 20,
            input.levels,
            input.source_len >> 10,
            ended.account()
        );
    }
}

#[test]
fn a_hundred_thousand_levels_are_answered_in_memory_in_proportion() {
    check_deep(deep_inputs(100_000), true);
}

#[test]
fn a_million_levels_are_nesting_too_deep_in_memory_in_proportion() {
    // The parser reaches its limit, 200,000 levels, and stops: parsing
    // alone, no evaluation and no deep answer.
    check_deep(deep_inputs(1_000_000), false);
}

#[test]
fn an_input_deeper_than_a_capped_stack_holds_is_a_named_error_and_serving_goes_on() {
    // 50,000 levels fit a stack a 1 GiB cap allows (the step that holds
    // them, 1 GiB, is refused, and a smaller one sized for them is not);
    // 150,000 levels need about 1.5 GiB: the parser stops at what the
    // largest stack granted holds.
    let fits = nested(50_000, "[", "1", "]");
    let fits = json!({ "id": "fits", "kind": "expr", "expr": fits, "variables": {} });
    let deep = nested(150_000, "[", "1", "]");
    let deep = json!({ "id": "deep", "kind": "expr", "expr": deep, "variables": {} });
    let ended = run(hcl_ref(), &[], lines(&[fits, deep, next()]), SMALL_CAP);
    let answers = answers(&ended, 3);
    assert!(
        answers[0].starts_with(r#"{"id":"fits","value":{"type":["tuple","#),
        "{}",
        &answers[0][..300.min(answers[0].len())]
    );
    let answer = parse(&answers[1]);
    assert_eq!(answer["id"], "deep");
    let diagnostic = &answer["error"]["diagnostics"][0];
    assert_eq!(answer["error"]["phase"], "parse", "{answer}");
    assert_eq!(diagnostic["summary"], "Nesting too deep", "{answer}");
    let detail = diagnostic["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("the system refused"), "{detail}");
    served_on(&answers[2]);
}
