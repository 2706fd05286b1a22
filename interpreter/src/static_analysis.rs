//! Static analysis: the physical structure of expressions, for applications
//! that interpret configuration more rigidly than evaluation does.
//!
//! Spec: spec.md § Static Analysis
//!
//! Each syntax decides which of its expressions each analysis applies to
//! (hclsyntax-spec.md § Static Analysis, json-spec.md § Static Analysis);
//! this module holds the results they share. Expressions are returned as
//! their source ranges, so a caller can parse, evaluate or show them.

use crate::diagnostic::Range;
use crate::value::Value;

/// The four required analyses.
///
/// Spec: spec.md § Static Analysis
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Analysis {
    /// "Require list/tuple construction syntax to be used and return a list
    /// of expressions for each of the elements given."
    List,
    /// "Require map/object construction syntax to be used and return a list
    /// of key/value pairs -- both expressions -- for each of the elements
    /// given."
    Map,
    /// "Require function call syntax to be used and return an object
    /// describing the called function name and a list of expressions
    /// representing each of the call arguments."
    Call,
    /// "Require a reference to a symbol in the variable scope and return a
    /// description of the path from the root scope to the accessed
    /// attribute or index."
    Traversal,
}

impl Analysis {
    pub fn name(self) -> &'static str {
        match self {
            Analysis::List => "list",
            Analysis::Map => "map",
            Analysis::Call => "call",
            Analysis::Traversal => "traversal",
        }
    }

    pub fn from_name(name: &str) -> Option<Analysis> {
        Analysis::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Every analysis.
    pub const ALL: [Analysis; 4] = [
        Analysis::List,
        Analysis::Map,
        Analysis::Call,
        Analysis::Traversal,
    ];
}

/// What an analysis found.
#[derive(Clone, Debug, PartialEq)]
pub enum StaticResult {
    /// The element expressions.
    List(Vec<Range>),
    /// The key and value expressions of each pair, in source order.
    Map(Vec<(Range, Range)>),
    /// The function name, verbatim, and the argument expressions.
    Call {
        name: String,
        arguments: Vec<Range>,
    },
    Traversal(Traversal),
}

/// A path from the root scope: a root name, then attribute names and
/// constant index keys.
#[derive(Clone, Debug, PartialEq)]
pub struct Traversal {
    pub root: String,
    pub steps: Vec<TraversalStep>,
}

/// One step of a [`Traversal`].
#[derive(Clone, Debug, PartialEq)]
pub enum TraversalStep {
    Attribute(String),
    Index(Value),
}
