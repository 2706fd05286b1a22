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
//!
//! Many types unify in time near their total size: the rules for two
//! objects ("the union of those of the two input types") are applied to
//! all the objects at once, each attribute's types unified together
//! (`unify_objects`), rather than one object after the other into a
//! growing union; how an attribute's types are unified together,
//! `Fold` says.

use crate::convert::conversion_safety;
use crate::diagnostic::{shown, Diagnostic, Phase};
use crate::types::Type;
use std::collections::BTreeSet;

/// Finds the single type that all of `types` convert to.
///
/// "The dynamic pseudo-type unifies with any other type by selecting that
/// other type. The dynamic pseudo-type is the result type only if _all_ input
/// types are the dynamic pseudo-type." Inputs of one family of collections
/// unify to one collection ([`one_collection`]); primitive types, objects
/// and tuples of one length by the rules for two types ([`unify_alike`]),
/// which "apply transitively"; finally "unification fails if any of the
/// given types are not convertable (per the above rules) to the selected
/// result type."
///
/// Spec: spec.md § Type Unification
pub fn unify(types: &[Type]) -> Result<Type, Diagnostic> {
    if types.is_empty() {
        return Err(unification_error("there are no types to unify"));
    }
    let inputs: Vec<&Type> = types.iter().collect();
    unify_types(&inputs, Fold::for_inputs(&inputs)).map_err(unification_error)
}

fn unification_error(why: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Phase::Unification, why.into(), "")
}

/// How the types that one attribute (or tuple element) has in several
/// objects (or tuples) are unified.
///
/// "Two object types unify by constructing a new type whose attributes are
/// the union of those of the two input types. Any common attributes
/// themselves have their types unified." The rule names two types; for
/// more, it is applied "transitively", one input after the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fold {
    /// All of an attribute's types are unified together, at once.
    ///
    /// "In technical terms, all possible types are arranged into a lattice,
    /// from which a most general supertype is selected where possible."
    /// When the inputs hold no set type, or tuples of one length only, the
    /// rules of this module do arrange them so. Call a type below another
    /// when the rules would select the other for the two: the dynamic
    /// pseudo-type below every type, number and bool below string, an
    /// object below an object with its attributes and more and below a
    /// map, a tuple below a tuple of its length and below a list or a set,
    /// a set below a list, each with its parts below the other's parts.
    /// Unification then selects the least type that every input is below,
    /// and fails when there is none: which inputs are unified first changes
    /// nothing, and every input converts to the result (a type converts to
    /// every type it is below). The tests compare this with unification in
    /// order on generated lists of types.
    AllAtOnce,
    /// An attribute's types are unified pairwise in input order, round
    /// after round, each round unifying the last result with every type
    /// again, until it no longer changes.
    ///
    /// With sets and tuples of two lengths the order matters: two tuples of
    /// different lengths unify to a list, but together with a set to a set
    /// ([`one_collection`]). The attribute `a` of `{a = tuple([tuple([string]),
    /// tuple([string, string])])}` and `{a = tuple([set(string)])}` unifies
    /// to `list(list(string))` this way, and to `list(set(string))` all at
    /// once. The first is this module's result from before it unified many
    /// types at once, kept. Types inside such inputs that have no set, or
    /// tuples of one length only, are still unified all at once
    /// ([`Fold::within`]).
    InOrder,
}

impl Fold {
    /// [`Fold::AllAtOnce`] unless a set type and tuples of two lengths
    /// appear in `types`, at any depth. (Unification makes sets only of
    /// sets, and tuples only of tuples of one length, so what it unifies
    /// on the way has none where the inputs have none.)
    fn for_inputs(types: &[&Type]) -> Fold {
        let (mut set, mut tuple_length, mut two_lengths) = (false, None, false);
        let mut stack: Vec<&Type> = types.to_vec();
        while let Some(ty) = stack.pop() {
            match ty {
                Type::String | Type::Number | Type::Bool | Type::Dynamic => {}
                Type::List(element) | Type::Map(element) => stack.push(element),
                Type::Set(element) => {
                    set = true;
                    stack.push(element);
                }
                Type::Object(attributes) => stack.extend(attributes.values()),
                Type::Tuple(elements) => {
                    two_lengths |= *tuple_length.get_or_insert(elements.len()) != elements.len();
                    stack.extend(elements);
                }
            }
            if set && two_lengths {
                return Fold::InOrder;
            }
        }
        Fold::AllAtOnce
    }

