//! Capability-aware grading (runner/PROTOCOL.md § Features for weaker
//! implementations): a case needing a feature an implementation lacks is
//! unsupported, naming every missing capability; otherwise the weaker
//! parts are compared. Each rule is shown to pass where it should and to
//! fail where it should, against a fake (`tests/fakes/weak.py`) that
//! forwards to hcl-ref and weakens its answers.

use hcl_conformance_format::kinds::{self, Block, Body, Input, Named, Text};
use hcl_conformance_format::suite::{Case, CaseInput, Expectation, Expected, TypedValue};
use hcl_conformance_format::values::ExpectedValue;
use hcl_conformance_runner::known_failures::KnownFailures;
use hcl_conformance_runner::run::{run_case, RunSettings};
use hcl_conformance_runner::subprocess::{ImplementationCommand, Pool};
use hcl_conformance_runner::verdict::{CaseRecord as Verdict, Status};
use hcl_interpreter::number::Number;
use hcl_interpreter::{Phase, Type, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

const WEAK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fakes/weak.py");
const ALL_KINDS: &str = "convert,unify,identical,matches,operation,expr,template,config,static";

/// Runs one case against the fake with these features, kinds and mode.
fn verdict(features: &str, kinds: &str, mode: &str, case: &Case) -> Verdict {
    let pool = Pool::start(ImplementationCommand::new(
        "python3".into(),
        vec![
            WEAK.into(),
            env!("CARGO_BIN_EXE_hcl-ref").into(),
            features.into(),
            kinds.into(),
            mode.into(),
        ],
        Duration::from_secs(20),
    ))
    .expect("the fake answers hello");
    let capabilities = pool.capabilities().clone();
    let pool = Arc::new(pool);
    let settings = RunSettings {
        implementation: Arc::new(move |input: &_| pool.run(input)),
        capabilities: Some(capabilities),
        profile: "spec".into(),
        known_failures: KnownFailures::default(),
    };
    run_case(case, &settings)
}

fn case(input: CaseInput, expect: Expectation) -> Case {
    Case {
        id: "grading/test::case".into(),
        name: "case".into(),
        description: None,
        covers: Vec::new(),
        input,
        expect,
        implementation_defined: None,
        profiles: BTreeMap::new(),
        area: "expressions",
        line: 1,
    }
}

fn expr(text: &str, variables: &[(&str, Value)]) -> CaseInput {
    Input::Expr(kinds::Expr {
        expr: text.into(),
        variables: variables
            .iter()
            .map(|(k, v)| (Text::from(*k), TypedValue(v.clone())))
            .collect(),
        extensions: Vec::new(),
    })
}

fn number(text: &str) -> Number {
    Number::parse_decimal(text, true).unwrap()
}

fn value(ty: Type, value: ExpectedValue) -> Expectation {
    Expectation::Value {
        ty,
        value,
        safety: None,
        order_any: false,
    }
}

fn error(phase: Phase, range: Option<&str>) -> Expectation {
    Expectation::Error {
        phase,
        range: range.map(str::to_string),
    }
}

fn assert_status(v: &Verdict, status: Status, contains: &str) {
    assert_eq!(v.status, status, "{v:?}");
    assert!(
        v.message.contains(contains) || v.reason.contains(contains),
        "`{contains}` not in {v:?}"
    );
}

/// `{a = 1, b = 2}`: an object of numbers.
fn object_of_numbers(b: &str) -> Case {
    case(
        expr("{a = 1, b = 2}", &[]),
        value(
            Type::Object(BTreeMap::from([
                ("a".into(), Type::Number),
                ("b".into(), Type::Number),
            ])),
            ExpectedValue::Mapping(BTreeMap::from([
                ("a".into(), ExpectedValue::Number(number("1"))),
                ("b".into(), ExpectedValue::Number(number(b))),
            ])),
        ),
    )
}

#[test]
fn a_case_is_unsupported_naming_every_capability_it_lacks() {
    // A list variable and a number beyond a double: exact-types and
    // big-numbers; an unknown element: unknown.
    let list = Value::list(
        Type::Number,
        vec![Value::Number(number("1e40")), Value::Unknown(Type::Number)],
    )
    .unwrap();
    let needy = case(
        expr("a", &[("a", list)]),
        value(
            Type::list(Type::Number),
            ExpectedValue::Sequence(vec![
                ExpectedValue::Number(number("1e40")),
                ExpectedValue::Unknown,
            ]),
        ),
    );
    let v = verdict("", ALL_KINDS, "honest", &needy);
    assert_status(
        &v,
        Status::Unsupported,
        "needs unknown, exact-types, big-numbers",
    );
    // With every feature the case is graded, and passes.
    let v = verdict(
        "unknown,exact-types,big-numbers",
        ALL_KINDS,
        "honest",
        &needy,
    );
    assert_status(&v, Status::Passed, "");
    // A missing kind is named with the features.
    let convert = case(
        Input::Convert(kinds::Convert {
            value: TypedValue(Value::string("1")),
            to: hcl_conformance_format::suite::TypeText(Type::Number),
        }),
        value(Type::Number, ExpectedValue::Number(number("1"))),
    );
    let v = verdict("", "unify", "honest", &convert);
    assert_status(&v, Status::Unsupported, "needs kind convert, exact-types");
    // Literal-only mode needs `schema`; an extension is a feature of its
    // name, known to the runner or not.
    let mut extended = config_case("l");
    if let Input::Config(config) = &mut extended.input {
        config.extensions = vec!["dynblock".into(), "some-future-extension".into()];
        config.literal_only = true;
    }
    let v = verdict("", ALL_KINDS, "honest", &extended);
    assert_status(
        &v,
        Status::Unsupported,
        "needs schema, dynblock, some-future-extension",
    );
}

#[test]
fn typed_nulls_and_kinds_about_types_need_exact_types() {
    let typed_null = case(expr("a", &[("a", Value::Null(Type::String))]), {
        value(Type::String, ExpectedValue::Null)
    });
    let v = verdict("", ALL_KINDS, "honest", &typed_null);
    assert_status(&v, Status::Unsupported, "needs exact-types");
    let unify = case(
        Input::Unify(kinds::Unify {
            types: vec![
                hcl_conformance_format::suite::TypeText(Type::Number),
                hcl_conformance_format::suite::TypeText(Type::String),
            ],
        }),
        Expectation::Type(Type::String),
    );
    let v = verdict("", ALL_KINDS, "honest", &unify);
    assert_status(&v, Status::Unsupported, "needs exact-types");
}

#[test]
fn without_exact_types_values_are_compared_without_their_types() {
    // The fake answers map(number) for the object: the same mapping.
    let v = verdict("", ALL_KINDS, "retype", &object_of_numbers("2"));
    assert_status(&v, Status::Passed, "");
    // Declaring exact-types, the type is compared, and differs.
    let v = verdict("exact-types", ALL_KINDS, "retype", &object_of_numbers("2"));
    assert_status(&v, Status::Failed, "expected a value of type object");
    // Values still count.
    let v = verdict("", ALL_KINDS, "retype", &object_of_numbers("3"));
    assert_status(
        &v,
        Status::Failed,
        "[\"b\"]: expected number 3, got number 2",
    );
    // Primitives are compared by kind: a string is no number.
    let string_for_number = case(
        expr("\"1\"", &[]),
        value(Type::Number, ExpectedValue::Number(number("1"))),
    );
    let v = verdict("", ALL_KINDS, "honest", &string_for_number);
    assert_status(&v, Status::Failed, "expected number 1, got string \"1\"");
}

#[test]
fn numbers_beyond_64_bits_need_big_numbers() {
    // In a variable.
    let tenth = case(
        expr("a", &[("a", Value::Number(number("0.1")))]),
        value(Type::Number, ExpectedValue::Number(number("0.1"))),
    );
    let v = verdict("", ALL_KINDS, "honest", &tenth);
    assert_status(&v, Status::Unsupported, "needs big-numbers");
    // In a literal of the source, though the result is a bool.
    let literal = case(
        expr("10000000000000000000000000000000000000001 > 1", &[]),
        value(Type::Bool, ExpectedValue::Bool(true)),
    );
    let v = verdict("", ALL_KINDS, "honest", &literal);
    assert_status(&v, Status::Unsupported, "needs big-numbers");
    // Numbers a double holds need nothing: graded, and a wrong one fails.
    let small = |expected: &str| {
        case(
            expr("a + 1", &[("a", Value::Number(number("2.5")))]),
            value(Type::Number, ExpectedValue::Number(number(expected))),
        )
    };
    assert_status(
        &verdict("", ALL_KINDS, "honest", &small("3.5")),
        Status::Passed,
        "",
    );
    assert_status(
        &verdict("", ALL_KINDS, "honest", &small("4.5")),
        Status::Failed,
        "expected number 4.5, got number 3.5",
    );
}

#[test]
fn parse_only_answers_are_graded_on_parsing_alone() {
    let parse_error = case(expr("1 +", &[]), error(Phase::Parse, None));
    let eval_error = case(expr("1 + \"x\"", &[]), error(Phase::Eval, None));
    let unknown_variable = case(
        expr("a", &[("a", Value::Unknown(Type::Number))]),
        value(Type::Number, ExpectedValue::Unknown),
    );
    for (c, what) in [
        (&parse_error, "a parse error"),
        (&eval_error, "an eval error: it parses"),
        (&object_of_numbers("2"), "a value: it parses"),
        (&unknown_variable, "no value features are needed"),
    ] {
        let v = verdict("parse-only", "expr", "parse", c);
        assert_eq!(v.status, Status::Passed, "{what}: {v:?}");
    }
    // Saying it parses when it does not, or not parsing at all, fails.
    let v = verdict("parse-only", "expr", "parse-always", &parse_error);
    assert_status(&v, Status::Failed, "expected an error in phase parse");
    let v = verdict("parse-only", "expr", "honest", &object_of_numbers("2"));
    assert_status(&v, Status::Failed, "expected the source to parse");
    let v = verdict(
        "parse-only",
        "expr",
        "parse",
        &case(expr("1 +", &[]), error(Phase::Eval, None)),
    );
    assert_status(&v, Status::Failed, "expected the source to parse");
    // Other kinds are unsupported unless listed.
    let unify = case(
        Input::Unify(kinds::Unify {
            types: vec![hcl_conformance_format::suite::TypeText(Type::Number)],
        }),
        Expectation::Type(Type::Number),
    );
    let v = verdict("parse-only", "expr", "parse", &unify);
    assert_status(&v, Status::Unsupported, "needs kind unify");
}

#[test]
fn error_ranges_are_compared_only_with_the_ranges_feature() {
    let wrong_range = case(expr("1 +", &[]), error(Phase::Parse, Some("9:9-9:9")));
    for mode in ["honest", "parse"] {
        let features = if mode == "parse" { "parse-only" } else { "" };
        let v = verdict(features, "expr", mode, &wrong_range);
        assert_status(&v, Status::Passed, "");
        let v = verdict(&format!("{features},ranges"), "expr", mode, &wrong_range);
        assert_status(&v, Status::Failed, "at 9:9-9:9, got one at 1:4-1:4");
    }
}

#[test]
fn an_error_without_a_range_is_not_at_the_expected_range() {
    let pinned = case(expr("1 +", &[]), error(Phase::Parse, Some("1:4-1:4")));
    let v = verdict("ranges", "expr", "no-ranges", &pinned);
    assert_status(
        &v,
        Status::Failed,
        "expected an error at 1:4-1:4, got one without a range",
    );
    // Without the ranges feature, ranges are not compared at all.
    let v = verdict("", "expr", "no-ranges", &pinned);
    assert_status(&v, Status::Passed, "");
    // A case that pins no range asks for none.
    let unpinned = case(expr("1 +", &[]), error(Phase::Parse, None));
    let v = verdict("ranges", "expr", "no-ranges", &unpinned);
    assert_status(&v, Status::Passed, "");
}

fn config_case(label: &str) -> Case {
    let attributes = |name: &str, n: &str| {
        BTreeMap::from([(
            Text::from(name),
            Expected {
                ty: Type::Number,
                value: ExpectedValue::Number(number(n)),
            },
        )])
    };
    case(
        Input::Config(kinds::Config {
            syntax: Named(kinds::Syntax::Native),
            config: "a = 1\nb \"l\" {\n  c = 2\n}\n".into(),
            variables: BTreeMap::new(),
            extensions: Vec::new(),
            schema: None,
            literal_only: false,
        }),
        Expectation::Body(Body {
            attributes: attributes("a", "1"),
            blocks: vec![Block {
                type_name: "b".into(),
                labels: vec![label.into()],
                body: Body {
                    attributes: attributes("c", "2"),
                    ..Body::default()
                },
            }],
            ..Body::default()
        }),
    )
}

#[test]
fn unevaluated_attributes_are_checked_for_presence_and_the_rest_as_usual() {
    // (features declared, how the fake answers, the case's block label,
    // the verdict.)
    let cases = [
        ("unevaluated-values", "unevaluated", "l", Status::Passed, ""),
        // The structure is still compared.
        (
            "unevaluated-values",
            "unevaluated",
            "m",
            Status::Failed,
            "expected the labels [\"m\"]",
        ),
        (
            "unevaluated-values",
            "unevaluated-drop",
            "l",
            Status::Failed,
            "expected the attribute \"a\", which is missing",
        ),
        // Without the feature, an unevaluated attribute is a failure.
        (
            "",
            "unevaluated",
            "l",
            Status::Failed,
            "does not declare the feature unevaluated-values",
        ),
    ];
    for (features, mode, label, status, says) in cases {
        let v = verdict(features, "config", mode, &config_case(label));
        assert_status(&v, status, says);
    }
}

/// The verdicts of a whole run of the fake, by case id, over the cases
/// whose id contains `filter`.
fn run_verdicts(args: &[&str], filter: &str) -> BTreeMap<String, (String, String)> {
    let command = shell_words::join(
        ["python3", WEAK, env!("CARGO_BIN_EXE_hcl-ref")]
            .iter()
            .chain(args),
    );
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_hcl-conformance"))
        .args(["--impl", &command, "--format", "json", filter])
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&output.stderr));
    });
    let cases = report["cases"].as_array().unwrap().iter();
    cases
        .map(|c| {
            let text = |k: &str| c[k].as_str().unwrap_or_default().to_string();
            (text("id"), (text("status"), text("reason")))
        })
        .collect()
}

