//! Functions and function calls.
//!
//! Spec: spec.md § Functions and Function Calls
