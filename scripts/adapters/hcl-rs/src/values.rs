//! Values between the protocol's typed encoding (PROTOCOL.md § Types and
//! § Values) and hcl-rs's `Value`.
//!
//! hcl-rs's value model is JSON's: null, bool, number, string, array and
//! object, with no types beyond those kinds. So on the way in the type only
//! guides the reading of the JSON (a number may be a JSON string), and is
//! then forgotten: lists, sets and tuples become arrays, maps and objects
//! become objects, and every null is the same null. On the way out the
//! adapter reports the type the value itself shows: an array is a tuple of
//! its elements' types, an object an object of its attributes' types, and
//! null is the null of the dynamic pseudo-type. That is the most an hcl-rs
//! value says; the adapter therefore does not declare `exact-types`.

use crate::numbers::{NumberRefusal, number_from_json, number_to_json};
use hcl::{Map, Value};
use serde_json::{Map as JsonMap, Value as Json, json};

/// Why a protocol value cannot be given to hcl-rs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The request is not well-formed protocol (answered `unsupported`,
    /// with the reason also logged).
    Malformed(String),
    /// A well-formed value that hcl-rs cannot hold: an unknown value, a
    /// number beyond its 64-bit numbers.
    Unsupported(String),
}

impl From<NumberRefusal> for Refusal {
    fn from(refusal: NumberRefusal) -> Self {
        match refusal {
            NumberRefusal::Malformed(why) => Refusal::Malformed(why),
            NumberRefusal::NotRepresentable(why) => Refusal::Unsupported(format!(
                "hcl-rs cannot hold the number {why} (needs big-numbers)"
            )),
        }
    }
}

/// Inputs nest no deeper than this; the runner's own limit is lower.
const MAX_DEPTH: usize = 512;

/// Reads a protocol value (`{"type": T, "value": V, "unknown": U}`) as an
/// hcl-rs value.
///
/// A value with any unknown part is refused: hcl-rs has no unknown values,
/// and substituting a known one would make it answer another question.
pub fn value_from_wire(json: &Json) -> Result<Value, Refusal> {
    let fields = json
        .as_object()
        .ok_or_else(|| Refusal::Malformed(format!("a value is an object, not {json}")))?;
    let ty = fields
        .get("type")
        .ok_or_else(|| Refusal::Malformed("a value lacks its `type`".into()))?;
    if fields.get("unknown").is_some_and(has_unknown_mark) {
        return Err(Refusal::Unsupported("hcl-rs has no unknown values".into()));
    }
    decode(fields.get("value").unwrap_or(&Json::Null), ty, 0)
}

/// Whether an `unknown` mark tree marks anything unknown.
fn has_unknown_mark(mark: &Json) -> bool {
    match mark {
        Json::Bool(b) => *b,
        Json::Array(items) => items.iter().any(has_unknown_mark),
        Json::Object(entries) => entries.values().any(has_unknown_mark),
        _ => false,
    }
}

