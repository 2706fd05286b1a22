//! Functions and function calls, and the conformance function table.
//!
//! Spec: spec.md § Functions and Function Calls
//!
//! - [`definition`]: what a function is ("positional parameters", a
//!   "variadic parameter", a "result type definition" and a "result value
//!   definition"), as plain data.
//! - [`call`](mod@call): the call semantics: arguments mapped to
//!   parameters, semantic checks, execution.
//! - [`table`]: function tables ([`FunctionTable`]), and the conformance
//!   function table of `runner/PROTOCOL.md`, whose functions live by family
//!   in [`string`], [`number`], [`collection`] and [`general`], with go-cty
//!   1.12.1's `function/stdlib` semantics except where spec.md's call rules
//!   say otherwise.
//!
//! The public API is [`FunctionTable`] and [`call_function`], with
//! [`CallError`].

pub mod call;
pub mod collection;
pub mod definition;
pub mod general;
pub mod number;
pub mod string;
pub mod table;

pub use call::{call_function, call_function_owned};
pub use definition::{Function, Parameter, TypeConstraintFunction};
pub use table::{Entry, FunctionTable, NAMES, NAMESPACES, NAMESPACE_SEPARATOR};

use crate::budget::BudgetExceeded;
#[cfg(test)]
use crate::value::Value;
use std::fmt;

/// Why a function call is erroneous.
///
/// The evaluator turns it into an evaluation diagnostic; its range can be
/// that of the argument it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallError {
    /// The index of the offending argument, if one argument is to blame
    /// (not for a wrong number of arguments, nor for a result that depends
    /// on several arguments).
    pub argument: Option<usize>,
    pub message: String,
}

impl CallError {
    /// An error of the call as a whole.
    pub fn new(message: impl Into<String>) -> CallError {
        CallError {
            argument: None,
            message: message.into(),
        }
    }

    /// An error caused by the argument at `index`.
    pub fn at(index: usize, message: impl Into<String>) -> CallError {
        CallError {
            argument: Some(index),
            message: message.into(),
        }
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.argument {
            Some(index) => write!(f, "argument {}: {}", index + 1, self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for CallError {}

/// The budget ran out during the call: the caller, who can tell from the
/// budget ([`crate::budget::Budget::is_exceeded`]), reports the budget's error.
impl From<BudgetExceeded> for CallError {
    fn from(_: BudgetExceeded) -> CallError {
        CallError::new(BudgetExceeded::SUMMARY)
    }
}

/// Calls the conformance table's function `name` with `args`: how the
/// tests of the function families call them.
#[cfg(test)]
pub(crate) fn call(name: &str, args: &[Value]) -> Result<Value, CallError> {
    match FunctionTable::conformance().get(name) {
        Some(Entry::Function(function)) => {
            call_function(function, args, &crate::budget::Budget::default())
        }
        _ => Err(CallError::new(format!(
            "there is no function named {name:?}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::types::Type;

    #[test]
    fn a_conformance_function_is_called_with_values() {
        let table = FunctionTable::conformance();
        let Some(Entry::Function(upper)) = table.get("upper") else {
            panic!("upper is a function");
        };
        assert_eq!(
            call_function(upper, &[Value::string("a")], &Budget::default()),
            Ok(Value::string("A"))
        );
        assert_eq!(
            call_function(upper, &[Value::Unknown(Type::Dynamic)], &Budget::default()),
            Ok(Value::Unknown(Type::String))
        );
    }
}
