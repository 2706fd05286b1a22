//! Expression terms: literal values, collection values, template
//! expressions, variables, function calls, `for` expressions and
//! parentheses.
//!
//! Spec: hclsyntax-spec.md § Expression Terms, § Literal Values,
//! § Collection Values, § Variables and Variable Expressions,
//! § Functions and Function Calls, § For Expressions
//!
//! Inside parentheses, brackets and braces newlines are skipped: "Between
//! the `(` and `)` characters denoting a sub-expression, newline characters
//! are ignored as whitespace", and likewise for collection values, function
//! arguments and index keys.

use super::expression::parse_expression;
use super::template::parse_template_expression;
use super::{parse_comma_separated, Delimited, Parser};
use crate::functions::NAMESPACE_SEPARATOR;
use crate::native::ast::node::{
    Expression, ForExpr, FunctionCall, Identifier, Name, Object, ObjectItem, ObjectKey, Tuple,
};
use crate::native::lexer::{Token, TokenKind};
use crate::native::Problem;
use crate::number::Number;
use crate::source::Span;
use crate::types::Type;
use crate::value::Value;

/// Parses an expression term (without its postfix operators).
///
/// Each kind of term is read by a function of its own, never inlined here:
/// nested terms recurse through this function, and its stack frame then
/// holds only what one kind of term needs.
///
/// ```ebnf
/// ExprTerm = (
///     LiteralValue |
///     CollectionValue |
///     TemplateExpr |
///     VariableExpr |
///     FunctionCall |
///     ForExpr |
///     ...
///     "(" Expression ")"
/// );
/// ```
///
/// Spec: hclsyntax-spec.md § Expression Terms
pub(super) fn parse_term(p: &mut Parser) -> Result<Expression, Problem> {
    let token = p.peek();
    match token.kind {
        TokenKind::NumberLit => parse_number(p),
        TokenKind::Identifier => parse_identifier_term(p),
        TokenKind::OpenParen => parse_parenthesized(p),
        TokenKind::OpenBracket => {
            let saved = p.skip_newlines();
            let tuple = parse_tuple(p)?;
            p.restore_newlines(saved);
            Ok(tuple)
        }
        TokenKind::OpenBrace => {
            let saved = p.skip_newlines();
            let object = parse_object(p)?;
            p.restore_newlines(saved);
            Ok(object)
        }
        TokenKind::OpenQuote | TokenKind::HeredocOpen { .. } => {
            let template = parse_template_expression(p)?;
            let span = template.span;
            Ok(p.tree.expression(template, span))
        }
        TokenKind::Eof => Err(Problem::new(
            token.span,
            "Missing expression",
            "Expected the start of an expression, but found the end of the input.",
        )),
        _ => Err(p.unexpected(
            token,
            "Invalid expression",
            "Expected the start of an expression, but found an invalid expression token.",
        )),
    }
}

/// Parses a numeric literal.
///
/// ```ebnf
/// NumericLit = decimal+ ("." decimal+)? (expmark decimal+)?;
/// ```
///
/// "Numeric literals represent values of type _number_", at full precision
/// ([`Number::parse_decimal`]); a literal beyond the representation's
/// limits is a parse error.
///
/// Spec: hclsyntax-spec.md § Numeric Literals, § Literal Values
#[inline(never)]
fn parse_number(p: &mut Parser) -> Result<Expression, Problem> {
    let token = p.next();
    let text = p.text(token);
    // `1.e5`: a point without fraction digits before the exponent.
    // SPEC-GAP(spec-notes/gaps/lexical-number-fraction-digits.md)
    let without_empty_fraction;
    let text = match text.find(['.']) {
        Some(point) if matches!(text.as_bytes().get(point + 1), Some(b'e' | b'E')) => {
            without_empty_fraction = format!("{}{}", &text[..point], &text[point + 1..]);
            without_empty_fraction.as_str()
        }
        _ => text,
    };
    let number = Number::parse_decimal(text, true).map_err(|e| {
        Problem::new(
            token.span,
            "Invalid number literal",
            format!("This number literal cannot be represented: {e}."),
        )
    })?;
    Ok(p.tree.literal(Value::Number(number), token.span))
}

