//! What a case needs of an implementation: its kind, and the optional
//! features (`runner/PROTOCOL.md` § Features) without which its expectation
//! cannot be checked.
//!
//! A case whose needs an implementation lacks is *unsupported*, with every
//! missing capability named; it is counted, never dropped.

use crate::subprocess::Capabilities;
use crate::suite::{Case, Expectation, ExpectedBody, ExpectedValue, Input, Syntax};
use hcl_interpreter::number::Number;
use hcl_interpreter::{Type, Value};

/// Unknown values in requests and answers.
pub const UNKNOWN: &str = "unknown";
/// Conversion answers say whether the conversion was safe.
pub const SAFETY: &str = "safety";
/// Diagnostics carry source ranges.
pub const RANGES: &str = "ranges";
/// Exact cty types: list, set and map apart from tuple and object, typed
/// nulls, typed empty collections.
pub const EXACT_TYPES: &str = "exact-types";
/// Arbitrary-precision numbers.
pub const BIG_NUMBERS: &str = "big-numbers";
/// Only parses: `expr`, `template` and `config` requests are answered
/// `parsed: true` or with a `parse` error.
pub const PARSE_ONLY: &str = "parse-only";
/// `config` answers may hold `{"unevaluated": REASON}` attribute values.
pub const UNEVALUATED_VALUES: &str = "unevaluated-values";

/// `config` requests may carry a body schema and ask for literal-only
/// mode.
pub const SCHEMA: &str = "schema";

/// The request kinds a `parse-only` implementation answers by parsing.
pub const PARSED_KINDS: &[&str] = &["expr", "template", "config"];

/// Whether an implementation with `capabilities` grades the case by
/// parsing only.
pub fn parse_only(case: &Case, capabilities: &Capabilities) -> bool {
    capabilities.features.contains(PARSE_ONLY) && PARSED_KINDS.contains(&case.input.kind())
}

/// Everything the case needs that the implementation lacks, each named as
/// a reader would look for it: `kind convert`, `exact-types`, `dynblock`...
/// Empty when the implementation can run the case.
pub fn missing_capabilities(
    case: &Case,
    profile: &str,
    capabilities: &Capabilities,
) -> Vec<String> {
    let mut missing = Vec::new();
    let kind = case.input.kind();
    if !capabilities.kinds.contains(kind) {
        missing.push(format!("kind {kind}"));
    }
    // A parse-only implementation is asked only whether the source parses:
    // values, and with them every value feature, play no part.
    if parse_only(case, capabilities) {
        return missing;
    }
    for feature in case_features(case, profile) {
        if !capabilities.features.contains(&feature) {
            missing.push(feature);
        }
    }
    missing
}

/// The features the case needs to be checked fully: `unknown`,
/// `exact-types`, `big-numbers`, `schema` in that order, then the
/// extensions it asks for (each extension is a feature of the same name).
pub fn case_features(case: &Case, profile: &str) -> Vec<String> {
    let expect = case.expectation_for(profile);
    let values = input_values(&case.input);
    let mut needs = Vec::new();
    if values.iter().any(|v| !v.is_wholly_known()) || expectation_has_unknown(expect) {
        needs.push(UNKNOWN.to_string());
    }
    if needs_exact_types(case, expect, &values) {
        needs.push(EXACT_TYPES.to_string());
    }
    if needs_big_numbers(&case.input, expect, &values) {
        needs.push(BIG_NUMBERS.to_string());
    }
    if let Input::Config {
        extensions,
        schema,
        literal_only,
        ..
    } = &case.input
    {
        // Body schemas and literal-only mode: feature `schema`.
        if schema.is_some() || *literal_only {
            needs.push(SCHEMA.to_string());
        }
        needs.extend(extensions.iter().cloned());
    }
    if let Input::Expr { extensions, .. } = &case.input {
        needs.extend(extensions.iter().cloned());
    }
    needs
}

/// The values a case's input carries: a conversion's value, operands,
/// variables.
fn input_values(input: &Input) -> Vec<&Value> {
    match input {
        Input::Convert { value, .. } => vec![value],
        Input::Operation { operands, .. } => operands.iter().collect(),
        Input::Expr { variables, .. }
        | Input::Template { variables, .. }
        | Input::Config { variables, .. } => variables.values().collect(),
        _ => Vec::new(),
    }
}

