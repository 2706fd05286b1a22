//! Source text highlighted by the reference interpreter's own lexer: each
//! token kind a CSS class, the lexer modes telling quoted text from
//! template text and template sequences from braces; comments and
//! whitespace are what lies between tokens. JSON text, which the native
//! lexer does not read, gets a small scanner of its own.
//!
//! Spec: 002_e701fb6c663d6b71.txt § Lexical Analysis (the lexer modes);
//! hclsyntax-spec.md § Lexical Elements; json-spec.md § HCL JSON Syntax
//! Specification (JSON text, RFC 8259).

use super::html::visible;
use super::notation::SourceKind;
use askama::Template;
use hcl_interpreter::native::lexer::{Lexer, StartMode, Token, TokenKind};

/// The classes of `style.css`, and what they mark. Identifiers and
/// punctuation have the page's own style: their text is written without a
/// span of its class ([`UNSTYLED`]), which keeps the pages small.
pub const LEGEND: &[(&str, &str)] = &[
    ("k", "keyword"),
    ("i", "identifier"),
    ("f", "function name"),
    ("n", "number"),
    ("o", "operator"),
    ("p", "punctuation"),
    ("s", "quoted or heredoc text"),
    ("x", "template text"),
    ("d", "template sequence (${ }, %{ })"),
    ("e", "escape"),
    ("h", "heredoc marker"),
    ("c", "comment"),
    ("bad", "invalid"),
];

/// The classes whose style is the text's own (`style.css` gives them none).
pub const UNSTYLED: &[&str] = &["i", "p"];

/// Directive keywords and literal keywords, as identifiers lexed.
fn is_keyword(word: &str) -> bool {
    matches!(
        word,
        "true" | "false" | "null" | "for" | "in" | "if" | "else" | "endif" | "endfor"
    )
}

/// What the lexer modes say about a place: inside quotes, a heredoc, a
/// template sequence, or braces.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Quote,
    Heredoc,
    Sequence,
    Brace,
}

/// The tokens of a native-syntax source, up to its end.
fn tokens(source: &str, start: StartMode) -> Vec<Token> {
    let mut lexer = Lexer::new(source, start);
    let mut tokens = Vec::new();
    // Every token but the last consumes at least one byte.
    for _ in 0..=source.len() + 1 {
        let token = lexer.next_token();
        if token.kind == TokenKind::Eof {
            break;
        }
        tokens.push(token);
    }
    tokens
}

/// The segments of a native-syntax source: byte ranges with their class
/// (`""` for whitespace), covering the source in order.
fn native_segments(source: &str, start: StartMode) -> Vec<(usize, usize, &'static str)> {
    let tokens = tokens(source, start);
    let mut segments = Vec::with_capacity(tokens.len() * 2);
    let mut stack: Vec<Open> = Vec::new();
    let mut at = 0;
    for (n, token) in tokens.iter().enumerate() {
        let (start, end) = (token.span.start as usize, token.span.end as usize);
        if start > at {
            segments.push((at, start, gap_class(&source[at..start])));
        }
        let class = token_class(source, &tokens, n, &mut stack);
        segments.push((start, end, class));
        at = end.max(at);
    }
    if at < source.len() {
        segments.push((at, source.len(), gap_class(&source[at..])));
    }
    merge(segments)
}

/// The class of the token `n` of `tokens`; `stack` holds the quotes,
/// heredocs, template sequences and braces open before it, and is
/// updated by the token.
fn token_class(source: &str, tokens: &[Token], n: usize, stack: &mut Vec<Open>) -> &'static str {
    let token = &tokens[n];
    let end = token.span.end as usize;
    let text = &source[token.span.start as usize..end];
    match token.kind {
        TokenKind::Newline => gap_class(text),
        TokenKind::Identifier if is_keyword(text) => "k",
        // A function's name, and each namespace of a namespaced one
        // (`core::upper(`).
        TokenKind::Identifier => match tokens.get(n + 1) {
            Some(next)
                if matches!(next.kind, TokenKind::OpenParen | TokenKind::DoubleColon)
                    && next.span.start as usize == end =>
            {
                "f"
            }
            _ => "i",
        },
        TokenKind::OpenBrace => {
            stack.push(Open::Brace);
            "p"
        }
        TokenKind::CloseBrace | TokenKind::CloseBraceStrip => match stack.pop() {
            Some(Open::Sequence) => "d",
            _ => "p",
        },
        TokenKind::OpenQuote => {
            stack.push(Open::Quote);
            "s"
        }
        TokenKind::CloseQuote => {
            stack.pop();
            "s"
        }
        TokenKind::HeredocOpen { .. } => {
            stack.push(Open::Heredoc);
            "h"
        }
        TokenKind::HeredocClose => {
            stack.pop();
            "h"
        }
        TokenKind::InterpolationStart { .. } | TokenKind::DirectiveStart { .. } => {
            stack.push(Open::Sequence);
            "d"
        }
        TokenKind::Text => match stack.last() {
            Some(Open::Quote | Open::Heredoc) => "s",
            _ => "x",
        },
        kind => kind_class(kind),
    }
}

