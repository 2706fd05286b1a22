//! The equality of values.
//!
//! Spec: spec.md § Values and Value Types
//!
//! > Two values are _equal_ if and only if they have identical types and
//! > their values are equal according to the rules of their shared type.

use crate::types::Type;
use crate::value::Value;

/// The outcome of comparing two values that may contain unknowns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
    True,
    False,
    Unknown,
}

impl Truth {
    fn from_bool(b: bool) -> Truth {
        if b {
            Truth::True
        } else {
            Truth::False
        }
    }

    /// The truth as a bool value; `Unknown` is the unknown bool.
    pub fn to_value(self) -> Value {
        match self {
            Truth::True => Value::Bool(true),
            Truth::False => Value::Bool(false),
            Truth::Unknown => Value::Unknown(Type::Bool),
        }
    }

    /// `All` over a sequence: false wins over unknown, unknown over true.
    fn all(truths: impl IntoIterator<Item = Truth>) -> Truth {
        let mut result = Truth::True;
        for truth in truths {
            match truth {
                Truth::False => return Truth::False,
                Truth::Unknown => result = Truth::Unknown,
                Truth::True => {}
            }
        }
        result
    }
}

/// Whether two values are equal.
///
/// - "comparing two unknown values of any type for equality yields an unknown
///   bool": any unknown operand gives `Unknown`.
/// - "A null value of a particular type is equal to itself"; a null of the
///   dynamic pseudo-type stands for a null whose type is not yet known, so it
///   equals a null of any type. SPEC-GAP(spec-notes/gaps/null-equality.md)
/// - Otherwise types must be identical, or could become identical once the
///   dynamic pseudo-types in them are known (then the contents decide,
///   unknown where a dynamic part is unknown).
/// - Numbers are equal when numerically equal, infinities only to
///   themselves; strings are compared in NFC; structural and collection
///   values element by element.
///
/// Spec: spec.md § Values and Value Types, § Primitive Types, § Structural
/// Types, § Collection Types, § Null values
pub fn equal(a: &Value, b: &Value) -> Truth {
    equal_parts(a, b, true)
}

/// [`equal`], checking the types of `a` and `b` when `check_types`. Once
/// the types of two values could be identical, so could those of their
/// parts, which are compared without checking again: a check goes through
/// both types whole, and at every level of a deep value would take time in
/// the square of its depth.
fn equal_parts(a: &Value, b: &Value, check_types: bool) -> Truth {
    let types_fit = |could_be_identical: &dyn Fn() -> bool| !check_types || could_be_identical();
    match (a, b) {
        (Value::Unknown(_), _) | (_, Value::Unknown(_)) => Truth::Unknown,
        (Value::Null(ta), Value::Null(tb)) => {
            Truth::from_bool(ta == tb || *ta == Type::Dynamic || *tb == Type::Dynamic)
        }
        (Value::String(x), Value::String(y)) => Truth::from_bool(x == y),
        (Value::Number(x), Value::Number(y)) => Truth::from_bool(x == y),
        (Value::Bool(x), Value::Bool(y)) => Truth::from_bool(x == y),
        (Value::List(ta, x), Value::List(tb, y)) if types_fit(&|| ta.could_be_identical(tb)) => {
            sequences_equal(x, y)
        }
        (Value::Tuple(x), Value::Tuple(y)) if types_fit(&|| a.ty().could_be_identical(&b.ty())) => {
            sequences_equal(x, y)
        }
        (Value::Set(ta, x), Value::Set(tb, y)) if types_fit(&|| ta.could_be_identical(tb)) => {
            // Whether an unknown element equals another is not yet known, so
            // neither is the size of a set holding one.
            if !a.is_wholly_known() || !b.is_wholly_known() {
                return Truth::Unknown;
            }
            sequences_equal(x, y)
        }
        (Value::Map(ta, x), Value::Map(tb, y)) if types_fit(&|| ta.could_be_identical(tb)) => {
            if x.len() != y.len() || x.keys().ne(y.keys()) {
                return Truth::False;
            }
            Truth::all(
                x.values()
                    .zip(y.values())
                    .map(|(p, q)| equal_parts(p, q, false)),
            )
        }
        (Value::Object(x), Value::Object(y))
            if types_fit(&|| a.ty().could_be_identical(&b.ty())) =>
        {
            Truth::all(
                x.values()
                    .zip(y.values())
                    .map(|(p, q)| equal_parts(p, q, false)),
            )
        }
        // A null and a non-null value, values of different kinds, and
        // collections or structures whose types cannot be identical.
        _ => Truth::False,
    }
}

/// Two sequences whose types could be identical, element by element.
fn sequences_equal(x: &[Value], y: &[Value]) -> Truth {
    if x.len() != y.len() {
        return Truth::False;
    }
    Truth::all(x.iter().zip(y).map(|(p, q)| equal_parts(p, q, false)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::canonical_cmp;
    use std::cmp::Ordering;
    use std::time::{Duration, Instant};

    #[test]
    fn deep_values_compare_in_linear_time() {
        // Values nest as deep as their source. Checking the types at every
        // level would take 20,000² / 2 steps; once at the top, 20,000.
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(|| {
                let mut deep = Value::Tuple(Vec::new());
                for _ in 0..20_000 {
                    deep = Value::Tuple(vec![deep, Value::Null(Type::String)]);
                }
                let started = Instant::now();
                assert_eq!(equal(&deep, &deep.clone()), Truth::True);
                assert_eq!(canonical_cmp(&deep, &deep.clone()), Ordering::Equal);
                assert!(
                    started.elapsed() < Duration::from_secs(5),
                    "{:?}",
                    started.elapsed()
                );
                // A difference deep inside is still found.
                let other = Value::Tuple(vec![deep.clone(), Value::string("x")]);
                let same_shape = Value::Tuple(vec![deep, Value::string("y")]);
                assert_eq!(equal(&other, &same_shape), Truth::False);
                assert_eq!(canonical_cmp(&other, &same_shape), Ordering::Less);
            })
            .expect("a test thread")
            .join()
            .expect("the comparison");
    }

    #[test]
    fn parts_compare_by_their_types_once_the_whole_does() {
        let null_of = |ty: Type| Value::Tuple(vec![Value::Null(ty)]);
        assert_eq!(
            equal(&null_of(Type::String), &null_of(Type::Number)),
            Truth::False
        );
        assert_eq!(
            equal(&null_of(Type::String), &null_of(Type::Dynamic)),
            Truth::True
        );
        let list = |ty: Type| Value::Tuple(vec![Value::List(ty, Vec::new())]);
        assert_eq!(
            equal(&list(Type::String), &list(Type::Number)),
            Truth::False
        );
    }
}
