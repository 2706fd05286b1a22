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
//! hclsyntax-spec.md's tuples, objects and argument lists. `::`, which
//! neither lists, separates the namespaces of a function's name, as in
//! hashicorp/hcl v2.20.0 and later (`core::upper`): two colons in a row are
//! always that one token. SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
//!
//! `~` outside a template sequence, and `<<` not starting a heredoc, are
//! no tokens. SPEC-GAP(spec-notes/gaps/lexical-token-table.md)

use super::identifier::{ascii_identifier_end, identifier_len};
use super::{comment, heredoc, Invalid, Lexer, Mode, Token, TokenKind};

/// Emits the next token of config file mode (or, with `template`, of
/// template mode, which adds `~}`).
///
/// Whitespace is skipped, then the token is chosen by its first byte (a
/// jump table), and for the two-byte symbols by the byte after it. An
/// inline comment is whitespace too: after it the step starts over.
///
/// Inlined into [`Lexer::next_token`]: most tokens are read in this mode.
///
/// Long because it is one match over the first byte of every token (the
/// jump table), which one function keeps fast.
#[inline(always)]
pub(super) fn step(lexer: &mut Lexer, template: bool) -> Token {
    let bytes = lexer.bytes;
    loop {
        let mut pos = lexer.pos;
        while let Some(b' ' | b'\t') = bytes.get(pos) {
            pos += 1;
        }
        lexer.pos = pos;
        let Some(&byte) = bytes.get(pos) else {
            return lexer.emit(TokenKind::Eof, pos);
        };
        let next = bytes.get(pos + 1).copied();
        use TokenKind::*;
        return match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => match ascii_identifier_end(bytes, lexer.pos + 1) {
                Some(end) => {
                    let start = lexer.pos;
                    lexer.pos = end;
                    lexer.emit(Identifier, start)
                }
                None => identifier(lexer, byte, template),
            },
            b'\n' => lexer.emit_len(Newline, 1),
            b'\r' if next == Some(b'\n') => lexer.emit_len(Newline, 2),
            b'#' => comment::line_comment(lexer),
            b'0'..=b'9' => number(lexer),
            b'"' => lexer.open(OpenQuote, 1, Mode::QuotedTemplate),
            b'{' => lexer.open(OpenBrace, 1, Mode::ConfigFile),
            b'}' => lexer.close(CloseBrace, 1),
            b'~' if next == Some(b'}') => {
                if template {
                    lexer.close(CloseBraceStrip, 2)
                } else {
                    // `~}` is one token in every mode (lexical-token-table.md);
                    // outside a template it can only be a mistake, reported as
                    // a whole.
                    lexer.emit_len(TokenKind::Invalid(super::Invalid::Character), 2)
                }
            }
            b'+' => lexer.emit_len(Plus, 1),
            b'-' => lexer.emit_len(Minus, 1),
            b'*' => lexer.emit_len(Star, 1),
            b'/' => match next {
                Some(b'/') => comment::line_comment(lexer),
                Some(b'*') => match comment::inline_comment_end(bytes, pos) {
                    Some(end) => {
                        lexer.pos = end;
                        continue;
                    }
                    None => comment::unterminated_comment(lexer, pos),
                },
                _ => lexer.emit_len(Slash, 1),
            },
            b'%' => lexer.emit_len(Percent, 1),
            b'&' if next == Some(b'&') => lexer.emit_len(And, 2),
            b'|' if next == Some(b'|') => lexer.emit_len(Or, 2),
            b'!' if next == Some(b'=') => lexer.emit_len(NotEqual, 2),
            b'!' => lexer.emit_len(Bang, 1),
            b'=' => match next {
                Some(b'=') => lexer.emit_len(Equal, 2),
                Some(b'>') => lexer.emit_len(FatArrow, 2),
                _ => lexer.emit_len(Assign, 1),
            },
            b'<' => match next {
                Some(b'<') => heredoc::header(lexer),
                Some(b'=') => lexer.emit_len(LessOrEqual, 2),
                _ => lexer.emit_len(Less, 1),
            },
            b'>' if next == Some(b'=') => lexer.emit_len(GreaterOrEqual, 2),
            b'>' => lexer.emit_len(Greater, 1),
            b'(' => lexer.emit_len(OpenParen, 1),
            b')' => lexer.emit_len(CloseParen, 1),
            b'[' => lexer.emit_len(OpenBracket, 1),
            b']' => lexer.emit_len(CloseBracket, 1),
            b'?' => lexer.emit_len(Question, 1),
            // SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
            b':' if next == Some(b':') => lexer.emit_len(DoubleColon, 2),
            b':' => lexer.emit_len(Colon, 1),
            b',' => lexer.emit_len(Comma, 1),
            b'.' if next == Some(b'.') && bytes.get(lexer.pos + 2) == Some(&b'.') => {
                lexer.emit_len(Ellipsis, 3)
            }
            b'.' => lexer.emit_len(Dot, 1),
            _ => identifier(lexer, byte, template),
        };
    }
}

/// Reads an identifier, or, if none starts at the current position, its
/// first character as an invalid token.
fn identifier(lexer: &mut Lexer, byte: u8, template: bool) -> Token {
    match identifier_len(lexer.source, lexer.pos) {
        Some(len) => lexer.emit_len(TokenKind::Identifier, len),
        None => {
            let len = lexer
                .source
                .get(lexer.pos..)
                .and_then(|rest| rest.chars().next())
                .map_or(1, char::len_utf8);
            let reason = if template && byte == b'~' {
                Invalid::StripMarker
            } else {
                Invalid::Character
            };
            lexer.emit_len(TokenKind::Invalid(reason), len)
        }
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
/// mark not followed by a digit is not part of the literal (`1.` is the
/// literal `1` followed by `.`), except that a `.` directly followed by an
/// exponent is: `1.e5` is one literal, the number 100000, as in
/// hashicorp/hcl (the grammar alone asks for fraction digits; the prose is
/// silent).
/// SPEC-GAP(spec-notes/gaps/lexical-number-fraction-digits.md)
fn number(lexer: &mut Lexer) -> Token {
    let start = lexer.pos;
    let bytes = lexer.bytes;
    lexer.pos += digits(bytes, lexer.pos);
    if lexer.peek_byte(0) == Some(b'.') {
        let fraction = digits(bytes, lexer.pos + 1);
        if fraction > 0 {
            lexer.pos += 1 + fraction;
        } else if matches!(lexer.peek_byte(1), Some(b'e' | b'E')) {
            let sign = usize::from(matches!(lexer.peek_byte(2), Some(b'+' | b'-')));
            if digits(bytes, lexer.pos + 2 + sign) > 0 {
                lexer.pos += 1;
            }
        }
    }
    if matches!(lexer.peek_byte(0), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(lexer.peek_byte(1), Some(b'+' | b'-')));
        let exponent = digits(bytes, lexer.pos + 1 + sign);
        if exponent > 0 {
            lexer.pos += 1 + sign + exponent;
        }
    }
    lexer.emit(TokenKind::NumberLit, start)
}

/// The number of decimal digits from `from` on.
fn digits(bytes: &[u8], from: usize) -> usize {
    let mut end = from;
    while bytes.get(end).is_some_and(u8::is_ascii_digit) {
        end += 1;
    }
    end - from
}
