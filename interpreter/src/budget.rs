//! The evaluation budget: what handling a request may build and do,
//! counted in bytes (runner/PROTOCOL.md § Limits).
//!
//! Spec: spec.md § Expression Evaluation (a limit of this implementation,
//! not of the language)

use crate::diagnostic::{Diagnostic, Phase};
pub use crate::memory::{allocation, sequence_bytes, text_bytes, tree_bytes};
use crate::types::Type;
use crate::value::Value;
use std::cell::Cell;
use std::mem::size_of;

/// The evaluation budget: a resource limit of this implementation, not of
/// the language. The spec lets a program ask for work and memory far beyond
/// its size (`[for a in l: [for b in l: [for c in l: {x = c}]]]` builds a
/// billion objects from a thousand numbers), so evaluation counts what it
/// builds, in bytes, and ends in the diagnostic "Evaluation budget
/// exceeded" when the limit is reached, rather than running out of memory
/// or time.
///
/// What counts (runner/PROTOCOL.md § Limits):
/// - every value built, copied or converted, at its size in memory
///   ([`Budget::charge_value`]);
/// - each expression evaluated, [`Budget::EXPRESSION_BYTES`], and the list
///   of elements each `for` visits, so that the steps of an evaluation
///   that builds little are bounded too;
/// - arithmetic and comparisons of large numbers, and the conversion of
///   numbers to and from text, in proportion to the work they do on their
///   digits ([`crate::number::Number::work_of`]);
/// - the comparison of two strings or two collections, their size;
/// - the types that unification and conversion compute;
/// - for the calling application: reading the values it evaluates with,
///   and writing the results (`hcl-ref` reads requests and writes answers
///   within a request's budget).
///
/// Bytes are counted as they are spent and never given back, so the count
/// bounds the memory an evaluation holds at any one time. The count is
/// shared by every evaluation made with the same context: a configuration
/// file's attributes share one budget.
///
/// Work in proportion to the input is always allowed: each source an
/// evaluation reads (an expression, a template, a configuration file)
/// raises the limit by [`Budget::SOURCE_ALLOWANCE`] bytes per byte, several
/// times what realistic configurations spend.
///
/// The default, [`Budget::DEFAULT_LIMIT`], is far beyond every case of the
/// suite, and keeps a runaway evaluation of a small input to a few seconds
/// and well under a gigabyte. It is one of the limits the spec leaves to
/// implementations (runner/PROTOCOL.md § Limits).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    limit: Cell<u64>,
    spent: Cell<u64>,
    /// Whether a charge has failed: the work that asked for it stopped,
    /// and whoever reports its failure reports the budget's.
    exceeded: Cell<bool>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(Budget::DEFAULT_LIMIT)
    }
}

/// The evaluation budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetExceeded {
    /// The limit, in bytes, that the work would have gone beyond.
    pub limit: u64,
}

impl BudgetExceeded {
    /// The diagnostic's summary.
    pub const SUMMARY: &'static str = "Evaluation budget exceeded";

    /// The diagnostic's detail.
    pub fn detail(self) -> String {
        format!(
            "This needs more memory and work than the evaluation budget of {} bytes allows: values built, copied or converted count their size in memory, each expression evaluated {} bytes, arithmetic on large numbers the work it does on their digits.",
            self.limit,
            Budget::EXPRESSION_BYTES
        )
    }

    /// The diagnostic, without a range, in `phase`.
    pub fn diagnostic(self, phase: Phase) -> Diagnostic {
        Diagnostic::new(phase, Self::SUMMARY, self.detail())
    }
}

impl Budget {
    /// The default limit: 2^29 bytes (512 MiB).
    pub const DEFAULT_LIMIT: u64 = 1 << 29;

    /// The charge for each expression evaluated.
    pub const EXPRESSION_BYTES: u64 = 16;

    /// The bytes each byte of a source read raises the limit by.
    pub const SOURCE_ALLOWANCE: u64 = 64;

    /// A budget of `limit` bytes, none spent.
    pub const fn new(limit: u64) -> Budget {
        Budget {
            limit: Cell::new(limit),
            spent: Cell::new(0),
            exceeded: Cell::new(false),
        }
    }

    /// The number of bytes evaluations may spend (the limit it was made
    /// with, raised by the sources read so far).
    pub fn limit(&self) -> u64 {
        self.limit.get()
    }

    /// Raises the limit for a source of `bytes` bytes about to be read:
    /// work in proportion to the input is always allowed.
    pub(crate) fn allow_source(&self, bytes: usize) {
        let allowance = (bytes as u64).saturating_mul(Self::SOURCE_ALLOWANCE);
        self.limit.set(self.limit.get().saturating_add(allowance));
    }

