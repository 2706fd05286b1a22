//! Template file mode, and the template text rule that heredoc mode and
//! quoted template mode share with it.
//!
//! Spec: 002_e701fb6c663d6b71.txt § Template file mode
//!
//! ```ebnf
//! interpolation start with strip = "${~" ;         (* push the template mode *)
//! interpolation start            = "${" ;          (* push the template mode *)
//! directive start with strip     = "%{~" ;         (* push the template mode *)
//! directive start                = "%{" ;          (* push the template mode *)
//! text = { "$${" | "%%{" | any other character } ;
//! ```
//!
//! > The template file mode will read characters until the end of the file.
//! > [...] `$${` will result in a literal `${` within the text. Likewise,
//! > `%%{` will result in a literal `%{`.
//!
//! Text is emitted as [`TokenKind::Text`] runs (taken verbatim) and
//! [`TokenKind::Escape`] tokens (decoded by the parser); a run stops before
//! anything that could start a sequence or an escape, so `$$${` is the text
//! `$` followed by the escape `$${`.

use super::{Lexer, Mode, Token, TokenKind};

/// Which text mode is reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TextMode {
    TemplateFile,
    /// Heredoc text stops after each newline, so that heredoc mode can look
    /// for the closing identifier at the start of the next line.
    Heredoc,
    /// Quoted text also stops at `"`, `\` and newlines.
    Quoted,
}

impl TextMode {
    /// The bit of [`STOPS`] that marks this mode's stop bytes.
    fn stop_bit(self) -> u8 {
        match self {
            TextMode::TemplateFile => TEMPLATE_STOP,
            TextMode::Heredoc => HEREDOC_STOP,
            TextMode::Quoted => QUOTED_STOP,
        }
    }
}

/// Emits the next token of template file mode.
#[inline(never)]
pub(super) fn step(lexer: &mut Lexer) -> Token {
    if lexer.pos >= lexer.bytes.len() {
        return lexer.emit(TokenKind::Eof, lexer.pos);
    }
    text_step(lexer, TextMode::TemplateFile)
}

/// Emits the next token of the shared text rule: a sequence start (which
/// pushes template mode), an escape, or a run of text. The caller has
/// dealt with the end of the source and with its own mode's special
/// sequences.
#[inline]
pub(super) fn text_step(lexer: &mut Lexer, mode: TextMode) -> Token {
    let bytes = lexer.bytes;
    let pos = lexer.pos;
    if let Some(&first @ (b'$' | b'%')) = bytes.get(pos) {
        let second = bytes.get(pos + 1).copied();
        let third = bytes.get(pos + 2).copied();
        if second == Some(b'{') {
            let strip = third == Some(b'~');
            let kind = if first == b'$' {
                TokenKind::InterpolationStart { strip }
            } else {
                TokenKind::DirectiveStart { strip }
            };
            return lexer.open(kind, 2 + usize::from(strip), Mode::Template);
        }
        // `$${` or `%%{`.
        if second == Some(first) && third == Some(b'{') {
            #[cfg(feature = "planted-bugs")]
            if crate::planted::template_escape(matches!(mode, TextMode::Heredoc)) {
                return lexer.emit_len(TokenKind::Text, 3);
            }
            return lexer.emit_len(TokenKind::Escape, 3);
        }
    }
    let len = text_run_len(bytes, pos, mode);
    lexer.emit_len(TokenKind::Text, len.max(1))
}

/// [`STOPS`] bit: a byte where text of every mode may stop (`$`, `%`).
const TEMPLATE_STOP: u8 = 1;
/// [`STOPS`] bit: a byte where heredoc text may stop.
const HEREDOC_STOP: u8 = TEMPLATE_STOP | 2;
/// [`STOPS`] bit: a byte where quoted text may stop.
const QUOTED_STOP: u8 = TEMPLATE_STOP | 4;

/// For each byte, the modes whose text may stop at it: `$` and `%` (a
/// sequence or escape may start there) in every mode, the line feed in
/// heredoc mode, and in quoted mode `"`, `\`, the line feed and the
/// carriage return. Every other byte continues the run in every mode.
///
/// Outside quotes a carriage return without a line feed is text like any
/// other character ("a template literal can contain any unicode
/// character"): it stops no run and a sequence after it starts as
/// anywhere else. SPEC-GAP(spec-notes/gaps/template-file-carriage-return.md)
const STOPS: [u8; 256] = {
    let mut table = [0; 256];
    table[b'$' as usize] = TEMPLATE_STOP;
    table[b'%' as usize] = TEMPLATE_STOP;
    table[b'\n' as usize] = HEREDOC_STOP | QUOTED_STOP;
    table[b'"' as usize] = QUOTED_STOP;
    table[b'\\' as usize] = QUOTED_STOP;
    table[b'\r' as usize] = QUOTED_STOP;
    table
};

/// The length of the run of literal text starting at `from`: up to the
/// next sequence or escape start (and, by mode, quote, backslash or
/// newline), at least one byte. Every stop is at an ASCII byte, so runs end
/// on character boundaries.
///
/// The bytes that cannot stop the run are skipped by a lookup in
/// [`STOPS`]; each candidate stop is then checked in full.
fn text_run_len(bytes: &[u8], from: usize, mode: TextMode) -> usize {
    let at = |i: usize| bytes.get(i).copied();
    let stop = mode.stop_bit();
    let mut i = from;
    loop {
        while let Some(&b) = bytes.get(i) {
            if STOPS[usize::from(b)] & stop != 0 {
                break;
            }
            i += 1;
        }
        let Some(b) = at(i) else {
            return i - from;
        };
        match b {
            b'$' | b'%'
                if i > from
                    && (at(i + 1) == Some(b'{')
                        || (at(i + 1) == Some(b) && at(i + 2) == Some(b'{'))) =>
            {
                return i - from
            }
            b'"' | b'\\' | b'\n' if mode == TextMode::Quoted && i > from => return i - from,
            b'\r' if mode == TextMode::Quoted && i > from && at(i + 1) == Some(b'\n') => {
                return i - from
            }
            b'\n' if mode == TextMode::Heredoc => return i + 1 - from,
            _ => {}
        }
        i += 1;
    }
}
