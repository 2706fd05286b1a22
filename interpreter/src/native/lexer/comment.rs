//! The line comment and inline comment modes.
//!
//! Spec: 002_e701fb6c663d6b71.txt § Config File Mode;
//! hclsyntax-spec.md § Comments and Whitespace
//!
//! In config file mode, `hash` and `double slash` push line comment mode,
//! `slash star` inline comment mode.
//! SPEC-GAP(spec-notes/gaps/lexical-comment-modes.md)
//!
//! > _Line comments_ start with either the `//` or `#` sequences and end
//! > with the next newline sequence. A line comment is considered
//! > equivalent to a newline sequence.
//! >
//! > _Inline comments_ start with the `/*` sequence and end with the `*/`
//! > sequence [...] An inline comments is considered equivalent to a
//! > whitespace sequence.

use super::{Invalid, Lexer, TokenKind};

/// Line comment mode, pushed by `#` or `//` at the current position:
/// consumes the comment and the newline that ends it (or the end of the
/// source), and emits them as one [`TokenKind::Newline`].
pub(super) fn line_comment(lexer: &mut Lexer) {
    let start = lexer.pos;
    while !lexer.at_end() {
        if let Some(len) = lexer.newline_len() {
            lexer.pos += len;
            break;
        }
        lexer.pos += 1;
    }
    lexer.emit(TokenKind::Newline, start);
}

/// Inline comment mode, pushed by `/*` at the current position: consumes
/// the comment through its `*/`, which makes it whitespace. An unclosed
/// comment runs to the end of the source and becomes an invalid token.
///
/// Returns whether the comment was closed.
pub(super) fn inline_comment(lexer: &mut Lexer) -> bool {
    let start = lexer.pos;
    match lexer.source[start + 2..].find("*/") {
        Some(offset) => {
            lexer.pos = start + 2 + offset + 2;
            true
        }
        None => {
            lexer.pos = lexer.bytes.len();
            lexer.emit(TokenKind::Invalid(Invalid::UnterminatedComment), start);
            false
        }
    }
}
