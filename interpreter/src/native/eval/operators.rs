//! Operations and the conditional operator.
//!
//! Spec: hclsyntax-spec.md § Operations, § Comparison Operators,
//! § Arithmetic Operators, § Logic Operators, § Conditional Operator
//!
//! The operators' semantics (operand conversion, unknown and dynamic
//! operands, exact arithmetic) are those of [`crate::operations`]; this
//! module evaluates the operands and places errors in the source.

use super::{eval, Evaluated, Scope};
use crate::convert::convert;
use crate::native::ast::{
    BinaryOperation, BinaryOperator, Conditional, UnaryOperation, UnaryOperator,
};
use crate::native::Problem;
use crate::operations::{apply_to, Operation};
use crate::source::Span;
use crate::types::Type;
use crate::unify::unify;
use crate::value::Value;
use std::borrow::Cow;

/// Evaluates `-a` or `!a`.
///
/// Spec: hclsyntax-spec.md § Arithmetic Operators, § Logic Operators
#[inline(never)] // see `eval`
pub(super) fn eval_unary<'a>(operation: UnaryOperation<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    let operand = eval(operation.operand, scope)?;
    let operator = match operation.operator {
        UnaryOperator::Negate => Operation::Negate,
        UnaryOperator::Not => Operation::Not,
    };
    // A null operand is reported at the whole operation, a mistyped one at
    // the operand, as hashicorp/hcl places them.
    let span = if operand.is_null() {
        operation.span
    } else {
        operation.operand.span()
    };
    apply_to(operator, &[&operand], scope.budget())
        .map(Cow::Owned)
        .map_err(|d| {
            scope.failure(operation.span, || {
                Problem::new(span, "Invalid operand", d.summary)
            })
        })
}

/// The operation a binary operator denotes, and the type it converts its
/// operands to (none for the equality operators).
fn operation(operator: BinaryOperator) -> (Operation, Option<Type>) {
    use BinaryOperator as B;
    match operator {
        B::Equal => (Operation::Equal, None),
        B::NotEqual => (Operation::NotEqual, None),
        B::Less => (Operation::Less, Some(Type::Number)),
        B::Greater => (Operation::Greater, Some(Type::Number)),
        B::LessOrEqual => (Operation::LessOrEqual, Some(Type::Number)),
        B::GreaterOrEqual => (Operation::GreaterOrEqual, Some(Type::Number)),
        B::Add => (Operation::Add, Some(Type::Number)),
        B::Subtract => (Operation::Subtract, Some(Type::Number)),
        B::Multiply => (Operation::Multiply, Some(Type::Number)),
        B::Divide => (Operation::Divide, Some(Type::Number)),
        B::Modulo => (Operation::Modulo, Some(Type::Number)),
        B::And => (Operation::And, Some(Type::Bool)),
        B::Or => (Operation::Or, Some(Type::Bool)),
    }
}

/// Evaluates a binary operation. Both operands are always evaluated. An
/// unknown operand makes the result unknown whatever the other one is, as
/// the spec decides: "If either operand of a logic operator is an unknown
/// bool value [...] the result is an unknown bool value".
///
/// Whether `&&` and `||` report an error in an operand that cannot change
/// the result (`false && x.enabled` with `x` null) is not decided: the
/// reference follows hashicorp/hcl v2.24.0 and later, where an operand that
/// fails, or is null, is passed over when the other one is a known bool
/// that decides the result (`false` for `&&`, `true` for `||`), so the
/// guard `x != null && x.enabled` works as Terraform users write it.
/// hashicorp/hcl v2.14.1 reports the error; the suite accepts both.
/// SPEC-GAP(spec-notes/gaps/ops-logic-evaluates-both-operands.md)
///
/// An operand that the operator cannot convert is reported at that operand;
/// a null operand, and a failure of the operation itself (a division by
/// zero, an overflow), at the whole operation, as hashicorp/hcl places them.
///
/// The operation's work is paid for from the evaluation budget
/// ([`apply_to`]); an operand that ran out of it is never passed over.
///
/// Spec: hclsyntax-spec.md § Operations
#[inline(never)] // see `eval`
pub(super) fn eval_binary<'a>(binary: BinaryOperation<'a>, scope: &Scope<'a>) -> Evaluated<'a> {
    let (left, right) = match binary.operator {
        BinaryOperator::And | BinaryOperator::Or => {
            let (left, right) = (eval(binary.left, scope), eval(binary.right, scope));
            if !scope.budget().is_exceeded() {
                if let Some(result) = decided_logic(binary.operator, &left, &right, scope) {
                    return Ok(Cow::Owned(Value::Bool(result)));
                }
            }
            (left?, right?)
        }
        _ => (eval(binary.left, scope)?, eval(binary.right, scope)?),
    };
    let (operator, operand_type) = operation(binary.operator);
    let operands = [&*left, &*right];
    apply_to(operator, &operands, scope.budget())
        .map(Cow::Owned)
        .map_err(|d| {
            if let Some(problem) = scope.out_of_budget(binary.span) {
                return problem;
            }
            let unusable = |v: &Value| match &operand_type {
                Some(ty) => !v.is_null() && convert(v, ty, scope.budget()).is_err(),
                None => false,
            };
            let span = if unusable(operands[0]) {
                binary.left.span()
            } else if unusable(operands[1]) {
                binary.right.span()
            } else {
                binary.span
            };
            scope.failure(binary.span, || {
                Problem::new(span, "Invalid operand", d.summary)
            })
        })
}

