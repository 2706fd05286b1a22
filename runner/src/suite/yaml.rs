//! Reading types, values and expectations from YAML, as `suite/README.md`
//! describes them.
//!
//! Interpretation happens inside `Deserialize`, so that serde_yaml attaches
//! the line and the path (`cases[3].expect`) to every error.

use super::{Expectation, ExpectedBlock, ExpectedBody, ProfileExpectation, StaticShape};
use hcl_interpreter::bodies::{AttributeSchema, BlockHeaderSchema, BodySchema, BodySpec};
use hcl_interpreter::convert::Safety;
use hcl_interpreter::number::Number;
use hcl_interpreter::typeexpr::parse_type;
use hcl_interpreter::value::nfc;
use hcl_interpreter::{Phase, Type, Value};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_yaml::Value as Yaml;
use std::collections::BTreeMap;

/// Significant digits an `!approx` number may have (see suite/README.md).
const MAX_APPROX_DIGITS: usize = 75;

/// An expected value: a value, except that numbers may be approximate.
#[derive(Clone, Debug, PartialEq)]
pub enum ExpectedValue {
    Null,
    Unknown,
    String(String),
    Number(Number),
    /// Any number within `tolerance` of `value`.
    Approx {
        value: Number,
        tolerance: Number,
        text: String,
    },
    Bool(bool),
    /// The elements of a list, set or tuple.
    Sequence(Vec<ExpectedValue>),
    /// The entries of a map or the attributes of an object.
    Mapping(BTreeMap<String, ExpectedValue>),
}

impl ExpectedValue {
    pub fn has_approx(&self) -> bool {
        match self {
            ExpectedValue::Approx { .. } => true,
            ExpectedValue::Sequence(items) => items.iter().any(ExpectedValue::has_approx),
            ExpectedValue::Mapping(entries) => entries.values().any(ExpectedValue::has_approx),
            _ => false,
        }
    }

    /// The value this expectation describes exactly, as a value of `ty`.
    pub fn to_value(&self, ty: &Type) -> Result<Value, String> {
        Ok(match (self, ty) {
            (ExpectedValue::Null, _) => Value::Null(ty.clone()),
            (ExpectedValue::Unknown, _) => Value::Unknown(ty.clone()),
            (ExpectedValue::String(s), _) => Value::string(s),
            (ExpectedValue::Number(n), _) => Value::Number(n.clone()),
            (ExpectedValue::Bool(b), _) => Value::Bool(*b),
            (ExpectedValue::Approx { .. }, _) => {
                return Err("an input value cannot be approximate".to_string())
            }
            (ExpectedValue::Sequence(items), Type::List(e) | Type::Set(e)) => {
                let elements = items
                    .iter()
                    .map(|item| item.to_value(e))
                    .collect::<Result<Vec<_>, _>>()?;
                if matches!(ty, Type::Set(_)) {
                    let count = elements.len();
                    let set = Value::set((**e).clone(), elements).map_err(|e| e.to_string())?;
                    if set.children().len() != count {
                        return Err("the elements of a set must be distinct".to_string());
                    }
                    set
                } else {
                    Value::list((**e).clone(), elements).map_err(|e| e.to_string())?
                }
            }
            (ExpectedValue::Sequence(items), Type::Tuple(types)) => Value::Tuple(
                items
                    .iter()
                    .zip(types)
                    .map(|(item, t)| item.to_value(t))
                    .collect::<Result<_, _>>()?,
            ),
            (ExpectedValue::Mapping(entries), Type::Map(e)) => Value::map(
                (**e).clone(),
                entries
                    .iter()
                    .map(|(k, v)| Ok((k.clone(), v.to_value(e)?)))
                    .collect::<Result<Vec<_>, String>>()?,
            )
            .map_err(|e| e.to_string())?,
            (ExpectedValue::Mapping(entries), Type::Object(types)) => Value::object(
                entries
                    .iter()
                    .map(|(k, v)| Ok((k.clone(), v.to_value(&types[k])?)))
                    .collect::<Result<Vec<_>, String>>()?,
            ),
            _ => return Err(format!("this value does not fit the type {ty}")),
        })
    }
}

