//! The dynamic blocks extension: `dynamic` blocks expanded into the blocks
//! they generate, in a body of either syntax.
//!
//! Spec: ext-dynblock-README.md § HCL Dynamic Blocks Extension, § Usage
//!
//! Spec: 003_ffa21bbb6e176447.txt § `dynamic` blocks
//!
//! > This HCL extension implements a special block type named "dynamic"
//! > that can be used to dynamically generate blocks of other types by
//! > iterating over collection values.
//!
//! > Pass a body to function `Expand` to obtain a new body that will, on
//! > access to its content, evaluate and expand any nested `dynamic`
//! > blocks.
//!
//! [`DynamicBody`] is that new body: it wraps a body of either syntax
//! (any [`PhysicalBody`]) and is one itself, so body processing
//! ([`crate::bodies::process`]) reads it as it reads any body, as written or
//! with a schema. In its content each `dynamic "NAME"` block is replaced,
//! at its place among the blocks, by the blocks it generates
//! (`expand`): one for each element of its `for_each` value, of type NAME,
//! labelled by its `labels` and with its `content` block's body, both
//! evaluated with the iterator variable in scope. "Dynamic block
//! processing is also automatically propagated into any nested blocks", so
//! the body of every block, generated or not, is a dynamic body in turn,
//! with every enclosing iterator in scope. The blocks a `dynamic` block
//! generates are results: they are not expanded again, even when NAME is
//! `dynamic`.
//!
//! With a schema, a `dynamic` block stands for blocks of type NAME: it is
//! expanded when the schema asks for that type, and its generated blocks
//! must have the labels the type's block header schema names (an error of
//! [`Phase::Schema`] otherwise, as for any block); under exhaustive
//! processing a `dynamic` block for a type the schema does not ask for is
//! an unexpected block, and under partial processing it stays in the
//! remaining body. Without a schema, a native body's blocks are all read
//! as written; a JSON body, read in the dynamic attributes mode, has no
//! blocks to expand.
//!
//! Where the documents leave the rules open, the decisions are those of
//! `spec-notes/gaps/dynblock-*.md`; every other error of the expansion is
//! an evaluation error.
//!
//! [`Phase::Schema`]: crate::Phase::Schema

mod expand;
#[cfg(test)]
mod tests;

use crate::bodies::{
    BlockHeaderSchema, BodySchema, FoundAttribute, FoundBlock, PhysicalBody, RawContent,
    SchemaIndex,
};
use crate::diagnostic::quoted;
use crate::diagnostic::{Diagnostic, Range};
use crate::eval_context::EvalScope;
use crate::source::Span;
use crate::value::Value;

/// The block type that the extension gives a meaning to.
const DYNAMIC: &str = "dynamic";

/// The number of labels of the blocks of a type a schema asks for, or
/// `None` for a type it does not ask for.
type LabelCount<'f> = dyn Fn(&str) -> Option<usize> + 'f;

/// A body whose `dynamic` blocks are expanded when its content is read.
///
/// Spec: ext-dynblock-README.md § Usage
pub struct DynamicBody<'a, B> {
    body: B,
    /// Where the body's expressions are evaluated: the evaluation context
    /// and the iterators of the dynamic blocks the body is in (`None`:
    /// literal-only mode).
    scope: Option<EvalScope<'a>>,
    /// The `dynamic` blocks that partial processing left in this body
    /// (read from the wrapped body, and so no longer in it).
    pending: Vec<FoundBlock<B>>,
}

