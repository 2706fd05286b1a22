//! Templates: quoted templates, heredocs and template files.
//!
//! Spec: hclsyntax-spec.md § Templates, § Template Expressions,
//! § Template Literals
//!
//! A template is read in four steps:
//! 1. its tokens become a flat list of [`Item`]s: literals (adjacent text
//!    and escapes merged), interpolations, and directive markers (`if`,
//!    `else`, `endif`, `for`, `endfor`), each with its strip markers;
//! 2. strip markers trim the literals next to them ([`apply_strip_markers`]);
//! 3. for a `<<-` heredoc, the flush rule trims the literals that begin a
//!    line once the strip markers have removed their spaces and newlines
//!    ([`flush_heredoc`]);
//! 4. the items are read into the template's parts by recursive descent,
//!    one function to a production of the grammar, directive markers
//!    matched into nested `if` and `for` directives ([`build_template`]).
//!
//! [`directive`] holds the directives (§ Template If Directive, § Template
//! For Directive), [`literal`] the literal text's strip markers and flush
//! rule (§ Template Literals, § Template Expressions).

mod directive;
pub(super) mod item;
mod literal;

use item::{Item, Strip};

use directive::{build_template, parse_directive, Opening};

use literal::{apply_strip_markers, flush_heredoc};

use super::builder::OpenList;
use super::expression::parse_expression;
use super::Parser;
use crate::native::ast::node::Template;
use crate::native::lexer::{Token, TokenKind};
use crate::native::Problem;
use crate::source::Span;

/// The items of a template being read, and the openings of its directives.
pub(super) struct Items {
    list: OpenList<Item>,
    openings: Vec<Opening>,
    /// Whether there is a directive marker among the items.
    markers: bool,
}

/// How a template ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    /// A quoted template ends at its closing `"`.
    Quote,
    /// A heredoc ends at its closing identifier.
    Heredoc,
    /// A template file ends with the file.
    File,
}

/// Parses a quoted or heredoc template expression.
///
/// ```ebnf
/// TemplateExpr = quotedTemplate | heredocTemplate;
/// heredocTemplate = (
///     ("<<" | "<<-") Identifier Newline
///     (content as defined in prose above)
///     Identifier Newline
/// );
/// ```
///
/// Spec: hclsyntax-spec.md § Template Expressions
pub(super) fn parse_template_expression(p: &mut Parser) -> Result<Template, Problem> {
    let open = p.next();
    let (end, flush) = match open.kind {
        TokenKind::HeredocOpen { flush } => (End::Heredoc, flush),
        _ => (End::Quote, false),
    };
    #[cfg(feature = "planted-bugs")]
    let flush = crate::planted::plain_heredoc_flush(matches!(end, End::Heredoc), flush);
    let (items, close) = collect_items(p, end)?;
    let (list, text) = p.tree.template_items_with_text(&items.list);
    apply_strip_markers(list, text);
    if flush {
        flush_heredoc(list, text, &mut p.flush_text);
    }
    build_template(p, items, open.span.to(close.span), close.span)
}

/// Parses a whole source as a template, in template file mode.
///
/// Spec: hclsyntax-spec.md § Templates
pub(super) fn parse_template_file(p: &mut Parser) -> Result<Template, Problem> {
    let (items, close) = collect_items(p, End::File)?;
    let (list, text) = p.tree.template_items_with_text(&items.list);
    apply_strip_markers(list, text);
    let span = Span {
        start: 0,
        end: close.span.end,
    };
    build_template(p, items, span, close.span)
}

