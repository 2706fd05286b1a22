//! Requests that ask for far more memory or work than their size (issue
//! 26): `hcl-ref`, with its default evaluation budget (runner/PROTOCOL.md
//! § Limits), answers each with the error "Evaluation budget exceeded",
//! within its time bound and with a peak memory under 1 GiB, under an
//! address-space cap of 4 GiB.
//!
//! These run a debug build, several times slower than a release build: the
//! time bound here is [`DEBUG_TIME`]; a release `hcl-ref` answers each
//! within the 10 seconds of [`Bounds::ATTACK`] (the figures are in the
//! commit that adds this file).
//!
//! The process is forked from this test's, and its peak memory counts the
//! pages it shares with it until it starts `hcl-ref`: requests are written
//! as text, never held as large JSON trees here.

mod bounded;

use bounded::{run, Bounds, Ended};
use serde_json::{json, Value as Json};
use std::path::Path;
use std::time::Duration;

/// The time bound of an attack in a debug build.
const DEBUG_TIME: Duration = Duration::from_secs(60);

/// The peak memory every attack must stay under.
const PEAK: u64 = 1 << 30;

/// Sends the request `line` to `hcl-ref` within the bounds of an attack,
/// and checks that it answers with the budget's error, in phase `phase`,
/// in time and under [`PEAK`].
fn ends_in_the_budget_error(line: String, phase: &str) -> Ended {
    let line = (line + "\n").into_bytes();
    let bounds = Bounds {
        time: DEBUG_TIME,
        ..Bounds::ATTACK
    };
    let ended = run(Path::new(env!("CARGO_BIN_EXE_hcl-ref")), &[], line, bounds);
    assert_eq!(ended.code, Some(0), "{}", ended.account());
    let answer: Json = serde_json::from_str(ended.stdout().trim()).unwrap_or_else(|e| {
        panic!(
            "not an answer ({e}): {}",
            bounded::tail(&ended.stdout(), 300)
        )
    });
    let error = &answer["error"];
    assert_eq!(
        error["diagnostics"][0]["summary"], "Evaluation budget exceeded",
        "{answer}"
    );
    assert_eq!(error["phase"], phase, "{answer}");
    assert!(ended.peak_rss < PEAK, "{}", ended.account());
    eprintln!("{}", ended.account());
    ended
}

/// A request to evaluate `expr` with `l` a list of the numbers below `n`.
fn over_numbers(expr: &str, n: usize, extensions: &[&str]) -> String {
    json!({
        "id": "1", "kind": "expr", "expr": expr, "extensions": extensions,
        "variables": { "l": { "type": ["list", "number"], "value": (0..n).collect::<Vec<_>>() } },
    })
    .to_string()
}

#[test]
fn a_product_of_objects() {
    // A billion one-attribute objects, each a tree node.
    let expr = "length([for a in l: [for b in l: [for c in l: {x = c}]]])";
    ends_in_the_budget_error(over_numbers(expr, 1000, &[]), "eval");
}

#[test]
fn a_product_of_numbers() {
    let expr = "length([for a in l: [for b in l: [for c in l: c]]])";
    ends_in_the_budget_error(over_numbers(expr, 1000, &[]), "eval");
}

#[test]
fn a_product_of_big_numbers() {
    // A million sums of 40,000 digits each: the sums' digits.
    let expr = "length([for a in l: [for b in l: 1e39999 + a * b]])";
    ends_in_the_budget_error(over_numbers(expr, 1000, &[]), "eval");
}

#[test]
fn a_conversion_that_gives_each_object_every_attribute() {
    // 3,000 objects of one attribute each, converted to a list: each gets
    // the 3,000 attributes of the unified type.
    let n = 3000;
    let types: Vec<Json> = (0..n)
        .map(|i| json!(["object", { format!("k{i}"): "number" }]))
        .collect();
    let values: Vec<Json> = (0..n).map(|i| json!({ format!("k{i}"): i })).collect();
    let request = json!({
        "id": "1", "kind": "convert", "to": ["list", "dynamic"],
        "value": { "type": ["tuple", types], "value": values },
    });
    ends_in_the_budget_error(request.to_string(), "conversion");
}

