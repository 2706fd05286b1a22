//! A configuration file evaluated: every attribute's value, every block.
//!
//! Spec: hclsyntax-spec.md § Structural Elements, § Attribute Definitions,
//! § Blocks
//!
//! > The attribute value is given as an expression, which is retained
//! > literally for later evaluation by the calling application.
//!
//! This is that calling application for the suite's `config` cases: each
//! attribute is evaluated in the global scope, and blocks keep their type,
//! labels and body in source order.

use super::ast;
use super::eval::{eval, Scope};
use super::{Block, Body, Problem};
use crate::eval_context::EvalContext;
use crate::value::Value;
use std::collections::BTreeMap;

/// Evaluates every attribute of a configuration file.
pub(crate) fn evaluate_config_file(
    file: ast::ConfigFile<'_>,
    ctx: &EvalContext,
) -> Result<Body, Problem> {
    evaluate_body(file.body, &Scope::global(ctx))
}

fn evaluate_body(body: ast::Body<'_>, scope: &Scope) -> Result<Body, Problem> {
    let mut result = Body {
        attributes: evaluate_attributes(body, scope)?,
        blocks: Vec::with_capacity(body.blocks.len()),
    };
    for block in body.blocks {
        result.blocks.push(Block {
            type_name: String::from(block.type_name),
            labels: block
                .labels
                .iter()
                .map(|label| label.value.into())
                .collect(),
            body: evaluate_body(block.body, scope)?,
        });
    }
    Ok(result)
}

/// Evaluates every attribute of a body in `scope`, in source order.
pub(crate) fn evaluate_attributes<'a>(
    body: ast::Body<'a>,
    scope: &Scope<'a>,
) -> Result<BTreeMap<String, Value>, Problem> {
    let mut attributes = BTreeMap::new();
    for attribute in body.attributes {
        let value = eval(attribute.expression, scope)?;
        let value = scope.owned(value, attribute.expression.span())?;
        // `String::from`, not `to_string`: no formatting machinery.
        attributes.insert(String::from(attribute.name), value);
    }
    Ok(attributes)
}