/// Reads a YAML value as a value of type `ty`, checking that it fits.
pub fn read_typed_value(yaml: &Yaml, ty: &Type) -> Result<ExpectedValue, String> {
    read_value(yaml, ty, "value")
}

fn read_value(yaml: &Yaml, ty: &Type, path: &str) -> Result<ExpectedValue, String> {
    let fail = |why: String| Err(format!("{path}: {why}"));
    if let Yaml::Tagged(tagged) = yaml {
        let tag = tagged.tag.to_string();
        return match tag.as_str() {
            "!unknown" if tagged.value.is_null() => Ok(ExpectedValue::Unknown),
            "!unknown" => fail("write `!unknown` alone, with no value after it".into()),
            "!approx" if *ty == Type::Number => read_approx(&tagged.value).or_else(fail),
            "!approx" => fail(format!("`!approx` is for numbers, and this is a {ty}")),
            other => fail(format!(
                "unknown tag `{other}`: the tags are !unknown and !approx"
            )),
        };
    }
    if yaml.is_null() {
        return Ok(ExpectedValue::Null);
    }
    match (ty, yaml) {
        (Type::Dynamic, _) => {
            fail("the dynamic pseudo-type (`any`) has only null and unknown values".to_string())
        }
        (Type::String, Yaml::String(s)) => Ok(ExpectedValue::String(nfc(s))),
        (Type::String, other) => fail(format!(
            "a string must be a YAML string; quote {}",
            describe(other)
        )),
        (Type::Bool, Yaml::Bool(b)) => Ok(ExpectedValue::Bool(*b)),
        (Type::Number, _) => read_number(yaml).map(ExpectedValue::Number).or_else(fail),
        (Type::List(e) | Type::Set(e), Yaml::Sequence(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| read_value(item, e, &format!("{path}[{i}]")))
            .collect::<Result<_, _>>()
            .map(ExpectedValue::Sequence),
        (Type::Tuple(types), Yaml::Sequence(items)) => {
            if items.len() != types.len() {
                return fail(format!(
                    "a {ty} has {} elements, not {}",
                    types.len(),
                    items.len()
                ));
            }
            items
                .iter()
                .zip(types)
                .enumerate()
                .map(|(i, (item, t))| read_value(item, t, &format!("{path}[{i}]")))
                .collect::<Result<_, _>>()
                .map(ExpectedValue::Sequence)
        }
        (Type::Map(_) | Type::Object(_), Yaml::Mapping(mapping)) => {
            let mut entries = BTreeMap::new();
            for (key, item) in mapping {
                let Yaml::String(key) = key else {
                    return fail(format!("keys must be strings; quote {}", describe(key)));
                };
                let key = nfc(key);
                let element_type = match ty {
                    Type::Map(e) => &**e,
                    Type::Object(attributes) => match attributes.get(&key) {
                        Some(t) => t,
                        None => return fail(format!("{ty} has no attribute {key:?}")),
                    },
                    _ => unreachable!(),
                };
                let item = read_value(item, element_type, &format!("{path}.{key}"))?;
                if entries.insert(key.clone(), item).is_some() {
                    return fail(format!("the key {key:?} is given twice (after NFC)"));
                }
            }
            if let Type::Object(attributes) = ty {
                if let Some(missing) = attributes.keys().find(|k| !entries.contains_key(*k)) {
                    return fail(format!(
                        "attribute {missing:?} of {ty} is missing (write `null` for a null)"
                    ));
                }
            }
            Ok(ExpectedValue::Mapping(entries))
        }
        (ty, other) => fail(format!("{} is not a value of {ty}", describe(other))),
    }
}

fn describe(yaml: &Yaml) -> String {
    match yaml {
        Yaml::Null => "null".into(),
        Yaml::Bool(b) => format!("the bool {b}"),
        Yaml::Number(n) => format!("the number {n}"),
        Yaml::String(s) => format!("the string {s:?}"),
        Yaml::Sequence(_) => "a sequence".into(),
        Yaml::Mapping(_) => "a mapping".into(),
        Yaml::Tagged(t) => format!("a value tagged {}", t.tag),
    }
}

/// A number written as a YAML number or as a string.
fn read_number(yaml: &Yaml) -> Result<Number, String> {
    match yaml {
        Yaml::Number(n) if n.is_i64() || n.is_u64() => {
            Number::parse_decimal(&n.to_string(), false).map_err(|e| e.to_string())
        }
        Yaml::Number(n) => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            if !f.is_finite() {
                return Err("write infinities as the strings \"+Inf\" and \"-Inf\"".into());
            }
            let text = format!("{f:e}");
            let mantissa = text.split('e').next().unwrap_or("");
            let digits = mantissa.chars().filter(char::is_ascii_digit).count();
            if digits > 15 {
                return Err(format!(
                    "the YAML float {n} may have lost digits; write numbers of more than 15 significant digits as strings"
                ));
            }
            Number::parse_decimal(&text, true).map_err(|e| e.to_string())
        }
        Yaml::String(s) => match s.as_str() {
            "+Inf" => Ok(Number::PositiveInfinity),
            "-Inf" => Ok(Number::NegativeInfinity),
            _ => Number::parse_decimal(s, true).map_err(|e| {
                format!("{s:?} is not a number ({e}); write a decimal such as \"-1.5e300\", \"+Inf\" or \"-Inf\"")
            }),
        },
        other => Err(format!("{} is not a number", describe(other))),
    }
}

