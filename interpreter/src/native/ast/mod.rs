//! The syntax tree of the native syntax: configuration files, expressions
//! and templates, as the parser builds them and the evaluator reads them.
//!
//! Spec: hclsyntax-spec.md § Structural Elements, § Expressions, § Templates
//!
//! By section: `structure` (§ Structural Elements), `expression`
//! (§ Expressions and its terms), `operation` (§ Operations, § Conditional
//! Operator), `template` (§ Templates).
//!
//! Every node keeps the `Span` of the source it was read from. An
//! [`Expression`] holds its span and, for most kinds, the [`Id`] of a node
//! in the tree's [`Arena`], one list per kind of node; the elements of a
//! tuple, the arguments of a call, the items of an object and the parts of
//! a template are [`List`]s, runs of one long list of the arena. A tree is
//! a few long lists rather than a heap allocation per node, so that building it
//! costs little, dropping it is flat (no recursion, whatever the nesting)
//! and quick, and it takes little memory. The text of every template
//! literal is in one string of the arena too. Identifiers are [`Name`]s,
//! one shared copy per distinct name.

mod expression;
mod operation;
mod structure;
mod template;

pub use expression::*;
pub use operation::*;
pub use structure::*;
pub use template::*;

use std::marker::PhantomData;

/// The place of a node of type `T` in its tree's [`Arena`].
pub struct Id<T> {
    index: usize,
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

impl Arena {
    /// Adds a node, and returns its place.
    pub fn add<T: Node>(&mut self, node: T) -> Id<T> {
        let list = T::list_mut(self);
        list.push(node);
        Id {
            index: list.len() - 1,
            kind: PhantomData,
        }
    }

    /// Moves `items` into a list of the arena, and returns its place.
    pub fn add_list<T: ListItem>(&mut self, items: impl IntoIterator<Item = T>) -> List<T> {
        let all = T::lists_mut(self);
        let start = all.len();
        all.extend(items);
        List {
            start: start as u32,
            len: (all.len() - start) as u32,
            kind: PhantomData,
        }
    }

    /// The text of a template literal.
    pub fn text(&self, range: TextRange) -> &str {
        self.text.get(range.start..range.end).unwrap_or("")
    }
}

impl<T: Node> std::ops::Index<Id<T>> for Arena {
    type Output = T;

    fn index(&self, id: Id<T>) -> &T {
        &T::list(self)[id.index]
    }
}

/// A list of nodes of type `T`: a run of its tree's [`Arena`]. (A tree
/// has fewer than 2^32 nodes: each takes at least a byte of the source.)
pub struct List<T> {
    start: u32,
    len: u32,
    kind: PhantomData<fn() -> T>,
}

impl<T> List<T> {
    /// The empty list.
    pub fn empty() -> List<T> {
        List {
            start: 0,
            len: 0,
            kind: PhantomData,
        }
    }

    pub fn len(self) -> usize {
        self.len as usize
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
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

impl<T: ListItem> std::ops::Index<List<T>> for Arena {
    type Output = [T];

    fn index(&self, list: List<T>) -> &[T] {
        let start = list.start as usize;
        &T::lists(self)[start..start + list.len as usize]
    }
}

/// A kind of node kept in the [`List`]s of an [`Arena`].
pub trait ListItem: Sized {
    fn lists(arena: &Arena) -> &Vec<Self>;
    fn lists_mut(arena: &mut Arena) -> &mut Vec<Self>;
}

/// A kind of node kept in an [`Arena`].
pub trait Node: Sized {
    fn list(arena: &Arena) -> &Vec<Self>;
    fn list_mut(arena: &mut Arena) -> &mut Vec<Self>;
}

/// Declares the [`Arena`]: a list for each kind of node and each kind of
/// list item, the [`Node`] and [`ListItem`] implementations that find
/// them, and [`Arena::shrink_to_fit`], so that each kind is named once.
macro_rules! arena {
    (
        nodes { $($node:ty => $nodes:ident),* $(,)? }
        lists { $($item:ty => $items:ident),* $(,)? }
    ) => {
        /// The nodes of a syntax tree, one list per kind, and the text of its
        /// template literals.
        #[derive(Debug, Default)]
        pub struct Arena {
            $($nodes: Vec<$node>,)*
            $($items: Vec<$item>,)*
            /// The text of every template literal, one after another (see
            /// [`TextRange`]).
            pub(crate) text: String,
        }

        impl Arena {
            /// Gives back the room the lists grew into but did not use
            /// (once the tree is complete).
            pub fn shrink_to_fit(&mut self) {
                $(self.$nodes.shrink_to_fit();)*
                $(self.$items.shrink_to_fit();)*
                self.text.shrink_to_fit();
            }
        }

        $(
            impl Node for $node {
                fn list(arena: &Arena) -> &Vec<Self> {
                    &arena.$nodes
                }
                fn list_mut(arena: &mut Arena) -> &mut Vec<Self> {
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
    nodes {
        Literal => literals,
        Variable => variables,
        Tuple => tuples,
        Object => objects,
        Template => templates,
        FunctionCall => calls,
        ForExpr => fors,
        Index => indexes,
        GetAttr => get_attrs,
        Splat => splats,
        Parenthesized => parenthesized,
        UnaryOperation => unary,
        BinaryOperation => binary,
        Conditional => conditionals,
        TemplateIf => template_ifs,
        TemplateFor => template_fors,
    }
    lists {
        Expression => expression_lists,
        ObjectItem => object_item_lists,
        TemplatePart => template_part_lists,
    }
}
