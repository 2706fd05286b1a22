//! `convert(value, type)`: the conversion function whose second argument is
//! a type constraint written inline.
//!
//! Spec: ext-typeexpr-README.md § The "convert" `cty` Function,
//! § Type Constraints as Values
//!
//! > The second parameter uses the mechanism described in the previous
//! > section to require its argument to be a type constraint expression
//! > rather than a value expression.
//!
//! > The target type constraint must always be provided statically using
//! > inline type constraint syntax. There is no way to _dynamically_ select
//! > a type constraint using this function.
//!
//! The native evaluator calls `convert` when the evaluation context asks
//! for the extension ([`crate::EvalContext::typeexpr`]): it evaluates the
//! first argument, reads the second with [`super::syntax`] in
//! [`super::Mode::TypeConstraint`] without evaluating it, and calls
//! [`call_convert`]. A type argument that is not written inline (a
//! variable holding a type, an expanded list) is no type expression, so an
//! error.

use crate::convert::convert;
use crate::functions::CallError;
use crate::types::Type;
use crate::value::Value;

/// Calls `convert` with its value argument and the type constraint read
/// from its type argument.
///
/// The `value` parameter is, in spec.md's terms (§ Functions and Function
/// Calls), of the type specification `any` and accepts nulls and the
/// dynamic pseudo-type, but not unknown values: an unknown value gives the
/// unknown value of the result type. The result is the value converted to
/// the type constraint (spec.md § Type Conversions and Unification, unsafe
/// conversions allowed; the dynamic parts of the constraint take the
/// value's types), so `convert("true", bool)` is `true`; a value with no
/// conversion is an error of the `value` argument.
///
/// Spec: ext-typeexpr-README.md § The "convert" `cty` Function;
/// spec.md § Functions and Function Calls
pub fn call_convert(v: &Value, ty: &Type) -> Result<Value, CallError> {
    // An unknown value converts to the unknown value of the resolved type,
    // which is what the unknown rule gives: "the _result value_ is forced
    // to be an unknown value of the result type".
    convert(v, ty)
        .map(|converted| converted.value)
        .map_err(|diagnostic| {
            CallError::at(
                0,
                format!("the value cannot become a {ty}: {}", diagnostic.summary),
            )
        })
}
