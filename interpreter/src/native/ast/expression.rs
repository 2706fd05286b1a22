//! The syntax tree of expressions and their terms.
//!
//! Spec: hclsyntax-spec.md § Expressions

use super::{BinaryOperation, Conditional, Template, UnaryOperation};
use crate::native::source::Span;
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
pub enum Expression {
    /// `NumericLit`, `true`, `false`, `null`.
    Literal(Box<Literal>),
    /// A numeric literal whose value is an integer in the range of `i64`:
    /// the common case, held without a box (one allocation fewer each).
    SmallInteger(SmallInteger),
    /// `[a, b]`.
    Tuple(Box<Tuple>),
    /// `{a = 1}`.
    Object(Box<Object>),
    /// A quoted or heredoc template expression.
    Template(Box<Template>),
    /// A variable expression: small and common, so held without a box.
    Variable(Variable),
    FunctionCall(Box<FunctionCall>),
    For(Box<ForExpr>),
    /// `collection[key]`, and the legacy `collection.0`.
    Index(Box<Index>),
    /// `object.name`.
    GetAttr(Box<GetAttr>),
    /// `source.*.name` and `source[*].name[0]`.
    Splat(Box<Splat>),
    /// Inside a [`Splat`]'s `each` traversal: the element being visited.
    SplatItem(Span),
    /// `(expression)`.
    Parenthesized(Box<Parenthesized>),
    /// `-a`, `!a`.
    Unary(Box<UnaryOperation>),
    /// `a + b` and the other binary operators.
    Binary(Box<BinaryOperation>),
    /// `predicate ? a : b`.
    Conditional(Box<Conditional>),
}

impl Expression {
    /// The source the expression was read from.
    pub fn span(&self) -> Span {
        match self {
            Expression::Literal(e) => e.span,
            Expression::SmallInteger(e) => e.span,
            Expression::Tuple(e) => e.span,
            Expression::Object(e) => e.span,
            Expression::Template(e) => e.span,
            Expression::Variable(e) => e.span,
            Expression::FunctionCall(e) => e.span,
            Expression::For(e) => e.span,
            Expression::Index(e) => e.span,
            Expression::GetAttr(e) => e.span,
            Expression::Splat(e) => e.span,
            Expression::SplatItem(span) => *span,
            Expression::Parenthesized(e) => e.span,
            Expression::Unary(e) => e.span,
            Expression::Binary(e) => e.span,
            Expression::Conditional(e) => e.span,
        }
    }
}

impl Expression {
    /// Where the expression starts, as hashicorp/hcl's `StartRange`
    /// reports it for an erroneous function argument: a collection
    /// constructor or a `for` expression by its opening delimiter, a
    /// function call by its name and opening parenthesis, an index with a
    /// computed key by its `[`, a splat by its marker, a unary operation by
    /// its operator, a binary operation or a conditional by where its first
    /// operand starts; anything else by its whole span.
    pub fn start_span(&self) -> Span {
        let mut expression = self;
        loop {
            let opening = |span: Span| Span::new(span.start, (span.start + 1).min(span.end));
            return match expression {
                Expression::Tuple(e) => opening(e.span),
                Expression::Object(e) => opening(e.span),
                Expression::For(e) => opening(e.span),
                Expression::FunctionCall(e) => e.open_span,
                Expression::Index(e)
                    if !e.legacy
                        && !matches!(
                            e.key,
                            Expression::Literal(_) | Expression::SmallInteger(_)
                        ) =>
                {
                    opening(e.operator_span)
                }
                Expression::Splat(e) => e.marker_span,
                Expression::Unary(e) => opening(e.span),
                Expression::Binary(e) => {
                    expression = &e.left;
                    continue;
                }
                Expression::Conditional(e) => {
                    expression = &e.predicate;
                    continue;
                }
                Expression::Parenthesized(e) => {
                    expression = &e.expression;
                    continue;
                }
                other => other.span(),
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

/// A numeric literal that is an integer in the range of `i64`: the value
/// of `Value::Number(Number::from_i64(value))`.
///
/// Spec: hclsyntax-spec.md § Literal Values
#[derive(Debug)]
pub struct SmallInteger {
    pub value: i64,
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
    pub elements: Vec<Expression>,
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
    pub items: Vec<ObjectItem>,
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
    pub span: Span,
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
    pub arguments: Vec<Expression>,
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
/// [`Expression::SplatItem`]: the traversal that is applied to every
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
