//! The type expressions extension: types written with keywords and calls,
//! read statically from an expression of either syntax.
//!
//! Spec: ext-typeexpr-README.md § HCL Type Expressions Extension
//!
//! > The type syntax is processed statically from a hcl.Expression, so it
//! > cannot use any of the usual language operators.
//!
//! > The extension is built using the `hcl.ExprAsKeyword` and `hcl.ExprCall`
//! > functions, and so it relies on the underlying syntax to define how
//! > "keyword" and "call" are interpreted.
//!
//! The extension sits above both syntaxes and reads their expressions
//! through the static analyses of spec.md § Static Analysis only
//! ([`StaticExpression`](crate::static_analysis::StaticExpression)):
//!
//! - `syntax`: § Type Expression Syntax, read from an expression of either
//!   syntax (a keyword is a static traversal of a single root name; a
//!   constructor is a static call, whose argument is a static list for
//!   `tuple` and a static map for `object`);
//! - here: the two entry points for whole sources, [`native_type`] and
//!   [`json_type`] (a JSON value is a string whose content is parsed as a
//!   native-syntax expression, "rather than as a template", to which the
//!   reading is delegated), and [`parse_type`], the suite's type notation,
//!   which is this syntax with quoted attribute names;
//! - [`convert_function`]: § Type Constraints as Values and § The
//!   "convert" `cty` Function: `convert(value, type)`, an entry of the
//!   function table whose second argument is read as a type constraint
//!   where it is written, never evaluated.
//!
//! Errors: source that does not parse is a diagnostic of [`Phase::Parse`]
//! (for JSON, only the JSON text itself: a string whose content is no
//! native expression is no type expression); a parsed expression that is no
//! type expression gives diagnostics of [`Phase::Static`], one for each
//! fault found, each at the part of the expression at fault.
//! SPEC-GAP(spec-notes/gaps/typeexpr-error-phase.md)
//!
//! # Limits
//!
//! Type constructors may nest at most [`MAX_TYPE_DEPTH`] levels, the depth
//! the suite's own type syntax accepts; deeper nesting is one diagnostic,
//! and the reader never recurses further, whatever the depth of the
//! expression.

pub mod convert_function;
mod notation;
pub(crate) mod syntax;

pub use convert_function::{call_convert, convert_entry};
pub use notation::{parse_type, TypeSyntaxError};
pub use syntax::MAX_TYPE_DEPTH;

use crate::diagnostic::{Diagnostic, Phase, Range};
use crate::json::NodeKind;
use crate::static_analysis::StaticError;
use crate::types::Type;
use syntax::{read_type, Reading};

/// The two ways of reading a type expression.
///
/// > `any` - `cty.DynamicPseudoType` (in function `TypeConstraint` only)
///
/// SPEC-GAP(spec-notes/gaps/typeexpr-type-and-type-constraint.md)
///
/// Spec: ext-typeexpr-README.md § Type Expression Syntax
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// An exact type (hashicorp/hcl's `typeexpr.Type`): `any` is an error.
    Type,
    /// A type constraint (`typeexpr.TypeConstraint`): `any` is the dynamic
    /// pseudo-type, at any depth.
    TypeConstraint,
}

impl Reading {
    /// The extension's own reading, in `mode`.
    fn of(mode: Mode) -> Reading {
        Reading {
            mode,
            quoted_names: false,
        }
    }
}

/// Parses `source` as a whole native-syntax expression and reads it as a
/// type expression.
///
/// Spec: ext-typeexpr-README.md § HCL Type Expressions Extension,
/// § Type Expression Syntax
pub fn native_type(source: &str, mode: Mode) -> Result<Type, Vec<Diagnostic>> {
    let parsed = crate::native::parse_expression(source)?;
    read_type(&parsed.tree(), Reading::of(mode)).map_err(|errors| {
        errors
            .into_iter()
            .map(|e| {
                let range = parsed.range(e.span);
                diagnostic(e, range)
            })
            .collect()
    })
}

/// Parses `source` as a JSON text and reads its value as a type expression.
///
/// > Notice that since we have additional contextual information that we
/// > intend to allow only calls and keywords the JSON syntax is able to
/// > parse the given string directly as an expression, rather than as a
/// > template as would be the case for normal expression evaluation.
///
/// The value must be a string; its content is parsed as a native-syntax
/// expression (json-spec.md § Static Call, § Static Traversal: "The content
/// of the string is interpreted as a native syntax expression (not a
/// _template_ [...])") and read as [`native_type`] reads one. Any other
/// JSON value, and a string whose content does not parse, is no type
/// expression: a diagnostic of [`Phase::Static`] at the whole value. The
/// ranges of faults inside the string are given in the JSON source; a
/// fault of the whole expression is reported at the whole JSON string.
///
/// Spec: ext-typeexpr-README.md § HCL Type Expressions Extension;
/// json-spec.md § Static Call, § Static Traversal
pub fn json_type(source: &str, mode: Mode) -> Result<Type, Vec<Diagnostic>> {
    let node = crate::json::parse(source)?;
    let NodeKind::String(content) = &node.kind else {
        return Err(vec![not_a_json_type_expression(node.range, None)]);
    };
    let parsed = match crate::native::parse_expression(content) {
        Ok(parsed) => parsed,
        Err(diagnostics) => {
            let why = diagnostics.first().map(ToString::to_string);
            return Err(vec![not_a_json_type_expression(node.range, why)]);
        }
    };
    let root = parsed.tree().span();
    read_type(&parsed.tree(), Reading::of(mode)).map_err(|errors| {
        let (whole, inner): (Vec<StaticError>, Vec<StaticError>) =
            errors.into_iter().partition(|e| e.span == root);
        let inner = inner
            .into_iter()
            .map(|e| {
                let range = parsed.range(e.span);
                diagnostic(e, range)
            })
            .collect();
        let mut diagnostics: Vec<Diagnostic> = whole
            .into_iter()
            .map(|e| diagnostic(e, node.range))
            .collect();
        diagnostics.extend(crate::json::expression::in_json_source(
            inner, source, node.range,
        ));
        diagnostics
    })
}

/// The diagnostic of a fault of a type expression, at `range`.
fn diagnostic(error: StaticError, range: Range) -> Diagnostic {
    Diagnostic {
        phase: Phase::Static,
        summary: error.summary.into(),
        detail: error.detail,
        range: Some(range),
    }
}

/// The diagnostic of a JSON value that cannot be a type expression.
fn not_a_json_type_expression(range: Range, why: Option<String>) -> Diagnostic {
    let required = "In JSON, a type expression is a string holding a type keyword or a type constructor call, like \"list(string)\".";
    Diagnostic {
        phase: Phase::Static,
        summary: syntax::INVALID_TYPE.into(),
        detail: match why {
            Some(why) => format!("{required} The string is no native expression: {why}"),
            None => required.into(),
        },
        range: Some(range),
    }
}

#[cfg(test)]
mod tests;
