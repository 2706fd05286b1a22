//! The type syntax the suite writes types in: the forms of the type
//! expression extension.
//!
//! Spec: ext-typeexpr-README.md § Type Expression Syntax
//!
//! ```text
//! type      = "string" | "number" | "bool" | "any"
//!           | ("list" | "set" | "map") "(" type ")"
//!           | "object" "(" "{" [ name "=" type { "," name "=" type } [","] ] "}" ")"
//!           | "tuple" "(" "[" [ type { "," type } [","] ] "]" ")" ;
//! name      = identifier | quoted-string ;
//! ```

use super::Type;
use std::collections::BTreeMap;
use std::fmt;

/// Nesting deeper than this is rejected rather than recursed into.
const MAX_DEPTH: usize = 200;

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

/// Reads a type written in type syntax, such as `map(object({a = string}))`.
pub fn parse_type(text: &str) -> Result<Type, TypeSyntaxError> {
    let mut reader = Reader { text, pos: 0 };
    let ty = reader.ty(0)?;
    reader.skip_space();
    if reader.pos != text.len() {
        return Err(reader.error("unexpected text after the type"));
    }
    Ok(ty)
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
}

impl Reader<'_> {
    fn error(&self, message: impl Into<String>) -> TypeSyntaxError {
        TypeSyntaxError {
            offset: self.pos,
            message: message.into(),
        }
    }

    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn skip_space(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, token: char) -> bool {
        self.skip_space();
        if self.rest().starts_with(token) {
            self.pos += token.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, token: char) -> Result<(), TypeSyntaxError> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.error(format!("expected `{token}`")))
        }
    }

    fn identifier(&mut self) -> Option<&str> {
        self.skip_space();
        let rest = self.rest();
        let len = rest
            .char_indices()
            .find(|&(i, c)| {
                !(c.is_alphanumeric() || c == '_' || (i > 0 && c == '-'))
                    || (i == 0 && c.is_ascii_digit())
            })
            .map_or(rest.len(), |(i, _)| i);
        if len == 0 {
            return None;
        }
        let start = self.pos;
        self.pos += len;
        Some(&self.text[start..self.pos])
    }

    fn ty(&mut self, depth: usize) -> Result<Type, TypeSyntaxError> {
        if depth > MAX_DEPTH {
            return Err(self.error(format!("types nested deeper than {MAX_DEPTH} levels")));
        }
        let start = self.pos;
        let Some(keyword) = self.identifier() else {
            return Err(self.error("expected a type"));
        };
        let ty = match keyword {
            "string" => Type::String,
            "number" => Type::Number,
            "bool" => Type::Bool,
            "any" => Type::Dynamic,
            "list" | "set" | "map" => {
                let keyword = keyword.to_string();
                self.expect('(')?;
                let element = self.ty(depth + 1)?;
                self.expect(')')?;
                match keyword.as_str() {
                    "list" => Type::list(element),
                    "set" => Type::set(element),
                    _ => Type::map(element),
                }
            }
            "object" => {
                self.expect('(')?;
                self.expect('{')?;
                let mut attributes = BTreeMap::new();
                while !self.eat('}') {
                    let name_at = self.pos;
                    let name = self.attribute_name()?;
                    self.expect('=')?;
                    let ty = self.ty(depth + 1)?;
                    if attributes.insert(name.clone(), ty).is_some() {
                        self.pos = name_at;
                        return Err(self.error(format!("attribute `{name}` is given twice")));
                    }
                    if !self.eat(',') {
                        self.expect('}')?;
                        break;
                    }
                }
                self.expect(')')?;
                Type::Object(attributes)
            }
            "tuple" => {
                self.expect('(')?;
                self.expect('[')?;
                let mut elements = Vec::new();
                while !self.eat(']') {
                    elements.push(self.ty(depth + 1)?);
                    if !self.eat(',') {
                        self.expect(']')?;
                        break;
                    }
                }
                self.expect(')')?;
                Type::Tuple(elements)
            }
            other => {
                let other = other.to_string();
                self.pos = start;
                return Err(self.error(format!("unknown type `{other}`")));
            }
        };
        Ok(ty)
    }

    fn attribute_name(&mut self) -> Result<String, TypeSyntaxError> {
        self.skip_space();
        if !self.rest().starts_with('"') {
            return match self.identifier() {
                Some(name) => Ok(name.to_string()),
                None => Err(self.error("expected an attribute name")),
            };
        }
        self.pos += 1;
        let mut name = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(name);
                }
                '\\' => match chars.next() {
                    Some((_, '"')) => name.push('"'),
                    Some((_, '\\')) => name.push('\\'),
                    Some((_, 'n')) => name.push('\n'),
                    _ => {
                        self.pos += i;
                        return Err(self.error("unsupported escape in a quoted name"));
                    }
                },
                c => name.push(c),
            }
        }
        Err(self.error("unterminated quoted name"))
    }
}

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Writes a type in type syntax; `parse_type` reads the text back.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::String => f.write_str("string"),
            Type::Number => f.write_str("number"),
            Type::Bool => f.write_str("bool"),
            Type::Dynamic => f.write_str("any"),
            Type::List(e) => write!(f, "list({e})"),
            Type::Set(e) => write!(f, "set({e})"),
            Type::Map(e) => write!(f, "map({e})"),
            Type::Object(attributes) => {
                f.write_str("object({")?;
                for (i, (name, ty)) in attributes.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    if is_identifier(name) {
                        write!(f, "{name} = {ty}")?;
                    } else {
                        f.write_str("\"")?;
                        for c in name.chars() {
                            match c {
                                '"' => f.write_str("\\\"")?,
                                '\\' => f.write_str("\\\\")?,
                                '\n' => f.write_str("\\n")?,
                                c => write!(f, "{c}")?,
                            }
                        }
                        write!(f, "\" = {ty}")?;
                    }
                }
                f.write_str("})")
            }
            Type::Tuple(elements) => {
                f.write_str("tuple([")?;
                for (i, ty) in elements.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{ty}")?;
                }
                f.write_str("])")
            }
        }
    }
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
        ] {
            let ty = parse_type(text).unwrap();
            assert_eq!(parse_type(&ty.to_string()).unwrap(), ty, "{text}");
        }
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
        ] {
            assert!(parse_type(text).is_err(), "{text}");
        }
        let deep = "list(".repeat(1000) + "string" + &")".repeat(1000);
        assert!(parse_type(&deep).is_err());
    }
}
