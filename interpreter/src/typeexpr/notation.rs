//! The type notation the suite writes types in: the type constraint syntax
//! of this extension, with one addition.
//!
//! Spec: ext-typeexpr-README.md § Type Expression Syntax
//!
//! ```text
//! type = "string" | "number" | "bool" | "any"
//!      | ("list" | "set" | "map") "(" type ")"
//!      | "object" "(" "{" [ name "=" type { "," name "=" type } [","] ] "}" ")"
//!      | "tuple" "(" "[" [ type { "," type } [","] ] "]" ")" ;
//! name = identifier | quoted-string ;
//! ```
//!
//! A notation is read as a native-syntax expression, by the extension's own
//! reader, as a type constraint (`any` is the dynamic pseudo-type). The
//! addition is the quoted attribute name, for names that are no
//! identifiers (`object({"a b" = bool})`): its text is taken literally
//! (`"${"` is the name `${`), with the escapes `\"`, `\\` and `\n`. The
//! notation is written by [`Type`]'s `Display`.

use super::syntax::{read_type, Reading};
use super::Mode;
use crate::types::Type;
use std::fmt;

/// A type that could not be read, with the byte offset where reading failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeSyntaxError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for TypeSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for TypeSyntaxError {}

/// Reads a type written in the type notation, such as
/// `map(object({a = string}))`.
pub fn parse_type(text: &str) -> Result<Type, TypeSyntaxError> {
    let (source, offsets) = as_native_source(text);
    let offset = |byte: usize| offsets.iter().filter(|&&at| at < byte).count();
    let parsed = crate::native::parse_expression(&source).map_err(|diagnostics| {
        let first = diagnostics.first();
        let byte = first.and_then(|d| d.range).map_or(0, |r| r.start.byte);
        TypeSyntaxError {
            offset: byte - offset(byte),
            message: first.map_or_else(String::new, |d| format!("{}: {}", d.summary, d.detail)),
        }
    })?;
    let reading = Reading {
        mode: Mode::TypeConstraint,
        quoted_names: true,
    };
    read_type(&parsed.tree(), reading).map_err(|errors| {
        let first = errors.first();
        let byte = first.map_or(0, |e| e.span.start as usize);
        TypeSyntaxError {
            offset: byte - offset(byte),
            message: first.map_or_else(String::new, |e| e.detail.clone()),
        }
    })
}

/// The notation as native source: in a quoted name, `${` and `%{` are
/// doubled as `$${` and `%%{`, so that the text is literal; and an
/// attribute named `for` first in an object is quoted, since the native
/// syntax reads `{for` as the start of a `for` expression. Also returns
/// where characters were inserted, to give errors at the notation's own
/// offsets.
fn as_native_source(text: &str) -> (String, Vec<usize>) {
    let mut source = String::with_capacity(text.len());
    let mut inserted = Vec::new();
    let mut quoted = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        if quoted && matches!(c, '$' | '%') && rest.starts_with('{') {
            inserted.push(source.len());
            source.push(c);
        }
        source.push(c);
        match c {
            '"' => quoted = !quoted,
            '\\' if quoted => {
                if let Some(escaped) = rest.chars().next() {
                    source.push(escaped);
                    rest = &rest[escaped.len_utf8()..];
                }
            }
            '{' if !quoted => {
                let spaces = rest.len() - rest.trim_start().len();
                let after = rest[spaces..].strip_prefix("for");
                if after.is_some_and(|after| after.trim_start().starts_with(['=', ':'])) {
                    source.push_str(&rest[..spaces]);
                    inserted.push(source.len());
                    source.push_str("\"for");
                    inserted.push(source.len());
                    source.push('"');
                    rest = &rest[spaces + 3..];
                }
            }
            _ => {}
        }
    }
    (source, inserted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_form() {
        for text in [
            "string",
            "any",
            "list(set(map(number)))",
            "object({})",
            "tuple([])",
            "object({\"a b\" = bool, x = tuple([string, any])})",
            "object({\"${\" = string, \"%{\" = number, \"\\\"\" = bool})",
        ] {
            let ty = parse_type(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(parse_type(&ty.to_string()).unwrap(), ty, "{text}");
        }
        assert_eq!(
            parse_type("object({\"${\" = string})").unwrap(),
            Type::object([("${", Type::String)])
        );
        assert_eq!(
            parse_type("object({ for = number, if = bool })").unwrap(),
            Type::object([("for", Type::Number), ("if", Type::Bool)])
        );
    }

    /// An escaped quote does not end a quoted name, and a `{` inside one
    /// starts nothing: what follows is read as it is written.
    #[test]
    fn quoted_names_end_at_their_closing_quote() {
        assert_eq!(
            parse_type(r#"object({"\"" = bool, "${" = string})"#).unwrap(),
            Type::object([("\"", Type::Bool), ("${", Type::String)])
        );
        assert_eq!(
            parse_type(r#"object({"{for = x" = string})"#).unwrap(),
            Type::object([("{for = x", Type::String)])
        );
    }

    #[test]
    fn rejects_malformed_types() {
        for text in [
            "",
            "lst(string)",
            "list(string",
            "object({a = string, a = bool})",
            "tuple([string,,])",
            "list(string) x",
            "list(string, number)",
            "object({a.b = string})",
        ] {
            assert!(parse_type(text).is_err(), "{text}");
        }
        let deep = "list(".repeat(1000) + "string" + &")".repeat(1000);
        assert!(parse_type(&deep).is_err());
    }

    #[test]
    fn errors_are_at_the_notations_own_offsets() {
        let error = parse_type("object({\"${\" = strin})").unwrap_err();
        assert_eq!(error.offset, 15);
        // A syntax error, found by the native parser in the source with
        // `$${`: at the second comma of the notation.
        let text = "object({\"${\" = string,, b = bool})";
        let error = parse_type(text).unwrap_err();
        assert_eq!(error.offset, text.find(",,").unwrap() + 1, "{error}");
    }
}
