//! Conversions between the primitive types.
//!
//! Spec: spec.md § Primitive Type Conversions

use super::Failure;
use crate::budget::{text_bytes, Budget};
use crate::diagnostic::{quoted, shown};
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

/// Converts a string, number or bool to a primitive type.
///
/// The copy or the text built is paid for from `budget`, and so is the
/// work of writing a large number as text or reading one from text
/// ([`Number::text_work`]), before it is done.
///
/// Spec: spec.md § Primitive Type Conversions
pub(crate) fn convert_primitive(v: &Value, to: &Type, budget: &Budget) -> Result<Value, Failure> {
    match (v, to) {
        (Value::String(_), Type::String)
        | (Value::Number(_), Type::Number)
        | (Value::Bool(_), Type::Bool) => {
            budget.charge_value(v)?;
            Ok(v.clone())
        }
        (Value::Number(n), Type::String) => {
            budget.charge(n.text_work())?;
            let text = n.to_decimal_string();
            budget.charge(text_bytes(text.len()))?;
            Ok(Value::string_owned(text))
        }
        (Value::Bool(b), Type::String) => {
            let text = if *b { "true" } else { "false" };
            budget.charge(text_bytes(text.len()))?;
            Ok(Value::string(text))
        }
        (Value::String(s), Type::Number) => {
            budget.charge(Number::text_work_of_digits(s.len() as u64))?;
            let n = string_to_number(s)?;
            budget.charge(n.heap_bytes())?;
            Ok(Value::Number(n))
        }
        (Value::String(s), Type::Bool) => string_to_bool(s).map(Value::Bool),
        // "No direct conversion is available between the bool and number
        // types."
        _ => Err(Failure::new(format!(
            "a {} cannot be converted to {}",
            v.ty(),
            shown(to)
        ))),
    }
}

/// "A string is converted to a number value by reversing the above mapping.
/// No exponent portion is allowed. [...] It is an error to convert a string
/// that does not comply with the expected syntax to type number."
///
/// The syntax is `[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)`, and `Inf` or `inf`
/// with an optional sign for the infinities. The exponent is excluded by
/// the sentence; the rest is not decided (the mapping writes no sign, and
/// never writes `007` or `1.50` either, so reversing it does not say
/// whether `+1`, `.5` or `5.` are read, nor how an infinity is spelled), so
/// these strings are read as hashicorp/hcl reads them.
/// SPEC-GAP(spec-notes/gaps/number-string-syntax.md)
fn string_to_number(s: &str) -> Result<Number, Failure> {
    #[cfg(feature = "planted-bugs")]
    if let Some(n) = crate::planted::string_exponent(s) {
        return Ok(n);
    }
    let not_a_number = |detail: String| {
        Failure::new(format!(
            "the string {} is not a number: {detail}",
            quoted(s)
        ))
    };
    let (negative, unsigned) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if unsigned == "Inf" || unsigned == "inf" {
        return Ok(if negative {
            Number::NegativeInfinity
        } else {
            Number::PositiveInfinity
        });
    }
    // The digits before and after the period, either part possibly empty
    // but not both.
    let (integer, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if (integer.is_empty() && fraction.is_empty()) || !all_digits(integer) || !all_digits(fraction)
    {
        return Err(not_a_number(
            "a number is digits, with at most one period among them".into(),
        ));
    }
    let integer = if integer.is_empty() { "0" } else { integer };
    let sign = if negative { "-" } else { "" };
    let decimal = if fraction.is_empty() {
        format!("{sign}{integer}")
    } else {
        format!("{sign}{integer}.{fraction}")
    };
    Number::parse_decimal(&decimal, false).map_err(|e| not_a_number(e.to_string()))
}

/// "The bool value true corresponds to the string containing the characters
/// "true", while the bool value false corresponds to the string containing
/// the characters "false". [...] The strings "1" and "0" are alternative
/// string representations of true and false respectively. It is an error to
/// convert a string other than the four in this paragraph to type bool."
fn string_to_bool(s: &str) -> Result<bool, Failure> {
    match s {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(Failure::new(format!(
            "the string {} is not a bool",
            quoted(s)
        ))),
    }
}
