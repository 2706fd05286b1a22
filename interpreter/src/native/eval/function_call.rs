//! Function calls.
//!
//! Spec: hclsyntax-spec.md § Functions and Function Calls;
//! spec.md § Functions and Function Calls
//!
//! The function table is the evaluation context's, and the call semantics
//! (arguments mapped to parameters, type checks, null and unknown
//! arguments) are those of [`crate::functions`]; this module finds the
//! function, evaluates the arguments, expands a final `...` argument, and
//! places the call's errors in the source. A function whose second
//! parameter takes a type constraint ([`TypeConstraintFunction`], the type
//! expression extension's `convert`) is given that argument's expression to
//! read, through the static analyses.

use super::{dynamic_value, eval, Evaluated, Scope};
use crate::budget::sequence_bytes;
use crate::diagnostic::quoted;
use crate::diagnostic::Diagnostic;
use crate::functions::{
    call_function_owned, Entry, Function, FunctionTable, TypeConstraintFunction,
    NAMESPACE_SEPARATOR,
};
use crate::native::ast::FunctionCall;
use crate::native::Problem;
use crate::source::Span;
use crate::types::Type;
use crate::value::Value;
use std::borrow::Cow;

/// Evaluates a function call.
///
/// "The namespace of functions is distinct from the namespace of
/// variables"; the function is the table's entry of the call's name (a
/// namespaced name included, `core::upper`, which the table holds as one
/// name); a name the function table does not have is an error, and
/// in literal-only mode, where there is no function table, so is every
/// call.
///
/// Spec: hclsyntax-spec.md § Functions and Function Calls; spec.md
/// § Functions and Function Calls, § Expression Evaluation
#[inline(never)] // see `eval`
pub(super) fn eval_function_call<'a>(call: FunctionCall<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    let Some(table) = &scope.context().functions else {
        return Err(Problem::new(
            call.name_span,
            "Function calls not allowed",
            "In literal-only mode no functions are available.",
        ));
    };
    match table.get(call.name) {
        Some(Entry::Function(function)) => eval_call(function, call, scope),
        Some(Entry::TypeConstraint(function)) => eval_type_constraint_call(function, call, scope),
        None => Err(unknown_function(table, call)),
    }
}

/// The error of a call of a name the function table does not have, at the
/// name.
///
/// For a namespaced name (`core::nope`, `other::upper`), the message says
/// whether the table has any function in the namespace, as hashicorp/hcl
/// v2.20.0 and later do; either way it is an evaluation error at the whole
/// name. SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
fn unknown_function(table: &FunctionTable, call: FunctionCall) -> Problem {
    let detail = match call.name.rsplit_once(NAMESPACE_SEPARATOR) {
        Some((namespace, name)) if table.has_namespace(namespace) => {
            format!(
                "There is no function named {} in the namespace {}.",
                quoted(name),
                quoted(namespace)
            )
        }
        Some((namespace, _)) => {
            format!(
                "There are no functions in the namespace {}.",
                quoted(namespace)
            )
        }
        None => format!("There is no function named {}.", quoted(call.name)),
    };
    Problem::new(call.name_span, "Call to unknown function", detail)
}

/// Evaluates a call of a function of argument values.
///
/// - "If the final argument expression is followed by the ellipsis symbol
///   (`...`), the final argument expression must evaluate to either a list
///   or tuple value. The elements of the value are each mapped to a single
///   parameter". A set converts to a list (a safe conversion), so its
///   elements are expanded in the set's order, as in hashicorp/hcl; a null
///   is an error; an unknown list, set or tuple, or the dynamic value,
///   whose number of elements is not known, makes the result the dynamic
///   value, while an unknown value of any other type is an error as its
///   known values are. SPEC-GAP(spec-notes/gaps/expr-argument-expansion.md)
///
/// The arguments (copies of the values they borrow included) and what the
/// call does and returns are paid for from the evaluation budget; a call
/// that stops on it fails with the budget's error.
///
/// Spec: hclsyntax-spec.md § Functions and Function Calls
fn eval_call<'a>(function: &Function, call: FunctionCall<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    let call_arguments = call.arguments;
    scope.charge(sequence_bytes::<Value>(call_arguments.len()), call.span)?;
    let mut arguments = Vec::with_capacity(call_arguments.len());
    for argument in call_arguments {
        let v = eval(argument, scope)?;
        arguments.push(scope.owned(v, argument.span())?);
    }
    // The number of arguments written before the expanded one.
    let mut written = arguments.len();
    if call.expand_final {
        if let Expansion::Unknown = expand_final_argument(call, &mut arguments, scope)? {
            return Ok(Cow::Owned(dynamic_value()));
        }
        written -= 1;
    }
    let argument_count = arguments.len();
    call_function_owned(function, arguments, scope.budget())
        .map(Cow::Owned)
        .map_err(|error| {
            let span = blamed_span(call, function, error.argument, written, argument_count);
            scope.failure(call.span, || {
                Problem::new(
                    span,
                    "Invalid function call",
                    format!(
                        "Call to function {:?} failed: {}.",
                        call.name, error.message
                    ),
                )
            })
        })
}

/// What expanding the final argument gave.
enum Expansion {
    /// Its elements, appended to the arguments.
    Known,
    /// Nothing: an unknown list, set or tuple, or the dynamic value, holds
    /// an unknown number of arguments.
    Unknown,
}

