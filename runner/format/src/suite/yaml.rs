//! How case files write types, values and expectations (`suite/README.md`):
//! types in type syntax, values as YAML with the tags `!unknown` and
//! `!approx`. Everything is read inside `Deserialize`, so that serde_yaml
//! gives every error its line and path (`cases[3].expect`).

use super::{Expectation, Expected, ExpectedBody, ProfileExpectation};
use crate::kinds::{Call, Named, Pair, StaticShape, Text};
use crate::values::read_typed_value;
use crate::wire::{type_to_json, value_to_json};
use hcl_interpreter::convert::Safety;
use hcl_interpreter::typeexpr::parse_type;
use hcl_interpreter::{Phase, Type, Value};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_norway::Value as Yaml;

/// A type written in type syntax; in a request, in go-cty's encoding.
#[derive(Clone, Debug, PartialEq, derive_more::Deref)]
pub struct TypeText(pub Type);

/// An input value, `{ type: T, value: V }`, exact; in a request, as the
/// protocol encodes values.
#[derive(Clone, Debug, PartialEq, derive_more::Deref)]
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

impl<'de> Deserialize<'de> for TypeText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = Text::deserialize(d)?;
        let ty = parse_type(&text).map_err(|e| format!("malformed type `{text}`: {e}"));
        ty.map(TypeText).map_err(D::Error::custom)
    }
}

impl<'de> Deserialize<'de> for TypedValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Expected { ty, value } = Expected::deserialize(d)?;
        value
            .to_value(&ty)
            .map(TypedValue)
            .map_err(D::Error::custom)
    }
}

impl<'de> Deserialize<'de> for Expected {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            #[serde(rename = "type")]
            ty: TypeText,
            value: Option<Yaml>,
        }
        let Raw { ty, value } = Raw::deserialize(d)?;
        let value =
            read_typed_value(&value.unwrap_or(Yaml::Null), &ty).map_err(D::Error::custom)?;
        if !value.has_approx() {
            // A well-formed value of its type (sets without duplicates...).
            value.to_value(&ty).map_err(D::Error::custom)?;
        }
        Ok(Expected { ty: ty.0, value })
    }
}

/// Keeps `value: null` apart from an absent `value`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Yaml>, D::Error> {
    Yaml::deserialize(d).map(Some)
}

/// An expectation as written: exactly one of its forms, which
/// [`RawExpectation::interpret`] checks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpectation {
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

impl<'de> Deserialize<'de> for Expectation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        RawExpectation::deserialize(d)?
            .interpret()
            .map_err(D::Error::custom)
    }
}

impl RawExpectation {
    fn interpret(self) -> Result<Expectation, String> {
        let shapes = [
            self.list.map(StaticShape::List),
            self.map.map(StaticShape::Map),
            self.call.map(StaticShape::Call),
            self.traversal.map(StaticShape::Traversal),
        ];
        let mut shapes = shapes.into_iter().flatten();
        let shape = shapes.next();
        let forms = [
            shape.is_some(),
            self.body.is_some(),
            self.one_of.is_some(),
            self.error.is_some(),
            self.result.is_some(),
            self.ty.is_some(),
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
            ("value", self.value.is_some()),
            ("safety", self.safety.is_some()),
            ("order", self.order.is_some()),
        ];
        let with_value = self.ty.is_some() && self.value.is_some();
        if let Some((field, _)) = value_fields
            .iter()
            .find(|(f, given)| *given && !with_value && !(*f == "value" && self.ty.is_some()))
        {
            return Err(format!("`{field}` goes only with a value expectation"));
        }
        if self.range.is_some() && self.error.is_none() {
            return Err("`range` goes only with an error expectation".into());
        }
        if let Some(range) = &self.range {
            check_range(range)?;
        }
        let ty = self.ty.map(|t| t.0);
        Ok(
            match (
                shape,
                self.body,
                self.one_of,
                self.error,
                self.result,
                ty,
                self.value,
            ) {
                (Some(shape), ..) => Expectation::Static(shape),
                (_, Some(body), ..) => Expectation::Body(body),
                (_, _, Some(options), ..) if options.len() < 2 => {
                    return Err("`one-of` lists at least two expectations".into())
                }
                (_, _, Some(options), ..) => Expectation::OneOf(options),
                (.., Some(phase), _, _, _) => Expectation::Error {
                    phase: phase.0,
                    range: self.range.map(|r| r.0),
                },
                (.., Some(result), _, _) => Expectation::Result(result),
                (.., Some(ty), None) => Expectation::Type(ty),
                (.., Some(ty), Some(yaml)) => {
                    let value = read_typed_value(&yaml, &ty)?;
                    if !value.has_approx() {
                        // A well-formed value of its type.
                        value.to_value(&ty)?;
                    }
                    let order_any = match self.order.as_deref() {
                        None => false,
                        Some("any") if matches!(ty, Type::List(_) | Type::Tuple(_)) => true,
                        Some("any") => return Err("`order: any` is for lists and tuples".into()),
                        Some(other) => {
                            return Err(format!("order is `any` or absent, not `{other}`"))
                        }
                    };
                    Expectation::Value {
                        ty,
                        value,
                        safety: self.safety.map(|s| s.0),
                        order_any,
                    }
                }
                _ => return Err("an expectation needs one of its forms".into()),
            },
        )
    }
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

impl<'de> Deserialize<'de> for ProfileExpectation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Raw {
            expect: Expectation,
            note: Text,
        }
        let Raw { expect, note } = Raw::deserialize(d)?;
        Ok(ProfileExpectation {
            expect,
            note: note.0,
        })
    }
}

