//! Text from outside (an implementation's answers and standard error, the
//! suite's descriptions and notes) as a terminal may show it: control
//! characters escaped, so that none moves the cursor, clears the screen,
//! sets the window's title or rings the bell, and long text cut to a stated
//! size with a note of how much was left out.

use std::borrow::Cow;

/// How much of a failing case's text is kept and shown: its message (the
/// first difference, expected against actual, the end of the
/// implementation's standard error), and each rendering the diff compares.
pub const SHOWN_BYTES: usize = 32 << 10;
/// How much of a failing case's one-line reason is kept and shown (the
/// reason known-failure lists and the matrix give).
pub const SHOWN_LINE_BYTES: usize = 1 << 10;

/// Whether a terminal could act on the character: C0 controls, DEL and C1
/// controls (CSI among them, U+009B), but not newline and tab.
fn is_terminal_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\n' | '\t')
}

/// The text with every control character but newline and tab written as
/// Rust writes it in a string: `\u{1b}` for ESC, `\r` for a carriage
/// return, `\0` for NUL.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_terminal_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            c if is_terminal_control(c) => out.extend(c.escape_debug()),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The text cut to at most `max` bytes (at a character boundary), with a
/// note of how many bytes were left out: `… (1,234,567 more bytes)`.
pub fn cut(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let left_out = text.len() - end;
    Cow::Owned(format!(
        "{}… ({} more byte{})",
        &text[..end],
        thousands(left_out),
        plural(left_out)
    ))
}

/// A writer that keeps the first `max` bytes written and counts the rest:
/// a rendering of any size, cut without being held whole.
pub struct CutWriter {
    kept: Vec<u8>,
    written: usize,
    max: usize,
}

impl CutWriter {
    pub fn new(max: usize) -> CutWriter {
        CutWriter {
            kept: Vec::new(),
            written: 0,
            max,
        }
    }

    /// What was written, cut as [`cut`] cuts it (invalid UTF-8 replaced).
    pub fn finish(self) -> String {
        let kept = String::from_utf8_lossy(&self.kept);
        let mut end = kept.len().min(self.max);
        while !kept.is_char_boundary(end) {
            end -= 1;
        }
        let left_out = self.written.saturating_sub(end);
        match left_out {
            0 => kept.into_owned(),
            n => format!(
                "{}… ({} more byte{})",
                &kept[..end],
                thousands(n),
                plural(n)
            ),
        }
    }
}

impl std::io::Write for CutWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let room = self.max.saturating_sub(self.kept.len());
        self.kept.extend_from_slice(&bytes[..bytes.len().min(room)]);
        self.written += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Text from outside as a terminal shows it: cut to `max` bytes, then
/// escaped.
pub fn shown(text: &str, max: usize) -> String {
    escape_controls(&cut(text, max)).into_owned()
}

/// A count with its thousands separated by commas: `1,234,567`.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_but_newline_and_tab_are_escaped() {
        assert_eq!(
            escape_controls("\x1b[31mred\x1b]0;title\x07\r\0\x7f\u{9b}1m\n\tok é"),
            "\\u{1b}[31mred\\u{1b}]0;title\\u{7}\\r\\0\\u{7f}\\u{9b}1m\n\tok é"
        );
        assert!(matches!(escape_controls("plain\ttext\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn long_text_is_cut_at_a_character_boundary_with_a_note() {
        assert_eq!(cut("short", 5), "short");
        assert_eq!(cut("abcdef", 4), "abcd… (2 more bytes)");
        // `é` is two bytes: the cut does not split it.
        assert_eq!(cut("aé", 2), "a… (2 more bytes)");
        let long = "x".repeat(1_234_567 + 10);
        assert_eq!(
            cut(&long, 10),
            format!("{}… (1,234,567 more bytes)", "x".repeat(10))
        );
    }

    #[test]
    fn a_cut_writer_keeps_what_cut_keeps_without_holding_the_rest() {
        use std::io::Write;
        for (text, max) in [("short", 5), ("abcdef", 4), ("aé", 2), ("", 0)] {
            let mut writer = CutWriter::new(max);
            for byte in text.as_bytes() {
                writer.write_all(&[*byte]).unwrap();
            }
            assert!(writer.kept.len() <= max);
            assert_eq!(writer.finish(), cut(text, max), "{text:?}");
        }
    }

    #[test]
    fn shown_cuts_before_it_escapes() {
        assert_eq!(shown("\x1b\x1b\x1b", 2), "\\u{1b}\\u{1b}… (1 more byte)");
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (1234567, "1,234,567"),
        ];
        for (n, text) in cases {
            assert_eq!(thousands(n), text);
        }
    }
}
