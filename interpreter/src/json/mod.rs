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
//! recurse, on a thread with a [`STACK_SIZE`] stack (reserved, not
//! committed). Parsing is linear in the input. In full expression mode each
//! string with a template sequence is evaluated by the native syntax, which
//! starts a thread of its own.

pub mod body;
pub mod expression;
pub mod parser;
pub mod static_analysis;
mod string;

pub use body::{eval_attributes, process_config};
pub use expression::eval_expression;
pub use parser::{parse, Node, NodeKind, Property};
pub use static_analysis::analyze;

use crate::diagnostic::{Diagnostic, Phase};

/// The deepest nesting of objects and arrays accepted.
pub const MAX_NESTING_DEPTH: usize = 10_000;

/// The stack of the parsing and evaluation thread: 256 MiB, far more than
/// the deepest accepted input needs (a few KiB per level in debug builds).
pub const STACK_SIZE: usize = 256 << 20;

/// Runs `work` on a thread with a [`STACK_SIZE`] stack and returns its
/// result. A failure to start the thread, or a panic in it (a bug), is
/// reported as a diagnostic.
fn on_large_stack<T: Send>(
    work: impl FnOnce() -> Result<T, Vec<Diagnostic>> + Send,
) -> Result<T, Vec<Diagnostic>> {
    let internal = |why: String| {
        vec![Diagnostic::new(
            Phase::Eval,
            "Internal error of the reference interpreter",
            why,
        )]
    };
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("hcl-json".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, work);
        match spawned.map(|handle| handle.join()) {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(internal("the JSON syntax thread panicked".into())),
            Err(error) => Err(internal(format!(
                "could not start the JSON syntax thread: {error}"
            ))),
        }
    })
}