/// Parses a term that starts with an identifier: a keyword literal, a
/// function call or a variable.
///
/// ```ebnf
/// LiteralValue = ( NumericLit | "true" | "false" | "null" );
/// VariableExpr = Identifier;
/// FunctionCall = Identifier ("::" Identifier)* "(" arguments ")";
/// ```
///
/// - "The `true` and `false` keywords represent values of type _bool_."
/// - "The `null` keyword represents a null value of the dynamic
///   pseudo-type."
///   SPEC-GAP(spec-notes/gaps/expr-null-literal-type.md)
/// - An identifier followed by `(` or by `::` starts a function call
///   ([`parse_function_call`]).
///
/// Spec: hclsyntax-spec.md § Literal Values,
/// § Variables and Variable Expressions, § Functions and Function Calls
#[inline(never)]
fn parse_identifier_term(p: &mut Parser) -> Result<Expression, Problem> {
    let token = p.next();
    if matches!(p.peek().kind, TokenKind::OpenParen | TokenKind::DoubleColon) {
        return parse_function_call(p, token);
    }
    let name = p.text(token);
    let literal = match name {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "null" => Value::Null(Type::Dynamic),
        _ => return Ok(p.tree.variable(name, token.span)),
    };
    Ok(p.tree.literal(literal, token.span))
}

/// Parses `( Expression )`.
///
/// Spec: hclsyntax-spec.md § Expression Terms
#[inline(never)]
fn parse_parenthesized(p: &mut Parser) -> Result<Expression, Problem> {
    let open = p.next();
    let saved = p.skip_newlines();
    let expression = parse_expression(p)?;
    let close = p.expect(
        TokenKind::CloseParen,
        "Unbalanced parentheses",
        "Expected a closing parenthesis to terminate the expression.",
    )?;
    p.restore_newlines(saved);
    Ok(p.tree.expression(expression, open.span.to(close.span)))
}

/// Parses a function call, its first identifier already read.
///
/// ```ebnf
/// FunctionCall = Identifier "(" arguments ")";
/// Arguments = (
///     () ||
///     (Expression ("," Expression)* ("," | "...")?)
/// );
/// ```
///
/// "Within the parentheses that delimit the function arguments, newline
/// sequences are ignored as whitespace."
/// A call may have no arguments; a final `,` or `...` is allowed, not
/// both. SPEC-GAP(spec-notes/gaps/expr-function-call-grammar.md)
///
/// The name may be namespaced ([`parse_function_name`]), as hashicorp/hcl
/// v2.20.1 and later read it; a name not followed by `(` is then an error
/// ("Missing open parenthesis", at the token found instead).
/// SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
///
/// Spec: hclsyntax-spec.md § Functions and Function Calls
fn parse_function_call(p: &mut Parser, first: Token) -> Result<Expression, Problem> {
    let (name, name_span) = parse_function_name(p, first)?;
    let open = p.expect(
        TokenKind::OpenParen,
        "Missing open parenthesis",
        "A function name must be followed by an opening parenthesis, which begins the function call's arguments.",
    )?;
    let saved = p.skip_newlines();
    let (arguments, close, expand_final) = parse_comma_separated(
        p,
        &Delimited {
            close: TokenKind::CloseParen,
            unterminated: (
                name_span.to(open.span),
                "Unterminated function call",
                "There is no closing parenthesis for this function call before the end of the input.",
            ),
            missing_separator: (
                "Missing argument separator",
                "A comma is required to separate each function argument from the next.",
            ),
            newline_separates: false,
            final_ellipsis: Some((
                "Missing closing parenthesis",
                "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
            )),
        },
        parse_expression,
    )?;
    p.restore_newlines(saved);
    let call = FunctionCall {
        name,
        name_span,
        arguments,
        expand_final,
        open_span: name_span.to(open.span),
        close_paren_span: close.span,
    };
    Ok(p.tree.expression(call, name_span.to(close.span)))
}

/// Parses the name of a function call, its first identifier already read:
/// the identifier alone, or namespaced, its namespaces and the function's
/// name separated by `::`:
///
/// ```ebnf
/// FunctionName = Identifier ("::" Identifier)*;
/// ```
///
/// hclsyntax-spec.md, written for hashicorp/hcl v2.14.1, has no namespaced
/// names; this is the grammar of hashicorp/hcl v2.20.1 and later
/// (`provider::aws::arn_parse`, `core::upper`). The name is the identifiers
/// joined by `::`, whatever whitespace (and, where newlines are skipped,
/// newlines) lies between the tokens; a `::` not followed by an identifier
/// is an error ("Missing function name", at the token found instead).
/// SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
///
/// Returns the name and its span, from the first identifier to the last.
fn parse_function_name(p: &mut Parser, first: Token) -> Result<(Name, Span), Problem> {
    if p.peek().kind != TokenKind::DoubleColon {
        return Ok((p.name(first), first.span));
    }
    let mut parts = vec![p.text(first)];
    let mut last = first;
    while p.peek().kind == TokenKind::DoubleColon {
        p.next();
        last = p.expect(
            TokenKind::Identifier,
            "Missing function name",
            "The namespace separator \"::\" must be followed by the name of a namespace or a function.",
        )?;
        parts.push(p.text(last));
    }
    let name = p.tree.joined_name(&parts, NAMESPACE_SEPARATOR);
    Ok((name, first.span.to(last.span)))
}

