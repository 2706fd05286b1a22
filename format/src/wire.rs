//! The protocol (`runner/PROTOCOL.md`): requests, answers and the `hello`
//! handshake, declared with serde; and what serde cannot say, go-cty's JSON
//! encoding of types and values: a value as `{"type", "value", "unknown"}`,
//! numbers as decimal strings (or JSON numbers), the infinities as
//! `"+Inf"`/`"-Inf"`.

use crate::envelope::check_request;
use crate::kinds::{Body, Input, Keyword, Kind, Named, StaticShape, MAX_DEPTH};
use crate::values::read_typed_value;
use hcl_interpreter::convert::Safety;
use hcl_interpreter::diagnostic::{quoted, shown};
use hcl_interpreter::{Diagnostic, Phase, Type, Value};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{json, Map, Value as Json};
use serde_norway::value::{Tag, TaggedValue};
use serde_norway::Value as Yaml;
use std::collections::BTreeSet;

/// The version of the protocol that the runner and `hcl-ref` speak.
pub const PROTOCOL_VERSION: u64 = 1;

/// The version of the runner and of the protocol, as `--version` shows it.
pub fn version() -> &'static str {
    static VERSION: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "{} (protocol version {PROTOCOL_VERSION})",
            env!("CARGO_PKG_VERSION")
        )
    });
    &VERSION
}

/// A request for a case's input, as `hcl-ref` reads it.
pub type Request = Input<Ty, Val>;

/// A type in go-cty's JSON type encoding.
#[derive(Clone, Debug, PartialEq, Eq, derive_more::Deref)]
pub struct Ty(pub Type);

/// A value with its type: `{"type": T, "value": V, "unknown": U}`.
#[derive(Clone, Debug, PartialEq, derive_more::Deref)]
pub struct Val(pub Value);

/// A type in go-cty's JSON type encoding.
pub fn type_to_json(ty: &Type) -> Json {
    let tagged = |name: &str, inner: Json| Json::Array(vec![name.into(), inner]);
    match ty {
        Type::String => "string".into(),
        Type::Number => "number".into(),
        Type::Bool => "bool".into(),
        Type::Dynamic => "dynamic".into(),
        Type::List(e) => tagged("list", type_to_json(e)),
        Type::Set(e) => tagged("set", type_to_json(e)),
        Type::Map(e) => tagged("map", type_to_json(e)),
        Type::Object(attributes) => {
            let attributes = attributes.iter().map(|(k, t)| (k.clone(), type_to_json(t)));
            tagged("object", Json::Object(attributes.collect()))
        }
        Type::Tuple(elements) => tagged("tuple", elements.iter().map(type_to_json).collect()),
    }
}

/// Reads a type in go-cty's JSON type encoding.
pub fn type_from_json(json: &Json, depth: usize) -> Result<Type, String> {
    if depth > MAX_DEPTH {
        return Err("a type nested too deeply".into());
    }
    let inner = |j: &Json| type_from_json(j, depth + 1);
    let parts = json
        .as_array()
        .map(|p| (p.first().and_then(Json::as_str), p.get(1..)));
    Ok(match (json.as_str(), parts) {
        (Some("string"), _) => Type::String,
        (Some("number"), _) => Type::Number,
        (Some("bool"), _) => Type::Bool,
        (Some("dynamic"), _) => Type::Dynamic,
        (Some(other), _) => return Err(format!("unknown type name {}", quoted(other))),
        (_, Some((Some("list"), Some([e])))) => Type::list(inner(e)?),
        (_, Some((Some("set"), Some([e])))) => Type::set(inner(e)?),
        (_, Some((Some("map"), Some([e])))) => Type::map(inner(e)?),
        (_, Some((Some("tuple"), Some([Json::Array(elements)])))) => {
            Type::Tuple(elements.iter().map(inner).collect::<Result<_, _>>()?)
        }
        // go-cty writes an object type with optional attributes (a type
        // constraint) with a third element, the optional attributes' names:
        // the information model has no optional attributes, so the list is
        // checked and otherwise ignored.
        (_, Some((Some("object"), Some([Json::Object(attributes), optional @ ..]))))
            if optional.len() < 2
                && optional.iter().all(|names| {
                    let names = names.as_array().map(|n| n.iter().map(Json::as_str));
                    names.is_some_and(|mut n| {
                        n.all(|n| n.is_some_and(|n| attributes.contains_key(n)))
                    })
                }) =>
        {
            let attributes = attributes.iter().map(|(k, t)| Ok((k.clone(), inner(t)?)));
            Type::Object(attributes.collect::<Result<_, String>>()?)
        }
        _ => return Err(format!("not a type: {}", shown(json))),
    })
}

