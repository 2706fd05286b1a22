//! JSON bodies: the mapping of JSON objects and arrays to attributes and
//! blocks, which the schema decides.
//!
//! Spec: json-spec.md § Structural Elements, § Attributes, § Blocks;
//! spec.md § Schema-driven Processing, § Partial Processing of Body
//! Content, § _Dynamic Attributes_ Processing
//!
//! > For JSON bodies, the schema is crucial to allow differentiation of
//! > attribute definitions and block definitions, both of which are
//! > represented via object properties.

use super::expression::eval_node;
use super::parser::{parse_json_text, Node, NodeKind, Property};
use super::static_analysis::JsonExpression;
use crate::bodies::{
    schema_error, FoundAttribute, FoundBlock, PhysicalBody, RawContent, SchemaIndex,
};
use crate::diagnostic::quoted;
use crate::diagnostic::{Diagnostic, Pos, Range};
use crate::eval_context::{EvalContext, EvalScope};
use crate::source::{LineIndex, Span};
use crate::value::Value;
use std::collections::BTreeMap;

/// The property name that is a comment in a body, never an attribute.
const COMMENT_PROPERTY: &str = "//";

/// Parses a JSON configuration file and hands its body to `work`, on a
/// stack large enough for its nesting. `ctx` is the context the body's
/// expressions will be evaluated with, if any: the work in proportion to
/// the source is allowed in its budget.
///
/// Spec: json-spec.md § Structural Elements
pub fn with_config_body<R>(
    source: &str,
    ctx: Option<&EvalContext>,
    work: impl Fn(&JsonBody<'_>) -> Result<R, Vec<Diagnostic>>,
) -> Result<R, Vec<Diagnostic>> {
    if let Some(ctx) = ctx {
        ctx.budget.allow_source(source.len());
    }
    let scope = ctx.map(EvalScope::global);
    super::with_nesting_limit(scope.as_ref(), |depth_limit| {
        let root = parse_json_text(source, depth_limit).map_err(|d| vec![d])?;
        let body = JsonBody::read(&root, source).map_err(|d| vec![d])?;
        work(&body)
    })
}

/// A JSON body, or what remains of one after partial processing.
#[derive(Clone)]
pub struct JsonBody<'a> {
    source: &'a str,
    /// The value the body was read from: an object or an array of objects.
    node: &'a Node,
    /// "Body processing is in terms of JSON object properties, visited in
    /// the order they appear in the input", `"//"` left out.
    properties: Vec<&'a Property>,
}

