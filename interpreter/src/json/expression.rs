//! JSON values interpreted as HCL expressions.
//!
//! Spec: json-spec.md § Expressions
//!
//! > JSON lacks a native expression syntax, so the HCL JSON syntax instead
//! > defines a mapping for each of the JSON value types, including a special
//! > mapping for strings that allows optional use of arbitrary expressions.
//!
//! The mode is the caller's: without an evaluation context, literal-only
//! mode; with one, full expression mode ("it is an error for the calling
//! application to enable this mode and yet provide a variable scope", so
//! the context's presence is the mode). Evaluation stops at the first
//! error.

use super::parser::{parse_json_text, Node, NodeKind, Property};
use super::string::ContentMap;
use super::with_nesting_limit;
use crate::budget::{sequence_bytes, text_bytes, tree_bytes, Budget};
use crate::convert::convert;
use crate::diagnostic::quoted;
use crate::diagnostic::{Diagnostic, Phase, Pos, Range};
use crate::eval_context::{EvalContext, EvalScope};
use crate::types::Type;
use crate::value::{nfc, Value};
use std::collections::BTreeMap;

/// Parses a JSON text and evaluates it as an expression: in literal-only
/// mode when `ctx` is `None`, in full expression mode in `ctx` otherwise.
///
/// Errors of the JSON text have [`Phase::Parse`], evaluation errors
/// [`Phase::Eval`], a template in a string that does not parse included
/// (see `eval_string`); every diagnostic has a range in `source`.
///
/// Spec: json-spec.md § Expressions; spec.md § Expression Evaluation
pub fn eval_expression(source: &str, ctx: Option<&EvalContext>) -> Result<Value, Vec<Diagnostic>> {
    if let Some(ctx) = ctx {
        ctx.budget.allow_source(source.len());
    }
    let scope = ctx.map(EvalScope::global);
    with_nesting_limit(scope.as_ref(), |depth_limit| {
        let node = parse_json_text(source, depth_limit).map_err(|d| vec![d])?;
        eval_node(&node, source, scope.as_ref())
    })
}

/// The value of a node: in literal-only mode when `ctx` is `None`, in full
/// expression mode in `ctx` otherwise. To be called on a stack large enough
/// for its depth.
///
/// In full expression mode each node is paid for from the evaluation
/// budget, as an expression evaluated and for the value it builds (a
/// dynamic block evaluates its content once for each block it generates).
pub(crate) fn eval_node(
    node: &Node,
    source: &str,
    ctx: Option<&EvalScope>,
) -> Result<Value, Vec<Diagnostic>> {
    if let Some(ctx) = ctx {
        let built = match &node.kind {
            NodeKind::Object(properties) => {
                let names: u64 = properties.iter().map(|p| text_bytes(p.name.len())).sum();
                tree_bytes::<Value>(properties.len()) + names
            }
            NodeKind::Array(elements) => sequence_bytes::<Value>(elements.len()),
            NodeKind::String(text) => text_bytes(text.len()),
            NodeKind::Number(n) => n.heap_bytes(),
            NodeKind::Bool(_) | NodeKind::Null => 0,
        };
        ctx.context()
            .budget
            .charge(Budget::EXPRESSION_BYTES + built)
            .map_err(|exceeded| {
                let mut diagnostic = exceeded.diagnostic(Phase::Eval);
                diagnostic.range = Some(node.range);
                vec![diagnostic]
            })?;
    }
    match &node.kind {
        NodeKind::Object(properties) => eval_object(properties, source, ctx),
        NodeKind::Array(elements) => eval_array(elements, source, ctx),
        NodeKind::String(text) => eval_string(text, node.range, source, ctx),
        // "When interpreted as an expression, a JSON number represents a HCL
        // number value."
        NodeKind::Number(n) => Ok(Value::Number(n.clone())),
        // "The JSON boolean values `true` and `false`, when interpreted as
        // expressions, represent the corresponding HCL boolean values."
        NodeKind::Bool(b) => Ok(Value::Bool(*b)),
        // "The JSON value `null`, when interpreted as an expression,
        // represents a HCL null value of the dynamic pseudo-type."
        NodeKind::Null => Ok(Value::Null(Type::Dynamic)),
    }
}