/// The value's JSON and, when it is or holds an unknown, its unknown marks.
fn encode_value(v: &Value) -> (Json, Option<Json>) {
    match v {
        Value::Unknown(_) => (Json::Null, Some(Json::Bool(true))),
        Value::Null(_) => (Json::Null, None),
        Value::String(s) => (Json::String(s.clone()), None),
        Value::Number(n) => (Json::String(n.to_decimal_string()), None),
        Value::Bool(b) => (Json::Bool(*b), None),
        Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
            let (values, marks): (Vec<Json>, Vec<Option<Json>>) =
                elements.iter().map(encode_value).unzip();
            let unknown = marks.iter().any(Option::is_some);
            let marks = marks.into_iter().map(|m| m.unwrap_or(Json::Bool(false)));
            (Json::Array(values), unknown.then(|| marks.collect()))
        }
        Value::Map(_, entries) | Value::Object(entries) => {
            let (mut values, mut marks) = (Map::new(), Map::new());
            for (k, v) in entries {
                let (j, u) = encode_value(v);
                values.insert(k.clone(), j);
                marks.extend(u.map(|u| (k.clone(), u)));
            }
            (
                Json::Object(values),
                (!marks.is_empty()).then_some(Json::Object(marks)),
            )
        }
    }
}

/// A value as `{"type": T, "value": V, "unknown": U}`.
pub fn value_to_json(v: &Value) -> Json {
    let (value, unknown) = encode_value(v);
    let mut out = Map::from_iter([
        ("type".into(), type_to_json(&v.ty())),
        ("value".into(), value),
    ]);
    out.extend(unknown.map(|u| ("unknown".to_string(), u)));
    Json::Object(out)
}

/// Reads a value encoded as `{"type", "value", "unknown"}`: the unknown
/// marks are checked against the value and become `!unknown` tags, JSON
/// numbers `!number` ones, and the value is read as a case file's value of
/// its type ([`read_typed_value`]).
pub fn value_from_json(json: &Json) -> Result<Value, String> {
    let Json::Object(fields) = json else {
        return Err(format!(
            "a value is an object with `type` and `value`, not {}",
            shown(json)
        ));
    };
    if let Some(extra) = fields
        .keys()
        .find(|k| !["type", "value", "unknown"].contains(&k.as_str()))
    {
        return Err(format!("a value has no member `{}`", shown(extra)));
    }
    let ty = type_from_json(fields.get("type").ok_or("a value lacks its `type`")?, 0)?;
    let value = fields.get("value").unwrap_or(&Json::Null);
    let yaml = as_yaml(value, fields.get("unknown").unwrap_or(&Json::Bool(false)))?;
    read_typed_value(&yaml, &ty)?.to_value(&ty)
}

/// A JSON value and its unknown marks as YAML with tags.
fn as_yaml(json: &Json, unknown: &Json) -> Result<Yaml, String> {
    let tagged = |tag: &str, value| {
        Yaml::Tagged(Box::new(TaggedValue {
            tag: Tag::new(tag),
            value,
        }))
    };
    let false_ = Json::Bool(false);
    Ok(match (json, unknown) {
        (Json::Null, Json::Bool(true)) => tagged("unknown", Yaml::Null),
        (_, Json::Bool(true)) => {
            return Err(format!(
                "a value marked unknown (`unknown`: true) is written null, not {}",
                shown(json)
            ))
        }
        (Json::Array(items), Json::Array(marks)) if marks.len() != items.len() => {
            let (m, i) = (marks.len(), items.len());
            return Err(format!(
                "the unknown marks hold {m} entries for a sequence of {i}"
            ));
        }
        (Json::Object(entries), Json::Object(marks))
            if !marks.keys().all(|k| entries.contains_key(k)) =>
        {
            let extra = marks.keys().find(|k| !entries.contains_key(*k));
            let extra = extra.map(|e| quoted(e).to_string()).unwrap_or_default();
            return Err(format!(
                "the unknown marks name {extra}, which the value lacks"
            ));
        }
        (Json::Array(items), Json::Array(_) | Json::Bool(false) | Json::Null) => {
            let mark = |i: usize| unknown.get(i).unwrap_or(&false_);
            let items = items
                .iter()
                .enumerate()
                .map(|(i, item)| as_yaml(item, mark(i)));
            Yaml::Sequence(items.collect::<Result<_, _>>()?)
        }
        (Json::Object(entries), Json::Object(_) | Json::Bool(false) | Json::Null) => {
            let mark = |k: &str| unknown.get(k).unwrap_or(&false_);
            let entries = entries
                .iter()
                .map(|(k, v)| Ok((Yaml::String(k.clone()), as_yaml(v, mark(k))?)));
            Yaml::Mapping(entries.collect::<Result<_, String>>()?)
        }
        (_, Json::Array(_) | Json::Object(_)) => {
            return Err(format!(
            "unknown marks are an array for a sequence and an object for a mapping, not {} for {}",
            shown(unknown),
            shown(json)
        ))
        }
        (_, Json::Bool(false) | Json::Null) => match json {
            Json::Number(n) => tagged("number", Yaml::String(n.to_string())),
            Json::String(s) => Yaml::String(s.clone()),
            Json::Bool(b) => Yaml::Bool(*b),
            _ => Yaml::Null,
        },
        (_, other) => {
            return Err(format!(
                "unknown marks are true, false, arrays or objects, not {}",
                shown(other)
            ))
        }
    })
}

