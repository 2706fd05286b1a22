//! JSON strings: their escapes decoded, and positions in a string's
//! content traced back to the JSON source.
//!
//! Spec: json-spec.md § Strings
//!
//! The grammar is RFC 8259's, section 7:
//!
//! ```abnf
//! string = quotation-mark *char quotation-mark
//! char = unescaped /
//!     escape (
//!         %x22 /          ; "    quotation mark  U+0022
//!         %x5C /          ; \    reverse solidus U+005C
//!         %x2F /          ; /    solidus         U+002F
//!         %x62 /          ; b    backspace       U+0008
//!         %x66 /          ; f    form feed       U+000C
//!         %x6E /          ; n    line feed       U+000A
//!         %x72 /          ; r    carriage return U+000D
//!         %x74 /          ; t    tab             U+0009
//!         %x75 4HEXDIG )  ; uXXXX                U+XXXX
//! escape = %x5C              ; \
//! quotation-mark = %x22      ; "
//! unescaped = %x20-21 / %x23-5B / %x5D-10FFFF
//! ```
//!
//! A character outside the Basic Multilingual Plane is escaped as a
//! UTF-16 surrogate pair (`\uD83D\uDE00`). A lone surrogate, high or low,
//! encodes no character (an HCL string is "a sequence of Unicode
//! characters"); the specs leave open what it gives, and, as in
//! hashicorp/hcl, it reads as U+FFFD REPLACEMENT CHARACTER.
//! SPEC-GAP(spec-notes/gaps/json-lone-surrogates.md)

use crate::diagnostic::{Pos, Range};

/// Why a string could not be read: the bytes at fault, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StringError {
    pub start: usize,
    pub end: usize,
    pub summary: &'static str,
}

/// Decodes the string whose content starts at byte `start` of `source`
/// (just after its opening quotation mark). Returns the content and the
/// offset of the closing quotation mark.
///
/// With `offsets`, records for every byte of the content the source offset
/// of the character (or escape) it was decoded from, and, last, the offset
/// of the closing quotation mark: `offsets[i]` is where content byte `i`
/// came from, for every `i` up to and including the content's length.
pub(crate) fn decode_string(
    source: &str,
    start: usize,
    mut offsets: Option<&mut Vec<usize>>,
) -> Result<(String, usize), StringError> {
    let bytes = source.as_bytes();
    let mut content = String::new();
    let mut i = start;
    let error = |start: usize, end: usize, summary| StringError {
        start,
        end,
        summary,
    };
    loop {
        let Some(&b) = bytes.get(i) else {
            return Err(error(start - 1, i, "Unterminated string"));
        };
        let char_start = i;
        let c = match b {
            b'"' => break,
            b'\\' => {
                let (c, len) = decode_escape(source, i)?;
                i += len;
                c
            }
            0x00..=0x1F => {
                return Err(error(
                    i,
                    i + 1,
                    "Control characters must be escaped in a string",
                ))
            }
            _ => {
                let c = source[i..].chars().next().expect("at a character boundary");
                i += c.len_utf8();
                c
            }
        };
        content.push(c);
        if let Some(offsets) = offsets.as_deref_mut() {
            offsets.extend(std::iter::repeat_n(char_start, c.len_utf8()));
        }
    }
    if let Some(offsets) = offsets {
        offsets.push(i);
    }
    Ok((content, i))
}

