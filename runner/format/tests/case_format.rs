//! The case format: malformed files fail with path, line and reason, and
//! values of every kind round-trip through it.

use hcl_conformance_format::requirements::Requirements;
use hcl_conformance_format::suite::{load_file, load_suite, LoadError};
use hcl_conformance_format::values::read_typed_value;
use hcl_interpreter::number::Number;
use hcl_interpreter::typeexpr::parse_type;
use hcl_interpreter::{Type, Value};
use std::path::{Path, PathBuf};

fn suite_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../suite"))
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
    // Where the problem shows, and where what it breaks starts.
    expect_error(
        "syntax",
        &text,
        6,
        "while parsing a flow sequence at line 5",
    );
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
    let yaml: serde_norway::Value = serde_norway::from_str(value).unwrap();
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
    let yaml: serde_norway::Value = serde_norway::from_str("0.12345678901234567890").unwrap();
    assert!(read_typed_value(&yaml, &ty).is_err());
    let yaml: serde_norway::Value = serde_norway::from_str("[1, 1]").unwrap();
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
        "unknown field `constraint`, expected one of `expr`, `variables`, `extensions`",
    );
    let wrong_extension = format!(
        "{header}cases:\n  - name: wrong\n    kind: expr\n    covers: [typeexpr.type-expression-syntax.002]\n    extensions: [dynblock]\n    expr: '1'\n    expect: {{ type: number, value: 1 }}\n"
    );
    expect_error(
        "typeexpr-extension",
        &wrong_extension,
        4,
        "unknown extension `dynblock` in `extensions` (kind `expr` has: typeexpr)",
    );
    let misspelled = format!(
        "{header}cases:\n  - name: typo\n    kind: typeexpr\n    covers: [typeexpr.type-expression-syntax.002]\n    constrain: true\n    expr: string\n    expect: {{ type: string }}\n"
    );
    let (_, result) = load_text("typeexpr-typo", &misspelled);
    let errors = result.expect_err("an unknown field");
    assert!(errors[0].message.contains("constrain"), "{}", errors[0]);
    assert!(errors[0].line.is_some(), "{}", errors[0]);
}

/// A `config` case with each of its text fields written as text.
const CONFIG_TEXTS: &str = "spec: spec.md#type-unification
summary: a test file
cases:
  - name: texts
    description: every text field
    kind: config
    covers: [json.attributes.001]
    syntax: json
    config: '{\"a\": 1}'
    variables: { v: { type: number, value: 1 } }
    schema: { attributes: [a, { name: c }], blocks: [{ type: b, labels: [l] }] }
    expect: { body: { attributes: { a: { type: number, value: 1 } }, blocks: [{ type: b, labels: [x] }] } }
";

/// A `unify` case with a reason, a profile and its note.
const PROFILE_TEXTS: &str = "spec: spec.md#type-unification
summary: a test file
cases:
  - name: open
    kind: unify
    covers: [hcl.type-unification.007]
    types: [number, string]
    implementation-defined: why
    expect: { one-of: [{ type: string }, { error: unification, range: '1:1-1:2' }] }
    profiles: { hcl-v2.14: { expect: { error: unification }, note: spec-notes/gaps/unify-number-bool.md } }
";

/// `static` cases with the names their expectations list.
const STATIC_TEXTS: &str = "spec: [json-spec.md#static-analysis]
summary: a test file
kind: static
cases:
  - name: call
    covers: [json.static-call.001]
    syntax: json
    expr: '\"f(1)\"'
    analysis: call
    expect: { call: { name: f, arguments: ['1'] } }
  - name: list
    covers: [json.static-list.001]
    expr: '[a]'
    analysis: list
    expect: { list: [a] }
  - name: map
    covers: [json.static-list.001]
    expr: '{a = b}'
    analysis: map
    expect: { map: [{ key: a, value: b }] }
  - name: traversal
    covers: [json.static-list.001]
    expr: 'a.b'
    analysis: traversal
    expect: { traversal: [a, b] }
";