/// Parses a tuple constructor or a tuple `for` expression, newlines
/// skipped.
///
/// ```ebnf
/// tuple = "[" (
///     (Expression ("," Expression)* ","?)?
/// ) "]";
/// ```
///
/// "The _for expression_ interpretation has priority": a `[` followed by
/// the identifier `for` starts a `for` expression, so `[for, foo, baz]` is
/// a syntax error and `[(for), foo, baz]` a tuple.
///
/// Spec: hclsyntax-spec.md § Collection Values
#[inline(never)]
fn parse_tuple(p: &mut Parser) -> Result<Expression, Problem> {
    let open = p.next();
    if p.at_keyword("for") {
        return parse_for(p, open, ForForm::Tuple);
    }
    let (elements, close, _) = parse_comma_separated(
        p,
        &Delimited {
            close: TokenKind::CloseBracket,
            unterminated: (
                open.span,
                "Unterminated tuple constructor expression",
                "There is no corresponding closing bracket before the end of the input.",
            ),
            missing_separator: (
                "Missing item separator",
                "Expected a comma to mark the beginning of the next item.",
            ),
            newline_separates: false,
            final_ellipsis: None,
        },
        parse_expression,
    )?;
    Ok(p.tree
        .expression(Tuple { elements }, open.span.to(close.span)))
}

