//! Template directives: `if` and `for`, read as markers, then matched
//! into nested directives by a recursive descent over the markers, one
//! function to a production of the grammar.
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

/// Step 4: the template's parts, its directive markers matched into
/// nested directives.
///
/// A template without directives is its items, literals and
/// interpolations, as they are. Otherwise it is read by recursive descent,
/// one function to a production:
///
/// ```ebnf
/// Template = (TemplateLiteral | TemplateInterpolation | TemplateDirective)*;
/// TemplateDirective = TemplateIf | TemplateFor;
/// ```
///
/// The recursion is bounded: [`super::collect_items`] counted every open
/// directive as one level of the parser's nesting, so it goes no deeper
/// than the nesting limit allowed.
///
/// Spec: hclsyntax-spec.md § Templates, § Template If Directive,
/// § Template For Directive
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
    let mut reader = Reader {
        list: items.list,
        next: 0,
        openings: items.openings.into_iter(),
        after_marker: span.start,
        end_span,
    };
    let template = parse_parts(p, &mut reader)?;
    if let Some(misplaced) = template.marker.keyword() {
        return Err(unexpected_directive(template.marker_span, misplaced, None));
    }
    p.tree.discard(reader.list);
    Ok(Template {
        parts: template.parts,
        span,
    })
}

/// The items of a template with directives, read in order.
struct Reader {
    list: OpenList<Item>,
    /// The index of the next item.
    next: usize,
    /// The openings of the directives, in the order of their markers.
    openings: std::vec::IntoIter<Opening>,
    /// Where the last directive marker read ends: a body closed next spans
    /// from there to its closing marker.
    after_marker: u32,
    /// The template's end, where a directive left open is reported.
    end_span: Span,
}

/// What ends a sequence of template parts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Marker {
    Else,
    EndIf,
    EndFor,
    /// The end of the template.
    End,
}

impl Marker {
    /// The keyword of a directive marker.
    fn keyword(self) -> Option<&'static str> {
        match self {
            Marker::Else => Some("else"),
            Marker::EndIf => Some("endif"),
            Marker::EndFor => Some("endfor"),
            Marker::End => None,
        }
    }
}

/// A sequence of template parts, and the marker that ended it.
struct Parts {
    parts: List<TemplatePart>,
    /// From the end of the directive marker read before the ending one to
    /// the start of the ending one.
    span: Span,
    marker: Marker,
    marker_span: Span,
}

impl Parts {
    fn template(&self) -> Template {
        Template {
            parts: self.parts,
            span: self.span,
        }
    }
}

/// The kind of an open directive, for messages.
#[derive(Clone, Copy)]
enum Directive {
    If,
    For,
}

/// Reads template parts up to the first `else`, `endif` or `endfor`
/// marker, or the end of the template: a `Template` of the grammar, its
/// directives read whole.
///
/// Spec: hclsyntax-spec.md § Templates
fn parse_parts(p: &mut Parser, reader: &mut Reader) -> Result<Parts, Problem> {
    let parts = p.tree.open_list();
    let (marker, marker_span) = loop {
        let Some(item) = p.tree.item(&reader.list, reader.next) else {
            break (Marker::End, reader.end_span);
        };
        reader.next += 1;
        let part = match item {
            Item::Literal { text, span } => TemplatePart::Literal { text, span },
            Item::Interpolation { expression, .. } => TemplatePart::Interpolation(expression),
            Item::Open { .. } => match reader.openings.next() {
                Some(opening) => parse_template_directive(p, reader, opening)?,
                None => continue,
            },
            Item::Else { span, .. } => break (Marker::Else, span),
            Item::EndIf { span, .. } => break (Marker::EndIf, span),
            Item::EndFor { span, .. } => break (Marker::EndFor, span),
        };
        p.tree.push(part);
    };
    let span = Span {
        start: reader.after_marker,
        end: marker_span.start,
    };
    reader.after_marker = marker_span.end;
    Ok(Parts {
        parts: p.tree.close_list(parts),
        span,
        marker,
        marker_span,
    })
}

