//! Structural elements: configuration files, bodies, attributes, blocks.
//!
//! Spec: hclsyntax-spec.md § Structural Elements
//!
//! ```ebnf
//! ConfigFile   = Body;
//! Body         = (Attribute | Block | OneLineBlock)*;
//! Attribute    = Identifier "=" Expression Newline;
//! Block        = Identifier (StringLit|Identifier)* "{" Newline Body "}" Newline;
//! OneLineBlock = Identifier (StringLit|Identifier)* "{" (Identifier "=" Expression)? "}" Newline;
//! ```
//!
//! The `Newline` that ends an attribute or a block may also be the end of
//! the file. SPEC-GAP(spec-notes/gaps/structure-final-newline.md)

use super::expression::parse_expression;
use super::Parser;
use crate::diagnostic::quoted;
use crate::native::ast::node::{Attribute, Block, Body, ConfigFile, Label};
use crate::native::lexer::TokenKind;
use crate::native::Problem;
use crate::source::Span;

/// Where a body ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BodyEnd {
    /// The top-level body of a configuration file ends with the file.
    EndOfFile,
    /// A block's body ends at `}`, which the caller consumes; `open` is the
    /// block's `{`.
    CloseBrace { open: Span },
}

/// "A _configuration file_ is a sequence of characters whose top-level is
/// interpreted as a Body."
///
/// ```ebnf
/// ConfigFile   = Body;
/// ```
///
/// Spec: hclsyntax-spec.md § Configuration Files
pub(super) fn parse_config_file(p: &mut Parser) -> Result<ConfigFile, Problem> {
    p.newlines_significant = true;
    let body = parse_body(p, BodyEnd::EndOfFile)?;
    Ok(ConfigFile { body })
}

/// Parses body content up to its end.
///
/// ```ebnf
/// Body         = (Attribute | Block | OneLineBlock)*;
/// ```
///
/// "Each distinct attribute name may be defined no more than once within a
/// single body": a second definition is a parse error at its name.
///
/// Spec: hclsyntax-spec.md § Bodies, § Attribute Definitions
fn parse_body(p: &mut Parser, end: BodyEnd) -> Result<Body, Problem> {
    let start = p.peek().span;
    p.enter(start)?;
    let mut body = p.tree.open_body();
    let body = loop {
        let token = p.peek();
        match (token.kind, end) {
            (TokenKind::Newline, _) => {
                p.next();
            }
            (TokenKind::Eof, BodyEnd::EndOfFile)
            | (TokenKind::CloseBrace, BodyEnd::CloseBrace { .. }) => {
                break p.tree.close_body(body, start.to(token.span));
            }
            (TokenKind::Eof, BodyEnd::CloseBrace { open }) => {
                return Err(Problem::new(
                    open,
                    "Unclosed configuration block",
                    "There is no closing brace for this block before the end of the file.",
                ));
            }
            (TokenKind::Identifier, _) => {
                let second = p.peek_second();
                if !matches!(
                    second.kind,
                    TokenKind::Assign
                        | TokenKind::OpenQuote
                        | TokenKind::OpenBrace
                        | TokenKind::Identifier
                ) {
                    // An invalid character after the name is the mistake.
                    if matches!(second.kind, TokenKind::Invalid(_)) {
                        return Err(p.unexpected(second, "", ""));
                    }
                    return Err(Problem::new(
                        token.span,
                        "Attribute or block definition required",
                        "An attribute or block definition is required here. To set an attribute, use the equals sign \"=\" to introduce the attribute value.",
                    ));
                }
                if second.kind == TokenKind::Assign {
                    let attribute = parse_attribute(p, false)?;
                    // "Each distinct attribute name may be defined no more
                    // than once within a single body."
                    if p.tree.defines(&mut body, attribute.name) {
                        return Err(Problem::new(
                            attribute.name_span,
                            "Attribute redefined",
                            format!(
                                "The attribute {} was already defined in this body. Each attribute may be defined only once.",
                                quoted(p.text_of(attribute.name_span))
                            ),
                        ));
                    }
                    p.tree.add_attribute(&mut body, attribute);
                } else {
                    let block = parse_block(p)?;
                    p.tree.push(block);
                }
            }
            (TokenKind::OpenQuote, _) => {
                return Err(Problem::new(
                    token.span,
                    "Invalid attribute name",
                    "Attribute names must not be quoted.",
                ))
            }
            _ => {
                return Err(p.unexpected(
                    token,
                    "Attribute or block definition required",
                    "An attribute or block definition is required here.",
                ))
            }
        }
    };
    p.leave(1);
    Ok(body)
}

