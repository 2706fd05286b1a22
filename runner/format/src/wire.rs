//! The protocol (`runner/PROTOCOL.md`): requests, answers and the `hello`
//! handshake, declared with serde; and what serde cannot say, go-cty's JSON
//! encoding of types and values: a value as `{"type", "value", "unknown"}`,
//! numbers as decimal strings (or JSON numbers), the infinities as
//! `"+Inf"`/`"-Inf"`.

pub use crate::decoding::type_from_json;
use crate::decoding::{value_within, with_request_budget};
use crate::envelope::check_request;
use crate::kinds::{Body, Input, Keyword, Kind, Named, StaticShape};
use hcl_interpreter::budget::Budget;
use hcl_interpreter::convert::Safety;
use hcl_interpreter::diagnostic::{quoted, shown};
use hcl_interpreter::{Diagnostic, Phase, Type, Value};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{json, Map, Value as Json};
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
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, derive_more::Deref)]
#[serde(try_from = "Json")]
pub struct Ty(pub Type);

/// A value with its type: `{"type": T, "value": V, "unknown": U}`.
#[derive(Clone, Debug, PartialEq, Deserialize, derive_more::Deref)]
#[serde(try_from = "Json")]
pub struct Val(pub Value);

impl From<Val> for Value {
    fn from(val: Val) -> Value {
        val.0
    }
}

/// A type in go-cty's JSON type encoding.
pub fn type_to_json(ty: &Type) -> Json {
    serde_json::to_value(TypeJson(ty)).unwrap_or(Json::Null)
}

/// A value as `{"type": T, "value": V, "unknown": U}`.
pub fn value_to_json(v: &Value) -> Json {
    serde_json::to_value(ValueJson(v)).unwrap_or(Json::Null)
}

/// A type, written in go-cty's JSON type encoding as it is serialized:
/// `"string"`, `["list", T]`, `["object", {"name": T}]`...
struct TypeJson<'a>(&'a Type);

impl Serialize for TypeJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Type::String => s.serialize_str("string"),
            Type::Number => s.serialize_str("number"),
            Type::Bool => s.serialize_str("bool"),
            Type::Dynamic => s.serialize_str("dynamic"),
            Type::List(e) => ("list", TypeJson(e)).serialize(s),
            Type::Set(e) => ("set", TypeJson(e)).serialize(s),
            Type::Map(e) => ("map", TypeJson(e)).serialize(s),
            Type::Object(attributes) => {
                let attributes = attributes.iter().map(|(k, t)| (k, TypeJson(t)));
                ("object", map_of(attributes)).serialize(s)
            }
            Type::Tuple(elements) => ("tuple", seq_of(elements.iter().map(TypeJson))).serialize(s),
        }
    }
}

/// The type of a value, written as [`TypeJson`] writes it, without
/// computing it first: a tuple's or an object's type is as large as the
/// value.
struct TypeOfJson<'a>(&'a Value);

impl Serialize for TypeOfJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null(ty) | Value::Unknown(ty) => TypeJson(ty).serialize(s),
            Value::String(_) => s.serialize_str("string"),
            Value::Number(_) => s.serialize_str("number"),
            Value::Bool(_) => s.serialize_str("bool"),
            Value::List(e, _) => ("list", TypeJson(e)).serialize(s),
            Value::Set(e, _) => ("set", TypeJson(e)).serialize(s),
            Value::Map(e, _) => ("map", TypeJson(e)).serialize(s),
            Value::Object(attributes) => {
                let attributes = attributes.iter().map(|(k, v)| (k, TypeOfJson(v)));
                ("object", map_of(attributes)).serialize(s)
            }
            Value::Tuple(elements) => {
                ("tuple", seq_of(elements.iter().map(TypeOfJson))).serialize(s)
            }
        }
    }
}

/// A value as `{"type": T, "value": V, "unknown": U}`, serialized as it is
/// walked, its members in the order of their names (as a JSON object of
/// serde_json writes them). Written within
/// [`crate::decoding::within_request_budget`], the work of writing its
/// large numbers as text is paid for from the request's budget.
struct ValueJson<'a>(&'a Value);

impl Serialize for ValueJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let holders = UnknownHolders::of(self.0);
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("type", &TypeOfJson(self.0))?;
        if holders.holds(self.0) {
            map.serialize_entry("unknown", &MarksJson(self.0, &holders))?;
        }
        with_request_budget(|budget| map.serialize_entry("value", &ContentJson(self.0, budget)))?;
        map.end()
    }
}

/// The `value` member of a value's encoding: go-cty's JSON encoding, every
/// unknown position `null`, every number a decimal string.
struct ContentJson<'a>(&'a Value, Option<&'a Budget>);

impl Serialize for ContentJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let budget = self.1;
        match self.0 {
            Value::Unknown(_) | Value::Null(_) => s.serialize_unit(),
            Value::String(text) => s.serialize_str(text),
            Value::Number(n) => {
                if let Some(budget) = budget {
                    budget
                        .charge(n.text_work())
                        .map_err(|e| serde::ser::Error::custom(e.detail()))?;
                }
                s.serialize_str(&n.to_decimal_string())
            }
            Value::Bool(b) => s.serialize_bool(*b),
            Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
                seq_of(elements.iter().map(|e| ContentJson(e, budget))).serialize(s)
            }
            Value::Map(_, entries) | Value::Object(entries) => {
                let entries = entries.iter().map(|(k, v)| (k, ContentJson(v, budget)));
                map_of(entries).serialize(s)
            }
        }
    }
}

