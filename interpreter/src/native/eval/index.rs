//! The index operator and the attribute access operator.
//!
//! Spec: hclsyntax-spec.md § Index Operator, § Attribute Access Operator

use super::{dynamic_value, eval, Evaluated, Scope};
use crate::convert::convert;
use crate::diagnostic::quoted;
use crate::native::ast::{GetAttr, Index};
use crate::native::Problem;
use crate::source::Span;
use crate::types::Type;
use crate::value::{is_nfc, nfc, Value};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Evaluates `collection[key]` (or the legacy `collection.0`).
///
/// Spec: hclsyntax-spec.md § Index Operator
#[inline(never)] // see `eval`
pub(super) fn eval_index<'a>(index: Index<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    let collection = eval(index.collection, scope)?;
    let key = eval(index.key, scope)?;
    index_value(collection, &key, index.operator_span, scope)
}

/// Evaluates `object.name`.
///
/// Spec: hclsyntax-spec.md § Attribute Access Operator
#[inline(never)] // see `eval`
pub(super) fn eval_get_attr<'a>(get_attr: GetAttr<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    let object = eval(get_attr.object, scope)?;
    attribute(object, get_attr.name, get_attr.operator_span, scope)
}

/// The element at `index` of a list or tuple: borrowed when the collection
/// is, moved out of it (not copied) when it is owned.
fn element(collection: Cow<'_, Value>, index: usize) -> Option<Cow<'_, Value>> {
    match collection {
        Cow::Borrowed(Value::List(_, elements) | Value::Tuple(elements)) => {
            elements.get(index).map(Cow::Borrowed)
        }
        Cow::Owned(owned @ (Value::List(..) | Value::Tuple(_))) => {
            let mut elements = owned.into_elements().ok()?;
            (index < elements.len()).then(|| Cow::Owned(elements.swap_remove(index)))
        }
        _ => None,
    }
}

/// The attribute or element `name` of an object or map: borrowed when the
/// value is, moved out of it when it is owned.
fn entry<'a>(mapping: Cow<'a, Value>, name: &str) -> Option<Cow<'a, Value>> {
    match mapping {
        Cow::Borrowed(Value::Map(_, entries) | Value::Object(entries)) => {
            lookup(entries, name).map(Cow::Borrowed)
        }
        Cow::Owned(owned @ (Value::Map(..) | Value::Object(_))) => {
            let mut entries = owned.into_entries().ok()?;
            let entry = if is_nfc(name) {
                entries.remove(name)
            } else {
                entries.remove(&nfc(name))
            };
            entry.map(Cow::Owned)
        }
        _ => None,
    }
}

/// Looks an attribute name up among NFC-normalized names.
/// Names in the source are not normalized, but attribute names, being
/// strings, compare in NFC.
/// SPEC-GAP(spec-notes/gaps/lexical-unicode-normalization.md)
fn lookup<'m, T>(entries: &'m BTreeMap<String, T>, name: &str) -> Option<&'m T> {
    if is_nfc(name) {
        entries.get(name)
    } else {
        entries.get(&nfc(name))
    }
}

