//! Native-syntax bodies under body processing: schemas, partial processing
//! and the dynamic attributes mode.
//!
//! Spec: spec.md § Schema-driven Processing, § Partial Processing of Body
//! Content, § _Dynamic Attributes_ Processing; hclsyntax-spec.md § Bodies,
//! § Attribute Definitions, § Blocks
//!
//! In the native syntax a body's elements say themselves what they are: an
//! attribute definition (`name = expression`) or a block (`type labels
//! { body }`). The schema only decides which of them are asked for.

use super::ast;
use super::eval::{eval, Scope};
use super::{on_large_stack, parse_phase, parser, Diagnostics, Root};
use crate::bodies::{
    self, schema_error, BodyContent, BodySpec, FoundAttribute, FoundBlock, PhysicalBody,
    RawContent, SchemaIndex,
};
use crate::diagnostic::{Diagnostic, Phase, Range};
use crate::eval_context::EvalContext;
use crate::source::{LineIndex, Span};
use crate::value::Value;

/// Parses a native-syntax configuration file and processes its body as
/// `spec` says: attributes evaluated in full expression mode with `ctx`, or
/// in literal-only mode (no variables, no functions) without.
///
/// Spec: spec.md § Schema-driven Processing, § Expression Evaluation;
/// hclsyntax-spec.md § Configuration Files
pub fn process_config(
    source: &str,
    spec: &BodySpec,
    ctx: Option<&EvalContext>,
) -> Result<BodyContent, Diagnostics> {
    if let Some(ctx) = ctx {
        ctx.budget.allow_source(source.len());
    }
    on_large_stack(|depth_limit| {
        let parsed = parse_phase(source, depth_limit, parser::parse_config_file)?;
        let lines = LineIndex::new(source);
        let body = NativeBody::new(
            parsed.tree.view(&parsed.arena).body,
            source,
            &lines,
            Span::at(0),
        );
        bodies::process(&body, spec, ctx)
    })
}

/// A native body, or what remains of one after partial processing.
pub(crate) struct NativeBody<'a> {
    source: &'a str,
    lines: &'a LineIndex,
    /// Where a missing element is reported: the start of the body.
    missing_item: Span,
    /// In source order.
    attributes: Vec<ast::Attribute<'a>>,
    /// In source order.
    blocks: Vec<ast::Block<'a>>,
}

impl<'a> NativeBody<'a> {
    fn new(
        body: ast::Body<'a>,
        source: &'a str,
        lines: &'a LineIndex,
        missing_item: Span,
    ) -> NativeBody<'a> {
        NativeBody {
            source,
            lines,
            missing_item,
            attributes: body.attributes.iter().collect(),
            blocks: body.blocks.iter().collect(),
        }
    }

    /// The offset of a block's opening brace: the first `{` after its type
    /// and labels (only spaces can come between them).
    fn open_brace(&self, block: &ast::Block) -> usize {
        let after = block
            .labels
            .last()
            .map_or(block.type_span.end, |label| label.span.end);
        let between = self
            .source
            .as_bytes()
            .get(after as usize..block.body.span.start as usize);
        between
            .unwrap_or_default()
            .iter()
            .position(|&b| b == b'{')
            .map_or(block.body.span.start as usize, |i| after as usize + i)
    }

    fn error(&self, span: Span, summary: &str, detail: String) -> Diagnostic {
        schema_error(self.lines.range(span), summary, detail)
    }

    /// Checks a block's labels against its block header schema.
    ///
    /// The spec does not say what a block with more or fewer labels than
    /// its header schema names is; a block "has" the labels its schema
    /// names, so any other number is an error.
    /// SPEC-GAP(spec-notes/gaps/bodies-label-count.md)
    fn check_labels(&self, block: &ast::Block, label_names: &[String]) -> Result<(), Diagnostic> {
        let given = block.labels.len();
        let wanted = label_names.len();
        if let Some(extra) = block.labels.get(wanted) {
            return Err(self.error(
                extra.span,
                "Extraneous label",
                format!(
                    "Blocks of type {:?} have {wanted} label(s), not {given}.",
                    block.type_name
                ),
            ));
        }
        if given < wanted {
            let brace = self.open_brace(block);
            return Err(self.error(
                Span::new(brace, brace + 1),
                "Missing label",
                format!(
                    "Blocks of type {:?} have {wanted} label(s) ({}), not {given}.",
                    block.type_name,
                    label_names.join(", ")
                ),
            ));
        }
        Ok(())
    }
}

