//! The evaluator: the value of an expression or a template in a scope.
//!
//! Spec: hclsyntax-spec.md § Expressions, § Templates;
//! spec.md § Expression Evaluation
//!
//! One module per section:
//! - here: literal values, variables and parentheses, and the scope;
//! - [`collection`]: tuple and object constructors (§ Collection Values);
//! - [`function_call`]: § Functions and Function Calls;
//! - [`convert_call`]: the type expression extension's `convert`;
//! - [`for_expr`]: § For Expressions;
//! - [`index`]: § Index Operator and § Attribute Access Operator;
//! - [`splat`]: § Splat Operators;
//! - [`operators`]: § Operations and § Conditional Operator;
//! - [`template`]: § Templates.
//!
//! Values are computed as `Cow`s: a variable, and an element or attribute
//! of a variable, is borrowed from the scope rather than copied, so that
//! `list[i]` in a loop costs no copy of `list`.
//!
//! The evaluator stops at the first error. Unknown values propagate as
//! each section says; "Unknown values and the dynamic pseudo-type must
//! never be returned from operations unless at least one operand is
//! unknown or dynamic".

mod collection;
mod convert_call;
mod for_expr;
mod function_call;
mod index;
mod operators;
mod splat;
mod template;

use super::ast::{Expression, Template, Variable};
use super::Problem;
use crate::eval_context::EvalContext;
use crate::number::Number;
use crate::value::Value;
use std::borrow::Cow;

/// A value computed for an expression, or why there is none.
pub(crate) type Evaluated<'a> = Result<Cow<'a, Value>, Problem>;

/// A variable scope.
///
/// "Variables can also be created by expressions themselves, which always
/// creates a _child scope_ that incorporates the variables from its parent
/// scope but (re-)defines zero or more names with new values." "When
/// looking up variables, the most locally-defined variable of the given name
/// is used".
///
/// Spec: hclsyntax-spec.md § Variables and Variable Expressions
#[derive(Clone, Copy)]
pub(crate) enum Scope<'a> {
    /// The global scope: the calling application's variables.
    Global(&'a EvalContext),
    /// The child scope of one iteration of a `for` expression or directive.
    Iteration {
        parent: &'a Scope<'a>,
        key: Option<(&'a str, &'a Value)>,
        value: (&'a str, &'a Value),
    },
    /// The element a splat operator's traversal is applied to.
    SplatItem {
        parent: &'a Scope<'a>,
        item: &'a Value,
    },
}

impl<'a> Scope<'a> {
    /// The most locally-defined variable of the given name.
    fn variable(&self, name: &str) -> Option<&'a Value> {
        let mut scope = self;
        loop {
            match scope {
                Scope::Global(ctx) => return ctx.variables.get(name),
                Scope::Iteration { parent, key, value } => {
                    // With the same name for both, the value wins.
                    if value.0 == name {
                        return Some(value.1);
                    }
                    if let Some((key_name, key)) = key {
                        if *key_name == name {
                            return Some(key);
                        }
                    }
                    scope = parent;
                }
                Scope::SplatItem { parent, .. } => scope = parent,
            }
        }
    }

    /// The evaluation context at the root of the scope chain.
    pub(crate) fn context(&self) -> &'a EvalContext {
        let mut scope = self;
        loop {
            match scope {
                Scope::Global(ctx) => return ctx,
                Scope::Iteration { parent, .. } | Scope::SplatItem { parent, .. } => scope = parent,
            }
        }
    }

    /// The element of the innermost splat being evaluated.
    fn splat_item(&self) -> Option<&'a Value> {
        let mut scope = self;
        loop {
            match scope {
                Scope::Global(_) => return None,
                Scope::Iteration { parent, .. } => scope = parent,
                Scope::SplatItem { item, .. } => return Some(item),
            }
        }
    }
}

/// Evaluates a whole expression in the global scope of `ctx`.
pub(crate) fn evaluate_expression(
    expression: &Expression,
    ctx: &EvalContext,
) -> Result<Value, Problem> {
    eval(expression, &Scope::Global(ctx)).map(Cow::into_owned)
}

/// Evaluates a template file in the global scope of `ctx`.
pub(crate) fn evaluate_template(t: &Template, ctx: &EvalContext) -> Result<Value, Problem> {
    template::eval_template(t, &Scope::Global(ctx)).map(Cow::into_owned)
}

/// Evaluates an expression.
///
/// Spec: hclsyntax-spec.md § Expressions
pub(crate) fn eval<'a>(expression: &'a Expression, scope: &Scope<'a>) -> Evaluated<'a> {
    match expression {
        // "Numeric literals represent values of type _number_", `true` and
        // `false` bools, "The `null` keyword represents a null value of the
        // dynamic pseudo-type."
        Expression::Literal(literal) => Ok(Cow::Borrowed(&literal.value)),
        Expression::SmallInteger(integer) => {
            Ok(Cow::Owned(Value::Number(Number::from_i64(integer.value))))
        }
        Expression::Tuple(tuple) => collection::eval_tuple(tuple, scope),
        Expression::Object(object) => collection::eval_object(object, scope),
        Expression::Template(t) => template::eval_template(t, scope),
        Expression::Variable(variable) => eval_variable(variable, scope),
        Expression::FunctionCall(call) => function_call::eval_function_call(call, scope),
        Expression::For(for_expr) => for_expr::eval_for_expr(for_expr, scope),
        Expression::Index(index) => index::eval_index(index, scope),
        Expression::GetAttr(get_attr) => index::eval_get_attr(get_attr, scope),
        Expression::Splat(splat) => splat::eval_splat(splat, scope),
        Expression::SplatItem(span) => scope.splat_item().map(Cow::Borrowed).ok_or_else(|| {
            Problem::new(
                *span,
                "Internal error",
                "a splat element outside of a splat",
            )
        }),
        // Parentheses only group.
        Expression::Parenthesized(parenthesized) => eval(&parenthesized.expression, scope),
        Expression::Unary(operation) => operators::eval_unary(operation, scope),
        Expression::Binary(operation) => operators::eval_binary(operation, scope),
        Expression::Conditional(conditional) => operators::eval_conditional(conditional, scope),
    }
}

/// "The value of a variable is accessed using a _variable expression_,
/// which is a standalone `Identifier` whose name corresponds to a defined
/// variable". A name no scope defines is an error.
///
/// Spec: hclsyntax-spec.md § Variables and Variable Expressions
fn eval_variable<'a>(variable: &'a Variable, scope: &Scope<'a>) -> Evaluated<'a> {
    scope
        .variable(&variable.name)
        .map(Cow::Borrowed)
        .ok_or_else(|| {
            Problem::new(
                variable.span,
                "Unknown variable",
                format!("There is no variable named {:?}.", variable.name),
            )
        })
}

/// The dynamic value, "the unknown value of the dynamic pseudo-type".
fn dynamic_value() -> Value {
    Value::Unknown(crate::types::Type::Dynamic)
}
