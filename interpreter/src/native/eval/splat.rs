//! The splat operators.
//!
//! Spec: hclsyntax-spec.md § Splat Operators
//!
//! Both operators evaluate the same way: the traversal after the `*`
//! (`Splat::each`) is applied to every element. They differ only in which
//! operators the parser puts in that traversal: `tuple.*.foo.bar[0]` "is
//! approximately equivalent to `[for v in tuple: v.foo.bar][0]`", and
//! `tuple[*].foo.bar[0]` to `[for v in tuple: v.foo.bar[0]]`.

use super::{dynamic_value, eval, Evaluated, Scope};
use crate::budget::sequence_bytes;
use crate::convert::convert;
use crate::native::ast::Splat;
use crate::native::Problem;
use crate::types::Type;
use crate::value::Value;
use std::borrow::Cow;

/// Applies the splat's traversal to one element.
fn each<'a>(splat: &Splat<'a>, scope: &Scope<'a>, item: &Value) -> Result<Value, Problem> {
    let child = scope.splat_item_scope(item);
    let v = eval(splat.each, &child)?;
    child.owned(v, splat.each.span())
}

/// The type the traversal gives an element of type `ty`: the traversal
/// applied to the unknown value of that type (a copy of the type, paid for
/// from the evaluation budget).
fn each_type<'a>(splat: &Splat<'a>, scope: &Scope<'a>, ty: &Type) -> Result<Type, Problem> {
    scope.charge_type(ty, splat.span)?;
    each(splat, scope, &Value::Unknown(ty.clone())).map(|v| v.ty())
}

/// Evaluates a splat operator.
///
/// - The traversal is applied to each element of a tuple, list or set, in
///   order. A tuple gives a tuple; a list or a set gives a list (the spec
///   says "approximately equivalent" to a `for` expression, which would
///   give a tuple; the list is hashicorp/hcl's).
///   SPEC-GAP(spec-notes/gaps/expr-splat-result-type.md)
/// - "if a splat operator is applied to a value that is _not_ of tuple,
///   list, or set type, the value is coerced automatically into a
///   single-value list of the value type": `any_object.*.id` is
///   `[any_object.id]`, a one-element tuple.
/// - "If applied to a null value that is not tuple, list, or set, the result
///   is always an empty tuple [...] It is illegal to apply a splat operator
///   to a null value of tuple, list, or set type."
/// - An unknown list, set or tuple gives an unknown result of the type the
///   traversal gives its elements. An unknown value of another type could
///   be null, so the number of elements is not known: the result is the
///   dynamic value (after the traversal is checked against it).
///
/// The results are paid for from the evaluation budget, as the values the
/// traversal builds are.
///
/// Spec: hclsyntax-spec.md § Splat Operators
#[inline(never)] // see `eval`
pub(super) fn eval_splat<'a>(splat: Splat<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    let splat = &splat;
    let source = eval(splat.source, scope)?;
    #[cfg(feature = "planted-bugs")]
    let _in_progress = crate::planted::nested_splat_null(&source);
    let results_for = |length: usize| -> Result<Vec<Value>, Problem> {
        scope.charge(sequence_bytes::<Value>(length), splat.span)?;
        Ok(Vec::with_capacity(length))
    };
    let result = match &*source {
        Value::Null(Type::List(_) | Type::Set(_) | Type::Tuple(_)) => {
            return Err(Problem::new(
                splat.source.span(),
                "Splat of null value",
                "Splat expressions (with the * symbol) cannot be applied to null sequences.",
            ))
        }
        Value::Null(_) => Value::Tuple(Vec::new()),
        Value::Unknown(Type::Dynamic) => dynamic_value(),
        Value::List(ty, items) | Value::Set(ty, items) => {
            let mut results = results_for(items.len())?;
            for item in items {
                results.push(each(splat, scope, item)?);
            }
            list_of(splat, scope, ty, results)?
        }
        Value::Tuple(items) => {
            let mut results = results_for(items.len())?;
            for item in items {
                results.push(each(splat, scope, item)?);
            }
            Value::Tuple(results)
        }
        Value::Unknown(Type::List(ty) | Type::Set(ty)) => {
            Value::Unknown(Type::list(each_type(splat, scope, ty)?))
        }
        Value::Unknown(Type::Tuple(types)) => {
            scope.charge(sequence_bytes::<Type>(types.len()), splat.span)?;
            let mut results = Vec::with_capacity(types.len());
            for ty in types {
                results.push(each_type(splat, scope, ty)?);
            }
            Value::Unknown(Type::Tuple(results))
        }
        Value::Unknown(_) => {
            each(splat, scope, &source)?;
            dynamic_value()
        }
        single => {
            let mut results = results_for(1)?;
            results.push(each(splat, scope, single)?);
            Value::Tuple(results)
        }
    };
    #[cfg(feature = "planted-bugs")]
    let result = crate::planted::splat_null_one(&source, result);
    Ok(Cow::Owned(result))
}

/// A list of the traversal's results over a list or set whose elements
/// have type `element`; the type of an empty list is the one the traversal
/// gives `element`.
///
/// The results share one type, except where a nested splat wraps values
/// that are not sequences: it gives a null the empty tuple, any other
/// value a one-element tuple, and an unknown value the dynamic value. A
/// list holds one element type, and the spec, which calls a splat
/// "approximately equivalent" to a `for` expression, does not say what
/// such a list would be, so results of different types are an error, as
/// hashicorp/hcl reports them; results of the dynamic pseudo-type (a null
/// or the unknown value) take the others' type. SPEC-GAP(spec-notes/gaps/expr-splat-nested-element-types.md)
///
/// The results' types, and the conversions, are paid for from the
/// evaluation budget.
fn list_of<'a>(
    splat: &Splat<'a>,
    scope: &Scope<'a>,
    element: &Type,
    results: Vec<Value>,
) -> Result<Value, Problem> {
    if results.is_empty() {
        return Ok(Value::List(each_type(splat, scope, element)?, Vec::new()));
    }
    scope.charge(sequence_bytes::<Type>(results.len()), splat.span)?;
    let mut types = Vec::with_capacity(results.len());
    for result in &results {
        let ty = result.ty();
        scope.charge_type(&ty, splat.span)?;
        types.push(ty);
    }
    let mut known = types.iter().filter(|ty| **ty != Type::Dynamic);
    let Some(shared) = known.next().cloned() else {
        return Ok(Value::List(Type::Dynamic, results));
    };
    if let Some(other) = known.find(|ty| **ty != shared) {
        return Err(Problem::new(
            splat.marker_span.to(splat.span),
            "Inconsistent splat result types",
            format!(
                "The splat gives its elements values of different types ({} and {}), and a list holds values of one type; a for expression, whose result is a tuple, can hold both.",
                shared, other
            ),
        ));
    }
    if types.iter().all(|ty| *ty == shared) {
        return Ok(Value::List(shared, results));
    }
    scope.charge(sequence_bytes::<Value>(results.len()), splat.span)?;
    let mut converted = Vec::with_capacity(results.len());
    for result in &results {
        // A null or the unknown value: it converts to every type.
        let v = convert(result, &shared, scope.budget()).map_err(|d| {
            scope.failure(splat.span, || {
                Problem::new(splat.span, "Inconsistent splat result types", d.summary)
            })
        })?;
        converted.push(v.value);
    }
    Ok(Value::List(shared, converted))
}
