//! A spec-literal reference interpreter for HCL v2.
//!
//! Each module implements one section of the specification and is named after
//! it; every item cites the section it implements as
//! `Spec: <document> § <section>`. Where the specification is silent or the
//! reference implementation departs from it, a `SPEC-GAP(...)` tag names the
//! note under `spec-notes/` that records the decision.
//!
//! The map of modules follows the specification's documents, in layers:
//! each module uses only modules of its own layer or below (see
//! `ARCHITECTURE.md`).
//!
//! The information model (`spec.md`):
//! - [`types`]: § Values and Value Types: the types, type identity and the
//!   *matches* relation.
//! - [`number`]: § Primitive Types: arbitrary-precision numbers.
//! - [`value`]: § Values and Value Types: values, null and unknown.
//! - [`equality`]: the equality of values.
//! - [`convert`]: § Type Conversions and Unification.
//! - [`unify`]: § Type Unification.
//! - [`operations`]: the operations on values that the native syntax's
//!   operators denote (`hclsyntax-spec.md` § Operations).
//! - [`functions`]: § Functions and Function Calls: functions, function
//!   tables, and the conformance function table.
//! - [`eval_context`]: § Expression Evaluation: the variables, the function
//!   table and the budget an expression is evaluated with.
//! - [`static_analysis`]: § Static Analysis: the interface through which
//!   code above the syntaxes reads an expression of either, and the results.
//! - [`bodies`]: § Structural Elements, § Schema-driven Processing and
//!   after: body processing, for bodies of any syntax.
//! - [`diagnostic`], [`source`]: the one error type of every phase, and
//!   source positions.
//!
//! The syntaxes: [`native`] (`hclsyntax-spec.md`) and [`json`]
//! (`json-spec.md`, whose strings hold native templates).
//!
//! The extensions, above both syntaxes, which they read only through the
//! interfaces of [`static_analysis`] and [`bodies`]: [`typeexpr`]
//! (`ext-typeexpr-README.md`) and [`dynblock`] (`ext-dynblock-README.md`).
//!
//! The calling application of the suite's `config` cases: [`config`].
//! [`large_stack`] runs deep work on a stack large enough for it.

pub mod bodies;
pub mod budget;
pub mod config;
pub mod convert;
pub mod diagnostic;
pub mod dynblock;
pub mod equality;
pub mod eval_context;
pub mod functions;
pub mod json;
pub mod large_stack;
pub mod memory;
pub mod native;
pub mod number;
pub mod operations;
/// Planted bugs for proving the differential fuzzer; compiled only with the
/// `planted-bugs` feature, never in a release.
#[cfg(feature = "planted-bugs")]
pub mod planted;
pub mod source;
pub mod static_analysis;
pub mod typeexpr;
pub mod types;
pub mod unify;
pub mod value;

/// `hcl-ref`'s start-up check of `HCL_REF_PLANTED_BUG`: a build without
/// the `planted-bugs` feature has no planted bug to choose (with it,
/// `planted.rs` defines this macro).
#[cfg(not(feature = "planted-bugs"))]
#[macro_export]
macro_rules! check_planted_bug {
    () => {
        ::core::result::Result::<(), &'static str>::Ok(())
    };
}

pub use diagnostic::{Diagnostic, Phase};
pub use eval_context::EvalContext;
pub use number::Number;
pub use types::Type;
pub use value::Value;
