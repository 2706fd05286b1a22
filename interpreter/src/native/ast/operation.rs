//! The syntax tree of operations and of the conditional operator.
//!
//! Spec: hclsyntax-spec.md § Operations, § Conditional Operator

use super::Expression;
use crate::source::Span;

/// The unary operators.
///
/// Spec: hclsyntax-spec.md § Operations
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOperator {
    /// `-a`
    Negate,
    /// `!a`
    Not,
}

/// A unary operation.
///
/// ```ebnf
/// unaryOp = ("-" | "!") ExprTerm;
/// ```
///
/// Spec: hclsyntax-spec.md § Operations
#[derive(Clone, Copy, Debug)]
pub struct UnaryOperation<'t> {
    pub operator: UnaryOperator,
    pub operand: Expression<'t>,
    pub span: Span,
}

/// The binary operators.
///
/// ```ebnf
/// binaryOperator = compareOperator | arithmeticOperator | logicOperator;
/// compareOperator = "==" | "!=" | "<" | ">" | "<=" | ">=";
/// arithmeticOperator = "+" | "-" | "*" | "/" | "%";
/// logicOperator = "&&" | "||" | "!";
/// ```
///
/// Spec: hclsyntax-spec.md § Operations
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOperator {
    Equal,
    NotEqual,
    Less,
    Greater,
    LessOrEqual,
    GreaterOrEqual,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    And,
    Or,
}

impl BinaryOperator {
    /// The operator's precedence level: "Higher values of "level" bind
    /// tighter."
    ///
    /// ```text
    /// Level    Operators
    ///   6      * / %
    ///   5      + -
    ///   4      > >= < <=
    ///   3      == !=
    ///   2      &&
    ///   1      ||
    /// ```
    ///
    /// Spec: hclsyntax-spec.md § Operations
    pub fn level(self) -> u8 {
        use BinaryOperator::*;
        match self {
            Multiply | Divide | Modulo => 6,
            Add | Subtract => 5,
            Greater | GreaterOrEqual | Less | LessOrEqual => 4,
            Equal | NotEqual => 3,
            And => 2,
            Or => 1,
        }
    }
}

/// A binary operation.
///
/// ```ebnf
/// binaryOp = ExprTerm binaryOperator ExprTerm;
/// ```
///
/// Spec: hclsyntax-spec.md § Operations
#[derive(Clone, Copy, Debug)]
pub struct BinaryOperation<'t> {
    pub operator: BinaryOperator,
    pub left: Expression<'t>,
    pub right: Expression<'t>,
    pub span: Span,
}

/// The conditional operator.
///
/// ```ebnf
/// Conditional = Expression "?" Expression ":" Expression;
/// ```
///
/// Spec: hclsyntax-spec.md § Conditional Operator
#[derive(Clone, Copy, Debug)]
pub struct Conditional<'t> {
    pub predicate: Expression<'t>,
    pub true_result: Expression<'t>,
    pub false_result: Expression<'t>,
    pub span: Span,
}
