//! The syntax tree of the native syntax: configuration files, expressions
//! and templates, as the parser builds them and the evaluator reads them.
//!
//! Spec: hclsyntax-spec.md § Structural Elements, § Expressions, § Templates
//!
//! Readers see the tree through *views*, one per production, named after
//! it and holding the parts the production names: an [`Expression`] has a
//! [`kind`](Expression::kind), a [`BinaryOperation`] its `operator`, `left`
//! and `right`, a [`FunctionCall`] its `name` and `arguments`, a [`Body`]
//! its `attributes` and `blocks`. A view is a pair of references, copied
//! freely and valid as long as its tree; lists of parts ([`Nodes`]) are
//! iterated like slices. By section: `structure` (§ Structural Elements),
//! `expression` (§ Expressions and its terms), `operation` (§ Operations,
//! § Conditional Operator), `template` (§ Templates).
//!
//! How the tree is stored ([`node`]: an arena of small nodes, interned
//! names, one string of literal text) is this module's business and the
//! parser's tree builder's, never the readers'.

pub mod node;

mod expression;
mod operation;
mod structure;
mod template;

pub use expression::*;
pub use operation::*;
pub use structure::*;
pub use template::*;

use node::{Arena, List, ListItem};

/// A node kind that has a view.
pub trait Viewed: Sized {
    /// The view of a node of this kind.
    type View<'t>
    where
        Self: 't;

    /// The view of `node`, a node of `arena`.
    fn view<'t>(arena: &'t Arena, node: &'t Self) -> Self::View<'t>;
}

/// A list of parts of a tree (the elements of a tuple, the attributes of a
/// body...), seen as views.
pub struct Nodes<'t, N> {
    arena: &'t Arena,
    nodes: &'t [N],
}

/// The expressions of a list: the elements of a tuple, the arguments of a
/// call.
pub type Expressions<'t> = Nodes<'t, node::Expression>;

impl<N> Clone for Nodes<'_, N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<N> Copy for Nodes<'_, N> {}

impl<'t, N: Viewed + ListItem> Nodes<'t, N> {
    pub(in crate::native) fn new(arena: &'t Arena, list: List<N>) -> Nodes<'t, N> {
        Nodes {
            arena,
            nodes: arena.list(list),
        }
    }
}

impl<'t, N: Viewed> Nodes<'t, N> {
    pub fn len(self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(self) -> bool {
        self.nodes.is_empty()
    }

    /// The part at `index`.
    pub fn get(self, index: usize) -> Option<N::View<'t>> {
        self.nodes.get(index).map(|n| N::view(self.arena, n))
    }

    pub fn first(self) -> Option<N::View<'t>> {
        self.get(0)
    }

    pub fn last(self) -> Option<N::View<'t>> {
        self.nodes.last().map(|n| N::view(self.arena, n))
    }

    pub fn iter(self) -> NodesIter<'t, N> {
        NodesIter {
            arena: self.arena,
            nodes: self.nodes.iter(),
        }
    }
}

impl<'t, N: Viewed> IntoIterator for Nodes<'t, N> {
    type Item = N::View<'t>;
    type IntoIter = NodesIter<'t, N>;

    fn into_iter(self) -> NodesIter<'t, N> {
        self.iter()
    }
}

impl<N: Viewed> std::fmt::Debug for Nodes<'_, N>
where
    N: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.nodes).finish()
    }
}

/// The views of a list of parts, in order.
pub struct NodesIter<'t, N> {
    arena: &'t Arena,
    nodes: std::slice::Iter<'t, N>,
}

impl<'t, N: Viewed> Iterator for NodesIter<'t, N> {
    type Item = N::View<'t>;

    #[inline]
    fn next(&mut self) -> Option<N::View<'t>> {
        self.nodes.next().map(|n| N::view(self.arena, n))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.nodes.size_hint()
    }
}

impl<N: Viewed> ExactSizeIterator for NodesIter<'_, N> {}