#[test]
fn the_convert_function_that_gives_each_object_every_attribute() {
    let expr = r#"length(convert([for i in l: {"k${i}" = i}], list(any)))"#;
    ends_in_the_budget_error(over_numbers(expr, 3000, &["typeexpr"]), "eval");
}

#[test]
fn nested_dynamic_blocks() {
    // A billion blocks, each with its iterator object.
    let config = r#"
dynamic "a" {
  for_each = l
  content {
    dynamic "b" {
      for_each = l
      content {
        dynamic "c" {
          for_each = l
          content {
            x = 1
          }
        }
      }
    }
  }
}
"#;
    let request = json!({
        "id": "1", "kind": "config", "syntax": "native", "config": config,
        "extensions": ["dynblock"],
        "variables": { "l": { "type": ["list", "number"], "value": (0..1000).collect::<Vec<_>>() } },
    });
    ends_in_the_budget_error(request.to_string(), "eval");
}

#[test]
fn a_request_whose_values_outgrow_their_text() {
    // 12 MB of text, a million objects: each a tree node when read.
    let items = vec![r#"{"a":["x"]}"#; 1_000_000].join(",");
    let request = format!(
        r#"{{"id":"1","kind":"expr","expr":"length(v)","variables":{{"v":{{"type":["list",["object",{{"a":["list","string"]}}]],"value":[{items}]}}}}}}"#
    );
    ends_in_the_budget_error(request, "eval");
}

#[test]
fn an_answer_far_larger_than_its_value() {
    // 300,000 strings of 300 control characters: 90 MB of values, whose
    // answer would be six times that, each written `\u0001`.
    let text = "\\u0001".repeat(300);
    let expr = format!(r#"[for a in l: [for b in l: "{text}"]]"#);
    ends_in_the_budget_error(over_numbers(&expr, 550, &[]), "eval");
}

#[test]
fn the_request_is_answered_within_a_smaller_budget_too() {
    // `--budget` sets the limit in bytes: a product that the default
    // allows is refused by a budget of a megabyte.
    let request = over_numbers("length([for a in l: [for b in l: b]])", 100, &[]);
    let line = (request + "\n").into_bytes();
    let exchange = |args: &[&str]| {
        let ended = run(
            Path::new(env!("CARGO_BIN_EXE_hcl-ref")),
            args,
            line.clone(),
            Bounds::ATTACK,
        );
        serde_json::from_str::<Json>(ended.stdout().trim()).expect("an answer")
    };
    assert_eq!(exchange(&[])["value"]["value"], "100");
    let small = exchange(&["--budget", "1000000"]);
    let summary = &small["error"]["diagnostics"][0]["summary"];
    assert_eq!(summary, "Evaluation budget exceeded", "{small}");
}

/// Sends the request `line` to `hcl-ref` within the bounds of an attack,
/// and checks that it answers (with a result or an error), in time and
/// under [`PEAK`].
fn answers_in_time(line: String) -> Json {
    let bounds = Bounds {
        time: DEBUG_TIME,
        ..Bounds::ATTACK
    };
    let line = (line + "\n").into_bytes();
    let ended = run(Path::new(env!("CARGO_BIN_EXE_hcl-ref")), &[], line, bounds);
    assert_eq!(ended.code, Some(0), "{}", ended.account());
    assert!(ended.peak_rss < PEAK, "{}", ended.account());
    eprintln!("{}", ended.account());
    serde_json::from_str(ended.stdout().trim()).expect("an answer")
}

#[test]
fn a_unification_of_many_object_types() {
    // The types unified and their unification (an object of 20,000
    // attributes) are paid for; they fit in the budget.
    let types: Vec<String> = (0..20_000)
        .map(|i| format!(r#"["object",{{"k{i}":"number"}}]"#))
        .collect();
    let request = format!(
        r#"{{"id":"1","kind":"unify","types":[{}]}}"#,
        types.join(",")
    );
    let answer = answers_in_time(request);
    assert_eq!(answer["type"][0], "object", "{answer}");
}

#[test]
fn a_coalesce_of_many_objects() {
    let expr = r#"coalesce([for i in l: {"k${i}" = i}]...)"#;
    let answer = answers_in_time(over_numbers(expr, 20_000, &[]));
    assert!(answer["value"]["value"].is_object(), "{answer}");
}
