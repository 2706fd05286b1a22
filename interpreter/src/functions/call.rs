//! Calling a function: mapping arguments to parameters, semantic checking,
//! execution.
//!
//! Spec: spec.md § Functions and Function Calls
//!
//! Each argument is converted to its parameter's type specification before
//! it is checked against it, unsafe conversions allowed, so `upper(1)` is
//! `"1"` and `upper([1])` is an error.
//! SPEC-GAP(spec-notes/gaps/function-argument-conversion.md)

use super::definition::{Function, Parameter};
use super::CallError;
use crate::budget::Budget;
use crate::convert::convert;
use crate::diagnostic::shown;
use crate::types::Type;
use crate::value::Value;

/// Calls `f` with a sequence of argument values.
///
/// "A _function call_, regardless of source syntax, consists of a sequence
/// of argument values." The steps are the spec's, in its order:
/// 1. map each argument to a parameter (`map_arguments`);
/// 2. check each argument against its parameter (`check_argument`); any
///    erroneous argument makes the call erroneous, whatever the other
///    arguments are; otherwise the result type is the dynamic pseudo-type if
///    an argument forces it, else the function's result type definition's;
/// 3. execute: an unknown argument for a parameter that does not accept
///    unknowns gives the unknown value of the result type; otherwise the
///    result value definition gives the value.
///
/// "The result of a function call expression is either an error, if one of
/// the erroneous conditions above applies, or the _result value_."
///
/// The call pays from `budget` for the conversion of its arguments, for the
/// work its result type and result value definitions do, and for the
/// result it returns (its size in memory). When the budget runs out the
/// call fails, and `budget` says so ([`Budget::is_exceeded`]).
///
/// Spec: spec.md § Functions and Function Calls
pub fn call_function(f: &Function, args: &[Value], budget: &Budget) -> Result<Value, CallError> {
    call_function_owned(f, args.to_vec(), budget)
}

/// [`call_function`] with arguments the call may keep: each argument is
/// checked (and converted) in place, so one that already matches its
/// parameter is not copied.
pub fn call_function_owned(
    f: &Function,
    mut args: Vec<Value>,
    budget: &Budget,
) -> Result<Value, CallError> {
    map_arguments(f, &args)?;
    let count = args.len();
    let parameters = || parameters_of(f, count);

    // "After mapping each argument to a parameter, semantic checking proceeds
    // for each argument". Every argument is checked before the result type
    // is decided, so an erroneous argument after one that forces a dynamic
    // result still makes the call erroneous.
    // SPEC-GAP(spec-notes/gaps/function-argument-conversion.md)
    let mut result_is_dynamic = false;
    for (index, (slot, parameter)) in args.iter_mut().zip(parameters()).enumerate() {
        let v = std::mem::replace(slot, Value::Null(Type::Dynamic));
        let (v, forces_dynamic) = check_argument(index, v, parameter, budget)?;
        result_is_dynamic |= forces_dynamic;
        *slot = v;
    }
    let checked = args;

    let result_type = if result_is_dynamic {
        // "the call is valid but its _result type_ is forced to be the
        // dynamic pseudo type."
        Type::Dynamic
    } else {
        // "If neither of the above conditions holds for any argument, the
        // call is valid and the function's value type definition is used to
        // determine the call's _result type_."
        (f.result_type)(&checked, budget)?
    };

    let result = execute(f, &checked, parameters(), &result_type, budget)?;
    budget.charge_value(&result)?;
    Ok(result)
}

/// Maps the arguments to the function's parameters, one parameter for each
/// argument.
///
/// - "For each of the function's positional parameters in sequence, take the
///   next argument. If there are no more arguments, the call is erroneous."
/// - "If the function has a variadic parameter, take all remaining arguments
///   that where not yet assigned to a positional parameter and collect them
///   into a sequence of variadic arguments that each correspond to the
///   variadic parameter."
/// - "If the function has _no_ variadic parameter, it is an error if any
///   arguments remain after taking one argument for each positional
///   parameter."
///
/// Spec: spec.md § Functions and Function Calls
fn map_arguments(f: &Function, args: &[Value]) -> Result<(), CallError> {
    if let Some(missing) = f.parameters.get(args.len()) {
        return Err(CallError::new(format!(
            "{} expects {}{} argument(s); there is none for {:?}",
            f.name,
            if f.variadic.is_some() {
                "at least "
            } else {
                ""
            },
            f.parameters.len(),
            missing.name
        )));
    }
    match &f.variadic {
        Some(_) => Ok(()),
        None if args.len() > f.parameters.len() => Err(CallError::at(
            f.parameters.len(),
            format!(
                "{} expects only {} argument(s), not {}",
                f.name,
                f.parameters.len(),
                args.len()
            ),
        )),
        None => Ok(()),
    }
}