    /// The bytes spent so far.
    pub fn spent(&self) -> u64 {
        self.spent.get()
    }

    /// Whether a charge has failed: the budget ran out.
    pub fn is_exceeded(&self) -> bool {
        self.exceeded.get()
    }

    /// The failure of the charge that failed, if one did: what work that
    /// stopped on it reports, whatever error it stopped with.
    pub fn exceeded(&self) -> Option<BudgetExceeded> {
        self.is_exceeded().then(|| BudgetExceeded {
            limit: self.limit(),
        })
    }

    /// The bytes left.
    fn remaining(&self) -> u64 {
        self.limit().saturating_sub(self.spent.get())
    }

    /// Spends `bytes`, or reports that the budget would be exceeded (and
    /// remembers it).
    #[inline]
    pub fn charge(&self, bytes: u64) -> Result<(), BudgetExceeded> {
        let spent = self.spent.get().saturating_add(bytes);
        if spent > self.limit() {
            return Err(self.exceed());
        }
        self.spent.set(spent);
        Ok(())
    }

    #[cold]
    fn exceed(&self) -> BudgetExceeded {
        self.exceeded.set(true);
        BudgetExceeded {
            limit: self.limit(),
        }
    }

    /// Spends the size in memory of `v`, built, copied or converted: a
    /// string its bytes, a number the words of its digits, a sequence a
    /// slot for each element, an object or a map the nodes of its tree and
    /// its names, a collection, a null or an unknown the type it carries;
    /// each block as the allocator hands it out ([`allocation`]), the parts
    /// it holds included. Counting stops as soon as the budget is
    /// exceeded, so it never costs more than the work it pays for.
    pub fn charge_value(&self, v: &Value) -> Result<(), BudgetExceeded> {
        self.charge_parts(Part::Value(v))
    }

    /// Spends the size in memory of `ty`, built or copied.
    pub fn charge_type(&self, ty: &Type) -> Result<(), BudgetExceeded> {
        self.charge_parts(Part::Type(ty))
    }

    /// Walks a value or a type, without recursion (both nest as deep as
    /// their source), adding up the memory of its parts.
    fn charge_parts(&self, root: Part<'_>) -> Result<(), BudgetExceeded> {
        let remaining = self.remaining();
        let mut bytes: u64 = 0;
        let mut stack = vec![root];
        while let Some(part) = stack.pop() {
            bytes = bytes.saturating_add(part.own_bytes());
            part.push_parts(&mut stack);
            if bytes > remaining {
                break;
            }
        }
        self.charge(bytes)
    }
}

