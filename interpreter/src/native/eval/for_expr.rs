//! `for` expressions, and the iteration they share with the template `for`
//! directive.
//!
//! Spec: hclsyntax-spec.md § For Expressions

use super::collection::attribute_name;
use super::operators::predicate;
use super::{dynamic_value, eval, Evaluated, Scope};
use crate::budget::{sequence_bytes, text_bytes, tree_bytes};
use crate::diagnostic::quoted;
use crate::native::ast::{Expression, ForExpr};
use crate::native::Problem;
use crate::number::Number;
use crate::source::Span;
use crate::types::Type;
use crate::value::Value;
use std::borrow::Cow;
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

/// The key and the value of each element of a collection, in visit order.
pub(super) type Elements<'v> = Vec<(Cow<'v, Value>, &'v Value)>;

/// The elements a `for` visits, or `None` when the collection is unknown.
///
/// "Tuple, object, list, map, and set types are iterable. The type of
/// collection used defines how the key and value variables are populated:
/// - For tuple and list types, the _key_ is the zero-based index into the
///   sequence for each element, and the _value_ is the element value. The
///   elements are visited in index order.
/// - For object and map types, the _key_ is the string attribute name or
///   element key, and the _value_ is the attribute or element value. The
///   elements are visited in the order defined by a lexicographic sort of
///   the attribute names or keys.
/// - For set types, the _key_ and _value_ are both the element value. The
///   elements are visited in an undefined but consistent order."
///
/// Names and keys are kept sorted by code point, which is the
/// lexicographic order (SPEC-GAP(spec-notes/gaps/for-key-order.md)); sets
/// keep their canonical order. A null collection is an error, as is any
/// other type; an unknown collection of an iterable type (or of the dynamic
/// pseudo-type) has no elements to visit yet. The list of elements, and
/// the keys made for a map or an object, are paid for from the evaluation
/// budget: each visit costs something, even of a body that builds nothing.
///
/// Spec: hclsyntax-spec.md § For Expressions
pub(super) fn elements<'v>(
    collection: &'v Value,
    span: Span,
    scope: &Scope<'_>,
) -> Result<Option<Elements<'v>>, Problem> {
    let index = |i: usize| Cow::Owned(Value::Number(Number::from_i64(i as i64)));
    let name = |k: &String| Cow::Owned(Value::String(k.clone()));
    let length = match collection {
        Value::List(_, items) | Value::Tuple(items) | Value::Set(_, items) => items.len(),
        Value::Map(_, entries) | Value::Object(entries) => entries.len(),
        _ => 0,
    };
    scope.charge(sequence_bytes::<(Cow<'v, Value>, &'v Value)>(length), span)?;
    Ok(Some(match collection {
        Value::List(_, items) | Value::Tuple(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (index(i), v))
            .collect(),
        Value::Map(_, entries) | Value::Object(entries) => {
            let mut keys = Vec::with_capacity(entries.len());
            for (k, v) in entries {
                scope.charge(text_bytes(k.len()), span)?;
                keys.push((name(k), v));
            }
            keys
        }
        Value::Set(_, items) => items.iter().map(|v| (Cow::Borrowed(v), v)).collect(),
        Value::Null(_) => {
            return Err(Problem::new(
                span,
                "Iteration over null value",
                "A null value cannot be used as the collection in a 'for' expression.",
            ))
        }
        Value::Unknown(
            Type::Dynamic
            | Type::List(_)
            | Type::Tuple(_)
            | Type::Map(_)
            | Type::Object(_)
            | Type::Set(_),
        ) => return Ok(None),
        _ => {
            return Err(Problem::new(
                span,
                "Iteration over non-iterable value",
                format!(
                    "A value of type {} cannot be used as the collection in a 'for' expression.",
                    collection.ty()
                ),
            ))
        }
    }))
}

/// Evaluates a `for` expression.
///
/// - "The expression after the colon and (in the case of object `for`) the
///   expression after the `=>` are both evaluated once for each element of
///   the source collection, in a local scope that defines the key and value
///   variable names specified."
/// - "In the case of tuple `for`, the single expression becomes an element,
///   appending values to the tuple in visit order. In the case of object
///   `for`, the pair of expressions is used as an attribute name and value
///   respectively".
/// - "it is an error if two input elements produce the same result from the
///   attribute name expression [...] If the ellipsis symbol (`...`) appears
///   immediately after the value expression, this activates the grouping
///   mode in which each value in the resulting object is a _tuple_ of all of
///   the values that were produced against each distinct key."
/// - The `if` expression "must evaluate to a boolean value; if `true`, the
///   element will be evaluated as normal, while if `false` the element will
///   be skipped."
/// - "If the collection value, element expression(s) or condition
///   expression return unknown values that are otherwise type-valid, the
///   result is a value of the dynamic pseudo-type": an element whose key,
///   value or condition is unknown makes the whole result the dynamic
///   value (hashicorp/hcl keeps an unknown value as an element).
///   SPEC-GAP(spec-notes/gaps/for-unknown-results.md) Every element is
///   still evaluated, so that errors are reported.
///
/// The result is paid for from the evaluation budget as it grows: the
/// tuple's room, the object's tree and the groups' tuples, as its elements
/// and names are.
///
/// Spec: hclsyntax-spec.md § For Expressions
#[inline(never)] // see `eval`
pub(super) fn eval_for_expr<'a>(for_expr: ForExpr<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    let collection = eval(for_expr.collection, scope)?;
    let Some(elements) = elements(&collection, for_expr.collection.span(), scope)? else {
        return Ok(Cow::Owned(dynamic_value()));
    };
    let mut produced = Produced::default();
    // Without a condition every element gives one: the tuple's room is
    // known.
    if for_expr.key.is_none() && for_expr.condition.is_none() {
        scope.charge(sequence_bytes::<Value>(elements.len()), for_expr.span)?;
        produced.tuple.reserve_exact(elements.len());
    }
    for (key, value) in &elements {
        let child = scope.iteration(
            for_expr.key_var.map(|k| (k.name, key.as_ref())),
            (for_expr.value_var.name, value),
        );
        match included(for_expr, &child)? {
            Some(true) => {}
            Some(false) => continue,
            None => {
                produced.unknown = true;
                continue;
            }
        }
        match for_expr.key {
            None => produced.element(for_expr, &child, scope)?,
            Some(key) => produced.attribute(for_expr, key, &child, scope)?,
        }
    }
    Ok(Cow::Owned(produced.result(for_expr, scope)?))
}