/// The index operator applied to values.
///
/// - "It is a postfix operator and can be applied to any value that has a
///   tuple, object, map, or list type."
/// - "If the index operator is applied to a value of tuple or list type, the
///   key expression must be an non-negative integer number [...] If applied
///   to a value of object or map type, the key expression must be a string
///   [...] If the given key value is not of the appropriate type, a
///   conversion is attempted". So `obj[1]` looks up the attribute `"1"`,
///   where hashicorp/hcl rejects a number as an object key.
///   SPEC-GAP(spec-notes/gaps/expr-index-object-numeric-key.md)
/// - "An error is produced if the given key expression does not correspond
///   to an element in the collection, either because it is of an
///   unconvertable type, because it is outside the range of elements for a
///   tuple or list, or because the given attribute or key does not exist."
/// - "If either the collection or the key are an unknown value of an
///   otherwise-suitable type, the return value is an unknown value whose
///   type matches what type would be returned given known values, or a value
///   of the dynamic pseudo-type if type information alone cannot determine a
///   suitable return type."
///   SPEC-GAP(spec-notes/gaps/expr-index-unknown-result-type.md)
///
/// A null collection or a null key is an error. The conversion of the key
/// and the types of an unknown result are paid for from the evaluation
/// budget.
///
/// Spec: hclsyntax-spec.md § Index Operator
pub(super) fn index_value<'a>(
    collection: Cow<'a, Value>,
    key: &Value,
    span: Span,
    scope: &Scope<'_>,
) -> Evaluated<'a> {
    let invalid = |detail: String| Problem::new(span, "Invalid index", detail);
    if collection.is_null() {
        return Err(Problem::new(
            span,
            "Attempt to index null value",
            "This value is null, so it does not have any indices.",
        ));
    }
    if key.is_null() {
        return Err(invalid(
            "A null value cannot be used as an index key.".into(),
        ));
    }
    let unknown = |ty: Type| {
        scope.charge_type(&ty, span)?;
        Ok(Cow::Owned(Value::Unknown(ty)))
    };
    match &*collection {
        Value::Unknown(Type::Dynamic) => Ok(Cow::Owned(dynamic_value())),
        Value::List(..) | Value::Tuple(..) | Value::Unknown(Type::List(_) | Type::Tuple(_)) => {
            let index = sequence_index(key, span, scope)?;
            match (&*collection, index) {
                (Value::List(ty, _), None) => unknown(ty.clone()),
                (Value::Unknown(Type::List(ty)), _) => unknown((**ty).clone()),
                (Value::Tuple(elements), None) => {
                    unknown(common_type(elements.iter().map(Value::ty), span, scope)?)
                }
                (Value::Unknown(Type::Tuple(types)), None) => {
                    unknown(common_type(types.iter().cloned(), span, scope)?)
                }
                (Value::Unknown(Type::Tuple(types)), Some(i)) => match types.get(i) {
                    Some(ty) => unknown(ty.clone()),
                    None => Err(out_of_range(span, i, types.len())),
                },
                (_, Some(i)) => {
                    let length = match &*collection {
                        Value::List(_, elements) | Value::Tuple(elements) => elements.len(),
                        _ => 0,
                    };
                    element(collection, i).ok_or_else(|| out_of_range(span, i, length))
                }
                _ => Err(invalid("This value cannot be indexed.".into())),
            }
        }
        Value::Map(..) | Value::Object(..) | Value::Unknown(Type::Map(_) | Type::Object(_)) => {
            let name = mapping_key(key, span, scope)?;
            match (&*collection, name) {
                (Value::Map(ty, _), None) => unknown(ty.clone()),
                (Value::Unknown(Type::Map(ty)), _) => unknown((**ty).clone()),
                (Value::Object(attributes), None) => unknown(common_type(
                    attributes.values().map(Value::ty),
                    span,
                    scope,
                )?),
                (Value::Unknown(Type::Object(types)), None) => {
                    unknown(common_type(types.values().cloned(), span, scope)?)
                }
                (Value::Unknown(Type::Object(types)), Some(name)) => match lookup(types, &name) {
                    Some(ty) => unknown(ty.clone()),
                    None => Err(missing_key(span, &name)),
                },
                (_, Some(name)) => entry(collection, &name).ok_or_else(|| missing_key(span, &name)),
                _ => Err(invalid("This value cannot be indexed.".into())),
            }
        }
        other => Err(invalid(format!(
            "A value of type {} does not have any indices.",
            other.ty()
        ))),
    }
}

/// The type every element has, or the dynamic pseudo-type when they
/// differ (or there are none): "a value of the dynamic pseudo-type if type
/// information alone cannot determine a suitable return type". Each type
/// computed is paid for from the evaluation budget.
fn common_type(
    mut types: impl Iterator<Item = Type>,
    span: Span,
    scope: &Scope<'_>,
) -> Result<Type, Problem> {
    let Some(first) = types.next() else {
        return Ok(Type::Dynamic);
    };
    scope.charge_type(&first, span)?;
    for ty in types {
        scope.charge_type(&ty, span)?;
        if ty != first {
            return Ok(Type::Dynamic);
        }
    }
    Ok(first)
}