/// Parses an attribute definition.
///
/// ```ebnf
/// Attribute    = Identifier "=" Expression Newline;
/// ```
///
/// In a one-line block (`one_line`), the attribute ends at the block's
/// `}`, which is left for the caller.
///
/// Spec: hclsyntax-spec.md § Attribute Definitions
///
/// Never inlined, nor are the one-line body and the string literal: nested
/// blocks recurse through `parse_body`, whose stack frame then holds only
/// what a block needs.
#[inline(never)]
fn parse_attribute(p: &mut Parser, one_line: bool) -> Result<Attribute, Problem> {
    let name = p.next();
    p.expect(
        TokenKind::Assign,
        "Attribute definition required",
        "An equals sign (\"=\") must follow the attribute name.",
    )?;
    let expression = parse_expression(p)?;
    if !one_line {
        end_of_line(
            p,
            "Missing newline after attribute",
            "An attribute definition must end with a newline.",
        )?;
    }
    Ok(Attribute {
        name: p.name(name),
        name_span: name.span,
        expression,
    })
}

/// Consumes the newline that ends an attribute or a block, or accepts the
/// end of the file in its place.
fn end_of_line(p: &mut Parser, summary: &str, detail: &str) -> Result<(), Problem> {
    let token = p.peek();
    match token.kind {
        TokenKind::Newline => {
            p.next();
            Ok(())
        }
        // SPEC-GAP(spec-notes/gaps/structure-final-newline.md): the last line of a
        // file need not end with a newline.
        TokenKind::Eof => Ok(()),
        TokenKind::Comma => Err(Problem::new(
            token.span,
            "Unexpected comma after attribute",
            "Attribute definitions must be separated by newlines, not commas.",
        )),
        _ => Err(p.unexpected(token, summary, detail)),
    }
}

/// Parses a block or a one-line block.
///
/// ```ebnf
/// Block        = Identifier (StringLit|Identifier)* "{" Newline Body "}" Newline;
/// OneLineBlock = Identifier (StringLit|Identifier)* "{" (Identifier "=" Expression)? "}" Newline;
/// ```
///
/// "Block labels can either be quoted literal strings or naked
/// identifiers."
///
/// Spec: hclsyntax-spec.md § Blocks
fn parse_block(p: &mut Parser) -> Result<Block, Problem> {
    let type_token = p.next();
    let labels = p.tree.open_list();
    let open = loop {
        let token = p.peek();
        match token.kind {
            TokenKind::OpenBrace => break p.next(),
            TokenKind::Identifier => {
                p.next();
                let start = p.tree.text_len();
                p.tree.push_text(p.text(token));
                let label = Label {
                    value: p.tree.text_since(start),
                    quoted: false,
                    span: token.span,
                };
                p.tree.push(label);
            }
            TokenKind::OpenQuote => {
                let label = parse_string_literal(p)?;
                p.tree.push(label);
            }
            TokenKind::Newline => {
                return Err(Problem::new(
                    token.span,
                    "Invalid block definition",
                    "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header.",
                ))
            }
            _ => {
                return Err(p.unexpected(
                    token,
                    "Invalid block definition",
                    "Either a quoted string block label or an opening brace (\"{\") is expected here.",
                ))
            }
        }
    };
    let labels = p.tree.close_list(labels);
    let next = p.peek();
    let body = match next.kind {
        TokenKind::Newline => {
            let body = parse_body(p, BodyEnd::CloseBrace { open: open.span })?;
            p.next(); // the `}` that parse_body stopped at
            body
        }
        TokenKind::CloseBrace => {
            p.next();
            let empty = p.tree.open_body();
            p.tree.close_body(empty, open.span.to(next.span))
        }
        TokenKind::Identifier => parse_one_line_body(p, open.span)?,
        TokenKind::Eof => {
            return Err(Problem::new(
                open.span,
                "Unclosed configuration block",
                "There is no closing brace for this block before the end of the file.",
            ))
        }
        _ => {
            return Err(p.unexpected(
                next,
                "Attribute or block definition required",
                "An attribute or block definition is required here.",
            ))
        }
    };
    end_of_line(
        p,
        "Missing newline after block definition",
        "A block definition must end with a newline.",
    )?;
    Ok(Block {
        type_name: p.name(type_token),
        type_span: type_token.span,
        labels,
        body,
    })
}