fn expected_has_unknown(v: &ExpectedValue) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            ExpectedValue::Unknown => return true,
            ExpectedValue::Sequence(items) => stack.extend(items),
            ExpectedValue::Mapping(entries) => stack.extend(entries.values()),
            _ => {}
        }
    }
    false
}

fn expectation_has_unknown(e: &Expectation) -> bool {
    any_expected_value(e, &mut |_, v| expected_has_unknown(v))
}

/// Whether `test` holds for any `(type, value)` the expectation holds: a
/// value, a body's attributes, any option of `one-of`.
fn any_expected_value(
    e: &Expectation,
    test: &mut dyn FnMut(&Type, &ExpectedValue) -> bool,
) -> bool {
    match e {
        Expectation::Value { ty, value, .. } => test(ty, value),
        Expectation::OneOf(options) => options.iter().any(|o| any_expected_value(o, test)),
        Expectation::Body(body) => any_body_value(body, test),
        _ => false,
    }
}

fn any_body_value(
    body: &ExpectedBody,
    test: &mut dyn FnMut(&Type, &ExpectedValue) -> bool,
) -> bool {
    let mut stack = vec![body];
    while let Some(body) = stack.pop() {
        if body.attributes.values().any(|(ty, v)| test(ty, v)) {
            return true;
        }
        stack.extend(body.blocks.iter().map(|b| &b.body));
    }
    false
}

/// Whether a type is or contains a list, set or map type.
fn has_collection_type(ty: &Type) -> bool {
    let mut stack = vec![ty];
    while let Some(ty) = stack.pop() {
        match ty {
            Type::List(_) | Type::Set(_) | Type::Map(_) => return true,
            Type::Object(attributes) => stack.extend(attributes.values()),
            Type::Tuple(elements) => stack.extend(elements),
            _ => {}
        }
    }
    false
}

/// Whether a value is or contains a collection, or a null of a type other
/// than the dynamic pseudo-type.
fn value_needs_exact_types(v: &Value) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::List(..) | Value::Set(..) | Value::Map(..) => return true,
            Value::Null(ty) if *ty != Type::Dynamic => return true,
            Value::Unknown(ty) if has_collection_type(ty) => return true,
            Value::Object(attributes) => stack.extend(attributes.values()),
            Value::Tuple(elements) => stack.extend(elements),
            _ => {}
        }
    }
    false
}

/// Whether an expected value of `ty` is or contains a collection or a
/// typed null.
fn expected_needs_exact_types(ty: &Type, v: &ExpectedValue) -> bool {
    if has_collection_type(ty) {
        return true;
    }
    let mut stack = vec![(ty, v)];
    while let Some((ty, v)) = stack.pop() {
        match (ty, v) {
            (Type::Dynamic, _) => {}
            (_, ExpectedValue::Null) => return true,
            (Type::Object(types), ExpectedValue::Mapping(entries)) => {
                stack.extend(entries.iter().filter_map(|(k, v)| Some((types.get(k)?, v))));
            }
            (Type::Tuple(types), ExpectedValue::Sequence(items)) => {
                stack.extend(types.iter().zip(items));
            }
            _ => {}
        }
    }
    false
}

/// `exact-types`: the kind is about types, or an input or expected value
/// holds a collection or a typed null.
fn needs_exact_types(case: &Case, expect: &Expectation, values: &[&Value]) -> bool {
    matches!(
        case.input,
        Input::Convert { .. }
            | Input::Unify { .. }
            | Input::Identical { .. }
            | Input::Matches { .. }
            | Input::TypeExpr { .. }
    ) || values.iter().any(|v| value_needs_exact_types(v))
        || any_expected_value(expect, &mut expected_needs_exact_types)
}

/// `big-numbers`: a number of the input (a value, or a number literal of
/// the source text) or of the expected result that a 64-bit integer or a
/// finite 64-bit float cannot hold exactly.
fn needs_big_numbers(input: &Input, expect: &Expectation, values: &[&Value]) -> bool {
    values.iter().any(|v| value_has_big_number(v))
        || any_expected_value(expect, &mut |_, v| expected_has_big_number(v))
        || source_has_big_literal(input)
}

