//! What a case needs of an implementation: its kind, and the optional
//! features (`runner/PROTOCOL.md` § Features) without which its expectation
//! cannot be checked.
//!
//! A case whose needs an implementation lacks is *unsupported*, with every
//! missing capability named; it is counted, never dropped.

use crate::kinds::{Input, Keyword, Syntax};
use crate::suite::{Case, CaseInput, ExpectedValue};
use crate::wire::{Capabilities, PARSED_KINDS};
use bigdecimal::BigDecimal;
use hcl_interpreter::native::lexer::{Lexer, StartMode, TokenKind};
use hcl_interpreter::number::Number;
use hcl_interpreter::{Type, Value};
use std::str::FromStr;

/// Unknown values in requests and answers.
pub const UNKNOWN: &str = "unknown";
/// Conversion answers say whether the conversion was safe.
pub const SAFETY: &str = "safety";
/// Diagnostics carry source ranges.
pub const RANGES: &str = "ranges";
/// Exact cty types: list, set and map apart from tuple and object, typed
/// nulls, typed empty collections.
pub const EXACT_TYPES: &str = "exact-types";
/// Arbitrary-precision numbers.
pub const BIG_NUMBERS: &str = "big-numbers";
/// Only parses: `expr`, `template` and `config` requests are answered
/// `parsed: true` or with a `parse` error.
pub const PARSE_ONLY: &str = "parse-only";
/// `config` answers may hold `{"unevaluated": REASON}` attribute values.
pub const UNEVALUATED_VALUES: &str = "unevaluated-values";
/// `config` requests may carry a body schema and ask for literal-only mode.
pub const SCHEMA: &str = "schema";

/// Whether an implementation with `capabilities` grades the case by
/// parsing only.
pub fn parse_only(case: &Case, capabilities: &Capabilities) -> bool {
    capabilities.features.contains(PARSE_ONLY) && PARSED_KINDS.contains(&case.input.kind())
}

/// Everything the case needs that the implementation lacks, each named as
/// a reader would look for it: `kind convert`, `exact-types`, `dynblock`...
/// Empty when the implementation can run the case.
pub fn missing_capabilities(
    case: &Case,
    profile: &str,
    capabilities: &Capabilities,
) -> Vec<String> {
    let mut missing = Vec::new();
    let kind = case.input.kind().name();
    if !capabilities.kinds.contains(kind) {
        missing.push(format!("kind {kind}"));
    }
    // A parse-only implementation is asked only whether the source parses:
    // values, and with them every value feature, play no part.
    if parse_only(case, capabilities) {
        return missing;
    }
    let features = case_features(case, profile);
    missing.extend(
        features
            .into_iter()
            .filter(|f| !capabilities.features.contains(f)),
    );
    missing
}

/// The features the case needs to be checked fully: `unknown`,
/// `exact-types`, `big-numbers`, `schema` in that order, then the
/// extensions it asks for (each extension is a feature of the same name).
pub fn case_features(case: &Case, profile: &str) -> Vec<String> {
    let expected = case.expectation_for(profile).values();
    let expected_values: Vec<&ExpectedValue> = expected.iter().flat_map(|(_, v)| v.all()).collect();
    let values: Vec<&Value> = input_values(&case.input)
        .into_iter()
        .flat_map(all_values)
        .collect();
    let mut needs = Vec::new();
    if values.iter().any(|v| matches!(v, Value::Unknown(_)))
        || expected_values
            .iter()
            .any(|v| **v == ExpectedValue::Unknown)
    {
        needs.push(UNKNOWN.to_string());
    }
    let about_types = matches!(
        case.input,
        Input::Convert(_)
            | Input::Unify(_)
            | Input::Identical(_)
            | Input::Matches(_)
            | Input::TypeExpr(_)
    );
    if about_types
        || values.iter().any(|v| value_needs_exact_types(v))
        || expected
            .iter()
            .any(|(ty, v)| expected_needs_exact_types(ty, v))
    {
        needs.push(EXACT_TYPES.to_string());
    }
    let big_expected = expected_values.iter().any(|v| match v {
        ExpectedValue::Number(n) | ExpectedValue::Approx { value: n, .. } => is_big(n),
        _ => false,
    });
    let big_value = values
        .iter()
        .any(|v| matches!(v, Value::Number(n) if is_big(n)));
    if big_value || big_expected || source_has_big_literal(&case.input) {
        needs.push(BIG_NUMBERS.to_string());
    }
    match &case.input {
        Input::Config(c) => {
            // Body schemas and literal-only mode: feature `schema`.
            if c.schema.is_some() || c.literal_only {
                needs.push(SCHEMA.to_string());
            }
            needs.extend(c.extensions.iter().map(|e| e.0.clone()));
        }
        Input::Expr(e) => needs.extend(e.extensions.iter().map(|e| e.0.clone())),
        _ => {}
    }
    needs
}

