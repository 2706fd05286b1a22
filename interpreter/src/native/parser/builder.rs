//! The tree builder: where the parser puts what it reads.
//!
//! Grammar functions hand the builder finished nodes and the items of
//! lists; it stores them as the tree's arena wants them ([`node`]), so
//! that the grammar functions read like the grammar:
//!
//! - a node becomes an expression with [`TreeBuilder::expression`];
//! - a list (the elements of a tuple, the items of an object, the
//!   attributes of a body...) is read between [`TreeBuilder::open_list`]
//!   and [`TreeBuilder::close_list`], its items [`push`]ed one by one. The
//!   items wait on a scratch stack, one per kind of item, a nested list
//!   above the list around it, and move into one list of the arena, of
//!   exactly their number, when the list closes: no vector grows one item
//!   at a time in the tree, and none keeps spare room;
//! - identifiers are interned, one copy of each distinct name;
//! - the text of template literals and labels goes into one string.
//!
//! Lists must be closed in the reverse order of their opening, as the
//! grammar nests them.
//!
//! [`push`]: TreeBuilder::push

use super::NameHasher;
use crate::native::ast::node::{
    self, Arena, Attribute, ExpressionKind, ExpressionNode, Id, List, ListItem, Name, Node,
    TextRange,
};
use crate::native::lexer::decode_escape;
use crate::source::Span;
use crate::value::Value;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::marker::PhantomData;

/// The builder of one tree.
pub(crate) struct TreeBuilder<'s> {
    arena: Arena,
    /// The names read so far, one copy of each: most are text of the
    /// source, a namespaced function name made of several identifiers is
    /// not.
    names: HashMap<Cow<'s, str>, Name, NameHasher>,
    /// The scratch stacks of the lists being read.
    expressions: Vec<node::Expression>,
    object_items: Vec<node::ObjectItem>,
    template_parts: Vec<node::TemplatePart>,
    attributes: Vec<node::Attribute>,
    blocks: Vec<node::Block>,
    labels: Vec<node::Label>,
    template_items: Vec<super::template::item::Item>,
}

/// A list being read: where its items start on their scratch stack.
pub(crate) struct OpenList<T> {
    base: usize,
    kind: PhantomData<fn() -> T>,
}

impl<T> Clone for OpenList<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for OpenList<T> {}

/// A kind of item read onto a scratch stack of the builder.
pub(crate) trait Scratch: Sized {
    fn stack<'a>(builder: &'a mut TreeBuilder<'_>) -> &'a mut Vec<Self>;
    fn stack_ref<'a>(builder: &'a TreeBuilder<'_>) -> &'a Vec<Self>;
}

macro_rules! scratch {
    ($($item:ty => $stack:ident,)*) => {
        $(
            impl Scratch for $item {
                fn stack<'a>(builder: &'a mut TreeBuilder<'_>) -> &'a mut Vec<Self> {
                    &mut builder.$stack
                }
                fn stack_ref<'a>(builder: &'a TreeBuilder<'_>) -> &'a Vec<Self> {
                    &builder.$stack
                }
            }
        )*
    };
}

scratch! {
    node::Expression => expressions,
    node::ObjectItem => object_items,
    node::TemplatePart => template_parts,
    node::Attribute => attributes,
    node::Block => blocks,
    node::Label => labels,
    super::template::item::Item => template_items,
}

/// Up to how many attributes a body is scanned for a name; past them, the
/// names are hashed.
const SCANNED_ATTRIBUTES: usize = 16;

/// A body being read: its attribute and block lists, and the names of its
/// attributes once there are too many to scan.
pub(crate) struct OpenBody {
    attributes: OpenList<Attribute>,
    blocks: OpenList<node::Block>,
    names: HashSet<Name, NameHasher>,
}