impl Serialize for Ty {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        type_to_json(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Ty {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        type_from_json(&Json::deserialize(d)?, 0)
            .map(Ty)
            .map_err(D::Error::custom)
    }
}

impl Serialize for Val {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        value_to_json(self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Val {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        value_from_json(&Json::deserialize(d)?)
            .map(Val)
            .map_err(D::Error::custom)
    }
}

impl JsonSchema for Ty {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "type".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let pair = |name: Json, inner: Json| json!({ "type": "array", "prefixItems": [name, inner], "minItems": 2 });
        json_schema!({
            "description": "A type in go-cty's JSON type encoding",
            "anyOf": [
                { "enum": ["string", "number", "bool", "dynamic"] },
                pair(json!({ "enum": ["list", "set", "map"] }), json!({ "$ref": "#/$defs/type" })),
                pair(json!({ "const": "tuple" }), json!({ "type": "array", "items": { "$ref": "#/$defs/type" } })),
                pair(json!({ "const": "object" }), json!({ "additionalProperties": { "$ref": "#/$defs/type" } })),
            ]
        })
    }
}

impl JsonSchema for Val {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "value".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A value with its type; numbers are decimal strings or JSON numbers",
            "type": "object",
            "properties": { "type": g.subschema_for::<Ty>(), "value": true, "unknown": true },
            "required": ["type"],
            "additionalProperties": false
        })
    }
}

/// A request line: the request's id, and what it asks.
#[derive(Serialize, JsonSchema)]
pub struct RequestLine<'a, I> {
    pub id: &'a str,
    #[serde(flatten)]
    pub input: &'a I,
}

/// The handshake's request, the first to the first process.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hello {
    pub id: String,
    /// `hello`.
    pub kind: String,
    pub protocol: u64,
}

/// What an implementation says of itself in its answer to `hello`.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct HelloAnswer {
    #[serde(default = "unnamed")]
    pub name: String,
    #[serde(default)]
    pub version: String,
    pub capabilities: Capabilities,
}

fn unnamed() -> String {
    "unnamed".into()
}

/// The request kinds an implementation answers, and its optional features.
#[derive(Clone, Debug, Default, Serialize, Deserialize, JsonSchema)]
pub struct Capabilities {
    pub kinds: BTreeSet<String>,
    #[serde(default)]
    pub features: BTreeSet<String>,
    /// The syntaxes whose source text it reads: `native`, `json`. Absent,
    /// both (protocol version 1 began without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub syntaxes: Option<BTreeSet<String>>,
}

/// What an implementation answered for a case: an answer member of the
/// protocol (`{"id": ..., "type": ...}`), or what the runner makes of an
/// exchange that went wrong (not written).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// A type (`unify`, `typeexpr`).
    Type(Ty),
    /// A body (`config`).
    Body(Body<Attribute>),
    /// A yes/no answer (`identical`, `matches`).
    Result(bool),
    /// `true`: the source parsed (the answer of a `parse-only`
    /// implementation).
    Parsed(bool),
    /// The input was rejected, in a phase, with diagnostics that say why
    /// (shown, never compared).
    Error(ErrorAnswer),
    /// The implementation cannot run this case, and says why.
    Unsupported(String),
    /// The implementation could not read the request, and says why.
    Malformed(String),
    /// It exited, or closed its output, without an answer.
    #[serde(skip)]
    Crashed(String),
    /// No answer within the time limit.
    #[serde(skip)]
    TimedOut(String),
    /// Something that is no answer: not JSON, not UTF-8, too long, another
    /// request's id...
    #[serde(skip)]
    Broken(String),
    /// A value; `safety` when the implementation reports it.
    #[serde(untagged)]
    Value {
        value: Val,
        #[serde(skip_serializing_if = "Option::is_none")]
        safety: Option<Named<Safety>>,
    },
    /// The result of a static analysis (`static`).
    #[serde(untagged)]
    Static(StaticShape),
}

