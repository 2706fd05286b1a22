//! A spec-literal reference interpreter for HCL v2.
//!
//! Each module implements one section of the specification and is named after
//! it; every item cites the section it implements as
//! `Spec: <document> § <section>`. Where the specification is silent or the
//! reference implementation departs from it, a `SPEC-GAP(...)` tag names the
//! note under `spec-notes/` that records the decision.
//!
//! The information model (`spec.md`):
//! - [`types`]: § Values and Value Types: the types, type identity and the
//!   *matches* relation, and the type syntax the suite writes types in.
//! - [`number`]: § Primitive Types: arbitrary-precision numbers.
//! - [`value`]: § Values and Value Types: values, null and unknown.
//! - [`equality`]: the equality of values.
//! - [`convert`]: § Type Conversions and Unification.
//! - [`unify`]: § Type Unification.
//! - [`operations`]: the operations on values that the native syntax's
//!   operators denote (`hclsyntax-spec.md` § Operations).
//! - [`static_analysis`]: § Static Analysis (the shared results).
//! - [`diagnostic`]: the one error type of every phase.
//! - [`eval_context`]: the variables and functions an expression sees.
//! - [`functions`]: § Functions and Function Calls, and the conformance
//!   function table.
//!
//! Body processing (`spec.md` § Schema-driven Processing and after):
//! [`bodies`], shared by both syntaxes.
//!
//! The native syntax (`hclsyntax-spec.md`): [`native`]. The JSON syntax
//! (`json-spec.md`): [`json`]. The type expressions extension
//! (`ext-typeexpr-README.md`), for both syntaxes: [`typeexpr`].

pub mod bodies;
pub mod convert;
pub mod diagnostic;
pub mod equality;
pub mod eval_context;
pub mod functions;
pub mod json;
pub mod large_stack;
pub mod native;
pub mod number;
pub mod operations;
pub mod source;
pub mod static_analysis;
pub mod typeexpr;
pub mod types;
pub mod unify;
pub mod value;

pub use diagnostic::{Diagnostic, Phase};
pub use eval_context::EvalContext;
pub use number::Number;
pub use types::Type;
pub use value::Value;
