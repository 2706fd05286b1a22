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
//! recurse: on the caller's stack as deep as it holds, and on larger
//! stacks, in steps up to [`STACK_SIZE`] (reserved, not committed), for a
//! text that nests deeper (see [`crate::large_stack`]). Parsing is linear in the input. In
//! full expression mode each string with a template sequence is evaluated
//! by the native syntax, which finds a stack for itself.

pub mod body;
pub mod expression;
pub mod parser;
pub mod static_analysis;
mod string;

pub use body::{with_config_body, JsonBody};
pub use expression::eval_expression;
pub use parser::{parse, Node, NodeKind, Property};
pub use static_analysis::{analyze, JsonExpression};

use crate::diagnostic::Diagnostic;
use crate::eval_context::EvalScope;
use crate::large_stack;

/// The deepest nesting of objects and arrays accepted.
pub const MAX_NESTING_DEPTH: usize = 10_000;

/// The largest stack of parsing and evaluation, taken only for the
/// deepest texts: 256 MiB, far more than the deepest accepted input needs
/// (a few KiB per level in debug builds).
pub const STACK_SIZE: usize = 256 << 20;

/// The stack one level of nesting may take: the deepest accepted input
/// fits [`STACK_SIZE`].
const BYTES_PER_LEVEL: usize = STACK_SIZE / MAX_NESTING_DEPTH;

/// The summary of the parse error of a text nested deeper than the limit.
const NESTING_TOO_DEEP: &str = large_stack::NESTING_TOO_DEEP;

/// The nesting of the JSON syntax's deep work.
const NESTING: large_stack::Nesting = large_stack::Nesting {
    syntax: "JSON",
    max_levels: MAX_NESTING_DEPTH,
    bytes_per_level: BYTES_PER_LEVEL,
};

/// Runs `work`, which parses a JSON text (and evaluates it in `scope`, if
/// given) and recurses as deep as it nests, giving it the nesting limit it
/// must keep to: here, on the caller's stack, with the limit what is left
/// of it holds, and then, for a text that nests deeper, on larger stacks in
/// steps up to one of [`STACK_SIZE`] with the full limit (see
/// [`large_stack::with_nesting_limit`]). A text whose values may be
/// evaluated in a scope whose variables nest deeper than a limit goes to a
/// stack that holds them at once. A stack the system refuses, or a panic
/// in the work (a bug), is reported as a diagnostic.
fn with_nesting_limit<T>(
    scope: Option<&EvalScope>,
    work: impl Fn(usize) -> Result<T, Vec<Diagnostic>>,
) -> Result<T, Vec<Diagnostic>> {
    // The JSON syntax's steps are few (its nesting limit is low): no
    // estimate.
    large_stack::with_nesting_limit(
        &NESTING,
        || 0,
        |levels| scope.is_some_and(|s| s.nests_deeper_than(levels)),
        work,
    )
}
