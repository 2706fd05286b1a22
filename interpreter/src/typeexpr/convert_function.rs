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
//! `convert` is an entry of the function table ([`convert_entry`]), which
//! an application adds to its evaluation context's table to offer the
//! extension. A call evaluates the first argument, and reads the second
//! through the static analyses of its syntax, as a type constraint
//! ([`super::Mode::TypeConstraint`]), without evaluating it; then
//! [`call_convert`] converts. A type argument that is not written inline
//! (a variable holding a type, an expanded list) is no type expression, so
//! an error.

use super::syntax::{read_type, Reading};
use super::Mode;
use crate::budget::Budget;
use crate::convert::convert;
use crate::diagnostic::shown;
use crate::functions::{CallError, Entry, TypeConstraintFunction};
use crate::static_analysis::{StaticError, StaticExpression};
use crate::types::Type;
use crate::value::Value;

/// The function table entry of `convert(value, type)`.
///
/// Spec: ext-typeexpr-README.md § The "convert" `cty` Function
pub fn convert_entry() -> Entry {
    Entry::TypeConstraint(TypeConstraintFunction {
        name: "convert",
        read_type: read_type_constraint,
        call: call_convert,
    })
}

/// Reads a type constraint written in a call.
///
/// Spec: ext-typeexpr-README.md § Type Constraints as Values
fn read_type_constraint(expression: &dyn StaticExpression) -> Result<Type, Vec<StaticError>> {
    read_type(
        expression,
        Reading {
            mode: Mode::TypeConstraint,
            quoted_names: false,
        },
    )
}

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
/// conversion is an error of the `value` argument. The conversion is paid
/// for from `budget` as it is made.
///
/// Spec: ext-typeexpr-README.md § The "convert" `cty` Function;
/// spec.md § Functions and Function Calls
pub fn call_convert(v: &Value, ty: &Type, budget: &Budget) -> Result<Value, CallError> {
    // An unknown value converts to the unknown value of the resolved type,
    // which is what the unknown rule gives: "the _result value_ is forced
    // to be an unknown value of the result type".
    convert(v, ty, budget)
        .map(|converted| converted.value)
        .map_err(|diagnostic| {
            CallError::at(
                0,
                format!(
                    "the value cannot become a {}: {}",
                    shown(ty),
                    diagnostic.summary
                ),
            )
        })
}
