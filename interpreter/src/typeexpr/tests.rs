use super::*;
use crate::functions::FunctionTable;
use crate::native::eval_expression;
use crate::value::Value;
use crate::EvalContext;

fn native(source: &str, mode: Mode) -> Result<Type, Vec<Diagnostic>> {
    native_type(source, mode)
}

fn ty(source: &str) -> Type {
    native(source, Mode::TypeConstraint).unwrap_or_else(|e| panic!("{source}: {e:?}"))
}

/// The phase and the `L:C-L:C` ranges of the diagnostics.
fn errors(result: Result<Type, Vec<Diagnostic>>) -> (Phase, Vec<String>) {
    let diagnostics = result.expect_err("an error");
    let ranges = diagnostics
        .iter()
        .map(|d| {
            let r = d.range.expect("a range");
            format!(
                "{}:{}-{}:{}",
                r.start.line, r.start.column, r.end.line, r.end.column
            )
        })
        .collect();
    (diagnostics[0].phase, ranges)
}

fn static_at(source: &str, mode: Mode) -> Vec<String> {
    let (phase, ranges) = errors(native(source, mode));
    assert_eq!(phase, Phase::Static, "{source}");
    ranges
}

#[test]
fn every_form_of_the_readme() {
    assert_eq!(ty("string"), Type::String);
    assert_eq!(ty("bool"), Type::Bool);
    assert_eq!(ty("number"), Type::Number);
    assert_eq!(ty("any"), Type::Dynamic);
    assert_eq!(ty("list(string)"), Type::list(Type::String));
    assert_eq!(ty("set(number)"), Type::set(Type::Number));
    assert_eq!(ty("map(bool)"), Type::map(Type::Bool));
    assert_eq!(
        ty("tuple([string, list(any)])"),
        Type::Tuple(vec![Type::String, Type::list(Type::Dynamic)])
    );
    assert_eq!(ty("tuple([])"), Type::Tuple(vec![]));
    assert_eq!(
        ty("map(object({name=string,age=number}))"),
        Type::map(Type::object([
            ("name", Type::String),
            ("age", Type::Number)
        ]))
    );
    assert_eq!(ty("object({})"), Type::object::<String>([]));
}

#[test]
fn any_is_for_type_constraints_only() {
    assert_eq!(static_at("any", Mode::Type), ["1:1-1:4"]);
    assert_eq!(static_at("list(any)", Mode::Type), ["1:6-1:9"]);
    assert_eq!(
        native("list(string)", Mode::Type),
        Ok(Type::list(Type::String))
    );
}

#[test]
fn faults_are_reported_where_they_are() {
    let c = Mode::TypeConstraint;
    assert_eq!(static_at("str", c), ["1:1-1:4"]);
    assert_eq!(static_at("list", c), ["1:1-1:5"]);
    assert_eq!(static_at("string()", c), ["1:7-1:9"]);
    assert_eq!(static_at("list()", c), ["1:5-1:7"]);
    assert_eq!(static_at("list(string, number, bool)", c), ["1:14-1:26"]);
    assert_eq!(static_at("lst(string)", c), ["1:1-1:12"]);
    assert_eq!(static_at("tuple(string)", c), ["1:7-1:13"]);
    assert_eq!(static_at("object([string])", c), ["1:8-1:16"]);
    assert_eq!(static_at(r#"object({"a" = string})"#, c), ["1:9-1:12"]);
    assert_eq!(static_at("object({(a) = string})", c), ["1:9-1:12"]);
    assert_eq!(
        static_at("object({a = string, a = number})", c),
        ["1:21-1:22"]
    );
    assert_eq!(static_at("(string)", c), ["1:1-1:9"]);
    assert_eq!(static_at(r#""string""#, c), ["1:1-1:9"]);
    assert_eq!(static_at("list(string) + 1", c), ["1:1-1:17"]);
    assert_eq!(static_at("a.b", c), ["1:1-1:4"]);
    // Every fault is reported.
    assert_eq!(
        static_at("object({a = foo, b = list(), c = string})", c),
        ["1:13-1:16", "1:26-1:28"]
    );
    assert_eq!(static_at("tuple([bar, baz])", c), ["1:8-1:11", "1:13-1:16"]);
}

#[test]
fn source_that_does_not_parse_is_a_parse_error() {
    let (phase, _) = errors(native("list(string", Mode::Type));
    assert_eq!(phase, Phase::Parse);
}

#[test]
fn nesting_is_bounded() {
    let nested = |n: usize| format!("{}string{}", "list(".repeat(n), ")".repeat(n));
    let mut expected = Type::String;
    for _ in 0..MAX_TYPE_DEPTH {
        expected = Type::list(expected);
    }
    assert_eq!(ty(&nested(MAX_TYPE_DEPTH)), expected);
    let too_deep = nested(MAX_TYPE_DEPTH + 1);
    assert_eq!(static_at(&too_deep, Mode::Type).len(), 1);
    // Far deeper than the limit, as deep as the parser accepts.
    let deepest = nested(100_000);
    assert_eq!(static_at(&deepest, Mode::Type).len(), 1);
}

#[test]
fn json_strings_hold_native_expressions() {
    let json = |s: &str| json_type(s, Mode::TypeConstraint);
    assert_eq!(json(r#""list(string)""#), Ok(Type::list(Type::String)));
    assert_eq!(json(r#" "any" "#), Ok(Type::Dynamic));
    // Not a template: an interpolation is no expression.
    let (phase, ranges) = errors(json(r#""${string}""#));
    assert_eq!(
        (phase, ranges),
        (Phase::Static, vec!["1:1-1:12".to_string()])
    );
    // A fault of the whole expression is at the whole string; one inside
    // it at its place in the JSON source.
    assert_eq!(errors(json(r#""strin""#)).1, ["1:1-1:8"]);
    assert_eq!(errors(json(r#""list(strin)""#)).1, ["1:7-1:12"]);
    assert_eq!(errors(json(r#"["string"]"#)).1, ["1:1-1:11"]);
    assert_eq!(errors(json("null")).0, Phase::Static);
    assert_eq!(errors(json(r#""list(string""#)).0, Phase::Static);
    assert_eq!(errors(json(r#""string"#)).0, Phase::Parse);
}

#[test]
fn convert_reads_its_type_inline() {
    let mut ctx = EvalContext {
        functions: Some(FunctionTable::conformance().with(convert_entry())),
        ..EvalContext::default()
    };
    ctx.variables.insert("t".into(), Value::string("bool"));
    let eval = |s: &str| eval_expression(s, &ctx);
    assert_eq!(eval(r#"convert("true", bool)"#), Ok(Value::Bool(true)));
    assert_eq!(
        eval("convert(null, list(any))"),
        Ok(Value::Null(Type::list(Type::Dynamic)))
    );
    for source in [
        r#"convert("true", t)"#,
        r#"convert(["true", "bool"]...)"#,
        r#"convert("true")"#,
        r#"convert("x", number)"#,
        r#"convert("x", string, 1)"#,
    ] {
        let diagnostics = eval(source).expect_err(source);
        assert_eq!(diagnostics[0].phase, Phase::Eval, "{source}");
    }
    // Without the extension, convert is no function of the table.
    let plain = EvalContext::default();
    assert!(eval_expression(r#"convert("true", bool)"#, &plain).is_err());
}