/// A part of a value or of a type, as [`Budget::charge_parts`] visits it.
enum Part<'a> {
    Value(&'a Value),
    Type(&'a Type),
    /// An attribute, element or type name.
    Name(&'a str),
}

impl<'a> Part<'a> {
    /// The memory the part holds itself, apart from the parts it holds:
    /// the blocks its vector or tree takes from the allocator.
    fn own_bytes(&self) -> u64 {
        match self {
            Part::Value(Value::String(text)) => text_bytes(text.capacity()),
            Part::Value(Value::Number(n)) => n.heap_bytes(),
            Part::Value(Value::List(_, elements) | Value::Set(_, elements)) => {
                sequence_bytes::<Value>(elements.capacity())
            }
            Part::Value(Value::Tuple(elements)) => sequence_bytes::<Value>(elements.capacity()),
            Part::Value(Value::Map(_, entries) | Value::Object(entries)) => {
                tree_bytes::<Value>(entries.len())
            }
            Part::Value(Value::Null(_) | Value::Unknown(_) | Value::Bool(_)) => 0,
            Part::Type(Type::List(_) | Type::Set(_) | Type::Map(_)) => {
                allocation(size_of::<Type>())
            }
            Part::Type(Type::Object(attributes)) => tree_bytes::<Type>(attributes.len()),
            Part::Type(Type::Tuple(elements)) => sequence_bytes::<Type>(elements.capacity()),
            Part::Type(Type::String | Type::Number | Type::Bool | Type::Dynamic) => 0,
            Part::Name(name) => text_bytes(name.len()),
        }
    }

    /// Pushes the parts this part holds.
    fn push_parts(&self, stack: &mut Vec<Part<'a>>) {
        match *self {
            Part::Value(v) => match v {
                Value::Null(ty) | Value::Unknown(ty) => stack.push(Part::Type(ty)),
                Value::List(ty, elements) | Value::Set(ty, elements) => {
                    stack.push(Part::Type(ty));
                    stack.extend(elements.iter().map(Part::Value));
                }
                Value::Tuple(elements) => stack.extend(elements.iter().map(Part::Value)),
                Value::Map(ty, entries) => {
                    stack.push(Part::Type(ty));
                    for (name, v) in entries {
                        stack.extend([Part::Name(name), Part::Value(v)]);
                    }
                }
                Value::Object(entries) => {
                    for (name, v) in entries {
                        stack.extend([Part::Name(name), Part::Value(v)]);
                    }
                }
                Value::String(_) | Value::Number(_) | Value::Bool(_) => {}
            },
            Part::Type(ty) => match ty {
                Type::List(element) | Type::Set(element) | Type::Map(element) => {
                    stack.push(Part::Type(element))
                }
                Type::Object(attributes) => {
                    for (name, ty) in attributes {
                        stack.extend([Part::Name(name), Part::Type(ty)]);
                    }
                }
                Type::Tuple(elements) => stack.extend(elements.iter().map(Part::Type)),
                Type::String | Type::Number | Type::Bool | Type::Dynamic => {}
            },
            Part::Name(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::Number;

    fn charged(charge: impl Fn(&Budget) -> Result<(), BudgetExceeded>) -> u64 {
        let budget = Budget::new(u64::MAX);
        charge(&budget).expect("an unlimited budget");
        budget.spent()
    }

    #[test]
    fn allocations_are_counted_as_the_allocator_hands_them_out() {
        assert_eq!(allocation(0), 0);
        assert_eq!(allocation(1), 32);
        assert_eq!(allocation(24), 32);
        assert_eq!(allocation(25), 48);
        assert_eq!(text_bytes(1000), 1008);
        assert_eq!(sequence_bytes::<Value>(10), allocation(640));
    }

    #[test]
    fn a_one_attribute_object_costs_a_whole_node() {
        let object = Value::object([("x".to_string(), Value::Bool(true))]);
        let node = tree_bytes::<Value>(1);
        assert!(node >= 11 * size_of::<Value>() as u64);
        assert_eq!(charged(|b| b.charge_value(&object)), node + text_bytes(1));
        // Ten times the attributes, about twice the nodes of five.
        let names = (0..50).map(|i| (format!("a{i:02}"), Value::Bool(true)));
        let wide = Value::object(names);
        assert_eq!(
            charged(|b| b.charge_value(&wide)),
            11 * allocation(16 + 11 * (24 + size_of::<Value>())) + 50 * text_bytes(3)
        );
    }

    #[test]
    fn collections_count_their_slots_their_elements_and_their_type() {
        let element = Type::object([("a", Type::String)]);
        let list = Value::List(
            element.clone(),
            vec![Value::Null(element.clone()), Value::Null(element.clone())],
        );
        let ty = charged(|b| b.charge_type(&element));
        assert_eq!(ty, tree_bytes::<Type>(1) + text_bytes(1));
        assert_eq!(
            charged(|b| b.charge_value(&list)),
            sequence_bytes::<Value>(2) + 3 * ty
        );
        let text = Value::string(&"x".repeat(100));
        assert_eq!(charged(|b| b.charge_value(&text)), text_bytes(100));
        assert_eq!(charged(|b| b.charge_value(&Value::Bool(true))), 0);
    }

    #[test]
    fn a_big_number_costs_its_digits() {
        let big = Number::parse_decimal(&"7".repeat(10_000), false).unwrap();
        let bytes = charged(|b| b.charge_value(&Value::Number(big.clone())));
        // 10,000 decimal digits take about 4,152 bytes.
        assert!((4_152..4_300).contains(&bytes), "{bytes}");
        assert_eq!(
            charged(|b| b.charge_value(&Value::Number(Number::from_i64(7)))),
            0
        );
    }

    #[test]
    fn a_charge_beyond_the_limit_fails_and_is_remembered() {
        let budget = Budget::new(100);
        assert_eq!(budget.charge(60), Ok(()));
        assert!(!budget.is_exceeded());
        assert_eq!(budget.charge(60), Err(BudgetExceeded { limit: 100 }));
        assert!(budget.is_exceeded());
        assert_eq!(budget.spent(), 60);
        budget.allow_source(1);
        assert_eq!(budget.limit(), 100 + Budget::SOURCE_ALLOWANCE);
    }

    #[test]
    fn counting_a_value_stops_once_the_budget_is_exceeded() {
        // A value nested a million levels deep: counting it neither
        // recurses nor goes on once the budget is spent.
        let mut deep = Value::Tuple(Vec::new());
        for _ in 0..1_000_000 {
            deep = Value::Tuple(vec![deep]);
        }
        let budget = Budget::new(1_000);
        assert!(budget.charge_value(&deep).is_err());
        let unlimited = charged(|b| b.charge_value(&deep));
        assert_eq!(unlimited, 1_000_000 * sequence_bytes::<Value>(1));
    }
}
