//! How case files write types, values and expectations (`suite/README.md`
//! § Types, § Values, § Expectations): types in type syntax, values as YAML
//! with the tags `!unknown` and `!approx`. Each is declared as it is
//! written (serde derive) and turned into what it means with `try_from`,
//! inside `Deserialize`, so that serde_norway gives every error its line
//! and path (`cases[3].expect`).

use super::{Expectation, Expected, ExpectedBody, ProfileExpectation};
use crate::kinds::{Call, Named, Pair, StaticShape, Text};
use crate::values::{read_typed_value, ExpectedValue};
use crate::wire::{type_to_json, value_to_json};
use hcl_interpreter::convert::Safety;
use hcl_interpreter::typeexpr::parse_type;
use hcl_interpreter::{Phase, Type, Value};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_norway::Value as Yaml;

/// A type written in type syntax; in a request, in go-cty's encoding.
#[derive(Clone, Debug, PartialEq, Deserialize, derive_more::Deref)]
#[serde(try_from = "Text")]
pub struct TypeText(pub Type);

/// An input value, `{ type: T, value: V }`, exact; in a request, as the
/// protocol encodes values.
#[derive(Clone, Debug, PartialEq, Deserialize, derive_more::Deref)]
#[serde(try_from = "Expected")]
pub struct TypedValue(pub Value);

impl From<TypedValue> for Value {
    fn from(typed: TypedValue) -> Value {
        typed.0
    }
}

impl Serialize for TypeText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        type_to_json(self).serialize(s)
    }
}

impl Serialize for TypedValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        value_to_json(self).serialize(s)
    }
}

impl TryFrom<Text> for TypeText {
    type Error = String;
    fn try_from(text: Text) -> Result<TypeText, String> {
        let ty = parse_type(&text).map_err(|e| format!("malformed type `{text}`: {e}"))?;
        Ok(TypeText(ty))
    }
}

impl TryFrom<Expected> for TypedValue {
    type Error = String;
    fn try_from(Expected { ty, value }: Expected) -> Result<TypedValue, String> {
        value.to_value(&ty).map(TypedValue)
    }
}

/// An expected value as written: `{ type: T, value: V }`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawExpected {
    #[serde(rename = "type")]
    ty: TypeText,
    value: Option<Yaml>,
}

impl TryFrom<RawExpected> for Expected {
    type Error = String;
    fn try_from(RawExpected { ty, value }: RawExpected) -> Result<Expected, String> {
        let value = read_expected(&value.unwrap_or(Yaml::Null), &ty)?;
        Ok(Expected { ty: ty.0, value })
    }
}

/// A YAML value read as an expected value of type `ty`: one that is exact
/// is a well-formed value of its type (sets without duplicates...).
fn read_expected(yaml: &Yaml, ty: &Type) -> Result<ExpectedValue, String> {
    let value = read_typed_value(yaml, ty)?;
    if !value.has_approx() {
        value.to_value(ty)?;
    }
    Ok(value)
}

/// Keeps `value: null` apart from an absent `value`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Yaml>, D::Error> {
    Yaml::deserialize(d).map(Some)
}

/// An expectation as written: exactly one of its forms, which
/// `TryFrom` checks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawExpectation {
    #[serde(rename = "type")]
    ty: Option<TypeText>,
    #[serde(default, deserialize_with = "present")]
    value: Option<Yaml>,
    safety: Option<Named<Safety>>,
    order: Option<Text>,
    result: Option<bool>,
    error: Option<Named<Phase>>,
    range: Option<Text>,
    #[serde(rename = "one-of")]
    one_of: Option<Vec<Expectation>>,
    body: Option<ExpectedBody>,
    list: Option<Vec<Text>>,
    map: Option<Vec<Pair>>,
    call: Option<Call>,
    traversal: Option<Vec<Text>>,
}