/// Whether the `if` clause keeps the element visited in `child` (always,
/// without one): `None` when its condition is unknown.
fn included(for_expr: ForExpr<'_>, child: &Scope<'_>) -> Result<Option<bool>, Problem> {
    let Some(condition) = for_expr.condition else {
        return Ok(Some(true));
    };
    let included = eval(condition, child)?;
    predicate(&included, condition.span(), "'for' condition", child)
}

/// What a `for` expression has produced so far: the elements of a tuple
/// `for`, or the attributes (or groups of them) of an object `for`.
#[derive(Default)]
struct Produced {
    /// Whether an element's key, value or condition was unknown.
    unknown: bool,
    tuple: Vec<Value>,
    object: BTreeMap<String, Value>,
    groups: BTreeMap<String, Vec<Value>>,
}

impl Produced {
    /// Tuple `for`: "the single expression becomes an element, appending
    /// values to the tuple in visit order".
    fn element<'c>(
        &mut self,
        for_expr: ForExpr<'c>,
        child: &Scope<'c>,
        scope: &Scope<'_>,
    ) -> Result<(), Problem> {
        let element = eval(for_expr.value, child)?;
        let element = child.owned(element, for_expr.value.span())?;
        self.unknown |= element.is_unknown();
        scope.push(&mut self.tuple, element, for_expr.value.span())
    }

    /// Object `for`: "the pair of expressions is used as an attribute name
    /// and value respectively", an error for a name produced twice unless
    /// grouping gathers the values of each name.
    fn attribute<'c>(
        &mut self,
        for_expr: ForExpr<'c>,
        key: Expression<'c>,
        child: &Scope<'c>,
        scope: &Scope<'_>,
    ) -> Result<(), Problem> {
        let key_value = eval(key, child)?;
        let name = attribute_name(&key_value, key.span(), scope)?;
        let element = eval(for_expr.value, child)?;
        let element = child.owned(element, for_expr.value.span())?;
        self.unknown |= element.is_unknown();
        let Some(name) = name else {
            self.unknown = true;
            return Ok(());
        };
        if for_expr.grouping {
            let entries = self.groups.len();
            let group = match self.groups.entry(name) {
                Entry::Occupied(group) => group.into_mut(),
                Entry::Vacant(vacant) => {
                    scope.charge(entry_bytes(entries), key.span())?;
                    vacant.insert(Vec::new())
                }
            };
            return scope.push(group, element, for_expr.value.span());
        }
        #[cfg(feature = "planted-bugs")]
        let Some(element) = crate::planted::object_for_duplicate(&mut self.object, &name, element) else {
            return Ok(());
        };
        let entries = self.object.len();
        match self.object.entry(name) {
            Entry::Vacant(vacant) => {
                scope.charge(entry_bytes(entries), key.span())?;
                vacant.insert(element);
                Ok(())
            }
            Entry::Occupied(occupied) => Err(Problem::new(
                key.span(),
                "Duplicate object key",
                format!(
                    "Two elements produced the key {} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to group them by key.",
                    quoted(occupied.key())
                ),
            )),
        }
    }

    /// The result: the dynamic value if anything was unknown, else the
    /// tuple, the object, or the object of the groups' tuples.
    fn result(self, for_expr: ForExpr<'_>, scope: &Scope<'_>) -> Result<Value, Problem> {
        Ok(if self.unknown {
            dynamic_value()
        } else if for_expr.key.is_none() {
            Value::Tuple(self.tuple)
        } else if for_expr.grouping {
            // The groups' tuples go into a tree of their own.
            scope.charge(tree_bytes::<Value>(self.groups.len()), for_expr.span)?;
            Value::Object(
                self.groups
                    .into_iter()
                    .map(|(name, values)| (name, Value::Tuple(values)))
                    .collect(),
            )
        } else {
            Value::Object(self.object)
        })
    }
}

/// The room one more entry of a map of `entries` entries takes.
fn entry_bytes(entries: usize) -> u64 {
    tree_bytes::<Value>(entries + 1) - tree_bytes::<Value>(entries)
}
