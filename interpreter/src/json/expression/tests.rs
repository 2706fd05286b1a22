use super::*;
use crate::json::parser::tests::lc;
use crate::json::MAX_NESTING_DEPTH;
use crate::number::Number;

fn context() -> EvalContext {
    let mut ctx = EvalContext::default();
    let variables = [
        ("name", Value::string("world")),
        ("a", number("1")),
        ("b", number("2")),
        ("k", Value::string("a")),
        ("n", Value::Null(Type::String)),
        ("u", Value::Unknown(Type::Dynamic)),
        ("us", Value::Unknown(Type::String)),
        ("l", Value::Tuple(vec![number("1")])),
    ];
    for (name, v) in variables {
        ctx.variables.insert(name.into(), v);
    }
    ctx
}

fn number(text: &str) -> Value {
    Value::Number(Number::parse_decimal(text, true).unwrap())
}

fn object<const N: usize>(attributes: [(&str, Value); N]) -> Value {
    Value::object(attributes.map(|(k, v)| (k.to_string(), v)))
}

fn literal(source: &str) -> Value {
    eval_expression(source, None).unwrap_or_else(|d| panic!("{source}: {d:?}"))
}

fn full(source: &str) -> Value {
    eval_expression(source, Some(&context())).unwrap_or_else(|d| panic!("{source}: {d:?}"))
}

/// The phase and range of the single diagnostic, in the given mode.
fn error(source: &str, full_mode: bool) -> (Phase, String) {
    let ctx = context();
    let diagnostics = eval_expression(source, full_mode.then_some(&ctx)).expect_err(source);
    assert_eq!(diagnostics.len(), 1, "{source}: {diagnostics:?}");
    (
        diagnostics[0].phase,
        lc(diagnostics[0].range.expect("a range")),
    )
}

fn eval_error(range: &str) -> (Phase, String) {
    (Phase::Eval, range.into())
}

