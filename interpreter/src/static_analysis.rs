//! Static analysis: the physical structure of expressions, for applications
//! that interpret configuration more rigidly than evaluation does.
//!
//! Spec: spec.md § Static Analysis
//!
//! Each syntax decides which of its expressions each analysis applies to
//! (hclsyntax-spec.md § Static Analysis, json-spec.md § Static Analysis).
//! This module holds what they share: the interface through which
//! syntax-independent code (the extensions) analyses an expression of
//! either syntax, [`StaticExpression`], and the results of the four
//! analyses as the suite's `static` cases see them, [`StaticResult`], with
//! expressions as their source ranges.

use crate::diagnostic::Range;
use crate::source::Span;
use crate::value::Value;

/// Applies one of the four analyses to an expression of either syntax,
/// giving its parts as source ranges (`range` turns a span of the source
/// into a range); `None` when the analysis does not apply. How each
/// syntax's `analyze` answers the suite's `static` cases.
///
/// Spec: spec.md § Static Analysis
pub fn apply(
    expression: &dyn StaticExpression,
    analysis: Analysis,
    range: impl Fn(Span) -> Range,
) -> Option<StaticResult> {
    match analysis {
        Analysis::List => expression
            .static_list()
            .map(|elements| StaticResult::List(elements.iter().map(|e| range(e.span())).collect())),
        Analysis::Map => expression.static_map().map(|pairs| {
            StaticResult::Map(
                pairs
                    .iter()
                    .map(|(k, v)| (range(k.span()), range(v.span())))
                    .collect(),
            )
        }),
        Analysis::Call => expression.static_call().map(|call| StaticResult::Call {
            name: call.name,
            arguments: call.arguments.iter().map(|e| range(e.span())).collect(),
        }),
        Analysis::Traversal => expression.static_traversal().map(StaticResult::Traversal),
    }
}

/// An expression of either syntax, as the static analyses see it: its
/// physical structure, never its value.
///
/// "Since static analysis analyses the physical structure of
/// configuration, the details will vary depending on syntax": each syntax
/// implements the four analyses for its own expressions, and code above the
/// syntaxes reads expressions only through them.
///
/// Spec: spec.md § Static Analysis
pub trait StaticExpression {
    /// Where the expression is, in the source it was read from.
    fn span(&self) -> Span;

    /// "Static List": "Require list/tuple construction syntax to be used
    /// and return a list of expressions for each of the elements given."
    fn static_list(&self) -> Option<Vec<Box<dyn StaticExpression + '_>>>;

    /// "Static Map": "Require map/object construction syntax to be used and
    /// return a list of key/value pairs -- both expressions -- for each of
    /// the elements given."
    fn static_map(&self) -> Option<Vec<StaticPair<'_>>>;

    /// "Static Call": "Require function call syntax to be used and return
    /// an object describing the called function name and a list of
    /// expressions representing each of the call arguments."
    fn static_call(&self) -> Option<StaticCall<'_>>;

    /// "Static Traversal": "Require a reference to a symbol in the variable
    /// scope and return a description of the path from the root scope to
    /// the accessed attribute or index."
    fn static_traversal(&self) -> Option<Traversal>;

    /// The expression's value, when it is a literal: a literal value, or a
    /// string with no template sequence (for JSON, any value, read in
    /// literal-only mode). How an application that interprets a static
    /// map's keys "as they see fit" reads a key that is a literal string.
    fn literal_value(&self) -> Option<Value>;
}

/// A key/value pair of a static map: both expressions.
pub type StaticPair<'e> = (
    Box<dyn StaticExpression + 'e>,
    Box<dyn StaticExpression + 'e>,
);

impl dyn StaticExpression + '_ {
    /// The name of an expression that is a static traversal of a single
    /// root name and no steps (hashicorp/hcl's "keyword").
    pub fn keyword(&self) -> Option<String> {
        self.static_traversal()
            .filter(|traversal| traversal.steps.is_empty())
            .map(|traversal| traversal.root)
    }
}

/// A fault an application found in an expression it read through the
/// static analyses: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticError {
    pub span: Span,
    pub summary: &'static str,
    pub detail: String,
}

/// What the static call analysis finds.
///
/// Spec: spec.md § Static Analysis
pub struct StaticCall<'e> {
    /// The called function's name, verbatim.
    pub name: String,
    /// The argument expressions (a final argument expanded with `...` is
    /// its expression, without the `...`).
    pub arguments: Vec<Box<dyn StaticExpression + 'e>>,
    /// From the opening parenthesis to the closing one.
    pub arguments_span: Span,
}

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
