//! The evaluator: the value of an expression or a template in a scope.
//!
//! Spec: hclsyntax-spec.md § Expressions, § Templates;
//! spec.md § Expression Evaluation
//!
//! One module per section:
//! - here: literal values, variables and parentheses, and the scope;
//! - [`collection`]: tuple and object constructors (§ Collection Values);
//! - [`function_call`]: § Functions and Function Calls;
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
mod for_expr;
mod function_call;
mod index;
mod operators;
mod splat;
mod template;

use super::ast::{Expression, ExpressionKind, Template};
use super::Problem;
use crate::budget::{sequence_bytes, Budget, BudgetExceeded};
use crate::diagnostic::quoted;
use crate::diagnostic::Diagnostic;
use crate::eval_context::{EvalContext, EvalScope};
use crate::source::Span;
use crate::types::Type;
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
pub(crate) struct Scope<'a> {
    /// The evaluation budget of the context (see [`Budget`]).
    budget: &'a Budget,
    frame: Frame<'a>,
}

/// What a scope defines.
#[derive(Clone, Copy)]
enum Frame<'a> {
    /// The global scope: the calling application's variables (and those
    /// it defines around the expression).
    Global(&'a EvalScope<'a>),
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
    /// The scope of an evaluation in `scope`.
    pub(crate) fn global(scope: &'a EvalScope<'a>) -> Scope<'a> {
        Scope {
            budget: &scope.context().budget,
            frame: Frame::Global(scope),
        }
    }

    /// The child scope of one iteration, defining the value variable and,
    /// if named, the key variable.
    pub(crate) fn iteration(
        &'a self,
        key: Option<(&'a str, &'a Value)>,
        value: (&'a str, &'a Value),
    ) -> Scope<'a> {
        Scope {
            budget: self.budget,
            frame: Frame::Iteration {
                parent: self,
                key,
                value,
            },
        }
    }

    /// The child scope in which a splat visits `item`.
    fn splat_item_scope(&'a self, item: &'a Value) -> Scope<'a> {
        Scope {
            budget: self.budget,
            frame: Frame::SplatItem { parent: self, item },
        }
    }

    /// The most locally-defined variable of the given name.
    fn variable(&self, name: &str) -> Option<&'a Value> {
        let mut scope = self;
        loop {
            match &scope.frame {
                Frame::Global(global) => return global.variable(name),
                Frame::Iteration { parent, key, value } => {
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
                Frame::SplatItem { parent, .. } => scope = parent,
            }
        }
    }

    /// The evaluation context at the root of the scope chain.
    pub(crate) fn context(&self) -> &'a EvalContext {
        let mut scope = self;
        loop {
            match &scope.frame {
                Frame::Global(global) => return global.context(),
                Frame::Iteration { parent, .. } | Frame::SplatItem { parent, .. } => scope = parent,
            }
        }
    }

    /// The evaluation budget, for the work of the information model
    /// (conversions, operations, function calls) to pay from.
    pub(crate) fn budget(&self) -> &'a Budget {
        self.budget
    }

    /// Spends `bytes` of the evaluation budget for the work at `span`.
    #[inline]
    pub(crate) fn charge(&self, bytes: u64, span: Span) -> Result<(), Problem> {
        self.budget
            .charge(bytes)
            .map_err(|exceeded| budget_problem(exceeded, span))
    }

    /// Spends the evaluation budget for the size of `v`, built or copied at
    /// `span`.
    pub(crate) fn charge_value(&self, v: &Value, span: Span) -> Result<(), Problem> {
        self.budget
            .charge_value(v)
            .map_err(|exceeded| budget_problem(exceeded, span))
    }

    /// Spends the evaluation budget for the size of `ty`, computed at
    /// `span`.
    pub(crate) fn charge_type(&self, ty: &Type, span: Span) -> Result<(), Problem> {
        self.budget
            .charge_type(ty)
            .map_err(|exceeded| budget_problem(exceeded, span))
    }

    /// The budget's error at `span`, if the budget has run out.
    pub(crate) fn out_of_budget(&self, span: Span) -> Option<Problem> {
        self.budget
            .exceeded()
            .map(|exceeded| budget_problem(exceeded, span))
    }

    /// The error of work that failed at `span` (a conversion, an
    /// operation, a function call): the budget's when the budget has run
    /// out (the work stopped on it, with an error of its own), `problem()`
    /// otherwise.
    pub(crate) fn failure(&self, span: Span, problem: impl FnOnce() -> Problem) -> Problem {
        self.out_of_budget(span).unwrap_or_else(problem)
    }

    /// Pushes `v` onto a sequence being built at `span`, paying for the
    /// room the sequence grows by before it grows.
    pub(crate) fn push(
        &self,
        sequence: &mut Vec<Value>,
        v: Value,
        span: Span,
    ) -> Result<(), Problem> {
        if sequence.len() == sequence.capacity() {
            let grown = sequence.capacity().saturating_mul(2).max(4);
            self.charge(sequence_bytes::<Value>(grown), span)?;
            sequence.reserve_exact(grown - sequence.len());
        }
        sequence.push(v);
        Ok(())
    }

    /// The value of an evaluated expression as an owned value: a value
    /// borrowed from the scope is copied, and the copy paid for from the
    /// evaluation budget.
    pub(crate) fn owned(&self, v: Cow<'a, Value>, span: Span) -> Result<Value, Problem> {
        if let Cow::Borrowed(borrowed) = &v {
            self.charge_value(borrowed, span)?;
        }
        Ok(v.into_owned())
    }

    /// The element of the innermost splat being evaluated.
    fn splat_item(&self) -> Option<&'a Value> {
        let mut scope = self;
        loop {
            match &scope.frame {
                Frame::Global(_) => return None,
                Frame::Iteration { parent, .. } => scope = parent,
                Frame::SplatItem { item, .. } => return Some(item),
            }
        }
    }
}