#[test]
fn spec_example_literal_only_mode_passes_template_sequences_through() {
    let source = r#""Hello world! Template sequences like ${ are not intepreted here.""#;
    assert_eq!(
        literal(source),
        Value::string("Hello world! Template sequences like ${ are not intepreted here.")
    );
    assert_eq!(
        literal(r#""${a} %{ if true }$${""#),
        Value::string("${a} %{ if true }$${")
    );
}

#[test]
fn spec_example_full_mode_evaluates_templates() {
    let source = r#""Hello, ${name}! Template sequences are interpreted in full expression mode.""#;
    assert_eq!(
        full(source),
        Value::string("Hello, world! Template sequences are interpreted in full expression mode.")
    );
    assert_eq!(
        full(r#""%{ if a == 1 }one%{ endif }""#),
        Value::string("one")
    );
    assert_eq!(full(r#""$${a} %%{b}""#), Value::string("${a} %{b}"));
}

#[test]
fn spec_example_single_interpolation_is_unwrapped() {
    assert_eq!(full(r#""${ a + b }""#), number("3"));
    assert_eq!(full(r#""${l}""#), Value::Tuple(vec![number("1")]));
    assert_eq!(full(r#""${u}""#), Value::Unknown(Type::Dynamic));
    assert_eq!(full(r#""x${u}""#), Value::Unknown(Type::String));
}

#[test]
fn spec_example_interpolated_number_keeps_its_precision() {
    let big = "1".to_string() + &"0".repeat(150);
    assert_eq!(full(r#""${1e150}""#), number(&big));
    assert_eq!(literal("1e150"), number(&big));
    assert_eq!(literal(r#""${1e150}""#), Value::string("${1e150}"));
}

#[test]
fn spec_example_attribute_value() {
    let source = "{\n  \"foo\": \"bar baz\"\n}";
    assert_eq!(literal(source), object([("foo", Value::string("bar baz"))]));
    assert_eq!(full(source), object([("foo", Value::string("bar baz"))]));
}

#[test]
fn numbers_bools_and_null() {
    assert_eq!(literal("-0.5e1"), number("-5"));
    assert_eq!(
        literal("123456789012345678901234567890.5"),
        number("123456789012345678901234567890.5")
    );
    assert_eq!(literal("true"), Value::Bool(true));
    assert_eq!(full("false"), Value::Bool(false));
    assert_eq!(literal("null"), Value::Null(Type::Dynamic));
    assert_eq!(full("null"), Value::Null(Type::Dynamic));
    assert_eq!(
        error("1e999999999", false),
        (Phase::Parse, "1:1-1:12".into())
    );
}

#[test]
fn arrays_are_tuples() {
    assert_eq!(literal("[]"), Value::Tuple(vec![]));
    assert_eq!(
        full(r#"[1, "${name}", [true], null]"#),
        Value::Tuple(vec![
            number("1"),
            Value::string("world"),
            Value::Tuple(vec![Value::Bool(true)]),
            Value::Null(Type::Dynamic),
        ])
    );
}

#[test]
fn objects_are_objects() {
    assert_eq!(literal("{}"), Value::Object(BTreeMap::new()));
    let source = r#"{"b": 1, "a": {"c": [2]}}"#;
    let expected = object([
        ("a", object([("c", Value::Tuple(vec![number("2")]))])),
        ("b", number("1")),
    ]);
    assert_eq!(literal(source), expected);
    assert_eq!(full(source), expected);
}

#[test]
fn property_names_are_templates_in_full_mode_only() {
    assert_eq!(full(r#"{"${name}": 1}"#), object([("world", number("1"))]));
    assert_eq!(
        literal(r#"{"${name}": 1}"#),
        object([("${name}", number("1"))])
    );
    assert_eq!(full(r#"{"x-${k}": 1}"#), object([("x-a", number("1"))]));
}

#[test]
fn property_names_are_converted_to_string() {
    assert_eq!(full(r#"{"${a + b}": 1}"#), object([("3", number("1"))]));
    assert_eq!(full(r#"{"${true}": 1}"#), object([("true", number("1"))]));
    assert_eq!(error(r#"{"${l}": 1}"#, true), eval_error("1:2-1:8"));
}

#[test]
fn a_null_property_name_is_an_error() {
    assert_eq!(
        error(r#"{"a": 1, "${n}": 2}"#, true),
        eval_error("1:10-1:16")
    );
    assert_eq!(error(r#"{"${null}": 2}"#, true), eval_error("1:2-1:11"));
}

#[test]
fn an_unknown_property_name_makes_the_object_the_dynamic_value() {
    assert_eq!(
        full(r#"{"a": 1, "${u}": 2}"#),
        Value::Unknown(Type::Dynamic)
    );
    assert_eq!(
        full(r#"{"${us}": 2, "b": 3}"#),
        Value::Unknown(Type::Dynamic)
    );
    // Errors in the other properties are still errors.
    assert_eq!(error(r#"{"${u}": 1, "b": "${nope}"}"#, true).0, Phase::Eval);
    assert_eq!(
        error(r#"{"${u}": 1, "${n}": 2}"#, true),
        eval_error("1:13-1:19")
    );
}

#[test]
fn duplicate_property_names_are_errors() {
    assert_eq!(
        error(r#"{"a": 1, "b": 2, "a": 3}"#, false),
        eval_error("1:18-1:21")
    );
    assert_eq!(
        error(r#"{"a": 1, "b": 2, "a": 3}"#, true),
        eval_error("1:18-1:21")
    );
    // In full mode, names are compared after evaluation and conversion.
    assert_eq!(
        error(r#"{"a": 1, "${k}": 2}"#, true),
        eval_error("1:10-1:16")
    );
    assert_eq!(
        error(r#"{"3": 1, "${a + b}": 2}"#, true),
        eval_error("1:10-1:20")
    );
    assert_eq!(
        literal(r#"{"a": 1, "${k}": 2}"#),
        object([("a", number("1")), ("${k}", number("2"))])
    );
    // Names equal after NFC normalization name the same attribute.
    assert_eq!(
        error("{\"\u{e9}\": 1, \"e\u{301}\": 2}", false),
        eval_error("1:10-1:14")
    );
    // Only within one object.
    assert_eq!(
        literal(r#"{"a": {"a": 1}}"#),
        object([("a", object([("a", number("1"))]))])
    );
}

#[test]
fn template_errors_point_into_the_json_source() {
    // `nope` is at bytes 7..11 of the content, columns 10..14 of the source.
    assert_eq!(
        error(r#"{"a": "x ${nope} y"}"#, true),
        eval_error("1:12-1:16")
    );
    // Escapes before the error move it along the source.
    assert_eq!(error(r#""\u0041\t${nope}""#, true), eval_error("1:12-1:16"));
    // A line break in the content is an escape: the error stays on the line.
    assert_eq!(error("\n  \"a\\n${nope}\"", true), eval_error("2:9-2:13"));
    // Non-ASCII characters count as one column each.
    assert_eq!(
        error(r#"["é€😀", "😀${nope}"]"#, true),
        eval_error("1:13-1:17")
    );
    assert_eq!(error(r#"{"${nope}": 1}"#, true), eval_error("1:5-1:9"));
}

#[test]
fn a_template_that_does_not_parse_is_an_eval_error_inside_the_string() {
    let (phase, range) = error(r#"[1, "${"]"#, true);
    assert_eq!(phase, Phase::Eval);
    let column: usize = range[2..range.find('-').unwrap()].parse().unwrap();
    assert!((6..=9).contains(&column), "{range}");
    assert_eq!(
        literal(r#"[1, "${"]"#),
        Value::Tuple(vec![number("1"), Value::string("${")])
    );
}

#[test]
fn json_parse_errors_come_first() {
    assert_eq!(
        error(r#"{"a": 1,}"#, true),
        (Phase::Parse, "1:9-1:10".into())
    );
    assert_eq!(
        error(r#"{"a": "\u12"}"#, false),
        (Phase::Parse, "1:8-1:12".into())
    );
}

#[test]
fn strings_are_nfc_in_both_modes() {
    assert_eq!(literal("\"e\u{301}\""), Value::String("\u{e9}".into()));
    assert_eq!(full("\"e\u{301}\""), Value::String("\u{e9}".into()));
}

#[test]
fn deep_nesting_evaluates_in_both_modes() {
    let depth = MAX_NESTING_DEPTH;
    let arrays = "[".repeat(depth - 1) + "\"${a}\"" + &"]".repeat(depth - 1);
    for ctx in [None, Some(&context())] {
        let v = eval_expression(&arrays, ctx).expect("deep arrays evaluate");
        let mut current = &v;
        let mut levels = 0;
        while let Value::Tuple(elements) = current {
            levels += 1;
            current = elements.first().expect("one element");
        }
        assert_eq!(levels, depth - 1);
        let innermost = if ctx.is_some() {
            number("1")
        } else {
            Value::string("${a}")
        };
        assert_eq!(*current, innermost);
    }
    let objects = "{\"a\":".repeat(depth) + "1" + &"}".repeat(depth);
    assert!(eval_expression(&objects, Some(&context())).is_ok());
    let too_deep = "[".repeat(depth + 1) + &"]".repeat(depth + 1);
    assert_eq!(error(&too_deep, true).0, Phase::Parse);
}

/// A JSON string's template may call a function by a namespaced name
/// (hashicorp/hcl v2.20.1 and later); its errors are evaluation errors of
/// the string, at the place in the JSON text.
/// SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
#[test]
fn templates_call_namespaced_functions() {
    assert_eq!(
        full(r#""${core::upper(name)}-${provider::conformance::length(l)}""#),
        Value::string("WORLD-1")
    );
    assert_eq!(
        full(r#"{"${core::upper(k)}": 1}"#),
        object([("A", number("1"))])
    );
    // Text, not a call, outside an interpolation.
    assert_eq!(
        full(r#""core::upper(name)""#),
        Value::string("core::upper(name)")
    );
    assert_eq!(error(r#""${core::nope(1)}""#, true), eval_error("1:4-1:14"));
    assert_eq!(error(r#""${core::}""#, true), eval_error("1:10-1:11"));
    assert_eq!(error(r#""${core::upper}""#, true), eval_error("1:15-1:16"));
}

#[test]
fn full_expression_mode_pays_for_each_node_and_its_strings_once() {
    // An array of 1,000 objects: 1,000 trees, 2,001 nodes evaluated.
    let source = format!("[{}]", vec![r#"{"a": "${1}"}"#; 1000].join(","));
    let ctx = context();
    let before = ctx.budget.limit();
    eval_expression(&source, Some(&ctx)).expect("the array evaluates");
    let nodes = 2_001 * crate::budget::Budget::EXPRESSION_BYTES;
    let trees = 1_000 * crate::budget::tree_bytes::<Value>(1);
    assert!(
        ctx.budget.spent() >= nodes + trees,
        "{}",
        ctx.budget.spent()
    );
    // The strings' templates are part of the source, whose reading raised
    // the limit once.
    let allowance = source.len() as u64 * crate::budget::Budget::SOURCE_ALLOWANCE;
    assert_eq!(ctx.budget.limit(), before + allowance);
}
