//! The JSON parser: RFC 8259 JSON text to a tree of [`Node`]s.
//!
//! Spec: json-spec.md § HCL JSON Syntax Specification
//!
//! The grammar is RFC 8259's ("This syntax is defined in terms of JSON as
//! defined in RFC7159", which RFC 8259 replaces with the same grammar).
//!
//! "A specialized parser may be required that is able to:
//! - Preserve the relative ordering of properties defined in an object.
//! - Preserve multiple definitions of the same property name.
//! - Preserve numeric values to the precision required by the number type
//!   in the HCL syntax-agnostic information model.
//! - Retain source location information for parsed tokens/constructs in
//!   order to produce good error messages."
//!
//! So an object is a list of [`Property`]s in source order, duplicates
//! included; a number is read from its source text by
//! [`Number::parse_decimal`] (a number beyond the representation's limits
//! is a parse error, as for a native numeric literal); every node, and
//! every property name, has its source range.
//!
//! The parser stops at its first error: one diagnostic of
//! [`Phase::Parse`] with a range. It is linear in the input, and recursive:
//! objects and arrays may nest at most [`MAX_NESTING_DEPTH`] levels, and
//! [`parse`] runs on a stack large enough for that.
//!
//! A byte order mark at the start is an error: RFC 8259 § 8.1 lets a parser
//! either ignore it or reject it, and the native syntax rejects it.
//! SPEC-GAP(spec-notes/gaps/json-byte-order-mark.md)

use super::string::decode_string;
use super::{with_nesting_limit, MAX_NESTING_DEPTH, NESTING_TOO_DEEP};
use crate::diagnostic::{Diagnostic, Phase, Pos, Range};
use crate::number::Number;

/// A JSON value and its source range.
///
/// Deriving `Clone`, `Debug` and `PartialEq` recurses through the tree: on
/// a tree near [`MAX_NESTING_DEPTH`] deep, call them on a large stack.
/// Dropping does not recurse.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    /// From the first character of the value to just after its last (the
    /// quotation marks of a string, the brackets of an array...).
    pub range: Range,
}

/// The six kinds of JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// The properties in source order, duplicate names included.
    Object(Vec<Property>),
    Array(Vec<Node>),
    /// The decoded content.
    String(String),
    Number(Number),
    Bool(bool),
    Null,
}

/// One `"name": value` member of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    /// The decoded name.
    pub name: String,
    /// The name as written, quotation marks included.
    pub name_range: Range,
    pub value: Node,
}

impl Property {
    /// The whole member, from the name to the end of the value.
    pub fn range(&self) -> Range {
        Range {
            start: self.name_range.start,
            end: self.value.range.end,
        }
    }
}

/// Trees nest as deeply as their source, so dropping one does not recurse:
/// children are moved to a heap stack and dropped one level at a time.
impl Drop for NodeKind {
    fn drop(&mut self) {
        fn take_children(kind: &mut NodeKind, stack: &mut Vec<Node>) {
            match kind {
                NodeKind::Object(properties) => {
                    stack.extend(std::mem::take(properties).into_iter().map(|p| p.value))
                }
                NodeKind::Array(elements) => stack.append(elements),
                _ => {}
            }
        }
        let mut stack = Vec::new();
        take_children(self, &mut stack);
        while let Some(mut node) = stack.pop() {
            take_children(&mut node.kind, &mut stack);
        }
    }
}

/// Parses a JSON text.
///
/// ```abnf
/// JSON-text = ws value ws
/// ```
///
/// RFC 8259, section 2.
pub fn parse(source: &str) -> Result<Node, Vec<Diagnostic>> {
    with_nesting_limit(None, |depth_limit| {
        parse_json_text(source, depth_limit).map_err(|d| vec![d])
    })
}

/// [`parse`] on the current stack, which must be large enough for
/// `depth_limit` levels of nesting (at most [`MAX_NESTING_DEPTH`]).
pub(crate) fn parse_json_text(source: &str, depth_limit: usize) -> Result<Node, Diagnostic> {
    let mut parser = Parser {
        source,
        pos: Pos {
            line: 1,
            column: 1,
            byte: 0,
        },
        depth: 0,
        depth_limit,
    };
    if source.starts_with('\u{FEFF}') {
        return Err(
            parser.error_at_char("Byte order mark", "A JSON text may not start with U+FEFF.")
        );
    }
    parser.skip_whitespace();
    let value = parser.parse_value()?;
    parser.skip_whitespace();
    if parser.peek().is_some() {
        return Err(parser.error_at_char(
            "Extra characters after the value",
            "A JSON text is a single value.",
        ));
    }
    Ok(value)
}

