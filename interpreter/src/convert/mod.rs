//! Type conversion.
//!
//! Spec: spec.md § Type Conversions and Unification
//!
//! The public API is [`convert`] (a value to a type, unsafe conversions
//! allowed, reporting the conversion's safety) and [`conversion_safety`]
//! (whether, and how safely, one type converts to another). The rules for
//! null values, the dynamic pseudo-type and unknown values are applied once,
//! here; the per-kind rules live in [`primitive`], [`collection`] and
//! [`structural`], and the type-level rules in [`safety`].

mod collection;
mod primitive;
mod safety;
mod structural;

pub use safety::{conversion_safety, resolve_target};

use crate::budget::{Budget, BudgetExceeded};
use crate::diagnostic::{shown, Diagnostic, Phase};
use crate::types::Type;
use crate::value::Value;

/// The two classes of conversion.
///
/// "A conversion is "safe" if any distinct value of the source type has a
/// corresponding distinct value in the target type. A conversion is "unsafe"
/// if either the target type values are _not_ distinct [...] or if some
/// values of the source type do not have any corresponding value in the
/// target type."
///
/// Spec: spec.md § Type Conversions and Unification
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Safety {
    Unsafe,
    Safe,
}

impl Safety {
    /// The safety of a conversion made of two conversions: safe only if both
    /// are.
    pub fn and(self, other: Safety) -> Safety {
        self.min(other)
    }

    /// Both safeties.
    pub const ALL: [Safety; 2] = [Safety::Safe, Safety::Unsafe];

    pub fn name(self) -> &'static str {
        match self {
            Safety::Safe => "safe",
            Safety::Unsafe => "unsafe",
        }
    }
}

/// The result of a successful conversion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Converted {
    pub value: Value,
    pub safety: Safety,
}

/// A conversion failure deep inside a value: where, and why; or the
/// evaluation budget, which ran out wherever it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Failure {
    /// The path from the converted value to the failing part, such as
    /// `[2].name`; empty for the value itself.
    pub path: String,
    pub message: String,
    /// The budget ran out: the conversion stopped.
    pub exceeded: Option<BudgetExceeded>,
}

impl Failure {
    pub(crate) fn new(message: impl Into<String>) -> Failure {
        Failure {
            path: String::new(),
            message: message.into(),
            exceeded: None,
        }
    }

    /// The same failure seen from the enclosing value.
    pub(crate) fn inside(mut self, step: &str) -> Failure {
        if self.exceeded.is_none() {
            self.path.insert_str(0, step);
        }
        self
    }

    fn into_diagnostic(self) -> Diagnostic {
        if let Some(exceeded) = self.exceeded {
            return exceeded.diagnostic(Phase::Conversion);
        }
        let summary = if self.path.is_empty() {
            self.message
        } else {
            format!("at {}: {}", shown(&self.path), self.message)
        };
        Diagnostic::new(Phase::Conversion, summary, "")
    }
}

impl From<BudgetExceeded> for Failure {
    fn from(exceeded: BudgetExceeded) -> Failure {
        Failure {
            path: String::new(),
            message: BudgetExceeded::SUMMARY.into(),
            exceeded: Some(exceeded),
        }
    }
}

/// Converts a value to a type, allowing unsafe conversions, and reports the
/// class of the conversion that applied.
///
/// - "Conversion of any value _to_ the dynamic pseudo-type is a no-op. The
///   result is the input value, verbatim."
/// - "All null values are safely convertable to a null value of any other
///   type, regardless of other type-specific rules" — the null of the dynamic
///   pseudo-type included. SPEC-GAP(spec-notes/gaps/null-to-any-type.md)
/// - "Conversion _from_ the dynamic pseudo-type _to_ any other type always
///   succeeds, producing an unknown value of the target type."
/// - Otherwise the target is resolved against the value's type (the dynamic
///   parts of a type specification such as `list(any)` take the source's
///   types) and the type-level rules decide whether, and how safely, the
///   conversion exists; the value-level rules then convert, failing where
///   an unsafe conversion has no result for this value.
///
/// What the conversion builds is paid for from `budget` as it is built
/// (the value's type, the resolved target type, every part of the
/// result), so that a conversion whose result outgrows the budget (a
/// thousand objects of different attributes to `list(any)`, each then
/// given every attribute) stops there: the error is then the budget's,
/// in phase conversion.
///
/// Spec: spec.md § Type Conversions and Unification
pub fn convert(v: &Value, to: &Type, budget: &Budget) -> Result<Converted, Diagnostic> {
    let safe = |value| Converted {
        value,
        safety: Safety::Safe,
    };
    let out_of_budget = |exceeded: BudgetExceeded| exceeded.diagnostic(Phase::Conversion);
    if *to == Type::Dynamic {
        budget.charge_value(v).map_err(out_of_budget)?;
        return Ok(safe(v.clone()));
    }
    if let Value::Null(_) = v {
        budget.charge_type(to).map_err(out_of_budget)?;
        return Ok(safe(Value::Null(to.clone())));
    }
    // The dynamic value takes the general path: the dynamic pseudo-type
    // converts safely to every type (`conversion_safety`), and an unknown
    // value becomes the unknown value of the target type (`convert_value`).
    let from = v.ty();
    budget.charge_type(&from).map_err(out_of_budget)?;
    let no_conversion = || {
        Diagnostic::new(
            Phase::Conversion,
            format!("no conversion from {} to {}", shown(&from), shown(to)),
            "",
        )
    };
    let target = resolve_target(&from, to).ok_or_else(no_conversion)?;
    budget.charge_type(&target).map_err(out_of_budget)?;
    let safety = conversion_safety(&from, &target).ok_or_else(no_conversion)?;
    let value = convert_value(v, &target, budget).map_err(Failure::into_diagnostic)?;
    Ok(Converted { value, safety })
}

