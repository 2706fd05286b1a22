//! Number functions of the conformance table: `abs`, `min`, `max`.
//!
//! Spec: spec.md § Functions and Function Calls
//!
//! Semantics of go-cty 1.12.1's `stdlib.AbsoluteFunc`, `MinFunc` and
//! `MaxFunc`.

use super::definition::{Function, Parameter};
use super::CallError;
use crate::budget::Budget;
use crate::number::{Number, Work};
use crate::types::Type;
use crate::value::Value;

fn number_result(_: &[Value], _: &Budget) -> Result<Type, CallError> {
    Ok(Type::Number)
}

fn numbers(args: &[Value]) -> impl Iterator<Item = &Number> {
    args.iter().map(|v| match v {
        Value::Number(n) => n,
        _ => unreachable!("the call checks made this argument a known number"),
    })
}

/// `abs(num)`: the absolute value (`abs(-Inf)` is `+Inf`).
///
/// `num`: number; the dynamic pseudo-type accepted. Result: number.
///
/// Spec: spec.md § Functions and Function Calls
pub fn abs() -> Function {
    Function {
        name: "abs",
        parameters: vec![Parameter::new("num", Type::Number).allow_dynamic()],
        variadic: None,
        result_type: number_result,
        result_value: |args, _, _| {
            let n = numbers(args).next().expect("abs has one argument");
            Ok(Value::Number(if n.signum() < 0 {
                n.negate()
            } else {
                n.clone()
            }))
        },
    }
}

/// `min(numbers...)`: the smallest of the numbers.
///
/// Variadic `numbers`: number; the dynamic pseudo-type accepted. Result:
/// number. Without any argument the call is an error.
///
/// Spec: spec.md § Functions and Function Calls
pub fn min() -> Function {
    Function {
        name: "min",
        parameters: vec![],
        variadic: Some(Parameter::new("numbers", Type::Number).allow_dynamic()),
        result_type: number_result,
        result_value: |args, _, budget| extreme(args, std::cmp::Ordering::Less, budget),
    }
}

/// `max(numbers...)`: the largest of the numbers.
///
/// Variadic `numbers`: number; the dynamic pseudo-type accepted. Result:
/// number. Without any argument the call is an error.
///
/// Spec: spec.md § Functions and Function Calls
pub fn max() -> Function {
    Function {
        name: "max",
        parameters: vec![],
        variadic: Some(Parameter::new("numbers", Type::Number).allow_dynamic()),
        result_type: number_result,
        result_value: |args, _, budget| extreme(args, std::cmp::Ordering::Greater, budget),
    }
}

/// The first number that no later one is further than in direction `wins`.
/// Each comparison of large numbers is paid for from `budget` before it is
/// made.
fn extreme(args: &[Value], wins: std::cmp::Ordering, budget: &Budget) -> Result<Value, CallError> {
    let mut numbers = numbers(args);
    let first = numbers
        .next()
        .ok_or_else(|| CallError::new("at least one number is required"))?;
    let mut best = first;
    for n in numbers {
        budget.charge(Number::work_of(Work::Aligned, n, best))?;
        if n.cmp(best) == wins {
            best = n;
        }
    }
    Ok(Value::Number(best.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::functions::call;

    fn number(n: i64) -> Value {
        Value::Number(Number::from_i64(n))
    }

    #[test]
    fn abs_of_negative_numbers_and_infinity() {
        assert_eq!(call("abs", &[number(-3)]), Ok(number(3)));
        assert_eq!(call("abs", &[number(3)]), Ok(number(3)));
        assert_eq!(
            call("abs", &[Value::Number(Number::NegativeInfinity)]),
            Ok(Value::Number(Number::PositiveInfinity))
        );
        assert_eq!(call("abs", &[Value::string("-2")]), Ok(number(2)));
    }

    #[test]
    fn min_and_max_pick_the_extremes() {
        let args = [number(3), number(-1), Value::string("10")];
        assert_eq!(call("min", &args), Ok(number(-1)));
        assert_eq!(call("max", &args), Ok(number(10)));
    }

    #[test]
    fn min_and_max_need_a_number() {
        assert_eq!(call("min", &[]).unwrap_err().argument, None);
        assert!(call("max", &[]).is_err());
    }

    #[test]
    fn min_of_an_unknown_or_the_dynamic_value_is_an_unknown_number() {
        let unknown = [number(1), Value::Unknown(Type::Number)];
        assert_eq!(call("min", &unknown), Ok(Value::Unknown(Type::Number)));
        let dynamic = [number(1), Value::Unknown(Type::Dynamic)];
        assert_eq!(call("max", &dynamic), Ok(Value::Unknown(Type::Number)));
        let null = [number(1), Value::Null(Type::Number)];
        assert_eq!(call("max", &null).unwrap_err().argument, Some(1));
    }
}