    /// The fold for `types` inside inputs unified with this fold: all at
    /// once inside all at once; in order, decided again for them, which
    /// may have no set, or tuples of one length only, where the inputs
    /// have both.
    fn within(self, types: &[&Type]) -> Fold {
        match self {
            Fold::AllAtOnce => self,
            Fold::InOrder => Fold::for_inputs(types),
        }
    }

    /// The unification of types inside the inputs (attribute and element
    /// types). All at once, only the outermost unification checks that its
    /// inputs convert to its result (which checks their parts too): in the
    /// lattice the check never fails, and made at every level it would
    /// check the parts of deeply nested types once per level above them.
    /// In order, each unification checks its own inputs.
    fn unify_inner(self, types: &[&Type]) -> Result<Type, String> {
        match self.within(types) {
            Fold::AllAtOnce => select(types, Fold::AllAtOnce),
            Fold::InOrder => unify_types(types, Fold::InOrder),
        }
    }
}

/// [`unify`] of a non-empty list of types, failing with the reason.
fn unify_types(types: &[&Type], fold: Fold) -> Result<Type, String> {
    all_convert(types, select(types, fold)?)
}

/// The type that unification selects for `types`, before the check that
/// they all convert to it.
fn select(types: &[&Type], fold: Fold) -> Result<Type, String> {
    count_work(types.len());
    let known: Vec<&Type> = types
        .iter()
        .copied()
        .filter(|ty| !matches!(ty, Type::Dynamic))
        .collect();
    if known.is_empty() {
        return Ok(Type::Dynamic);
    }
    match one_collection(&known, fold)? {
        Some(collection) => Ok(collection),
        None => unify_alike(&known, fold),
    }
}

