//! The parser: tokens to a syntax tree.
//!
//! Spec: hclsyntax-spec.md § Structural Elements, § Expressions, § Templates
//!
//! A recursive-descent parser over the tokens of [`super::lexer`], read
//! from the lexer as they are needed (a few tokens ahead at most):
//! - [`structure`]: configuration files, bodies, attributes and blocks;
//! - [`expression`]: the conditional and binary operators, unary operators,
//!   and the postfix index, attribute access and splat operators;
//! - [`term`]: the other expression terms: literals, collection values,
//!   variables, function calls, `for` expressions, parentheses;
//! - [`template`]: templates (quoted, heredoc and template files) with strip
//!   markers and the flush heredoc rule.
//!
//! The parser stops at the first error. Newlines are significant only
//! where the structural language ends an attribute or a block with one;
//! "between the open and closing delimiters" of parentheses, brackets,
//! braces, and inside template sequences, they are skipped.
//!
//! Recursion is bounded: every nested expression, body and template
//! directive, and every link of a left-associative chain of operators,
//! counts one level of [`Parser::depth`], and input nested deeper than the
//! limit is a parse error.

mod builder;
mod expression;
mod structure;
mod template;
mod term;
#[cfg(test)]
mod tests;

use super::ast::node;
use super::lexer::{Invalid, Lexer, StartMode, Token, TokenKind};
use super::Problem;
use crate::source::Span;
use builder::{Scratch, TreeBuilder};
use std::collections::VecDeque;

/// The hasher of the parser's name tables: identifiers are short, and
/// SipHash, the standard one, cost more than the rest of their handling.
/// foldhash is several times faster on short strings and, seeded at
/// random, still resists inputs crafted to collide.
pub(super) type NameHasher = foldhash::fast::RandomState;

/// What a parse produced: the root of the tree, the tree's nodes, and the
/// deepest nesting it reached.
pub(crate) struct ParseOutput<T> {
    pub tree: T,
    pub arena: node::Arena,
    /// Read by the unit tests only (through [`super::Parsed`]).
    #[cfg_attr(not(test), allow(dead_code))]
    pub depth: usize,
}

/// Parses a configuration file.
///
/// Spec: hclsyntax-spec.md § Configuration Files
pub(crate) fn parse_config_file(
    source: &str,
    depth_limit: usize,
) -> Result<ParseOutput<node::ConfigFile>, Problem> {
    let mut parser = Parser::new(source, StartMode::ConfigFile, depth_limit);
    let tree = structure::parse_config_file(&mut parser)?;
    Ok(parser.output(tree))
}

/// Parses a whole source text as one expression. Newlines are skipped
/// everywhere, as between delimiters.
///
/// Spec: hclsyntax-spec.md § Expressions
pub(crate) fn parse_expression_source(
    source: &str,
    depth_limit: usize,
) -> Result<ParseOutput<node::Expression>, Problem> {
    let mut parser = Parser::new(source, StartMode::ConfigFile, depth_limit);
    parser.newlines_significant = false;
    let tree = expression::parse_expression(&mut parser)?;
    let next = parser.peek();
    if next.kind != TokenKind::Eof {
        return Err(parser.unexpected(
            next,
            "Extra characters after expression",
            "An expression was successfully parsed, but extra characters were found after it.",
        ));
    }
    Ok(parser.output(tree))
}

/// Parses a whole source text as a template, in template file mode.
///
/// Spec: hclsyntax-spec.md § Templates
pub(crate) fn parse_template_source(
    source: &str,
    depth_limit: usize,
) -> Result<ParseOutput<node::Template>, Problem> {
    let mut parser = Parser::new(source, StartMode::TemplateFile, depth_limit);
    let tree = template::parse_template_file(&mut parser)?;
    Ok(parser.output(tree))
}

/// The parser's state.
pub(crate) struct Parser<'s> {
    source: &'s str,
    lexer: Lexer<'s>,
    /// The next token, newlines included.
    current: Token,
    /// The tokens after `current` already read from the lexer (by
    /// [`Parser::peek_second`]).
    ahead: VecDeque<Token>,
    /// The last token consumed (or skipped as an insignificant newline).
    previous: Token,
    /// Whether [`TokenKind::Newline`] tokens are seen (or skipped).
    newlines_significant: bool,
    /// The current nesting depth.
    depth: usize,
    /// The deepest nesting so far.
    max_depth: usize,
    depth_limit: usize,
    /// Where the tree is put together.
    tree: TreeBuilder<'s>,
    /// Room for the text a `<<-` heredoc's literal keeps (see [`template`]).
    flush_text: String,
}

