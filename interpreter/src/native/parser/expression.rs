//! Expressions: the conditional operator, operations, and the postfix
//! index, attribute access and splat operators.
//!
//! Spec: hclsyntax-spec.md § Expressions, § Operations, § Conditional Operator,
//! § Index Operator, § Attribute Access Operator, § Splat Operators
//!
//! The grammar of operations (`binaryOp = ExprTerm binaryOperator
//! ExprTerm`, `unaryOp = ("-" | "!") ExprTerm`) cannot be read literally:
//! it would reject `a + b + c`, which the prose gives as an example of
//! left-to-right associativity. It is read as a precedence grammar: an
//! operand of a binary operator is a unary operation or a term, and the
//! operand of a unary operator is a unary operation or a term, so `1 + -2`
//! and `!!a` are operations, as in hashicorp/hcl.
//! SPEC-GAP(spec-notes/gaps/ops-operator-grammar.md)

use super::term::parse_term;
use super::Parser;
use crate::native::ast::node::{
    BinaryOperation, Conditional, Expression, GetAttr, Index, Splat, UnaryOperation,
};
use crate::native::ast::{BinaryOperator, SplatKind, UnaryOperator};
use crate::native::lexer::TokenKind;
use crate::native::Problem;
use crate::number::Number;
use crate::source::Span;
use crate::value::Value;

/// Parses an expression: a conditional, or the operation or term that
/// would be its predicate.
///
/// ```ebnf
/// Expression = (
///     ExprTerm |
///     Operation |
///     Conditional
/// );
/// Conditional = Expression "?" Expression ":" Expression;
/// ```
///
/// The predicate is an operation or a term; the two results are whole
/// expressions, so `a ? b : c ? d : e` is `a ? b : (c ? d : e)`.
///
/// Spec: hclsyntax-spec.md § Expressions, § Conditional Operator
pub(crate) fn parse_expression(p: &mut Parser) -> Result<Expression, Problem> {
    let start = p.peek().span;
    p.enter(start)?;
    let predicate = parse_binary(p, 1)?;
    if p.peek().kind != TokenKind::Question {
        p.leave(1);
        return Ok(predicate);
    }
    p.next();
    let true_result = parse_expression(p)?;
    p.expect(
        TokenKind::Colon,
        "Missing false expression in conditional",
        "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
    )?;
    let false_result = parse_expression(p)?;
    p.leave(1);
    let span = predicate.span().to(false_result.span());
    Ok(p.tree.expression(
        Conditional {
            predicate,
            true_result,
            false_result,
        },
        span,
    ))
}

/// The binary operator a token denotes.
fn binary_operator(kind: TokenKind) -> Option<BinaryOperator> {
    use BinaryOperator::*;
    Some(match kind {
        TokenKind::Equal => Equal,
        TokenKind::NotEqual => NotEqual,
        TokenKind::Less => Less,
        TokenKind::Greater => Greater,
        TokenKind::LessOrEqual => LessOrEqual,
        TokenKind::GreaterOrEqual => GreaterOrEqual,
        TokenKind::Plus => Add,
        TokenKind::Minus => Subtract,
        TokenKind::Star => Multiply,
        TokenKind::Slash => Divide,
        TokenKind::Percent => Modulo,
        TokenKind::And => And,
        TokenKind::Or => Or,
        _ => return None,
    })
}

/// Parses operations whose operators are at `min_level` or above.
///
/// ```ebnf
/// binaryOp = ExprTerm binaryOperator ExprTerm;
/// ```
///
/// "Higher values of "level" bind tighter. Operators within the same
/// precedence level have left-to-right associativity": operators are
/// consumed in a loop, each right operand holding only tighter operators,
/// so `x / y * z` is `(x / y) * z`.
///
/// Each link of the left-deep chain is a level of nesting for the
/// evaluator, so it counts against the depth limit.
///
/// Spec: hclsyntax-spec.md § Operations
fn parse_binary(p: &mut Parser, min_level: u8) -> Result<Expression, Problem> {
    let mut left = parse_unary(p)?;
    let outer = p.nesting();
    loop {
        let token = p.peek();
        let Some(operator) = binary_operator(token.kind) else {
            break;
        };
        if operator.level() < min_level {
            break;
        }
        p.next();
        p.enter(token.span)?;
        let right = parse_binary(p, operator.level() + 1)?;
        let span = left.span().to(right.span());
        left = p.tree.expression(
            BinaryOperation {
                operator,
                left,
                right,
            },
            span,
        );
    }
    p.return_to(outer);
    Ok(left)
}

