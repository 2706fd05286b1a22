//! The elements of a template before its directives are matched.
//!
//! Spec: hclsyntax-spec.md § Templates

use crate::native::ast::node::{Expression, TextRange};
use crate::source::Span;

/// The strip markers of a sequence: `~` after its opening `{` strips the
/// literal before it, `~` before its closing `}` the literal after it.
#[derive(Clone, Copy, Default)]
pub(in crate::native::parser) struct Strip {
    pub before: bool,
    pub after: bool,
}

/// A template element before directives are matched: literals,
/// interpolations, and the markers of directives (an opening one's
/// expression is in the template's list of openings).
#[derive(Clone, Copy)]
pub(in crate::native::parser) enum Item {
    /// Literal text: a range of the tree's text.
    Literal {
        text: TextRange,
        span: Span,
    },
    Interpolation {
        expression: Expression,
        strip: Strip,
    },
    /// `%{ if ... }` or `%{ for ... }`: the index of its opening.
    Open {
        opening: u32,
        strip: Strip,
    },
    Else {
        span: Span,
        strip: Strip,
    },
    EndIf {
        span: Span,
        strip: Strip,
    },
    EndFor {
        span: Span,
        strip: Strip,
    },
}

impl Item {
    pub(super) fn strip(&self) -> Strip {
        match self {
            Item::Literal { .. } => Strip::default(),
            Item::Interpolation { strip, .. }
            | Item::Open { strip, .. }
            | Item::Else { strip, .. }
            | Item::EndIf { strip, .. }
            | Item::EndFor { strip, .. } => *strip,
        }
    }
}
