//! The native syntax.
//!
//! Spec: hclsyntax-spec.md