/// `!approx "0.333…"`: any number within one unit of the last written digit.
fn read_approx(yaml: &Yaml) -> Result<ExpectedValue, String> {
    let Yaml::String(text) = yaml else {
        return Err("write `!approx` numbers as strings: !approx \"0.333\"".into());
    };
    let value = Number::parse_decimal(text, true).map_err(|e| format!("{text:?}: {e}"))?;
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().map_err(|e| e.to_string())?),
        None => (text.as_str(), 0),
    };
    let fraction_digits = mantissa.split_once('.').map_or(0, |(_, f)| f.len()) as i64;
    let significant = mantissa
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .trim_start_matches('0')
        .len();
    if significant > MAX_APPROX_DIGITS {
        return Err(format!(
            "an !approx number has at most {MAX_APPROX_DIGITS} significant digits: the spec guarantees no more"
        ));
    }
    let tolerance = Number::parse_decimal(&format!("1e{}", exponent - fraction_digits), true)
        .map_err(|e| e.to_string())?;
    Ok(ExpectedValue::Approx {
        value,
        tolerance,
        text: text.clone(),
    })
}

/// Text in a case file: source text, a name, a note, a keyword. It must be
/// a YAML string: a plain scalar that YAML reads as a number, a bool or null
/// (`expr: 42`, `name: true`, `expr: 0x10`) is refused instead of being
/// turned into text, as that text would not always be what was written
/// (`0x10` reads as 16).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Text(pub String);

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Asked for "any" value, serde_yaml says what YAML read, so that
        // the error names the scalar's own line and column.
        d.deserialize_any(TextVisitor)
    }
}

struct TextVisitor;

impl serde::de::Visitor<'_> for TextVisitor {
    type Value = Text;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string: quote it, or write source text as a block scalar (`|`)")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Text, E> {
        Ok(Text(text.to_string()))
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The strings of a list of texts.
pub(crate) fn strings(texts: Vec<Text>) -> Vec<String> {
    texts.into_iter().map(|t| t.0).collect()
}

/// A type written in type syntax.
#[derive(Clone, Debug)]
pub(crate) struct TypeText(pub Type);

impl<'de> Deserialize<'de> for TypeText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Text(text) = Text::deserialize(d)?;
        parse_type(&text)
            .map(TypeText)
            .map_err(|e| D::Error::custom(format!("malformed type `{text}`: {e}")))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTypedValue {
    #[serde(rename = "type")]
    ty: TypeText,
    value: Option<Yaml>,
}

/// An input value: `{ type: T, value: V }`, exact.
#[derive(Clone, Debug)]
pub(crate) struct InputValue(pub Value);

impl<'de> Deserialize<'de> for InputValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RawTypedValue::deserialize(d)?;
        let yaml = raw.value.unwrap_or(Yaml::Null);
        let expected = read_typed_value(&yaml, &raw.ty.0).map_err(D::Error::custom)?;
        expected
            .to_value(&raw.ty.0)
            .map(InputValue)
            .map_err(D::Error::custom)
    }
}

