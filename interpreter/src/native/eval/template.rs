//! Templates.
//!
//! Spec: hclsyntax-spec.md § Templates
//!
//! > A template behaves like an expression that always returns a string
//! > value. The different elements of the template are evaluated and
//! > combined into a single string to return. If any of the elements produce
//! > an unknown string or a value of the dynamic pseudo-type, the result is
//! > an unknown string.
//!
//! The text is built in one buffer, directives included, so a template
//! with n interpolations costs O(n) plus the length of the result. The
//! evaluation budget pays for each piece of text as it is appended, and
//! for the buffer's own block once it is done.

use super::for_expr::elements;
use super::operators::predicate;
use super::{eval, Evaluated, Scope};
use crate::budget::text_bytes;
use crate::convert::convert;
use crate::native::ast::{Expression, ExpressionKind, Template, TemplatePart};
use crate::native::Problem;
use crate::types::Type;
use crate::value::Value;
use std::borrow::Cow;

/// The text built so far, and whether some element was unknown.
struct Output {
    text: String,
    unknown: bool,
}

/// Evaluates a template (a template expression or a template file).
///
/// "As a special case, a template that consists only of a single
/// interpolation, with no surrounding literals, directives or other
/// interpolations, is "unwrapped". In this case, the result of the
/// interpolation expression is returned verbatim, without conversion to
/// string."
///
/// Spec: hclsyntax-spec.md § Templates, § Template Interpolation Unwrapping
#[inline(never)] // see `eval`
pub(super) fn eval_template<'a>(template: Template<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    // SPEC-GAP(spec-notes/gaps/template-unwrapping-result-type.md)
    if let Some(expression) = template.single_interpolation() {
        return eval(expression, scope);
    }
    // The source's length is a fair first guess at the text's, and bounds
    // what the guess can waste.
    let mut output = Output {
        text: String::with_capacity(template.span.range().len()),
        unknown: false,
    };
    append_template(template, scope, &mut output)?;
    if output.unknown {
        return Ok(Cow::Owned(Value::Unknown(Type::String)));
    }
    // The pieces were paid for as they were appended: what is left is the
    // buffer's room beyond them, and the allocator's share.
    let (length, room) = (output.text.len(), output.text.capacity());
    scope.charge(
        text_bytes(room).saturating_sub(length as u64),
        template.span,
    )?;
    Ok(Cow::Owned(Value::string_owned(output.text)))
}

/// Appends the text of a template's elements. Sub-templates of directives
/// are never unwrapped: "The two sub-templates always produce strings",
/// "The sub-template always produces a string".
fn append_template<'a>(
    template: Template<'a>,
    scope: &Scope<'a>,
    output: &mut Output,
) -> Result<(), Problem> {
    for part in template.parts {
        match part {
            // "A template literal is a literal sequence of characters to
            // include in the resulting string."
            TemplatePart::Literal { text, span } => {
                scope.charge(text.len() as u64, span)?;
                output.text.push_str(text)
            }
            TemplatePart::Interpolation(expression) => {
                append_interpolation(expression, scope, output)?
            }
            TemplatePart::If(directive) => {
                // "The evaluation of the `if` directive is equivalent to the
                // conditional expression": only the selected template is
                // evaluated, and an unknown predicate gives an unknown
                // string. "The `else` clause may be omitted, in which case
                // the conditional's third expression result is implied to be
                // the empty string."
                //
                // Spec: hclsyntax-spec.md § Template If Directive
                let condition = eval(directive.condition, scope)?;
                match predicate(&condition, directive.condition.span(), "condition", scope)? {
                    Some(true) => append_template(directive.then_template, scope, output)?,
                    Some(false) => append_template(directive.else_template, scope, output)?,
                    None => output.unknown = true,
                }
            }
            TemplatePart::For(directive) => {
                // "The evaluation of the `for` directive is equivalent to the
                // _for expression_ when producing a tuple [...] The elements
                // of the resulting tuple are all converted to strings and
                // concatenated to produce a flat string result." An unknown
                // collection gives an unknown string.
                //
                // Spec: hclsyntax-spec.md § Template For Directive
                let collection = eval(directive.collection, scope)?;
                let Some(elements) = elements(&collection, directive.collection.span(), scope)?
                else {
                    output.unknown = true;
                    continue;
                };
                for (key, value) in &elements {
                    let child = scope.iteration(
                        directive.key_var.map(|k| (k.name, key.as_ref())),
                        (directive.value_var.name, value),
                    );
                    append_template(directive.body, &child, output)?;
                }
            }
        }
    }
    Ok(())
}

/// Appends an interpolation's value.
///
/// "An _interpolation sequence_ evaluates an expression [...], converts the
/// result to a string value, and replaces itself with the resulting string.
/// [...] If the expression result cannot be converted to a string, an error
/// is produced."
///
/// - An unknown value of a type that converts to string makes the result
///   an unknown string; one that does not convert (an unknown list) is an
///   error. SPEC-GAP(spec-notes/gaps/template-unknown-interpolation.md)
/// - A null, of any type, converts to a null string, which has no text:
///   an error. SPEC-GAP(spec-notes/gaps/template-null-interpolation.md)
///
/// Spec: hclsyntax-spec.md § Template Interpolations
fn append_interpolation<'a>(
    mut expression: Expression<'a>,
    scope: &Scope<'a>,
    output: &mut Output,
) -> Result<(), Problem> {
    // An error of the value is reported over the whole interpolated
    // expression, parentheses and template wrappers included, as
    // hashicorp/hcl reports it.
    let whole = expression.span();
    // A template interpolated into a template is appended to the same
    // buffer rather than built as a string of its own: the result is the
    // same (its text, or its single interpolation's value, converted to a
    // string), and nested templates cost linear time.
    loop {
        match expression.kind() {
            ExpressionKind::Parenthesized(inner) => expression = inner,
            ExpressionKind::Template(inner) => match inner.single_interpolation() {
                Some(single) => expression = single,
                None => return append_template(inner, scope, output),
            },
            _ => break,
        }
    }
    let value = eval(expression, scope)?;
    let invalid =
        |detail: String| Problem::new(whole, "Invalid template interpolation value", detail);
    match &*value {
        Value::String(text) => {
            scope.charge(text.len() as u64, expression.span())?;
            output.text.push_str(text)
        }
        Value::Null(_) => return Err(invalid(
            "The expression result is null: a null value cannot be included in a string template."
                .into(),
        )),
        other => match convert(other, &Type::String, scope.budget()) {
            Ok(converted) => match &converted.value {
                Value::String(text) => {
                    scope.charge(text.len() as u64, expression.span())?;
                    output.text.push_str(text)
                }
                _ => output.unknown = true,
            },
            Err(e) => {
                return Err(scope.failure(whole, || {
                    invalid(format!(
                        "The value cannot be included in a string template: {}.",
                        e.summary
                    ))
                }))
            }
        },
    }
    Ok(())
}