/// The key of a tuple or list converted to a non-negative integer; `None`
/// when it is unknown.
fn sequence_index(key: &Value, span: Span, scope: &Scope<'_>) -> Result<Option<usize>, Problem> {
    let invalid = |detail: String| Problem::new(span, "Invalid index", detail);
    let converted = convert(key, &Type::Number, scope.budget()).map_err(|e| {
        scope.failure(span, || {
            invalid(format!(
                "A tuple or list is indexed by a number: {}.",
                e.summary
            ))
        })
    })?;
    match &converted.value {
        Value::Number(n) => {
            if !n.is_integer() {
                return Err(invalid(
                    "The index of a tuple or list must be a whole number.".into(),
                ));
            }
            if n.signum() < 0 {
                return Err(invalid(
                    "A negative number is not a valid index of a tuple or list.".into(),
                ));
            }
            Ok(Some(
                n.to_i64()
                    .and_then(|i| usize::try_from(i).ok())
                    .unwrap_or(usize::MAX),
            ))
        }
        _ => Ok(None),
    }
}

/// The key of a map or object converted to a string; `None` when it is
/// unknown.
fn mapping_key(key: &Value, span: Span, scope: &Scope<'_>) -> Result<Option<String>, Problem> {
    match key {
        Value::String(name) => Ok(Some(name.clone())),
        _ => match convert(key, &Type::String, scope.budget()) {
            Ok(converted) => Ok(converted.value.into_string().ok()),
            Err(e) => Err(scope.failure(span, || {
                Problem::new(
                    span,
                    "Invalid index",
                    format!("A map or object is indexed by a string: {}.", e.summary),
                )
            })),
        },
    }
}

fn out_of_range(span: Span, index: usize, length: usize) -> Problem {
    Problem::new(
        span,
        "Invalid index",
        format!("The index {index} is out of range: the collection has {length} element(s)."),
    )
}

fn missing_key(span: Span, name: &str) -> Problem {
    Problem::new(
        span,
        "Invalid index",
        format!(
            "The collection has no element with the key {}.",
            quoted(name)
        ),
    )
}

/// The attribute access operator applied to a value.
///
/// - "It is a postfix operator and can be applied to any value that has an
///   object type." On a map it looks the name up as a key, like the index
///   operator (`m.a` is `m["a"]`), as in hashicorp/hcl.
///   SPEC-GAP(spec-notes/gaps/expr-attribute-access-on-maps.md)
/// - "An error is produced if the object to which the operator is applied
///   does not have an attribute with the given name."
/// - "If the object is an unknown value of a type that has the attribute
///   named, the result is an unknown value of the attribute's type." The
///   dynamic value gives the dynamic value.
///
/// A null object is an error.
///
/// Spec: hclsyntax-spec.md § Attribute Access Operator
pub(super) fn attribute<'a>(
    object: Cow<'a, Value>,
    name: &str,
    span: Span,
    scope: &Scope<'_>,
) -> Evaluated<'a> {
    let unsupported = |detail: String| Problem::new(span, "Unsupported attribute", detail);
    let missing = || {
        unsupported(format!(
            "This object does not have an attribute named {}.",
            quoted(name)
        ))
    };
    match &*object {
        Value::Null(_) => Err(Problem::new(
            span,
            "Attempt to get attribute from null value",
            "This value is null, so it does not have any attributes.",
        )),
        Value::Unknown(Type::Dynamic) => Ok(Cow::Owned(dynamic_value())),
        Value::Object(_) => entry(object, name).ok_or_else(missing),
        Value::Unknown(Type::Object(types)) => {
            let ty = lookup(types, name).ok_or_else(missing)?;
            scope.charge_type(ty, span)?;
            Ok(Cow::Owned(Value::Unknown(ty.clone())))
        }
        // SPEC-GAP(spec-notes/gaps/expr-attribute-access-on-maps.md)
        Value::Map(..) | Value::Unknown(Type::Map(_)) => {
            index_value(object, &Value::string(name), span, scope)
        }
        other => Err(unsupported(format!(
            "A value of type {} does not have any attributes.",
            other.ty()
        ))),
    }
}