/// Keeps `value: null` apart from an absent `value`.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Yaml>, D::Error> {
    Yaml::deserialize(d).map(Some)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpectation {
    #[serde(rename = "type")]
    ty: Option<TypeText>,
    #[serde(default, deserialize_with = "present")]
    value: Option<Yaml>,
    safety: Option<Text>,
    order: Option<Text>,
    result: Option<bool>,
    error: Option<Text>,
    range: Option<Text>,
    #[serde(rename = "one-of")]
    one_of: Option<Vec<Expectation>>,
    body: Option<RawBody>,
    list: Option<Vec<Text>>,
    map: Option<Vec<RawPair>>,
    call: Option<RawCall>,
    traversal: Option<Vec<Text>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPair {
    key: Text,
    value: Text,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCall {
    name: Text,
    #[serde(default)]
    arguments: Vec<Text>,
}

/// An expected value that may be approximate: `{ type: T, value: V }`.
struct ExpectedTyped(Type, ExpectedValue);

impl<'de> Deserialize<'de> for ExpectedTyped {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RawTypedValue::deserialize(d)?;
        let yaml = raw.value.unwrap_or(Yaml::Null);
        let value = read_typed_value(&yaml, &raw.ty.0).map_err(D::Error::custom)?;
        if !value.has_approx() {
            value.to_value(&raw.ty.0).map_err(D::Error::custom)?;
        }
        Ok(ExpectedTyped(raw.ty.0, value))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBody {
    #[serde(default)]
    attributes: BTreeMap<Text, ExpectedTyped>,
    #[serde(default)]
    blocks: Vec<RawBlock>,
    remain: Option<Box<RawBody>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBlock {
    #[serde(rename = "type")]
    type_name: Text,
    #[serde(default)]
    labels: Vec<Text>,
    #[serde(default)]
    body: Option<RawBody>,
}

impl RawBody {
    fn into_expected(self) -> ExpectedBody {
        ExpectedBody {
            attributes: self
                .attributes
                .into_iter()
                // Attribute names are identifiers, which are not normalized
                // (hclsyntax-spec.md § Source Code Representation).
                .map(|(name, ExpectedTyped(ty, value))| (name.0, (ty, value)))
                .collect(),
            blocks: self
                .blocks
                .into_iter()
                .map(|b| ExpectedBlock {
                    type_name: b.type_name.0,
                    labels: strings(b.labels),
                    body: b.body.map(RawBody::into_expected).unwrap_or_default(),
                })
                .collect(),
            remain: self.remain.map(|r| Box::new(r.into_expected())),
        }
    }
}

impl<'de> Deserialize<'de> for Expectation {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RawExpectation::deserialize(d)?;
        raw.interpret().map_err(D::Error::custom)
    }
}

impl RawExpectation {
    fn interpret(self) -> Result<Expectation, String> {
        let forms = [
            self.list.is_some()
                || self.map.is_some()
                || self.call.is_some()
                || self.traversal.is_some(),
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
        let value_only = |what: &str, given: bool| {
            if given {
                Err(format!("`{what}` goes only with a value expectation"))
            } else {
                Ok(())
            }
        };
        let statics = [
            self.list.is_some(),
            self.map.is_some(),
            self.call.is_some(),
            self.traversal.is_some(),
        ];
        if statics.iter().filter(|s| **s).count() > 1 {
            return Err("a static expectation is one of `list`, `map`, `call`, `traversal`".into());
        }
        let shape = if let Some(list) = self.list {
            Some(StaticShape::List(strings(list)))
        } else if let Some(map) = self.map {
            Some(StaticShape::Map(
                map.into_iter().map(|p| (p.key.0, p.value.0)).collect(),
            ))
        } else if let Some(call) = self.call {
            Some(StaticShape::Call {
                name: call.name.0,
                arguments: strings(call.arguments),
            })
        } else {
            self.traversal.map(|t| StaticShape::Traversal(strings(t)))
        };
        if let Some(shape) = shape {
            value_only("value", self.value.is_some())?;
            value_only("safety", self.safety.is_some())?;
            value_only("order", self.order.is_some())?;
            return Ok(Expectation::Static(shape));
        }
        if let Some(body) = self.body {
            value_only("value", self.value.is_some())?;
            value_only("safety", self.safety.is_some())?;
            value_only("order", self.order.is_some())?;
            if self.range.is_some() {
                return Err("`range` goes only with an error expectation".into());
            }
            return Ok(Expectation::Body(body.into_expected()));
        }
        if let Some(options) = self.one_of {
            if options.len() < 2 {
                return Err("`one-of` lists at least two expectations".into());
            }
            return Ok(Expectation::OneOf(options));
        }
        if let Some(phase) = self.error {
            value_only("safety", self.safety.is_some())?;
            value_only("order", self.order.is_some())?;
            value_only("value", self.value.is_some())?;
            let phase = Phase::from_name(&phase).ok_or_else(|| {
                format!(
                    "unknown phase `{phase}`: the phases are parse, eval, conversion, unification, static, schema"
                )
            })?;
            if let Some(range) = &self.range {
                check_range(range)?;
            }
            return Ok(Expectation::Error {
                phase,
                range: self.range.map(|r| r.0),
            });
        }
        if self.range.is_some() {
            return Err("`range` goes only with an error expectation".into());
        }
        if let Some(result) = self.result {
            value_only("value", self.value.is_some())?;
            return Ok(Expectation::Result(result));
        }
        let ty = self.ty.expect("checked above").0;
        let Some(yaml) = self.value else {
            value_only("safety", self.safety.is_some())?;
            value_only("order", self.order.is_some())?;
            return Ok(Expectation::Type(ty));
        };
        let value = read_typed_value(&yaml, &ty)?;
        if !value.has_approx() {
            // Checks that the value is a well-formed value of its type.
            value.to_value(&ty)?;
        }
        let safety = match self.safety.as_deref() {
            None => None,
            Some("safe") => Some(Safety::Safe),
            Some("unsafe") => Some(Safety::Unsafe),
            Some(other) => return Err(format!("safety is `safe` or `unsafe`, not `{other}`")),
        };
        let order_any = match self.order.as_deref() {
            None => false,
            Some("any") if matches!(ty, Type::List(_) | Type::Tuple(_)) => true,
            Some("any") => return Err("`order: any` is for lists and tuples".into()),
            Some(other) => return Err(format!("order is `any` or absent, not `{other}`")),
        };
        Ok(Expectation::Value {
            ty,
            value,
            safety,
            order_any,
        })
    }
}

/// Checks a range written `L:C-L:C`.
fn check_range(range: &str) -> Result<(), String> {
    let ok = range.split_once('-').is_some_and(|(start, end)| {
        [start, end].iter().all(|pos| {
            pos.split_once(':').is_some_and(|(l, c)| {
                l.parse::<usize>().is_ok_and(|l| l > 0) && c.parse::<usize>().is_ok_and(|c| c > 0)
            })
        })
    });
    if ok {
        Ok(())
    } else {
        Err(format!(
            "range `{range}` is not of the form LINE:COLUMN-LINE:COLUMN"
        ))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawProfile {
    pub expect: Expectation,
    pub note: Text,
}

impl From<RawProfile> for ProfileExpectation {
    fn from(raw: RawProfile) -> Self {
        ProfileExpectation {
            expect: raw.expect,
            note: raw.note.0,
        }
    }
}

/// One string or a list of them.
pub(crate) struct OneOrMany(Vec<String>);

impl OneOrMany {
    pub fn into_vec(self) -> Vec<String> {
        self.0
    }
}

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct OneOrManyVisitor;
        impl<'de> serde::de::Visitor<'de> for OneOrManyVisitor {
            type Value = OneOrMany;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or a list of strings")
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<OneOrMany, E> {
                Ok(OneOrMany(vec![text.to_string()]))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut items: A,
            ) -> Result<OneOrMany, A::Error> {
                let mut all = Vec::new();
                while let Some(Text(item)) = items.next_element()? {
                    all.push(item);
                }
                Ok(OneOrMany(all))
            }
        }
        d.deserialize_any(OneOrManyVisitor)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct RawCase {
    pub name: Text,
    pub description: Option<Text>,
    pub covers: Vec<Text>,
    pub kind: Option<Text>,
    pub value: Option<InputValue>,
    pub to: Option<TypeText>,
    pub types: Option<Vec<TypeText>>,
    #[serde(rename = "type")]
    pub ty: Option<TypeText>,
    pub spec: Option<TypeText>,
    pub op: Option<Text>,
    pub operands: Option<Vec<InputValue>>,
    pub expr: Option<Text>,
    pub template: Option<Text>,
    pub config: Option<Text>,
    pub syntax: Option<Text>,
    pub variables: Option<BTreeMap<Text, InputValue>>,
    pub analysis: Option<Text>,
    pub extensions: Option<Vec<Text>>,
    pub schema: Option<SchemaText>,
    pub literal_only: Option<bool>,
    pub constraint: Option<bool>,
    pub expect: Expectation,
    pub implementation_defined: Option<Text>,
    pub profiles: Option<BTreeMap<Text, RawProfile>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFile {
    pub spec: OneOrMany,
    pub summary: Text,
    pub kind: Option<Text>,
    pub cases: Vec<RawCase>,
}

/// How a `config` case processes its bodies (suite/README.md, "Bodies and
/// schemas"): `attributes` (the dynamic attributes mode), or a schema with
/// the spec of each block type's bodies and, for partial processing, of the
/// remaining body.
#[derive(Clone, Debug)]
pub(crate) struct SchemaText(pub BodySpec);

impl<'de> Deserialize<'de> for SchemaText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        RawSpec::deserialize(d)
            .and_then(|raw| raw.into_spec().map_err(D::Error::custom))
            .map(SchemaText)
    }
}

enum RawSpec {
    Mode(Text),
    Schema(RawSchema),
}

impl<'de> Deserialize<'de> for RawSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StringOrMapping {
            expecting: "`attributes`, or a schema mapping",
            string: RawSpec::Mode,
            mapping: RawSpec::Schema,
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSchema {
    #[serde(default)]
    attributes: Vec<RawAttributeSchema>,
    #[serde(default)]
    blocks: Vec<RawBlockSchema>,
    remain: Option<Box<RawSpec>>,
}

enum RawAttributeSchema {
    Name(Text),
    Full(RawAttributeFields),
}

impl<'de> Deserialize<'de> for RawAttributeSchema {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StringOrMapping {
            expecting: "an attribute name, or a mapping `{name: ..., required: ...}`",
            string: RawAttributeSchema::Name,
            mapping: RawAttributeSchema::Full,
        })
    }
}

/// Reads a value written either as a string or as a mapping (read as `M`),
/// with errors at the place of the value, or inside the mapping.
struct StringOrMapping<T, M> {
    expecting: &'static str,
    string: fn(Text) -> T,
    mapping: fn(M) -> T,
}

impl<'de, T, M: Deserialize<'de>> serde::de::Visitor<'de> for StringOrMapping<T, M> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<T, E> {
        Ok((self.string)(Text(text.to_string())))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        M::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(self.mapping)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAttributeFields {
    name: Text,
    #[serde(default)]
    required: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBlockSchema {
    #[serde(rename = "type")]
    type_name: Text,
    #[serde(default)]
    labels: Vec<Text>,
    body: Option<Box<RawSpec>>,
}

impl RawSpec {
    fn into_spec(self) -> Result<BodySpec, String> {
        let raw = match self {
            RawSpec::Mode(mode) if &*mode == "attributes" => return Ok(BodySpec::Attributes),
            RawSpec::Mode(other) => {
                return Err(format!(
                    "a body is processed as `attributes` or with a schema \
                     (`{{attributes: [...], blocks: [...], remain: ...}}`), not `{other}`"
                ))
            }
            RawSpec::Schema(raw) => raw,
        };
        let attributes = raw
            .attributes
            .into_iter()
            .map(|a| match a {
                RawAttributeSchema::Name(name) => AttributeSchema {
                    name: name.0,
                    required: false,
                },
                RawAttributeSchema::Full(f) => AttributeSchema {
                    name: f.name.0,
                    required: f.required,
                },
            })
            .collect();
        let mut blocks = Vec::new();
        let mut block_bodies = BTreeMap::new();
        for block in raw.blocks {
            if block_bodies.contains_key(&block.type_name.0)
                || blocks
                    .iter()
                    .any(|b: &BlockHeaderSchema| b.type_name == block.type_name.0)
            {
                return Err(format!(
                    "the block type `{}` is listed twice in one schema",
                    block.type_name
                ));
            }
            if let Some(body) = block.body {
                block_bodies.insert(block.type_name.0.clone(), body.into_spec()?);
            }
            blocks.push(BlockHeaderSchema {
                type_name: block.type_name.0,
                label_names: strings(block.labels),
            });
        }
        let remain = match raw.remain {
            Some(remain) => Some(Box::new(remain.into_spec()?)),
            None => None,
        };
        Ok(BodySpec::Schema {
            schema: BodySchema { attributes, blocks },
            block_bodies,
            remain,
        })
    }
}

/// How deep the flow collections (`[...]`, `{...}`) of a case file may
/// nest: as deep as serde_yaml reads any document (128 levels).
pub(crate) const MAX_FLOW_NESTING: usize = 128;

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
pub(crate) fn flow_nesting_exceeds(text: &str, limit: usize) -> Option<usize> {
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
        let mut holder = indent;
        let mut token = indent;
        let mut at = 0;
        while at < bytes.len() {
            let c = bytes[at];
            let next_is_blank = bytes.get(at + 1).is_none_or(|b| *b == b' ' || *b == b'\t');
            if let Some(q) = quote {
                // An escape: `\x` in double quotes, `''` in single ones.
                let escape = match q {
                    b'"' => c == b'\\',
                    _ => c == b'\'' && bytes.get(at + 1) == Some(&b'\''),
                };
                if escape {
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
                b'-' | b'?' if node_start && next_is_blank => {
                    holder = at;
                }
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

#[cfg(test)]
mod tests {
    use super::flow_nesting_exceeds;

    fn depth(text: &str) -> usize {
        (0..50)
            .find(|limit| flow_nesting_exceeds(text, *limit).is_none())
            .expect("less than 50 deep")
    }

    #[test]
    fn flow_collections_count_where_a_node_starts() {
        assert_eq!(depth("a: [[1], {b: [2]}]\n"), 3);
        assert_eq!(depth("- - [1]\n- {a: {b: c}}\n"), 2);
        assert_eq!(depth("a: !tag [1]\nb: &anchor {c: [d]}\n"), 2);
        assert_eq!(depth("a: [\n  [1,\n   [2]],\n]\n"), 3);
        assert_eq!(flow_nesting_exceeds("a: 1\nb: [[[x]]]\n", 2), Some(2));
    }

    #[test]
    fn text_that_cannot_open_a_collection_is_passed_over() {
        // Plain scalars, quoted scalars, comments, block scalars.
        assert_eq!(depth("expr: a[0] + b[c[1]]\n"), 0);
        assert_eq!(depth("a: '[[['\nb: \"[{\\\"[\"\nc: 'it''s ['\n"), 0);
        assert_eq!(depth("a: 1 # [[[\n# {{{\n"), 0);
        assert_eq!(depth("a: [\"]]\", '}']\n"), 1);
        assert_eq!(
            depth("- name: x\n  config: |\n    [[[\n    {\n\n  expr: [1]\n"),
            1
        );
        assert_eq!(depth("summary: >\n  [[[\nkind: [a]\n"), 1);
        assert_eq!(depth("a: \"multi\n  [[[ line\"\nb: [1]\n"), 1);
        assert_eq!(depth("description: it's [not a list\nb: [1]\n"), 1);
    }

    #[test]
    fn the_suite_nests_a_few_levels() {
        let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/../suite");
        let mut deepest = 0;
        for entry in walkdir::WalkDir::new(suite) {
            let path = entry.unwrap().into_path();
            if path.extension().is_some_and(|e| e == "yaml") {
                let text = std::fs::read_to_string(&path).unwrap();
                deepest = deepest.max(depth(&text));
            }
        }
        assert!((2..10).contains(&deepest), "{deepest}");
    }
}