impl TryFrom<RawExpectation> for Expectation {
    type Error = String;
    fn try_from(raw: RawExpectation) -> Result<Expectation, String> {
        let RawExpectation {
            ty,
            value,
            safety,
            order,
            result,
            error,
            range,
            one_of,
            body,
            list,
            map,
            call,
            traversal,
        } = raw;
        let shapes = [
            list.map(StaticShape::List),
            map.map(StaticShape::Map),
            call.map(StaticShape::Call),
            traversal.map(StaticShape::Traversal),
        ];
        let mut shapes = shapes.into_iter().flatten();
        let shape = shapes.next();
        let forms = [
            shape.is_some(),
            body.is_some(),
            one_of.is_some(),
            error.is_some(),
            result.is_some(),
            ty.is_some(),
        ];
        if forms.iter().filter(|f| **f).count() != 1 {
            return Err(
                "an expectation is exactly one of: a value or type (`type:`), \
                        a relation (`result:`), an error (`error:`), or `one-of:`"
                    .into(),
            );
        }
        if shapes.next().is_some() {
            return Err("a static expectation is one of `list`, `map`, `call`, `traversal`".into());
        }
        let value_fields = [
            ("value", value.is_some()),
            ("safety", safety.is_some()),
            ("order", order.is_some()),
        ];
        check_value_fields(&value_fields, ty.is_some())?;
        match (&range, error) {
            (Some(_), None) => return Err("`range` goes only with an error expectation".into()),
            (Some(range), Some(_)) => check_range(range)?,
            (None, _) => {}
        }
        Ok(match (shape, body, one_of, error, result, ty) {
            (Some(shape), ..) => Expectation::Static(shape),
            (_, Some(body), ..) => Expectation::Body(body),
            (_, _, Some(options), ..) if options.len() < 2 => {
                return Err("`one-of` lists at least two expectations".into())
            }
            (_, _, Some(options), ..) => Expectation::OneOf(options),
            (.., Some(phase), _, _) => Expectation::Error {
                phase: phase.0,
                range: range.map(|r| r.0),
            },
            (.., Some(result), _) => Expectation::Result(result),
            (.., Some(ty)) => match value {
                None => Expectation::Type(ty.0),
                Some(yaml) => value_expectation(ty.0, &yaml, order, safety)?,
            },
            _ => return Err("an expectation needs one of its forms".into()),
        })
    }
}

/// `value`, `safety` and `order` go with a value expectation (`safety`
/// and `order` only when `value` is given too).
fn check_value_fields(given: &[(&str, bool)], has_type: bool) -> Result<(), String> {
    let with_value = has_type && given.iter().any(|(f, given)| *f == "value" && *given);
    let stray = given
        .iter()
        .find(|(f, given)| *given && !with_value && !(*f == "value" && has_type));
    match stray {
        Some((field, _)) => Err(format!("`{field}` goes only with a value expectation")),
        None => Ok(()),
    }
}

/// A value expectation: the value, of type `ty`, and how it is compared.
fn value_expectation(
    ty: Type,
    yaml: &Yaml,
    order: Option<Text>,
    safety: Option<Named<Safety>>,
) -> Result<Expectation, String> {
    let value = read_expected(yaml, &ty)?;
    let order_any = match order.as_deref() {
        None => false,
        Some("any") if matches!(ty, Type::List(_) | Type::Tuple(_)) => true,
        Some("any") => return Err("`order: any` is for lists and tuples".into()),
        Some(other) => return Err(format!("order is `any` or absent, not `{other}`")),
    };
    Ok(Expectation::Value {
        ty,
        value,
        safety: safety.map(|s| s.0),
        order_any,
    })
}

/// Checks a range written `L:C-L:C`.
fn check_range(range: &str) -> Result<(), String> {
    let position = |pos: &str| {
        pos.split_once(':').is_some_and(|(l, c)| {
            l.parse::<usize>().is_ok_and(|l| l > 0) && c.parse::<usize>().is_ok_and(|c| c > 0)
        })
    };
    match range.split_once('-') {
        Some((start, end)) if position(start) && position(end) => Ok(()),
        _ => Err(format!(
            "range `{range}` is not of the form LINE:COLUMN-LINE:COLUMN"
        )),
    }
}

/// A profile's expectation as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawProfileExpectation {
    expect: Expectation,
    note: Text,
}

impl From<RawProfileExpectation> for ProfileExpectation {
    fn from(RawProfileExpectation { expect, note }: RawProfileExpectation) -> Self {
        ProfileExpectation {
            expect,
            note: note.0,
        }
    }
}
