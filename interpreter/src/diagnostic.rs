//! Diagnostics: the one error type of every phase.
//!
//! Spec: hclsyntax-spec.md § Source Code Representation (source positions)

use std::fmt;

/// The phase of processing that rejected an input.
///
/// The suite compares phases, never message text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Reading source text into a syntax tree.
    Parse,
    /// Evaluating an expression or template.
    Eval,
    /// Converting a value to a type.
    Conversion,
    /// Unifying a list of types.
    Unification,
    /// A static analysis that does not apply to the expression.
    Static,
    /// Processing a body with a schema.
    Schema,
}

impl Phase {
    /// The phase's name as the suite and the protocol write it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Parse => "parse",
            Phase::Eval => "eval",
            Phase::Conversion => "conversion",
            Phase::Unification => "unification",
            Phase::Static => "static",
            Phase::Schema => "schema",
        }
    }

    /// Every phase, in the order of processing.
    pub const ALL: [Phase; 6] = [
        Phase::Parse,
        Phase::Eval,
        Phase::Conversion,
        Phase::Unification,
        Phase::Static,
        Phase::Schema,
    ];
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A position in source text: 1-based line and column (in characters), and
/// 0-based byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
    pub byte: usize,
}

/// A range of source text, from `start` (inclusive) to `end` (exclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Range {
    pub start: Pos,
    pub end: Pos,
}

/// An error found while processing an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub phase: Phase,
    /// A short statement of what is wrong.
    pub summary: String,
    /// A longer explanation, possibly empty.
    pub detail: String,
    /// Where in the source the problem is, when the input has a source.
    pub range: Option<Range>,
}

impl Diagnostic {
    /// The summary of an internal error: a bug of the reference
    /// interpreter (a panic caught, a state its invariants rule out),
    /// never an answer about the input.
    pub const INTERNAL_ERROR: &'static str = "Internal error of the reference interpreter";

    /// Whether this reports an internal error rather than a problem of the
    /// input.
    pub fn is_internal_error(&self) -> bool {
        self.summary == Self::INTERNAL_ERROR
    }

    /// A diagnostic without a source range.
    pub fn new(phase: Phase, summary: impl Into<String>, detail: impl Into<String>) -> Self {
        Diagnostic {
            phase,
            summary: summary.into(),
            detail: detail.into(),
            range: None,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} error: {}", self.phase, self.summary)?;
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        if let Some(range) = self.range {
            write!(
                f,
                " (at {}:{}-{}:{})",
                range.start.line, range.start.column, range.end.line, range.end.column
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}
