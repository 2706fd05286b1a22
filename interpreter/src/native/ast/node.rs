//! How a syntax tree is stored: small nodes in the lists of an [`Arena`],
//! referring to one another by index.
//!
//! A tree is a few long vectors rather than a heap allocation per node:
//! building it costs little, dropping it is flat (no recursion, whatever
//! the nesting) and quick, and it takes little room. An [`Expression`] is
//! 16 bytes: its span and its kind, which holds the index of its node (or,
//! for the smallest kinds, the whole of it: a name, a compact number, a
//! keyword). A name is an index into one table of the distinct names; the
//! text of template literals and block labels is a range of one string.
//!
//! The parser's tree builder (`parser::builder`) is the only writer of
//! these nodes and the views of [`super`] their only readers: grammar
//! functions and the evaluator name neither an index nor a list.

use super::{BinaryOperator, SplatKind, UnaryOperator};
use crate::number::CompactNumber;
use crate::source::Span;
use crate::value::Value;
use std::marker::PhantomData;

/// The place of a node of type `T` in its tree's [`Arena`]. (A tree has
/// fewer than 2^32 nodes: each takes at least a byte of the source.)
pub struct Id<T> {
    pub(in crate::native) index: u32,
    kind: PhantomData<fn() -> T>,
}

impl<T> Clone for Id<T> {
    fn clone(&self) -> Id<T> {
        *self
    }
}

impl<T> Copy for Id<T> {}

impl<T> std::fmt::Debug for Id<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.index)
    }
}

/// A list of nodes of type `T`: a run of one long list of its tree's
/// [`Arena`].
pub struct List<T> {
    pub(in crate::native) start: u32,
    pub(in crate::native) len: u32,
    kind: PhantomData<fn() -> T>,
}

impl<T> List<T> {
    /// The empty list.
    pub(in crate::native) fn empty() -> List<T> {
        List {
            start: 0,
            len: 0,
            kind: PhantomData,
        }
    }
}

impl<T> Clone for List<T> {
    fn clone(&self) -> List<T> {
        *self
    }
}

impl<T> Copy for List<T> {}

impl<T> std::fmt::Debug for List<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}+{}", self.start, self.len)
    }
}

/// An identifier's text: the index of one of the tree's distinct names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Name(pub(in crate::native) u32);

/// Where a piece of text is in its tree's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextRange {
    pub(in crate::native) start: u32,
    pub(in crate::native) end: u32,
}

