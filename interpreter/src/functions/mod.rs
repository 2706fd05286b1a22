//! Functions and function calls, and the conformance function table.
//!
//! Spec: spec.md § Functions and Function Calls
//!
//! - [`definition`]: what a function is ("positional parameters", a
//!   "variadic parameter", a "result type definition" and a "result value
//!   definition"), as plain data.
//! - [`call`](mod@call): the call semantics: arguments mapped to
//!   parameters, semantic checks, execution.
//! - [`table`]: the conformance function table of `runner/PROTOCOL.md`,
//!   whose functions live by family in [`string`], [`number`],
//!   [`collection`] and [`general`], with go-cty 1.12.1's `function/stdlib`
//!   semantics except where spec.md's call rules say otherwise.
//!
//! The public API is [`exists`] and [`call()`], by name, with [`CallError`];
//! [`lookup`] and [`call_function`] give the [`Function`] itself.

pub mod call;
pub mod collection;
pub mod definition;
pub mod general;
pub mod number;
pub mod string;
pub mod table;

pub use call::call_function;
pub use definition::{Function, Parameter};
pub use table::{lookup, NAMES};

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

/// Whether the function table has a function of this name.
///
/// Spec: spec.md § Functions and Function Calls
pub fn exists(name: &str) -> bool {
    table::function(name).is_some()
}

/// Calls the function `name` of the function table with `args`.
///
/// Spec: spec.md § Functions and Function Calls
pub fn call(name: &str, args: &[Value]) -> Result<Value, CallError> {
    let function = table::function(name)
        .ok_or_else(|| CallError::new(format!("there is no function named {name:?}")))?;
    call_function(function, args)
}

/// [`call()`] with arguments the call may keep (see
/// [`call::call_function_owned`]).
pub fn call_owned(name: &str, args: Vec<Value>) -> Result<Value, CallError> {
    let function = table::function(name)
        .ok_or_else(|| CallError::new(format!("there is no function named {name:?}")))?;
    call::call_function_owned(function, args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Type;

    #[test]
    fn unknown_name_is_an_error_without_an_argument() {
        assert!(!exists("nope"));
        assert_eq!(call("nope", &[]).unwrap_err().argument, None);
    }

    #[test]
    fn every_table_name_exists() {
        assert!(NAMES.iter().all(|name| exists(name)));
        assert_eq!(call("upper", &[Value::string("a")]), Ok(Value::string("A")));
        assert_eq!(
            call("upper", &[Value::Unknown(Type::Dynamic)]),
            Ok(Value::Unknown(Type::String))
        );
    }
}
