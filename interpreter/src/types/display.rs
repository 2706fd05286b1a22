//! The suite's type notation, written: the type constraint syntax of the
//! type expressions extension, with quoted attribute names for names that
//! are no identifiers. It is read by `crate::typeexpr::parse_type`.
//!
//! Spec: ext-typeexpr-README.md § Type Expression Syntax

use super::Type;
use std::fmt;

fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// Writes a type in the type notation; `crate::typeexpr::parse_type` reads
/// the text back.
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
