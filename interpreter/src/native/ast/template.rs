//! The syntax tree of templates.
//!
//! Spec: hclsyntax-spec.md § Templates

use super::{Arena, Expression, Id, Identifier, List};
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
#[derive(Debug)]
pub struct Template {
    pub parts: List<TemplatePart>,
    pub span: Span,
}

impl Template {
    /// The expression of a template that "consists only of a single
    /// interpolation, with no surrounding literals, directives or other
    /// interpolations".
    ///
    /// Spec: hclsyntax-spec.md § Template Interpolation Unwrapping
    pub fn single_interpolation<'a>(&self, arena: &'a Arena) -> Option<&'a Expression> {
        match &arena[self.parts] {
            [TemplatePart::Interpolation(interpolation)] => Some(&interpolation.expression),
            _ => None,
        }
    }
}

/// Where a literal's text is in its tree's [`super::Arena::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextRange {
    pub start: usize,
    pub end: usize,
}

/// One element of a template.
#[derive(Debug)]
pub enum TemplatePart {
    /// Literal text, escapes decoded: a range of the tree's
    /// [`super::Arena::text`].
    Literal {
        text: TextRange,
        span: Span,
    },
    Interpolation(Interpolation),
    If(Id<TemplateIf>),
    For(Id<TemplateFor>),
}

/// An interpolation sequence.
///
/// ```ebnf
/// TemplateInterpolation = ("${" | "${~") Expression ("}" | "~}";
/// ```
///
/// Spec: hclsyntax-spec.md § Template Interpolations
#[derive(Debug)]
pub struct Interpolation {
    pub expression: Expression,
    pub span: Span,
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
#[derive(Debug)]
pub struct TemplateIf {
    pub condition: Expression,
    pub then_template: Template,
    /// Empty when the `else` clause is omitted: "the conditional's third
    /// expression result is implied to be the empty string".
    pub else_template: Template,
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
#[derive(Debug)]
pub struct TemplateFor {
    pub key_var: Option<Identifier>,
    pub value_var: Identifier,
    pub collection: Expression,
    pub body: Template,
    pub span: Span,
}
