//! A body as written in one syntax: what body processing asks of it, so
//! that the algorithm of [`super::process`] and the extensions above the
//! syntaxes serve both.
//!
//! Spec: spec.md § Schema-driven Processing, § Partial Processing of Body
//! Content, § _Dynamic Attributes_ Processing

use super::SchemaIndex;
use crate::diagnostic::{Diagnostic, Range};
use crate::eval_context::EvalScope;
use crate::source::Span;
use crate::static_analysis::StaticExpression;
use crate::value::Value;

/// An attribute definition found in a body: its name and its expression in
/// the body's syntax.
pub struct FoundAttribute<E> {
    pub name: String,
    pub expression: E,
}

/// A block found in a body, its body not yet processed: its type, its
/// labels, and where they are written.
#[derive(Clone)]
pub struct FoundBlock<B> {
    pub type_name: String,
    pub labels: Vec<String>,
    pub body: B,
    /// Where the type is written (a native block's type name, a JSON
    /// property name).
    pub type_span: Span,
    /// Where each label is written.
    pub label_spans: Vec<Span>,
}

/// The content of a body before evaluation: attribute definitions in source
/// order, and the block sequence.
pub struct RawContent<B: PhysicalBody> {
    pub attributes: Vec<FoundAttribute<B::Expression>>,
    pub blocks: Vec<FoundBlock<B>>,
}

impl<B: PhysicalBody> RawContent<B> {
    /// Content with no attributes and no blocks, to be filled.
    pub fn empty() -> RawContent<B> {
        RawContent {
            attributes: Vec::new(),
            blocks: Vec::new(),
        }
    }
}

/// A body as written in one syntax: what body processing, and the
/// extensions that change bodies, need of it. Errors of reading the body
/// are diagnostics of [`Phase::Schema`](crate::Phase::Schema), with
/// ranges; errors of evaluating an expression have
/// [`Phase::Eval`](crate::Phase::Eval).
pub trait PhysicalBody: Sized {
    /// An expression of the body's syntax.
    type Expression: StaticExpression;

    /// Every element of the body, as written: the attributes and blocks of
    /// a native body; for a JSON body, which cannot tell an attribute from
    /// a block without a schema, the attributes of the dynamic attributes
    /// mode.
    fn content(&self) -> Result<RawContent<Self>, Vec<Diagnostic>>;

    /// Partial processing: the content the schema asks for, and a new body
    /// of every element it does not ("Any attribute or block _not_ meeting
    /// the above conditions is placed into the new body, unmodified").
    /// Wrongly labelled blocks and elements that cannot be read are errors
    /// here.
    fn partial_content(
        &self,
        schema: &SchemaIndex,
    ) -> Result<(RawContent<Self>, Self), Vec<Diagnostic>>;

    /// Where an element the body lacks is reported.
    fn missing_item(&self) -> Range;

    /// The error for the first element of the body, if it has one: under
    /// exhaustive processing, the element the schema did not ask for.
    fn extraneous(&self, schema: &SchemaIndex) -> Option<Diagnostic>;

    /// The dynamic attributes mode: every element an attribute definition.
    fn just_attributes(&self) -> Result<Vec<FoundAttribute<Self::Expression>>, Vec<Diagnostic>>;

    /// Evaluates an attribute's expression: in full expression mode in
    /// `scope`, in literal-only mode without.
    fn evaluate(
        &self,
        expression: &Self::Expression,
        scope: Option<&EvalScope>,
    ) -> Result<Value, Vec<Diagnostic>>;

    /// The source range of a span of the body's source.
    fn range(&self, span: Span) -> Range;
}
