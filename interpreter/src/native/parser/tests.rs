//! The namespaced function call grammar of hashicorp/hcl v2.20.1 and later
//! (`core::upper("a")`), which hclsyntax-spec.md does not have: the name,
//! the spacing it allows, and where malformed names are reported.
//! SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)

use crate::diagnostic::{Diagnostic, Phase};
use crate::native::{eval_config, eval_expression, eval_template};
use crate::static_analysis::StaticExpression;
use crate::value::Value;
use crate::EvalContext;

/// The one diagnostic of a failed result, as (phase, summary, `L:C-L:C`).
fn failure<T: std::fmt::Debug>(
    source: &str,
    result: Result<T, Vec<Diagnostic>>,
) -> (Phase, String, String) {
    let diagnostics = result.expect_err(source);
    let [d] = &diagnostics[..] else {
        panic!("{source}: {diagnostics:?}");
    };
    let r = d.range.expect("a range");
    let range = format!(
        "{}:{}-{}:{}",
        r.start.line, r.start.column, r.end.line, r.end.column
    );
    (d.phase, d.summary.clone(), range)
}

fn expression(source: &str) -> Result<Value, Vec<Diagnostic>> {
    eval_expression(source, &EvalContext::default())
}

#[test]
fn a_namespaced_name_calls_the_table_entry_of_the_whole_name() {
    for source in [
        r#"core::upper("a")"#,
        r#"provider::conformance::upper("a")"#,
        r#"core :: upper ("a")"#,
        "core/* c */::\n  upper(\"a\")",
        r#"core::upper(provider::conformance::lower("A"))"#,
        r#"core::upper(["a"]...)"#,
    ] {
        assert_eq!(expression(source), Ok(Value::string("A")), "{source}");
    }
    assert_eq!(
        eval_template(
            r#"${core::upper("a")}%{ if core::length([1]) > 0 }b%{ endif }"#,
            &EvalContext::default()
        ),
        Ok(Value::string("Ab"))
    );
}

#[test]
fn a_namespaced_name_is_read_as_its_identifiers_joined() {
    let parsed = crate::native::parse_expression("provider :: conformance::\nmax(a, b...)")
        .expect("it parses");
    let tree = parsed.tree();
    let call = tree.static_call().expect("a call");
    assert_eq!(call.name, "provider::conformance::max");
    assert_eq!(call.arguments.len(), 2);
}

#[test]
fn malformed_names_are_parse_errors_at_the_token_found_instead() {
    let missing_name = "Missing function name";
    let missing_paren = "Missing open parenthesis";
    for (source, summary, range) in [
        ("a::(1)", missing_name, "1:4-1:5"),
        ("a::1(2)", missing_name, "1:4-1:5"),
        ("a::", missing_name, "1:4-1:4"),
        ("a::b::", missing_name, "1:7-1:7"),
        ("a:: ::b()", missing_name, "1:5-1:7"),
        ("a::\"x\"()", missing_name, "1:4-1:5"),
        ("a::b", missing_paren, "1:5-1:5"),
        ("a::b::c", missing_paren, "1:8-1:8"),
        ("a::b c", missing_paren, "1:6-1:7"),
        ("[a::b]", missing_paren, "1:6-1:7"),
    ] {
        assert_eq!(
            failure(source, expression(source)),
            (Phase::Parse, summary.to_string(), range.to_string()),
            "{source}"
        );
    }
    // `::` cannot start an expression; a single colon does not separate
    // namespaces.
    assert_eq!(failure("::a()", expression("::a()")).2, "1:1-1:3");
    assert_eq!(failure("a:b()", expression("a:b()")).2, "1:2-1:3");
}

#[test]
fn where_newlines_end_an_attribute_they_end_a_name() {
    let ctx = EvalContext::default();
    for (source, range) in [
        // The newline is found where the function's name should be.
        ("a = core::\nupper(\"x\")\n", "1:11-2:1"),
        // The attribute ends with `core`; `::` starts no attribute.
        ("a = core\n::upper(\"x\")\n", "2:1-2:3"),
        ("a = core::upper\n", "1:16-2:1"),
    ] {
        let (phase, _, got) = failure(source, eval_config(source, &ctx));
        assert_eq!((phase, got.as_str()), (Phase::Parse, range), "{source}");
    }
    let body = eval_config("a = (core::\nupper(\"x\"))\n", &ctx).expect("it evaluates");
    assert_eq!(body.attributes.get("a"), Some(&Value::string("X")));
}

#[test]
fn an_unknown_name_is_an_eval_error_at_the_whole_name() {
    for (source, range, detail) in [
        (
            "core::nope(1)",
            "1:1-1:11",
            r#"There is no function named "nope" in the namespace "core"."#,
        ),
        (
            "provider::nope(1)",
            "1:1-1:15",
            r#"There is no function named "nope" in the namespace "provider"."#,
        ),
        (
            "provider::other::upper(1)",
            "1:1-1:23",
            r#"There are no functions in the namespace "provider::other"."#,
        ),
        (
            "other :: upper(1)",
            "1:1-1:15",
            r#"There are no functions in the namespace "other"."#,
        ),
    ] {
        let diagnostics = expression(source).expect_err(source);
        assert_eq!(diagnostics[0].detail, detail, "{source}");
        assert_eq!(
            failure(source, expression(source)),
            (
                Phase::Eval,
                "Call to unknown function".to_string(),
                range.to_string()
            ),
            "{source}"
        );
    }
    // A namespaced name is an error of evaluation: without functions, the
    // call is the error, whether or not the name would exist.
    let literal_only = EvalContext::literal_only_mode();
    let source = r#"core::upper("a")"#;
    let diagnostics = eval_expression(source, &literal_only).expect_err(source);
    assert_eq!(diagnostics[0].summary, "Function calls not allowed");
}
