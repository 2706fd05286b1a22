//! Function tables, and the conformance function table.
//!
//! "The evaluation context used to evaluate an expression includes a
//! function table, which represents an application-defined set of named
//! functions available for use in expressions." The table an evaluation
//! sees is its context's ([`crate::EvalContext::functions`]); this
//! application's, the one every `expr`, `template` and `config` case is
//! evaluated with, is `runner/PROTOCOL.md` § The conformance function
//! table. Extensions add entries to it (the type expression extension's
//! `convert`).
//!
//! Spec: spec.md § Functions and Function Calls

use super::definition::{Function, TypeConstraintFunction};
use super::{collection, general, number, string};
use std::sync::{Arc, OnceLock};

/// The names of the conformance table's functions.
pub const NAMES: [&str; 10] = [
    "upper", "lower", "abs", "min", "max", "length", "concat", "coalesce", "keys", "join",
];

/// An entry of a function table.
#[derive(Clone, Debug)]
pub enum Entry {
    /// A function of argument values (spec.md § Functions and Function
    /// Calls).
    Function(Function),
    /// A function whose second argument is a type constraint written in the
    /// call, read rather than evaluated.
    TypeConstraint(TypeConstraintFunction),
}

impl Entry {
    /// The name calls use.
    pub fn name(&self) -> &'static str {
        match self {
            Entry::Function(f) => f.name,
            Entry::TypeConstraint(f) => f.name,
        }
    }
}

/// A function table: named functions, each name once.
///
/// Spec: spec.md § Functions and Function Calls
#[derive(Clone, Debug)]
pub struct FunctionTable {
    entries: Arc<[Entry]>,
}

impl FunctionTable {
    /// The conformance function table (`runner/PROTOCOL.md`), built once.
    pub fn conformance() -> FunctionTable {
        static TABLE: OnceLock<FunctionTable> = OnceLock::new();
        TABLE
            .get_or_init(|| FunctionTable {
                entries: NAMES.map(|name| Entry::Function(build(name))).into(),
            })
            .clone()
    }

    /// This table with `entry` added, in place of any entry of its name.
    pub fn with(&self, entry: Entry) -> FunctionTable {
        let mut entries: Vec<Entry> = self
            .entries
            .iter()
            .filter(|e| e.name() != entry.name())
            .cloned()
            .collect();
        entries.push(entry);
        FunctionTable {
            entries: entries.into(),
        }
    }

    /// The entry of this name, if the table has one.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.name() == name)
    }
}

fn build(name: &str) -> Function {
    match name {
        "upper" => string::upper(),
        "lower" => string::lower(),
        "join" => string::join(),
        "abs" => number::abs(),
        "min" => number::min(),
        "max" => number::max(),
        "length" => collection::length(),
        "concat" => collection::concat(),
        "keys" => collection::keys(),
        // NAMES holds no other name.
        _ => general::coalesce(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_conformance_name_has_its_function() {
        let table = FunctionTable::conformance();
        for name in NAMES {
            assert_eq!(table.get(name).map(Entry::name), Some(name));
        }
        assert!(table.get("convert").is_none());
        assert_eq!(table.entries.len(), NAMES.len());
    }

    #[test]
    fn an_added_entry_replaces_one_of_its_name() {
        let table = FunctionTable::conformance();
        let Some(Entry::Function(upper)) = table.get("upper").cloned() else {
            panic!("upper is a function");
        };
        let renamed = Entry::Function(Function {
            name: "shout",
            ..upper.clone()
        });
        let bigger = table.with(renamed.clone()).with(renamed);
        assert_eq!(bigger.entries.len(), NAMES.len() + 1);
        assert!(bigger.get("shout").is_some());
    }
}