/// Parses an object constructor or an object `for` expression, newlines
/// skipped.
///
/// ```ebnf
/// object = "{" (
///     (objectelem ("," objectelem)* ","?)?
/// ) "}";
/// objectelem = (Identifier | Expression) ("=" | ":") Expression;
/// ```
///
/// - "an identifier is interpreted as a literal attribute name as opposed to
///   a variable reference": a key that is a lone identifier followed by `=`
///   or `:` is its name, keywords included (`{null = 1}` has the attribute
///   `"null"`). Any other key is an expression, evaluated; a bare reference
///   with steps (`{a.b = 1}`) is then rejected as ambiguous, as in
///   hashicorp/hcl (see `eval::collection`).
///   SPEC-GAP(spec-notes/gaps/expr-object-key-expressions.md)
/// - Elements are separated by a comma or by a line break: "Between the
///   open and closing delimiters of these sequences, newline sequences are
///   ignored as whitespace", except that a newline after a complete element
///   followed by another one separates them, as in hashicorp/hcl and the
///   Terraform guide ("Key/value pairs can be separated by either a comma
///   or a line break"). Elsewhere between the braces newlines are
///   whitespace, before a comma included.
///   SPEC-GAP(spec-notes/gaps/expr-object-element-separators.md)
///
/// Spec: hclsyntax-spec.md § Collection Values
#[inline(never)]
fn parse_object(p: &mut Parser) -> Result<Expression, Problem> {
    let open = p.next();
    if p.at_keyword("for") {
        return parse_for(p, open, ForForm::Object);
    }
    let unterminated = (
        open.span,
        "Unterminated object constructor expression",
        "There is no corresponding closing brace before the end of the input.",
    );
    let (items, close, _) = parse_comma_separated(
        p,
        &Delimited {
            close: TokenKind::CloseBrace,
            unterminated,
            missing_separator: (
                "Missing attribute separator",
                "Expected a newline or comma to mark the beginning of the next attribute.",
            ),
            // SPEC-GAP(spec-notes/gaps/expr-object-element-separators.md)
            newline_separates: true,
            final_ellipsis: None,
        },
        |p| {
            let key = parse_object_key(p)?;
            let separator = p.peek();
            match separator.kind {
                TokenKind::Assign | TokenKind::Colon => {
                    p.next();
                }
                TokenKind::Eof => {
                    let (span, summary, detail) = unterminated;
                    return Err(Problem::new(span, summary, detail));
                }
                TokenKind::Comma | TokenKind::CloseBrace => {
                    return Err(Problem::new(
                        separator.span,
                        "Missing attribute value",
                        "Expected an attribute value, introduced by an equals sign (\"=\").",
                    ))
                }
                _ => return Err(p.unexpected(
                    separator,
                    "Missing key/value separator",
                    "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                )),
            }
            let value = parse_expression(p)?;
            Ok(ObjectItem { key, value })
        },
    )?;
    Ok(p.tree
        .expression(Object { items }, open.span.to(close.span)))
}

/// Parses the key of an object constructor element.
///
/// ```ebnf
/// objectelem = (Identifier | Expression) ("=" | ":") Expression;
/// ```
fn parse_object_key(p: &mut Parser) -> Result<ObjectKey, Problem> {
    let token = p.peek();
    if token.kind == TokenKind::Identifier
        && matches!(p.peek_second().kind, TokenKind::Assign | TokenKind::Colon)
    {
        p.next();
        return Ok(ObjectKey::Name {
            name: p.name(token),
            span: token.span,
        });
    }
    Ok(ObjectKey::Expression(parse_expression(p)?))
}

/// Which punctuation delimits a `for` expression.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ForForm {
    Tuple,
    Object,
}

/// Parses a `for` expression, the opening delimiter consumed and the
/// keyword `for` next.
///
/// ```ebnf
/// ForExpr = forTupleExpr | forObjectExpr;
/// forTupleExpr = "[" forIntro Expression forCond? "]";
/// forObjectExpr = "{" forIntro Expression "=>" Expression "..."? forCond? "}";
/// forIntro = "for" Identifier ("," Identifier)? "in" Expression ":";
/// forCond = "if" Expression;
/// ```
///
/// "The punctuation used to delimit a for expression decide whether it will
/// produce a tuple value (`[` and `]`) or an object value (`{` and `}`)."
///
/// Spec: hclsyntax-spec.md § For Expressions
fn parse_for(p: &mut Parser, open: Token, form: ForForm) -> Result<Expression, Problem> {
    let invalid = |span, detail: &str| Problem::new(span, "Invalid 'for' expression", detail);
    p.next(); // `for`
    let (key_var, value_var) = parse_for_variables(p, "expression")?;
    let collection = parse_expression(p)?;
    p.expect(
        TokenKind::Colon,
        "Invalid 'for' expression",
        "A 'for' expression requires a colon after the collection expression.",
    )?;
    let first = parse_expression(p)?;
    let (key, value) = if p.peek().kind == TokenKind::FatArrow {
        p.next();
        if form == ForForm::Tuple {
            return Err(invalid(
                first.span(),
                "A key expression is not valid when building a tuple.",
            ));
        }
        (Some(first), parse_expression(p)?)
    } else {
        (None, first)
    };
    let mut grouping = false;
    if p.peek().kind == TokenKind::Ellipsis {
        let ellipsis = p.next();
        if form == ForForm::Tuple {
            return Err(invalid(
                ellipsis.span,
                "The grouping ellipsis (...) cannot be used when building a tuple.",
            ));
        }
        grouping = true;
    }
    let condition = if p.at_keyword("if") {
        p.next();
        Some(parse_expression(p)?)
    } else {
        None
    };
    let close_kind = match form {
        ForForm::Tuple => TokenKind::CloseBracket,
        ForForm::Object => TokenKind::CloseBrace,
    };
    let close = p.expect(
        close_kind,
        "Invalid 'for' expression",
        "Extra characters after the end of the 'for' expression.",
    )?;
    if form == ForForm::Object && key.is_none() {
        return Err(invalid(
            value.span(),
            "A key expression (\"key => value\") is required when building an object.",
        ));
    }
    let for_expr = ForExpr {
        key_var,
        value_var,
        collection,
        key,
        value,
        grouping,
        condition,
    };
    Ok(p.tree.expression(for_expr, open.span.to(close.span)))
}

/// Consumes an identifier, or reports an invalid `for` expression.
/// Reads the variables of a `for` expression or directive and the `in`
/// keyword after them: `Identifier ("," Identifier)? "in"`. `what` names
/// the construct in messages ("expression" or "directive").
///
/// ```ebnf
/// forIntro = "for" Identifier ("," Identifier)? "in" Expression ":";
/// ```
///
/// Spec: hclsyntax-spec.md § For Expressions, § Template For Directive
pub(super) fn parse_for_variables(
    p: &mut Parser,
    what: &str,
) -> Result<(Option<Identifier>, Identifier), Problem> {
    let first = expect_identifier(p, what, "a variable name after 'for'")?;
    let (key_var, value_var) = if p.peek().kind == TokenKind::Comma {
        p.next();
        let second = expect_identifier(p, what, "a value variable name after the comma")?;
        (Some(first), second)
    } else {
        (None, first)
    };
    if !p.at_keyword("in") {
        let token = p.peek();
        return Err(p.unexpected(
            token,
            &format!("Invalid 'for' {what}"),
            &format!("A 'for' {what} requires the 'in' keyword after its variable names."),
        ));
    }
    p.next();
    Ok((key_var, value_var))
}

/// An identifier, or an error saying that a `for` `what` requires `needed`.
fn expect_identifier(p: &mut Parser, what: &str, needed: &str) -> Result<Identifier, Problem> {
    let token = p.peek();
    if token.kind != TokenKind::Identifier {
        return Err(p.unexpected(
            token,
            &format!("Invalid 'for' {what}"),
            &format!("A 'for' {what} requires {needed}."),
        ));
    }
    p.next();
    Ok(p.identifier(token))
}