impl<'s> Parser<'s> {
    fn new(source: &'s str, start: StartMode, depth_limit: usize) -> Parser<'s> {
        let mut lexer = Lexer::new(source, start);
        Parser {
            source,
            current: lexer.next_token(),
            lexer,
            ahead: VecDeque::new(),
            previous: Token {
                kind: TokenKind::Eof,
                span: Span::at(0),
            },
            newlines_significant: true,
            depth: 0,
            max_depth: 0,
            depth_limit,
            tree: TreeBuilder::new(),
            flush_text: String::new(),
        }
    }

    fn output<T>(self, tree: T) -> ParseOutput<T> {
        ParseOutput {
            tree,
            arena: self.tree.finish(),
            depth: self.max_depth,
        }
    }

    /// Consumes the next token, newlines included.
    #[inline]
    fn advance(&mut self) {
        let following = match self.ahead.pop_front() {
            Some(token) => token,
            None => self.lexer.next_token(),
        };
        self.previous = std::mem::replace(&mut self.current, following);
    }

    /// The next token, skipping newlines where they are not significant.
    #[inline]
    fn peek(&mut self) -> Token {
        if !self.newlines_significant {
            while self.current.kind == TokenKind::Newline {
                self.advance();
            }
        }
        self.current
    }

    /// The token after the next one (newlines skipped as by `peek`).
    fn peek_second(&mut self) -> Token {
        if self.peek().kind == TokenKind::Eof {
            return self.current;
        }
        let mut at = 0;
        loop {
            while self.ahead.len() <= at {
                let token = self.lexer.next_token();
                self.ahead.push_back(token);
            }
            let token = self.ahead[at];
            if self.newlines_significant || token.kind != TokenKind::Newline {
                return token;
            }
            at += 1;
        }
    }

    /// Consumes and returns the next token. The end of the source is never
    /// consumed.
    #[inline]
    fn next(&mut self) -> Token {
        let token = self.peek();
        if token.kind != TokenKind::Eof {
            self.advance();
        }
        token
    }

    /// The last token consumed, or skipped as an insignificant newline.
    fn previous(&self) -> Token {
        self.previous
    }

    /// The source text of a token.
    fn text(&self, token: Token) -> &'s str {
        self.text_of(token.span)
    }

    /// The name an identifier token spells, shared with its other
    /// occurrences.
    fn name(&mut self, token: Token) -> node::Name {
        let text = self.text(token);
        self.tree.name(text)
    }

    /// The identifier a token spells.
    fn identifier(&mut self, token: Token) -> node::Identifier {
        let text = self.text(token);
        self.tree.identifier(text, token.span)
    }

