//! The scan of a case's source for its number literals, made without
//! parsing (to tell whether the case needs big numbers). The other scan,
//! of a case file's nesting, is tested in `suite/nesting.rs`.

use hcl_conformance_format::needs::{is_big, number_literals};
use hcl_interpreter::native::lexer::StartMode;
use hcl_interpreter::number::Number;

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