impl<'a> PhysicalBody for NativeBody<'a> {
    type Expression = ast::Expression<'a>;

    /// "Any attribute whose name is specified in the schema is returned in
    /// body content and elided from the new body. Any block whose type is
    /// specified in the schema is returned in body content and elided from
    /// the new body."
    fn partial_content(
        &self,
        schema: &SchemaIndex,
    ) -> Result<(RawContent<Self>, Self), Diagnostic> {
        let mut content = RawContent {
            attributes: Vec::new(),
            blocks: Vec::new(),
        };
        let mut rest = NativeBody {
            attributes: Vec::new(),
            blocks: Vec::new(),
            ..*self
        };
        for attribute in &self.attributes {
            if schema.attribute(attribute.name).is_some() {
                content.attributes.push(FoundAttribute {
                    name: attribute.name.to_string(),
                    expression: attribute.expression,
                });
            } else {
                rest.attributes.push(*attribute);
            }
        }
        for block in &self.blocks {
            let Some(header) = schema.block(block.type_name) else {
                rest.blocks.push(*block);
                continue;
            };
            self.check_labels(block, &header.label_names)?;
            content.blocks.push(FoundBlock {
                type_name: block.type_name.to_string(),
                labels: block.labels.iter().map(|l| l.value.to_string()).collect(),
                body: NativeBody::new(
                    block.body,
                    self.source,
                    self.lines,
                    Span::at(self.open_brace(block)),
                ),
            });
        }
        Ok((content, rest))
    }

    fn missing_item(&self) -> Range {
        self.lines.range(self.missing_item)
    }

    fn extraneous(&self, schema: &SchemaIndex) -> Option<Diagnostic> {
        let attribute = self.attributes.first().map(|a| {
            let hint = if schema.block(a.name).is_some() {
                " A block of this type is expected: write it without `=`."
            } else {
                ""
            };
            (
                a.name_span,
                "Unsupported argument",
                format!("No attribute named {:?} is expected here.{hint}", a.name),
            )
        });
        let block = self.blocks.first().map(|b| {
            let hint = if schema.attribute(b.type_name).is_some() {
                " An attribute of this name is expected: write it with `=`."
            } else {
                ""
            };
            (
                b.type_span,
                "Unsupported block type",
                format!(
                    "Blocks of type {:?} are not expected here.{hint}",
                    b.type_name
                ),
            )
        });
        // The first of the two in the source.
        let first = match (attribute, block) {
            (Some(a), Some(b)) => Some(if a.0.start <= b.0.start { a } else { b }),
            (a, b) => a.or(b),
        };
        first.map(|(span, summary, detail)| self.error(span, summary, detail))
    }

    /// A native body's blocks cannot be read as attributes, so a body with
    /// blocks is an error in this mode ("producing an error if
    /// non-attribute constructs are present").
    /// SPEC-GAP(spec-notes/gaps/bodies-dynamic-attributes-blocks.md)
    fn just_attributes(&self) -> Result<Vec<FoundAttribute<Self::Expression>>, Diagnostic> {
        if let Some(block) = self.blocks.first() {
            return Err(self.error(
                block.type_span,
                "Unexpected block",
                format!(
                    "Blocks are not allowed here: the body is read as attributes only, and {:?} is a block.",
                    block.type_name
                ),
            ));
        }
        Ok(self
            .attributes
            .iter()
            .map(|a| FoundAttribute {
                name: a.name.to_string(),
                expression: a.expression,
            })
            .collect())
    }

    fn evaluate(
        &self,
        expression: &Self::Expression,
        ctx: Option<&EvalContext>,
    ) -> Result<Value, Vec<Diagnostic>> {
        let literal_only;
        let ctx = match ctx {
            Some(ctx) => ctx,
            None => {
                literal_only = EvalContext::literal_only_mode();
                &literal_only
            }
        };
        let scope = Scope::global(ctx);
        eval(*expression, &scope)
            .and_then(|v| scope.owned(v, expression.span()))
            .map_err(|p| p.into_diagnostics(self.source, Phase::Eval))
    }
}