/// "When interpreted as an expression, a JSON object represents a value of
/// a HCL object type."
///
/// Each property name is a string expression, converted to string; then
/// each value is evaluated, in source order.
/// - "If any evaluated property name strings produce null values, an error
///   is produced"; so does a name that does not convert to string.
/// - "If any produce _unknown_ values, the _entire object's_ result is an
///   unknown value of the dynamic pseudo-type". The other properties are
///   still evaluated, so that their errors are reported.
/// - "It is an error to define the same property name multiple times
///   within a single JSON object interpreted as an expression. In full
///   expression mode, this constraint applies to the name expression
///   results after conversion to string." Names are compared as HCL
///   strings (after NFC normalization), in both modes: two names that
///   differ only in normalization would name the same attribute.
///   SPEC-GAP(spec-notes/gaps/json-object-duplicate-names.md)
///
/// Spec: json-spec.md § Objects
fn eval_object(
    properties: &[Property],
    source: &str,
    ctx: Option<&EvalScope>,
) -> Result<Value, Vec<Diagnostic>> {
    let mut attributes = BTreeMap::new();
    let mut unknown = false;
    for property in properties {
        let name = eval_property_name(property, source, ctx)?;
        let value = eval_node(&property.value, source, ctx)?;
        let Some(name) = name else {
            unknown = true;
            continue;
        };
        if attributes.contains_key(&name) {
            return Err(eval_error(
                property.name_range,
                "Duplicate object attribute",
                format!(
                    "The attribute {} is defined more than once in this object.",
                    quoted(&name)
                ),
            ));
        }
        attributes.insert(name, value);
    }
    if unknown {
        return Ok(Value::Unknown(Type::Dynamic));
    }
    Ok(Value::Object(attributes))
}

/// The attribute name a property gives: "The property name string given
/// in the JSON input is interpreted as a string expression as described
/// below, and its result is converted to string as defined by the
/// syntax-agnostic information model. If such a conversion is not
/// possible, an error is produced and evaluation fails." `None` when the
/// name is unknown.
///
/// Spec: json-spec.md § Objects
fn eval_property_name(
    property: &Property,
    source: &str,
    ctx: Option<&EvalScope>,
) -> Result<Option<String>, Vec<Diagnostic>> {
    let range = property.name_range;
    let v = eval_string(&property.name, range, source, ctx)?;
    if v.is_null() {
        return Err(eval_error(
            range,
            "Null value as attribute name",
            "A property name must not evaluate to null.".into(),
        ));
    }
    // Literal-only mode has no budget: its names are the source's.
    let own_budget = Budget::default();
    let budget = ctx.map_or(&own_budget, |ctx| &ctx.context().budget);
    let converted = convert(&v, &Type::String, budget).map_err(|e| {
        eval_error(
            range,
            "Invalid attribute name",
            format!("A property name must convert to a string: {}.", e.summary),
        )
    })?;
    Ok(converted.value.into_string().ok().map(|name| nfc(&name)))
}

/// "When interpreted as an expression, a JSON array represents a value of a
/// HCL tuple type", whose elements are the elements of the array, each
/// interpreted as an expression, in order.
///
/// Spec: json-spec.md § Arrays
fn eval_array(
    elements: &[Node],
    source: &str,
    ctx: Option<&EvalScope>,
) -> Result<Value, Vec<Diagnostic>> {
    let values = elements
        .iter()
        .map(|element| eval_node(element, source, ctx))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Value::Tuple(values))
}

