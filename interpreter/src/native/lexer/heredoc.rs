//! Heredoc header mode and heredoc mode.
//!
//! Spec: 002_e701fb6c663d6b71.txt § Heredoc header mode, § Heredoc mode;
//! hclsyntax-spec.md § Template Expressions
//!
//! ```ebnf
//! trim marker = "-" ;
//! identifier  = ID_Start , [ { ID_Continue | "-" } ] ;
//! newline     = "\n" | "\r\n" ;
//! ```
//!
//! > Heredoc header mode consumes the opening header to a heredoc. Any other
//! > sequences are considered invalid. [...] When a newline is encountered,
//! > the header is considered to have ended. If an identifier has been
//! > cached, then the current mode is replaced with the **heredoc mode**
//! > [...] If there is no cached identifier, then this will be considered a
//! > syntax error by the parser and to prevent further confusion, the
//! > current mode is popped.
//!
//! > The heredoc mode will read until the end of the file or the first
//! > occurance of the `cached heredoc identifier` followed by a `newline`.
//!
//! Content lines keep their newline sequences, `\r\n` included.
//! SPEC-GAP(spec-notes/gaps/lexical-heredoc-crlf.md)

use super::identifier::identifier_len;
use super::template_file::{text_step, TextMode};
use super::{Invalid, Lexer, Mode, Token, TokenKind};
use crate::source::Span;

/// Heredoc header mode, pushed by `<<` at the current position.
///
/// A header is `<<`, the optional trim marker, an identifier and a
/// newline, with nothing in between: on success it is emitted as one
/// [`TokenKind::HeredocOpen`] and heredoc mode is pushed. Otherwise the
/// `<<` becomes an invalid token and the header mode is popped, so lexing
/// goes on in the enclosing mode right after the `<<`.
pub(super) fn header(lexer: &mut Lexer) -> Token {
    let start = lexer.pos;
    let flush = lexer.peek_byte(2) == Some(b'-');
    let identifier_start = start + 2 + usize::from(flush);
    let identifier = identifier_len(lexer.source, identifier_start)
        .map(|len| Span::new(identifier_start, identifier_start + len));
    let newline = identifier.and_then(|identifier| {
        lexer.pos = identifier.end as usize;
        lexer.newline_len()
    });
    match (identifier, newline) {
        (Some(identifier), Some(newline)) => {
            lexer.pos = identifier.end as usize + newline;
            let token = lexer.emit(TokenKind::HeredocOpen { flush }, start);
            lexer.push(Mode::Heredoc { identifier });
            token
        }
        _ => {
            lexer.pos = start;
            lexer.emit_len(TokenKind::Invalid(Invalid::HeredocHeader), 2)
        }
    }
}

/// Emits the next token of heredoc mode.
///
/// At the start of each line the closing marker is looked for: the cached
/// identifier followed by a newline, with nothing else on the line but
/// space characters before and after it, for `<<` as for `<<-`. "The
/// template expression ends when the given identifier subsequently appears
/// again on a line of its own"; "[for `<<-`] The final closing marker may
/// also have an arbitrary number of spaces preceding it on its line." No
/// sentence says whether a `<<` marker may be indented or followed by
/// spaces, so the lexer follows hashicorp/hcl, which ignores the white
/// space around a candidate line for both forms. The spaces are those of
/// the flush rule (Unicode White_Space but the newline's line feed and
/// carriage return, tabs included).
/// SPEC-GAP(spec-notes/gaps/template-heredoc-closing-marker.md)
/// SPEC-GAP(spec-notes/gaps/lexical-heredoc-terminator.md)
///
/// The newline after the marker is left to the enclosing mode, where it
/// ends the attribute as any newline does.
#[inline(never)]
pub(super) fn step(lexer: &mut Lexer, identifier: Span) -> Token {
    let pos = lexer.pos;
    if pos >= lexer.bytes.len() {
        return lexer.emit(TokenKind::Eof, pos);
    }
    if pos > 0 && lexer.bytes[pos - 1] == b'\n' {
        if let Some(close) = closing_marker(lexer, identifier) {
            return close;
        }
    }
    text_step(lexer, TextMode::Heredoc)
}

/// Emits the closing marker if the current line is one, and pops heredoc
/// mode. The token spans the marker and the spaces around it, not the
/// newline.
fn closing_marker(lexer: &mut Lexer, identifier: Span) -> Option<Token> {
    let start = lexer.pos;
    let name = lexer.bytes.get(identifier.range())?;
    let at = start + spaces_len(lexer.source.get(start..)?);
    if !lexer.bytes[at..].starts_with(name) {
        return None;
    }
    let after = at + name.len();
    lexer.pos = after + spaces_len(lexer.source.get(after..)?);
    if lexer.newline_len().is_none() {
        lexer.pos = start;
        return None;
    }
    let token = lexer.emit(TokenKind::HeredocClose, start);
    lexer.pop();
    Some(token)
}

/// The length in bytes of the run of space characters that `text` starts
/// with.
fn spaces_len(text: &str) -> usize {
    text.chars()
        .take_while(|&c| is_indentation(c))
        .map(char::len_utf8)
        .sum()
}

/// A space character of a heredoc's indentation: Unicode White_Space,
/// except the line feed and carriage return of a newline sequence.
/// SPEC-GAP(spec-notes/gaps/template-heredoc-flush-indentation.md)
pub fn is_indentation(c: char) -> bool {
    c.is_whitespace() && c != '\n' && c != '\r'
}
