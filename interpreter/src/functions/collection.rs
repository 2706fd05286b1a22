//! Collection functions of the conformance table: `length`, `keys`,
//! `concat`.
//!
//! Spec: spec.md § Functions and Function Calls
//!
//! Semantics of go-cty 1.12.1's `stdlib.LengthFunc`, `KeysFunc` and
//! `ConcatFunc`, with this crate's unification (spec.md § Type Unification)
//! where go-cty unifies with its own.
//! SPEC-GAP(spec-notes/gaps/unify-map-and-object.md)

use super::definition::{Function, Parameter};
use super::CallError;
use crate::budget::Budget;
use crate::convert::convert;
use crate::number::Number;
use crate::types::Type;
use crate::unify::unify;
use crate::value::Value;

/// `length(collection)`: the number of elements of a list, set, map or
/// tuple. Objects, strings and the other primitives are errors.
///
/// `collection`: any type; the dynamic pseudo-type accepted. Result: number.
/// A set holding unknown elements has an unknown length (they may turn out
/// equal to other elements) unless it has a single element.
///
/// Spec: spec.md § Functions and Function Calls
pub fn length() -> Function {
    Function {
        name: "length",
        parameters: vec![Parameter::new("collection", Type::Dynamic).allow_dynamic()],
        variadic: None,
        result_type: |args, _| match &args[0].ty() {
            Type::List(_) | Type::Set(_) | Type::Map(_) | Type::Tuple(_) | Type::Dynamic => {
                Ok(Type::Number)
            }
            other => Err(CallError::new(format!(
                "length needs a list, set, map or tuple, not a {}",
                other.kind_name()
            ))),
        },
        result_value: |args, _, _| {
            let collection = &args[0];
            let count = collection.children().len();
            let unsettled_set =
                matches!(collection, Value::Set(..)) && count > 1 && !collection.is_wholly_known();
            Ok(if unsettled_set {
                Value::Unknown(Type::Number)
            } else {
                let count = i64::try_from(count).expect("a collection's length fits in i64");
                Value::Number(Number::from_i64(count))
            })
        },
    }
}

/// `keys(inputMap)`: the keys of a map as a `list(string)`, or the attribute
/// names of an object as a tuple of strings, in lexical (code point) order.
///
/// `inputMap`: any type; unknowns accepted. Result: `list(string)` for a map,
/// a tuple of as many strings as the object has attributes for an object;
/// anything else is an error. The names of an unknown object are known from
/// its type; an unknown map gives the unknown list.
///
/// Spec: spec.md § Functions and Function Calls
pub fn keys() -> Function {
    Function {
        name: "keys",
        parameters: vec![Parameter::new("inputMap", Type::Dynamic).allow_unknown()],
        variadic: None,
        result_type: |args, _| match &args[0].ty() {
            Type::Map(_) => Ok(Type::list(Type::String)),
            Type::Object(attributes) => Ok(Type::Tuple(vec![Type::String; attributes.len()])),
            other => Err(CallError::at(
                0,
                format!("keys needs a map or an object, not a {}", other.kind_name()),
            )),
        },
        result_value: |args, result_type, _| {
            let names = match (&args[0], &args[0].ty()) {
                (_, Type::Object(attributes)) => {
                    return Ok(Value::Tuple(
                        attributes.keys().map(|name| Value::string(name)).collect(),
                    ))
                }
                (Value::Map(_, entries), _) => entries.keys().map(|k| Value::string(k)).collect(),
                // An unknown map, or the dynamic value (whose result type is
                // forced to be the dynamic pseudo-type).
                _ => return Ok(Value::Unknown(result_type.clone())),
            };
            Value::list(Type::String, names).map_err(|e| CallError::new(e.to_string()))
        },
    }
}

/// `concat(seqs...)`: the elements of all the lists and tuples, in order.
///
/// Variadic `seqs`: any type; no nulls, unknowns or dynamic pseudo-type
/// accepted. Result:
/// - without any argument, an error;
/// - when every argument is a list and their types unify, the unified list
///   type, every argument converted to it (a failed conversion is an error
///   of that argument);
/// - otherwise a tuple of the elements' types (a list argument contributes
///   as many of its element type as it has elements, so an unknown list
///   makes the result type dynamic); an argument that is neither a list nor
///   a tuple is an error.
///
/// Spec: spec.md § Functions and Function Calls
pub fn concat() -> Function {
    Function {
        name: "concat",
        parameters: vec![],
        variadic: Some(Parameter::new("seqs", Type::Dynamic)),
        result_type: concat_type,
        result_value: concat_value,
    }
}

/// The types of the arguments, the unified type and the tuple type are
/// paid for from `budget`.
fn concat_type(args: &[Value], budget: &Budget) -> Result<Type, CallError> {
    if args.is_empty() {
        return Err(CallError::new("concat needs at least one argument"));
    }
    let types: Vec<Type> = args.iter().map(Value::ty).collect();
    if types.iter().all(|ty| matches!(ty, Type::List(_))) {
        for ty in &types {
            budget.charge_type(ty)?;
        }
        if let Ok(unified @ Type::List(_)) = unify(&types) {
            budget.charge_type(&unified)?;
            return Ok(unified);
        }
    }
    let mut elements = Vec::new();
    for (index, v) in args.iter().enumerate() {
        match &v.ty() {
            Type::Tuple(types) => elements.extend(types.iter().cloned()),
            Type::List(element) => {
                if v.is_unknown() {
                    // The tuple's length depends on the list's.
                    return Ok(Type::Dynamic);
                }
                elements.extend(vec![(**element).clone(); v.children().len()]);
            }
            other => {
                return Err(CallError::at(
                    index,
                    format!("concat needs lists and tuples, not a {}", other.kind_name()),
                ))
            }
        }
    }
    let tuple = Type::Tuple(elements);
    budget.charge_type(&tuple)?;
    Ok(tuple)
}

