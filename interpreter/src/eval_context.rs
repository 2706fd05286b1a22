//! The evaluation context: the variables in scope and the function table.
//!
//! Spec: spec.md § Expression Evaluation

use crate::value::Value;
use std::collections::BTreeMap;

/// What an expression is evaluated with: the global variable scope ("a map
/// from variable name to value") and the evaluation mode. The function table
/// is the conformance table of [`crate::functions`].
///
/// Spec: spec.md § Expression Evaluation, § Values and Value Types
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvalContext {
    pub variables: BTreeMap<String, Value>,
    /// "In _literal-only mode_, variables and functions are not available":
    /// with this set, no function may be called. (The variables are the
    /// caller's to leave empty: see [`crate::bodies::check_literal_only`].)
    pub literal_only: bool,
}
