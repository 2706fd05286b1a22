//! Type unification.
//!
//! Spec: spec.md § Type Unification
//!
//! Written from the spec's prose where it decides: number and bool meet at
//! string, the dynamic pseudo-type gives way to the other types, two object
//! types unify to the union of their attributes, a list and a set to a list.
//! Between a collection and a structural type the prose contradicts itself
//! ("Map and object types unify by preferring the object type", "List, set
//! and tuple types unify by preferring the tuple type", yet "preference is
//! given to _safe_ conversions" over a lattice of supertypes, and only
//! object to map and tuple to list are safe). There this module gives
//! hashicorp/hcl's result (go-cty 1.12.1, checked against it, not copied
//! from it): maps and objects unify to a map, lists and tuples to a list,
//! sets and tuples to a set, tuples of different lengths to a list.
//! SPEC-GAP(spec-notes/gaps/unify-map-and-object.md)
//! SPEC-GAP(spec-notes/gaps/unify-list-and-tuple.md)

use crate::convert::conversion_safety;
use crate::diagnostic::{shown, Diagnostic, Phase};
use crate::types::Type;
use std::collections::{BTreeMap, BTreeSet};

/// Finds the single type that all of `types` convert to.
///
/// "The dynamic pseudo-type unifies with any other type by selecting that
/// other type. The dynamic pseudo-type is the result type only if _all_ input
/// types are the dynamic pseudo-type." Inputs of one family of collections
/// unify to one collection ([`one_collection`]); other types are combined
/// pairwise by [`unify_pair`], whose rules "apply transitively"; finally
/// "unification fails if any of the given types are not convertable (per the
/// above rules) to the selected result type."
///
/// Spec: spec.md § Type Unification
pub fn unify(types: &[Type]) -> Result<Type, Diagnostic> {
    if types.is_empty() {
        return Err(unification_error("there are no types to unify"));
    }
    unify_types(types).map_err(unification_error)
}

fn unification_error(why: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Phase::Unification, why.into(), "")
}

/// [`unify`] of a non-empty list of types, failing with the reason.
fn unify_types(types: &[Type]) -> Result<Type, String> {
    let known: Vec<&Type> = types.iter().filter(|ty| **ty != Type::Dynamic).collect();
    let Some(first) = known.first() else {
        return Ok(Type::Dynamic);
    };
    if let Some(collection) = one_collection(&known)? {
        return all_convert(types, collection);
    }
    // Pairwise unification depends on the order of the inputs when an
    // object union widens attributes that a later input adds. The rules
    // "apply transitively", so the result is unified again with every input
    // until it no longer changes: each round can only make the result more
    // general, and a type has finitely many parts to generalize.
    let mut result = (*first).clone();
    for round in 0.. {
        let mut next = result.clone();
        for ty in &known {
            next = unify_pair(&next, ty)
                .ok_or_else(|| format!("{} and {} have no common type", shown(&next), shown(ty)))?;
        }
        if next == result {
            break;
        }
        if round > known.len() * 4 + 16 {
            return Err("unification does not settle on a type".to_string());
        }
        result = next;
    }
    all_convert(types, result)
}

/// "unification fails if any of the given types are not convertable (per
/// the above rules) to the selected result type."
fn all_convert(types: &[Type], result: Type) -> Result<Type, String> {
    match types
        .iter()
        .find(|ty| conversion_safety(ty, &result).is_none())
    {
        Some(unconvertible) => Err(format!("{unconvertible} does not convert to {result}")),
        None => Ok(result),
    }
}

/// The one collection type that a family of collection and structural types
/// unifies to, or `None` when the inputs are no such family:
/// - maps, with or without objects: a map;
/// - lists, with or without sets and tuples: a list;
/// - sets, with or without tuples: a set;
/// - tuples of different lengths: a list.
///
/// "Two collection types of the same kind unify according to the
/// unification of their element types", and "List and set types unify by
/// preferring the list type". The structural types among them are read as
/// one collection whose element type is the unification of all their
/// attribute or element types (none when they have none), all at once, as
/// hashicorp/hcl reads them: "preferring the object type" and "preferring
/// the tuple type" contradict the preference for safe conversions, under
/// which only object to map and tuple to list or set are safe, and no rule
/// covers tuples of different lengths.
/// SPEC-GAP(spec-notes/gaps/unify-map-and-object.md)
/// SPEC-GAP(spec-notes/gaps/unify-list-and-tuple.md)
///
/// Spec: spec.md § Type Unification
fn one_collection(types: &[&Type]) -> Result<Option<Type>, String> {
    let (mut maps, mut objects, mut lists, mut sets) = (0, 0, 0, 0);
    let mut tuple_lengths = BTreeSet::new();
    let mut elements: Vec<Type> = Vec::new();
    let mut parts: Vec<Type> = Vec::new();
    for ty in types {
        match ty {
            Type::Map(element) => {
                maps += 1;
                elements.push((**element).clone());
            }
            Type::List(element) => {
                lists += 1;
                elements.push((**element).clone());
            }
            Type::Set(element) => {
                sets += 1;
                elements.push((**element).clone());
            }
            Type::Object(attributes) => {
                objects += 1;
                parts.extend(attributes.values().cloned());
            }
            Type::Tuple(own) => {
                tuple_lengths.insert(own.len());
                parts.extend(own.iter().cloned());
            }
            _ => return Ok(None),
        }
    }
    // Maps or objects among lists, sets or tuples make a collection type
    // that they do not convert to, which `all_convert` then rejects.
    let collection: fn(Type) -> Type = if maps > 0 && maps + objects == types.len() {
        Type::map
    } else if lists > 0 {
        Type::list
    } else if sets > 0 {
        Type::set
    } else if tuple_lengths.len() > 1 {
        Type::list
    } else {
        return Ok(None);
    };
    if !parts.is_empty() {
        elements.push(unify_types(&parts)?);
    }
    Ok(Some(collection(unify_types(&elements)?)))
}

/// The most general type two types both convert to, for the types that are
/// no family of collections ([`one_collection`]): primitive types, objects,
/// tuples of one length.
///
/// Spec: spec.md § Type Unification
fn unify_pair(a: &Type, b: &Type) -> Option<Type> {
    use Type::*;
    let unified = match (a, b) {
        // (unify_types leaves the dynamic pseudo-type out before it pairs
        // types.)
        _ if a == b => a.clone(),

        // "Number and bool types both unify with string by preferring
        // string." Applied transitively, number and bool meet at string.
        // SPEC-GAP(spec-notes/gaps/unify-number-bool.md)
        (String, Number | Bool) | (Number | Bool, String) | (Number, Bool) | (Bool, Number) => {
            String
        }

        // "Two object types unify by constructing a new type whose attributes
        // are the union of those of the two input types. Any common
        // attributes themselves have their types unified."
        (Object(x), Object(y)) => {
            let mut union: BTreeMap<std::string::String, Type> = x.clone();
            for (name, ty) in y {
                let merged = match x.get(name) {
                    Some(other) => unify_types(&[other.clone(), ty.clone()]).ok()?,
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
                .map(|(p, q)| unify_types(&[p.clone(), q.clone()]).ok())
                .collect::<Option<_>>()?,
        ),

        _ => return None,
    };
    Some(unified)
}
