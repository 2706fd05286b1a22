//! The two scans the runner makes without parsing: how deep a case file's
//! flow collections nest (before its YAML is parsed), and the number
//! literals of a case's source (to tell whether it needs big numbers).

use hcl_conformance_format::needs::{is_big, number_literals};
use hcl_conformance_format::suite::nesting::flow_nesting_exceeds;
use hcl_interpreter::native::lexer::StartMode;
use hcl_interpreter::number::Number;

fn depth(text: &str) -> usize {
    (0..50)
        .find(|limit| flow_nesting_exceeds(text, *limit).is_none())
        .expect("less than 50 deep")
}

#[test]
fn flow_collections_count_where_a_node_starts() {
    assert_eq!(depth("a: [[1], {b: [2]}]\n"), 3);
    assert_eq!(depth("- - [1]\n- {a: {b: c}}\n"), 2);
    assert_eq!(depth("a: !tag [1]\nb: &anchor {c: [d]}\n"), 2);
    assert_eq!(depth("a: [\n  [1,\n   [2]],\n]\n"), 3);
    assert_eq!(flow_nesting_exceeds("a: 1\nb: [[[x]]]\n", 2), Some(2));
}

#[test]
fn text_that_cannot_open_a_collection_is_passed_over() {
    // Plain scalars, quoted scalars, comments, block scalars.
    assert_eq!(depth("expr: a[0] + b[c[1]]\n"), 0);
    assert_eq!(depth("a: '[[['\nb: \"[{\\\"[\"\nc: 'it''s ['\n"), 0);
    assert_eq!(depth("a: 1 # [[[\n# {{{\n"), 0);
    assert_eq!(depth("a: [\"]]\", '}']\n"), 1);
    assert_eq!(
        depth("- name: x\n  config: |\n    [[[\n    {\n\n  expr: [1]\n"),
        1
    );
    assert_eq!(depth("summary: >\n  [[[\nkind: [a]\n"), 1);
    assert_eq!(depth("a: \"multi\n  [[[ line\"\nb: [1]\n"), 1);
    assert_eq!(depth("description: it's [not a list\nb: [1]\n"), 1);
}

#[test]
fn the_suite_nests_a_few_levels() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../../suite");
    let mut deepest = 0;
    for entry in walkdir::WalkDir::new(suite) {
        let path = entry.unwrap().into_path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let text = std::fs::read_to_string(&path).unwrap();
            deepest = deepest.max(depth(&text));
        }
    }
    assert!((2..10).contains(&deepest), "{deepest}");
}

fn big(text: &str) -> bool {
    is_big(&Number::parse_decimal(text, true).unwrap())
}

#[test]
fn numbers_a_double_or_a_64_bit_integer_holds_are_not_big() {
    for small in [
        "0",
        "1",
        "-1",
        "12.5",
        "0.5",
        "-0.375",
        "9007199254740993",
        "18446744073709551615",
        "-9223372036854775808",
        "1e22",
        "0.25",
        "1125899906842624.5",
        "18446744073709551616", // 2^64: not a u64, but a double
    ] {
        assert!(!big(small), "{small}");
    }
}

#[test]
fn numbers_beyond_them_are_big() {
    for text in [
        "0.1",
        "3.14",
        "1e40",
        "1e300",
        "18446744073709551617",
        "1e600",
        "1e-600",
        "5e-324",
        "0.333333333333333333333333333333",
        "-18446744073709551617",
    ] {
        assert!(big(text), "{text}");
    }
    assert!(is_big(&Number::PositiveInfinity));
}

#[test]
fn literals_are_found_as_the_lexer_finds_them() {
    let expr = |text| number_literals(text, StartMode::ConfigFile);
    // Not in names, strings, steps after a dot, comments or heredocs; in
    // interpolations, in templates too.
    assert_eq!(expr("a1 + 2.5e3 - x.0 + \"99\" + f(7)"), ["2.5e3", "7"]);
    let template = "12 ${3 + \"4\"} %{ if 5 }6%{ endif }";
    assert_eq!(
        number_literals(template, StartMode::TemplateFile),
        ["3", "5"]
    );
    let config = "a = 1 # 0.1\n// 0.2\nb = /* 0.3 */ 2\nc = <<-EOT\n  0.4\n  EOT\nd = 3";
    assert_eq!(expr(config), ["1", "2", "3"]);
    assert_eq!(expr("\"${0.1}\""), ["0.1"]);
}