/// The parameter of each of `count` arguments, once [`map_arguments`] has
/// found that they map: the positional parameters in order, then the
/// variadic one for each argument left.
fn parameters_of(f: &Function, count: usize) -> impl Iterator<Item = &Parameter> {
    f.parameters
        .iter()
        .chain(f.variadic.iter().cycle())
        .take(count)
}

/// Checks one argument against its parameter. Returns the argument as the
/// function sees it, and whether it forces the call's result type to be the
/// dynamic pseudo-type.
///
/// 1. "If the argument value corresponding to a parameter does not match the
///    parameter's type specification, the call is erroneous." An argument
///    that does not match is first converted to the type specification
///    (spec.md § Type Conversions and Unification: "automatic type
///    conversion is attempted as a convenience to the user"), unsafe
///    conversions allowed; the call is erroneous when there is no conversion
///    or it fails for this value. The dynamic value given to a parameter
///    that does not accept the dynamic pseudo-type is left to rule 3, which
///    declares such a call valid.
///    SPEC-GAP(spec-notes/gaps/function-argument-conversion.md)
/// 2. "If the argument value corresponding to a parameter is null and the
///    parameter is not specified as accepting nulls, the call is erroneous."
/// 3. "If the argument value corresponding to a parameter is the dynamic
///    value and the parameter is not specified as accepting values of the
///    dynamic pseudo-type, the call is valid but its _result type_ is forced
///    to be the dynamic pseudo type."
///
/// Spec: spec.md § Functions and Function Calls
fn check_argument(
    index: usize,
    v: Value,
    parameter: &Parameter,
    budget: &Budget,
) -> Result<(Value, bool), CallError> {
    let is_the_dynamic_value = matches!(v, Value::Unknown(Type::Dynamic));
    if is_the_dynamic_value && !parameter.allow_dynamic {
        return Ok((v, true));
    }
    let v = convert_argument(index, v, parameter, budget)?;
    if v.is_null() && !parameter.allow_null {
        return Err(CallError::at(
            index,
            format!("the {:?} argument must not be null", parameter.name),
        ));
    }
    Ok((v, false))
}

/// The argument, converted to its parameter's type specification when it
/// does not already match it.
///
/// Spec: spec.md § Type Specifications, § Type Conversions and Unification
fn convert_argument(
    index: usize,
    v: Value,
    parameter: &Parameter,
    budget: &Budget,
) -> Result<Value, CallError> {
    // Every type matches the dynamic pseudo-type: no need to compute it.
    if parameter.ty == Type::Dynamic || v.ty().matches(&parameter.ty) {
        return Ok(v);
    }
    let invalid = |why: &str| {
        CallError::at(
            index,
            format!("invalid value for the {:?} argument: {why}", parameter.name),
        )
    };
    let converted = convert(&v, &parameter.ty, budget)
        .map_err(|diagnostic| invalid(&diagnostic.summary))?
        .value;
    if !converted.ty().matches(&parameter.ty) {
        return Err(invalid(&format!(
            "a {} does not match {}",
            shown(converted.ty()),
            parameter.ty
        )));
    }
    Ok(converted)
}

