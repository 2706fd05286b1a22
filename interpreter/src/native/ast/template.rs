//! Templates.
//!
//! Spec: hclsyntax-spec.md § Templates

use super::node::{self, Arena};
use super::{Expression, Identifier, Nodes, Viewed};
use crate::source::Span;

/// A template: literal text, interpolations and directives.
///
/// ```ebnf
/// Template = (
///     TemplateLiteral |
///     TemplateInterpolation |
///     TemplateDirective
/// )*
/// TemplateDirective = TemplateIf | TemplateFor;
/// ```
///
/// Strip markers and the flush heredoc rule have already been applied to
/// the literals; adjacent literal text is one literal.
///
/// Spec: hclsyntax-spec.md § Templates, § Template Expressions
#[derive(Clone, Copy, Debug)]
pub struct Template<'t> {
    pub parts: Nodes<'t, node::TemplatePart>,
    pub span: Span,
}

impl<'t> Template<'t> {
    pub(in crate::native) fn new(arena: &'t Arena, template: &'t node::Template) -> Template<'t> {
        Template {
            parts: Nodes::new(arena, template.parts),
            span: template.span,
        }
    }

    /// The expression of a template that "consists only of a single
    /// interpolation, with no surrounding literals, directives or other
    /// interpolations".
    ///
    /// Spec: hclsyntax-spec.md § Template Interpolation Unwrapping
    pub fn single_interpolation(self) -> Option<Expression<'t>> {
        match self.parts.len() {
            1 => match self.parts.first() {
                Some(TemplatePart::Interpolation(expression)) => Some(expression),
                _ => None,
            },
            _ => None,
        }
    }
}

/// One element of a template.
#[derive(Clone, Copy, Debug)]
pub enum TemplatePart<'t> {
    /// Literal text, escapes decoded.
    Literal {
        text: &'t str,
        span: Span,
    },
    /// An interpolation sequence: its expression.
    ///
    /// ```ebnf
    /// TemplateInterpolation = ("${" | "${~") Expression ("}" | "~}";
    /// ```
    ///
    /// Spec: hclsyntax-spec.md § Template Interpolations
    Interpolation(Expression<'t>),
    If(TemplateIf<'t>),
    For(TemplateFor<'t>),
}

impl Viewed for node::TemplatePart {
    type View<'t> = TemplatePart<'t>;

    #[inline]
    fn view<'t>(arena: &'t Arena, node: &'t Self) -> TemplatePart<'t> {
        match node {
            node::TemplatePart::Literal { text, span } => TemplatePart::Literal {
                text: arena.text(*text),
                span: *span,
            },
            node::TemplatePart::Interpolation(expression) => {
                TemplatePart::Interpolation(Expression::new(arena, expression))
            }
            node::TemplatePart::If(id) => {
                let directive = arena.node(*id);
                TemplatePart::If(TemplateIf {
                    condition: Expression::new(arena, &directive.condition),
                    then_template: Template::new(arena, &directive.then_template),
                    else_template: Template::new(arena, &directive.else_template),
                    span: directive.span,
                })
            }
            node::TemplatePart::For(id) => {
                let directive = arena.node(*id);
                TemplatePart::For(TemplateFor {
                    key_var: directive.key_var.map(|i| Identifier::new(arena, i)),
                    value_var: Identifier::new(arena, directive.value_var),
                    collection: Expression::new(arena, &directive.collection),
                    body: Template::new(arena, &directive.body),
                    span: directive.span,
                })
            }
        }
    }
}

/// The `if` directive.
///
/// ```ebnf
/// TemplateIf = (
///     ("%{" | "%{~") "if" Expression ("}" | "~}")
///     Template
///     (
///         ("%{" | "%{~") "else" ("}" | "~}")
///         Template
///     )?
///     ("%{" | "%{~") "endif" ("}" | "~}")
/// );
/// ```
///
/// Spec: hclsyntax-spec.md § Template If Directive
#[derive(Clone, Copy, Debug)]
pub struct TemplateIf<'t> {
    pub condition: Expression<'t>,
    pub then_template: Template<'t>,
    /// Empty when the `else` clause is omitted: "the conditional's third
    /// expression result is implied to be the empty string".
    pub else_template: Template<'t>,
    pub span: Span,
}

/// The `for` directive.
///
/// ```ebnf
/// TemplateFor = (
///     ("%{" | "%{~") "for" Identifier ("," Identifier) "in" Expression ("}" | "~}")
///     Template
///     ("%{" | "%{~") "endfor" ("}" | "~}")
/// );
/// ```
///
/// Spec: hclsyntax-spec.md § Template For Directive
#[derive(Clone, Copy, Debug)]
pub struct TemplateFor<'t> {
    pub key_var: Option<Identifier<'t>>,
    pub value_var: Identifier<'t>,
    pub collection: Expression<'t>,
    pub body: Template<'t>,
    pub span: Span,
}
