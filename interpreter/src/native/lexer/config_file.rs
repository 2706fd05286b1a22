//! Config file mode, and template mode, which extends it.
//!
//! Spec: 002_e701fb6c663d6b71.txt § Config File Mode, § Template mode;
//! hclsyntax-spec.md § Lexical Elements
//!
//! ```ebnf
//! whitespace = { "\t" | " " } ;
//! newline    = { "\n" | "\r\n" } ;
//! identifier = ID_Start , [ { ID_Continue | '-'  } ] ;
//! numeric literal = real literal | integer literal ;
//! real literal = { digit } , [ fraction ] , [ exponent ] ;
//! heredoc anchor = "<<" ;  (* pushes the heredoc header mode  *)
//! quote          = '"' ;   (* pushes the quoted template mode *)
//! left brace     = "{" ;   (* pushes a new config file mode   *)
//! right brace    = "}" ;   (* pops the current mode           *)
//! hash           = "#" ;   (* pushes the line comment mode    *)
//! double slash   = "//" ;  (* pushes the line comment mode    *)
//! slash star     = "/*" ;  (* pushes the inline comment mode  *)
//! right brace with strip = "~}" ;   (* template mode only *)
//! ```
//!
//! The comma, which the seed's list of symbols omits, is the separator of
//! hclsyntax-spec.md's tuples, objects and argument lists.
//!
//! `~` outside a template sequence, and `<<` not starting a heredoc, are
//! no tokens. SPEC-GAP(spec-notes/gaps/lexical-token-table.md)

use super::identifier::identifier_len;
use super::{comment, heredoc, Lexer, Mode, TokenKind};

/// Emits the next token of config file mode (or, with `template`, of
/// template mode, which adds `~}`).
pub(super) fn step(lexer: &mut Lexer, template: bool) {
    // Whitespace and inline comments are skipped.
    loop {
        while matches!(lexer.peek_byte(0), Some(b' ' | b'\t')) {
            lexer.pos += 1;
        }
        if lexer.rest().starts_with("/*") {
            if comment::inline_comment(lexer) {
                continue;
            }
            return;
        }
        break;
    }
    let Some(byte) = lexer.peek_byte(0) else {
        let start = lexer.pos;
        lexer.emit(TokenKind::Eof, start);
        return;
    };
    let next = lexer.peek_byte(1);
    use TokenKind::*;
    match (byte, next) {
        (b'\n', _) => lexer.emit_len(Newline, 1),
        (b'\r', Some(b'\n')) => lexer.emit_len(Newline, 2),
        (b'#', _) | (b'/', Some(b'/')) => comment::line_comment(lexer),
        (b'0'..=b'9', _) => number(lexer),
        (b'"', _) => {
            lexer.emit_len(OpenQuote, 1);
            lexer.push(Mode::QuotedTemplate);
        }
        (b'{', _) => {
            lexer.emit_len(OpenBrace, 1);
            lexer.push(Mode::ConfigFile);
        }
        (b'}', _) => {
            lexer.emit_len(CloseBrace, 1);
            lexer.pop();
        }
        (b'~', Some(b'}')) if template => {
            lexer.emit_len(CloseBraceStrip, 2);
            lexer.pop();
        }
        // `~}` is one token in every mode (lexical-token-table.md); outside
        // a template it can only be a mistake, reported as a whole.
        (b'~', Some(b'}')) => lexer.emit_len(TokenKind::Invalid(super::Invalid::Character), 2),
        (b'<', Some(b'<')) => heredoc::header(lexer),
        (b'+', _) => lexer.emit_len(Plus, 1),
        (b'-', _) => lexer.emit_len(Minus, 1),
        (b'*', _) => lexer.emit_len(Star, 1),
        (b'/', _) => lexer.emit_len(Slash, 1),
        (b'%', _) => lexer.emit_len(Percent, 1),
        (b'&', Some(b'&')) => lexer.emit_len(And, 2),
        (b'|', Some(b'|')) => lexer.emit_len(Or, 2),
        (b'!', Some(b'=')) => lexer.emit_len(NotEqual, 2),
        (b'!', _) => lexer.emit_len(Bang, 1),
        (b'=', Some(b'=')) => lexer.emit_len(Equal, 2),
        (b'=', Some(b'>')) => lexer.emit_len(FatArrow, 2),
        (b'=', _) => lexer.emit_len(Assign, 1),
        (b'<', Some(b'=')) => lexer.emit_len(LessOrEqual, 2),
        (b'<', _) => lexer.emit_len(Less, 1),
        (b'>', Some(b'=')) => lexer.emit_len(GreaterOrEqual, 2),
        (b'>', _) => lexer.emit_len(Greater, 1),
        (b'(', _) => lexer.emit_len(OpenParen, 1),
        (b')', _) => lexer.emit_len(CloseParen, 1),
        (b'[', _) => lexer.emit_len(OpenBracket, 1),
        (b']', _) => lexer.emit_len(CloseBracket, 1),
        (b'?', _) => lexer.emit_len(Question, 1),
        (b':', _) => lexer.emit_len(Colon, 1),
        (b',', _) => lexer.emit_len(Comma, 1),
        (b'.', _) if lexer.rest().starts_with("...") => lexer.emit_len(Ellipsis, 3),
        (b'.', _) => lexer.emit_len(Dot, 1),
        _ => match identifier_len(lexer.rest()) {
            Some(len) => lexer.emit_len(Identifier, len),
            None => {
                let len = lexer.rest().chars().next().map_or(1, char::len_utf8);
                let reason = if template && byte == b'~' {
                    super::Invalid::StripMarker
                } else {
                    super::Invalid::Character
                };
                lexer.emit_len(TokenKind::Invalid(reason), len);
            }
        },
    }
}

/// Reads a numeric literal.
///
/// ```ebnf
/// digit = "0" | "1" | "2" | "3" | "4"
///       | "5" | "6" | "7" | "8" | "9" ;
/// integer literal = { digit } ;
/// fraction = "." , { digit } ;
/// exponent = ( "E" | "e" ) , [ "+" | "-" ] , { digit } ;
/// real literal = { digit } , [ fraction ] , [ exponent ] ;
/// ```
///
/// (`{ x }` is "1 or more times" in this notation.) A `.` or an exponent
/// mark not followed by a digit is not part of the literal: `1.e5` is the
/// literal `1` followed by `.e5`.
/// SPEC-GAP(spec-notes/gaps/lexical-number-fraction-digits.md)
fn number(lexer: &mut Lexer) {
    let start = lexer.pos;
    let digits = |lexer: &Lexer, from: usize| {
        lexer.bytes[from.min(lexer.bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    lexer.pos += digits(lexer, lexer.pos);
    if lexer.peek_byte(0) == Some(b'.') {
        let fraction = digits(lexer, lexer.pos + 1);
        if fraction > 0 {
            lexer.pos += 1 + fraction;
        }
    }
    if matches!(lexer.peek_byte(0), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(lexer.peek_byte(1), Some(b'+' | b'-')));
        let exponent = digits(lexer, lexer.pos + 1 + sign);
        if exponent > 0 {
            lexer.pos += 1 + sign + exponent;
        }
    }
    lexer.emit(TokenKind::NumberLit, start);
}