impl<'s> TreeBuilder<'s> {
    pub(crate) fn new() -> TreeBuilder<'s> {
        TreeBuilder {
            arena: Arena::default(),
            names: HashMap::default(),
            expressions: Vec::new(),
            object_items: Vec::new(),
            template_parts: Vec::new(),
            attributes: Vec::new(),
            blocks: Vec::new(),
            labels: Vec::new(),
            template_items: Vec::new(),
        }
    }

    /// The finished tree's nodes.
    pub(crate) fn finish(mut self) -> Arena {
        self.arena.shrink_to_fit();
        self.arena
    }

    /// Stores a node, and returns the expression that it is.
    #[inline]
    pub(crate) fn expression<N: ExpressionNode>(
        &mut self,
        node: N,
        span: Span,
    ) -> node::Expression {
        node::Expression {
            kind: N::kind(self.arena.add(node)),
            span,
        }
    }

    /// Stores a node that is part of another (a template directive).
    pub(crate) fn add<N: Node>(&mut self, node: N) -> Id<N> {
        self.arena.add(node)
    }

    /// The expression of a literal value.
    pub(crate) fn literal(&mut self, value: Value, span: Span) -> node::Expression {
        let kind = match &value {
            Value::Bool(true) => ExpressionKind::True,
            Value::Bool(false) => ExpressionKind::False,
            Value::Null(crate::types::Type::Dynamic) => ExpressionKind::Null,
            Value::Number(n) => match n.to_compact() {
                Some(compact) => ExpressionKind::Number(compact),
                None => ExpressionKind::Literal(self.arena.add(value)),
            },
            _ => ExpressionKind::Literal(self.arena.add(value)),
        };
        node::Expression { kind, span }
    }

    /// The expression of a variable.
    pub(crate) fn variable(&mut self, name: &'s str, span: Span) -> node::Expression {
        node::Expression {
            kind: ExpressionKind::Variable(self.name(name)),
            span,
        }
    }

    /// The element a splat's traversal is applied to.
    pub(crate) fn splat_item(&self, span: Span) -> node::Expression {
        node::Expression {
            kind: ExpressionKind::SplatItem,
            span,
        }
    }

    /// The name an identifier spells, shared with its other occurrences.
    #[inline]
    pub(crate) fn name(&mut self, text: &'s str) -> Name {
        // Most names are seen before: a lookup, cheaper than `entry`.
        if let Some(name) = self.names.get(text) {
            return *name;
        }
        let name = Name(self.arena.names.len() as u32);
        self.arena.names.push(text.into());
        self.names.insert(Cow::Borrowed(text), name);
        name
    }

    /// The name of identifiers joined by `::` (`core::upper`, however
    /// spaced in the source), shared with its other occurrences.
    pub(crate) fn joined_name(&mut self, parts: &[&'s str], separator: &str) -> Name {
        if let [one] = parts {
            return self.name(one);
        }
        let text = parts.join(separator);
        if let Some(name) = self.names.get(text.as_str()) {
            return *name;
        }
        let name = Name(self.arena.names.len() as u32);
        self.arena.names.push(text.as_str().into());
        self.names.insert(Cow::Owned(text), name);
        name
    }

    /// An identifier: its name, and where it was written.
    pub(crate) fn identifier(&mut self, text: &'s str, span: Span) -> node::Identifier {
        node::Identifier {
            name: self.name(text),
            span,
        }
    }

    /// Starts a list of items of kind `T`.
    #[inline]
    pub(crate) fn open_list<T: Scratch>(&self) -> OpenList<T> {
        OpenList {
            base: T::stack_ref(self).len(),
            kind: PhantomData,
        }
    }

    /// Adds an item to the innermost open list of its kind.
    #[inline]
    pub(crate) fn push<T: Scratch>(&mut self, item: T) {
        T::stack(self).push(item);
    }

    /// Ends a list: its items move into a list of the tree.
    pub(crate) fn close_list<T: Scratch + ListItem>(&mut self, list: OpenList<T>) -> List<T> {
        let mut stack = std::mem::take(T::stack(self));
        let items = self.arena.add_list(stack.drain(list.base..));
        *T::stack(self) = stack;
        items
    }

    /// Ends a list whose items become items of a list of another kind in
    /// the tree, those `convert` keeps.
    pub(crate) fn close_list_as<S: Scratch, T: ListItem>(
        &mut self,
        list: OpenList<S>,
        convert: impl FnMut(S) -> Option<T>,
    ) -> List<T> {
        let mut stack = std::mem::take(S::stack(self));
        T::lists_mut(&mut self.arena).reserve(stack.len() - list.base);
        let items = self
            .arena
            .add_list(stack.drain(list.base..).filter_map(convert));
        *S::stack(self) = stack;
        items
    }

    /// The item at `index` of an open list.
    pub(crate) fn item<T: Scratch + Copy>(&self, list: &OpenList<T>, index: usize) -> Option<T> {
        T::stack_ref(self).get(list.base + index).copied()
    }

    /// Drops an open list and its items.
    pub(crate) fn discard<T: Scratch>(&mut self, list: OpenList<T>) {
        T::stack(self).truncate(list.base);
    }

    /// The items of a template being read, with the tree's literal text,
    /// for its literals to be trimmed.
    pub(crate) fn template_items_with_text(
        &mut self,
        list: &OpenList<super::template::item::Item>,
    ) -> (&mut [super::template::item::Item], &mut String) {
        (&mut self.template_items[list.base..], &mut self.arena.text)
    }

    /// The length of the tree's literal text so far: where the next piece
    /// starts.
    pub(crate) fn text_len(&self) -> usize {
        self.arena.text.len()
    }

    /// Appends literal text.
    pub(crate) fn push_text(&mut self, text: &str) {
        self.arena.text.push_str(text);
    }

    /// Appends the character an escape sequence stands for.
    pub(crate) fn push_escape(&mut self, escape: &str) {
        decode_escape(escape, &mut self.arena.text);
    }

    /// The text appended since `start`.
    pub(crate) fn text_since(&self, start: usize) -> TextRange {
        TextRange::new(start, self.arena.text.len())
    }

    /// Starts a body.
    pub(crate) fn open_body(&self) -> OpenBody {
        OpenBody {
            attributes: self.open_list(),
            blocks: self.open_list(),
            names: HashSet::default(),
        }
    }

    /// Whether the body being read already has an attribute of this name.
    pub(crate) fn defines(&self, body: &mut OpenBody, name: Name) -> bool {
        let defined = &self.attributes[body.attributes.base..];
        if defined.len() < SCANNED_ATTRIBUTES {
            return defined.iter().any(|a| a.name == name);
        }
        if body.names.is_empty() {
            body.names.extend(defined.iter().map(|a| a.name));
        }
        body.names.contains(&name)
    }

    /// Adds an attribute to the body being read.
    pub(crate) fn add_attribute(&mut self, body: &mut OpenBody, attribute: Attribute) {
        if !body.names.is_empty() {
            body.names.insert(attribute.name);
        }
        self.attributes.push(attribute);
    }

    /// Ends a body.
    pub(crate) fn close_body(&mut self, body: OpenBody, span: Span) -> node::Body {
        node::Body {
            attributes: self.close_list(body.attributes),
            blocks: self.close_list(body.blocks),
            span,
        }
    }
}
