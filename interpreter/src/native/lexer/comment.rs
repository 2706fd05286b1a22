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

use super::{Invalid, Lexer, Token, TokenKind};

/// Line comment mode, pushed by `#` or `//` at the current position:
/// consumes the comment and the newline that ends it (or the end of the
/// source), and emits them as one [`TokenKind::Newline`].
///
/// Both newline sequences, `\n` and `\r\n`, end with a line feed, so the
/// comment ends after the first one.
pub(super) fn line_comment(lexer: &mut Lexer) -> Token {
    let start = lexer.pos;
    lexer.pos = match lexer.bytes[start..].iter().position(|&b| b == b'\n') {
        Some(offset) => start + offset + 1,
        None => lexer.bytes.len(),
    };
    lexer.emit(TokenKind::Newline, start)
}

/// Inline comment mode, pushed by `/*` at byte `start`: the comment runs
/// through its `*/`, which makes it whitespace. Returns where it ends, or
/// nothing if it is unclosed, in which case it runs to the end of the
/// source and becomes an invalid token.
#[inline]
pub(super) fn inline_comment_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 2;
    while let Some(&byte) = bytes.get(at) {
        if byte == b'*' && bytes.get(at + 1) == Some(&b'/') {
            return Some(at + 2);
        }
        at += 1;
    }
    None
}

/// The invalid token of an inline comment from `start` that no `*/`
/// closes.
pub(super) fn unterminated_comment(lexer: &mut Lexer, start: usize) -> Token {
    lexer.pos = lexer.bytes.len();
    lexer.emit(TokenKind::Invalid(Invalid::UnterminatedComment), start)
}
