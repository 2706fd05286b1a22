//! The conformance function table: the functions every `expr`, `template`
//! and `config` case is evaluated with.
//!
//! "The evaluation context used to evaluate an expression includes a
//! function table, which represents an application-defined set of named
//! functions available for use in expressions." This application's table is
//! `runner/PROTOCOL.md` § The conformance function table.
//!
//! Spec: spec.md § Functions and Function Calls

use super::definition::Function;
use super::{collection, general, number, string};
use std::sync::OnceLock;

/// The names of the table's functions.
pub const NAMES: [&str; 10] = [
    "upper", "lower", "abs", "min", "max", "length", "concat", "coalesce", "keys", "join",
];

/// The table's function of this name.
pub fn lookup(name: &str) -> Option<Function> {
    function(name).cloned()
}

/// The table's function of this name, built once.
pub(crate) fn function(name: &str) -> Option<&'static Function> {
    static TABLE: OnceLock<[Function; NAMES.len()]> = OnceLock::new();
    let table = TABLE.get_or_init(|| NAMES.map(build));
    table.iter().find(|function| function.name == name)
}

fn build(name: &str) -> Function {
    let function = match name {
        "upper" => string::upper(),
        "lower" => string::lower(),
        "join" => string::join(),
        "abs" => number::abs(),
        "min" => number::min(),
        "max" => number::max(),
        "length" => collection::length(),
        "concat" => collection::concat(),
        "keys" => collection::keys(),
        "coalesce" => general::coalesce(),
        _ => unreachable!("{name} is in NAMES"),
    };
    debug_assert_eq!(function.name, name);
    function
}
