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
//! The syntax-specific halves are [`crate::native::process_config`] and
//! [`crate::json::process_config`]; both implement [`PhysicalBody`] and so
//! share the algorithm of [`process`]:
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

use crate::diagnostic::{Diagnostic, Phase, Range};
use crate::eval_context::EvalContext;
use crate::value::Value;
use std::collections::{BTreeMap, BTreeSet};

/// "An _attribute schema_ provides the name of an attribute and whether its
/// presence is required."
///
/// Spec: spec.md § Schema-driven Processing
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttributeSchema {
    pub name: String,
    pub required: bool,
}

/// "A _block header schema_ provides a block type name and the semantic
/// names assigned to each of the labels of that block type, if any."
///
/// Spec: spec.md § Schema-driven Processing
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockHeaderSchema {
    pub type_name: String,
    pub label_names: Vec<String>,
}

/// "A _body schema_ consists of a list of _attribute schemata_ and _block
/// header schemata_".
///
/// Spec: spec.md § Schema-driven Processing
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodySchema {
    pub attributes: Vec<AttributeSchema>,
    pub blocks: Vec<BlockHeaderSchema>,
}

impl BodySchema {
    /// "Within a schema, it is an error to request the same attribute name
    /// twice or to request a block type whose name is also an attribute
    /// name."
    ///
    /// Spec: spec.md § Schema-driven Processing
    pub fn check(&self) -> Result<(), Diagnostic> {
        let mut names = BTreeSet::new();
        for attribute in &self.attributes {
            if !names.insert(attribute.name.as_str()) {
                return Err(Diagnostic::new(
                    Phase::Schema,
                    "Invalid schema",
                    format!(
                        "The schema requests the attribute {:?} twice.",
                        attribute.name
                    ),
                ));
            }
        }
        if let Some(block) = self
            .blocks
            .iter()
            .find(|b| names.contains(b.type_name.as_str()))
        {
            return Err(Diagnostic::new(
                Phase::Schema,
                "Invalid schema",
                format!(
                    "The schema requests a block type {:?} whose name is also an attribute name.",
                    block.type_name
                ),
            ));
        }
        Ok(())
    }
}

/// A body schema indexed by name, so that matching a body's elements
/// against it stays linear in the size of the body.
pub(crate) struct SchemaIndex<'s> {
    attributes: BTreeMap<&'s str, &'s AttributeSchema>,
    blocks: BTreeMap<&'s str, &'s BlockHeaderSchema>,
}

impl<'s> SchemaIndex<'s> {
    fn new(schema: &'s BodySchema) -> SchemaIndex<'s> {
        SchemaIndex {
            attributes: schema
                .attributes
                .iter()
                .map(|a| (a.name.as_str(), a))
                .collect(),
            blocks: schema
                .blocks
                .iter()
                .map(|b| (b.type_name.as_str(), b))
                .collect(),
        }
    }

    /// The block header schema of a type, if the schema has one.
    pub fn block(&self, type_name: &str) -> Option<&'s BlockHeaderSchema> {
        self.blocks.get(type_name).copied()
    }

    /// The attribute schema of a name, if the schema has one.
    pub fn attribute(&self, name: &str) -> Option<&'s AttributeSchema> {
        self.attributes.get(name).copied()
    }
}

/// How a calling application processes a body, and every body below it.
///
/// Spec: spec.md § Schema-driven Processing, § Partial Processing of Body
/// Content, § _Dynamic Attributes_ Processing
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodySpec {
    /// "_dynamic attributes_ processing": an attribute map, no blocks.
    Attributes,
    /// Schema-driven processing.
    Schema {
        schema: BodySchema,
        /// How the body of each block is processed, by block type; a type
        /// not listed is processed in the dynamic attributes mode.
        block_bodies: BTreeMap<String, BodySpec>,
        /// `None`: exhaustive processing. `Some`: partial processing, and
        /// how the new body of the remaining elements is processed.
        remain: Option<Box<BodySpec>>,
    },
}

/// What processing a body gave: its attributes evaluated, its blocks with
/// their own bodies processed, and, under partial processing, the
/// remaining body processed.
///
/// Spec: spec.md § Schema-driven Processing ("_body content_, which
/// consists of an _attribute map_ and a _block sequence_")
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodyContent {
    pub attributes: BTreeMap<String, Value>,
    pub blocks: Vec<ContentBlock>,
    pub remain: Option<Box<BodyContent>>,
}

/// One block of a block sequence: "a block _type name_, the sequence of
/// _labels_ specified for the block, and the body object".
///
/// Spec: spec.md § Schema-driven Processing
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentBlock {
    pub type_name: String,
    pub labels: Vec<String>,
    pub body: BodyContent,
}

/// An attribute definition found in a body: its name and its expression in
/// the body's syntax.
pub(crate) struct FoundAttribute<E> {
    pub name: String,
    pub expression: E,
}