/// The class of a token that its kind alone decides (`""` for the
/// others).
fn kind_class(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::NumberLit => "n",
        TokenKind::Plus
        | TokenKind::Minus
        | TokenKind::Star
        | TokenKind::Slash
        | TokenKind::Percent
        | TokenKind::And
        | TokenKind::Or
        | TokenKind::Bang
        | TokenKind::Equal
        | TokenKind::NotEqual
        | TokenKind::Less
        | TokenKind::LessOrEqual
        | TokenKind::Greater
        | TokenKind::GreaterOrEqual
        | TokenKind::Question
        | TokenKind::Colon
        | TokenKind::FatArrow
        | TokenKind::Ellipsis
        | TokenKind::Assign => "o",
        TokenKind::OpenParen
        | TokenKind::CloseParen
        | TokenKind::OpenBracket
        | TokenKind::CloseBracket
        | TokenKind::Dot
        | TokenKind::DoubleColon
        | TokenKind::Comma => "p",
        TokenKind::Escape => "e",
        TokenKind::Invalid(_) => "bad",
        // The classes of these depend on more than the kind
        // ([`token_class`]).
        TokenKind::Newline
        | TokenKind::Identifier
        | TokenKind::OpenBrace
        | TokenKind::CloseBrace
        | TokenKind::CloseBraceStrip
        | TokenKind::OpenQuote
        | TokenKind::CloseQuote
        | TokenKind::HeredocOpen { .. }
        | TokenKind::HeredocClose
        | TokenKind::InterpolationStart { .. }
        | TokenKind::DirectiveStart { .. }
        | TokenKind::Text
        | TokenKind::Eof => "",
    }
}

/// Adjacent segments of one class as one.
fn merge(segments: Vec<(usize, usize, &'static str)>) -> Vec<(usize, usize, &'static str)> {
    let mut merged: Vec<(usize, usize, &'static str)> = Vec::with_capacity(segments.len());
    for (start, end, class) in segments {
        match merged.last_mut() {
            Some(last) if last.2 == class && last.1 == start => last.1 = end,
            _ => merged.push((start, end, class)),
        }
    }
    merged
}

/// What lies between tokens: whitespace, or a comment.
fn gap_class(text: &str) -> &'static str {
    if text.trim().is_empty() {
        ""
    } else {
        "c"
    }
}

/// The segments of JSON text: strings (property names apart), numbers,
/// literals, punctuation.
fn json_segments(source: &str) -> Vec<(usize, usize, &'static str)> {
    let bytes = source.as_bytes();
    let mut segments = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let class = match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
                let rest = source[i..].trim_start();
                if rest.starts_with(':') {
                    "a"
                } else {
                    "s"
                }
            }
            b'-' | b'0'..=b'9' => {
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                "n"
            }
            b'{' | b'}' | b'[' | b']' | b',' | b':' => {
                i += 1;
                "p"
            }
            b' ' | b'\t' | b'\n' | b'\r' => {
                while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r') {
                    i += 1;
                }
                ""
            }
            c if c.is_ascii_alphabetic() => {
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                if matches!(&source[start..i], "true" | "false" | "null") {
                    "k"
                } else {
                    "bad"
                }
            }
            _ => {
                i += source[i..].chars().next().map_or(1, char::len_utf8);
                "bad"
            }
        };
        // A cut inside a character (a string's escape before a multi-byte
        // character at the end) moves to the character's end.
        while i < source.len() && !source.is_char_boundary(i) {
            i += 1;
        }
        i = i.min(source.len());
        segments.push((start, i, class));
    }
    merge(segments)
}

/// Highlighted source text as HTML (`templates/source.html`).
#[derive(Template)]
#[template(path = "source.html")]
pub struct Highlighted<'a> {
    pieces: Vec<Piece<'a>>,
    /// An empty range at the source's end: a caret after the last piece.
    caret_at_end: bool,
}