impl<'a, B: PhysicalBody + Clone> DynamicBody<'a, B> {
    /// `body`, whose expressions are evaluated in `scope`, with its
    /// `dynamic` blocks expanded.
    pub fn new(body: B, scope: Option<EvalScope<'a>>) -> DynamicBody<'a, B> {
        DynamicBody {
            body,
            scope,
            pending: Vec::new(),
        }
    }

    /// A block whose body is this body's kin: a dynamic body, in `scope`.
    fn block(&self, block: FoundBlock<B>, scope: Option<EvalScope<'a>>) -> FoundBlock<Self> {
        FoundBlock {
            type_name: block.type_name,
            labels: block.labels,
            type_span: block.type_span,
            label_spans: block.label_spans,
            body: DynamicBody::new(block.body, scope),
        }
    }

    /// Replaces each `dynamic` block of `blocks` by the blocks it
    /// generates, and wraps the bodies of the others, in order. When a
    /// schema decides which types are asked for, `labels` gives the number
    /// of labels of a type it asks for; a `dynamic` block for a type it
    /// does not ask for goes to `unclaimed`.
    fn expand_blocks(
        &self,
        blocks: Vec<FoundBlock<B>>,
        labels: Option<&LabelCount>,
        unclaimed: &mut Vec<FoundBlock<B>>,
    ) -> Result<Vec<FoundBlock<Self>>, Vec<Diagnostic>> {
        let mut expanded = Vec::with_capacity(blocks.len());
        for block in blocks {
            if block.type_name != DYNAMIC {
                expanded.push(self.block(block, self.scope.clone()));
                continue;
            }
            let label_count = match labels {
                None => None,
                Some(labels) => {
                    let name = block.labels.first().map(String::as_str).unwrap_or_default();
                    match labels(name) {
                        Some(count) => Some(count),
                        None => {
                            unclaimed.push(block);
                            continue;
                        }
                    }
                }
            };
            for generated in expand::expand(block, label_count, self)? {
                expanded.push(generated);
            }
        }
        Ok(expanded)
    }
}

/// The schema of `dynamic` blocks themselves, added to a schema: one label,
/// the type of the blocks a `dynamic` block generates.
fn with_dynamic_blocks(schema: &SchemaIndex) -> BodySchema {
    let mut extended = schema.schema().clone();
    extended.blocks.retain(|b| b.type_name != DYNAMIC);
    extended.blocks.push(BlockHeaderSchema {
        type_name: DYNAMIC.into(),
        label_names: vec!["type".into()],
    });
    extended
}

impl<'a, B: PhysicalBody + Clone> PhysicalBody for DynamicBody<'a, B> {
    type Expression = B::Expression;

    fn content(&self) -> Result<RawContent<Self>, Vec<Diagnostic>> {
        let content = self.body.content()?;
        let mut unclaimed = Vec::new();
        let blocks = self.expand_blocks(content.blocks, None, &mut unclaimed)?;
        Ok(RawContent {
            attributes: content.attributes,
            blocks,
        })
    }

    fn partial_content(
        &self,
        schema: &SchemaIndex,
    ) -> Result<(RawContent<Self>, Self), Vec<Diagnostic>> {
        let extended = with_dynamic_blocks(schema);
        let (content, rest) = self.body.partial_content(&SchemaIndex::new(&extended))?;
        let mut found: Vec<FoundBlock<B>> = Vec::new();
        // The `dynamic` blocks an earlier step left, at their places (they
        // are copied: this body may be read again).
        let mut pending = self.pending.iter().peekable();
        for block in content.blocks {
            while pending
                .peek()
                .is_some_and(|p| p.type_span.start < block.type_span.start)
            {
                found.extend(pending.next().cloned());
            }
            found.push(block);
        }
        found.extend(pending.cloned());
        let mut unclaimed = Vec::new();
        let labels = |type_name: &str| schema.block(type_name).map(|b| b.label_names.len());
        let blocks = self.expand_blocks(found, Some(&labels), &mut unclaimed)?;
        let rest = DynamicBody {
            body: rest,
            scope: self.scope.clone(),
            pending: unclaimed,
        };
        Ok((
            RawContent {
                attributes: content.attributes,
                blocks,
            },
            rest,
        ))
    }

    fn missing_item(&self) -> Range {
        self.body.missing_item()
    }

    /// The first element the schema does not ask for, of the wrapped body,
    /// or a `dynamic` block for a type the schema does not ask for, whose
    /// type label is then the unexpected block type.
    fn extraneous(&self, schema: &SchemaIndex) -> Option<Diagnostic> {
        let in_body = self.body.extraneous(schema);
        let dynamic = self.pending.first().map(|block| {
            let type_name = block.labels.first().cloned().unwrap_or_default();
            let span = block
                .label_spans
                .first()
                .copied()
                .unwrap_or(block.type_span);
            crate::bodies::schema_error(
                self.range(span),
                "Unsupported block type",
                format!(
                    "Blocks of type {} are not expected here.",
                    quoted(&type_name)
                ),
            )
        });
        match (in_body, dynamic) {
            (Some(a), Some(b)) => Some(if position(&a) <= position(&b) { a } else { b }),
            (a, b) => a.or(b),
        }
    }

    fn just_attributes(&self) -> Result<Vec<FoundAttribute<Self::Expression>>, Vec<Diagnostic>> {
        self.body.just_attributes()
    }

    fn evaluate(
        &self,
        expression: &Self::Expression,
        _scope: Option<&EvalScope>,
    ) -> Result<Value, Vec<Diagnostic>> {
        self.body.evaluate(expression, self.scope.as_ref())
    }

    fn range(&self, span: Span) -> Range {
        self.body.range(span)
    }
}

/// Where a diagnostic is, to order two of them.
fn position(diagnostic: &Diagnostic) -> usize {
    diagnostic.range.map_or(usize::MAX, |r| r.start.byte)
}