/// A block found in a body, its body not yet processed.
pub(crate) struct FoundBlock<B> {
    pub type_name: String,
    pub labels: Vec<String>,
    pub body: B,
}

/// The body content of partial processing, before evaluation: attribute
/// definitions in source order, and the block sequence.
pub(crate) struct RawContent<B: PhysicalBody> {
    pub attributes: Vec<FoundAttribute<B::Expression>>,
    pub blocks: Vec<FoundBlock<B>>,
}

/// A body as written in one syntax: what the algorithm of [`process`] needs
/// of it.
pub(crate) trait PhysicalBody: Sized {
    type Expression;

    /// Partial processing: the content the schema asks for, and a new body
    /// of every element it does not ("Any attribute or block _not_ meeting
    /// the above conditions is placed into the new body, unmodified").
    /// Wrongly labelled blocks and elements that cannot be read are errors
    /// here.
    fn partial_content(&self, schema: &SchemaIndex)
        -> Result<(RawContent<Self>, Self), Diagnostic>;

    /// Where an element the body lacks is reported.
    fn missing_item(&self) -> Range;

    /// The error for the first element of the body, if it has one: under
    /// exhaustive processing, the element the schema did not ask for.
    fn extraneous(&self, schema: &SchemaIndex) -> Option<Diagnostic>;

    /// The dynamic attributes mode: every element an attribute definition.
    fn just_attributes(&self) -> Result<Vec<FoundAttribute<Self::Expression>>, Diagnostic>;

    /// Evaluates an attribute's expression: in full expression mode with
    /// `ctx`, in literal-only mode without.
    fn evaluate(
        &self,
        expression: &Self::Expression,
        ctx: Option<&EvalContext>,
    ) -> Result<Value, Vec<Diagnostic>>;
}

/// Processes a body as `spec` says, evaluating attributes in full
/// expression mode with `ctx`, or in literal-only mode without.
///
/// Spec: spec.md § Schema-driven Processing, § Partial Processing of Body
/// Content, § _Dynamic Attributes_ Processing
pub(crate) fn process<B: PhysicalBody>(
    body: &B,
    spec: &BodySpec,
    ctx: Option<&EvalContext>,
) -> Result<BodyContent, Vec<Diagnostic>> {
    match spec {
        BodySpec::Attributes => {
            // "Processing in this mode behaves as if a schema had been
            // constructed without any _block header schemata_ and with an
            // attribute schema for each distinct key provided within the
            // physical representation of the body." "No _block sequence_ is
            // produced in this processing mode."
            let found = body.just_attributes().map_err(|d| vec![d])?;
            Ok(BodyContent {
                attributes: evaluate_attributes(body, found, ctx)?,
                blocks: Vec::new(),
                remain: None,
            })
        }
        BodySpec::Schema {
            schema,
            block_bodies,
            remain,
        } => {
            schema.check().map_err(|d| vec![d])?;
            let index = SchemaIndex::new(schema);
            let (content, rest) = body.partial_content(&index).map_err(|d| vec![d])?;
            // "An _attribute schema_ provides the name of an attribute and
            // whether its presence is required."
            let found: BTreeSet<&str> =
                content.attributes.iter().map(|a| a.name.as_str()).collect();
            if let Some(missing) = schema
                .attributes
                .iter()
                .find(|a| a.required && !found.contains(a.name.as_str()))
            {
                return Err(vec![schema_error(
                    body.missing_item(),
                    "Missing required argument",
                    format!(
                        "The attribute {:?} is required, but it is not defined.",
                        missing.name
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
            let attributes = evaluate_attributes(body, content.attributes, ctx)?;
            let mut blocks = Vec::with_capacity(content.blocks.len());
            for block in content.blocks {
                let block_spec = block_bodies
                    .get(&block.type_name)
                    .unwrap_or(&BodySpec::Attributes);
                blocks.push(ContentBlock {
                    body: process(&block.body, block_spec, ctx)?,
                    type_name: block.type_name,
                    labels: block.labels,
                });
            }
            // "The new body can then be recursively processed using any of
            // the body processing models."
            let remain = match remain {
                Some(remain_spec) => Some(Box::new(process(&rest, remain_spec, ctx)?)),
                None => None,
            };
            Ok(BodyContent {
                attributes,
                blocks,
                remain,
            })
        }
    }
}

/// Evaluates attribute definitions in source order into an attribute map.
fn evaluate_attributes<B: PhysicalBody>(
    body: &B,
    found: Vec<FoundAttribute<B::Expression>>,
    ctx: Option<&EvalContext>,
) -> Result<BTreeMap<String, Value>, Vec<Diagnostic>> {
    let mut attributes = BTreeMap::new();
    for attribute in found {
        let value = body.evaluate(&attribute.expression, ctx)?;
        attributes.insert(attribute.name, value);
    }
    Ok(attributes)
}

/// A schema-phase error at a range.
pub(crate) fn schema_error(
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