/// A piece of highlighted source: text of one class, wholly inside or
/// outside the marked range.
struct Piece<'a> {
    /// A caret (an empty marked range) before it.
    caret: bool,
    marked: bool,
    /// Its class; empty for text of the page's own style.
    class: &'static str,
    text: &'a str,
}

/// Source text as HTML (preformatted content): highlighted, each token's
/// text in an `i` element of its class (`style.css` sets it upright: the
/// shortest element to carry a class), and the byte range `mark` (an
/// expected error's range) marked; an empty range is a caret.
pub fn highlight(source: &str, kind: SourceKind, mark: Option<(usize, usize)>) -> Highlighted<'_> {
    let segments = match kind {
        SourceKind::Expression | SourceKind::Config => {
            native_segments(source, StartMode::ConfigFile)
        }
        SourceKind::Template => native_segments(source, StartMode::TemplateFile),
        SourceKind::Json => json_segments(source),
    };
    let segments = merge(
        segments
            .into_iter()
            .map(|(start, end, class)| match UNSTYLED.contains(&class) {
                true => (start, end, ""),
                false => (start, end, class),
            })
            .collect(),
    );
    let mut pieces = Vec::with_capacity(segments.len());
    let mut caret_done = false;
    for (start, end, class) in segments {
        let mut cuts = vec![start, end];
        if let Some((ms, me)) = mark {
            cuts.extend([ms, me].into_iter().filter(|&c| c > start && c < end));
        }
        cuts.sort_unstable();
        cuts.dedup();
        for pair in cuts.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let caret = mark.is_some_and(|(ms, me)| ms == me && ms == a && !caret_done);
            caret_done |= caret;
            pieces.push(Piece {
                caret,
                marked: mark.is_some_and(|(ms, me)| ms < me && a >= ms && b <= me),
                class,
                text: &source[a..b],
            });
        }
    }
    Highlighted {
        pieces,
        caret_at_end: mark.is_some_and(|(ms, me)| ms == me) && !caret_done,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_get_their_classes() {
        let html = highlight("upper(a.b) + 1 # c\n", SourceKind::Expression, None)
            .render()
            .unwrap();
        assert_eq!(
            html,
            "<i class=f>upper</i>(a.b) <i class=o>+</i> <i class=n>1</i> \
             <i class=c># c\n</i>"
        );
    }

    #[test]
    fn a_namespaced_function_name_is_a_function_name() {
        let html = highlight("core::upper(a)", SourceKind::Expression, None)
            .render()
            .unwrap();
        assert_eq!(html, "<i class=f>core</i>::<i class=f>upper</i>(a)");
    }

    #[test]
    fn modes_tell_quoted_text_from_template_sequences() {
        let html = highlight("\"a${ {b = 1}.b }\"", SourceKind::Expression, None)
            .render()
            .unwrap();
        assert!(
            html.starts_with("<i class=s>\"a</i><i class=d>${</i>"),
            "{html}"
        );
        // The object's braces are punctuation (unstyled), the sequence's
        // closing one a delimiter.
        assert!(
            html.contains("<i class=n>1</i>}.b <i class=d>}</i>"),
            "{html}"
        );
        let template = highlight("hi %{ if x }y%{ endif }", SourceKind::Template, None)
            .render()
            .unwrap();
        assert!(template.starts_with("<i class=x>hi </i><i class=d>%{</i> <i class=k>if</i>"));
    }

    #[test]
    fn ranges_are_marked() {
        let html = highlight("a + b", SourceKind::Expression, Some((2, 5)))
            .render()
            .unwrap();
        assert_eq!(html, "a <mark><i class=o>+</i></mark><mark> b</mark>");
        let caret = highlight("a", SourceKind::Expression, Some((1, 1)))
            .render()
            .unwrap();
        assert_eq!(caret, "a<mark class=at></mark>");
    }

    #[test]
    fn json_is_scanned() {
        let html = highlight("{\"a\": [1, true]}", SourceKind::Json, None)
            .render()
            .unwrap();
        assert_eq!(
            html,
            "{<i class=a>\"a\"</i>: [<i class=n>1</i>, <i class=k>true</i>]}"
        );
    }

    #[test]
    fn invisible_characters_are_shown() {
        let html = highlight("a\r\n\u{feff}", SourceKind::Config, None)
            .render()
            .unwrap();
        assert!(html.contains("␍"), "{html}");
        assert!(html.contains("U+FEFF"), "{html}");
    }
}