fn value_has_big_number(v: &Value) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if is_big(n) => return true,
            other => stack.extend(other.children()),
        }
    }
    false
}

fn expected_has_big_number(v: &ExpectedValue) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            ExpectedValue::Number(n) | ExpectedValue::Approx { value: n, .. } if is_big(n) => {
                return true
            }
            ExpectedValue::Sequence(items) => stack.extend(items),
            ExpectedValue::Mapping(entries) => stack.extend(entries.values()),
            _ => {}
        }
    }
    false
}

/// Whether a number needs arbitrary precision: it is neither an integer
/// that fits an `i64` or a `u64` nor exactly a finite `f64`.
pub fn is_big(n: &Number) -> bool {
    if n.is_infinite() {
        return true;
    }
    let text = n.to_decimal_string();
    let digits = text.strip_prefix('-').unwrap_or(&text);
    let fits_u64 = !text.starts_with('-') && digits.parse::<u64>().is_ok();
    if n.is_integer() && (n.to_i64().is_some() || fits_u64) {
        return false;
    }
    !exactly_a_double(digits)
}

/// Whether a non-negative decimal (`123.45`, no exponent) is exactly a
/// finite `f64`: after taking out its factors 2 and 5 it is
/// `R * 2^a * 5^b`, which is a double when `b >= 0` and `R * 5^b` fits the
/// 53-bit significand at an exponent in range.
fn exactly_a_double(decimal: &str) -> bool {
    // Longer decimals are far beyond a double's 17 significant digits or
    // its exponent range in any case.
    if decimal.len() > 1200 {
        return false;
    }
    let (int_part, frac_part) = decimal.split_once('.').unwrap_or((decimal, ""));
    let frac_part = frac_part.trim_end_matches('0');
    let mut digits: Vec<u8> = int_part
        .bytes()
        .chain(frac_part.bytes())
        .map(|b| b.wrapping_sub(b'0'))
        .collect();
    if digits.iter().any(|d| *d > 9) {
        return false;
    }
    while digits.first() == Some(&0) {
        digits.remove(0);
    }
    if digits.is_empty() {
        return true; // zero
    }
    let scale = frac_part.len() as i64;
    let mut twos = 0i64;
    while divide_exactly(&mut digits, 2) {
        twos += 1;
    }
    let mut fives = 0i64;
    while divide_exactly(&mut digits, 5) {
        fives += 1;
    }
    // The value is digits * 2^(twos - scale) * 5^(fives - scale).
    let five_power = fives - scale;
    if !(0..=23).contains(&five_power) || digits.len() > 16 {
        return false;
    }
    let Some(odd) = digits
        .iter()
        .try_fold(0u128, |acc, d| acc.checked_mul(10)?.checked_add(*d as u128))
        .and_then(|r| r.checked_mul(5u128.pow(five_power as u32)))
    else {
        return false;
    };
    if odd >= 1u128 << 53 {
        return false;
    }
    let exponent = twos - scale;
    let bits = 128 - i64::from(odd.leading_zeros());
    // The highest bit is at 2^(exponent + bits - 1); the lowest at
    // 2^exponent, which subnormals allow down to 2^-1074.
    exponent >= -1074 && exponent + bits - 1 <= 1023
}

/// Divides a big-endian decimal digit string by `divisor` when it divides
/// exactly, and says whether it did.
fn divide_exactly(digits: &mut Vec<u8>, divisor: u8) -> bool {
    let mut remainder = 0u32;
    let mut quotient = Vec::with_capacity(digits.len());
    for d in digits.iter() {
        let current = remainder * 10 + u32::from(*d);
        quotient.push((current / u32::from(divisor)) as u8);
        remainder = current % u32::from(divisor);
    }
    if remainder != 0 {
        return false;
    }
    while quotient.first() == Some(&0) {
        quotient.remove(0);
    }
    *digits = quotient;
    true
}