/// The body of a one-line block: `(Identifier "=" Expression)? "}"`, the
/// `{` consumed. A one-line block holds at most one attribute and no
/// blocks, and closes on its line.
///
/// Spec: hclsyntax-spec.md § Structural Elements
#[inline(never)]
fn parse_one_line_body(p: &mut Parser, open: Span) -> Result<Body, Problem> {
    let name = p.peek();
    let second = p.peek_second();
    if second.kind != TokenKind::Assign {
        // A nested block is reported from its name to its brace, a bare name
        // alone, as hashicorp/hcl places them.
        let span = if second.kind == TokenKind::OpenBrace {
            name.span.to(second.span)
        } else {
            name.span
        };
        return Err(Problem::new(
            span,
            "Attribute definition required",
            "A one-line block can contain only a single attribute definition; a nested block must be on a line of its own.",
        ));
    }
    let mut body = p.tree.open_body();
    let attribute = parse_attribute(p, true)?;
    p.tree.add_attribute(&mut body, attribute);
    let close = p.peek();
    match close.kind {
        TokenKind::CloseBrace => {
            p.next();
        }
        TokenKind::Comma => {
            return Err(Problem::new(
                close.span,
                "Invalid one-line block definition",
                "A one-line block can include only one attribute definition.",
            ))
        }
        TokenKind::Newline => {
            return Err(Problem::new(
                close.span,
                "Invalid one-line block definition",
                "A one-line block must be closed on the same line as its attribute definition.",
            ))
        }
        TokenKind::Eof => {
            return Err(Problem::new(
                open,
                "Unclosed configuration block",
                "There is no closing brace for this block before the end of the file.",
            ))
        }
        _ => return Err(p.unexpected(
            close,
            "Invalid one-line block definition",
            "A one-line block must end with a closing brace right after its attribute definition.",
        )),
    }
    Ok(p.tree.close_body(body, open.to(close.span)))
}

/// Parses a quoted string literal: a quoted template with no interpolation
/// or directive.
///
/// ```ebnf
/// StringLit = '"' (quoted literals as defined in prose above) '"';
/// ```
///
/// "The `StringLit` production permits the escape sequences discussed for
/// quoted template expressions as above, but does _not_ permit template
/// interpolation or directive sequences."
/// SPEC-GAP(spec-notes/gaps/template-string-literal-escapes.md)
///
/// Spec: hclsyntax-spec.md § Template Expressions
#[inline(never)]
fn parse_string_literal(p: &mut Parser) -> Result<Label, Problem> {
    let open = p.next();
    let start = p.tree.text_len();
    loop {
        let token = p.next();
        match token.kind {
            TokenKind::Text => p.tree.push_text(p.text(token)),
            TokenKind::Escape => p.tree.push_escape(p.text(token)),
            TokenKind::CloseQuote => {
                return Ok(Label {
                    value: p.tree.text_since(start),
                    quoted: true,
                    span: open.span.to(token.span),
                })
            }
            TokenKind::InterpolationStart { .. } | TokenKind::DirectiveStart { .. } => {
                return Err(Problem::new(
                    token.span,
                    "Invalid string literal",
                    "Template sequences are not allowed in this string. To include a literal \"${\" or \"%{\", double its first character (\"$${\", \"%%{\").",
                ))
            }
            // At the end of the input, as an unterminated quoted template
            // is reported, and as hashicorp/hcl reports it.
            TokenKind::Eof => {
                return Err(Problem::new(
                    token.span,
                    "Unterminated string literal",
                    "Unable to find the closing quote mark before the end of the file.",
                ))
            }
            _ => {
                return Err(p.unexpected(
                    token,
                    "Invalid string literal",
                    "This is not valid in a string literal.",
                ))
            }
        }
    }
}
