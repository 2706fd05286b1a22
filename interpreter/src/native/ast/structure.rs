//! The structural language: configuration files, bodies, attributes and
//! blocks.
//!
//! Spec: hclsyntax-spec.md § Structural Elements

use super::node::{self, Arena};
use super::{Expression, Nodes, Viewed};
use crate::source::Span;

/// A configuration file.
///
/// ```ebnf
/// ConfigFile   = Body;
/// ```
///
/// Spec: hclsyntax-spec.md § Configuration Files
#[derive(Clone, Copy, Debug)]
pub struct ConfigFile<'t> {
    pub body: Body<'t>,
}

impl<'t> ConfigFile<'t> {
    pub(in crate::native) fn new(arena: &'t Arena, file: &'t node::ConfigFile) -> ConfigFile<'t> {
        ConfigFile {
            body: Body::new(arena, &file.body),
        }
    }
}

/// "A _body_ is a collection of associated attributes and blocks."
///
/// ```ebnf
/// Body         = (Attribute | Block | OneLineBlock)*;
/// ```
///
/// Spec: hclsyntax-spec.md § Bodies
#[derive(Clone, Copy, Debug)]
pub struct Body<'t> {
    /// In source order; names are distinct.
    pub attributes: Nodes<'t, node::Attribute>,
    /// In source order.
    pub blocks: Nodes<'t, node::Block>,
    pub span: Span,
}

impl<'t> Body<'t> {
    fn new(arena: &'t Arena, body: &'t node::Body) -> Body<'t> {
        Body {
            attributes: Nodes::new(arena, body.attributes),
            blocks: Nodes::new(arena, body.blocks),
            span: body.span,
        }
    }
}

/// An attribute definition.
///
/// ```ebnf
/// Attribute    = Identifier "=" Expression Newline;
/// ```
///
/// Spec: hclsyntax-spec.md § Attribute Definitions
#[derive(Clone, Copy, Debug)]
pub struct Attribute<'t> {
    pub name: &'t str,
    pub name_span: Span,
    pub expression: Expression<'t>,
}

impl Viewed for node::Attribute {
    type View<'t> = Attribute<'t>;

    fn view<'t>(arena: &'t Arena, node: &'t Self) -> Attribute<'t> {
        Attribute {
            name: arena.name(node.name),
            name_span: node.name_span,
            expression: Expression::new(arena, &node.expression),
        }
    }
}

/// A block, or a one-line block.
///
/// ```ebnf
/// Block        = Identifier (StringLit|Identifier)* "{" Newline Body "}" Newline;
/// OneLineBlock = Identifier (StringLit|Identifier)* "{" (Identifier "=" Expression)? "}" Newline;
/// ```
///
/// Spec: hclsyntax-spec.md § Blocks
#[derive(Clone, Copy, Debug)]
pub struct Block<'t> {
    pub type_name: &'t str,
    pub type_span: Span,
    pub labels: Nodes<'t, node::Label>,
    pub body: Body<'t>,
}

impl Viewed for node::Block {
    type View<'t> = Block<'t>;

    fn view<'t>(arena: &'t Arena, node: &'t Self) -> Block<'t> {
        Block {
            type_name: arena.name(node.type_name),
            type_span: node.type_span,
            labels: Nodes::new(arena, node.labels),
            body: Body::new(arena, &node.body),
        }
    }
}

/// "Block labels can either be quoted literal strings or naked
/// identifiers."
///
/// Spec: hclsyntax-spec.md § Blocks
#[derive(Clone, Copy, Debug)]
pub struct Label<'t> {
    /// The label's text, escapes decoded.
    pub value: &'t str,
    /// Whether the label was written as a quoted string literal.
    pub quoted: bool,
    pub span: Span,
}

impl Viewed for node::Label {
    type View<'t> = Label<'t>;

    fn view<'t>(arena: &'t Arena, node: &'t Self) -> Label<'t> {
        Label {
            value: arena.text(node.value),
            quoted: node.quoted,
            span: node.span,
        }
    }
}
