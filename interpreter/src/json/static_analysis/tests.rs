use super::*;
use crate::diagnostic::Range;
use crate::json::parser::tests::lc;
use crate::json::MAX_NESTING_DEPTH;
use crate::number::Number;
use crate::static_analysis::{Traversal, TraversalStep};
use crate::value::Value;

/// The source text of each range.
fn texts(source: &str, ranges: &[Range]) -> Vec<String> {
    ranges
        .iter()
        .map(|r| source[r.start.byte..r.end.byte].to_string())
        .collect()
}

/// The phase and range of the single diagnostic.
fn error(source: &str, analysis: Analysis) -> (Phase, String) {
    let diagnostics = analyze(source, analysis).expect_err(source);
    assert_eq!(diagnostics.len(), 1, "{source}: {diagnostics:?}");
    (
        diagnostics[0].phase,
        lc(diagnostics[0].range.expect("a range")),
    )
}

fn not_applicable(range: &str) -> (Phase, String) {
    (Phase::Static, range.into())
}

#[test]
fn list_returns_the_array_elements() {
    let source = "[1, \"${a}\",\n {\"b\": [2]}, null]";
    let Ok(StaticResult::List(elements)) = analyze(source, Analysis::List) else {
        panic!("not a list");
    };
    assert_eq!(
        texts(source, &elements),
        ["1", "\"${a}\"", "{\"b\": [2]}", "null"]
    );
    assert_eq!(lc(elements[2]), "2:2-2:12");
    assert_eq!(
        analyze("[]", Analysis::List),
        Ok(StaticResult::List(vec![]))
    );
}

#[test]
fn list_requires_an_array() {
    assert_eq!(
        error(r#"{"a": 1}"#, Analysis::List),
        not_applicable("1:1-1:9")
    );
    assert_eq!(
        error(r#""[a, b]""#, Analysis::List),
        not_applicable("1:1-1:9")
    );
    assert_eq!(error("  null ", Analysis::List), not_applicable("1:3-1:7"));
}

#[test]
fn map_returns_quoted_names_and_values_with_duplicates_in_order() {
    let source = r#"{"b": 1, "a": [2], "b": "${x}", "\u0063": {}}"#;
    let Ok(StaticResult::Map(pairs)) = analyze(source, Analysis::Map) else {
        panic!("not a map");
    };
    let keys: Vec<Range> = pairs.iter().map(|p| p.0).collect();
    let values: Vec<Range> = pairs.iter().map(|p| p.1).collect();
    assert_eq!(
        texts(source, &keys),
        [r#""b""#, r#""a""#, r#""b""#, r#""\u0063""#]
    );
    assert_eq!(texts(source, &values), ["1", "[2]", r#""${x}""#, "{}"]);
    assert_eq!(error("[]", Analysis::Map), not_applicable("1:1-1:3"));
}

#[test]
fn call_parses_the_string_content_as_a_native_expression() {
    let source = r#"{"f": "upper(x, \"y\", f(z))"}"#;
    let node_source = &source[6..source.len() - 1];
    let Ok(StaticResult::Call { name, arguments }) = analyze(node_source, Analysis::Call) else {
        panic!("not a call");
    };
    assert_eq!(name, "upper");
    assert_eq!(texts(node_source, &arguments), ["x", r#"\"y\""#, "f(z)"]);
    assert_eq!(lc(arguments[1]), "1:11-1:16");
}

#[test]
fn call_requires_a_string_holding_a_function_call() {
    assert_eq!(error("[1]", Analysis::Call), not_applicable("1:1-1:4"));
    // Content that is no native expression: the analysis does not apply.
    assert_eq!(error(r#""f(""#, Analysis::Call), not_applicable("1:1-1:5"));
    assert_eq!(
        error(r#""${f(x)}""#, Analysis::Call),
        not_applicable("1:1-1:10")
    );
    // A native expression that is no call: the native diagnostic, moved
    // into the JSON source.
    assert_eq!(
        error(r#" "\tf(x).y""#, Analysis::Call),
        not_applicable("1:5-1:11")
    );
}

#[test]
fn traversal_parses_the_string_content_as_a_native_expression() {
    let found = analyze(r#""a.b[0][\"k\"]""#, Analysis::Traversal);
    let expected = Traversal {
        root: "a".into(),
        steps: vec![
            TraversalStep::Attribute("b".into()),
            TraversalStep::Index(Value::Number(Number::from_i64(0))),
            TraversalStep::Index(Value::string("k")),
        ],
    };
    assert_eq!(found, Ok(StaticResult::Traversal(expected)));
    assert_eq!(
        error("true", Analysis::Traversal),
        not_applicable("1:1-1:5")
    );
    assert_eq!(
        error(r#""a +""#, Analysis::Traversal),
        not_applicable("1:1-1:6")
    );
    assert_eq!(
        error(r#""a + b""#, Analysis::Traversal),
        not_applicable("1:2-1:7")
    );
}

#[test]
fn json_parse_errors_are_parse_errors() {
    assert_eq!(
        error("[1,", Analysis::List),
        (Phase::Parse, "1:4-1:4".into())
    );
    assert_eq!(error(r#""\q""#, Analysis::Call).0, Phase::Parse);
}

#[test]
fn deep_values_are_analyzed() {
    let depth = MAX_NESTING_DEPTH;
    let source = "[".repeat(depth) + &"]".repeat(depth);
    let Ok(StaticResult::List(elements)) = analyze(&source, Analysis::List) else {
        panic!("not a list");
    };
    assert_eq!(lc(elements[0]), format!("1:2-1:{}", 2 * depth));
}
