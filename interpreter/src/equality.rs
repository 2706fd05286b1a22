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
    match (a, b) {
        (Value::Unknown(_), _) | (_, Value::Unknown(_)) => Truth::Unknown,
        (Value::Null(ta), Value::Null(tb)) => {
            Truth::from_bool(ta == tb || *ta == Type::Dynamic || *tb == Type::Dynamic)
        }
        (Value::String(x), Value::String(y)) => Truth::from_bool(x == y),
        (Value::Number(x), Value::Number(y)) => Truth::from_bool(x == y),
        (Value::Bool(x), Value::Bool(y)) => Truth::from_bool(x == y),
        (Value::List(ta, x), Value::List(tb, y)) if ta.could_be_identical(tb) => {
            sequences_equal(x, y)
        }
        (Value::Tuple(x), Value::Tuple(y)) if a.ty().could_be_identical(&b.ty()) => {
            sequences_equal(x, y)
        }
        (Value::Set(ta, x), Value::Set(tb, y)) if ta.could_be_identical(tb) => {
            // Whether an unknown element equals another is not yet known, so
            // neither is the size of a set holding one.
            if !a.is_wholly_known() || !b.is_wholly_known() {
                return Truth::Unknown;
            }
            sequences_equal(x, y)
        }
        (Value::Map(ta, x), Value::Map(tb, y)) if ta.could_be_identical(tb) => {
            if x.len() != y.len() || x.keys().ne(y.keys()) {
                return Truth::False;
            }
            Truth::all(x.values().zip(y.values()).map(|(p, q)| equal(p, q)))
        }
        (Value::Object(x), Value::Object(y)) if a.ty().could_be_identical(&b.ty()) => {
            Truth::all(x.values().zip(y.values()).map(|(p, q)| equal(p, q)))
        }
        // A null and a non-null value, values of different kinds, and
        // collections or structures whose types cannot be identical.
        _ => Truth::False,
    }
}

fn sequences_equal(x: &[Value], y: &[Value]) -> Truth {
    if x.len() != y.len() {
        return Truth::False;
    }
    Truth::all(x.iter().zip(y).map(|(p, q)| equal(p, q)))
}