/// The unknown marks of a value that is or holds an unknown: `true` for an
/// unknown value, an array for a sequence (`false` at each element without
/// an unknown), an object for a mapping (naming only the keys whose values
/// hold one).
struct MarksJson<'a>(&'a Value, &'a UnknownHolders);

impl Serialize for MarksJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let holders = self.1;
        match self.0 {
            Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
                let marks = elements.iter().map(|e| match holders.holds(e) {
                    true => Some(MarksJson(e, holders)),
                    false => None,
                });
                // `None` is written `null`: false is what a mark without an
                // unknown is, so it is written `false`.
                seq_of(marks.map(MarkOrFalse)).serialize(s)
            }
            Value::Map(_, entries) | Value::Object(entries) => {
                let marks = entries.iter().filter(|(_, v)| holders.holds(v));
                map_of(marks.map(|(k, v)| (k, MarksJson(v, holders)))).serialize(s)
            }
            _ => s.serialize_bool(holders.holds(self.0)),
        }
    }
}

/// A mark, or `false` where there is none.
struct MarkOrFalse<'a>(Option<MarksJson<'a>>);

impl Serialize for MarkOrFalse<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Some(marks) => marks.serialize(s),
            None => s.serialize_bool(false),
        }
    }
}

/// The parts of a value that are or hold an unknown value, found in one
/// walk (without recursion: values nest as deep as their source), so that
/// writing the marks takes time linear in the value.
struct UnknownHolders(std::collections::HashSet<*const Value>);

impl UnknownHolders {
    fn of(root: &Value) -> UnknownHolders {
        let mut holders = std::collections::HashSet::new();
        if root.is_wholly_known() {
            return UnknownHolders(holders);
        }
        fn for_each_part<'v>(v: &'v Value, f: impl FnMut(&'v Value)) {
            match v {
                Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
                    elements.iter().for_each(f)
                }
                Value::Map(_, entries) | Value::Object(entries) => entries.values().for_each(f),
                _ => {}
            }
        }
        // Each part is visited before its parts, and settled after them.
        let mut stack: Vec<(&Value, bool)> = vec![(root, false)];
        while let Some((v, settled)) = stack.pop() {
            if settled {
                let mut holds = v.is_unknown();
                for_each_part(v, |part| holds |= holders.contains(&(part as *const Value)));
                if holds {
                    holders.insert(v as *const Value);
                }
            } else {
                stack.push((v, true));
                for_each_part(v, |part| stack.push((part, false)));
            }
        }
        UnknownHolders(holders)
    }

    /// Whether `v`, a part of the value, is or holds an unknown value.
    fn holds(&self, v: &Value) -> bool {
        !self.0.is_empty() && self.0.contains(&(v as *const Value))
    }
}

/// Items serialized as a JSON array as they come.
struct SeqOf<I>(std::cell::Cell<Option<I>>);

/// Entries serialized as a JSON object as they come.
struct MapOf<I>(std::cell::Cell<Option<I>>);

impl<I: Iterator<Item = T>, T: Serialize> Serialize for SeqOf<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.take().into_iter().flatten())
    }
}

impl<I: Iterator<Item = (K, V)>, K: Serialize, V: Serialize> Serialize for MapOf<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.take().into_iter().flatten())
    }
}

/// An array of `items`, serialized as they come.
fn seq_of<I>(items: I) -> SeqOf<I> {
    SeqOf(std::cell::Cell::new(Some(items)))
}

/// An object of `entries`, serialized as they come.
fn map_of<I>(entries: I) -> MapOf<I> {
    MapOf(std::cell::Cell::new(Some(entries)))
}

/// Reads a value encoded as `{"type", "value", "unknown"}` straight into
/// the interpreter's value, its type directing: the unknown marks are
/// checked against the value, and the value read as a value of its type.
/// Within [`crate::decoding::within_request_budget`] what it builds is paid for
/// from the request's evaluation budget.
pub fn value_from_json(json: &Json) -> Result<Value, String> {
    with_request_budget(|budget| value_within(json, budget))
}

impl Serialize for Ty {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        TypeJson(self).serialize(s)
    }
}

/// Within [`crate::decoding::within_request_budget`] the type is paid for from
/// the request's evaluation budget.
impl TryFrom<Json> for Ty {
    type Error = String;
    fn try_from(json: Json) -> Result<Ty, String> {
        let ty = type_from_json(&json, 0)?;
        with_request_budget(|budget| match budget.map(|b| b.charge_type(&ty)) {
            Some(Err(exceeded)) => Err(exceeded.detail()),
            _ => Ok(Ty(ty)),
        })
    }
}

impl Serialize for Val {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ValueJson(self).serialize(s)
    }
}

impl TryFrom<Json> for Val {
    type Error = String;
    fn try_from(json: Json) -> Result<Val, String> {
        value_from_json(&json).map(Val)
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
pub fn read_request(mut members: Map<String, Json>) -> Result<Result<Request, String>, String> {
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
    check_request(*kind, &members)?;
    // The other members are read as they are, without a copy: a request's
    // values can be large.
    members.remove("id");
    members.remove("kind");
    let input = from_json(Json::Object(members), |d| Request::read(*kind, d))?;
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
