//! What a function is: its parameters and its result definitions.
//!
//! Spec: spec.md § Functions and Function Calls
//!
//! > A _function_ is defined from the following elements:
//! > - Zero or more _positional parameters_ [...]
//! > - Zero or one _variadic parameters_ [...]
//! > - A _result type definition_ [...]
//! > - A _result value definition_ [...]

use super::CallError;
use crate::budget::Budget;
use crate::static_analysis::{StaticError, StaticExpression};
use crate::types::Type;
use crate::value::Value;

/// A parameter: "a name used for documentation, a type specification for
/// expected argument values, and a flag for whether each of null values,
/// unknown values, and values of the dynamic pseudo-type are accepted."
///
/// Spec: spec.md § Functions and Function Calls
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    pub name: &'static str,
    /// The type specification; it may contain [`Type::Dynamic`] (spec.md
    /// § Type Specifications).
    pub ty: Type,
    pub allow_null: bool,
    pub allow_unknown: bool,
    pub allow_dynamic: bool,
}

impl Parameter {
    /// A parameter that accepts neither nulls, nor unknowns, nor the dynamic
    /// pseudo-type.
    pub fn new(name: &'static str, ty: Type) -> Parameter {
        Parameter {
            name,
            ty,
            allow_null: false,
            allow_unknown: false,
            allow_dynamic: false,
        }
    }

    pub fn allow_null(mut self) -> Parameter {
        self.allow_null = true;
        self
    }

    pub fn allow_unknown(mut self) -> Parameter {
        self.allow_unknown = true;
        self
    }

    pub fn allow_dynamic(mut self) -> Parameter {
        self.allow_dynamic = true;
        self
    }
}

/// "A _result type definition_, which specifies the value type returned for
/// each valid sequence of argument values." It sees the arguments after the
/// semantic checks (converted to their parameters' type specifications), may
/// look at their values as well as their types, and rejects a sequence it
/// has no result type for. The types it computes beyond its arguments'
/// (a unification) are paid for from the budget it is given.
pub type ResultTypeDefinition = fn(&[Value], &Budget) -> Result<Type, CallError>;

/// "A _result value definition_, which specifies the value returned for each
/// valid sequence of argument values." It is given the checked arguments and
/// the call's result type, and must return a value of that type. Work that
/// can outgrow its arguments (a conversion, a text built of repeated
/// parts) is paid for from the budget it is given before it is done; the
/// result itself is paid for by the call ([`super::call_function_owned`]).
pub type ResultValueDefinition = fn(&[Value], &Type, &Budget) -> Result<Value, CallError>;

/// A function, as plain data.
///
/// Spec: spec.md § Functions and Function Calls
#[derive(Clone, Debug)]
pub struct Function {
    pub name: &'static str,
    /// "Zero or more _positional parameters_".
    pub parameters: Vec<Parameter>,
    /// "Zero or one _variadic parameters_, with the same structure as the
    /// _positional_ parameters, which if present collects any additional
    /// arguments provided at the function call site."
    pub variadic: Option<Parameter>,
    pub result_type: ResultTypeDefinition,
    pub result_value: ResultValueDefinition,
}

/// A function of two parameters, a value and then a type constraint that is
/// written in the call rather than passed as a value: its argument is read
/// through the static analyses (spec.md § Static Analysis), never
/// evaluated. The type expression extension's `convert` is one
/// (ext-typeexpr-README.md § Type Constraints as Values: "function calls in
/// the HCL native expression syntax will require the argument to be valid
/// type constraint expression syntax").
#[derive(Clone, Copy, Debug)]
pub struct TypeConstraintFunction {
    pub name: &'static str,
    /// Reads the type constraint from the second argument's expression.
    pub read_type: fn(&dyn StaticExpression) -> Result<Type, Vec<StaticError>>,
    /// The result value definition, given the value and the type, and the
    /// budget that pays for what it builds.
    pub call: fn(&Value, &Type, &Budget) -> Result<Value, CallError>,
}