/// Parses a unary operation, or a term with its postfix operators.
///
/// ```ebnf
/// unaryOp = ("-" | "!") ExprTerm;
/// ```
///
/// "The unary operators have the highest precedence": `-a.b` is `-(a.b)`
/// and `-1 + 2` is `(-1) + 2`.
///
/// Spec: hclsyntax-spec.md § Operations
fn parse_unary(p: &mut Parser) -> Result<Expression, Problem> {
    let token = p.peek();
    let operator = match token.kind {
        TokenKind::Minus => UnaryOperator::Negate,
        TokenKind::Bang => UnaryOperator::Not,
        _ => return parse_postfix(p),
    };
    p.next();
    p.enter(token.span)?;
    let operand = parse_unary(p)?;
    p.leave(1);
    let span = token.span.to(operand.span());
    Ok(p.tree
        .expression(UnaryOperation { operator, operand }, span))
}

/// Parses a term and the postfix operators that follow it.
///
/// ```ebnf
/// ExprTerm = ... | ExprTerm Index | ExprTerm GetAttr | ExprTerm Splat | ...;
/// Splat = attrSplat | fullSplat;
/// attrSplat = "." "*" GetAttr*;
/// fullSplat = "[" "*" "]" (GetAttr | Index)*;
/// ```
///
/// A splat takes the attribute accesses (and, for the full splat, the
/// indexes) that follow it as the traversal applied to each element;
/// anything after that applies to the splat's result. So `a.*.b[0]` is
/// `(a.*.b)[0]`. Which steps belong to a splat's traversal beyond these
/// (the legacy index `.0` after `.*`, another splat) is
/// [`parse_splat`]'s question.
/// SPEC-GAP(spec-notes/gaps/expr-splat-traversal-extent.md)
///
/// Spec: hclsyntax-spec.md § Expression Terms, § Splat Operators
fn parse_postfix(p: &mut Parser) -> Result<Expression, Problem> {
    let mut expression = parse_term(p)?;
    // Each postfix operator nests the chain one level deeper, splats'
    // traversals included; the chain's levels are left once it ends.
    let outer = p.nesting();
    loop {
        let token = p.peek();
        // Most terms have no postfix operator: look further only after a
        // `.` or a `[`.
        if !matches!(token.kind, TokenKind::Dot | TokenKind::OpenBracket) {
            break;
        }
        let second = p.peek_second();
        let splat = match (token.kind, second.kind) {
            (TokenKind::Dot, TokenKind::Star) => Some(SplatKind::AttributeOnly),
            (TokenKind::OpenBracket, TokenKind::Star) => Some(SplatKind::Full),
            (TokenKind::Dot | TokenKind::OpenBracket, _) => None,
            _ => break,
        };
        p.enter(token.span)?;
        expression = match splat {
            Some(kind) => parse_splat(p, expression, kind)?,
            None => parse_traversal_step(p, expression)?,
        };
    }
    p.return_to(outer);
    Ok(expression)
}

/// Parses one index, legacy index or attribute access applied to
/// `operand`.
fn parse_traversal_step(p: &mut Parser, operand: Expression) -> Result<Expression, Problem> {
    if p.peek().kind == TokenKind::OpenBracket {
        parse_index(p, operand)
    } else {
        parse_dot(p, operand)
    }
}

/// Parses a splat operator and the traversal it applies to each element.
///
/// The grammar ends a splat's traversal at the first operation its
/// production does not list, another splat and, for `.*`, the legacy index
/// included, but "The grammar notation does not fully describe the
/// language", and no prose sentence says where the traversal ends. Here
/// the parser reads it as hashicorp/hcl does:
/// - the legacy index `.0` is part of either splat's traversal, so the
///   HIL idiom `a.*.b.0.c` reads `c` of the first `b` of every element
///   (`[for v in a: v.b[0].c]`), while `a.*.b[0]` indexes the result;
/// - inside a full splat's traversal, another splat (`[*]` or `.*`) is
///   part of the traversal, a nested splat over each element
///   (`a[*].b[*].c` reads `c` of every element of every `b`);
/// - directly inside an attribute-only splat's traversal, `.*` is a parse
///   error.
///
/// SPEC-GAP(spec-notes/gaps/expr-splat-traversal-extent.md)
///
/// Spec: hclsyntax-spec.md § Splat Operators
///
/// Each step of the traversal nests it one level deeper; the levels are
/// left where the chain the splat is part of ends ([`parse_postfix`]).
fn parse_splat(p: &mut Parser, source: Expression, kind: SplatKind) -> Result<Expression, Problem> {
    let open = p.next();
    p.next(); // `*`
    let marker_span = match kind {
        SplatKind::AttributeOnly => open.span.to(p.previous().span),
        SplatKind::Full => {
            let close = p.expect(
                TokenKind::CloseBracket,
                "Missing close bracket on splat index",
                "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
            )?;
            open.span.to(close.span)
        }
    };
    let mut each = p.tree.splat_item(marker_span);
    loop {
        let token = p.peek();
        if !matches!(token.kind, TokenKind::Dot | TokenKind::OpenBracket) {
            break;
        }
        let second = p.peek_second();
        let nested = match (token.kind, second.kind) {
            (TokenKind::Dot, TokenKind::Star) => Some(SplatKind::AttributeOnly),
            (TokenKind::OpenBracket, TokenKind::Star) => Some(SplatKind::Full),
            _ => None,
        };
        let continues = match (token.kind, second.kind) {
            (TokenKind::Dot, TokenKind::Identifier) => true,
            (TokenKind::Dot, TokenKind::NumberLit) => true,
            (TokenKind::Dot, TokenKind::Star) if kind == SplatKind::AttributeOnly => {
                return Err(Problem::new(
                    second.span,
                    "Nested splat expression",
                    "Only attribute names may follow an attribute-only splat (`.*`); to splat its result again, put it in parentheses, as in `(x.*.a).*`.",
                ));
            }
            (TokenKind::Dot, TokenKind::Star) => true,
            (TokenKind::OpenBracket, _) => kind == SplatKind::Full,
            _ => false,
        };
        if !continues {
            break;
        }
        p.enter(token.span)?;
        each = match nested {
            Some(nested_kind) => parse_splat(p, each, nested_kind)?,
            None => parse_traversal_step(p, each)?,
        };
    }
    let span = Span {
        start: source.span().start,
        end: marker_span.end.max(each.span().end),
    };
    Ok(p.tree.expression(
        Splat {
            kind,
            source,
            each,
            marker_span,
        },
        span,
    ))
}