/// A string, at `range` in the source (quotation marks included).
///
/// - "If evaluating in literal-only mode [...] the literal string is
///   intepreted directly as a HCL string value, by directly using the exact
///   sequence of unicode characters represented. Template interpolations
///   and directives MUST NOT be processed in this mode."
/// - "When evaluating in full expression mode [...] the literal string is
///   instead interpreted as a _standalone template_ in the HCL Native
///   Syntax. The expression evaluation result is then the direct result of
///   evaluating that template with the current variable scope and function
///   table", unwrapping included (a template that is a single
///   interpolation gives its value, not a string).
///
/// The ranges of the template's diagnostics are traced back from the
/// content to the JSON source, escapes included. A template that does not
/// parse is an evaluation error: the string is a template only when
/// evaluated, and only in full expression mode ("a JSON string may be
/// interpreted in one of two ways depending on the evaluation mode", which
/// is part of the evaluation context, spec.md § Expression Evaluation); the
/// same JSON text is valid in literal-only mode.
/// SPEC-GAP(spec-notes/gaps/json-template-syntax-errors.md)
///
/// A text with neither `${` nor `%{` is a template of literal text only
/// (the escapes `$${` and `%%{` contain those too), whose value is the
/// text: it is returned without starting the native parser. A U+FEFF at
/// the start of the text is dropped, as hashicorp/hcl drops it (the
/// content is a decoded value, not encoded source, so the native syntax's
/// rule on byte order marks does not decide it).
/// SPEC-GAP(spec-notes/gaps/json-string-byte-order-mark.md)
///
/// Spec: json-spec.md § Strings
fn eval_string(
    text: &str,
    range: Range,
    source: &str,
    ctx: Option<&EvalScope>,
) -> Result<Value, Vec<Diagnostic>> {
    let Some(ctx) = ctx else {
        return Ok(Value::string(text));
    };
    // SPEC-GAP(spec-notes/gaps/json-string-byte-order-mark.md)
    let (text, skipped) = match text.strip_prefix('\u{FEFF}') {
        Some(rest) => (rest, '\u{FEFF}'.len_utf8()),
        None => (text, 0),
    };
    let literal_only = !text.contains("${") && !text.contains("%{");
    if literal_only {
        return Ok(Value::string(text));
    }
    crate::native::eval_template_in(text, ctx).map_err(|mut diagnostics| {
        if skipped > 0 {
            for diagnostic in &mut diagnostics {
                diagnostic.range = diagnostic.range.map(|r| after_skipped(r, skipped));
            }
        }
        let mut diagnostics = in_json_source(diagnostics, source, range);
        for diagnostic in &mut diagnostics {
            diagnostic.phase = Phase::Eval;
        }
        diagnostics
    })
}

/// A range in a template whose text followed `skipped` bytes of the
/// string's content, as a range in the content. Only the byte offsets move:
/// [`in_json_source`] then finds the source's lines and columns from them.
fn after_skipped(range: Range, skipped: usize) -> Range {
    let shift = |pos: Pos| Pos {
        byte: pos.byte + skipped,
        ..pos
    };
    Range {
        start: shift(range.start),
        end: shift(range.end),
    }
}

/// The diagnostics of a string's content, with their ranges moved from the
/// content into the JSON source.
pub(crate) fn in_json_source(
    mut diagnostics: Vec<Diagnostic>,
    source: &str,
    string_range: Range,
) -> Vec<Diagnostic> {
    let Some(map) = ContentMap::new(source, string_range) else {
        return diagnostics;
    };
    for diagnostic in &mut diagnostics {
        diagnostic.range = diagnostic.range.map(|r| map.range(r));
    }
    diagnostics
}

fn eval_error(range: Range, summary: &str, detail: String) -> Vec<Diagnostic> {
    #[cfg(feature = "planted-bugs")]
    let range = crate::planted::range_off_by_one(Phase::Eval, range);
    vec![Diagnostic {
        phase: Phase::Eval,
        summary: summary.into(),
        detail,
        range: Some(range),
    }]
}

#[cfg(test)]
mod tests;
