//! Which types convert to which, and how safely: the type-level half of the
//! conversion rules.
//!
//! Spec: spec.md § Type Conversions and Unification

use super::Safety;
use crate::types::Type;
use crate::unify::unify;

/// The safety of the conversion from `from` to `to`, or `None` when there is
/// no such conversion. `to` may contain the dynamic pseudo-type, which every
/// type converts to safely.
///
/// Long because it is one match over the table of conversions, each rule
/// beside the words of the spec that give it.
///
/// Spec: spec.md § Type Conversions and Unification and its subsections
pub fn conversion_safety(from: &Type, to: &Type) -> Option<Safety> {
    use Safety::{Safe, Unsafe};
    match (from, to) {
        (_, Type::Dynamic) | (Type::Dynamic, _) => Some(Safe),

        // "A given type can always be converted to itself, which is a no-op."
        // For a primitive type here; a collection or structural type
        // converts to itself by its kind's rule below, each of its parts to
        // itself, safely. (Comparing the two types whole first would compare
        // their parts again at every level below.)
        (Type::String, Type::String) | (Type::Number, Type::Number) | (Type::Bool, Type::Bool) => {
            Some(Safe)
        }

        // § Primitive Type Conversions
        (Type::Number, Type::String) | (Type::Bool, Type::String) => Some(Safe),
        (Type::String, Type::Number) | (Type::String, Type::Bool) => Some(Unsafe),

        // Same-kind collections convert element-wise.
        // SPEC-GAP(spec-notes/gaps/collection-element-conversion.md)
        (Type::List(a), Type::List(b))
        | (Type::Set(a), Type::Set(b))
        | (Type::Map(a), Type::Map(b)) => conversion_safety(a, b),

        // "Conversion from set types to list types is _safe_, as long as their
        // element types are safely convertable. If the element types are
        // _unsafely_ convertable, then the collection conversion is also
        // unsafe."
        (Type::Set(a), Type::List(b)) => conversion_safety(a, b),

        // "Conversion from list types to set types is _unsafe_, as long as
        // their element types are convertable."
        (Type::List(a), Type::Set(b)) => conversion_safety(a, b).map(|_| Unsafe),

        // "Conversion from tuple types to list types permitted if all of the
        // tuple element types are convertable to the target list element
        // type. The safety of the conversion depends on the safety of each of
        // the element conversions."
        (Type::Tuple(elements), Type::List(b)) => all_to(elements.iter(), b),

        // "Conversion from tuple types to set types is permitted, behaving as
        // if the tuple type was first converted to a list of the same element
        // type and then that list converted to the target set type."
        (Type::Tuple(elements), Type::Set(b)) => all_to(elements.iter(), b).map(|_| Unsafe),

        // "Conversion from object types to map types is permitted if all of
        // the object attribute types are convertable to the target map
        // element type. The safety of the conversion depends on the safety of
        // each of the attribute conversions."
        (Type::Object(attributes), Type::Map(b)) => all_to(attributes.values(), b),

        // "Conversion from list and set types to tuple types is permitted,
        // following the opposite steps as the converse conversions. Such
        // conversions are _unsafe_."
        (Type::List(a) | Type::Set(a), Type::Tuple(elements)) => {
            from_all(a, elements.iter()).map(|_| Unsafe)
        }

        // "Conversion from map types to object types is permitted if each map
        // key corresponds to an attribute in the target object type." Maps
        // with other keys have no object value, so the conversion is unsafe.
        // SPEC-GAP(spec-notes/gaps/map-to-object-conversion.md)
        (Type::Map(a), Type::Object(attributes)) => {
            from_all(a, attributes.values()).map(|_| Unsafe)
        }

        // "Conversion from one object type to another is permitted as long as
        // the common attribute names have convertable types. Any attribute
        // present in the target type but not in the source type is populated
        // with a null value of the appropriate type." Source attributes the
        // target lacks are dropped, which loses information.
        // SPEC-GAP(spec-notes/gaps/object-to-object-conversion.md)
        (Type::Object(source), Type::Object(target)) => {
            let mut safety = Safe;
            for (name, source_type) in source {
                safety = match target.get(name) {
                    Some(target_type) => safety.and(conversion_safety(source_type, target_type)?),
                    None => Unsafe,
                };
            }
            Some(safety)
        }

        // "Conversion from one tuple type to another is permitted as long as
        // the tuples have the same length and the elements have convertable
        // types."
        (Type::Tuple(source), Type::Tuple(target)) if source.len() == target.len() => {
            source.iter().zip(target).try_fold(Safe, |safety, (s, t)| {
                Some(safety.and(conversion_safety(s, t)?))
            })
        }

        _ => None,
    }
}

