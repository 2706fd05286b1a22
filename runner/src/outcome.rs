//! What an implementation answered for a case.

use crate::suite::StaticShape;
use hcl_interpreter::convert::Safety;
use hcl_interpreter::diagnostic::Range;
use hcl_interpreter::{Diagnostic, Phase, Type, Value};
use std::collections::BTreeMap;

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
    /// A body (configuration files).
    Body(Body),
    /// The result of a static analysis.
    Static(StaticShape),
    /// A yes/no answer (type relations).
    Result(bool),
    /// The source parsed (the answer of a `parse-only` implementation).
    Parsed,
    /// The input was rejected, in a phase, with the diagnostics that say
    /// why (their summaries and details are shown, never compared).
    Error {
        phase: Phase,
        diagnostics: Vec<Diagnostic>,
    },
    /// The implementation cannot run this case, and says why.
    Unsupported(String),
    /// The implementation crashed (exited or closed its output without an
    /// answer): a verdict of its own.
    Crashed(String),
    /// The implementation did not answer within the time limit.
    TimedOut(String),
    /// The implementation answered something that is not an answer (not
    /// JSON, not UTF-8, too long, another request's id...).
    Broken(String),
}

impl Outcome {
    /// The source ranges of an error's diagnostics (none for other
    /// outcomes).
    pub fn error_ranges(&self) -> Vec<Range> {
        match self {
            Outcome::Error { diagnostics, .. } => {
                diagnostics.iter().filter_map(|d| d.range).collect()
            }
            _ => Vec::new(),
        }
    }
}

/// A body: the values of its attributes and its blocks in source order, and
/// under partial processing the remaining body.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Body {
    pub attributes: BTreeMap<String, Value>,
    pub blocks: Vec<Block>,
    /// Attributes the implementation parsed but did not evaluate, with its
    /// reason (feature `unevaluated-values`).
    pub unevaluated: BTreeMap<String, String>,
    pub remain: Option<Box<Body>>,
}

/// A block of a body.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub type_name: String,
    pub labels: Vec<String>,
    pub body: Body,
}
