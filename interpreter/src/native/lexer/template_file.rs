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

use super::{Lexer, Mode, TokenKind};

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

/// Emits the next token of template file mode.
pub(super) fn step(lexer: &mut Lexer) {
    if lexer.at_end() {
        let start = lexer.pos;
        lexer.emit(TokenKind::Eof, start);
        return;
    }
    text_step(lexer, TextMode::TemplateFile);
}

/// Emits the next token of the shared text rule: a sequence start (which
/// pushes template mode), an escape, or a run of text. The caller has
/// dealt with the end of the source and with its own mode's special
/// sequences.
pub(super) fn text_step(lexer: &mut Lexer, mode: TextMode) {
    let rest = lexer.rest();
    let sequence = if rest.starts_with("${~") {
        Some((TokenKind::InterpolationStart { strip: true }, 3))
    } else if rest.starts_with("${") {
        Some((TokenKind::InterpolationStart { strip: false }, 2))
    } else if rest.starts_with("%{~") {
        Some((TokenKind::DirectiveStart { strip: true }, 3))
    } else if rest.starts_with("%{") {
        Some((TokenKind::DirectiveStart { strip: false }, 2))
    } else {
        None
    };
    if let Some((kind, len)) = sequence {
        lexer.emit_len(kind, len);
        lexer.push(Mode::Template);
        return;
    }
    if rest.starts_with("$${") || rest.starts_with("%%{") {
        lexer.emit_len(TokenKind::Escape, 3);
        return;
    }
    let len = text_run_len(lexer.bytes, lexer.pos, mode);
    lexer.emit_len(TokenKind::Text, len.max(1));
}

/// The length of the run of literal text starting at `from`: up to the
/// next sequence or escape start (and, by mode, quote, backslash or
/// newline), at least one byte. Every stop is at an ASCII byte, so runs end
/// on character boundaries.
fn text_run_len(bytes: &[u8], from: usize, mode: TextMode) -> usize {
    let at = |i: usize| bytes.get(i).copied();
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b @ (b'$' | b'%')
                if i > from
                    && (at(i + 1) == Some(b'{')
                        || (at(i + 1) == Some(b) && at(i + 2) == Some(b'{'))) =>
            {
                break
            }
            b'"' | b'\\' | b'\n' if mode == TextMode::Quoted && i > from => break,
            b'\r' if mode == TextMode::Quoted && i > from && at(i + 1) == Some(b'\n') => break,
            b'\n' if mode == TextMode::Heredoc => return i + 1 - from,
            _ => {}
        }
        i += 1;
    }
    i - from
}
