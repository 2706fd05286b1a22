//! The operations on values that the native syntax's operators denote.
//!
//! Spec: hclsyntax-spec.md § Operations; spec.md § Unknown Values and the
//! Dynamic Pseudo-type
//!
//! > Operations on unknown values themselves return unknown values that have
//! > a type appropriate to the operation. [...] Operations on values of the
//! > dynamic pseudo-type behave as if it is a value of the expected type.
//!
//! Operands are converted to the type an operator expects (unsafe conversions
//! allowed), so `"1" + 1` is `2`. SPEC-GAP(spec-notes/gaps/operand-conversion.md)

use crate::budget::{Budget, BudgetExceeded};
use crate::convert::convert;
use crate::diagnostic::{shown, Diagnostic, Phase};
use crate::equality::{equal, Truth};
use crate::number::{Number, NumberError, Work};
use crate::types::Type;
use crate::value::Value;
use std::borrow::Cow;

/// An operation, named as the suite names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    Equal,
    NotEqual,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    Negate,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
    And,
    Or,
    Not,
}

impl Operation {
    pub const ALL: [Operation; 15] = [
        Operation::Equal,
        Operation::NotEqual,
        Operation::Add,
        Operation::Subtract,
        Operation::Multiply,
        Operation::Divide,
        Operation::Modulo,
        Operation::Negate,
        Operation::Less,
        Operation::LessOrEqual,
        Operation::Greater,
        Operation::GreaterOrEqual,
        Operation::And,
        Operation::Or,
        Operation::Not,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Operation::Equal => "equal",
            Operation::NotEqual => "not-equal",
            Operation::Add => "add",
            Operation::Subtract => "subtract",
            Operation::Multiply => "multiply",
            Operation::Divide => "divide",
            Operation::Modulo => "modulo",
            Operation::Negate => "negate",
            Operation::Less => "less",
            Operation::LessOrEqual => "less-or-equal",
            Operation::Greater => "greater",
            Operation::GreaterOrEqual => "greater-or-equal",
            Operation::And => "and",
            Operation::Or => "or",
            Operation::Not => "not",
        }
    }

    /// How many operands the operation takes.
    pub fn arity(self) -> usize {
        match self {
            Operation::Negate | Operation::Not => 1,
            _ => 2,
        }
    }
}

fn eval_error(summary: impl Into<String>) -> Diagnostic {
    Diagnostic::new(Phase::Eval, summary, "")
}

/// Applies an operation to its operands, paying for its work from
/// `budget`: the conversion of an operand, arithmetic and comparisons on
/// large numbers ([`Number::work_of`]), a number built, and the comparison
/// of two strings (their bytes) or of two collections or structures (their
/// size in memory). A budget that runs out is an error of phase eval with
/// the budget's summary.
pub fn apply(op: Operation, operands: &[Value], budget: &Budget) -> Result<Value, Diagnostic> {
    let operands: Vec<&Value> = operands.iter().collect();
    apply_to(op, &operands, budget)
}

/// [`apply`] to borrowed operands, as many as the operation takes (so that
/// the evaluator need not copy them). The work is paid for before it is
/// done.
pub(crate) fn apply_to(
    op: Operation,
    operands: &[&Value],
    budget: &Budget,
) -> Result<Value, Diagnostic> {
    if operands.len() != op.arity() {
        return Err(eval_error(format!(
            "{} takes {} operand(s), not {}",
            op.name(),
            op.arity(),
            operands.len()
        )));
    }
    let out_of_budget = |exceeded: BudgetExceeded| exceeded.diagnostic(Phase::Eval);
    match op {
        Operation::Equal | Operation::NotEqual => {
            charge_comparison(operands[0], operands[1], budget).map_err(out_of_budget)?;
        }
        _ => {}
    }
    let arithmetic = |work: Work, f: fn(&Number, &Number) -> Result<Number, NumberError>| {
        arithmetic(operands, budget, work, f)
    };
    match op {
        Operation::Equal => Ok(equal(operands[0], operands[1]).to_value()),
        Operation::NotEqual => Ok(match equal(operands[0], operands[1]) {
            Truth::True => Value::Bool(false),
            Truth::False => Value::Bool(true),
            Truth::Unknown => Value::Unknown(Type::Bool),
        }),
        Operation::Negate => arithmetic(Work::Aligned, |a, _| Ok(a.negate())),
        Operation::Add => arithmetic(Work::Aligned, Number::add),
        Operation::Subtract => arithmetic(Work::Aligned, Number::subtract),
        Operation::Multiply => arithmetic(Work::Product, Number::multiply),
        Operation::Divide => arithmetic(Work::Quotient, Number::divide),
        Operation::Modulo => arithmetic(Work::Quotient, Number::remainder),
        Operation::Less => comparison(operands, budget, |a, b| a < b),
        Operation::LessOrEqual => comparison(operands, budget, |a, b| a <= b),
        Operation::Greater => comparison(operands, budget, |a, b| a > b),
        Operation::GreaterOrEqual => comparison(operands, budget, |a, b| a >= b),
        Operation::And => logic(operands, budget, |b| b[0] && b[1]),
        Operation::Or => logic(operands, budget, |b| b[0] || b[1]),
        Operation::Not => logic(operands, budget, |b| !b[0]),
    }
}

