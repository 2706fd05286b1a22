//! Template directives: `if` and `for`, read as markers, then matched
//! into nested directives.
//!
//! Spec: hclsyntax-spec.md § Template If Directive, § Template For Directive

use super::super::expression::parse_expression;
use super::super::term::parse_for_variables;
use super::super::Parser;
use super::{close_sequence, End, Item, Sequence, Strip};
use crate::native::ast::{
    Expression, Identifier, List, Template, TemplateFor, TemplateIf, TemplatePart,
};
use crate::native::lexer::{Token, TokenKind};
use crate::source::Span;
use crate::native::Problem;

/// Parses a directive marker, its opener consumed.
///
/// ```ebnf
/// ("%{" | "%{~") "if" Expression ("}" | "~}")
/// ("%{" | "%{~") "else" ("}" | "~}")
/// ("%{" | "%{~") "endif" ("}" | "~}")
/// ("%{" | "%{~") "for" Identifier ("," Identifier) "in" Expression ("}" | "~}")
/// ("%{" | "%{~") "endfor" ("}" | "~}")
/// ```
///
/// The `for` directive takes one or two names, as the `for` expression
/// does. SPEC-GAP(spec-notes/gaps/template-grammar-typos.md)
///
/// Spec: hclsyntax-spec.md § Template If Directive, § Template For Directive
pub(super) fn parse_directive(p: &mut Parser, opener: Token, strip: bool) -> Result<Item, Problem> {
    let saved = p.skip_newlines();
    {
        let keyword = p.peek();
        if keyword.kind != TokenKind::Identifier {
            return Err(p.unexpected(
                keyword,
                "Invalid template directive",
                "A template directive keyword (\"if\", \"else\", \"endif\", \"for\", \"endfor\") is expected at the beginning of a %{ sequence.",
            ));
        }
        p.next();
        enum Kind {
            If(Expression),
            Else,
            EndIf,
            For(Option<Identifier>, Identifier, Expression),
            EndFor,
        }
        let kind = match p.text(keyword) {
            "if" => Kind::If(parse_expression(p)?),
            "else" => Kind::Else,
            "endif" => Kind::EndIf,
            "endfor" => Kind::EndFor,
            "for" => {
                let (key_var, value_var) = parse_for_variables(p, "directive")?;
                Kind::For(key_var, value_var, parse_expression(p)?)
            }
            other => {
                return Err(Problem::new(
                    keyword.span,
                    "Invalid template control keyword",
                    format!("{other:?} is not a template control keyword: the keywords are \"if\", \"else\", \"endif\", \"for\" and \"endfor\"."),
                ))
            }
        };
        let what = Sequence::Directive(p.text(keyword));
        let after = close_sequence(p, opener, End::File, what)?;
        p.restore_newlines(saved);
        let span = opener.span.to(p.previous().span);
        let strip = Strip {
            before: strip,
            after,
        };
        Ok(match kind {
            Kind::If(condition) => Item::If {
                condition,
                span,
                strip,
            },
            Kind::Else => Item::Else { span, strip },
            Kind::EndIf => Item::EndIf { span, strip },
            Kind::For(key_var, value_var, collection) => Item::For {
                key_var,
                value_var,
                collection,
                span,
                strip,
            },
            Kind::EndFor => Item::EndFor { span, strip },
        })
    }
}

/// A directive whose body is being read.
enum OpenDirective {
    If {
        condition: Expression,
        span: Span,
        /// The parts of the `then` branch once `else` has been seen.
        then_parts: Option<(List<TemplatePart>, Span)>,
        /// Where the parts of its body start on the parser's stack of
        /// template parts.
        base: usize,
    },
    For {
        key_var: Option<Identifier>,
        value_var: Identifier,
        collection: Expression,
        span: Span,
        base: usize,
    },
}