/// An error answer: the phase, and the diagnostics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorAnswer {
    pub phase: Named<Phase>,
    #[serde(default)]
    pub diagnostics: Vec<WireDiagnostic>,
}

/// A diagnostic; `range` with the feature `ranges`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WireDiagnostic {
    #[serde(default)]
    pub severity: String,
    #[serde(default)]
    pub summary: String,
    #[serde(default)]
    pub detail: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<WireRange>,
}

/// A source range, from `start` to `end` (exclusive); lines and columns
/// count from 1, bytes from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WireRange {
    pub start: WirePos,
    pub end: WirePos,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WirePos {
    pub line: usize,
    pub column: usize,
    #[serde(default)]
    pub byte: usize,
}

impl ErrorAnswer {
    /// The interpreter's diagnostics, in the phase of the first.
    pub fn from_diagnostics(diagnostics: &[Diagnostic]) -> ErrorAnswer {
        let pos = |p: hcl_interpreter::diagnostic::Pos| WirePos {
            line: p.line,
            column: p.column,
            byte: p.byte,
        };
        let diagnostic = |d: &Diagnostic| WireDiagnostic {
            severity: "error".into(),
            summary: d.summary.clone(),
            detail: d.detail.clone(),
            range: d.range.map(|r| WireRange {
                start: pos(r.start),
                end: pos(r.end),
            }),
        };
        ErrorAnswer {
            phase: Named(diagnostics.first().map_or(Phase::Eval, |d| d.phase)),
            diagnostics: diagnostics.iter().map(diagnostic).collect(),
        }
    }

    /// The ranges of the diagnostics, written `L:C-L:C`.
    pub fn ranges(&self) -> Vec<String> {
        let ranges = self.diagnostics.iter().filter_map(|d| d.range);
        ranges
            .map(|WireRange { start: s, end: e }| {
                format!("{}:{}-{}:{}", s.line, s.column, e.line, e.column)
            })
            .collect()
    }
}

/// A `config` answer's attribute: its value, or, from an implementation
/// with the feature `unevaluated-values`, `{"unevaluated": REASON}`.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Attribute {
    Value(Val),
    Unevaluated { unevaluated: String },
}

impl<'de> Deserialize<'de> for Attribute {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let json = Json::deserialize(d)?;
        match json
            .as_object()
            .filter(|o| o.len() == 1)
            .and_then(|o| o.get("unevaluated"))
        {
            Some(why) => {
                let unevaluated = why.as_str().unwrap_or("no reason given").into();
                Ok(Attribute::Unevaluated { unevaluated })
            }
            None => value_from_json(&json)
                .map(|v| Attribute::Value(Val(v)))
                .map_err(D::Error::custom),
        }
    }
}

/// An answer line: the request's id (`null` when it cannot be read), and
/// the answer.
#[derive(Serialize, JsonSchema)]
pub struct AnswerLine<'a> {
    pub id: Option<&'a str>,
    #[serde(flatten)]
    pub outcome: &'a Outcome,
}

/// Reads from JSON with `read`, naming the member where it fails
/// ("`variables`.x: ..."; each name cut as [`shown`] cuts it).
pub fn from_json<'de, T, D: Deserializer<'de>>(
    d: D,
    read: impl FnOnce(serde_path_to_error::Deserializer<'_, '_, D>) -> Result<T, D::Error>,
) -> Result<T, String> {
    let mut track = serde_path_to_error::Track::new();
    read(serde_path_to_error::Deserializer::new(d, &mut track)).map_err(|e| {
        let path = track.path().to_string();
        match path.find(['.', '[']) {
            _ if path == "." => e.to_string(),
            Some(end) => format!("`{}`{}: {e}", shown(&path[..end]), shown(&path[end..])),
            None => format!("`{}`: {e}", shown(&path)),
        }
    })
}

