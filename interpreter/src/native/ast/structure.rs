//! The syntax tree of the structural language: configuration files,
//! bodies, attributes and blocks.
//!
//! Spec: hclsyntax-spec.md § Structural Elements

use super::{Expression, Name};
use crate::source::Span;

/// A configuration file.
///
/// ```ebnf
/// ConfigFile   = Body;
/// ```
///
/// Spec: hclsyntax-spec.md § Configuration Files
#[derive(Debug)]
pub struct ConfigFile {
    pub body: Body,
}

/// "A _body_ is a collection of associated attributes and blocks."
///
/// ```ebnf
/// Body         = (Attribute | Block | OneLineBlock)*;
/// ```
///
/// Spec: hclsyntax-spec.md § Bodies
#[derive(Debug, Default)]
pub struct Body {
    /// In source order; names are distinct.
    pub attributes: Vec<Attribute>,
    /// In source order.
    pub blocks: Vec<Block>,
    pub span: Span,
}

/// An attribute definition.
///
/// ```ebnf
/// Attribute    = Identifier "=" Expression Newline;
/// ```
///
/// Spec: hclsyntax-spec.md § Attribute Definitions
#[derive(Debug)]
pub struct Attribute {
    pub name: Name,
    pub name_span: Span,
    pub expression: Expression,
    pub span: Span,
}

/// A block, or a one-line block.
///
/// ```ebnf
/// Block        = Identifier (StringLit|Identifier)* "{" Newline Body "}" Newline;
/// OneLineBlock = Identifier (StringLit|Identifier)* "{" (Identifier "=" Expression)? "}" Newline;
/// ```
///
/// Spec: hclsyntax-spec.md § Blocks
#[derive(Debug)]
pub struct Block {
    pub type_name: Name,
    pub type_span: Span,
    pub labels: Vec<Label>,
    pub body: Body,
    pub span: Span,
}

/// "Block labels can either be quoted literal strings or naked
/// identifiers."
///
/// Spec: hclsyntax-spec.md § Blocks
#[derive(Debug)]
pub struct Label {
    /// The label's text, escapes decoded.
    pub value: String,
    /// Whether the label was written as a quoted string literal.
    pub quoted: bool,
    pub span: Span,
}
