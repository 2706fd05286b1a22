//! String functions of the conformance table: `upper`, `lower`, `join`.
//!
//! Spec: spec.md § Functions and Function Calls
//!
//! Semantics of go-cty 1.12.1's `stdlib.UpperFunc`, `LowerFunc` and
//! `JoinFunc`.

use super::definition::{Function, Parameter, ResultValueDefinition};
use super::CallError;
use crate::budget::{text_bytes, Budget};
use crate::types::Type;
use crate::value::Value;

fn string_result(_: &[Value], _: &Budget) -> Result<Type, CallError> {
    Ok(Type::String)
}

fn text(v: &Value) -> &str {
    match v {
        Value::String(text) => text,
        _ => unreachable!("the call checks made this argument a known string"),
    }
}

/// `upper(str)`: `str` with every character mapped by the Unicode simple
/// uppercase mapping, character by character (so `ß` stays `ß`).
///
/// `str`: string; the dynamic pseudo-type accepted. Result: string.
///
/// Spec: spec.md § Functions and Function Calls
pub fn upper() -> Function {
    character_mapping("upper", |args, _, _| {
        Ok(Value::string_owned(map_chars(
            text(&args[0]),
            simple_uppercase,
        )))
    })
}

/// `lower(str)`: `str` with every character mapped by the Unicode simple
/// lowercase mapping, character by character (so a final `Σ` becomes `σ`,
/// never `ς`).
///
/// `str`: string; the dynamic pseudo-type accepted. Result: string.
///
/// Spec: spec.md § Functions and Function Calls
pub fn lower() -> Function {
    character_mapping("lower", |args, _, _| {
        Ok(Value::string_owned(map_chars(
            text(&args[0]),
            simple_lowercase,
        )))
    })
}

/// A function of one string, `str` (the dynamic pseudo-type accepted),
/// whose result is a string: `upper` and `lower`.
fn character_mapping(name: &'static str, result_value: ResultValueDefinition) -> Function {
    Function {
        name,
        parameters: vec![Parameter::new("str", Type::String).allow_dynamic()],
        variadic: None,
        result_type: string_result,
        result_value,
    }
}

fn map_chars(text: &str, map: fn(char) -> char) -> String {
    text.chars().map(map).collect()
}

/// The Unicode simple uppercase mapping (`UnicodeData.txt`), as Go's
/// `unicode.ToUpper` applies it.
///
/// Rust's `char::to_uppercase` gives the full mapping, which is the simple
/// one except where `SpecialCasing.txt` maps to several characters; among
/// those, only the Greek letters with ypogegrammeni have a simple mapping
/// other than the character itself (to the letter with prosgegrammeni).
/// Characters that Unicode versions after Go 1.19's Unicode 13.0 gave a case
/// mapping are mapped here and not by hashicorp/hcl.
fn simple_uppercase(c: char) -> char {
    let mut full = c.to_uppercase();
    match (full.next(), full.next()) {
        (Some(single), None) => single,
        _ => match c {
            '\u{1F80}'..='\u{1F87}' | '\u{1F90}'..='\u{1F97}' | '\u{1FA0}'..='\u{1FA7}' => {
                char::from_u32(c as u32 + 8).unwrap_or(c)
            }
            '\u{1FB3}' => '\u{1FBC}',
            '\u{1FC3}' => '\u{1FCC}',
            '\u{1FF3}' => '\u{1FFC}',
            _ => c,
        },
    }
}

/// The Unicode simple lowercase mapping, as Go's `unicode.ToLower` applies
/// it. The only full lowercase mapping of several characters is that of `İ`
/// (U+0130), whose simple mapping is `i`.
fn simple_lowercase(c: char) -> char {
    let mut full = c.to_lowercase();
    match (full.next(), full.next()) {
        (Some(single), None) => single,
        _ if c == '\u{130}' => 'i',
        _ => c,
    }
}

/// `join(separator, lists...)`: the elements of all the lists, in order,
/// with `separator` between each two.
///
/// `separator`: string; variadic `lists`: `list(string)`; no nulls,
/// unknowns or dynamic pseudo-type accepted. Result: string.
/// - Without any list the call is an error.
/// - A list holding an unknown element gives the unknown string.
/// - A null element is an error of the list's argument.
///
/// Spec: spec.md § Functions and Function Calls
pub fn join() -> Function {
    Function {
        name: "join",
        parameters: vec![Parameter::new("separator", Type::String)],
        variadic: Some(Parameter::new("lists", Type::list(Type::String))),
        result_type: string_result,
        result_value: join_value,
    }
}