/// Replaces the last of `arguments`, written with `...`, by its elements.
/// A null is an error, and so is a value that is no list, set or tuple.
/// SPEC-GAP(spec-notes/gaps/expr-argument-expansion.md)
fn expand_final_argument<'a>(
    call: FunctionCall<'a>,
    arguments: &mut Vec<Value>,
    scope: &Scope<'a>,
) -> Result<Expansion, Problem> {
    let (Some(expanded), Some(expression)) = (arguments.pop(), call.arguments.last()) else {
        return Err(Problem::new(
            call.span,
            Diagnostic::INTERNAL_ERROR,
            "an expanded call without arguments",
        ));
    };
    let invalid = |detail: &str| {
        Problem::new(
            expression.span(),
            "Invalid expanding argument value",
            detail.to_string(),
        )
    };
    match expanded.into_elements() {
        Ok(elements) => {
            scope.charge(sequence_bytes::<Value>(elements.len()), expression.span())?;
            arguments.extend(elements);
            Ok(Expansion::Known)
        }
        Err(Value::Null(_)) => Err(invalid(
            "The expanding argument (indicated by ...) must not be null.",
        )),
        // Only a value whose type could hold a list, set or tuple stands
        // for an unknown number of arguments; an unknown string, map or
        // object "must evaluate to either a list or tuple value" no less
        // than a known one. SPEC-GAP(spec-notes/gaps/expr-argument-expansion.md)
        Err(Value::Unknown(Type::List(_) | Type::Set(_) | Type::Tuple(_) | Type::Dynamic)) => {
            Ok(Expansion::Unknown)
        }
        Err(_) => Err(invalid(
            "The expanding argument (indicated by ...) must be a list, a set or a tuple.",
        )),
    }
}

/// Where the error of a call is reported. A function blames one of the
/// arguments it was given (`blamed`): one of the `written` ones before the
/// expanded one, or one that the expanded argument gave. Too few
/// arguments are reported where they are missing, as hashicorp/hcl
/// reports it; another error of the whole call at the name and the
/// opening parenthesis.
fn blamed_span(
    call: FunctionCall<'_>,
    function: &Function,
    blamed: Option<usize>,
    written: usize,
    argument_count: usize,
) -> Span {
    let call_arguments = call.arguments;
    match blamed {
        Some(i) if i < written => call_arguments
            .get(i)
            .map_or(call.span, |argument| argument.start_span()),
        Some(_) => call_arguments
            .get(written)
            .map_or(call.close_paren_span, |expanded| expanded.span()),
        None if argument_count < function.parameters.len() => call.close_paren_span,
        None => call.open_span,
    }
}

/// Evaluates a call of a function whose second argument is a type
/// constraint, such as `convert(value, type)`.
///
/// "[F]unction calls in the HCL native expression syntax will require the
/// argument to be valid type constraint expression syntax": the second
/// argument is read as a type constraint where it is written, and never
/// evaluated. "It is not valid to pass in a value of `TypeConstraintType`
/// that has been obtained dynamically via some other expression result":
/// a type argument expanded from a list with `...` is an error, like a
/// variable in its place (which is no type expression).
///
/// The arguments are checked in order, as for any call: their number,
/// then the value (evaluated), then the type; the first error is the
/// call's.
///
/// Spec: ext-typeexpr-README.md § Type Constraints as Values, § The
/// "convert" `cty` Function; hclsyntax-spec.md § Functions and Function
/// Calls
fn eval_type_constraint_call<'a>(
    function: &TypeConstraintFunction,
    call: FunctionCall<'a>,
    scope: &Scope<'a>,
) -> Evaluated<'a> {
    let name = function.name;
    let call_arguments: Vec<_> = call.arguments.iter().collect();
    let invalid_call = |span, detail: &str| {
        Problem::new(
            span,
            "Invalid function call",
            format!("Call to function {name:?} failed: {detail}"),
        )
    };
    if call.expand_final {
        if let Some(expanded) = call_arguments.last() {
            return Err(invalid_call(
                expanded.span(),
                &format!("the type must be written in the call as a type constraint, like {name}(x, list(string)); it cannot come from an expanded value."),
            ));
        }
    }
    let (value, type_argument) = match call_arguments[..] {
        [value, type_argument] => (value, type_argument),
        [] | [_] => {
            return Err(invalid_call(
                call.close_paren_span,
                &format!("{name} expects 2 arguments, a value and a type constraint."),
            ))
        }
        [_, _, extra, ..] => {
            return Err(invalid_call(
                extra.start_span(),
                &format!("{name} expects only 2 arguments, a value and a type constraint."),
            ))
        }
    };
    let v = eval(value, scope)?;
    let ty = (function.read_type)(&type_argument).map_err(|errors| match errors.first() {
        Some(error) => Problem::new(error.span, error.summary, error.detail.clone()),
        None => Problem::new(
            type_argument.span(),
            "Invalid function argument",
            "This is no type constraint.",
        ),
    })?;
    (function.call)(&v, &ty, scope.budget())
        .map(Cow::Owned)
        .map_err(|error| {
            scope.failure(call.span, || {
                Problem::new(
                    value.start_span(),
                    "Invalid function argument",
                    format!(
                        "Invalid value for the \"value\" parameter of {name}: {}.",
                        error.message
                    ),
                )
            })
        })
}