/// Whether the source text of an `expr`, `template` or `config` case holds
/// a number literal that [`is_big`]. The scan is deliberately simple: it
/// reads digits that do not continue a name, skipping quoted strings,
/// comments and heredocs (and, in a template, everything outside `${ }` and
/// `%{ }`).
fn source_has_big_literal(input: &Input) -> bool {
    let (text, template) = match input {
        Input::Expr { expr, .. } => (expr.as_str(), false),
        Input::Template { template, .. } => (template.as_str(), true),
        Input::Config {
            config,
            syntax: Syntax::Native | Syntax::Json,
            ..
        } => (config.as_str(), false),
        _ => return false,
    };
    number_literals(text, template)
        .iter()
        .any(|literal| Number::parse_decimal(literal, true).map_or(true, |n| is_big(&n)))
}

/// The number literals of a source text (see [`source_has_big_literal`]).
fn number_literals(text: &str, template: bool) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut literals = Vec::new();
    // Template nesting: how many `${`/`%{` are open (in template mode the
    // text outside them is literal).
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let in_code = !template || depth > 0;
        if template && (c == b'$' || c == b'%') && bytes.get(i + 1) == Some(&b'{') {
            depth += 1;
            i += 2;
            continue;
        }
        if !in_code {
            i += 1;
            continue;
        }
        match c {
            b'{' if template => depth += 1,
            b'}' if template => depth = depth.saturating_sub(1),
            b'#' => i = skip_past(bytes, i, b"\n"),
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = skip_past(bytes, i, b"\n"),
            b'/' if bytes.get(i + 1) == Some(&b'*') => i = skip_past(bytes, i + 2, b"*/"),
            b'<' if bytes.get(i + 1) == Some(&b'<') => i = skip_heredoc(text, i),
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'.' => {
                // A name or a step after a dot (`a.0`): skip it whole.
                i += 1;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'-'))
                {
                    i += 1;
                }
                continue;
            }
            c if c.is_ascii_digit() => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                if matches!(bytes.get(i), Some(b'e' | b'E')) {
                    let mut j = i + 1;
                    if matches!(bytes.get(j), Some(b'+' | b'-')) {
                        j += 1;
                    }
                    if bytes.get(j).is_some_and(u8::is_ascii_digit) {
                        i = j;
                        while i < bytes.len() && bytes[i].is_ascii_digit() {
                            i += 1;
                        }
                    }
                }
                literals.push(&text[start..i]);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    literals
}

/// The index of the last byte of the next `end` at or after `from` (the
/// scan's loop then steps past it), or the text's end.
fn skip_past(bytes: &[u8], from: usize, end: &[u8]) -> usize {
    let found = bytes
        .get(from..)
        .and_then(|rest| rest.windows(end.len()).position(|w| w == end));
    match found {
        Some(at) => from + at + end.len() - 1,
        None => bytes.len(),
    }
}

/// Skips a heredoc `<<ID` or `<<-ID` to the line holding only `ID` (its
/// body is text); anything else starting with `<<` is stepped over.
fn skip_heredoc(text: &str, at: usize) -> usize {
    let rest = &text[at + 2..];
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let id: &str = rest
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .next()
        .unwrap_or("");
    let Some(newline) = rest.find('\n') else {
        return at + 1;
    };
    if id.is_empty() {
        return at + 1;
    }
    let body_start = text.len() - rest.len() + newline + 1;
    let mut offset = body_start;
    for line in text[body_start..].split_inclusive('\n') {
        offset += line.len();
        if line.trim() == id {
            return offset - 1;
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

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
            "0.333333333333333333333333333333",
            "-18446744073709551617",
        ] {
            assert!(big(text), "{text}");
        }
        assert!(is_big(&Number::PositiveInfinity));
    }

    #[test]
    fn literals_are_found_outside_names_and_strings() {
        assert_eq!(
            number_literals("a1 + 2.5e3 - x.0 + \"99\" + f(7)", false),
            ["2.5e3", "7"]
        );
        assert_eq!(
            number_literals("12 ${3 + \"4\"} %{ if 5 }6%{ endif }", true),
            ["3", "5"]
        );
        let config = "a = 1 # 0.1\n// 0.2\nb = /* 0.3 */ 2\nc = <<-EOT\n  0.4\n  EOT\nd = 3";
        assert_eq!(number_literals(config, false), ["1", "2", "3"]);
    }
}
