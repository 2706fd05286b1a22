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

/// Evaluates every attribute of a configuration file.
pub(crate) fn evaluate_config_file(
    file: &ast::ConfigFile,
    ctx: &EvalContext,
) -> Result<Body, Problem> {
    evaluate_body(&file.body, &Scope::Global(ctx))
}

fn evaluate_body(body: &ast::Body, scope: &Scope) -> Result<Body, Problem> {
    let mut result = Body::default();
    for attribute in &body.attributes {
        let value = eval(&attribute.expression, scope)?.into_owned();
        result.attributes.insert(attribute.name.clone(), value);
    }
    for block in &body.blocks {
        result.blocks.push(Block {
            type_name: block.type_name.clone(),
            labels: block
                .labels
                .iter()
                .map(|label| label.value.clone())
                .collect(),
            body: evaluate_body(&block.body, scope)?,
        });
    }
    Ok(result)
}
