//! Function calls.
//!
//! Spec: hclsyntax-spec.md § Functions and Function Calls;
//! spec.md § Functions and Function Calls
//!
//! The function table and the call semantics (arguments mapped to
//! parameters, type checks, null and unknown arguments) are those of
//! [`crate::functions`]; this module evaluates the arguments, expands a
//! final `...` argument, and places the call's errors in the source.

use super::{dynamic_value, eval, Evaluated, Scope};
use crate::diagnostic::Diagnostic;
use crate::functions;
use crate::native::ast::FunctionCall;
use crate::native::Problem;
use crate::types::Type;
use crate::value::Value;
use std::borrow::Cow;

/// Evaluates a function call.
///
/// - "The namespace of functions is distinct from the namespace of
///   variables"; a name the function table does not have is an error.
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
/// Spec: hclsyntax-spec.md § Functions and Function Calls
pub(super) fn eval_function_call<'a>(call: &'a FunctionCall, scope: &Scope<'a>) -> Evaluated<'a> {
    let call_arguments = &scope.arena[call.arguments];
    if scope.context().literal_only {
        return Err(Problem::new(
            call.name_span,
            "Function calls not allowed",
            "In literal-only mode no functions are available.",
        ));
    }
    if &*call.name == "convert" && scope.context().typeexpr {
        return super::convert_call::eval_convert_call(call, scope);
    }
    if !functions::exists(&call.name) {
        return Err(Problem::new(
            call.name_span,
            "Call to unknown function",
            format!("There is no function named {:?}.", call.name),
        ));
    }
    let mut arguments = Vec::with_capacity(call_arguments.len());
    for argument in call_arguments {
        let v = eval(argument, scope)?;
        arguments.push(scope.owned(v, argument.span())?);
    }
    // The number of arguments written before the expanded one.
    let mut written = arguments.len();
    if call.expand_final {
        let (Some(expanded), Some(expression)) = (arguments.pop(), call_arguments.last()) else {
            return Err(Problem::new(
                call.span,
                Diagnostic::INTERNAL_ERROR,
                "an expanded call without arguments",
            ));
        };
        written -= 1;
        let invalid = |detail: &str| {
            Problem::new(
                expression.span(),
                "Invalid expanding argument value",
                detail.to_string(),
            )
        };
        let expanded = match expanded.into_elements() {
            Ok(elements) => {
                arguments.extend(elements);
                None
            }
            Err(other) => Some(other),
        };
        match expanded {
            None => {}
            Some(Value::Null(_)) => {
                return Err(invalid(
                    "The expanding argument (indicated by ...) must not be null.",
                ))
            }
            // Only a value whose type could hold a list, set or tuple stands
            // for an unknown number of arguments; an unknown string, map or
            // object "must evaluate to either a list or tuple value" no less
            // than a known one. SPEC-GAP(spec-notes/gaps/expr-argument-expansion.md)
            Some(Value::Unknown(Type::List(_) | Type::Set(_) | Type::Tuple(_) | Type::Dynamic)) => {
                return Ok(Cow::Owned(dynamic_value()))
            }
            Some(_) => {
                return Err(invalid(
                    "The expanding argument (indicated by ...) must be a list, a set or a tuple.",
                ))
            }
        }
    }
    let argument_count = arguments.len();
    functions::call_owned(&call.name, arguments)
        .map(Cow::Owned)
        .map_err(|error| {
            // A function blames one of the arguments it was given: one
            // written in the call, or one that the expanded argument gave.
            let span = match error.argument {
                Some(i) if i < written => call_arguments[i].start_span(scope.arena),
                Some(_) => call_arguments
                    .get(written)
                    .map_or(call.close_paren_span, |expanded| expanded.span()),
                // Too few arguments: where they are missing, as
                // hashicorp/hcl reports it; another error of the whole
                // call: the name and the opening parenthesis.
                None if functions::lookup(&call.name)
                    .is_some_and(|f| argument_count < f.parameters.len()) =>
                {
                    call.close_paren_span
                }
                None => call.open_span,
            };
            Problem::new(
                span,
                "Invalid function call",
                format!(
                    "Call to function {:?} failed: {}.",
                    call.name, error.message
                ),
            )
        })
}
