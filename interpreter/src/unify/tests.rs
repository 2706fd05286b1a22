//! Unification against the algorithm it replaces (kept here as the oracle),
//! on generated lists of types, and the work it does on many types.

use super::*;
use std::cell::Cell;
use std::collections::BTreeMap;

thread_local! {
    static WORK: Cell<usize> = const { Cell::new(0) };
}

pub(super) fn count_work(units: usize) {
    WORK.with(|work| work.set(work.get() + units));
}

/// The result of `f`, and the units of work that unification counted in it.
fn work_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    WORK.with(|work| work.set(0));
    let result = f();
    (result, WORK.with(Cell::get))
}

/// This module's unification as it was before it unified many types at once
/// (commit 6bdc091): objects unified pairwise into a growing union, round
/// after round until the result settled, every step on clones. Quadratic
/// or worse in the number of objects, so the tests give it small inputs.
mod oracle {
    use crate::convert::conversion_safety;
    use crate::types::Type;
    use std::collections::{BTreeMap, BTreeSet};

    pub(super) fn unify(types: &[Type]) -> Result<Type, String> {
        if types.is_empty() {
            return Err("there are no types to unify".to_string());
        }
        unify_types(types)
    }

    fn unify_types(types: &[Type]) -> Result<Type, String> {
        let known: Vec<&Type> = types.iter().filter(|ty| **ty != Type::Dynamic).collect();
        let Some(first) = known.first() else {
            return Ok(Type::Dynamic);
        };
        if let Some(collection) = one_collection(&known)? {
            return all_convert(types, collection);
        }
        let mut result = (*first).clone();
        for round in 0.. {
            let mut next = result.clone();
            for ty in &known {
                next = unify_pair(&next, ty)
                    .ok_or_else(|| format!("{next} and {ty} have no common type"))?;
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

    fn all_convert(types: &[Type], result: Type) -> Result<Type, String> {
        match types
            .iter()
            .find(|ty| conversion_safety(ty, &result).is_none())
        {
            Some(unconvertible) => Err(format!("{unconvertible} does not convert to {result}")),
            None => Ok(result),
        }
    }

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

    fn unify_pair(a: &Type, b: &Type) -> Option<Type> {
        use Type::*;
        let unified = match (a, b) {
            _ if a == b => a.clone(),
            (String, Number | Bool) | (Number | Bool, String) | (Number, Bool) | (Bool, Number) => {
                String
            }
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
}

/// The new unification and the oracle's, errors reduced to their fact.
fn both(types: &[Type]) -> (Result<Type, ()>, Result<Type, ()>) {
    (
        unify(types).map_err(|_| ()),
        oracle::unify(types).map_err(|_| ()),
    )
}

/// The new unification of the types of generated case `case`, checked
/// against the oracle's.
fn agreed(case: usize, types: &[Type]) -> Result<Type, ()> {
    let (new, old) = both(types);
    assert_eq!(
        new,
        old,
        "case {case}: {}",
        types.iter().map(|ty| format!("{ty}; ")).collect::<String>()
    );
    new
}

/// Whether unifying `types` all at once gives another result than `new`,
/// their unification in order.
fn order_decides_for(types: &[Type], new: &Result<Type, ()>) -> bool {
    let inputs: Vec<&Type> = types.iter().collect();
    unify_types(&inputs, Fold::AllAtOnce).map_err(|_| ()) != *new
}

/// Checks `cases` generated lists of types against the oracle
/// ([`agreed`]): how many unified, and for how many the order decided
/// ([`order_decides_for`]).
fn tally(cases: usize, mut types: impl FnMut() -> Vec<Type>) -> (usize, usize) {
    let (mut unified, mut order_decides) = (0, 0);
    for case in 0..cases {
        let types = types();
        let new = agreed(case, &types);
        unified += usize::from(new.is_ok());
        order_decides += usize::from(order_decides_for(&types, &new));
    }
    (unified, order_decides)
}

/// A small deterministic generator (SplitMix64).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn percent(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }
}

const NAMES: [&str; 4] = ["a", "b", "c", "d"];

fn primitive(random: &mut Random) -> Type {
    [Type::String, Type::Number, Type::Bool, Type::Dynamic][random.below(4)].clone()
}

fn random_type(random: &mut Random, depth: usize) -> Type {
    if depth == 0 || random.percent(30) {
        return primitive(random);
    }
    let depth = depth - 1;
    match random.below(5) {
        0 => Type::list(random_type(random, depth)),
        1 => Type::set(random_type(random, depth)),
        2 => Type::map(random_type(random, depth)),
        3 => Type::Object(
            (0..random.below(4))
                .map(|_| {
                    let name = NAMES[random.below(NAMES.len())].to_string();
                    (name, random_type(random, depth))
                })
                .collect(),
        ),
        _ => Type::Tuple(
            (0..random.below(4))
                .map(|_| random_type(random, depth))
                .collect(),
        ),
    }
}

/// A type like `base`, with a few changes that unification may or may not
/// absorb: primitives swapped, dynamic parts, attributes and tuple elements
/// dropped or added, a collection of one kind made another, a tuple or
/// object made a collection and back.
fn variant(random: &mut Random, base: &Type, depth: usize) -> Type {
    if random.percent(2) {
        return random_type(random, depth.min(2));
    }
    if random.percent(5) {
        return Type::Dynamic;
    }
    let deeper = depth.saturating_sub(1);
    match base {
        Type::String | Type::Number | Type::Bool => {
            if random.percent(20) {
                primitive(random)
            } else {
                base.clone()
            }
        }
        Type::Dynamic => {
            if random.percent(50) {
                random_type(random, depth.min(2))
            } else {
                Type::Dynamic
            }
        }
        Type::List(element) | Type::Set(element) | Type::Map(element) => match random.below(24) {
            0 => Type::list(variant(random, element, deeper)),
            1 => Type::set(variant(random, element, deeper)),
            2 => Type::map(variant(random, element, deeper)),
            3 => Type::Tuple(
                (0..random.below(3))
                    .map(|_| variant(random, element, deeper))
                    .collect(),
            ),
            4 => Type::Object(
                (0..random.below(3))
                    .map(|_| {
                        let name = NAMES[random.below(NAMES.len())].to_string();
                        (name, variant(random, element, deeper))
                    })
                    .collect(),
            ),
            _ => {
                let element = variant(random, element, deeper);
                match base {
                    Type::List(_) => Type::list(element),
                    Type::Set(_) => Type::set(element),
                    _ => Type::map(element),
                }
            }
        },
        Type::Object(attributes) => {
            let mut varied = BTreeMap::new();
            for (name, ty) in attributes {
                if !random.percent(15) {
                    varied.insert(name.clone(), variant(random, ty, deeper));
                }
            }
            if random.percent(20) {
                let name = NAMES[random.below(NAMES.len())].to_string();
                varied.insert(name, random_type(random, deeper.min(2)));
            }
            match varied.values().next() {
                Some(first) if random.percent(4) => Type::map(variant(random, first, deeper)),
                _ => Type::Object(varied),
            }
        }
        Type::Tuple(elements) => {
            let mut varied: Vec<Type> = elements
                .iter()
                .map(|ty| variant(random, ty, deeper))
                .collect();
            if random.percent(8) {
                varied.push(random_type(random, deeper.min(2)));
            }
            if random.percent(8) {
                varied.pop();
            }
            match varied.first() {
                Some(first) if random.percent(6) => {
                    let element = variant(random, first, deeper);
                    if random.percent(50) {
                        Type::list(element)
                    } else {
                        Type::set(element)
                    }
                }
                _ => Type::Tuple(varied),
            }
        }
    }
}

/// A list of one to seven types: mostly variants of one type, sometimes
/// types of no relation.
fn random_list(random: &mut Random) -> Vec<Type> {
    let length = 1 + random.below(7);
    if random.percent(10) {
        return (0..length).map(|_| random_type(random, 3)).collect();
    }
    let base = random_type(random, 4);
    (0..length).map(|_| variant(random, &base, 4)).collect()
}

#[test]
fn generated_lists_unify_as_the_oracle_unifies_them() {
    let mut random = Random(26);
    // (unified, failed) by fold.
    let mut seen: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for case in 0..40_000 {
        let types = random_list(&mut random);
        let new = agreed(case, &types);
        let fold = match Fold::for_inputs(&types.iter().collect::<Vec<_>>()) {
            Fold::AllAtOnce => "all at once",
            Fold::InOrder => "in order",
        };
        let counts = seen.entry(fold).or_default();
        if new.is_ok() {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
    }
    // The generator reaches both folds, and both outcomes in each.
    for (fold, least) in [("all at once", 5_000), ("in order", 400)] {
        let (unified, failed) = seen.get(fold).copied().unwrap_or_default();
        assert!(
            unified >= least && failed >= least,
            "{fold}: {unified} unified, {failed} failed"
        );
    }
}

/// A type of strings, sets, lists and tuples of zero to two elements: the
/// types whose unification depends on the order.
fn sequence_type(random: &mut Random, depth: usize) -> Type {
    if depth == 0 {
        return Type::String;
    }
    let depth = depth - 1;
    match random.below(6) {
        0 => Type::set(sequence_type(random, depth)),
        1 => Type::list(sequence_type(random, depth)),
        _ => Type::Tuple(
            (0..random.below(3))
                .map(|_| sequence_type(random, depth))
                .collect(),
        ),
    }
}

/// Objects and tuples of one length whose attributes and elements are
/// [`sequence_type`]s: the lists whose unification depends on the order of
/// the inputs are among them.
#[test]
fn generated_objects_of_sequences_unify_as_the_oracle_unifies_them() {
    let mut random = Random(14);
    let (unified, order_decides) = tally(20_000, || {
        let objects = random.percent(70);
        // One depth for all: strings meet strings only, most lists unify.
        let depth = 1 + random.below(3);
        (0..2 + random.below(4))
            .map(|_| {
                // Now and then a type of another depth, which may not unify.
                let depth = if random.percent(5) {
                    1 + random.below(3)
                } else {
                    depth
                };
                let parts = (0..2).map(|_| sequence_type(&mut random, depth));
                if objects {
                    Type::Object(
                        NAMES[..2]
                            .iter()
                            .map(|n| n.to_string())
                            .zip(parts)
                            .collect(),
                    )
                } else {
                    Type::Tuple(parts.collect())
                }
            })
            .collect()
    });
    assert!(
        (5_000..19_000).contains(&unified),
        "{unified} unified of 20,000"
    );
    assert!(order_decides >= 100, "the order decides {order_decides}");
}

/// Objects (and pairs) nested `depth` deep with [`sequence_type`]s inside.
fn nested_sequence_type(random: &mut Random, depth: usize, sequence_depth: usize) -> Type {
    if depth == 0 {
        return sequence_type(random, sequence_depth);
    }
    let mut inner = || nested_sequence_type(random, depth - 1, sequence_depth);
    if depth % 2 == 0 {
        Type::Tuple(vec![inner(), inner()])
    } else {
        Type::object([("a", inner()), ("b", inner())])
    }
}

/// Objects of objects (and pairs) of [`sequence_type`]s: unified in order,
/// several levels of objects in.
#[test]
fn generated_nested_objects_of_sequences_unify_as_the_oracle_unifies_them() {
    let mut random = Random(41);
    let (unified, order_decides) = tally(3_000, || {
        let depth = 1 + random.below(4);
        let sequence_depth = 1 + random.below(2);
        (0..2 + random.below(4))
            .map(|_| {
                // Now and then sequences of another depth, which may not
                // unify.
                let sequence_depth = if random.percent(5) {
                    1 + random.below(2)
                } else {
                    sequence_depth
                };
                nested_sequence_type(&mut random, depth, sequence_depth)
            })
            .collect()
    });
    assert!(
        (1_000..2_900).contains(&unified),
        "{unified} unified of 3,000"
    );
    assert!(order_decides >= 100, "the order decides {order_decides}");
}

#[test]
fn generated_lists_of_objects_unify_as_the_oracle_unifies_them() {
    let mut random = Random(2026);
    let mut unified = 0;
    for case in 0..10_000 {
        let base = Type::Object(
            NAMES
                .iter()
                .map(|name| (name.to_string(), random_type(&mut random, 3)))
                .collect(),
        );
        let types: Vec<Type> = (0..2 + random.below(12))
            .map(|_| variant(&mut random, &base, 4))
            .collect();
        let new = agreed(case, &types);
        unified += usize::from(new.is_ok());
    }
    assert!(unified >= 300, "{unified} unified");
}

/// Every ordered pair and triple of a few types, which the generator may
/// miss.
#[test]
fn pairs_and_triples_of_small_types_unify_as_the_oracle_unifies_them() {
    use Type::*;
    let pool = [
        String,
        Number,
        Bool,
        Dynamic,
        Type::list(String),
        Type::list(Number),
        Type::list(Dynamic),
        Type::set(Number),
        Type::set(Bool),
        Type::map(String),
        Type::map(Number),
        Tuple(vec![]),
        Tuple(vec![Number]),
        Tuple(vec![String]),
        Tuple(vec![Number, Bool]),
        Tuple(vec![Tuple(vec![String])]),
        Tuple(vec![Type::set(String)]),
        Type::object::<&str>([]),
        Type::object([("a", Number)]),
        Type::object([("a", String), ("b", Bool)]),
        Type::object([("a", Type::list(Number))]),
        Type::object([(
            "a",
            Tuple(vec![Tuple(vec![String]), Tuple(vec![String, String])]),
        )]),
        Type::object([("a", Tuple(vec![Type::set(String)]))]),
        Type::list(Tuple(vec![String])),
        Type::set(Tuple(vec![String, Number])),
    ];
    let mut unified = 0;
    for a in &pool {
        for b in &pool {
            let pair = [a.clone(), b.clone()];
            let (new, old) = both(&pair);
            assert_eq!(new, old, "{a}; {b}");
            for c in &pool {
                let triple = [a.clone(), b.clone(), c.clone()];
                let (new, old) = both(&triple);
                assert_eq!(new, old, "{a}; {b}; {c}");
                unified += usize::from(new.is_ok());
            }
        }
    }
    assert!(unified > 1_000, "{unified} unified");
}

/// Where the inputs mix a set with tuples of two lengths, the order of
/// unification decides, and the attribute keeps the in-order result.
#[test]
fn with_a_set_and_tuples_of_two_lengths_attributes_unify_in_order() {
    use Type::{String, Tuple};
    let x = Tuple(vec![Tuple(vec![String]), Tuple(vec![String, String])]);
    let y = Tuple(vec![Type::set(String)]);
    assert_eq!(
        unify(&[x.clone(), y.clone()]).ok(),
        Some(Type::list(Type::set(String)))
    );
    let objects = [Type::object([("a", x)]), Type::object([("a", y)])];
    assert_eq!(
        Fold::for_inputs(&objects.iter().collect::<Vec<_>>()),
        Fold::InOrder
    );
    let expected = Type::object([("a", Type::list(Type::list(String)))]);
    assert_eq!(unify(&objects).ok(), Some(expected.clone()));
    assert_eq!(oracle::unify(&objects).ok(), Some(expected));
    // All at once, the attribute would be the unification of its types.
    let inputs: Vec<&Type> = objects.iter().collect();
    assert_eq!(
        unify_types(&inputs, Fold::AllAtOnce).ok(),
        Some(Type::object([("a", Type::list(Type::set(String)))]))
    );
}

/// `n` objects of one attribute each, `k0` to `k{n-1}`, of `ty`.
fn one_attribute_objects(n: usize, ty: &Type) -> Vec<Type> {
    (0..n)
        .map(|i| Type::object([(format!("k{i}"), ty.clone())]))
        .collect()
}

/// The objects' union, when each attribute has one type.
fn union_of(objects: &[Type]) -> Type {
    Type::Object(
        objects
            .iter()
            .filter_map(|ty| match ty {
                Type::Object(attributes) => Some(attributes.clone()),
                _ => None,
            })
            .flatten()
            .collect(),
    )
}

#[test]
fn many_objects_agree_with_the_oracle() {
    let mut objects = one_attribute_objects(200, &Type::Number);
    objects.extend(one_attribute_objects(100, &Type::Bool));
    objects.push(Type::object([("k1", Type::list(Type::String))]));
    let (new, old) = both(&objects);
    assert!(new.is_err());
    assert_eq!(new, old);
    objects.pop();
    let (new, old) = both(&objects);
    assert!(new.is_ok());
    assert_eq!(new, old);
}

/// 20,000 objects of one attribute each unify in work proportional to
/// their number: the old pairwise union did about 200 million units.
#[test]
fn twenty_thousand_one_attribute_objects_unify_in_linear_work() {
    let objects = one_attribute_objects(20_000, &Type::Number);
    let (unified, work) = work_of(|| unify(&objects));
    assert_eq!(unified.ok(), Some(union_of(&objects)));
    assert!(work <= 3 * objects.len(), "{work} units of work");
}

/// The same in order (a set and tuples of two lengths among the inputs):
/// each attribute is still unified on its own.
#[test]
fn twenty_thousand_one_attribute_objects_unify_in_order_in_linear_work() {
    let mut objects = one_attribute_objects(20_000, &Type::Number);
    objects.push(Type::object([("s", Type::set(Type::String))]));
    objects.push(Type::object([("t", Type::Tuple(vec![]))]));
    objects.push(Type::object([("t", Type::Tuple(vec![Type::String]))]));
    assert_eq!(
        Fold::for_inputs(&objects.iter().collect::<Vec<_>>()),
        Fold::InOrder
    );
    let (unified, work) = work_of(|| unify(&objects));
    let mut expected = union_of(&objects[..20_001]);
    if let Type::Object(attributes) = &mut expected {
        attributes.insert("t".into(), Type::list(Type::String));
    }
    assert_eq!(unified.ok(), Some(expected));
    assert!(work <= 3 * objects.len(), "{work} units of work");
}

/// Objects whose one attribute is an object of one attribute, each another:
/// the inner objects are unified at once too, not into a growing union.
#[test]
fn objects_of_objects_unify_in_linear_work() {
    let inner = one_attribute_objects(5_000, &Type::String);
    let objects: Vec<Type> = inner
        .iter()
        .map(|ty| Type::object([("a", ty.clone())]))
        .collect();
    let (unified, work) = work_of(|| unify(&objects));
    assert_eq!(unified.ok(), Some(Type::object([("a", union_of(&inner))])));
    assert!(work <= 5 * objects.len(), "{work} units of work");
    // Twice as many objects, about twice the work.
    let (_, small) = work_of(|| unify(&objects[..2_500]));
    assert!(work <= 2 * small + 16, "{small}, then {work} units of work");
}

/// Two tuples nested 100,000 deep unify in work proportional to their
/// depth: a check at every level that the level's inputs convert to its
/// result would take minutes here (a debug build), and did before.
#[test]
fn deeply_nested_tuples_unify_in_linear_work() {
    let depth = 100_000;
    let nested = |leaf: Type| (0..depth).fold(leaf, |ty, _| Type::Tuple(vec![ty]));
    let outcome = crate::large_stack::run(1 << 30, || {
        let (unified, work) = work_of(|| unify(&[nested(Type::Number), nested(Type::String)]));
        (unified.ok() == Some(nested(Type::String)), work)
    });
    let Ok((expected, work)) = outcome else {
        panic!("the unification did not run to its end");
    };
    assert!(expected);
    assert!(work <= 5 * depth, "{work} units of work");
}

/// "A given type can always be converted to itself, which is a no-op":
/// `conversion_safety` finds each type's conversion to itself safe through
/// the rule of its kind (it compares no types whole).
#[test]
fn every_generated_type_converts_to_itself_safely() {
    let mut random = Random(3);
    for _ in 0..20_000 {
        let ty = random_type(&mut random, 5);
        assert_eq!(
            crate::convert::conversion_safety(&ty, &ty),
            Some(crate::convert::Safety::Safe),
            "{ty}"
        );
    }
}

/// Objects of objects among a set and tuples of two lengths: unified in
/// order, but the types of the attribute `a` have neither, and are unified
/// all at once.
#[test]
fn objects_of_objects_unify_in_order_in_linear_work() {
    let inner = one_attribute_objects(5_000, &Type::String);
    let mut objects: Vec<Type> = inner
        .iter()
        .map(|ty| Type::object([("a", ty.clone())]))
        .collect();
    objects.push(Type::object([("s", Type::set(Type::String))]));
    objects.push(Type::object([("t", Type::Tuple(vec![]))]));
    objects.push(Type::object([("t", Type::Tuple(vec![Type::String]))]));
    assert_eq!(
        Fold::for_inputs(&objects.iter().collect::<Vec<_>>()),
        Fold::InOrder
    );
    let (unified, work) = work_of(|| unify(&objects));
    let expected = Type::object([
        ("a", union_of(&inner)),
        ("s", Type::set(Type::String)),
        ("t", Type::list(Type::String)),
    ]);
    assert_eq!(unified.ok(), Some(expected));
    assert!(work <= 5 * objects.len(), "{work} units of work");
}

/// Two objects nested `depth` deep, whose innermost objects hold a set and
/// tuples of two lengths.
fn nested_objects_in_order(depth: usize) -> [Type; 2] {
    let x = Type::object([("s", Type::set(Type::String)), ("t", Type::Tuple(vec![]))]);
    let y = Type::object([("t", Type::Tuple(vec![Type::String]))]);
    let nest = |ty: Type| (0..depth).fold(ty, |ty, _| Type::object([("a", ty)]));
    [nest(x), nest(y)]
}

/// Unified in order, the attribute of two nested objects is unified again
/// in a second round only when the first changed it: work grows with the
/// square of the depth, not exponentially (each round unifying each level
/// again).
#[test]
fn nested_objects_unify_in_order_in_polynomial_work() {
    let small = nested_objects_in_order(4);
    let (new, old) = both(&small);
    assert!(new.is_ok());
    assert_eq!(new, old);
    let depth = 60;
    let types = nested_objects_in_order(depth);
    let (unified, work) = work_of(|| unify(&types));
    assert!(unified.is_ok());
    assert!(work <= 8 * depth * depth, "{work} units of work");
}

/// The rounds of unification in order nest: the attribute `b` of the
/// attribute `a` is unified in rounds whose steps are each unified in
/// rounds, and three types found by search unify otherwise than in rounds
/// of single steps (`list(list(set(string)))`).
#[test]
fn rounds_in_order_nest_one_level_for_each_level_of_objects() {
    use Type::{String, Tuple};
    let sequences = [
        Tuple(vec![
            Tuple(vec![Tuple(vec![String, String])]),
            Tuple(vec![]),
        ]),
        Tuple(vec![Tuple(vec![]), Type::list(Tuple(vec![String]))]),
        Tuple(vec![Type::set(Type::set(String))]),
    ];
    let inputs: Vec<&Type> = sequences.iter().collect();
    let steps_once = Type::list(Type::list(Type::set(String)));
    let steps_in_rounds = Type::list(Type::list(Type::list(String)));
    assert_eq!(in_order(&inputs, 0, 24).ok(), Some(steps_once));
    assert_eq!(in_order(&inputs, 1, 24).ok(), Some(steps_in_rounds.clone()));
    let objects: Vec<Type> = sequences
        .iter()
        .map(|ty| Type::object([("a", Type::object([("b", ty.clone())]))]))
        .collect();
    let expected = Type::object([("a", Type::object([("b", steps_in_rounds)]))]);
    assert_eq!(oracle::unify(&objects).ok(), Some(expected.clone()));
    assert_eq!(unify(&objects).ok(), Some(expected));
}

/// Objects of objects whose attribute `a` itself holds a set and tuples of
/// two lengths: its types are unified in order, attribute by attribute.
#[test]
fn objects_of_objects_with_a_set_and_tuples_inside_unify_in_linear_work() {
    let inner = one_attribute_objects(5_000, &Type::String);
    let mut objects: Vec<Type> = inner
        .iter()
        .map(|ty| Type::object([("a", ty.clone())]))
        .collect();
    for (name, ty) in [
        ("s", Type::set(Type::String)),
        ("t", Type::Tuple(vec![])),
        ("t", Type::Tuple(vec![Type::String])),
    ] {
        objects.push(Type::object([("a", Type::object([(name, ty)]))]));
    }
    let (unified, work) = work_of(|| unify(&objects));
    let mut expected = union_of(&inner);
    if let Type::Object(attributes) = &mut expected {
        attributes.insert("s".into(), Type::set(Type::String));
        attributes.insert("t".into(), Type::list(Type::String));
    }
    assert_eq!(unified.ok(), Some(Type::object([("a", expected)])));
    assert!(work <= 5 * objects.len(), "{work} units of work");
    let (new, old) = both(&objects[4_900..]);
    assert!(new.is_ok());
    assert_eq!(new, old);
}
