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

/// The source text of a span.
fn text_of(source: &str, span: Span) -> &str {
    &source[span.range()]
}

/// The values of the `N` properties of the JSON object `node`, as the
/// expressions the static-analysis interface reads.
fn property_values<'a, const N: usize>(node: &'a Node, source: &'a str) -> [JsonExpression<'a>; N] {
    let NodeKind::Object(properties) = &node.kind else {
        panic!("an object");
    };
    assert_eq!(properties.len(), N, "{source}");
    std::array::from_fn(|i| JsonExpression {
        node: &properties[i].value,
        source,
    })
}

/// The interface code above the syntaxes reads JSON expressions through:
/// arrays are static lists, objects static maps, and a string's content is
/// a native expression, whose parts are given in the JSON source (escapes
/// included).
#[test]
fn json_expressions_are_read_through_the_static_analysis_interface() {
    let source = r#"{"l": [1, "a"], "m": {"k": true}, "c": "f(a, \u0062[0])", "t": "x.y"}"#;
    let node = crate::json::parse(source).unwrap();
    let [l, m, c, t] = property_values(&node, source);
    let list = l.static_list().expect("a static list");
    let elements: Vec<&str> = list.iter().map(|e| text_of(source, e.span())).collect();
    assert_eq!(elements, ["1", r#""a""#]);

    let map = m.static_map().expect("a static map");
    assert_eq!(text_of(source, map[0].0.span()), r#""k""#);
    assert_eq!(map[0].0.literal_value(), Some(Value::string("k")));
    assert!(map[0].0.static_list().is_none() && map[0].0.static_map().is_none());
    let key = map[0].0.static_traversal().expect("a name is a traversal");
    assert_eq!(key.root, "k");
    assert_eq!(map[0].1.literal_value(), Some(Value::Bool(true)));

    let call = c.static_call().expect("a static call");
    assert_eq!(call.name, "f");
    let arguments: Vec<&str> = call
        .arguments
        .iter()
        .map(|e| text_of(source, e.span()))
        .collect();
    assert_eq!(arguments, ["a", r"\u0062[0]"]);
    let traversal = call.arguments[1].static_traversal().expect("a traversal");
    assert_eq!(traversal.root, "b");
    assert_eq!(text_of(source, call.arguments_span), r"(a, \u0062[0])");

    let traversal = t.static_traversal().expect("a traversal");
    assert_eq!(traversal.root, "x");
    assert!(l.static_call().is_none());
    assert!(t.static_list().is_none());
}

/// The parts of a native expression in a JSON string are native
/// expressions too, given in the JSON source: a caller may analyse them
/// again: an argument that is a call, or a tuple constructor of calls.
#[test]
fn parts_of_a_native_expression_in_a_string_are_analysed_again() {
    let source = r#"{"c": "f(g(1, \u0078))", "l": "f([h(y), z])", "m": "f({a = g(1)})"}"#;
    let node = crate::json::parse(source).unwrap();
    let [c, l, m] = property_values(&node, source);
    let outer = c.static_call().expect("a static call");
    let inner = outer.arguments[0]
        .static_call()
        .expect("the argument is a call");
    assert_eq!(inner.name, "g");
    let arguments: Vec<&str> = inner
        .arguments
        .iter()
        .map(|e| text_of(source, e.span()))
        .collect();
    assert_eq!(arguments, ["1", r"\u0078"]);
    assert_eq!(
        inner.arguments[0].literal_value(),
        Some(Value::Number(Number::from_i64(1)))
    );
    let call = l.static_call().expect("a static call");
    let list = call.arguments[0]
        .static_list()
        .expect("the argument is a static list");
    assert_eq!(list[0].static_call().expect("a call").name, "h");
    assert!(list[1].static_call().is_none());
    let call = m.static_call().expect("a static call");
    let map = call.arguments[0]
        .static_map()
        .expect("the argument is a static map");
    assert_eq!(map.len(), 1);
    assert_eq!(text_of(source, map[0].0.span()), "a");
    assert_eq!(map[0].1.static_call().expect("a call").name, "g");
}

/// A namespaced call (hashicorp/hcl v2.20.1 and later) in a JSON string is
/// a static call of its whole name, however the content spaces it.
/// SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
#[test]
fn call_of_a_namespaced_name_gives_the_whole_name() {
    for (source, expected) in [
        (r#""core::upper(x, 1)""#, "core::upper"),
        (
            r#""provider :: conformance::join(\"-\", a)""#,
            "provider::conformance::join",
        ),
    ] {
        let Ok(StaticResult::Call { name, .. }) = analyze(source, Analysis::Call) else {
            panic!("{source}: not a call");
        };
        assert_eq!(name, expected);
    }
    // A malformed name does not parse: no call.
    assert_eq!(
        error(r#""core::""#, Analysis::Call),
        not_applicable("1:1-1:9")
    );
    assert_eq!(
        error(r#""a::b""#, Analysis::Call),
        not_applicable("1:1-1:7")
    );
}