/// Reads a request's input (the implementation side: `hcl-ref`). A missing
/// or ill-typed member, a member the kind does not have, an unknown
/// syntax, analysis, operation or extension is an error naming the member
/// ([`check_request`] checks the members first, in the protocol's words);
/// an unknown kind is `Ok(Err(why))`.
pub fn read_request(members: &Map<String, Json>) -> Result<Result<Request, String>, String> {
    let kind = match members.get("kind") {
        Some(Json::String(kind)) => kind,
        Some(other) => {
            return Err(format!(
                "`kind` must be a string, not {}",
                crate::envelope::json_kind(other)
            ))
        }
        None => return Err("the request lacks `kind`".into()),
    };
    let Some(kind) = Kind::ALL.iter().find(|k| k.name() == kind) else {
        return Ok(Err(format!("unknown kind {}", quoted(kind))));
    };
    check_request(*kind, members)?;
    let fields = members
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "id" | "kind"));
    let fields = Json::Object(fields.map(|(k, v)| (k.clone(), v.clone())).collect());
    let input = from_json(fields, |d| Request::read(*kind, d))?;
    input.check().map(|()| Ok(input))
}

/// The kinds a `parse-only` implementation answers by parsing.
pub const PARSED_KINDS: &[Kind] = &[Kind::Expr, Kind::Template, Kind::Config];

/// The members that say what an answer is, of which an answer has one
/// (runner/PROTOCOL.md § What the runner does with answers).
pub const ANSWER_MEMBERS: &[&str] = &[
    "value",
    "type",
    "result",
    "body",
    "list",
    "map",
    "call",
    "traversal",
    "parsed",
    "error",
    "unsupported",
    "malformed",
];

/// Reads an implementation's answer to a request of kind `kind` (the runner
/// side). An answer with more than one of [`ANSWER_MEMBERS`] (a member that
/// is `null` counts as absent) is no answer.
pub fn outcome_from_answer(answer: &Json, kind: Kind) -> Result<Outcome, String> {
    let member = |name: &str| answer.get(name).filter(|m| !m.is_null());
    let given: Vec<String> = ANSWER_MEMBERS
        .iter()
        .filter(|name| member(name).is_some())
        .map(|name| format!("`{name}`"))
        .collect();
    if let [rest @ .., last] = &given[..] {
        if !rest.is_empty() {
            return Err(format!(
                "the answer has {} and {last}, where an answer has only one of them",
                rest.join(", ")
            ));
        }
    }
    fn read<T: DeserializeOwned>(json: &Json) -> Result<T, String> {
        from_json(json, |d| T::deserialize(d))
    }
    let text = |m: &Json| m.as_str().unwrap_or("no reason given").to_string();
    if let Some(why) = member("malformed") {
        return Ok(Outcome::Malformed(text(why)));
    }
    if let Some(why) = member("unsupported") {
        return Ok(Outcome::Unsupported(text(why)));
    }
    let wanted: &[&str] = match kind {
        _ if member("error").is_some() => &["error"],
        // A `parse-only` implementation's answer to a source it accepts.
        _ if member("parsed").is_some() && PARSED_KINDS.contains(&kind) => &["parsed"],
        Kind::Unify | Kind::TypeExpr => &["type"],
        Kind::Identical | Kind::Matches => &["result"],
        Kind::Config => &["body"],
        Kind::Static => &["list", "map", "call", "traversal"],
        _ => &["value"],
    };
    let Some((name, json)) = wanted.iter().find_map(|n| Some((*n, member(n)?))) else {
        let wanted = wanted.join("`, `");
        return Err(format!(
            "an answer to a `{}` request has `{wanted}`, `error` or `unsupported`",
            kind.name()
        ));
    };
    let at = |e: String| format!("`{name}`: {e}");
    Ok(match name {
        "error" => Outcome::Error(read(json).map_err(at)?),
        "parsed" if *json == Json::Bool(true) => Outcome::Parsed(true),
        "parsed" => return Err(format!("`parsed` is true, not {}", shown(json))),
        "type" => Outcome::Type(read(json).map_err(at)?),
        "result" => Outcome::Result(read(json).map_err(at)?),
        "body" => Outcome::Body(read(json).map_err(at)?),
        "value" => Outcome::Value {
            value: read(json).map_err(at)?,
            safety: member("safety")
                .map(read)
                .transpose()
                .map_err(|e| format!("`safety`: {e}"))?,
        },
        _ => Outcome::Static(read(&Json::Object(Map::from_iter([(
            name.into(),
            json.clone(),
        )])))?),
    })
}
