//! The forms of a type expression, read through the static analyses.
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
//! The expression is read with the static analyses of its syntax only
//! ([`StaticExpression`]: a keyword is a static traversal of a single root
//! name, a constructor a static call, the argument of `tuple` a static list
//! and that of `object` a static map), never evaluated.

use super::Mode;
use crate::source::Span;
use crate::static_analysis::{StaticCall, StaticError, StaticExpression};
use crate::types::Type;
use std::collections::{BTreeMap, BTreeSet};

/// The deepest nesting of type constructors read; the depth of the suite's
/// own type syntax.
pub const MAX_TYPE_DEPTH: usize = 200;

/// The summary of every diagnostic of a type expression.
pub(crate) const INVALID_TYPE: &str = "Invalid type specification";

/// How a type expression is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reading {
    pub mode: Mode,
    /// Whether an attribute name of an object type may also be a quoted
    /// string (the suite's type notation, `crate::typeexpr::parse_type`).
    pub quoted_names: bool,
}

/// Reads `expression` as a type expression: the type, or every fault
/// found (the reading goes on past a fault, to report the others).
///
/// Spec: ext-typeexpr-README.md § Type Expression Syntax
pub(crate) fn read_type(
    expression: &dyn StaticExpression,
    reading: Reading,
) -> Result<Type, Vec<StaticError>> {
    let mut errors = Vec::new();
    let ty = Reader {
        reading,
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
    reading: Reading,
    errors: &'e mut Vec<StaticError>,
}

impl Reader<'_> {
    fn fail(&mut self, span: Span, detail: impl Into<String>) -> Option<Type> {
        self.errors.push(StaticError {
            span,
            summary: INVALID_TYPE,
            detail: detail.into(),
        });
        None
    }

    /// A type expression: a keyword (a static traversal of a single root
    /// name) or a constructor (a static call); nothing else.
    ///
    /// Spec: ext-typeexpr-README.md § HCL Type Expressions Extension,
    /// § Type Expression Syntax
    fn type_expression(&mut self, expression: &dyn StaticExpression, depth: usize) -> Option<Type> {
        if depth > MAX_TYPE_DEPTH {
            return self.fail(
                expression.span(),
                format!("Type constructors nest deeper than {MAX_TYPE_DEPTH} levels here."),
            );
        }
        if let Some(name) = expression.keyword() {
            return self.type_keyword(&name, expression.span());
        }
        if let Some(call) = expression.static_call() {
            return self.type_constructor(call, expression.span(), depth);
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
            "any" if self.reading.mode == Mode::TypeConstraint => Some(Type::Dynamic),
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
    fn type_constructor(&mut self, call: StaticCall<'_>, span: Span, depth: usize) -> Option<Type> {
        let name = call.name.as_str();
        match name {
            "string" | "bool" | "number" | "any" => {
                return self.fail(
                    call.arguments_span,
                    format!("The type keyword {name} takes no arguments."),
                )
            }
            "list" | "set" | "map" | "tuple" | "object" => {}
            other => {
                return self.fail(
                    span,
                    format!(
                    "{other} is not a type constructor; they are list, set, map, tuple and object."
                ),
                )
            }
        }
        let argument = match &call.arguments[..] {
            [argument] => &**argument,
            [] => {
                return self.fail(
                    call.arguments_span,
                    format!(
                        "The {name} type constructor takes exactly one argument; there is none."
                    ),
                )
            }
            [_, extra @ ..] => {
                let first = extra.first().map_or(call.arguments_span, |e| e.span());
                let last = extra.last().map_or(call.arguments_span, |e| e.span());
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
    fn tuple_type(&mut self, argument: &dyn StaticExpression, depth: usize) -> Option<Type> {
        let Some(elements) = argument.static_list() else {
            return self.fail(
                argument.span(),
                "The argument of tuple is a list of the element types, like [string, number].",
            );
        };
        let mut types = Vec::with_capacity(elements.len());
        for element in &elements {
            // Every element is read, so that each fault is reported.
            types.extend(self.type_expression(&**element, depth + 1));
        }
        Some(Type::Tuple(types))
    }

    /// "`object({<attr_name>=<type_expr>, ...}` - object with the
    /// attributes and corresponding types given in the single map
    /// argument": the argument is a static map whose keys are attribute
    /// names. "[T]he object constructor syntax [...] requires the attribute
    /// names to be valid identifiers": a key must be a static traversal of
    /// a single root name, so a quoted name, a parenthesized one and any
    /// other expression are errors (the suite's notation also takes a
    /// quoted name: a key whose value in literal-only mode is a string). A
    /// name given twice is an error.
    /// SPEC-GAP(spec-notes/gaps/typeexpr-object-syntax.md)
    ///
    /// Spec: ext-typeexpr-README.md § Type Expression Syntax
    fn object_type(&mut self, argument: &dyn StaticExpression, depth: usize) -> Option<Type> {
        let Some(items) = argument.static_map() else {
            return self.fail(
                argument.span(),
                "The argument of object is a map of the attribute names to their types, like {name = string}.",
            );
        };
        let mut attributes = BTreeMap::new();
        let mut seen = BTreeSet::new();
        for (key, value) in &items {
            let name = self.attribute_name(&**key);
            match &name {
                None => {
                    self.fail(
                        key.span(),
                        "An attribute name of an object type is an identifier, not a string or another expression.",
                    );
                }
                Some(name) if !seen.insert(name.clone()) => {
                    self.fail(key.span(), format!("The attribute {name} is given twice."));
                }
                Some(_) => {}
            }
            let ty = self.attribute_type(&**value, depth + 1);
            if let (Some(name), Some(ty)) = (name, ty) {
                attributes.insert(name, ty);
            }
        }
        // A type with a part missing is never returned: read_type reports
        // the errors instead.
        Some(Type::Object(attributes))
    }

    /// An attribute's type: a type expression or, in a type constraint,
    /// `optional(T)`, read as `T`. The README of v2.14.1 lists no
    /// `optional`; hashicorp/hcl v2.14.0 and later accept it there, and
    /// the list of "permitted" forms does not say that others are errors,
    /// so the reference follows hashicorp/hcl. The optional mark itself is
    /// not kept: the information model has no optional attributes, and
    /// hashicorp/hcl's `convert` also requires the attribute. `T` is read at
    /// the attribute's depth: `optional` is no level of type nesting.
    /// SPEC-GAP(spec-notes/gaps/typeexpr-optional-attributes.md)
    fn attribute_type(&mut self, value: &dyn StaticExpression, depth: usize) -> Option<Type> {
        if self.reading.mode == Mode::TypeConstraint {
            if let Some(call) = value.static_call() {
                if call.name == "optional" {
                    return match &call.arguments[..] {
                        [inner] => self.type_expression(&**inner, depth),
                        _ => self.fail(
                            call.arguments_span,
                            "optional takes exactly one argument, the attribute's type; a default value is for the application to apply.",
                        ),
                    };
                }
            }
        }
        self.type_expression(value, depth)
    }

    /// The attribute name an object type's key gives, if it gives one.
    fn attribute_name(&self, key: &dyn StaticExpression) -> Option<String> {
        if let Some(name) = key.keyword() {
            return Some(name);
        }
        if !self.reading.quoted_names {
            return None;
        }
        key.literal_value()?.into_string().ok()
    }
}
