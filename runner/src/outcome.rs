//! What an implementation answered for a case.

use hcl_interpreter::convert::Safety;
use hcl_interpreter::diagnostic::Range;
use hcl_interpreter::{Phase, Type, Value};

/// An implementation's answer to one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A value; `safety` is present when the implementation reports it.
    Value {
        value: Value,
        safety: Option<Safety>,
    },
    /// A type (unification).
    Type(Type),
    /// A yes/no answer (type relations).
    Result(bool),
    /// The input was rejected, in a phase, with the ranges of the
    /// diagnostics that reported one.
    Error { phase: Phase, ranges: Vec<Range> },
    /// The implementation cannot run this case, and says why.
    Unsupported(String),
}