impl<'a> JsonBody<'a> {
    /// "A body is represented in JSON as either a single JSON object or a
    /// JSON array of objects." "Where a body is represented by a JSON array,
    /// each of its elements are visited in order and each element has its
    /// properties visited in order. If any element of the array is not a
    /// JSON object then the input is erroneous." "The special property name
    /// `"//"`, when used in an object representing a HCL body, is parsed and
    /// ignored."
    ///
    /// Spec: json-spec.md § Structural Elements
    fn read(node: &'a Node, source: &'a str) -> Result<JsonBody<'a>, Diagnostic> {
        let properties = flatten(node, "a body", |p| p.name != COMMENT_PROPERTY)?;
        Ok(JsonBody {
            source,
            node,
            properties,
        })
    }

    /// Where a missing element is reported: the closing brace of an object,
    /// the opening bracket of an array.
    fn missing_item(&self) -> Range {
        let range = self.node.range;
        match self.node.kind {
            NodeKind::Object(_) => Range {
                start: back_one(range.end),
                end: range.end,
            },
            _ => Range {
                start: range.start,
                end: forward_one(range.start),
            },
        }
    }

    /// Unpacks the blocks one block property defines into `out`.
    ///
    /// "If the schema defines one or more _labels_ for the block type, a
    /// nested JSON object or JSON array of objects is required for each
    /// labelling level. These are flattened to a single ordered sequence of
    /// object properties using the same algorithm as for body content as
    /// defined above. Each object property serves as a label value at the
    /// corresponding level." The label levels are not bodies, so `"//"` is
    /// a label there like any other name.
    /// SPEC-GAP(spec-notes/gaps/json-comment-property-in-label-levels.md)
    ///
    /// "After any labelling levels, the next nested value is either a JSON
    /// object representing a single block body, or a JSON array of JSON
    /// objects that each represent a single block body." Anything else,
    /// `null` included, is an error.
    /// SPEC-GAP(spec-notes/gaps/json-null-block.md)
    ///
    /// Spec: json-spec.md § Blocks
    fn unpack_blocks(
        &self,
        value: &'a Node,
        (type_name, type_range): (&str, Range),
        label_names: &[String],
        labels: &mut Vec<(String, Range)>,
        out: &mut Vec<FoundBlock<JsonBody<'a>>>,
    ) -> Result<(), Diagnostic> {
        if let Some((label_name, deeper)) = label_names.split_first() {
            let what = format!(
                "the {} labels of {} blocks",
                quoted(label_name),
                quoted(type_name)
            );
            for property in flatten(value, &what, |_| true)? {
                labels.push((property.name.clone(), property.name_range));
                self.unpack_blocks(
                    &property.value,
                    (type_name, type_range),
                    deeper,
                    labels,
                    out,
                )?;
                labels.pop();
            }
            return Ok(());
        }
        let block = |body: &'a Node| FoundBlock {
            type_name: type_name.to_string(),
            labels: labels.iter().map(|(name, _)| name.clone()).collect(),
            type_span: span_of(type_range),
            label_spans: labels.iter().map(|(_, range)| span_of(*range)).collect(),
            body: JsonBody {
                source: self.source,
                node: body,
                properties: match &body.kind {
                    NodeKind::Object(properties) => properties
                        .iter()
                        .filter(|p| p.name != COMMENT_PROPERTY)
                        .collect(),
                    _ => Vec::new(),
                },
            },
        };
        match &value.kind {
            NodeKind::Object(_) => out.push(block(value)),
            NodeKind::Array(elements) => {
                for element in elements {
                    if !matches!(element.kind, NodeKind::Object(_)) {
                        return Err(wrong_type(
                            element,
                            format!("Each element here is a JSON object: the body of a {} block.", quoted(type_name)),
                        ));
                    }
                    out.push(block(element));
                }
            }
            _ => {
                return Err(wrong_type(
                    value,
                    format!("A JSON object or an array of JSON objects is required here: the body or bodies of {} blocks.", quoted(type_name)),
                ))
            }
        }
        Ok(())
    }
}

impl<'a> PhysicalBody for JsonBody<'a> {
    type Expression = JsonExpression<'a>;

    /// Without a schema a JSON body cannot tell an attribute from a block:
    /// "the schema is crucial to allow differentiation of attribute
    /// definitions and block definitions". As written, it is read in the
    /// dynamic attributes mode.
    ///
    /// Spec: json-spec.md § Structural Elements
    fn content(&self) -> Result<RawContent<Self>, Vec<Diagnostic>> {
        Ok(RawContent {
            attributes: self.just_attributes()?,
            blocks: Vec::new(),
        })
    }

    /// "Where the given schema describes an attribute with a given name, the
    /// object property with the matching name — if present — serves as the
    /// attribute's definition." A second such property is an error:
    /// "Attribute names are unique within a given body."
    /// SPEC-GAP(spec-notes/gaps/json-duplicate-attribute-property.md)
    ///
    /// "Where the given schema describes a block with a given type name,
    /// each object property with the matching name serves as a definition
    /// of zero or more blocks of that type."
    ///
    /// Spec: json-spec.md § Attributes, § Blocks
    fn partial_content(
        &self,
        schema: &SchemaIndex,
    ) -> Result<(RawContent<Self>, Self), Vec<Diagnostic>> {
        let mut content = RawContent::empty();
        let mut rest = Vec::new();
        let mut seen = BTreeMap::new();
        for property in &self.properties {
            if schema.attribute(&property.name).is_some() {
                content
                    .attributes
                    .push(attribute_once(property, self.source, &mut seen).map_err(|d| vec![d])?);
            } else if let Some(header) = schema.block(&property.name) {
                self.unpack_blocks(
                    &property.value,
                    (&header.type_name, property.name_range),
                    &header.label_names,
                    &mut Vec::new(),
                    &mut content.blocks,
                )
                .map_err(|d| vec![d])?;
            } else {
                rest.push(*property);
            }
        }
        let rest = JsonBody {
            source: self.source,
            node: self.node,
            properties: rest,
        };
        Ok((content, rest))
    }

    fn missing_item(&self) -> Range {
        self.missing_item()
    }

    fn extraneous(&self, _schema: &SchemaIndex) -> Option<Diagnostic> {
        self.properties.first().map(|property| {
            schema_error(
                property.name_range,
                "Extraneous JSON object property",
                format!(
                    "No attribute or block type named {} is expected here.",
                    quoted(&property.name)
                ),
            )
        })
    }

