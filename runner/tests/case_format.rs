//! The case format: malformed files fail with path, line and reason, and
//! values of every kind round-trip through it.

use hcl_conformance::requirements::Requirements;
use hcl_conformance::suite::{load_file, read_typed_value, LoadError};
use hcl_interpreter::number::Number;
use hcl_interpreter::types::parse_type;
use hcl_interpreter::{Type, Value};
use std::path::{Path, PathBuf};

fn suite_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite"))
}

/// Writes `text` to a case file in a fresh folder and loads it.
fn load_text(name: &str, text: &str) -> (PathBuf, Result<usize, Vec<LoadError>>) {
    let dir = std::env::temp_dir().join(format!(
        "hcl-conformance-format-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, text).unwrap();
    let requirements = Requirements::load(suite_dir()).unwrap();
    let result = load_file(&path, suite_dir(), &requirements).map(|f| f.cases.len());
    (path, result)
}

fn expect_error(name: &str, text: &str, line: usize, reason: &str) {
    let (path, result) = load_text(name, text);
    let errors = result.expect_err("the file must not load");
    let error = &errors[0];
    assert_eq!(error.path, path);
    assert_eq!(error.line, Some(line), "{error}");
    assert!(
        error.message.contains(reason),
        "`{}` does not say `{reason}`",
        error.message
    );
    let shown = error.to_string();
    assert!(
        shown.starts_with(&format!("{}:{line}: ", path.display())),
        "{shown}"
    );
}

const HEADER: &str = "spec: spec.md#type-unification\nsummary: a test file\n";

#[test]
fn a_good_file_loads() {
    let text = format!(
        "{HEADER}cases:\n  - name: ok\n    kind: unify\n    covers: [hcl.type-unification.007]\n    types: [number, string]\n    expect: {{ type: string }}\n"
    );
    assert_eq!(load_text("good", &text).1.unwrap(), 1);
}

#[test]
fn yaml_syntax_errors_name_the_line() {
    let text =
        format!("{HEADER}cases:\n  - name: bad\n    types: [number, string\n    kind: unify\n");
    expect_error("syntax", &text, 5, "");
}

#[test]
fn unknown_case_kinds_are_rejected() {
    let text = format!(
        "{HEADER}cases:\n  - name: strange\n    kind: frobnicate\n    covers: [hcl.type-unification.007]\n    types: [number]\n    expect: {{ type: number }}\n"
    );
    expect_error("kind", &text, 4, "unknown kind `frobnicate`");
}

#[test]
fn malformed_types_are_rejected() {
    let text = format!(
        "{HEADER}cases:\n  - name: bad-type\n    kind: unify\n    covers: [hcl.type-unification.007]\n    types: [number, \"lsit(string)\"]\n    expect: {{ type: string }}\n"
    );
    expect_error("type", &text, 7, "malformed type `lsit(string)`");
}

#[test]
fn unknown_requirement_ids_are_rejected() {
    let text = format!(
        "{HEADER}cases:\n  - name: bad-id\n    kind: unify\n    covers: [hcl.type-unification.999]\n    types: [number]\n    expect: {{ type: number }}\n"
    );
    expect_error("id", &text, 4, "not in requirements.jsonl");
}

#[test]
fn values_that_do_not_fit_their_type_are_rejected() {
    let text = format!(
        "{HEADER}cases:\n  - name: unquoted\n    kind: convert\n    covers: [hcl.type-unification.007]\n    value: {{ type: string, value: 1 }}\n    to: number\n    expect: {{ type: number, value: 1 }}\n"
    );
    expect_error("value", &text, 4, "quote the number 1");
}

#[test]
fn open_results_need_a_reason() {
    let text = format!(
        "{HEADER}cases:\n  - name: open\n    kind: unify\n    covers: [hcl.type-unification.007]\n    types: [number]\n    expect: {{ one-of: [{{ type: number }}, {{ error: unification }}] }}\n"
    );
    expect_error("open", &text, 4, "implementation-defined");
}

#[test]
fn duplicate_case_names_are_rejected() {
    let case = "  - name: twice\n    kind: unify\n    covers: [hcl.type-unification.007]\n    types: [number]\n    expect: { type: number }\n";
    let text = format!("{HEADER}cases:\n{case}{case}");
    expect_error("duplicate", &text, 4, "used twice");
}

/// Reads `{type, value}` written in the suite format.
fn read(ty: &str, value: &str) -> Value {
    let ty = parse_type(ty).unwrap();
    let yaml: serde_yaml::Value = serde_yaml::from_str(value).unwrap();
    read_typed_value(&yaml, &ty).unwrap().to_value(&ty).unwrap()
}

#[test]
fn values_of_every_kind_round_trip() {
    let digits = "1234567890".repeat(30);
    assert_eq!(
        read("number", &format!("\"{digits}\"")),
        Value::Number(Number::parse_decimal(&digits, false).unwrap())
    );
    assert_eq!(
        read("number", "\"+Inf\""),
        Value::Number(Number::PositiveInfinity)
    );
    assert_eq!(
        read("number", "\"-Inf\""),
        Value::Number(Number::NegativeInfinity)
    );
    assert_eq!(
        read("number", "\"-1.5e-3\""),
        Value::Number(Number::parse_decimal("-0.0015", false).unwrap())
    );
    assert_eq!(read("any", "null"), Value::Null(Type::Dynamic));
    assert_eq!(read("any", "!unknown"), Value::Unknown(Type::Dynamic));
    assert_eq!(
        read("list(string)", "[\"a\", !unknown , null]"),
        Value::list(
            Type::String,
            vec![
                Value::string("a"),
                Value::Unknown(Type::String),
                Value::Null(Type::String)
            ]
        )
        .unwrap()
    );
    let nested = read(
        "object({a = map(set(number)), b = tuple([bool, any])})",
        "{a: {k: [3, 1, 2], u: !unknown , n: null}, b: [true, null]}",
    );
    let expected_set = Value::set(
        Type::Number,
        [1, 2, 3]
            .map(|n| Value::Number(Number::from_i64(n)))
            .to_vec(),
    )
    .unwrap();
    let expected = Value::object([
        (
            "a".to_string(),
            Value::map(
                Type::set(Type::Number),
                [
                    ("k".to_string(), expected_set),
                    ("u".to_string(), Value::Unknown(Type::set(Type::Number))),
                    ("n".to_string(), Value::Null(Type::set(Type::Number))),
                ],
            )
            .unwrap(),
        ),
        (
            "b".to_string(),
            Value::Tuple(vec![Value::Bool(true), Value::Null(Type::Dynamic)]),
        ),
    ]);
    assert_eq!(nested, expected);
    // Sets compare without order: [3, 1, 2] and [1, 2, 3] are one set.
    assert_eq!(
        read("set(number)", "[3, 1, 2]"),
        read("set(number)", "[1, 2, 3]")
    );
}

#[test]
fn values_that_lose_precision_in_yaml_are_rejected() {
    let ty = Type::Number;
    let yaml: serde_yaml::Value = serde_yaml::from_str("0.12345678901234567890").unwrap();
    assert!(read_typed_value(&yaml, &ty).is_err());
    let yaml: serde_yaml::Value = serde_yaml::from_str("[1, 1]").unwrap();
    let set = Type::set(Type::Number);
    assert!(read_typed_value(&yaml, &set)
        .unwrap()
        .to_value(&set)
        .is_err());
}

#[test]
fn typeexpr_fields_belong_to_their_kinds() {
    let header = "spec: ext-typeexpr-README.md#type-expression-syntax\nsummary: a test file\n";
    let good = format!(
        "{header}cases:\n  - name: ok\n    kind: typeexpr\n    covers: [typeexpr.type-expression-syntax.002]\n    syntax: json\n    constraint: true\n    expr: '\"string\"'\n    expect: {{ type: string }}\n"
    );
    assert_eq!(load_text("typeexpr-good", &good).1.unwrap(), 1);
    let constraint_on_expr = format!(
        "{header}cases:\n  - name: stray\n    kind: expr\n    covers: [typeexpr.type-expression-syntax.002]\n    constraint: true\n    expr: '1'\n    expect: {{ type: number, value: 1 }}\n"
    );
    expect_error(
        "typeexpr-stray",
        &constraint_on_expr,
        4,
        "`constraint` is not a field of a `expr` case",
    );
    let wrong_extension = format!(
        "{header}cases:\n  - name: wrong\n    kind: expr\n    covers: [typeexpr.type-expression-syntax.002]\n    extensions: [dynblock]\n    expr: '1'\n    expect: {{ type: number, value: 1 }}\n"
    );
    expect_error(
        "typeexpr-extension",
        &wrong_extension,
        4,
        "unknown extension `dynblock` for an `expr` case",
    );
    let misspelled = format!(
        "{header}cases:\n  - name: typo\n    kind: typeexpr\n    covers: [typeexpr.type-expression-syntax.002]\n    constrain: true\n    expr: string\n    expect: {{ type: string }}\n"
    );
    let (_, result) = load_text("typeexpr-typo", &misspelled);
    let errors = result.expect_err("an unknown field");
    assert!(errors[0].message.contains("constrain"), "{}", errors[0]);
    assert!(errors[0].line.is_some(), "{}", errors[0]);
}
