//! Native-syntax bodies under body processing: as written, with schemas,
//! partial processing and the dynamic attributes mode.
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
use super::lexer::StartMode;
use super::{parse_phase, parser, with_nesting_limit, Diagnostics, Problem, Root};
use crate::bodies::{
    schema_error, FoundAttribute, FoundBlock, PhysicalBody, RawContent, SchemaIndex,
};
use crate::diagnostic::quoted;
use crate::diagnostic::{Diagnostic, Phase, Range};
use crate::eval_context::{EvalContext, EvalScope};
use crate::source::{LineIndex, Span};
use crate::value::Value;

/// Parses a native-syntax configuration file and hands its body to `work`,
/// on a stack large enough for its nesting. `ctx` is the context the body's
/// expressions will be evaluated with, if any: the work in proportion to
/// the source is allowed in its budget.
///
/// Spec: hclsyntax-spec.md § Configuration Files
pub fn with_config_body<R>(
    source: &str,
    ctx: Option<&EvalContext>,
    work: impl Fn(&NativeBody<'_>) -> Result<R, Diagnostics>,
) -> Result<R, Diagnostics> {
    if let Some(ctx) = ctx {
        ctx.budget.allow_source(source.len());
    }
    let scope = ctx.map(EvalScope::global);
    with_nesting_limit(
        source,
        StartMode::ConfigFile,
        scope.as_ref(),
        |depth_limit| {
            let parsed = parse_phase(source, depth_limit, parser::parse_config_file)?;
            let file = parsed.tree.view(&parsed.arena);
            work(&NativeBody::new(file.body, source, MissingItem::FileStart))
        },
    )
}

/// A native body, or what remains of one after partial processing.
#[derive(Clone)]
pub struct NativeBody<'a> {
    source: &'a str,
    /// Where a missing element is reported.
    missing_item: MissingItem,
    elements: Elements<'a>,
}

/// Where a missing element of a body is reported: at the start of a file,
/// or at the opening brace of a block, found when it is needed between
/// the end of the block's header (its type and labels) and the start of
/// its body. (Kept small: a body is held for each block as it is
/// processed, as many as the blocks nest.)
#[derive(Clone, Copy)]
enum MissingItem {
    FileStart,
    OpeningBrace { header_end: u32, body_start: u32 },
}

/// The elements of a body: all of them, or those that remain after partial
/// processing.
#[derive(Clone)]
enum Elements<'a> {
    All(ast::Body<'a>),
    Remaining {
        /// In source order.
        attributes: Vec<ast::Attribute<'a>>,
        /// In source order.
        blocks: Vec<ast::Block<'a>>,
    },
}

/// One of two iterators of the same items.
enum Either<L, R> {
    Left(L),
    Right(R),
}

impl<T, L: Iterator<Item = T>, R: Iterator<Item = T>> Iterator for Either<L, R> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match self {
            Either::Left(l) => l.next(),
            Either::Right(r) => r.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Either::Left(l) => l.size_hint(),
            Either::Right(r) => r.size_hint(),
        }
    }
}

impl<T, L: ExactSizeIterator<Item = T>, R: ExactSizeIterator<Item = T>> ExactSizeIterator
    for Either<L, R>
{
}

/// The items of an iterator of known length in a vector of that capacity
/// (`collect` gives a vector of one item room for four, and bodies hold
/// one such vector for each block as deep as blocks nest).
fn exactly<T>(items: impl ExactSizeIterator<Item = T>) -> Vec<T> {
    let mut collected = Vec::with_capacity(items.len());
    collected.extend(items);
    collected
}

/// Where a block's header (its type and labels) ends.
fn header_end(block: &ast::Block) -> u32 {
    block
        .labels
        .last()
        .map_or(block.type_span.end, |label| label.span.end)
}

impl<'a> NativeBody<'a> {
    fn new(body: ast::Body<'a>, source: &'a str, missing_item: MissingItem) -> NativeBody<'a> {
        NativeBody {
            source,
            missing_item,
            elements: Elements::All(body),
        }
    }

    /// The attribute definitions, in source order.
    fn attributes(&self) -> impl ExactSizeIterator<Item = ast::Attribute<'a>> + '_ {
        match &self.elements {
            Elements::All(body) => Either::Left(body.attributes.iter()),
            Elements::Remaining { attributes, .. } => Either::Right(attributes.iter().copied()),
        }
    }

    /// The blocks, in source order.
    fn blocks(&self) -> impl ExactSizeIterator<Item = ast::Block<'a>> + '_ {
        match &self.elements {
            Elements::All(body) => Either::Left(body.blocks.iter()),
            Elements::Remaining { blocks, .. } => Either::Right(blocks.iter().copied()),
        }
    }

    /// A block as found, its body to be processed in turn.
    fn found_block(&self, block: ast::Block<'a>) -> FoundBlock<NativeBody<'a>> {
        FoundBlock {
            type_name: block.type_name.to_string(),
            labels: exactly(block.labels.iter().map(|l| l.value.to_string())),
            body: NativeBody::new(
                block.body,
                self.source,
                MissingItem::OpeningBrace {
                    header_end: header_end(&block),
                    body_start: block.body.span.start,
                },
            ),
            type_span: block.type_span,
            label_spans: exactly(block.labels.iter().map(|l| l.span)),
        }
    }

    /// The offset of a block's opening brace: the first `{` after its
    /// header (only spaces can come between them), before its body.
    fn open_brace(&self, header_end: u32, body_start: u32) -> usize {
        let between = self
            .source
            .as_bytes()
            .get(header_end as usize..body_start as usize);
        between
            .unwrap_or_default()
            .iter()
            .position(|&b| b == b'{')
            .map_or(body_start as usize, |i| header_end as usize + i)
    }

    fn error(&self, span: Span, summary: &str, detail: String) -> Diagnostic {
        schema_error(self.range(span), summary, detail)
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
                    "Blocks of type {} have {wanted} label(s), not {given}.",
                    quoted(block.type_name)
                ),
            ));
        }
        if given < wanted {
            let brace = self.open_brace(header_end(block), block.body.span.start);
            return Err(self.error(
                Span::new(brace, brace + 1),
                "Missing label",
                format!(
                    "Blocks of type {} have {wanted} label(s) ({}), not {given}.",
                    quoted(block.type_name),
                    label_names.join(", ")
                ),
            ));
        }
        Ok(())
    }

    /// The evaluation error of a problem of this body's source.
    fn eval_error(&self, problem: Problem) -> Vec<Diagnostic> {
        problem.into_diagnostics(self.source, Phase::Eval)
    }
}