    /// "When a body is being processed in the _dynamic attributes_ mode, the
    /// allowance of a JSON array [...] does not apply and instead a single
    /// JSON object is always required." "each object property serves as an
    /// attribute definition for the attribute whose name matches the
    /// property name"; a name given twice is an error, since an attribute
    /// map holds each name once.
    ///
    /// Spec: json-spec.md § Structural Elements, § Attributes
    fn just_attributes(&self) -> Result<Vec<FoundAttribute<Self::Expression>>, Vec<Diagnostic>> {
        if !matches!(self.node.kind, NodeKind::Object(_)) {
            return Err(vec![wrong_type(
                self.node,
                "In the dynamic attributes mode a body is a single JSON object.".into(),
            )]);
        }
        let mut seen = BTreeMap::new();
        self.properties
            .iter()
            .map(|property| attribute_once(property, self.source, &mut seen))
            .collect::<Result<_, _>>()
            .map_err(|d| vec![d])
    }

    fn evaluate(
        &self,
        expression: &Self::Expression,
        scope: Option<&EvalScope>,
    ) -> Result<Value, Vec<Diagnostic>> {
        eval_node(expression.node, self.source, scope)
    }

    fn range(&self, span: Span) -> Range {
        LineIndex::new(self.source).range(span)
    }
}

/// The properties of an object, or of every object of an array of objects,
/// in order, keeping those `keep` accepts. `what` names what the value
/// holds, for the error.
///
/// Spec: json-spec.md § Structural Elements, § Blocks
fn flatten<'a>(
    node: &'a Node,
    what: &str,
    keep: impl Fn(&Property) -> bool,
) -> Result<Vec<&'a Property>, Diagnostic> {
    match &node.kind {
        NodeKind::Object(properties) => Ok(properties.iter().filter(|p| keep(p)).collect()),
        NodeKind::Array(elements) => {
            let mut all = Vec::new();
            for element in elements {
                let NodeKind::Object(properties) = &element.kind else {
                    return Err(wrong_type(
                        element,
                        format!("Each element of this array is a JSON object holding {what}."),
                    ));
                };
                all.extend(properties.iter().filter(|p| keep(p)));
            }
            Ok(all)
        }
        _ => Err(wrong_type(
            node,
            format!("A JSON object or an array of JSON objects is required here, holding {what}."),
        )),
    }
}

/// The error for a value of the wrong JSON type, at its start: the opening
/// brace or bracket of an object or array, the whole of any other value.
fn wrong_type(node: &Node, detail: String) -> Diagnostic {
    let range = match node.kind {
        NodeKind::Object(_) | NodeKind::Array(_) => Range {
            start: node.range.start,
            end: forward_one(node.range.start),
        },
        _ => node.range,
    };
    schema_error(range, "Incorrect JSON value type", detail)
}

/// The attribute a property defines, or an error if `seen` (the names
/// already defined in the body, with where) has its name: "Attribute names
/// are unique within a given body."
///
/// Spec: spec.md § Structural Elements
fn attribute_once<'a>(
    property: &'a Property,
    source: &'a str,
    seen: &mut BTreeMap<&'a str, Range>,
) -> Result<FoundAttribute<JsonExpression<'a>>, Diagnostic> {
    if let Some(first) = seen.insert(&property.name, property.name_range) {
        return Err(schema_error(
            property.name_range,
            "Duplicate attribute definition",
            format!(
                "The attribute {} was already defined at line {}, column {}.",
                quoted(&property.name),
                first.start.line,
                first.start.column
            ),
        ));
    }
    Ok(FoundAttribute {
        name: property.name.clone(),
        expression: JsonExpression {
            node: &property.value,
            source,
        },
    })
}

/// The byte span of a range.
fn span_of(range: Range) -> Span {
    Span::new(range.start.byte, range.end.byte)
}

/// The position one ASCII character before `pos` on the same line.
fn back_one(pos: Pos) -> Pos {
    Pos {
        line: pos.line,
        column: pos.column.saturating_sub(1).max(1),
        byte: pos.byte.saturating_sub(1),
    }
}

