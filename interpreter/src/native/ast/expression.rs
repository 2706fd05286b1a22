//! Expressions and their terms.
//!
//! Spec: hclsyntax-spec.md § Expressions

use super::node::{self, Arena, ExpressionKind as Stored};
use super::{BinaryOperation, Conditional, Expressions, Nodes, Template, UnaryOperation, Viewed};
use crate::source::Span;
use crate::types::Type;
use crate::value::Value;
use std::borrow::Cow;

/// An expression.
///
/// ```ebnf
/// Expression = (
///     ExprTerm |
///     Operation |
///     Conditional
/// );
/// ExprTerm = (
///     LiteralValue |
///     CollectionValue |
///     TemplateExpr |
///     VariableExpr |
///     FunctionCall |
///     ForExpr |
///     ExprTerm Index |
///     ExprTerm GetAttr |
///     ExprTerm Splat |
///     "(" Expression ")"
/// );
/// ```
///
/// Spec: hclsyntax-spec.md § Expressions, § Expression Terms
#[derive(Clone, Copy)]
pub struct Expression<'t> {
    arena: &'t Arena,
    node: &'t node::Expression,
}

/// What an expression is, with its parts.
#[derive(Debug)]
pub enum ExpressionKind<'t> {
    /// `NumericLit`, `true`, `false`, `null`: its value.
    Literal(Cow<'t, Value>),
    /// `[a, b]`.
    Tuple(Tuple<'t>),
    /// `{a = 1}`.
    Object(Object<'t>),
    /// A quoted or heredoc template expression.
    Template(Template<'t>),
    /// A variable expression: the variable's name.
    Variable(&'t str),
    FunctionCall(FunctionCall<'t>),
    For(ForExpr<'t>),
    /// `collection[key]`, and the legacy `collection.0`.
    Index(Index<'t>),
    /// `object.name`.
    GetAttr(GetAttr<'t>),
    /// `source.*.name` and `source[*].name[0]`.
    Splat(Splat<'t>),
    /// Inside a [`Splat`]'s `each` traversal: the element being visited.
    SplatItem,
    /// `(expression)`: the expression inside the parentheses.
    Parenthesized(Expression<'t>),
    /// `-a`, `!a`.
    Unary(UnaryOperation<'t>),
    /// `a + b` and the other binary operators.
    Binary(BinaryOperation<'t>),
    /// `predicate ? a : b`.
    Conditional(Conditional<'t>),
}

/// The values of the keyword literals, lent by every tree.
static TRUE: Value = Value::Bool(true);
static FALSE: Value = Value::Bool(false);
static NULL: Value = Value::Null(Type::Dynamic);

impl<'t> Expression<'t> {
    pub(in crate::native) fn new(arena: &'t Arena, node: &'t node::Expression) -> Expression<'t> {
        Expression { arena, node }
    }

    /// The source the expression was read from.
    #[inline]
    pub fn span(self) -> Span {
        self.node.span
    }

    /// What the expression is.
    ///
    /// Long because it is one match over the 19 kinds of stored expression
    /// node.
    #[inline(always)]
    pub fn kind(self) -> ExpressionKind<'t> {
        let arena = self.arena;
        let span = self.node.span;
        let expression = |node| Expression::new(arena, node);
        match &self.node.kind {
            Stored::Number(n) => ExpressionKind::Literal(Cow::Owned(Value::Number((*n).into()))),
            Stored::Literal(id) => ExpressionKind::Literal(Cow::Borrowed(arena.node(*id))),
            Stored::True => ExpressionKind::Literal(Cow::Borrowed(&TRUE)),
            Stored::False => ExpressionKind::Literal(Cow::Borrowed(&FALSE)),
            Stored::Null => ExpressionKind::Literal(Cow::Borrowed(&NULL)),
            Stored::Tuple(id) => ExpressionKind::Tuple(Tuple {
                elements: Nodes::new(arena, arena.node(*id).elements),
                span,
            }),
            Stored::Object(id) => ExpressionKind::Object(Object {
                items: Nodes::new(arena, arena.node(*id).items),
                span,
            }),
            Stored::Template(id) => ExpressionKind::Template(Template::new(arena, arena.node(*id))),
            Stored::Variable(name) => ExpressionKind::Variable(arena.name(*name)),
            Stored::FunctionCall(id) => {
                let call = arena.node(*id);
                ExpressionKind::FunctionCall(FunctionCall {
                    name: arena.name(call.name),
                    name_span: call.name_span,
                    arguments: Nodes::new(arena, call.arguments),
                    expand_final: call.expand_final,
                    open_span: call.open_span,
                    close_paren_span: call.close_paren_span,
                    span,
                })
            }
            Stored::For(id) => {
                let for_expr = arena.node(*id);
                ExpressionKind::For(ForExpr {
                    key_var: for_expr.key_var.map(|i| Identifier::new(arena, i)),
                    value_var: Identifier::new(arena, for_expr.value_var),
                    collection: expression(&for_expr.collection),
                    key: for_expr.key.as_ref().map(expression),
                    value: expression(&for_expr.value),
                    grouping: for_expr.grouping,
                    condition: for_expr.condition.as_ref().map(expression),
                    span,
                })
            }
            Stored::Index(id) => {
                let index = arena.node(*id);
                ExpressionKind::Index(Index {
                    collection: expression(&index.collection),
                    key: expression(&index.key),
                    legacy: index.legacy,
                    operator_span: index.operator_span,
                    span,
                })
            }
            Stored::GetAttr(id) => {
                let get_attr = arena.node(*id);
                ExpressionKind::GetAttr(GetAttr {
                    object: expression(&get_attr.object),
                    name: arena.name(get_attr.name),
                    operator_span: get_attr.operator_span,
                    span,
                })
            }
            Stored::Splat(id) => {
                let splat = arena.node(*id);
                ExpressionKind::Splat(Splat {
                    kind: splat.kind,
                    source: expression(&splat.source),
                    each: expression(&splat.each),
                    marker_span: splat.marker_span,
                    span,
                })
            }
            Stored::SplatItem => ExpressionKind::SplatItem,
            Stored::Parenthesized(id) => ExpressionKind::Parenthesized(expression(arena.node(*id))),
            Stored::Unary(id) => {
                let operation = arena.node(*id);
                ExpressionKind::Unary(UnaryOperation {
                    operator: operation.operator,
                    operand: expression(&operation.operand),
                    span,
                })
            }
            Stored::Binary(id) => {
                let operation = arena.node(*id);
                ExpressionKind::Binary(BinaryOperation {
                    operator: operation.operator,
                    left: expression(&operation.left),
                    right: expression(&operation.right),
                    span,
                })
            }
            Stored::Conditional(id) => {
                let conditional = arena.node(*id);
                ExpressionKind::Conditional(Conditional {
                    predicate: expression(&conditional.predicate),
                    true_result: expression(&conditional.true_result),
                    false_result: expression(&conditional.false_result),
                    span,
                })
            }
        }
    }

    /// Whether the expression is a literal value.
    pub fn is_literal(self) -> bool {
        matches!(
            self.node.kind,
            Stored::Number(_) | Stored::Literal(_) | Stored::True | Stored::False | Stored::Null
        )
    }

    /// Where the expression starts, as hashicorp/hcl's `StartRange`
    /// reports it for an erroneous function argument: a collection
    /// constructor or a `for` expression by its opening delimiter, a
    /// function call by its name and opening parenthesis, an index with a
    /// computed key by its `[`, a splat by its marker, a unary operation by
    /// its operator, a binary operation or a conditional by where its first
    /// operand starts; anything else by its whole span.
    pub fn start_span(self) -> Span {
        let mut expression = self;
        loop {
            let opening = |span: Span| Span {
                end: (span.start + 1).min(span.end),
                ..span
            };
            return match expression.kind() {
                ExpressionKind::Tuple(_) | ExpressionKind::Object(_) | ExpressionKind::For(_) => {
                    opening(expression.span())
                }
                ExpressionKind::FunctionCall(call) => call.open_span,
                ExpressionKind::Index(index) if !index.legacy && !index.key.is_literal() => {
                    opening(index.operator_span)
                }
                ExpressionKind::Splat(splat) => splat.marker_span,
                ExpressionKind::Unary(_) => opening(expression.span()),
                ExpressionKind::Binary(operation) => {
                    expression = operation.left;
                    continue;
                }
                ExpressionKind::Conditional(conditional) => {
                    expression = conditional.predicate;
                    continue;
                }
                ExpressionKind::Parenthesized(inner) => {
                    expression = inner;
                    continue;
                }
                _ => expression.span(),
            };
        }
    }
}

impl std::fmt::Debug for Expression<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}@{:?}", self.node.kind, self.node.span)
    }
}

impl Viewed for node::Expression {
    type View<'t> = Expression<'t>;

    #[inline]
    fn view<'t>(arena: &'t Arena, node: &'t Self) -> Expression<'t> {
        Expression::new(arena, node)
    }
}

/// A tuple constructor.
///
/// ```ebnf
/// tuple = "[" (
///     (Expression ("," Expression)* ","?)?
/// ) "]";
/// ```
///
/// Spec: hclsyntax-spec.md § Collection Values
#[derive(Clone, Copy, Debug)]
pub struct Tuple<'t> {
    pub elements: Expressions<'t>,
    pub span: Span,
}

/// An object constructor.
///
/// ```ebnf
/// object = "{" (
///     (objectelem ("," objectelem)* ","?)?
/// ) "}";
/// objectelem = (Identifier | Expression) ("=" | ":") Expression;
/// ```
///
/// Spec: hclsyntax-spec.md § Collection Values
#[derive(Clone, Copy, Debug)]
pub struct Object<'t> {
    pub items: Nodes<'t, node::ObjectItem>,
    pub span: Span,
}

/// One `key = value` element of an object constructor.
#[derive(Clone, Copy, Debug)]
pub struct ObjectItem<'t> {
    pub key: ObjectKey<'t>,
    pub value: Expression<'t>,
}

impl Viewed for node::ObjectItem {
    type View<'t> = ObjectItem<'t>;

    fn view<'t>(arena: &'t Arena, node: &'t Self) -> ObjectItem<'t> {
        ObjectItem {
            key: match &node.key {
                node::ObjectKey::Name { name, span } => ObjectKey::Name {
                    name: arena.name(*name),
                    span: *span,
                },
                node::ObjectKey::Expression(key) => {
                    ObjectKey::Expression(Expression::new(arena, key))
                }
            },
            value: Expression::new(arena, &node.value),
        }
    }
}

/// The key of an object constructor element.
///
/// Spec: hclsyntax-spec.md § Collection Values
#[derive(Clone, Copy, Debug)]
pub enum ObjectKey<'t> {
    /// "an identifier is interpreted as a literal attribute name as opposed
    /// to a variable reference".
    Name { name: &'t str, span: Span },
    /// Any other expression, evaluated to a string.
    Expression(Expression<'t>),
}

impl ObjectKey<'_> {
    pub fn span(self) -> Span {
        match self {
            ObjectKey::Name { span, .. } => span,
            ObjectKey::Expression(e) => e.span(),
        }
    }
}

/// A name and where it was written.
#[derive(Clone, Copy, Debug)]
pub struct Identifier<'t> {
    pub name: &'t str,
    pub span: Span,
}

impl<'t> Identifier<'t> {
    pub(in crate::native) fn new(arena: &'t Arena, identifier: node::Identifier) -> Identifier<'t> {
        Identifier {
            name: arena.name(identifier.name),
            span: identifier.span,
        }
    }
}

/// A function call.
///
/// ```ebnf
/// FunctionCall = Identifier "(" arguments ")";
/// Arguments = (
///     () ||
///     (Expression ("," Expression)* ("," | "...")?)
/// );
/// ```
///
/// The name may be namespaced, as in hashicorp/hcl v2.20.1 and later:
/// `Identifier ("::" Identifier)*`.
/// SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
///
/// Spec: hclsyntax-spec.md § Functions and Function Calls
#[derive(Clone, Copy, Debug)]
pub struct FunctionCall<'t> {
    /// The function's name; a namespaced name is its identifiers joined by
    /// `::` (`core::upper`), however the source spaces them.
    pub name: &'t str,
    /// From the name's first identifier to its last.
    pub name_span: Span,
    pub arguments: Expressions<'t>,
    /// Whether the final argument is followed by `...`.
    pub expand_final: bool,
    /// From the name to the opening parenthesis.
    pub open_span: Span,
    pub close_paren_span: Span,
    pub span: Span,
}

/// A `for` expression.
///
/// ```ebnf
/// ForExpr = forTupleExpr | forObjectExpr;
/// forTupleExpr = "[" forIntro Expression forCond? "]";
/// forObjectExpr = "{" forIntro Expression "=>" Expression "..."? forCond? "}";
/// forIntro = "for" Identifier ("," Identifier)? "in" Expression ":";
/// forCond = "if" Expression;
/// ```
///
/// Spec: hclsyntax-spec.md § For Expressions
#[derive(Clone, Copy, Debug)]
pub struct ForExpr<'t> {
    pub key_var: Option<Identifier<'t>>,
    pub value_var: Identifier<'t>,
    pub collection: Expression<'t>,
    /// The attribute name expression of the object form; `None` for the
    /// tuple form.
    pub key: Option<Expression<'t>>,
    pub value: Expression<'t>,
    /// The grouping `...` of the object form.
    pub grouping: bool,
    pub condition: Option<Expression<'t>>,
    pub span: Span,
}

/// The index operator.
///
/// ```ebnf
/// Index = "[" Expression "]";
/// LegacyIndex = '.' digit+
/// ```
///
/// Spec: hclsyntax-spec.md § Index Operator
#[derive(Clone, Copy, Debug)]
pub struct Index<'t> {
    pub collection: Expression<'t>,
    pub key: Expression<'t>,
    /// Written `.0`: "must still be interpreted as an index operation".
    pub legacy: bool,
    /// The brackets and the key (or the dot and the digits).
    pub operator_span: Span,
    pub span: Span,
}

/// The attribute access operator.
///
/// ```ebnf
/// GetAttr = "." Identifier;
/// ```
///
/// Spec: hclsyntax-spec.md § Attribute Access Operator
#[derive(Clone, Copy, Debug)]
pub struct GetAttr<'t> {
    pub object: Expression<'t>,
    pub name: &'t str,
    /// The dot and the name.
    pub operator_span: Span,
    pub span: Span,
}

/// The two splat operators.
///
/// Spec: hclsyntax-spec.md § Splat Operators
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplatKind {
    /// `.*`: "supports only attribute lookups into the elements".
    AttributeOnly,
    /// `[*]`: "additionally supports indexing into the elements".
    Full,
}

/// A splat operator and the traversal it applies to each element.
///
/// ```ebnf
/// Splat = attrSplat | fullSplat;
/// attrSplat = "." "*" GetAttr*;
/// fullSplat = "[" "*" "]" (GetAttr | Index)*;
/// ```
///
/// `each` is an expression whose innermost operand is
/// [`ExpressionKind::SplatItem`]: the traversal that is applied to every
/// element (just `SplatItem` when nothing follows the `*`).
///
/// Spec: hclsyntax-spec.md § Splat Operators
#[derive(Clone, Copy, Debug)]
pub struct Splat<'t> {
    pub kind: SplatKind,
    pub source: Expression<'t>,
    pub each: Expression<'t>,
    /// The `.*` or `[*]`.
    pub marker_span: Span,
    pub span: Span,
}