/// The text, whose length can be far beyond its arguments' (a long
/// separator between many elements), is paid for before it is built.
fn join_value(args: &[Value], _: &Type, budget: &Budget) -> Result<Value, CallError> {
    let (separator, lists) = args.split_first().expect("join has a separator");
    if lists.is_empty() {
        return Err(CallError::new("join needs at least one list"));
    }
    if !lists.iter().all(Value::is_wholly_known) {
        return Ok(Value::Unknown(Type::String));
    }
    let mut items = Vec::new();
    for (index, list) in lists.iter().enumerate() {
        for (position, element) in list.children().into_iter().enumerate() {
            if element.is_null() {
                return Err(CallError::at(
                    index + 1,
                    format!("element {position} is null; null values cannot be joined"),
                ));
            }
            items.push(text(element));
        }
    }
    let separator = text(separator);
    let separators = separator
        .len()
        .saturating_mul(items.len().saturating_sub(1));
    let length = (items.iter().map(|item| item.len()).sum::<usize>()).saturating_add(separators);
    budget.charge(text_bytes(length))?;
    Ok(Value::string_owned(items.join(separator)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::functions::call;
    use crate::functions::{call_function, Entry, FunctionTable};

    #[test]
    fn join_pays_for_its_text_before_building_it() {
        // A 10,000-byte separator between 1,000 elements: 10 MB of text
        // from 10 KB of arguments.
        let table = FunctionTable::conformance();
        let Some(Entry::Function(join)) = table.get("join") else {
            panic!("join is a function")
        };
        let separator = Value::string(&"-".repeat(10_000));
        let elements = Value::list(Type::String, vec![Value::string("a"); 1000]).unwrap();
        let args = [separator, elements];
        let budget = Budget::new(5_000_000);
        assert!(call_function(join, &args, &budget).is_err());
        assert!(budget.is_exceeded());
        // Nothing was built: little was spent.
        assert!(budget.spent() < 1_000_000, "{}", budget.spent());
        let budget = Budget::new(u64::MAX);
        call_function(join, &args, &budget).expect("join joins");
        assert!(budget.spent() >= 999 * 10_000);
    }

    fn list(items: &[&str]) -> Value {
        Value::list(
            Type::String,
            items.iter().map(|s| Value::string(s)).collect(),
        )
        .unwrap()
    }

    #[test]
    fn upper_and_lower_use_simple_case_mappings() {
        assert_eq!(
            call("upper", &[Value::string("aßé")]),
            Ok(Value::string("AßÉ"))
        );
        assert_eq!(
            call("upper", &[Value::string("\u{1F80}")]),
            Ok(Value::string("\u{1F88}"))
        );
        assert_eq!(
            call("lower", &[Value::string("ΣΑΣ")]),
            Ok(Value::string("σασ"))
        );
        assert_eq!(
            call("lower", &[Value::string("\u{130}")]),
            Ok(Value::string("i"))
        );
    }

    #[test]
    fn upper_converts_its_argument_to_string() {
        assert_eq!(
            call("upper", &[Value::Bool(true)]),
            Ok(Value::string("TRUE"))
        );
        assert_eq!(
            call("upper", &[list(&["a"])]).unwrap_err().argument,
            Some(0)
        );
    }

    #[test]
    fn join_joins_all_lists() {
        let args = [
            Value::string(","),
            list(&["a", "b"]),
            list(&[]),
            list(&["c"]),
        ];
        assert_eq!(call("join", &args), Ok(Value::string("a,b,c")));
        assert!(call("join", &[Value::string(",")]).is_err());
    }

    #[test]
    fn join_of_unknown_element_is_unknown_and_null_element_an_error() {
        let unknown = Value::list(
            Type::String,
            vec![Value::string("a"), Value::Unknown(Type::String)],
        )
        .unwrap();
        let null = Value::list(Type::String, vec![Value::Null(Type::String)]).unwrap();
        let args = [Value::string(","), null.clone(), unknown];
        assert_eq!(call("join", &args), Ok(Value::Unknown(Type::String)));
        let error = call("join", &[Value::string(","), list(&["a"]), null]).unwrap_err();
        assert_eq!(error.argument, Some(2));
    }

    #[test]
    fn join_does_not_accept_the_dynamic_value() {
        let dynamic = Value::Unknown(Type::Dynamic);
        assert_eq!(call("join", &[dynamic.clone(), list(&["a"])]), Ok(dynamic));
    }
}
