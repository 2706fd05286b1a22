//! A configuration file processed as a calling application asks: in either
//! syntax, as written or with a schema, with or without the dynamic blocks
//! extension.
//!
//! Spec: spec.md § Structural Elements, § Schema-driven Processing;
//! hclsyntax-spec.md § Configuration Files; json-spec.md § Structural
//! Elements; ext-dynblock-README.md § Usage
//!
//! One evaluation of bodies serves every case ([`bodies::process`]): the
//! syntax gives the body, the extension wraps it, and the processing reads
//! the result as it reads any body.

use crate::bodies::{self, BodyContent, BodySpec, PhysicalBody, Processing};
use crate::diagnostic::Diagnostic;
use crate::dynblock::DynamicBody;
use crate::eval_context::{EvalContext, EvalScope};
use crate::{json, native};

/// The syntax a configuration file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// hclsyntax-spec.md
    Native,
    /// json-spec.md
    Json,
}

/// Parses a configuration file and processes its body: as `spec` says, or,
/// without one, as written (a native file's attributes and blocks; a JSON
/// file's properties as attributes, the dynamic attributes mode, since
/// JSON cannot tell a block from an attribute without a schema). Attributes
/// are evaluated in full expression mode with `ctx`, in literal-only mode
/// without; with `dynamic_blocks`, the body's `dynamic` blocks are expanded
/// first, at every depth.
///
/// Spec: spec.md § Schema-driven Processing, § Expression Evaluation;
/// ext-dynblock-README.md § Usage
pub fn process_config(
    syntax: Syntax,
    source: &str,
    spec: Option<&BodySpec>,
    ctx: Option<&EvalContext>,
    dynamic_blocks: bool,
) -> Result<BodyContent, Vec<Diagnostic>> {
    let processing = spec.map_or(Processing::AsWritten, Processing::Spec);
    match syntax {
        Syntax::Native => native::with_config_body(source, ctx, |body| {
            process_body(body, processing, ctx, dynamic_blocks)
        }),
        Syntax::Json => json::with_config_body(source, ctx, |body| {
            process_body(body, processing, ctx, dynamic_blocks)
        }),
    }
}

/// Processes a body of either syntax, with or without the extension.
fn process_body<B: PhysicalBody + Clone>(
    body: &B,
    processing: Processing,
    ctx: Option<&EvalContext>,
    dynamic_blocks: bool,
) -> Result<BodyContent, Vec<Diagnostic>> {
    let scope = ctx.map(EvalScope::global);
    if dynamic_blocks {
        let body = DynamicBody::new(body.clone(), scope.clone());
        bodies::process(&body, processing, scope.as_ref())
    } else {
        bodies::process(body, processing, scope.as_ref())
    }
}
