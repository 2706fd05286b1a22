//! Type unification.
//!
//! Spec: spec.md § Type Unification
//!
//! Written from the spec's prose, not from go-cty: the spec builds the union
//! of object types and prefers object over map and tuple over list, where
//! go-cty prefers map and list and needs identical attribute sets.
//! SPEC-GAP(spec-notes/gaps/unify-map-and-object.md)

use crate::convert::conversion_safety;
use crate::diagnostic::{Diagnostic, Phase};
use crate::types::Type;
use std::collections::BTreeMap;

/// Finds the single type that all of `types` convert to.
///
/// "The dynamic pseudo-type unifies with any other type by selecting that
/// other type. The dynamic pseudo-type is the result type only if _all_ input
/// types are the dynamic pseudo-type." The other types are combined pairwise
/// by [`unify_pair`], whose rules "apply transitively"; finally "unification
/// fails if any of the given types are not convertable (per the above rules)
/// to the selected result type."
///
/// Spec: spec.md § Type Unification
pub fn unify(types: &[Type]) -> Result<Type, Diagnostic> {
    let fail = |why: String| Diagnostic::new(Phase::Unification, why, "");
    if types.is_empty() {
        return Err(fail("there are no types to unify".to_string()));
    }
    let Some(first) = types.iter().find(|ty| **ty != Type::Dynamic) else {
        return Ok(Type::Dynamic);
    };
    // Pairwise unification depends on the order of the inputs when a map
    // or a list widens attributes or elements that a later input adds (a map
    // of strings with `object({a = number})` and `object({b = bool})`). The
    // rules "apply transitively", so the result is unified again with every
    // input until it no longer changes: each round can only make the result
    // more general, and a type has finitely many parts to generalize.
    let mut result = first.clone();
    for round in 0.. {
        let mut next = result.clone();
        for ty in types.iter().filter(|ty| **ty != Type::Dynamic) {
            next = unify_pair(&next, ty)
                .ok_or_else(|| fail(format!("{next} and {ty} have no common type")))?;
        }
        if next == result {
            break;
        }
        if round > types.len() * 4 + 16 {
            return Err(fail("unification does not settle on a type".to_string()));
        }
        result = next;
    }
    if let Some(unconvertible) = types
        .iter()
        .find(|ty| conversion_safety(ty, &result).is_none())
    {
        return Err(fail(format!(
            "{unconvertible} does not convert to {result}"
        )));
    }
    Ok(result)
}

/// The most general type two types both convert to, by the spec's rules.
///
/// Spec: spec.md § Type Unification
pub fn unify_pair(a: &Type, b: &Type) -> Option<Type> {
    use Type::*;
    let unified = match (a, b) {
        _ if a == b => a.clone(),
        (Dynamic, other) | (other, Dynamic) => other.clone(),

        // "Number and bool types both unify with string by preferring
        // string." Applied transitively, number and bool meet at string.
        // SPEC-GAP(spec-notes/gaps/unify-number-bool.md)
        (String, Number | Bool) | (Number | Bool, String) | (Number, Bool) | (Bool, Number) => {
            String
        }

        // "Two collection types of the same kind unify according to the
        // unification of their element types."
        (List(x), List(y)) => Type::list(unify_pair(x, y)?),
        (Set(x), Set(y)) => Type::set(unify_pair(x, y)?),
        (Map(x), Map(y)) => Type::map(unify_pair(x, y)?),

        // "List and set types unify by preferring the list type."
        (List(x), Set(y)) | (Set(x), List(y)) => Type::list(unify_pair(x, y)?),

        // "Map and object types unify by preferring the object type." Each
        // attribute must also hold the map's elements.
        (Map(element), Object(attributes)) | (Object(attributes), Map(element)) => Object(
            attributes
                .iter()
                .map(|(name, ty)| Some((name.clone(), unify_pair(element, ty)?)))
                .collect::<Option<_>>()?,
        ),

        // "List, set and tuple types unify by preferring the tuple type."
        (List(element) | Set(element), Tuple(elements))
        | (Tuple(elements), List(element) | Set(element)) => Tuple(
            elements
                .iter()
                .map(|ty| unify_pair(element, ty))
                .collect::<Option<_>>()?,
        ),

        // "Two object types unify by constructing a new type whose attributes
        // are the union of those of the two input types. Any common
        // attributes themselves have their types unified."
        (Object(x), Object(y)) => {
            let mut union: BTreeMap<std::string::String, Type> = x.clone();
            for (name, ty) in y {
                let merged = match x.get(name) {
                    Some(other) => unify_pair(other, ty)?,
                    None => ty.clone(),
                };
                union.insert(name.clone(), merged);
            }
            Object(union)
        }

        // "Two tuple types of the same length unify constructing a new type of
        // the same length whose elements are the unification of the
        // corresponding elements in the two input types."
        (Tuple(x), Tuple(y)) if x.len() == y.len() => Tuple(
            x.iter()
                .zip(y)
                .map(|(p, q)| unify_pair(p, q))
                .collect::<Option<_>>()?,
        ),

        _ => return None,
    };
    Some(unified)
}
