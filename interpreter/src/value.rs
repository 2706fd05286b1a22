//! Values of the information model, with null and unknown values of every
//! type.
//!
//! Spec: spec.md § Values and Value Types, § Null values, § Unknown Values
//! and the Dynamic Pseudo-type

use crate::number::Number;
use crate::types::Type;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use unicode_normalization::UnicodeNormalization;

/// A value. Every value has a type ([`Value::ty`]); null and unknown values
/// carry theirs.
///
/// The constructors keep these invariants:
/// - strings (values, map keys, object attribute names) are in NFC, so that
///   two strings are equal exactly when their texts are ("Two strings are
///   equal if NFC normalization [...] of each string produces two identical
///   sequences of characters");
/// - every element of a collection has exactly the collection's element type;
/// - a set holds distinct elements in a canonical order.
///
/// Spec: spec.md § Values and Value Types
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// The null value of a type: "the absence of a value, but with type
    /// information retained".
    Null(Type),
    /// The unknown value of a type: "a placeholder for a value that is not
    /// yet known". `Unknown(Type::Dynamic)` is *the dynamic value*.
    Unknown(Type),
    String(String),
    Number(Number),
    Bool(bool),
    List(Type, Vec<Value>),
    Set(Type, Vec<Value>),
    Map(Type, BTreeMap<String, Value>),
    Object(BTreeMap<String, Value>),
    Tuple(Vec<Value>),
}

/// Why a collection value could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementTypeError {
    pub expected: Type,
    pub found: Type,
}

impl std::fmt::Display for ElementTypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a collection of {} cannot hold a {}",
            self.expected, self.found
        )
    }
}

impl std::error::Error for ElementTypeError {}

fn check_elements<'a>(
    element_type: &Type,
    elements: impl IntoIterator<Item = &'a Value>,
) -> Result<(), ElementTypeError> {
    for element in elements {
        let found = element.ty();
        if found != *element_type {
            return Err(ElementTypeError {
                expected: element_type.clone(),
                found,
            });
        }
    }
    Ok(())
}

/// A string in NFC.
pub fn nfc(text: &str) -> String {
    if is_nfc(text) {
        text.to_string()
    } else {
        text.nfc().collect()
    }
}

/// Whether a text is in NFC. ASCII text always is, and is recognised in a
/// single quick pass.
pub(crate) fn is_nfc(text: &str) -> bool {
    text.is_ascii() || unicode_normalization::is_nfc(text)
}

/// A string in NFC, from an owned string: returned as it is when already
/// in NFC, without a copy.
pub fn nfc_owned(text: String) -> String {
    if is_nfc(&text) {
        text
    } else {
        text.nfc().collect()
    }
}

