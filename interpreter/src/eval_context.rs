//! The evaluation context: the variables in scope and the function table.
//!
//! Spec: spec.md § Expression Evaluation

use crate::value::Value;
use std::collections::BTreeMap;

/// What an expression is evaluated with: the global variable scope ("a map
/// from variable name to value"), the evaluation mode, and the function
/// table: the conformance table of [`crate::functions`], joined by `convert`
/// when `typeexpr` is set.
///
/// Spec: spec.md § Expression Evaluation, § Values and Value Types
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalContext {
    pub variables: BTreeMap<String, Value>,
    /// "In _literal-only mode_, variables and functions are not available":
    /// with this set, no function may be called. (The variables are the
    /// caller's to leave empty: see [`crate::bodies::check_literal_only`].)
    pub literal_only: bool,
    /// Whether the function table also has `convert(value, type)`, the type
    /// expression extension's conversion function, whose second argument
    /// is a type constraint written inline ([`crate::typeexpr`]).
    ///
    /// Spec: ext-typeexpr-README.md § The "convert" `cty` Function
    pub typeexpr: bool,
}

impl EvalContext {
    /// The context of literal-only mode: "variables and functions are not
    /// available".
    ///
    /// Spec: spec.md § Expression Evaluation
    pub const LITERAL_ONLY: EvalContext = EvalContext {
        variables: BTreeMap::new(),
        literal_only: true,
        typeexpr: false,
    };
}