/// The position one ASCII character after `pos` on the same line.
fn forward_one(pos: Pos) -> Pos {
    Pos {
        line: pos.line,
        column: pos.column + 1,
        byte: pos.byte + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bodies::{AttributeSchema, BlockHeaderSchema, BodyContent, BodySchema, BodySpec};
    use crate::config::Syntax;
    use crate::diagnostic::Phase;
    use crate::number::Number;

    /// A JSON configuration file processed as `spec` says.
    fn process_config(
        source: &str,
        spec: &BodySpec,
        ctx: Option<&EvalContext>,
    ) -> Result<BodyContent, Vec<Diagnostic>> {
        crate::config::process_config(Syntax::Json, source, Some(spec), ctx, false)
    }

    /// A JSON configuration file's attributes, in the dynamic attributes
    /// mode.
    fn eval_attributes(
        source: &str,
        ctx: &EvalContext,
    ) -> Result<BTreeMap<String, Value>, Vec<Diagnostic>> {
        process_config(source, &BodySpec::Attributes, Some(ctx))
            .map(|mut content| std::mem::take(&mut content.attributes))
    }

    #[test]
    fn properties_are_attributes_and_strings_are_templates() {
        let ctx = EvalContext::default();
        let attributes =
            eval_attributes(r#"{"a": "x${1 + 1}", "//": "a comment", "b": 3}"#, &ctx).unwrap();
        assert_eq!(attributes.len(), 2);
        assert_eq!(attributes["a"], Value::string("x2"));
        assert_eq!(attributes["b"], Value::Number(Number::from_i64(3)));
    }

    #[test]
    fn an_array_or_a_name_given_twice_is_a_schema_error() {
        let ctx = EvalContext::default();
        for source in [r#"[{"a": 1}]"#, r#"{"a": 1, "a": 2}"#] {
            let errors = eval_attributes(source, &ctx).unwrap_err();
            assert_eq!(errors[0].phase, Phase::Schema, "{source}");
        }
    }

    #[test]
    fn label_levels_and_arrays_give_blocks_in_order() {
        let spec = BodySpec::Schema {
            schema: BodySchema {
                attributes: vec![AttributeSchema {
                    name: "a".into(),
                    required: true,
                }],
                blocks: vec![BlockHeaderSchema {
                    type_name: "foo".into(),
                    label_names: vec!["x".into(), "y".into()],
                }],
            },
            block_bodies: BTreeMap::new(),
            remain: None,
        };
        let source =
            r#"[{"foo": {"b": {"c": {"v": 1}, "d": [{"v": 2}, {"v": 3}]}}}, {"a": "${1}"}]"#;
        let content = process_config(source, &spec, Some(&EvalContext::default())).unwrap();
        let labels: Vec<_> = content.blocks.iter().map(|b| b.labels.join(".")).collect();
        assert_eq!(labels, ["b.c", "b.d", "b.d"]);
        assert_eq!(
            content.blocks[2].body.attributes["v"],
            Value::Number(Number::from_i64(3))
        );
        assert_eq!(content.attributes["a"], Value::Number(Number::from_i64(1)));
        // Literal-only mode passes the string through.
        let content = process_config(source, &spec, None).unwrap();
        assert_eq!(content.attributes["a"], Value::string("${1}"));
    }

    #[test]
    fn deep_nesting_huge_numbers_and_malformed_json_end_in_diagnostics() {
        let deep = |n: usize| format!("{{\"a\": {}{}}}", "[".repeat(n), "]".repeat(n));
        let ctx = EvalContext::default();
        assert!(eval_attributes(&deep(crate::json::MAX_NESTING_DEPTH - 2), &ctx).is_ok());
        for source in [
            deep(crate::json::MAX_NESTING_DEPTH * 3),
            r#"{"a": 1e999999999999}"#.to_string(),
            format!("{{\"a\": {}}}", "9".repeat(100_000)),
            r#"{"a": [1,}"#.to_string(),
            "[".repeat(100_000),
        ] {
            let errors = eval_attributes(&source, &ctx).unwrap_err();
            assert_eq!(errors[0].phase, Phase::Parse, "{}", &source[..20]);
        }
        // Label levels as deep as the JSON allows.
        let levels = 5_000;
        let spec = BodySpec::Schema {
            schema: BodySchema {
                attributes: vec![],
                blocks: vec![BlockHeaderSchema {
                    type_name: "b".into(),
                    label_names: (0..levels).map(|i| format!("l{i}")).collect(),
                }],
            },
            block_bodies: BTreeMap::new(),
            remain: None,
        };
        let source = format!(
            "{{\"b\": {}{{}}{}}}",
            "{\"x\": ".repeat(levels),
            "}".repeat(levels)
        );
        let content = process_config(&source, &spec, Some(&ctx)).unwrap();
        assert_eq!(content.blocks[0].labels.len(), levels);
    }
}