/// The values a case's input carries: a conversion's value, operands,
/// variables.
fn input_values(input: &CaseInput) -> Vec<&Value> {
    match input {
        Input::Convert(c) => vec![&c.value],
        Input::Operation(o) => o.operands.iter().map(|v| &**v).collect(),
        Input::Expr(e) => e.variables.values().map(|v| &**v).collect(),
        Input::Template(t) => t.variables.values().map(|v| &**v).collect(),
        Input::Config(c) => c.variables.values().map(|v| &**v).collect(),
        _ => Vec::new(),
    }
}

/// A value and every value it holds.
fn all_values(v: &Value) -> Vec<&Value> {
    let mut all = Vec::new();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        all.push(v);
        stack.extend(v.children());
    }
    all
}

/// Whether a type is or holds a list, set or map type.
fn has_collection_type(ty: &Type) -> bool {
    let mut stack = vec![ty];
    while let Some(ty) = stack.pop() {
        match ty {
            Type::List(_) | Type::Set(_) | Type::Map(_) => return true,
            Type::Object(attributes) => stack.extend(attributes.values()),
            Type::Tuple(elements) => stack.extend(elements),
            _ => {}
        }
    }
    false
}

/// Whether a value is a collection, or a null of a type other than the
/// dynamic pseudo-type, or an unknown whose type holds a collection type.
fn value_needs_exact_types(v: &Value) -> bool {
    match v {
        Value::List(..) | Value::Set(..) | Value::Map(..) => true,
        Value::Null(ty) => *ty != Type::Dynamic,
        Value::Unknown(ty) => has_collection_type(ty),
        _ => false,
    }
}

/// Whether an expected value of `ty` is or holds a collection or a typed
/// null.
fn expected_needs_exact_types(ty: &Type, v: &ExpectedValue) -> bool {
    if has_collection_type(ty) {
        return true;
    }
    let mut stack = vec![(ty, v)];
    while let Some((ty, v)) = stack.pop() {
        match (ty, v) {
            (Type::Dynamic, _) => {}
            (_, ExpectedValue::Null) => return true,
            (Type::Object(types), ExpectedValue::Mapping(entries)) => {
                stack.extend(entries.iter().filter_map(|(k, v)| Some((types.get(k)?, v))));
            }
            (Type::Tuple(types), ExpectedValue::Sequence(items)) => {
                stack.extend(types.iter().zip(items));
            }
            _ => {}
        }
    }
    false
}

/// Whether a number needs arbitrary precision: it is neither an integer
/// that fits an `i64` or a `u64` nor exactly a finite `f64`.
pub fn is_big(n: &Number) -> bool {
    if n.is_infinite() {
        return true;
    }
    let text = n.to_decimal_string();
    if n.is_integer() && (n.to_i64().is_some() || text.parse::<u64>().is_ok()) {
        return false;
    }
    // The nearest double, which is the number itself when it is one.
    let double: f64 = text.parse().unwrap_or(f64::INFINITY);
    let exact = BigDecimal::from_str(&text).ok();
    !(double.is_finite() && BigDecimal::try_from(double).ok() == exact)
}

/// Whether the source text of an `expr`, `template` or `config` case holds
/// a number literal that [`is_big`], as the native syntax's lexer finds
/// them (a JSON configuration is lexed the same way: its numbers are
/// number literals there too).
fn source_has_big_literal(input: &CaseInput) -> bool {
    let (text, start) = match input {
        Input::Expr(e) => (&*e.expr, StartMode::ConfigFile),
        Input::Template(t) => (&*t.template, StartMode::TemplateFile),
        Input::Config(c) if matches!(*c.syntax, Syntax::Native | Syntax::Json) => {
            (&*c.config, StartMode::ConfigFile)
        }
        _ => return false,
    };
    // `1.e3` is 1000, as the parser reads it.
    // SPEC-GAP(spec-notes/gaps/lexical-number-fraction-digits.md)
    let value = |literal: &str| literal.replacen(".e", "e", 1).replacen(".E", "E", 1);
    number_literals(text, start)
        .iter()
        .any(|literal| Number::parse_decimal(&value(literal), true).map_or(true, |n| is_big(&n)))
}

/// The number literals of a source text, but those after a `.` (the legacy
/// index `a.0` is a step, not a number).
pub fn number_literals(text: &str, start: StartMode) -> Vec<&str> {
    let mut lexer = Lexer::new(text, start);
    let mut literals = Vec::new();
    let mut after_dot = false;
    loop {
        let token = lexer.next_token();
        match token.kind {
            TokenKind::Eof => return literals,
            TokenKind::NumberLit if !after_dot => {
                literals.push(&text[token.span.start as usize..token.span.end as usize])
            }
            _ => {}
        }
        after_dot = token.kind == TokenKind::Dot;
    }
}
