//! JSON bodies. For now, the dynamic attributes mode; the schema-driven
//! mapping of properties to attributes and blocks comes next.
//!
//! Spec: json-spec.md § Structural Elements, § Attributes
//!
//! Spec: spec.md § _Dynamic Attributes_ Processing

use super::expression::eval_node;
use super::parser::{parse_json_text, NodeKind};
use crate::diagnostic::{Diagnostic, Phase};
use crate::eval_context::EvalContext;
use crate::value::Value;
use std::collections::BTreeMap;

/// The property name that is a comment in a body, never an attribute.
const COMMENT_PROPERTY: &str = "//";

/// Reads a JSON configuration file in the dynamic attributes mode and
/// evaluates every attribute in full expression mode with `ctx`.
///
/// - "When a body is being processed in the _dynamic attributes_ mode, the
///   allowance of a JSON array [...] does not apply and instead a single JSON
///   object is always required."
/// - "each object property serves as an attribute definition for the
///   attribute whose name matches the property name"; a name given twice is
///   an error, since an attribute map holds each name once.
/// - "The special property name `"//"`, when used in an object representing
///   a HCL body, is parsed and ignored."
///
/// Errors of the processing itself have [`Phase::Schema`].
///
/// Spec: json-spec.md § Structural Elements, § Attributes; spec.md
/// § _Dynamic Attributes_ Processing
pub fn eval_attributes(
    source: &str,
    ctx: &EvalContext,
) -> Result<BTreeMap<String, Value>, Vec<Diagnostic>> {
    super::on_large_stack(|| {
        let root = parse_json_text(source).map_err(|d| vec![d])?;
        let NodeKind::Object(properties) = &root.kind else {
            let mut diagnostic = Diagnostic::new(
                Phase::Schema,
                "A JSON object is required",
                "In the dynamic attributes mode a body is a single JSON object.",
            );
            diagnostic.range = Some(root.range);
            return Err(vec![diagnostic]);
        };
        let mut attributes = BTreeMap::new();
        for property in properties.iter().filter(|p| p.name != COMMENT_PROPERTY) {
            if attributes.contains_key(&property.name) {
                let mut diagnostic = Diagnostic::new(
                    Phase::Schema,
                    "Duplicate attribute definition",
                    format!(
                        "The attribute {:?} is defined more than once.",
                        property.name
                    ),
                );
                diagnostic.range = Some(property.name_range);
                return Err(vec![diagnostic]);
            }
            let value = eval_node(&property.value, source, Some(ctx))?;
            attributes.insert(property.name.clone(), value);
        }
        Ok(attributes)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::Number;

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
}
