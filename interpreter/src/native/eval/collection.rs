//! Collection values: tuple and object constructors.
//!
//! Spec: hclsyntax-spec.md § Collection Values
//!
//! > Only tuple and object values can be directly constructed via native
//! > syntax.

use super::{dynamic_value, eval, Evaluated, Scope};
use crate::budget::{sequence_bytes, text_bytes, tree_bytes};
use crate::convert::convert;
use crate::native::ast::{Expression, ExpressionKind, Object, ObjectKey, Tuple};
use crate::native::static_analysis::constant_index_key;
use crate::native::Problem;
use crate::source::Span;
use crate::types::Type;
use crate::value::{nfc, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A tuple constructor: a tuple of the elements' values, in order. The
/// tuple is paid for from the evaluation budget, as its elements are.
///
/// Spec: hclsyntax-spec.md § Collection Values
#[inline(never)] // see `eval`
pub(super) fn eval_tuple<'a>(tuple: Tuple<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    let length = tuple.elements.len();
    scope.charge(sequence_bytes::<Value>(length), tuple.span)?;
    let mut elements = Vec::with_capacity(length);
    for element in tuple.elements {
        let v = eval(element, scope)?;
        elements.push(scope.owned(v, element.span())?);
    }
    Ok(Cow::Owned(Value::Tuple(elements)))
}

/// An object constructor: an object of the elements' keys and values.
///
/// - A name key is the attribute name; another key is evaluated and
///   converted to a string (the attribute names of an object are strings).
///   A null key is an error.
/// - A key written as a bare reference with attribute or constant index
///   steps (`a.b`, `a[0]`, without parentheses) is an evaluation error, as
///   in hashicorp/hcl: the native grammar admits it as an expression, the
///   Terraform guide asks for parentheses around a non-literal key.
///   SPEC-GAP(spec-notes/gaps/expr-object-key-expressions.md)
/// - With an unknown key the object's type is not known: the result is the
///   dynamic value (as the spec says of `for` expressions).
///   SPEC-GAP(spec-notes/gaps/expr-object-key-expressions.md)
/// - Two elements with the same name give the attribute once, with the
///   later element's value (the spec is silent on constructors; this is
///   hashicorp/hcl's behavior).
///   SPEC-GAP(spec-notes/gaps/expr-object-duplicate-keys.md)
///
/// The object's tree and names are paid for from the evaluation budget,
/// as its values are.
///
/// Spec: hclsyntax-spec.md § Collection Values
#[inline(never)] // see `eval`
pub(super) fn eval_object<'a>(object: Object<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    scope.charge(tree_bytes::<Value>(object.items.len()), object.span)?;
    let mut attributes: BTreeMap<String, Value> = BTreeMap::new();
    let mut unknown = false;
    for item in object.items {
        let name = match item.key {
            ObjectKey::Name { name, span } => {
                scope.charge(text_bytes(name.len()), span)?;
                Some(nfc(name))
            }
            ObjectKey::Expression(key) => {
                if is_bare_reference(key) {
                    return Err(Problem::new(
                        key.span(),
                        "Ambiguous attribute key",
                        "A key that is a reference with attribute or index steps must be \
                         written in parentheses to be evaluated, or quoted to be a literal name.",
                    ));
                }
                let key_value = eval(key, scope)?;
                attribute_name(&key_value, key.span(), scope)?
            }
        };
        let value = eval(item.value, scope)?;
        let value = scope.owned(value, item.value.span())?;
        match name {
            None => unknown = true,
            // SPEC-GAP(spec-notes/gaps/expr-object-duplicate-keys.md)
            Some(name) => {
                attributes.insert(name, value);
            }
        }
    }
    if unknown {
        return Ok(Cow::Owned(dynamic_value()));
    }
    Ok(Cow::Owned(Value::Object(attributes)))
}

/// Whether a key is a variable followed by attribute accesses or constant
/// index steps (a static traversal with more than one step), unparenthesized.
/// SPEC-GAP(spec-notes/gaps/expr-object-key-expressions.md)
///
/// Spec: hclsyntax-spec.md § Collection Values
fn is_bare_reference(key: Expression<'_>) -> bool {
    let mut current = key;
    let mut steps = 0usize;
    loop {
        match current.kind() {
            ExpressionKind::Variable(_) => return steps > 0,
            ExpressionKind::GetAttr(get_attr) => current = get_attr.object,
            ExpressionKind::Index(index) => {
                if constant_index_key(index.key).is_none() {
                    return false;
                }
                current = index.collection;
            }
            _ => return false,
        }
        steps += 1;
    }
}

/// The attribute name a key value gives: the value converted to a string
/// (a string copied), paid for from the evaluation budget; `None` when it
/// is unknown. Shared with object `for` expressions.
/// SPEC-GAP(spec-notes/gaps/for-object-keys.md)
pub(super) fn attribute_name(
    key: &Value,
    span: Span,
    scope: &Scope<'_>,
) -> Result<Option<String>, Problem> {
    match key {
        Value::Null(_) => Err(Problem::new(
            span,
            "Null value as key",
            "A null value cannot be used as an attribute name.",
        )),
        Value::String(name) => {
            scope.charge(text_bytes(name.len()), span)?;
            Ok(Some(name.clone()))
        }
        _ => match convert(key, &Type::String, scope.budget()) {
            Ok(converted) => Ok(converted.value.into_string().ok()),
            Err(error) => Err(scope.failure(span, || {
                Problem::new(
                    span,
                    "Incorrect key type",
                    format!("This value cannot be an attribute name: {}.", error.summary),
                )
            })),
        },
    }
}