#[test]
fn a_native_only_implementation_gets_json_syntax_cases_as_unsupported() {
    // A parser that reads every source as native syntax fails JSON-syntax
    // cases when it is sent them...
    let (filter, features) = ("bodies/block-labels", "ranges,schema,exact-types,unknown");
    let undeclared = run_verdicts(&[features, "config", "as-native"], filter);
    // ...and declaring `syntaxes: [native]` makes each of them unsupported,
    // naming the syntax, while the native cases are still graded.
    let declared = run_verdicts(&[features, "config", "as-native", "native"], filter);
    assert_eq!(declared.len(), undeclared.len());
    let (mut unsupported, mut passed, mut failed_before) = (0, 0, 0);
    for (id, (status, reason)) in &declared {
        match status.as_str() {
            "unsupported" => {
                assert_eq!(reason, "needs syntax json", "{id}");
                unsupported += 1;
                failed_before += usize::from(undeclared[id].0 == "failed");
            }
            "passed" => passed += 1,
            _ => panic!("{id}: {status} {reason}"),
        }
    }
    assert!(unsupported > 0 && passed > 0, "{declared:?}");
    assert!(failed_before > 0, "{undeclared:?}");
    // Declaring both is declaring nothing: every case is sent.
    let both = run_verdicts(&[features, "config", "honest", "native,json"], filter);
    assert!(
        both.values().all(|(status, _)| status == "passed"),
        "{both:?}"
    );
}
