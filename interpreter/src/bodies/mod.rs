//! Bodies and their processing: schemas, body content, partial processing
//! and the dynamic attributes mode, for both syntaxes.
//!
//! Spec: spec.md § Structural Elements, § Schema-driven Processing,
//! § Partial Processing of Body Content, § _Dynamic Attributes_ Processing,
//! § Expression Evaluation
//!
//! The spec describes body processing as an exchange between a calling
//! application and a body: the application brings a schema, the body
//! answers with its content (an attribute map of expressions and a block
//! sequence of bodies) and, under partial processing, a new body of what
//! remains. The application then evaluates attribute expressions and
//! processes child bodies as it likes. [`BodySpec`] is such an
//! application, written down: how every body of a file is processed, all
//! the way down, and [`BodyContent`] is what it gets, with every attribute
//! evaluated in the chosen evaluation mode.
//!
//! Bodies of both syntaxes ([`crate::native::NativeBody`],
//! [`crate::json::JsonBody`]) implement [`PhysicalBody`], and so does the
//! dynamic blocks extension's body that wraps either
//! ([`crate::dynblock::DynamicBody`]); all share the one algorithm of
//! [`process`], which [`crate::config`] applies to a configuration file.
//! Without a schema a body is read as written ([`Processing::AsWritten`]).
//! With one:
//!
//! 1. the schema itself is checked (§ Schema-driven Processing: "it is an
//!    error to request the same attribute name twice or to request a block
//!    type whose name is also an attribute name");
//! 2. the body's content is extracted with partial processing; under the
//!    default, exhaustive processing, anything left over is an error, so
//!    exhaustive processing is partial processing followed by a check that
//!    nothing remains (§ Partial Processing: "equivalent to single-step
//!    processing with a schema that is the union");
//! 3. the attributes are evaluated in source order, then each block's body
//!    is processed with the spec given for its type, then the remaining
//!    body, if any, with its own spec.
//!
//! Errors of the processing itself have [`Phase::Schema`]; evaluation
//! errors [`Phase::Eval`]. Processing stops at the first error.
//!
//! - `schema`: what an application asks for ([`BodySchema`], [`BodySpec`]);
//! - `physical`: what it asks of a body ([`PhysicalBody`]);
//! - `content`: what it gets ([`BodyContent`]).

mod content;
mod physical;
mod schema;

pub use content::{BodyContent, ContentBlock};
pub use physical::{FoundAttribute, FoundBlock, PhysicalBody, RawContent};
pub use schema::{AttributeSchema, BlockHeaderSchema, BodySchema, BodySpec, SchemaIndex};

use crate::diagnostic::quoted;
use crate::diagnostic::{Diagnostic, Phase, Range};
use crate::eval_context::EvalScope;
use crate::value::Value;
use std::collections::{BTreeMap, BTreeSet};

/// How a body is processed: as written, or as a body spec says.
#[derive(Clone, Copy, Debug)]
pub enum Processing<'s> {
    /// Every element as written (native: its attributes and blocks, each
    /// block's body as written in turn; JSON: the dynamic attributes mode),
    /// as a configuration file is read without a schema.
    AsWritten,
    /// As a calling application's body spec says.
    Spec(&'s BodySpec),
}

/// Processes a body, evaluating its attributes in full expression mode in
/// `scope`, or in literal-only mode without.
///
/// Spec: spec.md § Schema-driven Processing, § Partial Processing of Body
/// Content, § _Dynamic Attributes_ Processing
pub fn process<B: PhysicalBody>(
    body: &B,
    processing: Processing,
    scope: Option<&EvalScope>,
) -> Result<BodyContent, Vec<Diagnostic>> {
    // Each way of processing is a function of its own: blocks recurse
    // through this one as deep as they nest, and its stack frame is then
    // only that of the way taken.
    match processing {
        Processing::AsWritten => as_written(body, scope),
        Processing::Spec(BodySpec::Attributes) => attributes_only(body, scope),
        Processing::Spec(BodySpec::Schema {
            schema,
            block_bodies,
            remain,
        }) => with_schema(body, schema, block_bodies, remain.as_deref(), scope),
    }
}

/// Processes a body as written: every attribute and block.
fn as_written<B: PhysicalBody>(
    body: &B,
    scope: Option<&EvalScope>,
) -> Result<BodyContent, Vec<Diagnostic>> {
    let content = body.content()?;
    Ok(BodyContent {
        attributes: evaluate_attributes(body, content.attributes, scope)?,
        blocks: process_blocks(content.blocks, |_| Processing::AsWritten, scope)?,
        remain: None,
    })
}

/// Processes a body in the dynamic attributes mode.
#[inline(never)]
fn attributes_only<B: PhysicalBody>(
    body: &B,
    scope: Option<&EvalScope>,
) -> Result<BodyContent, Vec<Diagnostic>> {
    // "Processing in this mode behaves as if a schema had been
    // constructed without any _block header schemata_ and with an
    // attribute schema for each distinct key provided within the
    // physical representation of the body." "No _block sequence_ is
    // produced in this processing mode."
    let found = body.just_attributes()?;
    Ok(BodyContent {
        attributes: evaluate_attributes(body, found, scope)?,
        blocks: Vec::new(),
        remain: None,
    })
}

