//! Template literals: strip markers, and the flush rule of `<<-`
//! heredocs.
//!
//! Spec: hclsyntax-spec.md § Template Literals, § Template Expressions

use super::Item;
use crate::native::ast::node::TextRange;
use crate::native::lexer::is_indentation;

/// Whether a character is a space for strip markers: "Space characters are
/// interpreted as per Unicode's definition" (the `White_Space` property,
/// newlines included).
fn is_unicode_space(c: char) -> bool {
    c.is_whitespace()
}

/// Step 2: applies strip markers.
///
/// "When a strip marker is present, any spaces adjacent to it in the
/// corresponding string literal (if any) are removed before producing the
/// final value." The literal is all the text between two sequences, so the
/// spaces removed may span several lines; hashicorp/hcl keeps each line of
/// a heredoc or template file as a separate literal and strips only the
/// nearest line. SPEC-GAP(spec-notes/gaps/template-strip-marker-whitespace.md)
///
/// "Stripping is done at syntax level rather than value level": only
/// literal text is trimmed, never an interpolation's value.
///
/// The literals are ranges of `buffer`; stripping shortens the ranges.
///
/// Spec: hclsyntax-spec.md § Template Literals
pub(super) fn apply_strip_markers(items: &mut [Item], buffer: &str) {
    for i in 0..items.len() {
        let strip = items[i].strip();
        if strip.before && i > 0 {
            if let Item::Literal { text, .. } = &mut items[i - 1] {
                let kept = buffer[text.range()]
                    .trim_end_matches(is_unicode_space)
                    .len();
                *text = TextRange::new(text.range().start, text.range().start + kept);
            }
        }
        if strip.after {
            if let Some(Item::Literal { text, .. }) = items.get_mut(i + 1) {
                let literal = &buffer[text.range()];
                let stripped = literal.len() - literal.trim_start_matches(is_unicode_space).len();
                *text = TextRange::new(text.range().start + stripped, text.range().end);
            }
        }
    }
}

/// Step 3: the flush heredoc rule.
///
/// "If a heredoc template is introduced with the `<<-` symbol, any literal
/// string at the start of each line is analyzed to find the minimum number
/// of leading spaces, and then that number of prefix spaces is removed
/// from all line-leading literal strings."
///
/// With the choices the prose leaves open
/// (SPEC-GAP(spec-notes/gaps/template-heredoc-flush-indentation.md)):
/// - a space is a character with Unicode's White_Space property (a tab
///   included), counted as one character;
/// - a line that begins with an interpolation or a directive has zero
///   leading spaces, so nothing is removed;
/// - a line holding only spaces (or nothing) before its newline does not
///   count, and is left as it is;
/// - only line-leading literal text is analyzed and trimmed, never text
///   after a sequence in the middle of a line, nor interpolated values.
///
/// The rule applies after strip markers, as in hashicorp/hcl (the spec
/// does not order the two rules;
/// SPEC-GAP(spec-notes/gaps/template-heredoc-strip-markers.md)): a line
/// starts after a newline that stripping kept, so the text after a `~}`
/// that removed a line break continues the line before it and is neither
/// counted nor trimmed, and a line whose leading spaces a `%{~` or `${~`
/// removed begins with that sequence.
///
/// The literals are ranges of the tree's `text`; the text each keeps is
/// gathered in `scratch`, then appended to the tree's text, and its range
/// moved there.
///
/// Spec: hclsyntax-spec.md § Template Expressions
pub(super) fn flush_heredoc(items: &mut [Item], buffer: &mut String, scratch: &mut String) {
    let mut minimum: Option<usize> = None;
    let mut at_line_start = true;
    for item in items.iter() {
        let Item::Literal { text, .. } = item else {
            if at_line_start {
                // The line begins with a sequence: no leading spaces.
                minimum = Some(0);
            }
            at_line_start = false;
            continue;
        };
        let text = &buffer[text.range()];
        for start in line_starts(text, at_line_start) {
            if let Some(spaces) = indentation(&text[start..]) {
                minimum = Some(minimum.map_or(spaces, |m| m.min(spaces)));
            }
        }
        // A literal that stripping emptied leaves its line to the next item.
        at_line_start = text.ends_with('\n') || (at_line_start && text.is_empty());
    }
    #[cfg(feature = "planted-bugs")]
    let minimum = crate::planted::heredoc_per_line_strip(minimum);
    let Some(minimum) = minimum.filter(|&m| m > 0) else {
        return;
    };
    #[cfg(feature = "planted-bugs")]
    let items =
        crate::planted::flush_strip_marker(items, |item| [item.strip().before, item.strip().after]);
    let mut at_line_start = true;
    for item in items.iter_mut() {
        let Item::Literal { text: range, .. } = item else {
            at_line_start = false;
            continue;
        };
        let text = &buffer[range.range()];
        let ends_line = text.ends_with('\n') || (at_line_start && text.is_empty());
        scratch.clear();
        let mut copied = 0;
        for start in line_starts(text, at_line_start) {
            if indentation(&text[start..]).is_some() {
                let (_, removed) = leading_spaces(&text[start..], minimum);
                scratch.push_str(&text[copied..start]);
                copied = start + removed;
            }
        }
        scratch.push_str(&text[copied..]);
        let start = buffer.len();
        buffer.push_str(scratch);
        *range = TextRange::new(start, buffer.len());
        at_line_start = ends_line;
    }
}

/// The number of leading space characters of the line that starts a piece
/// of literal text, or `None` if the line does not count: it holds only
/// spaces before its newline. Text that ends without a newline continues
/// with a sequence, so its spaces count.
fn indentation(line: &str) -> Option<usize> {
    let (spaces, bytes) = leading_spaces(line, usize::MAX);
    // The spaces stop at the line's newline at the latest.
    let rest = &line.as_bytes()[bytes..];
    if rest.starts_with(b"\n") || rest.starts_with(b"\r\n") {
        return None;
    }
    Some(spaces)
}

/// The leading space characters of `line`, at most `limit` of them: how
/// many, and their length in bytes.
fn leading_spaces(line: &str, limit: usize) -> (usize, usize) {
    let mut spaces = 0;
    let mut bytes = 0;
    for c in line.chars() {
        if spaces == limit || !is_indentation(c) {
            break;
        }
        spaces += 1;
        bytes += c.len_utf8();
    }
    (spaces, bytes)
}

/// The offsets in a literal where a line starts: its beginning if the
/// literal begins a line, and every offset after a line feed, except the
/// literal's end (a line that starts there starts with the next item, or
/// is the heredoc's closing line).
fn line_starts(text: &str, at_line_start: bool) -> impl Iterator<Item = usize> + '_ {
    let first = (at_line_start && !text.is_empty()).then_some(0);
    first.into_iter().chain(
        text.bytes()
            .enumerate()
            .filter(move |&(i, b)| b == b'\n' && i + 1 < text.len())
            .map(|(i, _)| i + 1),
    )
}
