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
//! A name may be namespaced, `core::upper`: hashicorp/hcl v2.20.0 and later
//! call a function by such a name, and keep it in the table as one string,
//! its identifiers joined by `::` (the specification, written before, has
//! no namespaces). The conformance table holds each of its functions also
//! in the namespaces of [`NAMESPACES`].
//! SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
//!
//! Spec: spec.md § Functions and Function Calls

use super::definition::{Function, TypeConstraintFunction};
use super::{collection, general, number, string};
use std::sync::{Arc, OnceLock};

/// The names of the conformance table's functions.
pub const NAMES: [&str; 10] = [
    "upper", "lower", "abs", "min", "max", "length", "concat", "coalesce", "keys", "join",
];

/// The namespaces the conformance table also holds each of its functions
/// in (`runner/PROTOCOL.md` § The conformance function table): `upper` is
/// also `core::upper` and `provider::conformance::upper`.
pub const NAMESPACES: [&str; 2] = ["core", "provider::conformance"];

/// The separator of a namespaced function name's parts.
pub const NAMESPACE_SEPARATOR: &str = "::";

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

/// A function table: named functions, each name once. One function may be
/// in the table under several names (`upper` and `core::upper`).
///
/// Spec: spec.md § Functions and Function Calls
#[derive(Clone, Debug)]
pub struct FunctionTable {
    /// Each name calls use, with its function.
    entries: Arc<[(String, Entry)]>,
}

impl FunctionTable {
    /// The conformance function table (`runner/PROTOCOL.md`), built once:
    /// each function under its name and in each of [`NAMESPACES`].
    pub fn conformance() -> FunctionTable {
        static TABLE: OnceLock<FunctionTable> = OnceLock::new();
        TABLE
            .get_or_init(|| {
                let mut entries = Vec::with_capacity(NAMES.len() * (1 + NAMESPACES.len()));
                for name in NAMES {
                    let entry = Entry::Function(build(name));
                    for namespace in NAMESPACES {
                        let qualified = [namespace, name].join(NAMESPACE_SEPARATOR);
                        entries.push((qualified, entry.clone()));
                    }
                    entries.push((name.to_string(), entry));
                }
                FunctionTable {
                    entries: entries.into(),
                }
            })
            .clone()
    }

    /// This table with `entry` added under its name, in place of any entry
    /// of that name.
    pub fn with(&self, entry: Entry) -> FunctionTable {
        let name = entry.name();
        let mut entries: Vec<(String, Entry)> = self
            .entries
            .iter()
            .filter(|(n, _)| n != name)
            .cloned()
            .collect();
        entries.push((name.to_string(), entry));
        FunctionTable {
            entries: entries.into(),
        }
    }

    /// The entry of this name, if the table has one.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, entry)| entry)
    }

    /// Whether the table has a function in `namespace` (`core`,
    /// `provider::conformance`), or in a namespace within it: whether a
    /// name starts with the namespace and `::`.
    pub fn has_namespace(&self, namespace: &str) -> bool {
        self.entries.iter().any(|(n, _)| {
            n.strip_prefix(namespace)
                .is_some_and(|rest| rest.starts_with(NAMESPACE_SEPARATOR))
        })
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
        assert_eq!(table.entries.len(), NAMES.len() * 3);
    }

    #[test]
    fn every_conformance_function_is_also_in_each_namespace() {
        let table = FunctionTable::conformance();
        for name in NAMES {
            for qualified in [
                format!("core::{name}"),
                format!("provider::conformance::{name}"),
            ] {
                assert_eq!(table.get(&qualified).map(Entry::name), Some(name));
            }
        }
        assert!(table.get("core::convert").is_none());
        assert!(table.get("conformance::upper").is_none());
        assert!(table.get("core::").is_none());
    }

    #[test]
    fn a_namespace_is_known_by_the_names_in_it() {
        let table = FunctionTable::conformance();
        for namespace in ["core", "provider", "provider::conformance"] {
            assert!(table.has_namespace(namespace), "{namespace}");
        }
        // Neither a part of a namespace's name, nor a function's name, nor
        // a namespace within the other namespaces, is a namespace.
        for not in [
            "cor",
            "conformance",
            "upper",
            "provider::conf",
            "core::upper",
            "",
        ] {
            assert!(!table.has_namespace(not), "{not}");
        }
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
        assert_eq!(bigger.entries.len(), NAMES.len() * 3 + 1);
        assert!(bigger.get("shout").is_some());
        assert!(bigger.get("core::shout").is_none());
    }
}
