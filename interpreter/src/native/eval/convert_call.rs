//! A call of `convert(value, type)`, the type expression extension's
//! function, when the evaluation context has it.
//!
//! Spec: ext-typeexpr-README.md § The "convert" `cty` Function,
//! § Type Constraints as Values

use super::{eval, Evaluated, Scope};
use crate::native::ast::FunctionCall;
use crate::native::Problem;
use crate::typeexpr::syntax::read_type;
use crate::typeexpr::{call_convert, Mode};
use std::borrow::Cow;

/// Evaluates `convert(value, type)`.
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
pub(super) fn eval_convert_call<'a>(call: FunctionCall<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    let call_arguments: Vec<_> = call.arguments.iter().collect();
    let invalid_call = |span, detail: &str| {
        Problem::new(
            span,
            "Invalid function call",
            format!("Call to function \"convert\" failed: {detail}"),
        )
    };
    if call.expand_final {
        if let Some(expanded) = call_arguments.last() {
            return Err(invalid_call(
                expanded.span(),
                "the type must be written in the call as a type constraint, like convert(x, list(string)); it cannot come from an expanded value.",
            ));
        }
    }
    let (value, type_argument) = match call_arguments[..] {
        [value, type_argument] => (value, type_argument),
        [] | [_] => {
            return Err(invalid_call(
                call.close_paren_span,
                "convert expects 2 arguments, a value and a type constraint.",
            ))
        }
        [_, _, extra, ..] => {
            return Err(invalid_call(
                extra.start_span(),
                "convert expects only 2 arguments, a value and a type constraint.",
            ))
        }
    };
    let v = eval(value, scope)?;
    let ty = read_type(type_argument, Mode::TypeConstraint).map_err(|errors| {
        let first = errors.into_iter().next();
        let (span, detail) = first.map_or((type_argument.span(), String::new()), |e| {
            (e.span, e.detail)
        });
        Problem::new(span, crate::typeexpr::syntax::INVALID_TYPE, detail)
    })?;
    call_convert(&v, &ty).map(Cow::Owned).map_err(|error| {
        Problem::new(
            value.start_span(),
            "Invalid function argument",
            format!(
                "Invalid value for the \"value\" parameter of convert: {}.",
                error.message
            ),
        )
    })
}