impl<'a> PhysicalBody for NativeBody<'a> {
    type Expression = ast::Expression<'a>;

    fn content(&self) -> Result<RawContent<Self>, Vec<Diagnostic>> {
        Ok(RawContent {
            attributes: exactly(self.attributes().map(|a| FoundAttribute {
                name: a.name.to_string(),
                expression: a.expression,
            })),
            blocks: exactly(self.blocks().map(|b| self.found_block(b))),
        })
    }

    /// "Any attribute whose name is specified in the schema is returned in
    /// body content and elided from the new body. Any block whose type is
    /// specified in the schema is returned in body content and elided from
    /// the new body."
    fn partial_content(
        &self,
        schema: &SchemaIndex,
    ) -> Result<(RawContent<Self>, Self), Vec<Diagnostic>> {
        let mut content = RawContent::empty();
        let (mut attributes, mut blocks) = (Vec::new(), Vec::new());
        for attribute in self.attributes() {
            if schema.attribute(attribute.name).is_some() {
                content.attributes.push(FoundAttribute {
                    name: attribute.name.to_string(),
                    expression: attribute.expression,
                });
            } else {
                attributes.push(attribute);
            }
        }
        for block in self.blocks() {
            let Some(header) = schema.block(block.type_name) else {
                blocks.push(block);
                continue;
            };
            self.check_labels(&block, &header.label_names)
                .map_err(|d| vec![d])?;
            content.blocks.push(self.found_block(block));
        }
        let rest = NativeBody {
            source: self.source,
            missing_item: self.missing_item,
            elements: Elements::Remaining { attributes, blocks },
        };
        Ok((content, rest))
    }

    fn missing_item(&self) -> Range {
        let at = match self.missing_item {
            MissingItem::FileStart => 0,
            MissingItem::OpeningBrace {
                header_end,
                body_start,
            } => self.open_brace(header_end, body_start),
        };
        self.range(Span::at(at))
    }

    fn extraneous(&self, schema: &SchemaIndex) -> Option<Diagnostic> {
        let attribute = self.attributes().next().map(|a| {
            let hint = if schema.block(a.name).is_some() {
                " A block of this type is expected: write it without `=`."
            } else {
                ""
            };
            (
                a.name_span,
                "Unsupported argument",
                format!(
                    "No attribute named {} is expected here.{hint}",
                    quoted(a.name)
                ),
            )
        });
        let block = self.blocks().next().map(|b| {
            let hint = if schema.attribute(b.type_name).is_some() {
                " An attribute of this name is expected: write it with `=`."
            } else {
                ""
            };
            (
                b.type_span,
                "Unsupported block type",
                format!(
                    "Blocks of type {} are not expected here.{hint}",
                    quoted(b.type_name)
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
    fn just_attributes(&self) -> Result<Vec<FoundAttribute<Self::Expression>>, Vec<Diagnostic>> {
        if let Some(block) = self.blocks().next() {
            return Err(vec![self.error(
                block.type_span,
                "Unexpected block",
                format!(
                    "Blocks are not allowed here: the body is read as attributes only, and {} is a block.",
                    quoted(block.type_name)
                ),
            )]);
        }
        Ok(self.content()?.attributes)
    }

    fn evaluate(
        &self,
        expression: &Self::Expression,
        scope: Option<&EvalScope>,
    ) -> Result<Value, Vec<Diagnostic>> {
        let literal_only;
        let global;
        let scope = match scope {
            Some(scope) => scope,
            None => {
                literal_only = EvalContext::literal_only_mode();
                global = EvalScope::global(&literal_only);
                &global
            }
        };
        let scope = Scope::global(scope);
        eval(*expression, &scope)
            .and_then(|v| scope.owned(v, expression.span()))
            .map_err(|p| self.eval_error(p))
    }

    fn range(&self, span: Span) -> Range {
        LineIndex::new(self.source).range(span)
    }
}