/// Decodes the escape at byte `at` (a reverse solidus): the character and
/// the escape's length in bytes.
fn decode_escape(source: &str, at: usize) -> Result<(char, usize), StringError> {
    let bytes = source.as_bytes();
    let simple = match bytes.get(at + 1) {
        Some(b'"') => Some('"'),
        Some(b'\\') => Some('\\'),
        Some(b'/') => Some('/'),
        Some(b'b') => Some('\u{8}'),
        Some(b'f') => Some('\u{C}'),
        Some(b'n') => Some('\n'),
        Some(b'r') => Some('\r'),
        Some(b't') => Some('\t'),
        Some(b'u') => None,
        _ => {
            let end = source[at + 1..]
                .chars()
                .next()
                .map_or(at + 1, |c| at + 1 + c.len_utf8());
            return Err(StringError {
                start: at,
                end,
                summary: "Invalid escape sequence",
            });
        }
    };
    if let Some(c) = simple {
        return Ok((c, 2));
    }
    // SPEC-GAP(spec-notes/gaps/json-lone-surrogates.md)
    let lone = Ok((char::REPLACEMENT_CHARACTER, 6));
    let unit = hex_unit(source, at)?;
    match unit {
        0xD800..=0xDBFF => {
            let low = if source[at + 6..].starts_with("\\u") {
                hex_unit(source, at + 6)?
            } else {
                return lone;
            };
            if !(0xDC00..=0xDFFF).contains(&low) {
                return lone;
            }
            let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
            let c = char::from_u32(scalar).expect("a surrogate pair is a scalar value");
            Ok((c, 12))
        }
        0xDC00..=0xDFFF => lone,
        _ => Ok((char::from_u32(unit).expect("not a surrogate"), 6)),
    }
}

/// The four hexadecimal digits of the `\uXXXX` escape at byte `at`.
fn hex_unit(source: &str, at: usize) -> Result<u32, StringError> {
    let digits = source
        .get(at + 2..at + 6)
        .filter(|d| d.len() == 4 && d.bytes().all(|b| b.is_ascii_hexdigit()));
    match digits {
        Some(digits) => Ok(u32::from_str_radix(digits, 16).expect("hex digits")),
        None => {
            let end = source[at + 2..]
                .char_indices()
                .take(4)
                .take_while(|(_, c)| c.is_ascii_hexdigit())
                .last()
                .map_or(at + 2, |(i, c)| at + 2 + i + c.len_utf8());
            Err(StringError {
                start: at,
                end,
                summary: "A \\u escape needs four hexadecimal digits",
            })
        }
    }
}

/// Where the content of one JSON string lies in the JSON source, so that a
/// range in the content (as the native syntax reports it) can be given in
/// the JSON source.
///
/// A JSON string holds no unescaped line break, so all of it is on the
/// line of its opening quotation mark; a line break in the content comes
/// from an escape (`\n`) and takes no line in the source.
pub(crate) struct ContentMap<'a> {
    source: &'a str,
    /// The position of the opening quotation mark.
    quote: Pos,
    offsets: Vec<usize>,
}

impl<'a> ContentMap<'a> {
    /// The map of the string whose range (quotation marks included) is
    /// `range`; `None` if the source there is no valid string.
    pub fn new(source: &'a str, range: Range) -> Option<ContentMap<'a>> {
        let mut offsets = Vec::new();
        if source.as_bytes().get(range.start.byte) != Some(&b'"') {
            return None;
        }
        decode_string(source, range.start.byte + 1, Some(&mut offsets)).ok()?;
        Some(ContentMap {
            source,
            quote: range.start,
            offsets,
        })
    }

    /// The source position of a byte offset in the content (clamped to the
    /// content's end, which is the closing quotation mark).
    pub fn pos(&self, content_byte: usize) -> Pos {
        let last = self.offsets.len() - 1;
        let byte = self.offsets[content_byte.min(last)];
        let chars = self.source[self.quote.byte..byte].chars().count();
        Pos {
            line: self.quote.line,
            column: self.quote.column + chars,
            byte,
        }
    }

    /// The source offset of each byte offset of the content, its end
    /// included.
    pub fn source_offsets(&self) -> &[usize] {
        &self.offsets
    }

    /// The source range of a range in the content.
    pub fn range(&self, content_range: Range) -> Range {
        Range {
            start: self.pos(content_range.start.byte),
            end: self.pos(content_range.end.byte),
        }
    }
}