/// "unification fails if any of the given types are not convertable (per
/// the above rules) to the selected result type."
fn all_convert(types: &[&Type], result: Type) -> Result<Type, String> {
    match types
        .iter()
        .find(|ty| conversion_safety(ty, &result).is_none())
    {
        Some(unconvertible) => Err(format!(
            "{} does not convert to {}",
            shown(unconvertible),
            shown(&result)
        )),
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
fn one_collection(types: &[&Type], fold: Fold) -> Result<Option<Type>, String> {
    let (mut maps, mut objects, mut lists, mut sets) = (0, 0, 0, 0);
    let mut tuple_lengths = BTreeSet::new();
    let unified_parts;
    let mut elements: Vec<&Type> = Vec::new();
    let mut parts: Vec<&Type> = Vec::new();
    for ty in types {
        match ty {
            Type::Map(element) => {
                maps += 1;
                elements.push(element);
            }
            Type::List(element) => {
                lists += 1;
                elements.push(element);
            }
            Type::Set(element) => {
                sets += 1;
                elements.push(element);
            }
            Type::Object(attributes) => {
                objects += 1;
                parts.extend(attributes.values());
            }
            Type::Tuple(own) => {
                tuple_lengths.insert(own.len());
                parts.extend(own);
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
        unified_parts = fold.unify_inner(&parts)?;
        elements.push(&unified_parts);
    }
    Ok(Some(collection(fold.unify_inner(&elements)?)))
}

/// The most general type that types of one kind, no family of collections
/// ([`one_collection`]), all convert to: primitive types, objects, tuples of
/// one length. Types of different kinds have none.
///
/// Spec: spec.md § Type Unification
fn unify_alike(known: &[&Type], fold: Fold) -> Result<Type, String> {
    let first = known[0];
    if let Some(other) = known.iter().find(|ty| !alike(first, ty)) {
        return Err(format!(
            "{} and {} have no common type",
            shown(first),
            shown(other)
        ));
    }
    let each = |types: &[&Type]| unify_each(types, fold, known.len());
    match first {
        // "Number and bool types both unify with string by preferring
        // string." Applied transitively, number and bool meet at string.
        // SPEC-GAP(spec-notes/gaps/unify-number-bool.md)
        Type::String | Type::Number | Type::Bool => {
            if known.iter().all(|ty| *ty == first) {
                Ok(first.clone())
            } else {
                Ok(Type::String)
            }
        }
        Type::Object(_) => unify_objects(known, each),
        Type::Tuple(elements) => unify_tuples(known, elements.len(), each),
        // Identical collections (`one_collection` unifies all of them
        // before they come here).
        _ => Ok(first.clone()),
    }
}

/// Whether two types are of one kind that [`unify_alike`] unifies.
fn alike(a: &Type, b: &Type) -> bool {
    use Type::*;
    match (a, b) {
        (String | Number | Bool, String | Number | Bool) | (Object(_), Object(_)) => true,
        (Tuple(x), Tuple(y)) => x.len() == y.len(),
        _ => a == b,
    }
}

/// "Two object types unify by constructing a new type whose attributes are
/// the union of those of the two input types. Any common attributes
/// themselves have their types unified." Applied transitively: the union
/// of all the objects' attributes, each with the unification of its types
/// in the objects that have it, in input order (`each`).
///
/// Spec: spec.md § Type Unification
fn unify_objects(
    objects: &[&Type],
    mut each: impl FnMut(&[&Type]) -> Result<Type, String>,
) -> Result<Type, String> {
    let mut attributes: Vec<(&str, &Type)> = objects
        .iter()
        .filter_map(|ty| match ty {
            Type::Object(attributes) => Some(attributes),
            _ => None,
        })
        .flatten()
        .map(|(name, ty)| (name.as_str(), ty))
        .collect();
    count_work(attributes.len());
    // A stable sort: each name's types stay in input order.
    attributes.sort_by(|a, b| a.0.cmp(b.0));
    let mut types = Vec::new();
    let mut union = Vec::new();
    for same_name in attributes.chunk_by(|a, b| a.0 == b.0) {
        types.clear();
        types.extend(same_name.iter().map(|(_, ty)| *ty));
        let name = same_name.first().map_or("", |(name, _)| name);
        union.push((name.to_owned(), each(&types)?));
    }
    Ok(Type::Object(union.into_iter().collect()))
}

/// "Two tuple types of the same length unify constructing a new type of the
/// same length whose elements are the unification of the corresponding
/// elements in the two input types." Applied transitively: each element
/// the unification of the corresponding elements of all the tuples, in
/// input order (`each`).
///
/// Spec: spec.md § Type Unification
fn unify_tuples(
    tuples: &[&Type],
    length: usize,
    mut each: impl FnMut(&[&Type]) -> Result<Type, String>,
) -> Result<Type, String> {
    let mut types = Vec::with_capacity(tuples.len());
    let mut elements = Vec::with_capacity(length);
    for i in 0..length {
        types.clear();
        types.extend(tuples.iter().filter_map(|ty| match ty {
            Type::Tuple(elements) => elements.get(i),
            _ => None,
        }));
        count_work(types.len());
        elements.push(each(&types)?);
    }
    Ok(Type::Tuple(elements))
}

/// The unification of the types one attribute (or tuple element) has in
/// `inputs` objects (or tuples), as [`Fold`] says.
fn unify_each(types: &[&Type], fold: Fold, inputs: usize) -> Result<Type, String> {
    match fold {
        Fold::AllAtOnce if types.len() == 1 => Ok(types[0].clone()),
        Fold::AllAtOnce => select(types, fold),
        // Each round can only make the result more general, and a type has
        // finitely many parts to generalize.
        Fold::InOrder => in_order(types, 0, inputs * 4 + 16),
    }
}

/// The unification in order of `types`, the types one attribute has in the
/// objects (or one element in the tuples) that are unified pairwise, in at
/// most `rounds` rounds.
///
/// Round after round, the result so far is unified with each type in turn
/// ([`unify_two`]) until a round changes nothing. Where the types are
/// objects themselves (or tuples of one length), each step unifies them
/// attribute by attribute, so each attribute's types evolve on their own:
/// they are unified in order the same way, one `depth` further in, where a
/// step is the step of the enclosing depth acting on one attribute. Other
/// types (a mix of lists, sets and tuples, or maps and objects) are
/// unified step by step, each step building its result anew: in time that
/// grows with the number of types times the size of the result.
fn in_order(types: &[&Type], depth: usize, rounds: usize) -> Result<Type, String> {
    let Some((first, rest)) = types.split_first() else {
        return Ok(Type::Dynamic);
    };
    if rest.is_empty() {
        return Ok((*first).clone());
    }
    if Fold::for_inputs(types) == Fold::AllAtOnce {
        return select(types, Fold::AllAtOnce);
    }
    // The dynamic pseudo-type changes no result.
    let known: Vec<&Type> = types
        .iter()
        .copied()
        .filter(|ty| !matches!(ty, Type::Dynamic))
        .collect();
    let Some(kind) = known.first() else {
        return Ok(Type::Dynamic);
    };
    // Types of two families have no common type, whatever the order.
    if let Some(other) = known.iter().find(|ty| family(ty) != family(kind)) {
        return Err(format!(
            "{} and {} have no common type",
            shown(kind),
            shown(other)
        ));
    }
    let next = |types: &[&Type]| in_order(types, depth + 1, rounds);
    match kind {
        Type::Object(_) if known.iter().all(|ty| matches!(ty, Type::Object(_))) => {
            return unify_objects(&known, next);
        }
        Type::Tuple(elements) if known.iter().all(|ty| alike(kind, ty)) => {
            return unify_tuples(&known, elements.len(), next);
        }
        _ => {}
    }
    let mut result = (*first).clone();
    for round in 0.. {
        let mut next = result.clone();
        for ty in types {
            next = unify_two(next, ty, depth)?;
        }
        if next == result {
            break;
        }
        if round > rounds {
            return Err("unification does not settle on a type".to_string());
        }
        result = next;
    }
    Ok(result)
}

/// The families of types that unify with one another: primitive types;
/// maps and objects; lists, sets and tuples.
fn family(ty: &Type) -> u8 {
    match ty {
        Type::String | Type::Number | Type::Bool => 0,
        Type::Map(_) | Type::Object(_) => 1,
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => 2,
        Type::Dynamic => 3,
    }
}

/// One step of [`in_order`] at `depth`: the unification of the result so
/// far, `a`, with the next type, `b`; a type unified with itself is the
/// type. At depth 0, the unification of the two. Further in, the step of
/// the enclosing depth acting on one attribute: the unification in order
/// of the two at that depth, failing unless both convert to it.
fn unify_two(a: Type, b: &Type, depth: usize) -> Result<Type, String> {
    if a == *b {
        return Ok(a);
    }
    match depth.checked_sub(1) {
        None => Fold::InOrder.unify_inner(&[&a, b]),
        Some(outer) => all_convert(&[&a, b], in_order(&[&a, b], outer, 2 * 4 + 16)?),
    }
}

/// Counts units of work (types and attributes looked at), for the tests'
/// bound on it; nothing outside the tests.
#[cfg(not(test))]
fn count_work(_units: usize) {}

#[cfg(test)]
mod tests;
#[cfg(test)]
use tests::count_work;