/// Reads `json` as a value of the protocol type `ty`.
fn decode(json: &Json, ty: &Json, depth: usize) -> Result<Value, Refusal> {
    if depth > MAX_DEPTH {
        return Err(Refusal::Malformed("a value nested too deeply".into()));
    }
    if json.is_null() {
        // Every typed null is hcl-rs's one null.
        return Ok(Value::Null);
    }
    let malformed = || Refusal::Malformed(format!("{json} is not a value of type {ty}"));
    match (ty, json) {
        (Json::String(name), _) => match (name.as_str(), json) {
            ("string", Json::String(s)) => Ok(Value::String(s.clone())),
            ("bool", Json::Bool(b)) => Ok(Value::Bool(*b)),
            ("number", Json::Number(_) | Json::String(_)) => {
                Ok(Value::Number(number_from_json(json)?))
            }
            _ => Err(malformed()),
        },
        (Json::Array(parts), _) => {
            let (Some(Json::String(constructor)), Some(inner), 2) =
                (parts.first(), parts.get(1), parts.len())
            else {
                return Err(Refusal::Malformed(format!("{ty} is not a type")));
            };
            match (constructor.as_str(), json, inner) {
                ("list" | "set", Json::Array(items), element) => items
                    .iter()
                    .map(|item| decode(item, element, depth + 1))
                    .collect::<Result<Vec<_>, _>>()
                    .map(Value::Array),
                ("tuple", Json::Array(items), Json::Array(types)) if items.len() == types.len() => {
                    items
                        .iter()
                        .zip(types)
                        .map(|(item, t)| decode(item, t, depth + 1))
                        .collect::<Result<Vec<_>, _>>()
                        .map(Value::Array)
                }
                ("map", Json::Object(entries), element) => entries
                    .iter()
                    .map(|(k, item)| Ok((k.clone(), decode(item, element, depth + 1)?)))
                    .collect::<Result<Map<_, _>, _>>()
                    .map(Value::Object),
                ("object", Json::Object(entries), Json::Object(types)) => entries
                    .iter()
                    .map(|(k, item)| {
                        let t = types.get(k).ok_or_else(malformed)?;
                        Ok((k.clone(), decode(item, t, depth + 1)?))
                    })
                    .collect::<Result<Map<_, _>, _>>()
                    .map(Value::Object),
                _ => Err(malformed()),
            }
        }
        _ => Err(malformed()),
    }
}

/// Writes an hcl-rs value as a protocol value with the type it shows (see
/// the module documentation).
pub fn value_to_wire(value: &Value) -> Json {
    let (ty, encoded) = encode(value);
    json!({ "type": ty, "value": encoded })
}

/// The shown type and the JSON encoding of an hcl-rs value.
fn encode(value: &Value) -> (Json, Json) {
    match value {
        Value::Null => (json!("dynamic"), Json::Null),
        Value::Bool(b) => (json!("bool"), Json::Bool(*b)),
        Value::Number(n) => (json!("number"), number_to_json(n)),
        Value::String(s) => (json!("string"), Json::String(s.clone())),
        Value::Array(items) => {
            let (types, values): (Vec<Json>, Vec<Json>) = items.iter().map(encode).unzip();
            (json!(["tuple", types]), Json::Array(values))
        }
        Value::Object(entries) => {
            let mut types = JsonMap::new();
            let mut values = JsonMap::new();
            for (k, v) in entries {
                let (t, e) = encode(v);
                types.insert(k.clone(), t);
                values.insert(k.clone(), e);
            }
            (json!(["object", types]), Json::Object(values))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_lose_their_collection_kind() {
        let list = json!({"type": ["list", "number"], "value": [1, "2.5"]});
        assert_eq!(
            value_to_wire(&value_from_wire(&list).unwrap()),
            json!({"type": ["tuple", ["number", "number"]], "value": [1, 2.5]})
        );
        let map = json!({"type": ["map", "string"], "value": {"a": "1"}});
        assert_eq!(
            value_to_wire(&value_from_wire(&map).unwrap()),
            json!({"type": ["object", {"a": "string"}], "value": {"a": "1"}})
        );
    }

    #[test]
    fn a_string_holding_digits_stays_a_string() {
        let s = json!({"type": "string", "value": "12"});
        assert_eq!(value_from_wire(&s).unwrap(), Value::String("12".into()));
    }

    #[test]
    fn unknowns_are_refused() {
        let u = json!({"type": ["list", "number"], "value": [1, null], "unknown": [false, true]});
        assert!(matches!(value_from_wire(&u), Err(Refusal::Unsupported(_))));
        let known = json!({"type": "number", "value": 1, "unknown": false});
        assert!(value_from_wire(&known).is_ok());
    }

    #[test]
    fn typed_null_is_null() {
        let n = json!({"type": ["list", "string"], "value": null});
        assert_eq!(value_from_wire(&n).unwrap(), Value::Null);
        assert_eq!(
            value_to_wire(&Value::Null),
            json!({"type": "dynamic", "value": null})
        );
    }
}
