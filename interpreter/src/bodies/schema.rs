//! Schemas: what a calling application asks a body for.
//!
//! Spec: spec.md § Schema-driven Processing, § Partial Processing of Body
//! Content, § _Dynamic Attributes_ Processing

use crate::diagnostic::quoted;
use crate::diagnostic::{Diagnostic, Phase};
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
                        "The schema requests the attribute {} twice.",
                        quoted(&attribute.name)
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
                    "The schema requests a block type {} whose name is also an attribute name.",
                    quoted(&block.type_name)
                ),
            ));
        }
        Ok(())
    }
}

/// A body schema indexed by name, so that matching a body's elements
/// against it stays linear in the size of the body.
pub struct SchemaIndex<'s> {
    schema: &'s BodySchema,
    attributes: BTreeMap<&'s str, &'s AttributeSchema>,
    blocks: BTreeMap<&'s str, &'s BlockHeaderSchema>,
}

impl<'s> SchemaIndex<'s> {
    pub fn new(schema: &'s BodySchema) -> SchemaIndex<'s> {
        SchemaIndex {
            schema,
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

    /// The schema indexed.
    pub fn schema(&self) -> &'s BodySchema {
        self.schema
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