/// Processes a body with a schema: its blocks' bodies and its remaining
/// body as their specs say.
#[inline(never)]
fn with_schema<B: PhysicalBody>(
    body: &B,
    schema: &BodySchema,
    block_bodies: &BTreeMap<String, BodySpec>,
    remain: Option<&BodySpec>,
    scope: Option<&EvalScope>,
) -> Result<BodyContent, Vec<Diagnostic>> {
    schema.check().map_err(|d| vec![d])?;
    let index = SchemaIndex::new(schema);
    let (content, rest) = body.partial_content(&index)?;
    // "An _attribute schema_ provides the name of an attribute and
    // whether its presence is required."
    let found: BTreeSet<&str> = content.attributes.iter().map(|a| a.name.as_str()).collect();
    if let Some(missing) = schema
        .attributes
        .iter()
        .find(|a| a.required && !found.contains(a.name.as_str()))
    {
        return Err(vec![schema_error(
            body.missing_item(),
            "Missing required argument",
            format!(
                "The attribute {} is required, but it is not defined.",
                quoted(&missing.name)
            ),
        )]);
    }
    // "by default the given schema is assumed to be exhaustive, such
    // that any attribute or block not matched by schema elements is
    // considered an error."
    if remain.is_none() {
        if let Some(diagnostic) = rest.extraneous(&index) {
            return Err(vec![diagnostic]);
        }
    }
    let attributes = evaluate_attributes(body, content.attributes, scope)?;
    // A block type without a spec of its own is processed in the
    // dynamic attributes mode.
    let block_spec = |type_name: &str| {
        Processing::Spec(block_bodies.get(type_name).unwrap_or(&BodySpec::Attributes))
    };
    let blocks = process_blocks(content.blocks, block_spec, scope)?;
    // "The new body can then be recursively processed using any of
    // the body processing models."
    let remain = match remain {
        Some(remain_spec) => Some(Box::new(process(
            &rest,
            Processing::Spec(remain_spec),
            scope,
        )?)),
        None => None,
    };
    Ok(BodyContent {
        attributes,
        blocks,
        remain,
    })
}

/// Processes the body of each block, in order, as `processing` says for
/// its type.
fn process_blocks<'s, B: PhysicalBody>(
    mut found: Vec<FoundBlock<B>>,
    processing: impl Fn(&str) -> Processing<'s>,
    scope: Option<&EvalScope>,
) -> Result<Vec<ContentBlock>, Vec<Diagnostic>> {
    let mut blocks = Vec::with_capacity(found.len());
    // Each block is processed where it lies (as deep as blocks nest, a
    // copy of it in each frame would add up).
    for block in &mut found {
        let body = process(&block.body, processing(&block.type_name), scope)?;
        blocks.push(ContentBlock {
            body,
            type_name: std::mem::take(&mut block.type_name),
            labels: std::mem::take(&mut block.labels),
        });
    }
    Ok(blocks)
}

/// Evaluates attribute definitions in source order into an attribute map.
fn evaluate_attributes<B: PhysicalBody>(
    body: &B,
    found: Vec<FoundAttribute<B::Expression>>,
    scope: Option<&EvalScope>,
) -> Result<BTreeMap<String, Value>, Vec<Diagnostic>> {
    let mut attributes = BTreeMap::new();
    for attribute in found {
        let value = body.evaluate(&attribute.expression, scope)?;
        attributes.insert(attribute.name, value);
    }
    Ok(attributes)
}

/// A schema-phase error at a range.
pub fn schema_error(
    range: Range,
    summary: impl Into<String>,
    detail: impl Into<String>,
) -> Diagnostic {
    let mut diagnostic = Diagnostic::new(Phase::Schema, summary, detail);
    diagnostic.range = Some(range);
    diagnostic
}

/// "Since literal-only mode does not support variables and functions, it is
/// an error for the calling application to enable this mode and yet
/// provide a variable scope and/or function table": the check a calling
/// application makes before evaluating in literal-only mode.
///
/// Spec: spec.md § Expression Evaluation
pub fn check_literal_only(variables: &BTreeMap<String, Value>) -> Result<(), Diagnostic> {
    if variables.is_empty() {
        Ok(())
    } else {
        Err(Diagnostic::new(
            Phase::Eval,
            "Variables in literal-only mode",
            "Literal-only mode has no variables; the calling application provided some.",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attribute(name: &str) -> AttributeSchema {
        AttributeSchema {
            name: name.into(),
            required: false,
        }
    }

    #[test]
    fn a_schema_may_not_repeat_an_attribute_or_reuse_its_name_for_a_block() {
        let twice = BodySchema {
            attributes: vec![attribute("a"), attribute("a")],
            blocks: vec![],
        };
        assert_eq!(twice.check().unwrap_err().phase, Phase::Schema);
        let clash = BodySchema {
            attributes: vec![attribute("a")],
            blocks: vec![BlockHeaderSchema {
                type_name: "a".into(),
                label_names: vec![],
            }],
        };
        assert!(clash.check().is_err());
        let fine = BodySchema {
            attributes: vec![attribute("a"), attribute("b")],
            blocks: vec![BlockHeaderSchema {
                type_name: "c".into(),
                label_names: vec!["x".into()],
            }],
        };
        assert!(fine.check().is_ok());
    }

    #[test]
    fn literal_only_mode_refuses_variables() {
        assert!(check_literal_only(&BTreeMap::new()).is_ok());
        let mut variables = BTreeMap::new();
        variables.insert("a".to_string(), Value::Bool(true));
        assert_eq!(
            check_literal_only(&variables).unwrap_err().phase,
            Phase::Eval
        );
    }
}