/// Executes a call whose semantic checks succeeded.
///
/// - "For each argument, if its value is unknown and its corresponding
///   parameter is not specified as accepting unknowns, the _result value_ is
///   forced to be an unknown value of the result type."
/// - "If the previous condition does not apply, the function's result value
///   definition is used to determine the call's _result value_."
///
/// Spec: spec.md § Functions and Function Calls
fn execute<'f>(
    f: &'f Function,
    args: &[Value],
    parameters: impl Iterator<Item = &'f Parameter>,
    result_type: &Type,
    budget: &Budget,
) -> Result<Value, CallError> {
    let forced_unknown = args
        .iter()
        .zip(parameters)
        .any(|(v, parameter)| v.is_unknown() && !parameter.allow_unknown);
    if forced_unknown {
        return Ok(Value::Unknown(result_type.clone()));
    }
    let result = (f.result_value)(args, result_type, budget)?;
    // The result type definition "specifies the value type returned": a
    // value of another type is a fault of the function, not of the call.
    if !result.ty().matches(result_type) {
        return Err(CallError::new(format!(
            "{} returned a {} where its result type is {result_type}",
            f.name,
            result.ty()
        )));
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::Number;

    /// A call with the default budget.
    fn call_function(f: &Function, args: &[Value]) -> Result<Value, CallError> {
        super::call_function(f, args, &Budget::default())
    }

    fn number(n: i64) -> Value {
        Value::Number(Number::from_i64(n))
    }

    /// `pair(a: string, b: number, rest: bool...)`, returning its arguments
    /// as a tuple of its result type, which is `tuple([string, number,
    /// bool...])`.
    fn pair(variadic: bool) -> Function {
        Function {
            name: "pair",
            parameters: vec![
                Parameter::new("a", Type::String),
                Parameter::new("b", Type::Number),
            ],
            variadic: variadic.then(|| Parameter::new("rest", Type::Bool)),
            result_type: |args, _| Ok(Type::Tuple(args.iter().map(Value::ty).collect())),
            result_value: |args, _, _| Ok(Value::Tuple(args.to_vec())),
        }
    }

    /// `probe(x)` with the given flags and type specification: returns
    /// `x` unchanged, its result type being `x`'s type.
    fn probe(parameter: Parameter) -> Function {
        Function {
            name: "probe",
            parameters: vec![parameter],
            variadic: None,
            result_type: |args, _| Ok(args[0].ty()),
            result_value: |args, _, _| Ok(args[0].clone()),
        }
    }

    #[test]
    fn too_few_arguments_are_an_error_without_an_argument() {
        let error = call_function(&pair(false), &[Value::string("a")]).unwrap_err();
        assert_eq!(error.argument, None);
        assert!(call_function(&pair(true), &[]).is_err());
    }

    #[test]
    fn too_many_arguments_are_an_error_at_the_first_extra_one() {
        let args = [Value::string("a"), number(1), Value::Bool(true)];
        let error = call_function(&pair(false), &args).unwrap_err();
        assert_eq!(error.argument, Some(2));
    }

    #[test]
    fn remaining_arguments_go_to_the_variadic_parameter() {
        let args = [
            Value::string("a"),
            number(1),
            Value::Bool(true),
            Value::Bool(false),
        ];
        assert_eq!(
            call_function(&pair(true), &args),
            Ok(Value::Tuple(args.to_vec()))
        );
        let two = [Value::string("a"), number(1)];
        assert_eq!(
            call_function(&pair(true), &two),
            Ok(Value::Tuple(two.to_vec()))
        );
    }

    #[test]
    fn arguments_convert_to_the_type_specification() {
        let args = [number(1), Value::string("2"), Value::string("true")];
        assert_eq!(
            call_function(&pair(true), &args),
            Ok(Value::Tuple(vec![
                Value::string("1"),
                number(2),
                Value::Bool(true)
            ]))
        );
    }

    #[test]
    fn an_argument_that_does_not_convert_is_an_error_at_that_argument() {
        let args = [Value::string("a"), Value::string("two")];
        assert_eq!(
            call_function(&pair(false), &args).unwrap_err().argument,
            Some(1)
        );
        let args = [Value::string("a"), number(1), number(1)];
        assert_eq!(
            call_function(&pair(true), &args).unwrap_err().argument,
            Some(2)
        );
    }

    #[test]
    fn null_is_an_error_unless_accepted() {
        let null = Value::Null(Type::Dynamic);
        let error = call_function(
            &probe(Parameter::new("x", Type::String)),
            std::slice::from_ref(&null),
        );
        assert_eq!(error.unwrap_err().argument, Some(0));
        // An accepted null converts to the null of the type specification.
        let accepting = probe(Parameter::new("x", Type::String).allow_null());
        assert_eq!(
            call_function(&accepting, &[null]),
            Ok(Value::Null(Type::String))
        );
    }

    #[test]
    fn unknown_argument_forces_an_unknown_result_unless_accepted() {
        let unknown = Value::Unknown(Type::Number);
        let refusing = probe(Parameter::new("x", Type::String));
        assert_eq!(
            call_function(&refusing, std::slice::from_ref(&unknown)),
            Ok(Value::Unknown(Type::String))
        );
        let accepting = probe(Parameter::new("x", Type::Dynamic).allow_unknown());
        assert_eq!(
            call_function(&accepting, std::slice::from_ref(&unknown)),
            Ok(unknown)
        );
    }

    #[test]
    fn dynamic_value_forces_a_dynamic_result_type_unless_accepted() {
        let dynamic = Value::Unknown(Type::Dynamic);
        let refusing = probe(Parameter::new("x", Type::String));
        assert_eq!(
            call_function(&refusing, std::slice::from_ref(&dynamic)),
            Ok(dynamic.clone())
        );
        // Accepted, it converts like any value: to the unknown string, which
        // the parameter does not accept either.
        let accepting = probe(Parameter::new("x", Type::String).allow_dynamic());
        assert_eq!(
            call_function(&accepting, std::slice::from_ref(&dynamic)),
            Ok(Value::Unknown(Type::String))
        );
    }

    #[test]
    fn an_erroneous_argument_wins_over_a_forced_dynamic_result() {
        let args = [Value::Unknown(Type::Dynamic), Value::Null(Type::Number)];
        assert_eq!(
            call_function(&pair(false), &args).unwrap_err().argument,
            Some(1)
        );
    }

    #[test]
    fn result_value_must_have_the_result_type() {
        let liar = Function {
            name: "liar",
            parameters: vec![],
            variadic: None,
            result_type: |_, _| Ok(Type::String),
            result_value: |_, _, _| Ok(Value::Bool(true)),
        };
        assert!(call_function(&liar, &[]).is_err());
    }
}
