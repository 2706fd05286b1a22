//! Template directives: `if` and `for`, read as markers, then matched
//! into nested directives.
//!
//! Spec: hclsyntax-spec.md § Template If Directive, § Template For Directive

use super::super::builder::OpenList;
use super::super::expression::parse_expression;
use super::super::term::parse_for_variables;
use super::super::Parser;
use super::{close_sequence, End, Item, Items, Sequence, Strip};
use crate::diagnostic::quoted;
use crate::native::ast::node::{
    Expression, Identifier, List, Template, TemplateFor, TemplateIf, TemplatePart,
};
use crate::native::lexer::{Token, TokenKind};
use crate::native::Problem;
use crate::source::Span;

/// The opening marker of a directive: `%{ if ... }` or `%{ for ... }`.
pub(super) enum Opening {
    If {
        condition: Expression,
        span: Span,
    },
    For {
        key_var: Option<Identifier>,
        value_var: Identifier,
        collection: Expression,
        span: Span,
    },
}

impl Opening {
    pub(super) fn span(&self) -> Span {
        match self {
            Opening::If { span, .. } | Opening::For { span, .. } => *span,
        }
    }
}

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
///
/// The expression and variables of an opening marker are added to
/// `openings`; its item holds its index there.
pub(super) fn parse_directive(
    p: &mut Parser,
    opener: Token,
    strip: bool,
    openings: &mut Vec<Opening>,
) -> Result<Item, Problem> {
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
                    format!("{} is not a template control keyword: the keywords are \"if\", \"else\", \"endif\", \"for\" and \"endfor\".", quoted(other)),
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
        let mut open = |opening: Opening| {
            openings.push(opening);
            Item::Open {
                opening: (openings.len() - 1) as u32,
                strip,
            }
        };
        Ok(match kind {
            Kind::If(condition) => open(Opening::If { condition, span }),
            Kind::Else => Item::Else { span, strip },
            Kind::EndIf => Item::EndIf { span, strip },
            Kind::For(key_var, value_var, collection) => open(Opening::For {
                key_var,
                value_var,
                collection,
                span,
            }),
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
        /// The parts of the branch being read.
        parts: OpenList<TemplatePart>,
    },
    For {
        key_var: Option<Identifier>,
        value_var: Identifier,
        collection: Expression,
        span: Span,
        parts: OpenList<TemplatePart>,
    },
}

/// Step 4: matches directive markers into nested directives.
///
/// A template without directives is its items, literals and
/// interpolations, as they are. Otherwise the parts of the template, and
/// of each directive's body, are gathered as lists of the tree being
/// built, a directive's body closing when its directive ends.
///
/// Spec: hclsyntax-spec.md § Template If Directive, § Template For Directive
pub(super) fn build_template(
    p: &mut Parser,
    items: Items,
    span: Span,
    end_span: Span,
) -> Result<Template, Problem> {
    if !items.markers {
        let parts = p.tree.close_list_as(items.list, |item| match item {
            Item::Literal { text, span } => Some(TemplatePart::Literal { text, span }),
            Item::Interpolation { expression, .. } => Some(TemplatePart::Interpolation(expression)),
            _ => None,
        });
        return Ok(Template { parts, span });
    }
    let mut openings = items.openings.into_iter();
    let mut stack: Vec<OpenDirective> = Vec::new();
    let template = p.tree.open_list();
    let mut body_start = span.start;
    let mut next = 0;
    while let Some(item) = p.tree.item(&items.list, next) {
        next += 1;
        match item {
            Item::Literal { text, span } => p.tree.push(TemplatePart::Literal { text, span }),
            Item::Interpolation { expression, .. } => {
                p.tree.push(TemplatePart::Interpolation(expression))
            }
            Item::Open { .. } => {
                let Some(opening) = openings.next() else {
                    continue;
                };
                body_start = opening.span().end;
                let parts = p.tree.open_list();
                stack.push(match opening {
                    Opening::If { condition, span } => OpenDirective::If {
                        condition,
                        span,
                        then_parts: None,
                        parts,
                    },
                    Opening::For {
                        key_var,
                        value_var,
                        collection,
                        span,
                    } => OpenDirective::For {
                        key_var,
                        value_var,
                        collection,
                        span,
                        parts,
                    },
                });
            }
            Item::Else { span, .. } => match stack.last_mut() {
                Some(OpenDirective::If {
                    then_parts: then_parts @ None,
                    parts,
                    ..
                }) => {
                    let then_list = p.tree.close_list(*parts);
                    *parts = p.tree.open_list();
                    *then_parts = Some((
                        then_list,
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
                    parts,
                }) => {
                    let body = Template {
                        parts: p.tree.close_list(parts),
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
                    let directive = p.tree.add(TemplateIf {
                        condition,
                        then_template,
                        else_template,
                        span: span.to(end),
                    });
                    p.tree.push(TemplatePart::If(directive));
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
                    parts,
                }) => {
                    let body = Template {
                        parts: p.tree.close_list(parts),
                        span: Span {
                            start: body_start,
                            end: end.start,
                        },
                    };
                    let directive = p.tree.add(TemplateFor {
                        key_var,
                        value_var,
                        collection,
                        body,
                        span: span.to(end),
                    });
                    p.tree.push(TemplatePart::For(directive));
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
    p.tree.discard(items.list);
    let parts = p.tree.close_list(template);
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
