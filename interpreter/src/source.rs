//! Source text: byte spans, and their translation to lines and columns.
//!
//! Spec: hclsyntax-spec.md § Source Code Representation,
//! § Comments and Whitespace
//!
//! The lexer, the parser and the evaluator work with byte offsets only
//! ([`Span`]); a [`LineIndex`] turns an offset into a [`Pos`] (1-based line,
//! 1-based column counting Unicode characters, 0-based byte) when a
//! diagnostic or a caller needs one. Counting columns is linear in the
//! length of the line, and happens only for the few positions that are
//! reported, so parsing stays linear even on a single huge line.

use crate::diagnostic::{Pos, Range};
use std::sync::OnceLock;

/// A range of source bytes, `start` inclusive, `end` exclusive.
///
/// Offsets are held in 32 bits, so that the spans of a syntax tree take
/// half the room: a source longer than [`MAX_SOURCE_LEN`] is rejected
/// before it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

/// The longest source the native syntax reads, in bytes (2 GiB - 1): spans
/// hold 32-bit offsets, and so do the ranges of a syntax tree's literal
/// text, which can be up to twice the source (the lines of a `<<-`
/// heredoc are kept again once their indentation is removed).
pub const MAX_SOURCE_LEN: usize = (u32::MAX / 2) as usize;

impl Span {
    /// The span of bytes `start..end` of a source no longer than
    /// [`MAX_SOURCE_LEN`].
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The bytes of the source the span covers.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The empty span at `offset`.
    pub fn at(offset: usize) -> Span {
        Span::new(offset, offset)
    }

    /// The span from the start of `self` to the end of `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start,
            end: other.end.max(self.start),
        }
    }
}

/// The start offset of every line of a source text.
///
/// "Newline sequences (either U+000A or U+000D followed by U+000A)": a line
/// ends after each U+000A, so a `\r\n` pair ends its line as one newline.
/// "Horizontal tab characters (U+0009) [...] are counted only as one
/// "column" for the purpose of reporting source positions", as is every
/// other character.
///
/// The line starts are found the first time a position is asked for, so
/// that a source whose positions are never reported costs no scan.
#[derive(Clone, Debug)]
pub struct LineIndex {
    source: String,
    line_starts: OnceLock<Vec<usize>>,
}

impl LineIndex {
    pub fn new(source: &str) -> LineIndex {
        LineIndex {
            source: source.to_string(),
            line_starts: OnceLock::new(),
        }
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let mut line_starts = vec![0];
            line_starts.extend(
                self.source
                    .bytes()
                    .enumerate()
                    .filter(|&(_, b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            );
            line_starts
        })
    }

    /// The position of a byte offset (clamped to the source's length and
    /// moved back to a character boundary).
    pub fn pos(&self, byte: usize) -> Pos {
        let mut byte = byte.min(self.source.len());
        while !self.source.is_char_boundary(byte) {
            byte -= 1;
        }
        let line_starts = self.line_starts();
        let line = line_starts.partition_point(|&start| start <= byte);
        let line_start = line_starts[line - 1];
        Pos {
            line,
            column: self.source[line_start..byte].chars().count() + 1,
            byte,
        }
    }

    /// The source range of a span.
    pub fn range(&self, span: Span) -> Range {
        Range {
            start: self.pos(span.start as usize),
            end: self.pos(span.end as usize),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_and_lines_end_at_line_feeds() {
        let index = LineIndex::new("aé\tb\r\nxy\n");
        let p = index.pos(4); // after "aé\t"
        assert_eq!((p.line, p.column, p.byte), (1, 4, 4));
        let p = index.pos(7); // "x"
        assert_eq!((p.line, p.column, p.byte), (2, 1, 7));
        let p = index.pos(100);
        assert_eq!((p.line, p.column, p.byte), (3, 1, 10));
    }
}