/// Step 1: reads the template's tokens up to and including its end.
fn collect_items(p: &mut Parser, end: End) -> Result<(Items, Token), Problem> {
    let mut items = Items {
        list: p.tree.open_list(),
        openings: Vec::new(),
        markers: false,
    };
    let mut open_directives = 0;
    // Where the literal being read starts, and where its text starts in
    // the tree's text: adjacent text and escapes are one literal, stored
    // once complete.
    let mut literal: Option<(Span, usize)> = None;
    let close = loop {
        let token = p.next();
        if !matches!(token.kind, TokenKind::Text | TokenKind::Escape) {
            end_literal(p, literal.take());
        }
        match token.kind {
            TokenKind::Text | TokenKind::Escape => {
                let start = p.tree.text_len();
                if token.kind == TokenKind::Text {
                    p.tree.push_text(p.text(token));
                } else {
                    p.tree.push_escape(p.text(token));
                }
                literal = Some(match literal {
                    Some((span, start)) => (span.to(token.span), start),
                    None => (token.span, start),
                });
            }
            TokenKind::InterpolationStart { strip } => {
                let item = parse_interpolation(p, token, strip, end)?;
                p.tree.push(item);
            }
            TokenKind::DirectiveStart { strip } => {
                let item = parse_directive(p, token, strip, &mut items.openings)?;
                items.markers = true;
                // Directive bodies nest: count them as the evaluator will.
                match item {
                    Item::Open { opening, .. } => {
                        p.enter(items.openings[opening as usize].span())?;
                        open_directives += 1;
                    }
                    Item::EndIf { .. } | Item::EndFor { .. } if open_directives > 0 => {
                        p.leave(1);
                        open_directives -= 1;
                    }
                    _ => {}
                }
                p.tree.push(item);
            }
            TokenKind::CloseQuote if end == End::Quote => break token,
            TokenKind::HeredocClose if end == End::Heredoc => break token,
            TokenKind::Eof if end == End::File => break token,
            TokenKind::Eof => {
                let (summary, detail) = match end {
                    End::Heredoc => (
                        "Unterminated heredoc",
                        "There is no line holding only the heredoc's closing identifier (and spaces) before the end of the input.",
                    ),
                    _ => (
                        "Unterminated template string",
                        "No closing quote was found for the string.",
                    ),
                };
                return Err(Problem::new(token.span, summary, detail));
            }
            _ => {
                return Err(p.unexpected(
                    token,
                    "Invalid template",
                    "This is not valid in a template.",
                ))
            }
        }
    };
    p.leave(open_directives);
    Ok((items, close))
}

/// Stores the literal read so far, if any: its span, and the range of
/// the tree's text its text was read into.
fn end_literal(p: &mut Parser, literal: Option<(Span, usize)>) {
    if let Some((span, start)) = literal {
        let text = p.tree.text_since(start);
        p.tree.push(Item::Literal { text, span });
    }
}

/// Reads the closing `}` or `~}` of a sequence.
/// What a sequence is, for messages: an interpolation, or the directive
/// of a keyword (named only if there is an error to report).
#[derive(Clone, Copy)]
pub(super) enum Sequence<'k> {
    Interpolation,
    Directive(&'k str),
}

impl std::fmt::Display for Sequence<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sequence::Interpolation => f.write_str("interpolation"),
            Sequence::Directive(keyword) => write!(f, "{keyword} directive"),
        }
    }
}

fn close_sequence(
    p: &mut Parser,
    opener: Token,
    end: End,
    what: Sequence,
) -> Result<bool, Problem> {
    let token = p.peek();
    match token.kind {
        TokenKind::CloseBrace => {
            p.next();
            Ok(false)
        }
        TokenKind::CloseBraceStrip => {
            p.next();
            Ok(true)
        }
        TokenKind::Eof => Err(Problem::new(
            opener.span,
            format!("Unclosed template {what}"),
            format!("There is no closing brace for this {what} before the end of the input."),
        )),
        TokenKind::OpenQuote | TokenKind::CloseQuote if end == End::Quote => Err(Problem::new(
            opener.span,
            format!("Unclosed template {what}"),
            format!("There is no closing brace for this {what} before the end of the quoted template."),
        )),
        _ => Err(p.unexpected(
            token,
            &format!("Extra characters after template {what}"),
            "Expected a closing brace to end the sequence. To write a literal \"${\" or \"%{\", double its first character (\"$${\", \"%%{\").",
        )),
    }
}

/// Parses an interpolation sequence, its opener consumed.
///
/// ```ebnf
/// TemplateInterpolation = ("${" | "${~") Expression ("}" | "~}";
/// ```
///
/// Spec: hclsyntax-spec.md § Template Interpolations
fn parse_interpolation(
    p: &mut Parser,
    opener: Token,
    strip: bool,
    end: End,
) -> Result<Item, Problem> {
    let saved = p.skip_newlines();
    let expression = parse_expression(p)?;
    let strip_after = close_sequence(p, opener, end, Sequence::Interpolation)?;
    p.restore_newlines(saved);
    Ok(Item::Interpolation {
        expression,
        strip: Strip {
            before: strip,
            after: strip_after,
        },
    })
}