struct Parser<'a> {
    source: &'a str,
    /// The position of the next byte.
    pos: Pos,
    /// The number of objects and arrays open.
    depth: usize,
    /// The most that may be open.
    depth_limit: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.source.as_bytes().get(self.pos.byte).copied()
    }

    /// Moves past the next byte. A line ends after each line feed; a column
    /// is a character, so only the first byte of a character counts.
    fn bump(&mut self) {
        let Some(b) = self.peek() else { return };
        self.pos.byte += 1;
        if b == b'\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else if b & 0xC0 != 0x80 {
            self.pos.column += 1;
        }
    }

    /// The position of byte `byte`, at or after the current one (clamped to
    /// the end of the source).
    fn pos_ahead(&self, byte: usize) -> Pos {
        let byte = byte.min(self.source.len());
        let mut pos = self.pos;
        for c in self.source[self.pos.byte..byte].chars() {
            if c == '\n' {
                pos.line += 1;
                pos.column = 1;
            } else {
                pos.column += 1;
            }
        }
        pos.byte = byte;
        pos
    }

    fn advance_to(&mut self, to_byte: usize) {
        self.pos = self.pos_ahead(to_byte);
    }

    fn range_from(&self, start: Pos) -> Range {
        Range {
            start,
            end: self.pos,
        }
    }

    fn error(&self, range: Range, summary: &str, detail: &str) -> Diagnostic {
        Diagnostic {
            phase: Phase::Parse,
            summary: summary.into(),
            detail: detail.into(),
            range: Some(range),
        }
    }

    /// An error at the next character (empty at the end of the input).
    fn error_at_char(&self, summary: &str, detail: &str) -> Diagnostic {
        let len = self.source[self.pos.byte..]
            .chars()
            .next()
            .map_or(0, char::len_utf8);
        let end = self.pos_ahead(self.pos.byte + len);
        self.error(
            Range {
                start: self.pos,
                end,
            },
            summary,
            detail,
        )
    }

    /// ```abnf
    /// ws = *( %x20 / %x09 / %x0A / %x0D )
    /// ```
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.bump();
        }
    }

    /// ```abnf
    /// value = false / null / true / object / array / number / string
    /// ```
    fn parse_value(&mut self) -> Result<Node, Diagnostic> {
        match self.peek() {
            Some(b'{') => self.parse_object(),
            Some(b'[') => self.parse_array(),
            Some(b'"') => {
                let start = self.pos;
                let text = self.parse_string()?;
                Ok(Node {
                    kind: NodeKind::String(text),
                    range: self.range_from(start),
                })
            }
            Some(b'-' | b'0'..=b'9') => self.parse_number(),
            Some(b'a'..=b'z' | b'A'..=b'Z') => self.parse_literal_name(),
            Some(_) => Err(self.error_at_char(
                "Invalid value",
                "A JSON value is an object, an array, a string, a number, true, false or null.",
            )),
            None => Err(self.error_at_char(
                "Missing value",
                "The input ended where a JSON value was expected.",
            )),
        }
    }

    /// ```abnf
    /// false = %x66.61.6c.73.65   ; false
    /// null  = %x6e.75.6c.6c      ; null
    /// true  = %x74.72.75.65      ; true
    /// ```
    fn parse_literal_name(&mut self) -> Result<Node, Diagnostic> {
        let start = self.pos;
        let rest = &self.source.as_bytes()[start.byte..];
        let len = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let kind = match &rest[..len] {
            b"true" => NodeKind::Bool(true),
            b"false" => NodeKind::Bool(false),
            b"null" => NodeKind::Null,
            _ => {
                let range = Range {
                    start,
                    end: self.pos_ahead(start.byte + len),
                };
                return Err(self.error(
                    range,
                    "Invalid value",
                    "The only JSON keywords are true, false and null.",
                ));
            }
        };
        self.advance_to(start.byte + len);
        Ok(Node {
            kind,
            range: self.range_from(start),
        })
    }

    /// ```abnf
    /// number = [ minus ] int [ frac ] [ exp ]
    /// int = zero / ( digit1-9 *DIGIT )
    /// frac = decimal-point 1*DIGIT
    /// exp = e [ minus / plus ] 1*DIGIT
    /// ```
    ///
    /// The value is exact, within the limits of [`Number`]: "a JSON HCL
    /// parser must be able to translate exactly the value given to a number
    /// of corresponding precision, within the constraints set by the HCL
    /// syntax-agnostic information model". A number beyond them is an
    /// error, as a native numeric literal is.
    ///
    /// Spec: json-spec.md § Numbers (RFC 8259, section 6)
    fn parse_number(&mut self) -> Result<Node, Diagnostic> {
        let start = self.pos;
        let bytes = self.source.as_bytes();
        let mut i = start.byte;
        let digits_from = |i: usize| bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if bytes[i] == b'-' {
            i += 1;
        }
        let int_digits = digits_from(i);
        let well_formed = match int_digits {
            0 => Err("A number needs a digit before any point or exponent."),
            n if n > 1 && bytes[i] == b'0' => Err("A number has no leading zeros."),
            n => {
                i += n;
                Ok(())
            }
        }
        .and_then(|()| {
            if bytes.get(i) == Some(&b'.') {
                match digits_from(i + 1) {
                    0 => return Err("A decimal point must be followed by digits."),
                    n => i += 1 + n,
                }
            }
            if let Some(b'e' | b'E') = bytes.get(i) {
                i += 1;
                if let Some(b'+' | b'-') = bytes.get(i) {
                    i += 1;
                }
                match digits_from(i) {
                    0 => return Err("An exponent must have digits."),
                    n => i += n,
                }
            }
            Ok(())
        });
        if let Err(detail) = well_formed {
            // The error covers everything that looks like part of the number.
            let len = bytes[start.byte..]
                .iter()
                .take_while(|b| b.is_ascii_digit() || b"+-.eE".contains(b))
                .count();
            let range = Range {
                start,
                end: self.pos_ahead(start.byte + len),
            };
            return Err(self.error(range, "Invalid number", detail));
        }
        let end = self.pos_ahead(i);
        let range = Range { start, end };
        let text = &self.source[start.byte..i];
        let number = Number::parse_decimal(text, true).map_err(|e| {
            self.error(
                range,
                "Invalid number",
                &format!("This number cannot be represented: {e}."),
            )
        })?;
        self.pos = end;
        Ok(Node {
            kind: NodeKind::Number(number),
            range,
        })
    }

    /// Reads a string at the quotation mark, and returns its content.
    ///
    /// RFC 8259, section 7 (see `super::string`).
    fn parse_string(&mut self) -> Result<String, Diagnostic> {
        match decode_string(self.source, self.pos.byte + 1, None) {
            Ok((content, closing_quote)) => {
                self.advance_to(closing_quote + 1);
                Ok(content)
            }
            Err(e) => {
                let range = Range {
                    start: self.pos_ahead(e.start),
                    end: self.pos_ahead(e.end),
                };
                Err(self.error(range, e.summary, ""))
            }
        }
    }

    /// Opens an object or an array: checks the nesting limit and moves past
    /// the bracket.
    fn open(&mut self) -> Result<(), Diagnostic> {
        if self.depth >= self.depth_limit {
            return Err(self.error_at_char(
                NESTING_TOO_DEEP,
                &format!("Objects and arrays may nest at most {MAX_NESTING_DEPTH} levels."),
            ));
        }
        self.depth += 1;
        self.bump();
        self.skip_whitespace();
        Ok(())
    }

    /// After an element: a value separator (`true`, whitespace skipped), or
    /// the closing bracket `close` (`false`, moved past).
    fn separator_or_close(&mut self, close: u8, what: &str) -> Result<bool, Diagnostic> {
        self.skip_whitespace();
        match self.peek() {
            Some(b',') => {
                self.bump();
                self.skip_whitespace();
                Ok(true)
            }
            Some(b) if b == close => {
                self.bump();
                self.depth -= 1;
                Ok(false)
            }
            _ => Err(self.error_at_char(
                "Missing separator",
                &format!("A comma or the end of the {what} is expected here."),
            )),
        }
    }

    /// ```abnf
    /// object = begin-object [ member *( value-separator member ) ]
    ///          end-object
    /// member = string name-separator value
    /// ```
    ///
    /// RFC 8259, section 4.
    fn parse_object(&mut self) -> Result<Node, Diagnostic> {
        let start = self.pos;
        self.open()?;
        let mut properties = Vec::new();
        if self.peek() == Some(b'}') {
            self.bump();
            self.depth -= 1;
        } else {
            loop {
                if self.peek() != Some(b'"') {
                    return Err(self.error_at_char(
                        "Missing property name",
                        "A property name is a string in quotation marks.",
                    ));
                }
                let name_start = self.pos;
                let name = self.parse_string()?;
                let name_range = self.range_from(name_start);
                self.skip_whitespace();
                if self.peek() != Some(b':') {
                    return Err(self.error_at_char(
                        "Missing colon",
                        "A property name is followed by a colon.",
                    ));
                }
                self.bump();
                self.skip_whitespace();
                let value = self.parse_value()?;
                properties.push(Property {
                    name,
                    name_range,
                    value,
                });
                if !self.separator_or_close(b'}', "object")? {
                    break;
                }
            }
        }
        Ok(Node {
            kind: NodeKind::Object(properties),
            range: self.range_from(start),
        })
    }

    /// ```abnf
    /// array = begin-array [ value *( value-separator value ) ] end-array
    /// ```
    ///
    /// RFC 8259, section 5.
    fn parse_array(&mut self) -> Result<Node, Diagnostic> {
        let start = self.pos;
        self.open()?;
        let mut elements = Vec::new();
        if self.peek() == Some(b']') {
            self.bump();
            self.depth -= 1;
        } else {
            loop {
                elements.push(self.parse_value()?);
                if !self.separator_or_close(b']', "array")? {
                    break;
                }
            }
        }
        Ok(Node {
            kind: NodeKind::Array(elements),
            range: self.range_from(start),
        })
    }
}

#[cfg(test)]
pub(crate) mod tests;
