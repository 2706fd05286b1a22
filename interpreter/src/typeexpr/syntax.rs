//! The forms of a type expression, read from a native-syntax expression.
//!
//! Spec: ext-typeexpr-README.md § Type Expression Syntax
//!
//! > * `string` - string
//! > * `bool` - boolean
//! > * `number` - number
//! > * `any` - `cty.DynamicPseudoType` (in function `TypeConstraint` only)
//! > * `list(<type_expr>)` - list of the type given as an argument
//! > * `set(<type_expr>)` - set of the type given as an argument
//! > * `map(<type_expr>)` - map of the type given as an argument
//! > * `tuple([<type_exprs...>])` - tuple with the element types given in
//! >   the single list argument
//! > * `object({<attr_name>=<type_expr>, ...}` - object with the attributes
//! >   and corresponding types given in the single map argument
//!
//! Nothing else is a type expression: no operator, no parentheses around a
//! type, no other keyword or constructor, no other number of arguments.
//! The expression is read with the native syntax's static analyses only
//! (`crate::native::static_analysis`), never evaluated.

use super::Mode;
use crate::diagnostic::{Diagnostic, Phase, Range};
use crate::native::ast::{Expression, FunctionCall, ObjectItem};
use crate::native::static_analysis::{call_parts, key_keyword, keyword, list_elements, map_items};
use crate::source::Span;
use crate::types::Type;
use std::collections::{BTreeMap, BTreeSet};

/// The deepest nesting of type constructors read; the depth of the suite's
/// own type syntax.
pub const MAX_TYPE_DEPTH: usize = 200;

/// The summary of every diagnostic of a type expression.
pub(crate) const INVALID_TYPE: &str = "Invalid type specification";

/// What is wrong with a part of a type expression, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TypeError {
    pub span: Span,
    pub detail: String,
}

impl TypeError {
    fn new(span: Span, detail: impl Into<String>) -> TypeError {
        TypeError {
            span,
            detail: detail.into(),
        }
    }

    /// The diagnostic, at the error's span given as `range`.
    pub(crate) fn diagnostic(self, range: Range) -> Diagnostic {
        Diagnostic {
            phase: Phase::Static,
            summary: INVALID_TYPE.into(),
            detail: self.detail,
            range: Some(range),
        }
    }
}

/// Reads `expression` as a type expression: the type, or every fault
/// found (the reading goes on past a fault, to report the others).
///
/// Spec: ext-typeexpr-README.md § Type Expression Syntax
pub(crate) fn read_type(expression: Expression<'_>, mode: Mode) -> Result<Type, Vec<TypeError>> {
    let mut errors = Vec::new();
    let ty = Reader {
        mode,
        errors: &mut errors,
    }
    .type_expression(expression, 0);
    match ty {
        // A part that failed was reported, and left out of the type.
        Some(ty) if errors.is_empty() => Ok(ty),
        _ => Err(errors),
    }
}

struct Reader<'e> {
    mode: Mode,
    errors: &'e mut Vec<TypeError>,
}

