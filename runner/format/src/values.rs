//! Values as case files write them (`suite/README.md` § Values),
//! type-directed: a YAML value read as a value of a given type, `!unknown`
//! where it is unknown, numbers possibly `!approx`. The protocol's values
//! are JSON, read by `crate::decoding`.

use hcl_interpreter::diagnostic::{quoted, shown};
use hcl_interpreter::number::Number;
use hcl_interpreter::value::{nfc, ElementTypeError};
use hcl_interpreter::{Type, Value};
use serde_norway::value::TaggedValue;
use serde_norway::Value as Yaml;
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
    /// Every expected value this one holds, itself included.
    pub fn all(&self) -> Vec<&ExpectedValue> {
        let mut all = vec![self];
        let mut i = 0;
        while let Some(v) = all.get(i) {
            match v {
                ExpectedValue::Sequence(items) => all.extend(items),
                ExpectedValue::Mapping(entries) => all.extend(entries.values()),
                _ => {}
            }
            i += 1;
        }
        all
    }

    pub fn has_approx(&self) -> bool {
        self.all()
            .iter()
            .any(|v| matches!(v, ExpectedValue::Approx { .. }))
    }

    /// The value this expectation describes exactly, as a value of `ty`.
    pub fn to_value(&self, ty: &Type) -> Result<Value, String> {
        let built = |r: Result<Value, ElementTypeError>| r.map_err(|e| e.to_string());
        let values = |items: &[ExpectedValue], e: &Type| {
            items
                .iter()
                .map(|item| item.to_value(e))
                .collect::<Result<Vec<_>, _>>()
        };
        let entries = |entries: &BTreeMap<String, ExpectedValue>, t: &dyn Fn(&str) -> Type| {
            let entries = entries
                .iter()
                .map(|(k, v)| Ok((k.clone(), v.to_value(&t(k))?)));
            entries.collect::<Result<Vec<_>, String>>()
        };
        Ok(match (self, ty) {
            (ExpectedValue::Null, _) => Value::Null(ty.clone()),
            (ExpectedValue::Unknown, _) => Value::Unknown(ty.clone()),
            (ExpectedValue::String(s), _) => Value::string(s),
            (ExpectedValue::Number(n), _) => Value::Number(n.clone()),
            (ExpectedValue::Bool(b), _) => Value::Bool(*b),
            (ExpectedValue::Approx { .. }, _) => {
                return Err("an input value cannot be approximate".into())
            }
            (ExpectedValue::Sequence(items), Type::List(e)) => {
                built(Value::list((**e).clone(), values(items, e)?))?
            }
            (ExpectedValue::Sequence(items), Type::Set(e)) => {
                let set = built(Value::set((**e).clone(), values(items, e)?))?;
                if set.children().len() != items.len() {
                    return Err("the elements of a set must be distinct".into());
                }
                set
            }
            (ExpectedValue::Sequence(items), Type::Tuple(types)) => {
                let items = items.iter().zip(types).map(|(item, t)| item.to_value(t));
                Value::Tuple(items.collect::<Result<_, _>>()?)
            }
            (ExpectedValue::Mapping(m), Type::Map(e)) => {
                built(Value::map((**e).clone(), entries(m, &|_| (**e).clone())?))?
            }
            (ExpectedValue::Mapping(m), Type::Object(types)) => {
                Value::object(entries(m, &|k| types[k].clone())?)
            }
            _ => return Err(format!("this value does not fit the type {ty}")),
        })
    }
}

impl From<&Value> for ExpectedValue {
    /// The expectation a value meets exactly.
    fn from(v: &Value) -> ExpectedValue {
        match v {
            Value::Null(_) => ExpectedValue::Null,
            Value::Unknown(_) => ExpectedValue::Unknown,
            Value::String(s) => ExpectedValue::String(s.clone()),
            Value::Number(n) => ExpectedValue::Number(n.clone()),
            Value::Bool(b) => ExpectedValue::Bool(*b),
            Value::List(_, e) | Value::Set(_, e) | Value::Tuple(e) => {
                ExpectedValue::Sequence(e.iter().map(ExpectedValue::from).collect())
            }
            Value::Map(_, e) | Value::Object(e) => {
                ExpectedValue::Mapping(e.iter().map(|(k, v)| (k.clone(), v.into())).collect())
            }
        }
    }
}

/// Reads a YAML value as a value of type `ty`, checking that it fits.
pub fn read_typed_value(yaml: &Yaml, ty: &Type) -> Result<ExpectedValue, String> {
    read_value(yaml, ty, "value")
}