impl TextRange {
    pub(in crate::native) fn new(start: usize, end: usize) -> TextRange {
        TextRange {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The bytes of the tree's text the range covers.
    pub(in crate::native) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// An expression: where it was read from, and what it is.
#[derive(Clone, Copy, Debug)]
pub struct Expression {
    pub(in crate::native) kind: ExpressionKind,
    pub(in crate::native) span: Span,
}

impl Expression {
    /// The source the expression was read from.
    pub(in crate::native) fn span(&self) -> Span {
        self.span
    }
}

/// The kinds of expression; each names its node, or holds it when it fits.
#[derive(Clone, Copy, Debug)]
pub enum ExpressionKind {
    /// A numeric literal of a number that fits in four bytes.
    Number(CompactNumber),
    /// Any other numeric literal.
    Literal(Id<Value>),
    True,
    False,
    Null,
    Tuple(Id<Tuple>),
    Object(Id<Object>),
    Template(Id<Template>),
    Variable(Name),
    FunctionCall(Id<FunctionCall>),
    For(Id<ForExpr>),
    Index(Id<Index>),
    GetAttr(Id<GetAttr>),
    Splat(Id<Splat>),
    SplatItem,
    Parenthesized(Id<Expression>),
    Unary(Id<UnaryOperation>),
    Binary(Id<BinaryOperation>),
    Conditional(Id<Conditional>),
}

#[derive(Debug)]
pub struct Tuple {
    pub(in crate::native) elements: List<Expression>,
}

#[derive(Debug)]
pub struct Object {
    pub(in crate::native) items: List<ObjectItem>,
}

#[derive(Debug)]
pub struct ObjectItem {
    pub(in crate::native) key: ObjectKey,
    pub(in crate::native) value: Expression,
}

#[derive(Debug)]
pub enum ObjectKey {
    Name { name: Name, span: Span },
    Expression(Expression),
}

#[derive(Clone, Copy, Debug)]
pub struct Template {
    pub(in crate::native) parts: List<TemplatePart>,
    pub(in crate::native) span: Span,
}

#[derive(Clone, Copy, Debug)]
pub enum TemplatePart {
    Literal { text: TextRange, span: Span },
    Interpolation(Expression),
    If(Id<TemplateIf>),
    For(Id<TemplateFor>),
}

#[derive(Clone, Copy, Debug)]
pub struct Identifier {
    pub(in crate::native) name: Name,
    pub(in crate::native) span: Span,
}

#[derive(Debug)]
pub struct FunctionCall {
    pub(in crate::native) name: Name,
    pub(in crate::native) name_span: Span,
    pub(in crate::native) arguments: List<Expression>,
    pub(in crate::native) expand_final: bool,
    pub(in crate::native) open_span: Span,
    pub(in crate::native) close_paren_span: Span,
}

#[derive(Debug)]
pub struct ForExpr {
    pub(in crate::native) key_var: Option<Identifier>,
    pub(in crate::native) value_var: Identifier,
    pub(in crate::native) collection: Expression,
    pub(in crate::native) key: Option<Expression>,
    pub(in crate::native) value: Expression,
    pub(in crate::native) grouping: bool,
    pub(in crate::native) condition: Option<Expression>,
}

#[derive(Debug)]
pub struct Index {
    pub(in crate::native) collection: Expression,
    pub(in crate::native) key: Expression,
    pub(in crate::native) legacy: bool,
    pub(in crate::native) operator_span: Span,
}

#[derive(Debug)]
pub struct GetAttr {
    pub(in crate::native) object: Expression,
    pub(in crate::native) name: Name,
    pub(in crate::native) operator_span: Span,
}

#[derive(Debug)]
pub struct Splat {
    pub(in crate::native) kind: SplatKind,
    pub(in crate::native) source: Expression,
    pub(in crate::native) each: Expression,
    pub(in crate::native) marker_span: Span,
}

#[derive(Debug)]
pub struct UnaryOperation {
    pub(in crate::native) operator: UnaryOperator,
    pub(in crate::native) operand: Expression,
}

#[derive(Debug)]
pub struct BinaryOperation {
    pub(in crate::native) operator: BinaryOperator,
    pub(in crate::native) left: Expression,
    pub(in crate::native) right: Expression,
}

#[derive(Debug)]
pub struct Conditional {
    pub(in crate::native) predicate: Expression,
    pub(in crate::native) true_result: Expression,
    pub(in crate::native) false_result: Expression,
}

#[derive(Debug)]
pub struct TemplateIf {
    pub(in crate::native) condition: Expression,
    pub(in crate::native) then_template: Template,
    pub(in crate::native) else_template: Template,
    pub(in crate::native) span: Span,
}

#[derive(Debug)]
pub struct TemplateFor {
    pub(in crate::native) key_var: Option<Identifier>,
    pub(in crate::native) value_var: Identifier,
    pub(in crate::native) collection: Expression,
    pub(in crate::native) body: Template,
    pub(in crate::native) span: Span,
}

#[derive(Clone, Copy, Debug)]
pub struct ConfigFile {
    pub(in crate::native) body: Body,
}

#[derive(Clone, Copy, Debug)]
pub struct Body {
    pub(in crate::native) attributes: List<Attribute>,
    pub(in crate::native) blocks: List<Block>,
    pub(in crate::native) span: Span,
}

#[derive(Clone, Copy, Debug)]
pub struct Attribute {
    pub(in crate::native) name: Name,
    pub(in crate::native) name_span: Span,
    pub(in crate::native) expression: Expression,
}

#[derive(Clone, Copy, Debug)]
pub struct Block {
    pub(in crate::native) type_name: Name,
    pub(in crate::native) type_span: Span,
    pub(in crate::native) labels: List<Label>,
    pub(in crate::native) body: Body,
}

#[derive(Clone, Copy, Debug)]
pub struct Label {
    pub(in crate::native) value: TextRange,
    pub(in crate::native) quoted: bool,
    pub(in crate::native) span: Span,
}

/// A kind of node kept in an [`Arena`], found by [`Id`].
pub trait Node: Sized {
    fn nodes(arena: &Arena) -> &Vec<Self>;
    fn nodes_mut(arena: &mut Arena) -> &mut Vec<Self>;
}

/// A kind of node kept in the [`List`]s of an [`Arena`].
pub trait ListItem: Sized {
    fn lists(arena: &Arena) -> &Vec<Self>;
    fn lists_mut(arena: &mut Arena) -> &mut Vec<Self>;
}

/// A node that is the whole of an expression: storing it gives the
/// expression's kind.
pub trait ExpressionNode: Node {
    fn kind(id: Id<Self>) -> ExpressionKind;
}

impl Arena {
    /// Adds a node, and returns its place.
    pub(in crate::native) fn add<T: Node>(&mut self, node: T) -> Id<T> {
        let nodes = T::nodes_mut(self);
        nodes.push(node);
        Id {
            index: (nodes.len() - 1) as u32,
            kind: PhantomData,
        }
    }

    /// Moves `items` into a list of the arena, and returns its place.
    pub(in crate::native) fn add_list<T: ListItem>(
        &mut self,
        items: impl IntoIterator<Item = T>,
    ) -> List<T> {
        let all = T::lists_mut(self);
        let start = all.len();
        all.extend(items);
        List {
            start: start as u32,
            len: (all.len() - start) as u32,
            kind: PhantomData,
        }
    }

    /// The node at `id`.
    pub(in crate::native) fn node<T: Node>(&self, id: Id<T>) -> &T {
        &T::nodes(self)[id.index as usize]
    }

    /// The nodes of `list`.
    pub(in crate::native) fn list<T: ListItem>(&self, list: List<T>) -> &[T] {
        let start = list.start as usize;
        &T::lists(self)[start..start + list.len as usize]
    }

    /// The text of a name.
    pub(in crate::native) fn name(&self, name: Name) -> &str {
        &self.names[name.0 as usize]
    }

    /// A piece of the tree's text.
    pub(in crate::native) fn text(&self, range: TextRange) -> &str {
        self.text.get(range.range()).unwrap_or("")
    }
}

/// Declares the [`Arena`]: a vector for each kind of node and each kind of
/// list item, and the [`Node`], [`ListItem`] and [`ExpressionNode`]
/// implementations that find them, so that each kind is named once.
macro_rules! arena {
    (
        expressions { $($expression:ident => $expressions:ident,)* }
        nodes { $($node:ty => $nodes:ident,)* }
        lists { $($item:ty => $items:ident,)* }
    ) => {
        /// The nodes of a syntax tree, one vector per kind, its distinct
        /// names, and the text of its template literals and labels.
        #[derive(Debug, Default)]
        pub struct Arena {
            $($expressions: Vec<$expression>,)*
            $($nodes: Vec<$node>,)*
            $($items: Vec<$item>,)*
            pub(in crate::native) names: Vec<Box<str>>,
            pub(in crate::native) text: String,
        }

        impl Arena {
            /// Gives back the room the vectors grew into but did not use
            /// (once the tree is complete).
            pub(in crate::native) fn shrink_to_fit(&mut self) {
                $(self.$expressions.shrink_to_fit();)*
                $(self.$nodes.shrink_to_fit();)*
                $(self.$items.shrink_to_fit();)*
                self.names.shrink_to_fit();
                self.text.shrink_to_fit();
            }
        }

        $(
            impl Node for $expression {
                fn nodes(arena: &Arena) -> &Vec<Self> {
                    &arena.$expressions
                }
                fn nodes_mut(arena: &mut Arena) -> &mut Vec<Self> {
                    &mut arena.$expressions
                }
            }

            impl ExpressionNode for $expression {
                fn kind(id: Id<Self>) -> ExpressionKind {
                    ExpressionKind::$expression(id)
                }
            }
        )*

        $(
            impl Node for $node {
                fn nodes(arena: &Arena) -> &Vec<Self> {
                    &arena.$nodes
                }
                fn nodes_mut(arena: &mut Arena) -> &mut Vec<Self> {
                    &mut arena.$nodes
                }
            }
        )*

        $(
            impl ListItem for $item {
                fn lists(arena: &Arena) -> &Vec<Self> {
                    &arena.$items
                }
                fn lists_mut(arena: &mut Arena) -> &mut Vec<Self> {
                    &mut arena.$items
                }
            }
        )*
    };
}

arena! {
    expressions {
        Tuple => tuples,
        Object => objects,
        Template => templates,
        FunctionCall => calls,
        Index => indexes,
        GetAttr => get_attrs,
        Splat => splats,
        Conditional => conditionals,
    }
    nodes {
        Value => literals,
        Expression => parenthesized,
        ForExpr => fors,
        UnaryOperation => unary,
        BinaryOperation => binary,
        TemplateIf => template_ifs,
        TemplateFor => template_fors,
    }
    lists {
        Expression => expression_lists,
        ObjectItem => object_items,
        TemplatePart => template_parts,
        Attribute => attributes,
        Block => blocks,
        Label => labels,
    }
}

/// The other expression nodes, whose kind is not named after the node.
macro_rules! expression_kinds {
    ($($node:ty => $kind:ident,)*) => {
        $(
            impl ExpressionNode for $node {
                fn kind(id: Id<Self>) -> ExpressionKind {
                    ExpressionKind::$kind(id)
                }
            }
        )*
    };
}

expression_kinds! {
    Value => Literal,
    Expression => Parenthesized,
    ForExpr => For,
    UnaryOperation => Unary,
    BinaryOperation => Binary,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes the memory figures of interpreter/PERFORMANCE.md rest on.
    #[test]
    fn expressions_and_template_parts_are_small() {
        assert_eq!(std::mem::size_of::<Expression>(), 16);
        assert_eq!(std::mem::size_of::<Option<Expression>>(), 16);
        assert!(std::mem::size_of::<TemplatePart>() <= 20);
    }

    /// A list of parts says how many it holds, and whether it holds none.
    #[test]
    fn node_lists_know_their_length() {
        use crate::native::ast::expression::ExpressionKind;
        for (source, len) in [("[]", 0), ("[1, 2]", 2)] {
            let parsed = crate::native::parse_expression(source).unwrap();
            let ExpressionKind::Tuple(tuple) = parsed.tree().kind() else {
                panic!("{source} is a tuple constructor");
            };
            assert_eq!(tuple.elements.len(), len, "{source}");
            assert_eq!(tuple.elements.is_empty(), len == 0, "{source}");
        }
    }
}