/// How deep the flow collections (`[...]`, `{...}`) of a case file may
/// nest: as deep as serde_yaml reads any document (128 levels).
pub const MAX_FLOW_NESTING: usize = 128;

/// The line where the flow collections of a YAML text first nest deeper
/// than `limit`, if they do.
///
/// libyaml, under serde_yaml, takes time quadratic in how deep flow
/// collections nest (a file 100,000 levels deep takes minutes to reject),
/// so the loader checks the depth with this scan first. The scan follows
/// enough of YAML to pass over what cannot open a collection (comments,
/// quoted scalars, block scalars and plain scalars); where it cannot tell,
/// it counts, so the depth it finds is never less than the real one for
/// the files it cannot parse exactly (a plain scalar continued on a line
/// that starts with `[`).
pub fn flow_nesting_exceeds(text: &str, limit: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    // While in a block scalar: the column of the node that holds it; its
    // lines are blank or indented further.
    let mut block_scalar: Option<usize> = None;
    for (number, line) in text.lines().enumerate() {
        let bytes = line.as_bytes();
        let indent = bytes.iter().take_while(|b| **b == b' ').count();
        if let Some(holder) = block_scalar {
            if line.trim().is_empty() || indent > holder {
                continue;
            }
            block_scalar = None;
        }
        // Whether a node may start here, and where the node that holds
        // what follows starts (a key, or a `-` entry).
        let mut node_start = quote.is_none();
        let (mut holder, mut token) = (indent, indent);
        let mut at = 0;
        while at < bytes.len() {
            let c = bytes[at];
            let next_is_blank = bytes.get(at + 1).is_none_or(|b| *b == b' ' || *b == b'\t');
            if let Some(q) = quote {
                // An escape: `\x` in double quotes, `''` in single ones.
                if (q == b'"' && c == b'\\')
                    || (q == b'\'' && c == q && bytes.get(at + 1) == Some(&q))
                {
                    at += 1;
                } else if c == q {
                    quote = None;
                }
                at += 1;
                continue;
            }
            let after_blank = at == 0 || bytes[at - 1] == b' ' || bytes[at - 1] == b'\t';
            match c {
                b' ' | b'\t' => {}
                b'#' if after_blank => break,
                b'[' | b'{' if node_start || depth > 0 => {
                    depth += 1;
                    if depth > limit {
                        return Some(number + 1);
                    }
                    node_start = true;
                }
                b']' | b'}' if depth > 0 => {
                    depth -= 1;
                    node_start = false;
                }
                b',' if depth > 0 => node_start = true,
                b'"' | b'\'' if node_start => {
                    quote = Some(c);
                    node_start = false;
                }
                b'|' | b'>' if node_start && depth == 0 => {
                    block_scalar = Some(holder);
                    break;
                }
                b'-' | b'?' if node_start && next_is_blank => holder = at,
                b':' if next_is_blank => {
                    holder = token;
                    node_start = true;
                }
                // A tag or an anchor comes before its node.
                b'!' | b'&' if node_start => {
                    while at + 1 < bytes.len() && bytes[at + 1] != b' ' {
                        at += 1;
                    }
                }
                _ => {
                    if node_start {
                        token = at;
                    }
                    node_start = false;
                }
            }
            at += 1;
        }
    }
    None
}