#[test]
fn text_fields_must_be_yaml_strings() {
    for (name, base) in [
        ("config", CONFIG_TEXTS),
        ("profile", PROFILE_TEXTS),
        ("static", STATIC_TEXTS),
    ] {
        assert!(load_text(name, base).1.is_ok(), "{name} must load");
    }
    // Each writes one text field as a number, a bool or null: the file must
    // not load, and the error must point at the field's line.
    let variants: &[(&str, &str, &str, usize)] = &[
        (CONFIG_TEXTS, "summary: a test file", "summary: 5", 2),
        (CONFIG_TEXTS, "name: texts", "name: 7", 4),
        (
            CONFIG_TEXTS,
            "description: every text field",
            "description: 1.5",
            5,
        ),
        (CONFIG_TEXTS, "kind: config", "kind: true", 6),
        (
            CONFIG_TEXTS,
            "covers: [json.attributes.001]",
            "covers: [12]",
            7,
        ),
        (CONFIG_TEXTS, "syntax: json", "syntax: 1", 8),
        (CONFIG_TEXTS, "config: '{\"a\": 1}'", "config: 42", 9),
        (CONFIG_TEXTS, "config: '{\"a\": 1}'", "config: 0x10", 9),
        (CONFIG_TEXTS, "{ v: {", "{ 1: {", 10),
        (CONFIG_TEXTS, "attributes: [a,", "attributes: [1,", 11),
        (CONFIG_TEXTS, "{ name: c }", "{ name: false }", 11),
        (
            CONFIG_TEXTS,
            "{ type: b, labels: [l] }",
            "{ type: 3, labels: [l] }",
            11,
        ),
        (CONFIG_TEXTS, "labels: [l]", "labels: [null]", 11),
        (CONFIG_TEXTS, "attributes: { a: {", "attributes: { 8: {", 12),
        (CONFIG_TEXTS, "labels: [x]", "labels: [9]", 12),
        (
            PROFILE_TEXTS,
            "implementation-defined: why",
            "implementation-defined: 0",
            8,
        ),
        (PROFILE_TEXTS, "range: '1:1-1:2'", "range: 1", 9),
        (
            PROFILE_TEXTS,
            "{ error: unification }, note",
            "{ error: 1 }, note",
            10,
        ),
        (PROFILE_TEXTS, "{ hcl-v2.14: {", "{ 214: {", 10),
        (
            PROFILE_TEXTS,
            "note: spec-notes/gaps/unify-number-bool.md",
            "note: 1",
            10,
        ),
        (
            STATIC_TEXTS,
            "spec: [json-spec.md#static-analysis]",
            "spec: [1]",
            1,
        ),
        (STATIC_TEXTS, "kind: static", "kind: 1", 3),
        (STATIC_TEXTS, "expr: '\"f(1)\"'", "expr: 1", 8),
        (STATIC_TEXTS, "analysis: call", "analysis: 1", 9),
        (STATIC_TEXTS, "{ name: f,", "{ name: 1,", 10),
        (STATIC_TEXTS, "arguments: ['1']", "arguments: [1]", 10),
        (STATIC_TEXTS, "list: [a]", "list: [1]", 15),
        (
            STATIC_TEXTS,
            "{ key: a, value: b }",
            "{ key: a, value: 2 }",
            20,
        ),
        (
            STATIC_TEXTS,
            "traversal: [a, b]",
            "traversal: [a, true]",
            25,
        ),
    ];
    for (i, (base, from, to, line)) in variants.iter().enumerate() {
        assert!(base.contains(from), "{from}");
        let text = base.replacen(from, to, 1);
        let (path, result) = load_text(&format!("text-{i}"), &text);
        let errors = result.expect_err(&format!("`{to}` must not load"));
        let error = &errors[0];
        assert_eq!(error.path, path);
        assert_eq!(error.line, Some(*line), "`{to}`: {error}");
        assert!(error.message.contains("invalid type"), "`{to}`: {error}");
    }
}

#[test]
fn a_number_where_source_text_is_expected_says_what_to_do() {
    let text = format!(
        "{HEADER}cases:\n  - name: number\n    kind: expr\n    covers: [hcl.type-unification.007]\n    expr: 42\n    expect: {{ type: number, value: 42 }}\n"
    );
    expect_error(
        "expr-number",
        &text,
        7,
        "invalid type: integer `42`, expected a string: quote it, or write source text as a block scalar (`|`)",
    );
}

#[test]
fn deeply_nested_yaml_is_rejected_before_it_is_parsed() {
    // 100,000 levels of `[`: the parser alone would take minutes.
    let depth = 100_000;
    let flow = format!(
        "{HEADER}cases:\n  - name: deep\n    kind: unify\n    covers: [hcl.type-unification.007]\n    types: {}{}\n    expect: {{ type: number }}\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    expect_error("deep-flow", &flow, 7, "nests more than 128 levels deep");
    // Block sequences nested as deep parse quickly, and are refused by the
    // same limit.
    let block = format!(
        "{HEADER}cases:\n  - name: deep\n    kind: convert\n    covers: [hcl.type-unification.007]\n    value:\n      type: any\n      value:\n        {}x\n    to: number\n    expect: {{ type: number }}\n",
        "- ".repeat(depth)
    );
    expect_error("deep-block", &block, 10, "nests more than 128 levels deep");
}

/// A suite folder holding `requirements.jsonl` and one case file.
fn scratch_suite(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hcl-conformance-suite-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("conversion")).unwrap();
    for file in ["requirements.jsonl", "conversion/bool-and-number.yaml"] {
        std::fs::copy(suite_dir().join(file), dir.join(file)).unwrap();
    }
    dir
}

#[test]
fn symbolic_links_in_the_suite_are_refused_with_their_path() {
    let dir = scratch_suite("links");
    assert_eq!(load_suite(&dir).unwrap().files.len(), 1);
    let file = dir.join("conversion/bool-and-number.yaml");
    let linked_file = dir.join("conversion/linked.yaml");
    let linked_folder = dir.join("linked-folder");
    std::os::unix::fs::symlink(&file, &linked_file).unwrap();
    std::os::unix::fs::symlink(dir.join("conversion"), &linked_folder).unwrap();
    let Err(errors) = load_suite(&dir) else {
        panic!("links are refused")
    };
    let linked: Vec<&Path> = errors.iter().map(|e| e.path.as_path()).collect();
    assert_eq!(linked, [linked_file.as_path(), linked_folder.as_path()]);
    for error in &errors {
        assert!(
            error.to_string().contains(": a symbolic link;")
                && error
                    .message
                    .contains("replace the link with what it points to"),
            "{error}"
        );
    }
}

/// (The runner's words for a missing suite folder:
/// runner/tests/hostile_lists.rs.)
#[test]
fn a_missing_suite_folder_is_named_with_what_to_do() {
    let dir = scratch_suite("missing");
    let missing = dir.join("no-such-folder");
    for (folder, what) in [
        (&missing, "there is no folder here"),
        (
            &dir.join("conversion"),
            "this folder has no requirements.jsonl",
        ),
    ] {
        let Err(errors) = load_suite(folder) else {
            panic!("no suite at {}", folder.display())
        };
        assert_eq!(errors.len(), 1);
        assert_eq!(&errors[0].path, folder);
        assert!(
            errors[0].message.contains(what) && errors[0].message.contains("--suite DIR"),
            "{}",
            errors[0]
        );
    }
}
