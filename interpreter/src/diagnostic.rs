//! Diagnostics: the one error type of every phase.
//!
//! Spec: hclsyntax-spec.md § Source Code Representation (source positions)

use std::fmt;

/// The phase of processing that rejected an input.
///
/// The suite compares phases, never message text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Reading source text into a syntax tree.
    Parse,
    /// Evaluating an expression or template.
    Eval,
    /// Converting a value to a type.
    Conversion,
    /// Unifying a list of types.
    Unification,
    /// A static analysis that does not apply to the expression.
    Static,
    /// Processing a body with a schema.
    Schema,
}

impl Phase {
    /// The phase's name as the suite and the protocol write it.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Parse => "parse",
            Phase::Eval => "eval",
            Phase::Conversion => "conversion",
            Phase::Unification => "unification",
            Phase::Static => "static",
            Phase::Schema => "schema",
        }
    }

    /// Every phase, in the order of processing.
    pub const ALL: [Phase; 6] = [
        Phase::Parse,
        Phase::Eval,
        Phase::Conversion,
        Phase::Unification,
        Phase::Static,
        Phase::Schema,
    ];
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A position in source text: 1-based line and column (in characters), and
/// 0-based byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
    pub byte: usize,
}

/// A range of source text, from `start` (inclusive) to `end` (exclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Range {
    pub start: Pos,
    pub end: Pos,
}

/// An error found while processing an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub phase: Phase,
    /// A short statement of what is wrong.
    pub summary: String,
    /// A longer explanation, possibly empty.
    pub detail: String,
    /// Where in the source the problem is, when the input has a source.
    pub range: Option<Range>,
}

impl Diagnostic {
    /// The summary of an internal error: a bug of the reference
    /// interpreter (a panic caught, a state its invariants rule out),
    /// never an answer about the input.
    pub const INTERNAL_ERROR: &'static str = "Internal error of the reference interpreter";

    /// Whether this reports an internal error rather than a problem of the
    /// input.
    pub fn is_internal_error(&self) -> bool {
        self.summary == Self::INTERNAL_ERROR
    }

    /// A diagnostic without a source range.
    pub fn new(phase: Phase, summary: impl Into<String>, detail: impl Into<String>) -> Self {
        Diagnostic {
            phase,
            summary: summary.into(),
            detail: detail.into(),
            range: None,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} error: {}", self.phase, self.summary)?;
        if !self.detail.is_empty() {
            write!(f, ": {}", self.detail)?;
        }
        if let Some(range) = self.range {
            write!(
                f,
                " (at {}:{}-{}:{})",
                range.start.line, range.start.column, range.end.line, range.end.column
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// The most characters of an input that a message quotes: a longer string,
/// name, type or value is cut after this many, and the message says how
/// many more there were (runner/PROTOCOL.md § Errors).
pub const QUOTED_CHARS: usize = 100;

/// A string of the input as a message quotes it: in double quotes, escaped
/// as Rust's `{:?}` escapes it, cut after [`QUOTED_CHARS`] characters:
/// `"1111…" (999900 more characters)`.
pub fn quoted(text: &str) -> Quoted<'_> {
    Quoted(text)
}

/// See [`quoted`].
pub struct Quoted<'a>(&'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(QUOTED_CHARS) {
            None => write!(f, "{:?}", self.0),
            Some((end, _)) => {
                let more = self.0[end..].chars().count();
                write!(f, "{:?}… ({more} more characters)", &self.0[..end])
            }
        }
    }
}

/// Anything of the input a message shows as it is written (a type, a JSON
/// value, a path), cut after [`QUOTED_CHARS`] characters:
/// `[1,2,3,… (5000 more characters)`. Formatting it never holds more than
/// the characters shown, whatever the size of what it shows.
pub fn shown<T: fmt::Display>(shown: T) -> Shown<T> {
    Shown(shown)
}

/// See [`shown`].
pub struct Shown<T>(T);

impl<T: fmt::Display> fmt::Display for Shown<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        /// Keeps the first characters written, and counts the rest.
        struct Cut {
            kept: String,
            chars: usize,
        }
        impl fmt::Write for Cut {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                for c in s.chars() {
                    if self.chars < QUOTED_CHARS {
                        self.kept.push(c);
                    }
                    self.chars += 1;
                }
                Ok(())
            }
        }
        let mut cut = Cut {
            kept: String::new(),
            chars: 0,
        };
        fmt::write(&mut cut, format_args!("{}", self.0))?;
        f.write_str(&cut.kept)?;
        match cut.chars.checked_sub(QUOTED_CHARS) {
            Some(more) if more > 0 => write!(f, "… ({more} more characters)"),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod quoting_tests {
    use super::*;

    #[test]
    fn short_input_is_quoted_whole() {
        assert_eq!(quoted("a\"b").to_string(), r#""a\"b""#);
        assert_eq!(shown("abc").to_string(), "abc");
        let exactly = "x".repeat(QUOTED_CHARS);
        assert_eq!(quoted(&exactly).to_string(), format!("{exactly:?}"));
        assert_eq!(shown(&exactly).to_string(), exactly);
    }

    #[test]
    fn long_input_is_cut_and_says_how_much_more_there_was() {
        let long = "é".repeat(1_000_000);
        let kept = "é".repeat(QUOTED_CHARS);
        assert_eq!(
            quoted(&long).to_string(),
            format!("\"{kept}\"… (999900 more characters)")
        );
        assert_eq!(
            shown(&long).to_string(),
            format!("{kept}… (999900 more characters)")
        );
    }
}