/// A part of a value visited by [`deepest_level`]: a value, or a type.
enum Part<'v> {
    Value(&'v Value),
    Type(&'v Type),
}

impl Type {
    /// How many levels the type nests: 1 for a primitive type, each nested
    /// type one level (as [`Value::levels`] counts a value's types). Never
    /// recurses.
    pub fn levels(&self) -> usize {
        deepest_level(Part::Type(self), usize::MAX)
    }
}

/// The deepest level of `start` (at level 1), its elements, attributes and
/// types each one level below the part holding them; or, as soon as a part
/// lies deeper than `limit`, that part's level. Walks with a stack of its
/// own, without recursion.
fn deepest_level(start: Part<'_>, limit: usize) -> usize {
    let mut stack = vec![(start, 1usize)];
    let mut deepest = 0;
    while let Some((part, depth)) = stack.pop() {
        if depth > limit {
            return depth;
        }
        deepest = deepest.max(depth);
        let inner = depth + 1;
        match part {
            Part::Value(v) => match v {
                Value::List(ty, elements) | Value::Set(ty, elements) => {
                    stack.push((Part::Type(ty), inner));
                    stack.extend(elements.iter().map(|e| (Part::Value(e), inner)));
                }
                Value::Map(ty, entries) => {
                    stack.push((Part::Type(ty), inner));
                    stack.extend(entries.values().map(|e| (Part::Value(e), inner)));
                }
                Value::Tuple(elements) => {
                    stack.extend(elements.iter().map(|e| (Part::Value(e), inner)));
                }
                Value::Object(attributes) => {
                    stack.extend(attributes.values().map(|e| (Part::Value(e), inner)));
                }
                Value::Null(ty) | Value::Unknown(ty) => stack.push((Part::Type(ty), inner)),
                _ => {}
            },
            Part::Type(ty) => match ty {
                Type::List(e) | Type::Set(e) | Type::Map(e) => stack.push((Part::Type(e), inner)),
                Type::Object(attributes) => {
                    stack.extend(attributes.values().map(|t| (Part::Type(t), inner)))
                }
                Type::Tuple(elements) => {
                    stack.extend(elements.iter().map(|t| (Part::Type(t), inner)))
                }
                _ => {}
            },
        }
    }
    deepest
}

impl Value {
    /// Whether the value nests deeper than `levels`, its elements and their
    /// types counted, each nested type or value one level. Stops as soon as
    /// it finds that it does, and never recurses.
    pub fn nests_deeper_than(&self, levels: usize) -> bool {
        deepest_level(Part::Value(self), levels) > levels
    }

    /// How many levels the value nests: 1 for a primitive value, its
    /// elements and their types counted, each nested type or value one
    /// level (as [`Value::nests_deeper_than`] counts them). Never recurses.
    pub fn levels(&self) -> usize {
        deepest_level(Part::Value(self), usize::MAX)
    }

    /// A string value, normalized to NFC.
    pub fn string(text: &str) -> Value {
        Value::String(nfc(text))
    }

    /// A string value from an owned string, normalized to NFC (without a
    /// copy when it already is).
    pub fn string_owned(text: String) -> Value {
        Value::String(nfc_owned(text))
    }

    pub fn number(n: Number) -> Value {
        Value::Number(n)
    }

    /// A list of values of exactly `element_type`.
    pub fn list(element_type: Type, elements: Vec<Value>) -> Result<Value, ElementTypeError> {
        check_elements(&element_type, &elements)?;
        Ok(Value::List(element_type, elements))
    }

    /// A set of values of exactly `element_type`. Equal known elements are
    /// kept once; elements that are or contain unknown values are all kept,
    /// since whether they equal another is not yet known.
    pub fn set(element_type: Type, mut elements: Vec<Value>) -> Result<Value, ElementTypeError> {
        check_elements(&element_type, &elements)?;
        elements.sort_by(canonical_cmp);
        elements.dedup_by(|a, b| a.is_wholly_known() && canonical_cmp(a, b) == Ordering::Equal);
        Ok(Value::Set(element_type, elements))
    }

    /// A map from (NFC-normalized) keys to values of exactly `element_type`.
    /// Keys equal after normalization keep the last value.
    pub fn map(
        element_type: Type,
        entries: impl IntoIterator<Item = (String, Value)>,
    ) -> Result<Value, ElementTypeError> {
        let entries: BTreeMap<String, Value> = entries
            .into_iter()
            .map(|(k, v)| (nfc_owned(k), v))
            .collect();
        check_elements(&element_type, entries.values())?;
        Ok(Value::Map(element_type, entries))
    }

    /// An object value; attribute names are normalized to NFC.
    pub fn object(attributes: impl IntoIterator<Item = (String, Value)>) -> Value {
        Value::Object(
            attributes
                .into_iter()
                .map(|(k, v)| (nfc_owned(k), v))
                .collect(),
        )
    }

    /// The value's type.
    ///
    /// "Each value has a _type_, which is dynamically determined during
    /// evaluation."
    pub fn ty(&self) -> Type {
        match self {
            Value::Null(ty) | Value::Unknown(ty) => ty.clone(),
            Value::String(_) => Type::String,
            Value::Number(_) => Type::Number,
            Value::Bool(_) => Type::Bool,
            Value::List(e, _) => Type::list(e.clone()),
            Value::Set(e, _) => Type::set(e.clone()),
            Value::Map(e, _) => Type::map(e.clone()),
            Value::Object(attributes) => Type::Object(
                attributes
                    .iter()
                    .map(|(name, v)| (name.clone(), v.ty()))
                    .collect(),
            ),
            Value::Tuple(elements) => Type::Tuple(elements.iter().map(Value::ty).collect()),
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null(_))
    }

    /// Whether the value itself is unknown (not whether it contains one).
    pub fn is_unknown(&self) -> bool {
        matches!(self, Value::Unknown(_))
    }

    /// Whether neither the value nor anything inside it is unknown.
    pub fn is_wholly_known(&self) -> bool {
        match self {
            Value::Unknown(_) => false,
            Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
                elements.iter().all(Value::is_wholly_known)
            }
            Value::Map(_, entries) | Value::Object(entries) => {
                entries.values().all(Value::is_wholly_known)
            }
            _ => true,
        }
    }

    /// The elements of a list, set or tuple, taken out of the value.
    pub fn into_elements(mut self) -> Result<Vec<Value>, Value> {
        match &mut self {
            Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
                Ok(std::mem::take(elements))
            }
            _ => Err(self),
        }
    }

    /// The entries of a map or the attributes of an object, taken out of
    /// the value.
    pub fn into_entries(mut self) -> Result<BTreeMap<String, Value>, Value> {
        match &mut self {
            Value::Map(_, entries) | Value::Object(entries) => Ok(std::mem::take(entries)),
            _ => Err(self),
        }
    }

    /// The text of a string value, taken out of the value.
    pub fn into_string(mut self) -> Result<String, Value> {
        match &mut self {
            Value::String(text) => Ok(std::mem::take(text)),
            _ => Err(self),
        }
    }

    /// The elements of a list, set or tuple, or the values of a map or
    /// object, in order.
    pub fn children(&self) -> Vec<&Value> {
        match self {
            Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
                elements.iter().collect()
            }
            Value::Map(_, entries) | Value::Object(entries) => entries.values().collect(),
            _ => Vec::new(),
        }
    }
}