/// Reads the part of a value at `path` (`value[2].name`, for messages).
fn read_value(yaml: &Yaml, ty: &Type, path: &str) -> Result<ExpectedValue, String> {
    let fail = |why: String| Err(format!("{path}: {why}"));
    if let Yaml::Tagged(tagged) = yaml {
        return read_tagged(tagged, ty).or_else(fail);
    }
    if yaml.is_null() {
        return Ok(ExpectedValue::Null);
    }
    let item = |item: &Yaml, t: &Type, at: String| read_value(item, t, &at);
    match (ty, yaml) {
        (Type::Dynamic, _) => {
            fail("the dynamic pseudo-type (`any`) has only null and unknown values".into())
        }
        (Type::String, Yaml::String(s)) => Ok(ExpectedValue::String(nfc(s))),
        (Type::String, other) => fail(format!(
            "a string must be a YAML string; quote {}",
            describe(other)
        )),
        (Type::Bool, Yaml::Bool(b)) => Ok(ExpectedValue::Bool(*b)),
        (Type::Number, _) => read_number(yaml).map(ExpectedValue::Number).or_else(fail),
        (Type::Tuple(types), Yaml::Sequence(items)) if items.len() != types.len() => fail(format!(
            "a {ty} has {} elements, not {}",
            types.len(),
            items.len()
        )),
        (Type::List(e) | Type::Set(e), Yaml::Sequence(items)) => {
            let items = items
                .iter()
                .enumerate()
                .map(|(i, v)| item(v, e, format!("{path}[{i}]")));
            items.collect::<Result<_, _>>().map(ExpectedValue::Sequence)
        }
        (Type::Tuple(types), Yaml::Sequence(items)) => {
            let items = items.iter().zip(types).enumerate();
            let items = items.map(|(i, (v, t))| item(v, t, format!("{path}[{i}]")));
            items.collect::<Result<_, _>>().map(ExpectedValue::Sequence)
        }
        (Type::Map(_) | Type::Object(_), Yaml::Mapping(mapping)) => {
            read_mapping(mapping, ty, path).map(ExpectedValue::Mapping)
        }
        (ty, other) => fail(format!("{} is not a value of {ty}", describe(other))),
    }
}

/// A tagged value: `!unknown` alone, or an `!approx` number.
fn read_tagged(tagged: &TaggedValue, ty: &Type) -> Result<ExpectedValue, String> {
    match (tagged.tag.to_string().as_str(), ty) {
        ("!unknown", _) if tagged.value.is_null() => Ok(ExpectedValue::Unknown),
        ("!unknown", _) => Err("write `!unknown` alone, with no value after it".into()),
        ("!approx", Type::Number) => read_approx(&tagged.value),
        ("!approx", _) => Err(format!("`!approx` is for numbers, and this is a {ty}")),
        (other, _) => Err(format!(
            "unknown tag `{other}`: the tags are !unknown and !approx"
        )),
    }
}

/// The entries of a map or the attributes of an object (`ty`), keys
/// normalized to NFC and distinct after it.
fn read_mapping(
    mapping: &serde_norway::Mapping,
    ty: &Type,
    path: &str,
) -> Result<BTreeMap<String, ExpectedValue>, String> {
    let fail = |why: String| Err(format!("{path}: {why}"));
    let mut entries = BTreeMap::new();
    for (key, v) in mapping {
        let Yaml::String(key) = key else {
            return fail(format!("keys must be strings; quote {}", describe(key)));
        };
        let key = nfc(key);
        let element_type = match ty {
            Type::Object(attributes) => match attributes.get(&key) {
                Some(t) => t,
                None => return fail(format!("{ty} has no attribute {}", quoted(&key))),
            },
            Type::Map(e) => &**e,
            _ => ty,
        };
        let v = read_value(v, element_type, &format!("{path}.{}", shown(&key)))?;
        if entries.insert(key.clone(), v).is_some() {
            return fail(format!(
                "the key {} is given twice (after NFC)",
                quoted(&key)
            ));
        }
    }
    if let Type::Object(attributes) = ty {
        if let Some(missing) = attributes.keys().find(|k| !entries.contains_key(*k)) {
            return fail(format!(
                "attribute {} of {ty} is missing (write `null` for a null)",
                quoted(missing)
            ));
        }
    }
    Ok(entries)
}

fn describe(yaml: &Yaml) -> String {
    match yaml {
        Yaml::Null => "null".into(),
        Yaml::Bool(b) => format!("the bool {b}"),
        Yaml::Number(n) => format!("the number {n}"),
        Yaml::String(s) => format!("the string {}", quoted(s)),
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
            let f = n.as_f64().filter(|f| f.is_finite());
            let f = f.ok_or("write infinities as the strings \"+Inf\" and \"-Inf\"")?;
            let text = format!("{f:e}");
            if text.split('e').next().unwrap_or("").chars().filter(char::is_ascii_digit).count() > 15 {
                return Err(format!(
                    "the YAML float {n} may have lost digits; write numbers of more than 15 significant digits as strings"
                ));
            }
            Number::parse_decimal(&text, true).map_err(|e| e.to_string())
        }
        Yaml::String(s) if s == "+Inf" => Ok(Number::PositiveInfinity),
        Yaml::String(s) if s == "-Inf" => Ok(Number::NegativeInfinity),
        Yaml::String(s) => Number::parse_decimal(s, true).map_err(|e| {
            format!("{} is not a number ({e}); write a decimal such as \"-1.5e300\", \"+Inf\" or \"-Inf\"", quoted(s))
        }),
        other => Err(format!("{} is not a number", describe(other))),
    }
}

/// `!approx "0.333…"`: any number within one unit of the last written digit.
fn read_approx(yaml: &Yaml) -> Result<ExpectedValue, String> {
    let Yaml::String(text) = yaml else {
        return Err("write `!approx` numbers as strings: !approx \"0.333\"".into());
    };
    let value = Number::parse_decimal(text, true).map_err(|e| format!("{}: {e}", quoted(text)))?;
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().map_err(|e| e.to_string())?),
        None => (text.as_str(), 0),
    };
    let fraction_digits = mantissa.split_once('.').map_or(0, |(_, f)| f.len()) as i64;
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if digits.trim_start_matches('0').len() > MAX_APPROX_DIGITS {
        return Err(format!(
            "an !approx number has at most {MAX_APPROX_DIGITS} significant digits: the spec guarantees no more"
        ));
    }
    let tolerance = Number::parse_decimal(&format!("1e{}", exponent - fraction_digits), true);
    Ok(ExpectedValue::Approx {
        value,
        tolerance: tolerance.map_err(|e| e.to_string())?,
        text: text.clone(),
    })
}