/// Converts a value whose type is known to convert to `to`, where `to` has
/// already been resolved against the value's type, paying for what it
/// builds from `budget`.
pub(crate) fn convert_value(v: &Value, to: &Type, budget: &Budget) -> Result<Value, Failure> {
    // The resolved target has the dynamic pseudo-type only where the value
    // is null or unknown (the dynamic parts of a specification took the
    // source's types), so the first two arms also convert to it.
    match (v, to) {
        (Value::Null(_), _) => {
            budget.charge_type(to)?;
            Ok(Value::Null(to.clone()))
        }
        // An unknown value converts to the unknown value of the target type:
        // which value it becomes is as unknown as the value itself.
        (Value::Unknown(_), _) => {
            budget.charge_type(to)?;
            Ok(Value::Unknown(to.clone()))
        }
        (Value::String(_) | Value::Number(_) | Value::Bool(_), _) => {
            primitive::convert_primitive(v, to, budget)
        }
        (_, Type::List(_) | Type::Set(_) | Type::Map(_)) => {
            collection::convert_to_collection(v, to, budget)
        }
        (_, Type::Tuple(_)) => structural::convert_to_tuple(v, to, budget),
        (_, Type::Object(_)) => structural::convert_to_object(v, to, budget),
        _ => Err(Failure::new(format!(
            "a {} value cannot become a {}",
            v.ty().kind_name(),
            shown(to)
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::{text_bytes, tree_bytes};
    use crate::number::Number;

    /// A hundred objects of one attribute each, each named differently.
    fn distinct_objects(n: usize) -> Value {
        let object = |i: usize| Value::object([(format!("k{i}"), Value::Bool(true))]);
        Value::Tuple((0..n).map(object).collect())
    }

    #[test]
    fn a_conversion_pays_for_every_attribute_it_fills_in() {
        // Converted to `list(any)`, each object gets the hundred attributes
        // of the unified type: a hundred trees of a hundred attributes.
        let objects = distinct_objects(100);
        let to = Type::list(Type::Dynamic);
        let budget = Budget::new(u64::MAX);
        convert(&objects, &to, &budget).expect("the objects convert");
        let filled = 100 * (tree_bytes::<Value>(100) + 100 * text_bytes(3));
        assert!(budget.spent() >= filled, "{}", budget.spent());
        // Half of it is not enough: the conversion stops, with the budget's
        // error.
        let half = Budget::new(budget.spent() / 2);
        let error = convert(&objects, &to, &half).unwrap_err();
        assert_eq!(error.summary, BudgetExceeded::SUMMARY);
        assert_eq!(error.phase, Phase::Conversion);
        assert!(half.is_exceeded());
    }

    #[test]
    fn writing_a_large_number_as_text_pays_for_the_work_first() {
        let big = Value::Number(Number::parse_decimal(&"7".repeat(20_000), false).unwrap());
        let Value::Number(n) = &big else {
            unreachable!("a number")
        };
        let budget = Budget::new(n.text_work());
        assert!(convert(&big, &Type::String, &budget).is_err());
        let budget = Budget::new(u64::MAX);
        convert(&big, &Type::String, &budget).expect("a number converts to text");
        assert!(budget.spent() >= n.text_work() + 20_000);
    }
}