/// A total order over values, used to keep set elements in a canonical
/// order. It orders by type first, then unknown before null before known,
/// then by content. It is not the equality of the information model (see
/// [`crate::equality`]), but two wholly known values of the same type are
/// equal exactly when this order says so.
pub fn canonical_cmp(a: &Value, b: &Value) -> Ordering {
    let by_type = a.ty().cmp(&b.ty());
    if by_type != Ordering::Equal {
        return by_type;
    }
    same_type_cmp(a, b)
}

/// [`canonical_cmp`] of two values of one type, whose parts then have one
/// type too: comparing their types again at every level of a deep value
/// would take time in the square of its depth.
fn same_type_cmp(a: &Value, b: &Value) -> Ordering {
    fn state(v: &Value) -> u8 {
        match v {
            Value::Unknown(_) => 0,
            Value::Null(_) => 1,
            _ => 2,
        }
    }
    match (a, b) {
        (Value::String(x), Value::String(y)) => x.cmp(y),
        (Value::Number(x), Value::Number(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::List(_, x), Value::List(_, y))
        | (Value::Set(_, x), Value::Set(_, y))
        | (Value::Tuple(x), Value::Tuple(y)) => cmp_sequences(x.iter(), y.iter()),
        (Value::Map(_, x), Value::Map(_, y)) | (Value::Object(x), Value::Object(y)) => {
            let keys = x.keys().cmp(y.keys());
            if keys != Ordering::Equal {
                return keys;
            }
            cmp_sequences(x.values(), y.values())
        }
        _ => state(a).cmp(&state(b)),
    }
}

/// Two sequences of values of one type each, element by element.
fn cmp_sequences<'a>(
    mut x: impl Iterator<Item = &'a Value>,
    mut y: impl Iterator<Item = &'a Value>,
) -> Ordering {
    loop {
        match (x.next(), y.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(a), Some(b)) => {
                let order = same_type_cmp(a, b);
                if order != Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

/// Values nest as deeply as their source (100,000 levels and more), so
/// dropping one must not recurse: children are moved onto a heap stack and
/// dropped one level at a time.
impl Drop for Value {
    fn drop(&mut self) {
        fn take_children(v: &mut Value, stack: &mut Vec<Value>) {
            match v {
                Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
                    stack.append(elements)
                }
                Value::Map(_, entries) | Value::Object(entries) => {
                    stack.extend(std::mem::take(entries).into_values())
                }
                _ => {}
            }
        }
        /// Whether a child of `v` has children: if none has, the
        /// compiler's drop of `v` recurses one level only (the common
        /// case, which then needs no stack).
        fn has_grandchildren(v: &Value) -> bool {
            fn has_children(v: &Value) -> bool {
                match v {
                    Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
                        !elements.is_empty()
                    }
                    Value::Map(_, entries) | Value::Object(entries) => !entries.is_empty(),
                    _ => false,
                }
            }
            match v {
                Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
                    elements.iter().any(has_children)
                }
                Value::Map(_, entries) | Value::Object(entries) => {
                    entries.values().any(has_children)
                }
                _ => false,
            }
        }
        if !has_grandchildren(self) {
            return;
        }
        let mut stack = Vec::new();
        take_children(self, &mut stack);
        while let Some(mut v) = stack.pop() {
            if has_grandchildren(&v) {
                take_children(&mut v, &mut stack);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_nfc() {
        assert_eq!(Value::string("e\u{301}"), Value::string("\u{e9}"));
    }

    #[test]
    fn sets_deduplicate_known_elements_only() {
        let one = Value::Number(Number::from_i64(1));
        let set = Value::set(Type::Number, vec![one.clone(), one.clone()]).unwrap();
        assert_eq!(set, Value::Set(Type::Number, vec![one]));
        let unknowns = Value::set(
            Type::Number,
            vec![Value::Unknown(Type::Number), Value::Unknown(Type::Number)],
        )
        .unwrap();
        assert_eq!(unknowns.children().len(), 2);
    }

    #[test]
    fn levels_count_each_nested_value_and_type() {
        let one = Value::Number(Number::from_i64(1));
        assert_eq!(one.levels(), 1);
        assert_eq!(Type::String.levels(), 1);
        // The list (1), its element type and its elements (2), a tuple's
        // element (3).
        let list = Value::List(
            Type::Tuple(vec![Type::Number]),
            vec![Value::Tuple(vec![one.clone()])],
        );
        assert_eq!(list.levels(), 3);
        assert!(list.nests_deeper_than(2));
        assert!(!list.nests_deeper_than(3));
        // A null's type is one level below it.
        assert_eq!(Value::Null(Type::list(Type::map(Type::Bool))).levels(), 4);
        assert_eq!(Type::object([("a", Type::set(Type::String))]).levels(), 3);
        let mut deep = one;
        for _ in 0..300_000 {
            deep = Value::Tuple(vec![deep]);
        }
        assert_eq!(deep.levels(), 300_001);
        assert!(deep.nests_deeper_than(300_000));
    }

    #[test]
    fn dropping_a_deep_value_does_not_recurse() {
        let mut v = Value::Tuple(Vec::new());
        for _ in 0..1_000_000 {
            v = Value::Tuple(vec![v]);
        }
        drop(v);
    }

    #[test]
    fn a_deep_result_of_evaluation_can_be_dropped_by_the_caller() {
        let depth = 100_000;
        let source = "[".repeat(depth) + &"]".repeat(depth);
        let ctx = crate::EvalContext::default();
        let v = crate::native::eval_expression(&source, &ctx).expect("deep tuples evaluate");
        drop(v);
    }

    #[test]
    fn collections_check_element_types() {
        assert!(Value::list(Type::String, vec![Value::Bool(true)]).is_err());
        assert!(Value::list(Type::String, vec![Value::Null(Type::String)]).is_ok());
    }
}