/// Reads the rest of a directive, its opening marker read.
///
/// ```ebnf
/// TemplateDirective = TemplateIf | TemplateFor;
/// ```
fn parse_template_directive(
    p: &mut Parser,
    reader: &mut Reader,
    opening: Opening,
) -> Result<TemplatePart, Problem> {
    reader.after_marker = opening.span().end;
    match opening {
        Opening::If { condition, span } => parse_if(p, reader, condition, span),
        Opening::For {
            key_var,
            value_var,
            collection,
            span,
        } => parse_for(p, reader, key_var, value_var, collection, span),
    }
}

/// Reads the rest of an `if` directive, its opening marker read: its
/// `then` template, an optional `else` and its template, and `endif`. An
/// omitted `else` template is empty, at the `endif`.
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
fn parse_if(
    p: &mut Parser,
    reader: &mut Reader,
    condition: Expression,
    span: Span,
) -> Result<TemplatePart, Problem> {
    let then = parse_parts(p, reader)?;
    let (else_template, end) = match then.marker {
        Marker::Else => {
            let otherwise = parse_parts(p, reader)?;
            match otherwise.marker {
                Marker::EndIf => (otherwise.template(), otherwise.marker_span),
                Marker::Else => {
                    return Err(Problem::new(
                        otherwise.marker_span,
                        "Unexpected else directive",
                        "Already in the else clause of this if directive.",
                    ))
                }
                _ => return Err(misplaced(&otherwise, Directive::If)),
            }
        }
        Marker::EndIf => {
            let empty = Template {
                parts: List::empty(),
                span: Span {
                    start: then.marker_span.start,
                    end: then.marker_span.start,
                },
            };
            (empty, then.marker_span)
        }
        _ => return Err(misplaced(&then, Directive::If)),
    };
    let directive = p.tree.add(TemplateIf {
        condition,
        then_template: then.template(),
        else_template,
        span: span.to(end),
    });
    Ok(TemplatePart::If(directive))
}

/// Reads the rest of a `for` directive, its opening marker read: its body
/// template, and `endfor`.
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
fn parse_for(
    p: &mut Parser,
    reader: &mut Reader,
    key_var: Option<Identifier>,
    value_var: Identifier,
    collection: Expression,
    span: Span,
) -> Result<TemplatePart, Problem> {
    let body = parse_parts(p, reader)?;
    if body.marker != Marker::EndFor {
        return Err(misplaced(&body, Directive::For));
    }
    let directive = p.tree.add(TemplateFor {
        key_var,
        value_var,
        collection,
        body: body.template(),
        span: span.to(body.marker_span),
    });
    Ok(TemplatePart::For(directive))
}

/// The error of parts of an open directive that ended with a marker
/// that does not belong to it, or with the end of the template.
fn misplaced(parts: &Parts, open: Directive) -> Problem {
    match parts.marker.keyword() {
        Some(keyword) => unexpected_directive(parts.marker_span, keyword, Some(open)),
        None => {
            let (keyword, closing) = match open {
                Directive::If => ("if", "endif"),
                Directive::For => ("for", "endfor"),
            };
            Problem::new(
                parts.marker_span,
                "Unexpected end of template",
                format!(
                    "The {keyword} directive is missing its corresponding {closing} directive."
                ),
            )
        }
    }
}

/// An `else`, `endif` or `endfor` that does not match the open directive.
fn unexpected_directive(span: Span, keyword: &str, open: Option<Directive>) -> Problem {
    let detail = match open {
        Some(Directive::If) => "Expecting an endif directive for the open if directive.",
        Some(Directive::For) => "Expecting an endfor directive for the open for directive.",
        None => "The control directives within this template are unbalanced.",
    };
    Problem::new(span, format!("Unexpected {keyword} directive"), detail)
}