/// Step 4: matches directive markers into nested directives.
///
/// The parts of the template, and of each directive's body, are gathered
/// on the parser's stack of template parts, and each body is moved into a
/// list of the tree when its directive ends (so an enclosing body's parts
/// are below it on the stack).
///
/// Spec: hclsyntax-spec.md § Template If Directive, § Template For Directive
pub(super) fn build_template(
    p: &mut Parser,
    items: &mut Vec<Item>,
    span: Span,
    end_span: Span,
) -> Result<Template, Problem> {
    let mut stack: Vec<OpenDirective> = Vec::new();
    let template_base = p.template_parts.len();
    let mut body_start = span.start;
    for item in items.drain(..) {
        match item {
            Item::Literal { text, span } => {
                p.template_parts.push(TemplatePart::Literal { text, span })
            }
            Item::Interpolation { interpolation, .. } => p
                .template_parts
                .push(TemplatePart::Interpolation(interpolation)),
            Item::If {
                condition, span, ..
            } => {
                stack.push(OpenDirective::If {
                    condition,
                    span,
                    then_parts: None,
                    base: p.template_parts.len(),
                });
                body_start = span.end;
            }
            Item::For {
                key_var,
                value_var,
                collection,
                span,
                ..
            } => {
                stack.push(OpenDirective::For {
                    key_var,
                    value_var,
                    collection,
                    span,
                    base: p.template_parts.len(),
                });
                body_start = span.end;
            }
            Item::Else { span, .. } => match stack.last_mut() {
                Some(OpenDirective::If {
                    then_parts: then_parts @ None,
                    base,
                    ..
                }) => {
                    let parts = p.arena.add_list(p.template_parts.drain(*base..));
                    *then_parts = Some((
                        parts,
                        Span {
                            start: body_start,
                            end: span.start,
                        },
                    ));
                    body_start = span.end;
                }
                Some(OpenDirective::If { .. }) => {
                    return Err(Problem::new(
                        span,
                        "Unexpected else directive",
                        "Already in the else clause of this if directive.",
                    ))
                }
                _ => return Err(unexpected_directive(span, "else", &stack)),
            },
            Item::EndIf { span: end, .. } => match stack.pop() {
                Some(OpenDirective::If {
                    condition,
                    span,
                    then_parts,
                    base,
                }) => {
                    let body = Template {
                        parts: p.arena.add_list(p.template_parts.drain(base..)),
                        span: Span {
                            start: body_start,
                            end: end.start,
                        },
                    };
                    let (then_template, else_template) = match then_parts {
                        Some((then_parts, then_span)) => (
                            Template {
                                parts: then_parts,
                                span: then_span,
                            },
                            body,
                        ),
                        None => (
                            body,
                            Template {
                                parts: List::empty(),
                                span: Span {
                                    start: end.start,
                                    end: end.start,
                                },
                            },
                        ),
                    };
                    let directive = p.arena.add(TemplateIf {
                        condition,
                        then_template,
                        else_template,
                        span: span.to(end),
                    });
                    p.template_parts.push(TemplatePart::If(directive));
                    body_start = end.end;
                }
                other => {
                    stack.extend(other);
                    return Err(unexpected_directive(end, "endif", &stack));
                }
            },
            Item::EndFor { span: end, .. } => match stack.pop() {
                Some(OpenDirective::For {
                    key_var,
                    value_var,
                    collection,
                    span,
                    base,
                }) => {
                    let body = Template {
                        parts: p.arena.add_list(p.template_parts.drain(base..)),
                        span: Span {
                            start: body_start,
                            end: end.start,
                        },
                    };
                    let directive = p.arena.add(TemplateFor {
                        key_var,
                        value_var,
                        collection,
                        body,
                        span: span.to(end),
                    });
                    p.template_parts.push(TemplatePart::For(directive));
                    body_start = end.end;
                }
                other => {
                    stack.extend(other);
                    return Err(unexpected_directive(end, "endfor", &stack));
                }
            },
        }
    }
    if let Some(open) = stack.last() {
        let (keyword, closing) = match open {
            OpenDirective::If { .. } => ("if", "endif"),
            OpenDirective::For { .. } => ("for", "endfor"),
        };
        return Err(Problem::new(
            end_span,
            "Unexpected end of template",
            format!("The {keyword} directive is missing its corresponding {closing} directive."),
        ));
    }
    let parts = p.arena.add_list(p.template_parts.drain(template_base..));
    Ok(Template { parts, span })
}

/// An `else`, `endif` or `endfor` that does not match the open directive.
fn unexpected_directive(span: Span, keyword: &str, stack: &[OpenDirective]) -> Problem {
    let detail = match stack.last() {
        Some(OpenDirective::If { .. }) => "Expecting an endif directive for the open if directive.",
        Some(OpenDirective::For { .. }) => {
            "Expecting an endfor directive for the open for directive."
        }
        None => "The control directives within this template are unbalanced.",
    };
    Problem::new(span, format!("Unexpected {keyword} directive"), detail)
}