    /// The source text of a span.
    fn text_of(&self, span: Span) -> &'s str {
        &self.source[span.range()]
    }

    /// Whether the next token is the identifier `keyword`.
    fn at_keyword(&mut self, keyword: &str) -> bool {
        let token = self.peek();
        token.kind == TokenKind::Identifier && self.text(token) == keyword
    }

    /// Makes newlines insignificant, as between delimiters, and returns the
    /// previous setting for [`Parser::restore_newlines`]. (After an error
    /// the parser stops, so error paths need not restore it.)
    fn skip_newlines(&mut self) -> bool {
        std::mem::replace(&mut self.newlines_significant, false)
    }

    fn restore_newlines(&mut self, saved: bool) {
        self.newlines_significant = saved;
    }

    /// Enters one level of nesting; an error past the limit.
    fn enter(&mut self, span: Span) -> Result<(), Problem> {
        self.enter_levels(1, span)
    }

    /// Enters `levels` levels of nesting at once.
    fn enter_levels(&mut self, levels: usize, span: Span) -> Result<(), Problem> {
        self.depth += levels;
        self.max_depth = self.max_depth.max(self.depth);
        if self.depth > self.depth_limit {
            return Err(Problem::new(
                span,
                super::NESTING_TOO_DEEP,
                format!(
                    "This input is nested more than {} levels deep, the limit of this implementation.",
                    self.depth_limit
                ),
            ));
        }
        Ok(())
    }

    fn leave(&mut self, levels: usize) {
        self.depth -= levels;
    }

    /// The current nesting depth, to come back to with
    /// [`Parser::return_to`].
    fn nesting(&self) -> usize {
        self.depth
    }

    /// Leaves every level entered since [`Parser::nesting`] gave `depth`.
    fn return_to(&mut self, depth: usize) {
        self.depth = depth;
    }

    /// An error at an unexpected token. An invalid token reports why it is
    /// invalid instead, and the end of the source says so.
    fn unexpected(&self, token: Token, summary: &str, detail: &str) -> Problem {
        match token.kind {
            // A bad heredoc header is reported at its first `<`, as
            // hashicorp/hcl places it.
            TokenKind::Invalid(invalid @ Invalid::HeredocHeader) => Problem::new(
                Span {
                    end: token.span.start + 1,
                    ..token.span
                },
                invalid.summary(),
                invalid.detail(),
            ),
            TokenKind::Invalid(invalid) => {
                Problem::new(token.span, invalid.summary(), invalid.detail())
            }
            TokenKind::Eof => Problem::new(
                token.span,
                summary,
                format!("{detail} The end of the input was found instead."),
            ),
            _ => Problem::new(token.span, summary, detail),
        }
    }

    /// Consumes a token of `kind`, or reports an error.
    fn expect(&mut self, kind: TokenKind, summary: &str, detail: &str) -> Result<Token, Problem> {
        let token = self.peek();
        if token.kind == kind {
            Ok(self.next())
        } else {
            Err(self.unexpected(token, summary, detail))
        }
    }
}

/// How a comma-separated list is closed, and how its faults are reported.
pub(super) struct Delimited<'a> {
    /// The token that ends the list.
    close: TokenKind,
    /// The error when the input ends before the list does: where, the
    /// summary and the detail.
    unterminated: (Span, &'a str, &'a str),
    /// The summary and the detail of a missing separator.
    missing_separator: (&'a str, &'a str),
    /// Whether a line break after an item also separates it from the next
    /// (in object constructors).
    newline_separates: bool,
    /// Whether the final item may be followed by `...` (in function calls),
    /// and the summary and the detail of a `...` that is not right before
    /// the closing delimiter.
    final_ellipsis: Option<(&'a str, &'a str)>,
}

/// A comma-separated list, its opening delimiter consumed, up to and
/// including its closing one:
///
/// ```ebnf
/// (item ("," item)* ","?)? close
/// ```
///
/// Returns the list, the closing token, and whether the final item was
/// followed by `...`.
fn parse_comma_separated<T: Scratch + node::ListItem>(
    p: &mut Parser,
    list: &Delimited,
    mut item: impl FnMut(&mut Parser) -> Result<T, Problem>,
) -> Result<(node::List<T>, Token, bool), Problem> {
    let items = p.tree.open_list();
    let mut expanded = false;
    let close = loop {
        if p.peek().kind == list.close {
            break p.next();
        }
        let read = item(p)?;
        p.tree.push(read);
        let separator = p.peek();
        let after_line_break = p.previous().kind == TokenKind::Newline;
        match separator.kind {
            TokenKind::Comma => {
                p.next();
            }
            kind if kind == list.close => break p.next(),
            TokenKind::Ellipsis if list.final_ellipsis.is_some() => {
                p.next();
                expanded = true;
                if p.peek().kind != list.close {
                    let (summary, detail) = list.final_ellipsis.unwrap_or_default();
                    return Err(Problem::new(separator.span, summary, detail));
                }
                break p.next();
            }
            TokenKind::Eof => {
                let (span, summary, detail) = list.unterminated;
                return Err(Problem::new(span, summary, detail));
            }
            _ if list.newline_separates && after_line_break => {}
            _ => {
                let (summary, detail) = list.missing_separator;
                return Err(p.unexpected(separator, summary, detail));
            }
        }
    };
    Ok((p.tree.close_list(items), close, expanded))
}