/// Parses `[ key ]` applied to `collection`.
///
/// ```ebnf
/// Index = "[" Expression "]";
/// ```
///
/// "Within the brackets that delimit the index key, newline sequences are
/// ignored as whitespace."
///
/// Spec: hclsyntax-spec.md § Index Operator
fn parse_index(p: &mut Parser, collection: Expression) -> Result<Expression, Problem> {
    let open = p.next();
    let saved = p.skip_newlines();
    let key = parse_expression(p)?;
    let close = p.expect(
        TokenKind::CloseBracket,
        "Missing close bracket on index",
        "The index operator must end with a closing bracket (\"]\").",
    )?;
    p.restore_newlines(saved);
    let operator_span = open.span.to(close.span);
    let span = collection.span().to(close.span);
    Ok(p.tree.expression(
        Index {
            collection,
            key,
            legacy: false,
            operator_span,
        },
        span,
    ))
}

/// Parses `.name` or the legacy index `.0` applied to `operand`.
///
/// ```ebnf
/// GetAttr = "." Identifier;
/// LegacyIndex = '.' digit+
/// ```
///
/// "The legacy syntax does not support chaining of index operations, like
/// `foo.0.0.bar`, because the interpretation of `0.0` as a number literal
/// token takes priority and thus renders the resulting sequence invalid."
/// So a number literal with a fraction is an error. No sentence says what
/// a literal with an exponent gives (`digit` is not defined, and the
/// grammar "does not fully describe the language"), so it is read as
/// hashicorp/hcl reads it: the index its value names (`.1e1` is `[10]`).
/// SPEC-GAP(spec-notes/gaps/expr-legacy-index-digits.md)
///
/// Spec: hclsyntax-spec.md § Attribute Access Operator, § Index Operator
fn parse_dot(p: &mut Parser, operand: Expression) -> Result<Expression, Problem> {
    let dot = p.next();
    let token = p.peek();
    match token.kind {
        TokenKind::Identifier => {
            p.next();
            let operator_span = dot.span.to(token.span);
            let span = operand.span().to(token.span);
            let name = p.name(token);
            Ok(p.tree.expression(
                GetAttr {
                    object: operand,
                    name,
                    operator_span,
                },
                span,
            ))
        }
        TokenKind::NumberLit => {
            p.next();
            let digits = p.text(token);
            if digits.contains('.') {
                return Err(Problem::new(
                    token.span,
                    "Invalid legacy index syntax",
                    "Chaining two legacy indexes (\".0.1\") is not permitted: the digits read as one number. Use the index syntax instead, like [0][1].",
                ));
            }
            let value = Number::parse_decimal(digits, true)
                .map_err(|e| Problem::new(token.span, "Invalid number literal", e.to_string()))?;
            let operator_span = dot.span.to(token.span);
            let span = operand.span().to(token.span);
            let key = p.tree.literal(Value::Number(value), token.span);
            Ok(p.tree.expression(
                Index {
                    collection: operand,
                    key,
                    legacy: true,
                    operator_span,
                },
                span,
            ))
        }
        _ => Err(p.unexpected(
            token,
            "Invalid attribute name",
            "An attribute name is required after a dot.",
        )),
    }
}
