//! The syntax tree of expressions and their terms.
//!
//! Spec: hclsyntax-spec.md § Expressions

use super::{Arena, BinaryOperation, Conditional, Id, List, Template, UnaryOperation};
use crate::source::Span;
use crate::value::Value;

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
#[derive(Debug)]
pub struct Expression {
    pub kind: ExpressionKind,
    /// The source the expression was read from.
    pub span: Span,
}

/// The kinds of expression: each a node of the tree's [`Arena`] but the
/// smallest, held in place. (A name is a node too, so that an expression is
/// three words.)
#[derive(Debug)]
pub enum ExpressionKind {
    /// `NumericLit`, `true`, `false`, `null`.
    Literal(Id<Literal>),
    /// A numeric literal whose value is an integer in the range of `i64`:
    /// the common case, held in place.
    SmallInteger(i64),
    /// `[a, b]`.
    Tuple(Id<Tuple>),
    /// `{a = 1}`.
    Object(Id<Object>),
    /// A quoted or heredoc template expression.
    Template(Id<Template>),
    Variable(Id<Variable>),
    FunctionCall(Id<FunctionCall>),
    For(Id<ForExpr>),
    /// `collection[key]`, and the legacy `collection.0`.
    Index(Id<Index>),
    /// `object.name`.
    GetAttr(Id<GetAttr>),
    /// `source.*.name` and `source[*].name[0]`.
    Splat(Id<Splat>),
    /// Inside a [`Splat`]'s `each` traversal: the element being visited.
    SplatItem,
    /// `(expression)`.
    Parenthesized(Id<Parenthesized>),
    /// `-a`, `!a`.
    Unary(Id<UnaryOperation>),
    /// `a + b` and the other binary operators.
    Binary(Id<BinaryOperation>),
    /// `predicate ? a : b`.
    Conditional(Id<Conditional>),
}

impl Expression {
    pub fn new(kind: ExpressionKind, span: Span) -> Expression {
        Expression { kind, span }
    }

    /// The source the expression was read from.
    pub fn span(&self) -> Span {
        self.span
    }

    /// Where the expression starts, as hashicorp/hcl's `StartRange`
    /// reports it for an erroneous function argument: a collection
    /// constructor or a `for` expression by its opening delimiter, a
    /// function call by its name and opening parenthesis, an index with a
    /// computed key by its `[`, a splat by its marker, a unary operation by
    /// its operator, a binary operation or a conditional by where its first
    /// operand starts; anything else by its whole span.
    pub fn start_span(&self, arena: &Arena) -> Span {
        let mut expression = self;
        loop {
            let opening = |span: Span| Span {
                end: (span.start + 1).min(span.end),
                ..span
            };
            return match &expression.kind {
                ExpressionKind::Tuple(_) | ExpressionKind::Object(_) | ExpressionKind::For(_) => {
                    opening(expression.span)
                }
                ExpressionKind::FunctionCall(e) => arena[*e].open_span,
                ExpressionKind::Index(e)
                    if !arena[*e].legacy
                        && !matches!(
                            arena[*e].key.kind,
                            ExpressionKind::Literal(_) | ExpressionKind::SmallInteger(_)
                        ) =>
                {
                    opening(arena[*e].operator_span)
                }
                ExpressionKind::Splat(e) => arena[*e].marker_span,
                ExpressionKind::Unary(_) => opening(expression.span),
                ExpressionKind::Binary(e) => {
                    expression = &arena[*e].left;
                    continue;
                }
                ExpressionKind::Conditional(e) => {
                    expression = &arena[*e].predicate;
                    continue;
                }
                ExpressionKind::Parenthesized(e) => {
                    expression = &arena[*e].expression;
                    continue;
                }
                _ => expression.span,
            };
        }
    }
}

/// A literal value.
///
/// ```ebnf
/// LiteralValue = (
///   NumericLit |
///   "true" |
///   "false" |
///   "null"
/// );
/// ```
///
/// Spec: hclsyntax-spec.md § Literal Values
#[derive(Debug)]
pub struct Literal {
    pub value: Value,
    pub span: Span,
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
#[derive(Debug)]
pub struct Tuple {
    pub elements: List<Expression>,
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
#[derive(Debug)]
pub struct Object {
    pub items: List<ObjectItem>,
    pub span: Span,
}

/// One `key = value` element of an object constructor.
#[derive(Debug)]
pub struct ObjectItem {
    pub key: ObjectKey,
    pub value: Expression,
}

/// The key of an object constructor element.
///
/// Spec: hclsyntax-spec.md § Collection Values
#[derive(Debug)]
pub enum ObjectKey {
    /// "an identifier is interpreted as a literal attribute name as opposed
    /// to a variable reference".
    Name { name: Name, span: Span },
    /// Any other expression, evaluated to a string.
    Expression(Expression),
}

impl ObjectKey {
    pub fn span(&self) -> Span {
        match self {
            ObjectKey::Name { span, .. } => *span,
            ObjectKey::Expression(e) => e.span(),
        }
    }
}

/// The text of an identifier. A configuration repeats its names (`var`,
/// `name`, `count`...), so the parser keeps one copy of each and shares it.
pub type Name = std::sync::Arc<str>;

/// A name and where it was written.
#[derive(Debug, Clone)]
pub struct Identifier {
    pub name: Name,
    pub span: Span,
}

/// A variable expression.
///
/// ```ebnf
/// VariableExpr = Identifier;
/// ```
///
/// Spec: hclsyntax-spec.md § Variables and Variable Expressions
#[derive(Debug)]
pub struct Variable {
    pub name: Name,
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
/// Spec: hclsyntax-spec.md § Functions and Function Calls
#[derive(Debug)]
pub struct FunctionCall {
    pub name: Name,
    pub name_span: Span,
    pub arguments: List<Expression>,
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
#[derive(Debug)]
pub struct ForExpr {
    pub key_var: Option<Identifier>,
    pub value_var: Identifier,
    pub collection: Expression,
    /// The attribute name expression of the object form; `None` for the
    /// tuple form.
    pub key: Option<Expression>,
    pub value: Expression,
    /// The grouping `...` of the object form.
    pub grouping: bool,
    pub condition: Option<Expression>,
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
#[derive(Debug)]
pub struct Index {
    pub collection: Expression,
    pub key: Expression,
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
#[derive(Debug)]
pub struct GetAttr {
    pub object: Expression,
    pub name: Name,
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
#[derive(Debug)]
pub struct Splat {
    pub kind: SplatKind,
    pub source: Expression,
    pub each: Expression,
    /// The `.*` or `[*]`.
    pub marker_span: Span,
    pub span: Span,
}

/// Parentheses around an expression.
///
/// Spec: hclsyntax-spec.md § Expression Terms
#[derive(Debug)]
pub struct Parenthesized {
    pub expression: Expression,
    pub span: Span,
}
