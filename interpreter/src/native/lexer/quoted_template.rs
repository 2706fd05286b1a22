//! Quoted template mode.
//!
//! Spec: 002_e701fb6c663d6b71.txt § Quoted template mode;
//! hclsyntax-spec.md § Template Expressions
//!
//! ```ebnf
//! newline                        = "\n" | "\r\n" ;
//! text = { escape | any other character - newline } ;
//!
//! escape = "$${"
//!        | "%%{"
//!        | '\\"'
//!        | "\\\\"
//!        | "\\r"
//!        | "\\n"
//!        | "\\t"
//!        | "\\u" , hex , hex , hex , hex
//!        | "\\U" , hex , hex , hex , hex , hex , hex , hex , hex
//!        ;
//! ```
//!
//! > Any `newline` token is an error and will result in the string being
//! > popped.
//!
//! The closing `"` pops the mode too (the seed leaves it implicit).
//! A lone carriage return is text; a backslash must start one of the
//! listed escapes. SPEC-GAP(spec-notes/gaps/lexical-quoted-template-text.md)
//! SPEC-GAP(spec-notes/gaps/template-quoted-carriage-return.md)
//! SPEC-GAP(spec-notes/gaps/template-invalid-escapes.md)

use super::template_file::{text_step, TextMode};
use super::{Invalid, Lexer, Token, TokenKind};

/// Emits the next token of quoted template mode.
#[inline(never)]
pub(super) fn step(lexer: &mut Lexer) -> Token {
    match lexer.peek_byte(0) {
        None => lexer.emit(TokenKind::Eof, lexer.pos),
        Some(b'"') => lexer.close(TokenKind::CloseQuote, 1),
        Some(b'\\') => backslash_escape(lexer),
        Some(b'\n' | b'\r') => match lexer.newline_len() {
            Some(len) => lexer.close(TokenKind::Invalid(Invalid::NewlineInQuotedTemplate), len),
            // A lone carriage return is text.
            None => text_step(lexer, TextMode::Quoted),
        },
        Some(_) => text_step(lexer, TextMode::Quoted),
    }
}

/// Reads a backslash escape: an [`TokenKind::Escape`] when well formed,
/// otherwise an [`TokenKind::Invalid`] covering the backslash and what
/// follows it.
///
/// `\uNNNN` "translates to a basic multilingual plane hexadecimal character
/// code" and `\UNNNNNNNN` to "a supplimentary plane hexadecimal character
/// code": a code that is no Unicode scalar value (a surrogate, or beyond
/// U+10FFFF) is invalid.
fn backslash_escape(lexer: &mut Lexer) -> Token {
    let invalid = |lexer: &mut Lexer, reason, len| lexer.emit_len(TokenKind::Invalid(reason), len);
    let after = lexer.pos + 1;
    match lexer.bytes.get(after) {
        Some(b'n' | b'r' | b't' | b'"' | b'\\') => lexer.emit_len(TokenKind::Escape, 2),
        Some(&selector @ (b'u' | b'U')) => {
            let digits = if selector == b'u' { 4 } else { 8 };
            let hex = lexer.bytes[after + 1..]
                .iter()
                .take(digits)
                .take_while(|b| b.is_ascii_hexdigit())
                .count();
            if hex < digits {
                let reason = if selector == b'u' {
                    Invalid::ShortUnicodeEscape
                } else {
                    Invalid::ShortLongUnicodeEscape
                };
                return invalid(lexer, reason, 2 + hex);
            }
            let code = lexer
                .source
                .get(after + 1..after + 1 + digits)
                .and_then(|hex| u32::from_str_radix(hex, 16).ok());
            if code.and_then(char::from_u32).is_some() {
                lexer.emit_len(TokenKind::Escape, 2 + digits)
            } else {
                invalid(lexer, Invalid::NotACharacter, 2 + digits)
            }
        }
        Some(b'\n' | b'\r') | None => invalid(lexer, Invalid::MissingEscapeSelector, 1),
        Some(_) => {
            let selector = lexer.source.get(after..).and_then(|s| s.chars().next());
            let len = selector.map_or(1, char::len_utf8);
            invalid(lexer, Invalid::EscapeSelector, 1 + len)
        }
    }
}

/// The character an escape token stands for, or the two-character
/// sequence of `$${` and `%%{`.
///
/// - `\\r` translates to an ASCII carriage return `\r`.
/// - `\\n` translates to an ASCII line feed `\n`.
/// - `\\t` translates to an ASCII horizontal tab `\t`.
/// - `\\"` translates to a double quote literal `"`.
/// - `\\\\` translates to a backslash `\`.
/// - `$${` will result in a literal `${`; `%%{` in a literal `%{`.
///
/// Spec: 002_e701fb6c663d6b71.txt § Quoted template mode
pub fn decode_escape(escape: &str, out: &mut String) {
    match escape.as_bytes() {
        [b'\\', b'n'] => out.push('\n'),
        [b'\\', b'r'] => out.push('\r'),
        [b'\\', b't'] => out.push('\t'),
        [b'\\', b'"'] => out.push('"'),
        [b'\\', b'\\'] => out.push('\\'),
        [b'\\', b'u' | b'U', ..] => {
            let code = u32::from_str_radix(&escape[2..], 16).ok();
            out.push(code.and_then(char::from_u32).unwrap_or('\u{FFFD}'));
        }
        [b'$', b'$', b'{'] => out.push_str("${"),
        [b'%', b'%', b'{'] => out.push_str("%{"),
        _ => out.push_str(escape),
    }
}