/// Pays for the work of comparing `a` with `b`: the bytes of two strings,
/// the digits of two numbers, the size of two collections or structures
/// of one kind (which the comparison goes through, their types
/// included); nothing for other pairs, which compare at once.
fn charge_comparison(a: &Value, b: &Value, budget: &Budget) -> Result<(), BudgetExceeded> {
    match (a, b) {
        (Value::String(x), Value::String(y)) => budget.charge(x.len().min(y.len()) as u64),
        (Value::Number(x), Value::Number(y)) => budget.charge(Number::work_of(Work::Aligned, x, y)),
        (Value::List(..), Value::List(..))
        | (Value::Set(..), Value::Set(..))
        | (Value::Tuple(_), Value::Tuple(_))
        | (Value::Map(..), Value::Map(..))
        | (Value::Object(_), Value::Object(_)) => {
            budget.charge_value(a)?;
            budget.charge_value(b)
        }
        _ => Ok(()),
    }
}

/// Operands converted to the type an operator expects: one or two of
/// them, the second `None` for a unary operation.
type Converted<'v> = [Option<Cow<'v, Value>>; 2];

/// The operands converted to `ty`; `None` when one of them is unknown.
///
/// "Arithmetic operators apply only to number values"; "If either operand of
/// an arithmetic operator is an unknown number or a value of the dynamic
/// pseudo-type, the result is an unknown number" (likewise for the others).
/// A null operand is an error: it is no number. SPEC-GAP(spec-notes/gaps/operand-conversion.md)
///
/// An operand already of type `ty` is borrowed: converting it would give a
/// copy of it.
fn operands_of<'v>(
    operands: &[&'v Value],
    ty: &Type,
    budget: &Budget,
) -> Result<Option<Converted<'v>>, Diagnostic> {
    let mut converted: Converted<'v> = [None, None];
    let mut unknown = false;
    for (slot, &operand) in converted.iter_mut().zip(operands) {
        if operand.is_null() {
            return Err(eval_error(format!(
                "a null value cannot be a {} operand",
                shown(ty)
            )));
        }
        let value = match (operand, ty) {
            (Value::Number(_), Type::Number) | (Value::Bool(_), Type::Bool) => {
                Cow::Borrowed(operand)
            }
            _ => Cow::Owned(
                convert(operand, ty, budget)
                    .map_err(|d| match budget.is_exceeded() {
                        true => Diagnostic {
                            phase: Phase::Eval,
                            ..d
                        },
                        false => eval_error(format!("invalid operand: {}", d.summary)),
                    })?
                    .value,
            ),
        };
        unknown |= value.is_unknown();
        *slot = Some(value);
    }
    Ok((!unknown).then_some(converted))
}

/// The number a converted operand holds (a placeholder for an absent one).
fn number_of<'a>(v: &'a Option<Cow<'_, Value>>, placeholder: &'a Number) -> &'a Number {
    match v.as_deref() {
        Some(Value::Number(n)) => n,
        _ => placeholder,
    }
}

/// An arithmetic operation of one or two operands (a unary one sees zero
/// as its second operand), whose work is paid for before it runs and
/// whose result after.
fn arithmetic(
    operands: &[&Value],
    budget: &Budget,
    work: Work,
    f: fn(&Number, &Number) -> Result<Number, NumberError>,
) -> Result<Value, Diagnostic> {
    let Some(values) = operands_of(operands, &Type::Number, budget)? else {
        return Ok(Value::Unknown(Type::Number));
    };
    let zero = Number::zero();
    let (a, b) = (number_of(&values[0], &zero), number_of(&values[1], &zero));
    let out_of_budget = |exceeded: BudgetExceeded| exceeded.diagnostic(Phase::Eval);
    budget
        .charge(Number::work_of(work, a, b))
        .map_err(out_of_budget)?;
    let result = f(a, b).map_err(|e| eval_error(e.to_string()))?;
    budget.charge(result.heap_bytes()).map_err(out_of_budget)?;
    Ok(Value::Number(result))
}

fn comparison(
    operands: &[&Value],
    budget: &Budget,
    f: impl Fn(&Number, &Number) -> bool,
) -> Result<Value, Diagnostic> {
    let Some(values) = operands_of(operands, &Type::Number, budget)? else {
        return Ok(Value::Unknown(Type::Bool));
    };
    match (values[0].as_deref(), values[1].as_deref()) {
        (Some(Value::Number(a)), Some(Value::Number(b))) => {
            budget
                .charge(Number::work_of(Work::Aligned, a, b))
                .map_err(|exceeded| exceeded.diagnostic(Phase::Eval))?;
            Ok(Value::Bool(f(a, b)))
        }
        _ => unreachable!("converted to number"),
    }
}

fn logic(
    operands: &[&Value],
    budget: &Budget,
    f: impl Fn(&[bool]) -> bool,
) -> Result<Value, Diagnostic> {
    let Some(values) = operands_of(operands, &Type::Bool, budget)? else {
        return Ok(Value::Unknown(Type::Bool));
    };
    let truth = |v: &Option<Cow<'_, Value>>| matches!(v.as_deref(), Some(Value::Bool(true)));
    let bools = [truth(&values[0]), truth(&values[1])];
    Ok(Value::Bool(f(&bools[..operands.len()])))
}
