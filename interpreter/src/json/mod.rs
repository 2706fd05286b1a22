//! The JSON syntax: JSON text read into a tree that keeps what HCL needs,
//! and that tree interpreted as HCL expressions.
//!
//! Spec: json-spec.md § HCL JSON Syntax Specification
//!
//! - [`parser`]: RFC 8259 JSON text to a tree of [`Node`]s, with property
//!   order, duplicate names, exact numbers and source ranges kept;
//! - `string`: JSON strings, and the way back from a position in a string's
//!   content to the JSON source;
//! - [`expression`]: § Expressions, in literal-only and full expression
//!   mode;
//! - [`static_analysis`]: § Static Analysis.
//!
//! The public API is [`parse`], [`eval_expression`] and [`analyze`].
//!
//! # Limits
//!
//! Objects and arrays may nest at most [`MAX_NESTING_DEPTH`] levels; deeper
//! input is a parse error ("Nesting too deep"). Parsing and evaluation
//! recurse, on a [`STACK_SIZE`] stack (reserved, not committed; see
//! `crate::large_stack`). Parsing is linear in the input. In full
//! expression mode each string with a template sequence is evaluated by the
//! native syntax, which switches to a stack of its own.

pub mod body;
pub mod expression;
pub mod parser;
pub mod static_analysis;
mod string;

pub use body::{eval_attributes, process_config, with_config_body, JsonBody};
pub use expression::eval_expression;
pub use parser::{parse, Node, NodeKind, Property};
pub use static_analysis::{analyze, JsonExpression};

use crate::diagnostic::Diagnostic;

/// The deepest nesting of objects and arrays accepted.
pub const MAX_NESTING_DEPTH: usize = 10_000;

/// The stack of parsing and evaluation: 256 MiB, far more than the deepest
/// accepted input needs (a few KiB per level in debug builds).
pub const STACK_SIZE: usize = 256 << 20;

/// Runs `work` on a [`STACK_SIZE`] stack (see [`crate::large_stack`]) and
/// returns its result. A failure to get the stack, or a panic in the work
/// (a bug), is reported as a diagnostic.
fn on_large_stack<T>(
    work: impl FnOnce() -> Result<T, Vec<Diagnostic>>,
) -> Result<T, Vec<Diagnostic>> {
    crate::large_stack::run(STACK_SIZE, work)
        .unwrap_or_else(|failure| Err(failure.diagnostic("JSON")))
}