impl Reader<'_> {
    fn fail(&mut self, span: Span, detail: impl Into<String>) -> Option<Type> {
        self.errors.push(TypeError::new(span, detail));
        None
    }

    /// A type expression: a keyword (a static traversal of a single root
    /// name) or a constructor (a static call); nothing else.
    ///
    /// Spec: ext-typeexpr-README.md § HCL Type Expressions Extension,
    /// § Type Expression Syntax
    fn type_expression(&mut self, expression: Expression<'_>, depth: usize) -> Option<Type> {
        if depth > MAX_TYPE_DEPTH {
            return self.fail(
                expression.span(),
                format!("Type constructors nest deeper than {MAX_TYPE_DEPTH} levels here."),
            );
        }
        if let Some(name) = keyword(expression) {
            return self.type_keyword(name, expression.span());
        }
        if let Some(call) = call_parts(expression) {
            return self.type_constructor(call, depth);
        }
        // "The type syntax is processed statically [...], so it cannot use
        // any of the usual language operators."
        self.fail(
            expression.span(),
            "A type is a type keyword (string, number, bool, or any in a type constraint) or a type constructor call, like list(string); no other expression.",
        )
    }

    /// `string`, `bool`, `number`, and `any` in a type constraint.
    ///
    /// Spec: ext-typeexpr-README.md § Type Expression Syntax
    fn type_keyword(&mut self, name: &str, span: Span) -> Option<Type> {
        match name {
            "string" => Some(Type::String),
            "bool" => Some(Type::Bool),
            "number" => Some(Type::Number),
            // "`any` - `cty.DynamicPseudoType` (in function `TypeConstraint`
            // only)"
            // SPEC-GAP(spec-notes/gaps/typeexpr-type-and-type-constraint.md)
            "any" if self.mode == Mode::TypeConstraint => Some(Type::Dynamic),
            "any" => self.fail(
                span,
                "The keyword any is allowed in type constraints only; an exact type is required here.",
            ),
            "list" | "set" | "map" => self.fail(
                span,
                format!("The {name} type constructor takes the element type as its argument, like {name}(string)."),
            ),
            "tuple" => self.fail(
                span,
                "The tuple type constructor takes the element types as a list, like tuple([string, number]).",
            ),
            "object" => self.fail(
                span,
                "The object type constructor takes the attribute types as a map, like object({name = string}).",
            ),
            other => self.fail(span, format!("The keyword {other} is not a type.")),
        }
    }

    /// `list(T)`, `set(T)`, `map(T)`, `tuple([T, ...])` and
    /// `object({name = T, ...})`, each with exactly one argument.
    ///
    /// Spec: ext-typeexpr-README.md § Type Expression Syntax
    fn type_constructor(&mut self, call: FunctionCall<'_>, depth: usize) -> Option<Type> {
        let name: &str = call.name;
        // From the opening parenthesis to the closing one.
        let arguments_span = Span {
            start: call
                .open_span
                .end
                .saturating_sub(1)
                .max(call.open_span.start),
            end: call.close_paren_span.end,
        };
        match name {
            "string" | "bool" | "number" | "any" => {
                return self.fail(
                    arguments_span,
                    format!("The type keyword {name} takes no arguments."),
                )
            }
            "list" | "set" | "map" | "tuple" | "object" => {}
            other => {
                return self.fail(
                    call.span,
                    format!(
                    "{other} is not a type constructor; they are list, set, map, tuple and object."
                ),
                )
            }
        }
        let arguments: Vec<Expression> = call.arguments.iter().collect();
        let argument = match &arguments[..] {
            [argument] => *argument,
            [] => {
                return self.fail(
                    arguments_span,
                    format!(
                        "The {name} type constructor takes exactly one argument; there is none."
                    ),
                )
            }
            [_, extra @ ..] => {
                let first = extra.first().map_or(arguments_span, |e| e.span());
                let last = extra.last().map_or(arguments_span, |e| e.span());
                return self.fail(
                    first.to(last),
                    format!(
                        "The {name} type constructor takes exactly one argument; these are extra."
                    ),
                );
            }
        };
        match name {
            "list" => Some(Type::list(self.type_expression(argument, depth + 1)?)),
            "set" => Some(Type::set(self.type_expression(argument, depth + 1)?)),
            "map" => Some(Type::map(self.type_expression(argument, depth + 1)?)),
            "tuple" => self.tuple_type(argument, depth),
            _ => self.object_type(argument, depth),
        }
    }

    /// "`tuple([<type_exprs...>])` - tuple with the element types given in
    /// the single list argument": the argument is a static list.
    ///
    /// Spec: ext-typeexpr-README.md § Type Expression Syntax
    fn tuple_type(&mut self, argument: Expression<'_>, depth: usize) -> Option<Type> {
        let Some(elements) = list_elements(argument) else {
            return self.fail(
                argument.span(),
                "The argument of tuple is a list of the element types, like [string, number].",
            );
        };
        let mut types = Vec::with_capacity(elements.len());
        for element in elements {
            // Every element is read, so that each fault is reported.
            types.extend(self.type_expression(element, depth + 1));
        }
        Some(Type::Tuple(types))
    }

    /// "`object({<attr_name>=<type_expr>, ...}` - object with the
    /// attributes and corresponding types given in the single map
    /// argument": the argument is a static map whose keys are attribute
    /// names. "[T]he object constructor syntax [...] requires the attribute
    /// names to be valid identifiers": a key must be a static traversal of
    /// a single root name, so a quoted name, a parenthesized one and any
    /// other expression are errors. A name given twice is an error.
    /// SPEC-GAP(spec-notes/gaps/typeexpr-object-syntax.md)
    ///
    /// Spec: ext-typeexpr-README.md § Type Expression Syntax
    fn object_type(&mut self, argument: Expression<'_>, depth: usize) -> Option<Type> {
        let Some(items) = map_items(argument) else {
            return self.fail(
                argument.span(),
                "The argument of object is a map of the attribute names to their types, like {name = string}.",
            );
        };
        let mut attributes = BTreeMap::new();
        let mut seen = BTreeSet::new();
        for ObjectItem { key, value } in items {
            let name = key_keyword(key);
            match name {
                None => {
                    self.fail(
                        key.span(),
                        "An attribute name of an object type is an identifier, not a string or another expression.",
                    );
                }
                Some(name) if !seen.insert(name) => {
                    self.fail(key.span(), format!("The attribute {name} is given twice."));
                }
                Some(_) => {}
            }
            let ty = self.type_expression(value, depth + 1);
            if let (Some(name), Some(ty)) = (name, ty) {
                attributes.insert(name.to_string(), ty);
            }
        }
        // A type with a part missing is never returned: read_type reports
        // the errors instead.
        Some(Type::Object(attributes))
    }
}