/// The conversions of the lists to the unified list type are paid for from
/// `budget` as they are made.
fn concat_value(args: &[Value], result_type: &Type, budget: &Budget) -> Result<Value, CallError> {
    match result_type {
        Type::List(element) => {
            let mut elements = Vec::new();
            for (index, list) in args.iter().enumerate() {
                let converted = convert(list, result_type, budget)
                    .map_err(|diagnostic| CallError::at(index, diagnostic.summary))?;
                elements.extend(converted.value.children().into_iter().cloned());
            }
            Value::list((**element).clone(), elements).map_err(|e| CallError::new(e.to_string()))
        }
        _ => Ok(Value::Tuple(
            args.iter()
                .flat_map(|seq| seq.children().into_iter().cloned())
                .collect(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::functions::call;

    fn number(n: i64) -> Value {
        Value::Number(Number::from_i64(n))
    }

    fn list(element: Type, items: Vec<Value>) -> Value {
        Value::list(element, items).unwrap()
    }

    fn object(attributes: &[(&str, Value)]) -> Value {
        Value::object(attributes.iter().map(|(k, v)| (k.to_string(), v.clone())))
    }

    #[test]
    fn length_counts_elements_of_collections_and_tuples() {
        let tuple = Value::Tuple(vec![number(1), Value::Unknown(Type::String)]);
        assert_eq!(call("length", &[tuple]), Ok(number(2)));
        let map = Value::map(Type::Number, [("a".to_string(), number(1))]).unwrap();
        assert_eq!(call("length", &[map]), Ok(number(1)));
    }

    #[test]
    fn length_of_an_object_or_a_string_is_an_error() {
        assert!(call("length", &[object(&[("a", number(1))])]).is_err());
        assert!(call("length", &[Value::string("abc")]).is_err());
        assert_eq!(
            call("length", &[Value::Null(Type::list(Type::String))])
                .unwrap_err()
                .argument,
            Some(0)
        );
    }

    #[test]
    fn length_of_a_set_with_unknowns_is_unknown_unless_it_has_one_element() {
        let u = || Value::Unknown(Type::String);
        let two = Value::set(Type::String, vec![Value::string("a"), u()]).unwrap();
        assert_eq!(call("length", &[two]), Ok(Value::Unknown(Type::Number)));
        let one = Value::set(Type::String, vec![u()]).unwrap();
        assert_eq!(call("length", &[one]), Ok(number(1)));
        assert_eq!(
            call("length", &[Value::Unknown(Type::Dynamic)]),
            Ok(Value::Unknown(Type::Number))
        );
    }

    #[test]
    fn keys_of_a_map_are_a_sorted_list_and_of_an_object_a_tuple() {
        let map = Value::map(
            Type::Number,
            [("b".to_string(), number(1)), ("a".to_string(), number(2))],
        )
        .unwrap();
        let names = list(Type::String, vec![Value::string("a"), Value::string("b")]);
        assert_eq!(call("keys", &[map]), Ok(names));
        let unknown_object = Value::Unknown(Type::object([("y", Type::Number), ("x", Type::Bool)]));
        assert_eq!(
            call("keys", &[unknown_object]),
            Ok(Value::Tuple(vec![Value::string("x"), Value::string("y")]))
        );
    }

    #[test]
    fn keys_of_unknown_map_dynamic_value_and_list() {
        let unknown_map = Value::Unknown(Type::map(Type::String));
        assert_eq!(
            call("keys", &[unknown_map]),
            Ok(Value::Unknown(Type::list(Type::String)))
        );
        let dynamic = Value::Unknown(Type::Dynamic);
        assert_eq!(call("keys", std::slice::from_ref(&dynamic)), Ok(dynamic));
        let a_list = list(Type::String, vec![]);
        assert_eq!(call("keys", &[a_list]).unwrap_err().argument, Some(0));
    }

    #[test]
    fn concat_of_lists_is_a_list_of_the_unified_type() {
        let strings = list(Type::String, vec![Value::string("a")]);
        let numbers = list(Type::Number, vec![number(1)]);
        assert_eq!(
            call("concat", &[strings, numbers]),
            Ok(list(
                Type::String,
                vec![Value::string("a"), Value::string("1")]
            ))
        );
    }

    #[test]
    fn concat_with_a_tuple_is_a_tuple() {
        let numbers = list(Type::Number, vec![number(1), number(2)]);
        let tuple = Value::Tuple(vec![Value::Bool(true)]);
        assert_eq!(
            call("concat", &[numbers, tuple]),
            Ok(Value::Tuple(vec![number(1), number(2), Value::Bool(true)]))
        );
        let unknown = Value::Unknown(Type::list(Type::Number));
        let tuple = Value::Tuple(vec![]);
        assert_eq!(
            call("concat", &[tuple, unknown]),
            Ok(Value::Unknown(Type::Dynamic))
        );
    }

    #[test]
    fn concat_errors() {
        assert_eq!(call("concat", &[]).unwrap_err().argument, None);
        let set = Value::set(Type::String, vec![]).unwrap();
        let args = [list(Type::String, vec![]), set];
        assert_eq!(call("concat", &args).unwrap_err().argument, Some(1));
    }
}