/// Evaluates a whole expression in `scope`.
pub(crate) fn evaluate_expression<'a>(
    expression: Expression<'a>,
    scope: &'a EvalScope<'a>,
) -> Result<Value, Problem> {
    let scope = Scope::global(scope);
    let v = eval(expression, &scope)?;
    scope.owned(v, expression.span())
}

/// Evaluates a template file in `scope`.
pub(crate) fn evaluate_template<'a>(
    t: Template<'a>,
    scope: &'a EvalScope<'a>,
) -> Result<Value, Problem> {
    let scope = Scope::global(scope);
    let v = template::eval_template(t, &scope)?;
    scope.owned(v, t.span)
}

/// Evaluates an expression.
///
/// Nested expressions recurse through this function, so the evaluation of
/// each kind of expression that holds others is a function of its own,
/// never inlined here: the stack frame each level repeats is then this
/// dispatch and the one kind's.
///
/// Spec: hclsyntax-spec.md § Expressions
pub(crate) fn eval<'a>(expression: Expression<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    scope.charge(Budget::EXPRESSION_BYTES, expression.span())?;
    match expression.kind() {
        // "Numeric literals represent values of type _number_", `true` and
        // `false` bools, "The `null` keyword represents a null value of the
        // dynamic pseudo-type."
        ExpressionKind::Literal(value) => Ok(value),
        ExpressionKind::Tuple(tuple) => collection::eval_tuple(tuple, scope),
        ExpressionKind::Object(object) => collection::eval_object(object, scope),
        ExpressionKind::Template(t) => template::eval_template(t, scope),
        ExpressionKind::Variable(name) => eval_variable(name, expression.span(), scope),
        ExpressionKind::FunctionCall(call) => function_call::eval_function_call(call, scope),
        ExpressionKind::For(for_expr) => for_expr::eval_for_expr(for_expr, scope),
        ExpressionKind::Index(index) => index::eval_index(index, scope),
        ExpressionKind::GetAttr(get_attr) => index::eval_get_attr(get_attr, scope),
        ExpressionKind::Splat(splat) => splat::eval_splat(splat, scope),
        ExpressionKind::SplatItem => scope.splat_item().map(Cow::Borrowed).ok_or_else(|| {
            Problem::new(
                expression.span(),
                Diagnostic::INTERNAL_ERROR,
                "a splat element outside of a splat",
            )
        }),
        // Parentheses only group.
        ExpressionKind::Parenthesized(inner) => eval(inner, scope),
        ExpressionKind::Unary(operation) => operators::eval_unary(operation, scope),
        ExpressionKind::Binary(operation) => operators::eval_binary(operation, scope),
        ExpressionKind::Conditional(conditional) => operators::eval_conditional(conditional, scope),
    }
}

/// "The value of a variable is accessed using a _variable expression_,
/// which is a standalone `Identifier` whose name corresponds to a defined
/// variable". A name no scope defines is an error.
///
/// Spec: hclsyntax-spec.md § Variables and Variable Expressions
fn eval_variable<'a>(name: &str, span: Span, scope: &Scope<'a>) -> Evaluated<'a> {
    scope.variable(name).map(Cow::Borrowed).ok_or_else(|| {
        Problem::new(
            span,
            "Unknown variable",
            format!("There is no variable named {}.", quoted(name)),
        )
    })
}

/// The evaluation budget ran out at `span`.
#[cold]
fn budget_problem(exceeded: BudgetExceeded, span: Span) -> Problem {
    Problem::new(span, BudgetExceeded::SUMMARY, exceeded.detail())
}

/// The dynamic value, "the unknown value of the dynamic pseudo-type".
fn dynamic_value() -> Value {
    Value::Unknown(Type::Dynamic)
}