/// The result of `&&` or `||` when one operand is a known bool that decides
/// it and the other failed or is null (see [`eval_binary`]); `None`
/// otherwise, and for every other operator.
fn decided_logic(
    operator: BinaryOperator,
    left: &Evaluated<'_>,
    right: &Evaluated<'_>,
    scope: &Scope<'_>,
) -> Option<bool> {
    let decider = match operator {
        BinaryOperator::And => false,
        BinaryOperator::Or => true,
        _ => return None,
    };
    let decides = |operand: &Evaluated<'_>| {
        let known = |v: &Value| convert(v, &Type::Bool, scope.budget()).map(|c| c.value);
        matches!(operand, Ok(v) if known(v) == Ok(Value::Bool(decider)))
    };
    let passed_over = |operand: &Evaluated<'_>| operand.as_ref().map_or(true, |v| v.is_null());
    // The cheap test first: most operands are neither failed nor null.
    let decided = (passed_over(right) && decides(left)) || (passed_over(left) && decides(right));
    decided.then_some(decider)
}

/// Reads a predicate: `Some(bool)`, or `None` when it is unknown.
///
/// "The first expression is the _predicate_, which is evaluated and must
/// produce a boolean result." Like the operands of the logic operators, the
/// predicate is converted to bool, so `"true"` is true, as in
/// hashicorp/hcl. SPEC-GAP(spec-notes/gaps/for-condition.md) A null
/// predicate is an error (SPEC-GAP(spec-notes/gaps/ops-null-operands.md)).
/// Used by the conditional operator, the `if` of
/// `for` expressions, and the template `if` directive.
///
/// Spec: hclsyntax-spec.md § Conditional Operator
pub(super) fn predicate(
    v: &Value,
    span: Span,
    what: &str,
    scope: &Scope<'_>,
) -> Result<Option<bool>, Problem> {
    match v {
        Value::Bool(b) => Ok(Some(*b)),
        Value::Null(_) => Err(Problem::new(
            span,
            format!("Null {what}"),
            format!("The {what} is null; it must be either true or false."),
        )),
        _ => match convert(v, &Type::Bool, scope.budget()) {
            Ok(converted) => match converted.value {
                Value::Bool(b) => Ok(Some(b)),
                _ => Ok(None),
            },
            Err(e) => Err(scope.failure(span, || {
                Problem::new(
                    span,
                    format!("Incorrect {what} type"),
                    format!("The {what} must be of type bool: {}.", e.summary),
                )
            })),
        },
    }
}

/// Evaluates `predicate ? true_result : false_result`.
///
/// - "If the predicate value is `true`, the result of the second expression
///   is the result of the conditional. If the predicate value is `false`,
///   the result of the third expression is the result of the conditional."
/// - "The second and third expressions must be of the same type or must be
///   able to unify into a common type [...] This unified type is the result
///   type of the conditional, with both expressions converted as necessary
///   to the unified type."
/// - "If the predicate is an unknown boolean value or a value of the dynamic
///   pseudo-type then the result is an unknown value of the unified type of
///   the other two expressions."
/// - "If either the second or third expressions produce errors when
///   evaluated, these errors are passed through only if the erroneous
///   expression is selected." An erroneous expression that is not selected
///   has no type, so it takes part in the unification as the dynamic
///   pseudo-type; with an unknown predicate neither is selected.
///   SPEC-GAP(spec-notes/gaps/ops-conditional-errors.md)
///   SPEC-GAP(spec-notes/gaps/ops-conditional-result-type.md)
///
/// The results' types, their unification and the conversion are paid for
/// from the evaluation budget; a result that ran out of it is never passed
/// over.
///
/// Spec: hclsyntax-spec.md § Conditional Operator
#[inline(never)] // see `eval`
pub(super) fn eval_conditional<'a>(
    conditional: Conditional<'a>,
    scope: &Scope<'a>,
) -> Evaluated<'a> {
    let predicate_value = eval(conditional.predicate, scope)?;
    let selected = predicate(
        &predicate_value,
        conditional.predicate.span(),
        "condition",
        scope,
    )?;
    let true_result = eval(conditional.true_result, scope);
    let false_result = eval(conditional.false_result, scope);
    if let Some(problem) = scope.out_of_budget(conditional.span) {
        return Err(problem);
    }
    let type_of = |result: &Evaluated<'a>| match result {
        Ok(v) => v.ty(),
        Err(_) => Type::Dynamic,
    };
    let types = [type_of(&true_result), type_of(&false_result)];
    for ty in &types {
        scope.charge_type(ty, conditional.span)?;
    }
    let chosen = match selected {
        Some(true) => Some((true_result?, conditional.true_result, &types[0])),
        Some(false) => Some((false_result?, conditional.false_result, &types[1])),
        None => None,
    };
    let unified = unify(&types).map_err(|_| {
        Problem::new(
            conditional.true_result.span().to(conditional.false_result.span()),
            "Inconsistent conditional result types",
            format!(
                "The true and false result expressions must have consistent types: {} and {} do not unify.",
                types[0], types[1]
            ),
        )
    })?;
    scope.charge_type(&unified, conditional.span)?;
    let Some((value, expression, ty)) = chosen else {
        return Ok(Cow::Owned(Value::Unknown(unified)));
    };
    #[cfg(feature = "planted-bugs")]
    if crate::planted::conditional_no_unify() {
        return Ok(value);
    }
    if *ty == unified {
        return Ok(value);
    }
    convert(&value, &unified, scope.budget())
        .map(|converted| Cow::Owned(converted.value))
        .map_err(|e| {
            scope.failure(conditional.span, || {
                Problem::new(
                    expression.span(),
                    "Inconsistent conditional result types",
                    format!(
                        "The result cannot be converted to {unified}: {}.",
                        e.summary
                    ),
                )
            })
        })
}
