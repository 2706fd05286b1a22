//! The syntax tree of the native syntax: configuration files, expressions
//! and templates, as the parser builds them and the evaluator reads them.
//!
//! Spec: hclsyntax-spec.md § Structural Elements, § Expressions, § Templates
//!
//! By section: `structure` (§ Structural Elements), `expression`
//! (§ Expressions and its terms), `operation` (§ Operations, § Conditional
//! Operator), `template` (§ Templates).
//!
//! Every node keeps the `Span` of the source it was read from. Every
//! variant of [`Expression`] is a box but the two smallest and commonest (a
//! variable, a splat's item), so that an expression is five words and the
//! parser's and evaluator's frames stay small. Identifiers are [`Name`]s,
//! one shared copy per distinct name. The tree is as
//! deep as the source is nested (at most [`super::MAX_NESTING_DEPTH`]
//! levels), so it is built, evaluated and dropped on the native syntax's
//! large-stack thread (see [`super::Parsed`]).

mod expression;
mod operation;
mod structure;
mod template;

pub use expression::*;
pub use operation::*;
pub use structure::*;
pub use template::*;