/// The combined safety of converting each of `types` to `to`.
fn all_to<'a>(mut types: impl Iterator<Item = &'a Type>, to: &Type) -> Option<Safety> {
    types.try_fold(Safety::Safe, |acc, ty| {
        Some(acc.and(conversion_safety(ty, to)?))
    })
}

/// The combined safety of converting `from` to each of `types`.
fn from_all<'a>(from: &Type, mut types: impl Iterator<Item = &'a Type>) -> Option<Safety> {
    types.try_fold(Safety::Safe, |acc, ty| {
        Some(acc.and(conversion_safety(from, ty)?))
    })
}

/// The concrete type that a value of type `from` becomes when converted to
/// the type specification `to`, or `None` when there is no conversion.
///
/// Where `to` has the dynamic pseudo-type, the source's type takes its place.
/// A collection has one element type, so where several source types meet one
/// dynamic element type (a tuple or object converted to `list(any)` or
/// `map(any)`), the element type is their unification.
///
/// Spec: spec.md § Type Specifications, § Collection and Structural Type
/// Conversions
pub fn resolve_target(from: &Type, to: &Type) -> Option<Type> {
    let resolved = if to.has_dynamic() {
        resolve_dynamic(from, to)?
    } else {
        to.clone()
    };
    conversion_safety(from, &resolved).map(|_| resolved)
}

fn resolve_dynamic(from: &Type, to: &Type) -> Option<Type> {
    let resolved = match (from, to) {
        (_, Type::Dynamic) => from.clone(),
        (Type::Dynamic, _) => to.clone(),
        (Type::List(a) | Type::Set(a), Type::List(e)) => Type::list(resolve_target(a, e)?),
        (Type::List(a) | Type::Set(a), Type::Set(e)) => Type::set(resolve_target(a, e)?),
        (Type::Map(a), Type::Map(e)) => Type::map(resolve_target(a, e)?),
        (Type::Tuple(elements), Type::List(e)) => Type::list(unify_resolved(elements.iter(), e)?),
        (Type::Tuple(elements), Type::Set(e)) => Type::set(unify_resolved(elements.iter(), e)?),
        (Type::Object(attributes), Type::Map(e)) => {
            Type::map(unify_resolved(attributes.values(), e)?)
        }
        (Type::List(a) | Type::Set(a), Type::Tuple(elements)) => Type::Tuple(
            elements
                .iter()
                .map(|t| resolve_target(a, t))
                .collect::<Option<_>>()?,
        ),
        (Type::Map(a), Type::Object(attributes)) => Type::Object(
            attributes
                .iter()
                .map(|(name, t)| Some((name.clone(), resolve_target(a, t)?)))
                .collect::<Option<_>>()?,
        ),
        (Type::Object(source), Type::Object(target)) => Type::Object(
            target
                .iter()
                .map(|(name, t)| match source.get(name) {
                    Some(s) => Some((name.clone(), resolve_target(s, t)?)),
                    None => Some((name.clone(), t.clone())),
                })
                .collect::<Option<_>>()?,
        ),
        (Type::Tuple(source), Type::Tuple(target)) if source.len() == target.len() => Type::Tuple(
            source
                .iter()
                .zip(target)
                .map(|(s, t)| resolve_target(s, t))
                .collect::<Option<_>>()?,
        ),
        _ => return None,
    };
    Some(resolved)
}

/// The one element type that values of each of `types` take in a collection
/// whose element type specification is `element`.
fn unify_resolved<'a>(types: impl Iterator<Item = &'a Type>, element: &Type) -> Option<Type> {
    let resolved: Vec<Type> = types
        .map(|t| resolve_target(t, element))
        .collect::<Option<_>>()?;
    if resolved.is_empty() {
        return Some(element.clone());
    }
    let unified = unify(&resolved).ok()?;
    unified.matches(element).then_some(unified)
}
