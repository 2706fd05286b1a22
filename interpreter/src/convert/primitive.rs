//! Conversions between the primitive types.
//!
//! Spec: spec.md § Primitive Type Conversions

use super::Failure;
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;

/// Converts a string, number or bool to a primitive type.
///
/// Spec: spec.md § Primitive Type Conversions
pub(crate) fn convert_primitive(v: &Value, to: &Type) -> Result<Value, Failure> {
    match (v, to) {
        (Value::String(_), Type::String)
        | (Value::Number(_), Type::Number)
        | (Value::Bool(_), Type::Bool) => Ok(v.clone()),
        (Value::Number(n), Type::String) => Ok(Value::string(&n.to_decimal_string())),
        (Value::Bool(b), Type::String) => Ok(Value::string(if *b { "true" } else { "false" })),
        (Value::String(s), Type::Number) => string_to_number(s).map(Value::Number),
        (Value::String(s), Type::Bool) => string_to_bool(s).map(Value::Bool),
        // "No direct conversion is available between the bool and number
        // types."
        _ => Err(Failure::new(format!(
            "a {} cannot be converted to {to}",
            v.ty()
        ))),
    }
}

/// "A string is converted to a number value by reversing the above mapping.
/// No exponent portion is allowed. [...] It is an error to convert a string
/// that does not comply with the expected syntax to type number."
///
/// The syntax is `[-+]?[0-9]+(\.[0-9]+)?`; the two spellings that the number
/// to string conversion gives the infinities convert back. The mapping
/// writes no sign, so whether a `+` is read is not decided: it is, as
/// hashicorp/hcl reads it.
/// SPEC-GAP(spec-notes/gaps/number-string-syntax.md)
fn string_to_number(s: &str) -> Result<Number, Failure> {
    match s {
        "+Inf" => Ok(Number::PositiveInfinity),
        "-Inf" => Ok(Number::NegativeInfinity),
        _ => {
            let unsigned = s
                .strip_prefix('+')
                .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
            Number::parse_decimal(unsigned.unwrap_or(s), false)
                .map_err(|e| Failure::new(format!("the string {s:?} is not a number: {e}")))
        }
    }
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
        _ => Err(Failure::new(format!("the string {s:?} is not a bool"))),
    }
}
