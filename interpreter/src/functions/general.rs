//! General functions of the conformance table: `coalesce`.
//!
//! Spec: spec.md § Functions and Function Calls
//!
//! Semantics of go-cty 1.12.1's `stdlib.CoalesceFunc`, with this crate's
//! unification (spec.md § Type Unification) where go-cty unifies with its
//! own. SPEC-GAP(spec-notes/gaps/unify-map-and-object.md)

use super::definition::{Function, Parameter};
use super::CallError;
use crate::convert::convert;
use crate::types::Type;
use crate::unify::unify;
use crate::value::Value;

/// `coalesce(vals...)`: the first argument that is not null, converted to
/// the unification of all the arguments' types.
///
/// Variadic `vals`: any type; nulls, unknowns and the dynamic pseudo-type
/// accepted. Result: the unification of the arguments' types (an error when
/// they do not unify, or there are none). An unknown argument before the
/// first argument that is not null gives the unknown value of the result
/// type; when every argument is null the call is an error.
///
/// Spec: spec.md § Functions and Function Calls
pub fn coalesce() -> Function {
    Function {
        name: "coalesce",
        parameters: vec![],
        variadic: Some(
            Parameter::new("vals", Type::Dynamic)
                .allow_null()
                .allow_unknown()
                .allow_dynamic(),
        ),
        // The arguments' types and their unification are paid for from the
        // budget.
        result_type: |args, budget| {
            let types: Vec<Type> = args.iter().map(Value::ty).collect();
            for ty in &types {
                budget.charge_type(ty)?;
            }
            let unified = unify(&types).map_err(|diagnostic| {
                CallError::new(format!(
                    "the arguments have no common type: {}",
                    diagnostic.summary
                ))
            })?;
            budget.charge_type(&unified)?;
            Ok(unified)
        },
        result_value: |args, result_type, budget| {
            for v in args {
                match v {
                    Value::Unknown(_) => return Ok(Value::Unknown(result_type.clone())),
                    Value::Null(_) => continue,
                    _ => {
                        return convert(v, result_type, budget)
                            .map(|converted| converted.value)
                            .map_err(|diagnostic| CallError::new(diagnostic.summary))
                    }
                }
            }
            Err(CallError::new("every argument is null"))
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::functions::call;
    use crate::number::Number;

    fn number(n: i64) -> Value {
        Value::Number(Number::from_i64(n))
    }

    #[test]
    fn coalesce_skips_nulls_and_converts_to_the_unified_type() {
        let args = [Value::Null(Type::String), number(1), Value::string("x")];
        assert_eq!(call("coalesce", &args), Ok(Value::string("1")));
        let args = [Value::Null(Type::Dynamic), number(1)];
        assert_eq!(call("coalesce", &args), Ok(number(1)));
    }

    #[test]
    fn coalesce_of_only_nulls_or_nothing_is_an_error() {
        let args = [Value::Null(Type::Dynamic), Value::Null(Type::String)];
        assert!(call("coalesce", &args).is_err());
        assert!(call("coalesce", &[]).is_err());
    }

    #[test]
    fn coalesce_of_an_unknown_before_the_first_non_null_is_unknown() {
        let args = [Value::Unknown(Type::Dynamic), Value::string("a")];
        assert_eq!(call("coalesce", &args), Ok(Value::Unknown(Type::String)));
        let args = [Value::string("a"), Value::Unknown(Type::String)];
        assert_eq!(call("coalesce", &args), Ok(Value::string("a")));
    }

    #[test]
    fn coalesce_pays_for_the_types_it_unifies() {
        // A hundred objects of one attribute each: their types, and the
        // unified type of a hundred attributes.
        let table = crate::functions::FunctionTable::conformance();
        let Some(crate::functions::Entry::Function(coalesce)) = table.get("coalesce") else {
            panic!("coalesce is a function")
        };
        let object = |i: usize| Value::object([(format!("k{i}"), number(1))]);
        let args: Vec<Value> = (0..100).map(object).collect();
        let budget = crate::budget::Budget::new(u64::MAX);
        crate::functions::call_function(coalesce, &args, &budget).expect("coalesce");
        let unified = crate::budget::tree_bytes::<Type>(100);
        let inputs = 100 * crate::budget::tree_bytes::<Type>(1);
        assert!(budget.spent() >= unified + inputs, "{}", budget.spent());
    }

    #[test]
    fn coalesce_unifies_number_and_bool_to_string() {
        let args = [number(1), Value::Bool(true)];
        assert_eq!(call("coalesce", &args), Ok(Value::string("1")));
        let args = [Value::string("a"), Value::Tuple(vec![])];
        assert!(call("coalesce", &args).is_err());
    }
}
