//! The protocol's JSON encoding of requests, types, values and answers.
//!
//! Specified in `runner/PROTOCOL.md`: types in go-cty's JSON type encoding,
//! values as `{"type", "value", "unknown"}` with numbers as decimal strings
//! (or JSON numbers) and the infinities as `"+Inf"`/`"-Inf"`.

use crate::outcome::{Block, Body, Outcome};
use crate::suite::{Input, StaticShape, Syntax, CASE_KINDS, EXPR_EXTENSIONS, EXTENSIONS};
use hcl_interpreter::bodies::{AttributeSchema, BlockHeaderSchema, BodySchema, BodySpec};
use hcl_interpreter::convert::Safety;
use hcl_interpreter::diagnostic::{Pos, Range};
use hcl_interpreter::number::Number;
use hcl_interpreter::operations::Operation;
use hcl_interpreter::static_analysis::Analysis;
use hcl_interpreter::{Diagnostic, Phase, Type, Value};
use serde_json::{json, Map, Value as Json};
use std::collections::BTreeMap;

/// The version of the protocol (runner/PROTOCOL.md) that the runner and
/// `hcl-ref` speak; `hello` carries it.
pub const PROTOCOL_VERSION: u64 = 1;

/// The deepest nesting of a type, a value or a schema that a request or an
/// answer may hold (runner/PROTOCOL.md § Limits): deeper ones are rejected,
/// not recursed into.
pub const MAX_DEPTH: usize = 1000;

/// A two-element JSON array, `[name, inner]`. (Built directly: the `json!`
/// macro would copy an inner `Json`, which makes deep encodings quadratic.)
fn tagged(name: &str, inner: Json) -> Json {
    Json::Array(vec![Json::String(name.into()), inner])
}

/// A type in go-cty's JSON type encoding.
pub fn type_to_json(ty: &Type) -> Json {
    match ty {
        Type::String => Json::String("string".into()),
        Type::Number => Json::String("number".into()),
        Type::Bool => Json::String("bool".into()),
        Type::Dynamic => Json::String("dynamic".into()),
        Type::List(e) => tagged("list", type_to_json(e)),
        Type::Set(e) => tagged("set", type_to_json(e)),
        Type::Map(e) => tagged("map", type_to_json(e)),
        Type::Object(attributes) => tagged(
            "object",
            Json::Object(
                attributes
                    .iter()
                    .map(|(k, t)| (k.clone(), type_to_json(t)))
                    .collect(),
            ),
        ),
        Type::Tuple(elements) => tagged(
            "tuple",
            Json::Array(elements.iter().map(type_to_json).collect()),
        ),
    }
}

/// Reads a type in go-cty's JSON type encoding.
pub fn type_from_json(json: &Json) -> Result<Type, String> {
    type_from_json_at(json, 0)
}

fn type_from_json_at(json: &Json, depth: usize) -> Result<Type, String> {
    if depth > MAX_DEPTH {
        return Err("a type nested too deeply".into());
    }
    let inner = |j: &Json| type_from_json_at(j, depth + 1);
    match json {
        Json::String(name) => match name.as_str() {
            "string" => Ok(Type::String),
            "number" => Ok(Type::Number),
            "bool" => Ok(Type::Bool),
            "dynamic" => Ok(Type::Dynamic),
            other => Err(format!("unknown type name {other:?}")),
        },
        // go-cty writes an object type with optional attributes (a type
        // constraint) with a third element, the optional attributes' names:
        // the information model has no optional attributes, so the list is
        // checked and otherwise ignored.
        Json::Array(parts)
            if parts.len() == 2
                || (parts.len() == 3
                    && parts[0] == "object"
                    && optional_attributes_of(&parts[1], &parts[2])) =>
        {
            match (parts[0].as_str(), &parts[1]) {
                (Some("list"), e) => Ok(Type::list(inner(e)?)),
                (Some("set"), e) => Ok(Type::set(inner(e)?)),
                (Some("map"), e) => Ok(Type::map(inner(e)?)),
                (Some("object"), Json::Object(attributes)) => Ok(Type::Object(
                    attributes
                        .iter()
                        .map(|(k, t)| Ok((k.clone(), inner(t)?)))
                        .collect::<Result<_, String>>()?,
                )),
                (Some("tuple"), Json::Array(elements)) => Ok(Type::Tuple(
                    elements.iter().map(inner).collect::<Result<_, _>>()?,
                )),
                _ => Err(format!("not a type: {json}")),
            }
        }
        _ => Err(format!("not a type: {json}")),
    }
}

/// Whether `names` is an array of names of attributes of `attributes`.
fn optional_attributes_of(attributes: &Json, names: &Json) -> bool {
    match (attributes, names) {
        (Json::Object(attributes), Json::Array(names)) => names
            .iter()
            .all(|n| n.as_str().is_some_and(|n| attributes.contains_key(n))),
        _ => false,
    }
}

/// A value as `{"type": T, "value": V, "unknown": U}`.
pub fn value_to_json(v: &Value) -> Json {
    let (value, unknown) = encode_value(v);
    let mut out = Map::new();
    out.insert("type".into(), type_to_json(&v.ty()));
    out.insert("value".into(), value);
    if let Some(unknown) = unknown {
        out.insert("unknown".into(), unknown);
    }
    Json::Object(out)
}

/// The value's JSON and, when it is or contains an unknown, its unknown
/// marks.
fn encode_value(v: &Value) -> (Json, Option<Json>) {
    match v {
        Value::Unknown(_) => (Json::Null, Some(Json::Bool(true))),
        Value::Null(_) => (Json::Null, None),
        Value::String(s) => (Json::String(s.clone()), None),
        Value::Number(n) => (Json::String(n.to_decimal_string()), None),
        Value::Bool(b) => (Json::Bool(*b), None),
        Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
            let mut values = Vec::with_capacity(elements.len());
            let mut marks = Vec::with_capacity(elements.len());
            let mut any_unknown = false;
            for element in elements {
                let (j, u) = encode_value(element);
                values.push(j);
                any_unknown |= u.is_some();
                marks.push(u.unwrap_or(Json::Bool(false)));
            }
            (
                Json::Array(values),
                any_unknown.then_some(Json::Array(marks)),
            )
        }
        Value::Map(_, entries) | Value::Object(entries) => {
            let mut values = Map::new();
            let mut marks = Map::new();
            for (k, v) in entries {
                let (j, u) = encode_value(v);
                values.insert(k.clone(), j);
                if let Some(u) = u {
                    marks.insert(k.clone(), u);
                }
            }
            let marks = (!marks.is_empty()).then_some(Json::Object(marks));
            (Json::Object(values), marks)
        }
    }
}

/// Reads a value encoded as `{"type", "value", "unknown"}`.
pub fn value_from_json(json: &Json) -> Result<Value, String> {
    let Json::Object(fields) = json else {
        return Err(format!(
            "a value is an object with `type` and `value`, not {json}"
        ));
    };
    if let Some(extra) = fields
        .keys()
        .find(|k| !["type", "value", "unknown"].contains(&k.as_str()))
    {
        return Err(format!("a value has no member `{extra}`"));
    }
    let ty = type_from_json(fields.get("type").ok_or("a value lacks its `type`")?)?;
    let value = fields.get("value").unwrap_or(&Json::Null);
    let unknown = fields.get("unknown").unwrap_or(&Json::Bool(false));
    decode_value(value, unknown, &ty, "", 0)
}

fn decode_value(
    json: &Json,
    unknown: &Json,
    ty: &Type,
    path: &str,
    depth: usize,
) -> Result<Value, String> {
    let fail = |why: String| {
        Err(format!(
            "{}{why}",
            if path.is_empty() {
                String::new()
            } else {
                format!("at {path}: ")
            }
        ))
    };
    if depth > MAX_DEPTH {
        return fail("a value nested too deeply".into());
    }
    match unknown {
        Json::Bool(true) if json.is_null() => return Ok(Value::Unknown(ty.clone())),
        Json::Bool(true) => {
            return fail(format!(
                "a value marked unknown (`unknown`: true) is written null, not {json}"
            ))
        }
        Json::Bool(false) | Json::Null => {}
        Json::Array(marks) => match (ty, json) {
            (Type::List(_) | Type::Set(_) | Type::Tuple(_), Json::Array(items))
                if marks.len() == items.len() => {}
            (Type::List(_) | Type::Set(_) | Type::Tuple(_), Json::Array(items)) => {
                return fail(format!(
                    "the unknown marks hold {} entries for a sequence of {}",
                    marks.len(),
                    items.len()
                ))
            }
            _ => {
                return fail(format!(
                "unknown marks are an array only for a list, set or tuple, not for {json} of {ty}"
            ))
            }
        },
        Json::Object(marks) => match (ty, json) {
            (Type::Map(_) | Type::Object(_), Json::Object(entries)) => {
                if let Some(extra) = marks.keys().find(|k| !entries.contains_key(*k)) {
                    return fail(format!(
                        "the unknown marks name {extra:?}, which the value lacks"
                    ));
                }
            }
            _ => {
                return fail(format!(
                    "unknown marks are an object only for a map or object, not for {json} of {ty}"
                ))
            }
        },
        other => {
            return fail(format!(
                "unknown marks are true, false, arrays or objects, not {other}"
            ))
        }
    }
    let marks_known = matches!(unknown, Json::Bool(false) | Json::Null);
    if json.is_null() {
        if !marks_known {
            return fail("a null value cannot contain unknown marks".into());
        }
        return Ok(Value::Null(ty.clone()));
    }
    let element_mark = |i: usize| -> &Json {
        match unknown {
            Json::Array(marks) => marks.get(i).unwrap_or(&Json::Bool(false)),
            _ => &Json::Bool(false),
        }
    };
    let entry_mark = |k: &str| -> &Json {
        match unknown {
            Json::Object(marks) => marks.get(k).unwrap_or(&Json::Bool(false)),
            _ => &Json::Bool(false),
        }
    };
    match (ty, json) {
        (Type::Dynamic, other) => fail(format!(
            "a value of the dynamic pseudo-type is null or unknown, not {other}"
        )),
        (Type::String, Json::String(s)) => Ok(Value::string(s)),
        (Type::Bool, Json::Bool(b)) => Ok(Value::Bool(*b)),
        (Type::Number, Json::Number(n)) => Number::parse_decimal(&n.to_string(), true)
            .map(Value::Number)
            .or_else(|e| fail(format!("the number {n}: {e}"))),
        (Type::Number, Json::String(s)) => match s.as_str() {
            "+Inf" => Ok(Value::Number(Number::PositiveInfinity)),
            "-Inf" => Ok(Value::Number(Number::NegativeInfinity)),
            _ => Number::parse_decimal(s, true)
                .map(Value::Number)
                .or_else(|e| fail(format!("the number {s:?}: {e}"))),
        },
        (Type::List(e) | Type::Set(e), Json::Array(items)) => {
            let elements = items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    decode_value(item, element_mark(i), e, &format!("{path}[{i}]"), depth + 1)
                })
                .collect::<Result<Vec<_>, _>>()?;
            if matches!(ty, Type::Set(_)) {
                let count = elements.len();
                let set = Value::set((**e).clone(), elements).or_else(|e| fail(e.to_string()))?;
                if set.children().len() != count {
                    return fail("a set holds the same element twice".into());
                }
                Ok(set)
            } else {
                Value::list((**e).clone(), elements).or_else(|e| fail(e.to_string()))
            }
        }
        (Type::Tuple(types), Json::Array(items)) => {
            if items.len() != types.len() {
                return fail(format!(
                    "a {ty} has {} elements, not {}",
                    types.len(),
                    items.len()
                ));
            }
            Ok(Value::Tuple(
                items
                    .iter()
                    .zip(types)
                    .enumerate()
                    .map(|(i, (item, t))| {
                        decode_value(item, element_mark(i), t, &format!("{path}[{i}]"), depth + 1)
                    })
                    .collect::<Result<_, _>>()?,
            ))
        }
        (Type::Map(e), Json::Object(entries)) => {
            let decoded = entries
                .iter()
                .map(|(k, item)| {
                    Ok((
                        k.clone(),
                        decode_value(item, entry_mark(k), e, &format!("{path}[{k:?}]"), depth + 1)?,
                    ))
                })
                .collect::<Result<Vec<_>, String>>()?;
            Value::map((**e).clone(), decoded).or_else(|e| fail(e.to_string()))
        }
        (Type::Object(types), Json::Object(entries)) => {
            if let Some(extra) = entries.keys().find(|k| !types.contains_key(*k)) {
                return fail(format!("{ty} has no attribute {extra:?}"));
            }
            let mut attributes = BTreeMap::new();
            for (name, t) in types {
                let item = entries
                    .get(name)
                    .ok_or_else(|| format!("the attribute {name:?} of {ty} is missing"))?;
                attributes.insert(
                    name.clone(),
                    decode_value(
                        item,
                        entry_mark(name),
                        t,
                        &format!("{path}.{name}"),
                        depth + 1,
                    )?,
                );
            }
            Ok(Value::object(attributes))
        }
        (ty, other) => fail(format!("{other} is not a value of {ty}")),
    }
}

fn variables_to_json(variables: &BTreeMap<String, Value>) -> Json {
    Json::Object(
        variables
            .iter()
            .map(|(k, v)| (k.clone(), value_to_json(v)))
            .collect(),
    )
}

fn variables_from_json(json: Option<&Json>) -> Result<BTreeMap<String, Value>, String> {
    match json {
        None | Some(Json::Null) => Ok(BTreeMap::new()),
        Some(Json::Object(fields)) => fields
            .iter()
            .map(|(k, v)| {
                Ok((
                    k.clone(),
                    value_from_json(v).map_err(|e| format!("`variables`.{k}: {e}"))?,
                ))
            })
            .collect(),
        Some(other) => Err(format!(
            "`variables` must be an object (name -> value), not {}",
            json_kind(other)
        )),
    }
}

/// The request for a case's input.
pub fn request(id: &str, input: &Input) -> Json {
    let mut out = json!({ "id": id, "kind": input.kind() });
    let fields = out.as_object_mut().expect("an object");
    match input {
        Input::Convert { value, to } => {
            fields.insert("value".into(), value_to_json(value));
            fields.insert("to".into(), type_to_json(to));
        }
        Input::Unify { types } => {
            fields.insert(
                "types".into(),
                Json::Array(types.iter().map(type_to_json).collect()),
            );
        }
        Input::Identical { types } => {
            fields.insert(
                "types".into(),
                Json::Array(types.iter().map(type_to_json).collect()),
            );
        }
        Input::Matches { ty, spec } => {
            fields.insert("type".into(), type_to_json(ty));
            fields.insert("spec".into(), type_to_json(spec));
        }
        Input::Operation { op, operands } => {
            fields.insert("op".into(), json!(op.name()));
            fields.insert(
                "operands".into(),
                Json::Array(operands.iter().map(value_to_json).collect()),
            );
        }
        Input::Expr {
            expr,
            variables,
            extensions,
        } => {
            fields.insert("expr".into(), json!(expr));
            fields.insert("variables".into(), variables_to_json(variables));
            if !extensions.is_empty() {
                fields.insert("extensions".into(), json!(extensions));
            }
        }
        Input::TypeExpr {
            syntax,
            expr,
            constraint,
        } => {
            fields.insert("syntax".into(), json!(syntax.name()));
            fields.insert("expr".into(), json!(expr));
            fields.insert("constraint".into(), json!(constraint));
        }
        Input::Template {
            template,
            variables,
        } => {
            fields.insert("template".into(), json!(template));
            fields.insert("variables".into(), variables_to_json(variables));
        }
        Input::Static {
            syntax,
            expr,
            analysis,
        } => {
            fields.insert("syntax".into(), json!(syntax.name()));
            fields.insert("expr".into(), json!(expr));
            fields.insert("analysis".into(), json!(analysis.name()));
        }
        Input::Config {
            syntax,
            config,
            variables,
            extensions,
            schema,
            literal_only,
        } => {
            fields.insert("syntax".into(), json!(syntax.name()));
            fields.insert("config".into(), json!(config));
            fields.insert("variables".into(), variables_to_json(variables));
            if !extensions.is_empty() {
                fields.insert("extensions".into(), json!(extensions));
            }
            if let Some(schema) = schema {
                fields.insert("schema".into(), spec_to_json(schema));
            }
            if *literal_only {
                fields.insert("literal_only".into(), json!(true));
            }
        }
    }
    out
}

/// The members a request of each kind may have, besides `id` and `kind`.
fn request_members(kind: &str) -> &'static [&'static str] {
    match kind {
        "convert" => &["value", "to"],
        "unify" | "identical" => &["types"],
        "matches" => &["type", "spec"],
        "operation" => &["op", "operands"],
        "expr" => &["expr", "variables", "extensions"],
        "typeexpr" => &["syntax", "expr", "constraint"],
        "template" => &["template", "variables"],
        "static" => &["syntax", "expr", "analysis"],
        "config" => &[
            "syntax",
            "config",
            "variables",
            "extensions",
            "schema",
            "literal_only",
        ],
        _ => &[],
    }
}

/// A JSON value's kind, for messages.
fn json_kind(json: &Json) -> &'static str {
    match json {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// Reads a request's input (the implementation side: `hcl-ref`).
///
/// Every member is checked: a missing or ill-typed one, a member the kind
/// does not have, an unknown syntax, analysis, operation or extension is
/// an error naming the member. An unknown kind is an error that starts
/// with "unknown kind" (`hcl-ref` answers it `unsupported`).
pub fn input_from_request(request: &Json) -> Result<Input, String> {
    let Json::Object(members) = request else {
        return Err(format!(
            "a request is a JSON object, not {}",
            json_kind(request)
        ));
    };
    let kind = match members.get("kind") {
        Some(Json::String(kind)) => kind.as_str(),
        Some(other) => return Err(format!("`kind` must be a string, not {}", json_kind(other))),
        None => return Err("the request lacks its `kind`".into()),
    };
    if !CASE_KINDS.contains(&kind) {
        return Err(format!("unknown kind {kind:?}"));
    }
    let allowed = request_members(kind);
    if let Some(extra) = members
        .keys()
        .find(|k| !matches!(k.as_str(), "id" | "kind") && !allowed.contains(&k.as_str()))
    {
        return Err(format!(
            "a request of kind `{kind}` has no member `{extra}` (its members: id, kind, {})",
            allowed.join(", ")
        ));
    }
    // An optional member: absent and null are the same.
    let optional = |name: &str| members.get(name).filter(|v| !v.is_null());
    let field = |name: &str| optional(name).ok_or_else(|| format!("the request lacks `{name}`"));
    let types = |name: &str| -> Result<Vec<Type>, String> {
        match field(name)? {
            Json::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, t)| type_from_json(t).map_err(|e| format!("`{name}`[{i}]: {e}")))
                .collect(),
            other => Err(format!(
                "`{name}` must be an array of types, not {}",
                json_kind(other)
            )),
        }
    };
    let a_type = |name: &str| type_from_json(field(name)?).map_err(|e| format!("`{name}`: {e}"));
    let text = |name: &str| -> Result<String, String> {
        match field(name)? {
            Json::String(text) => Ok(text.clone()),
            other => Err(format!(
                "`{name}` must be a string, not {}",
                json_kind(other)
            )),
        }
    };
    let flag = |name: &str| -> Result<bool, String> {
        match optional(name) {
            None => Ok(false),
            Some(Json::Bool(b)) => Ok(*b),
            Some(other) => Err(format!(
                "`{name}` must be a boolean, not {}",
                json_kind(other)
            )),
        }
    };
    let syntax = || -> Result<Syntax, String> {
        match optional("syntax") {
            None => Ok(Syntax::Native),
            Some(Json::String(s)) if s == "native" => Ok(Syntax::Native),
            Some(Json::String(s)) if s == "json" => Ok(Syntax::Json),
            Some(other) => Err(format!(
                "`syntax` must be \"native\" or \"json\", not {other}"
            )),
        }
    };
    let extensions = |known: &[&str]| -> Result<Vec<String>, String> {
        let Some(list) = optional("extensions") else {
            return Ok(Vec::new());
        };
        let names = strings(list, "extensions")?;
        if let Some(unknown) = names.iter().find(|n| !known.contains(&n.as_str())) {
            return Err(format!(
                "`extensions` names {unknown:?}, which a request of kind `{kind}` does not have (it has: {})",
                known.join(", ")
            ));
        }
        Ok(names)
    };
    let variables = || variables_from_json(optional("variables"));
    Ok(match kind {
        "convert" => Input::Convert {
            value: value_from_json(field("value")?).map_err(|e| format!("`value`: {e}"))?,
            to: a_type("to")?,
        },
        "unify" => Input::Unify {
            types: types("types")?,
        },
        "identical" => {
            let [a, b]: [Type; 2] = types("types")?
                .try_into()
                .map_err(|_| "`types` must list exactly two types".to_string())?;
            Input::Identical { types: [a, b] }
        }
        "matches" => Input::Matches {
            ty: a_type("type")?,
            spec: a_type("spec")?,
        },
        "operation" => {
            let name = text("op")?;
            let op = Operation::from_name(&name)
                .ok_or_else(|| format!("`op`: unknown operation {name:?}"))?;
            let operands = match field("operands")? {
                Json::Array(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| value_from_json(v).map_err(|e| format!("`operands`[{i}]: {e}")))
                    .collect::<Result<_, _>>()?,
                other => {
                    return Err(format!(
                        "`operands` must be an array of values, not {}",
                        json_kind(other)
                    ))
                }
            };
            Input::Operation { op, operands }
        }
        "expr" => Input::Expr {
            expr: text("expr")?,
            variables: variables()?,
            extensions: extensions(EXPR_EXTENSIONS)?,
        },
        "typeexpr" => Input::TypeExpr {
            syntax: syntax()?,
            expr: text("expr")?,
            constraint: flag("constraint")?,
        },
        "template" => Input::Template {
            template: text("template")?,
            variables: variables()?,
        },
        "static" => Input::Static {
            syntax: syntax()?,
            expr: text("expr")?,
            analysis: {
                let name = text("analysis")?;
                Analysis::from_name(&name)
                    .ok_or_else(|| format!("`analysis`: unknown analysis {name:?}"))?
            },
        },
        "config" => Input::Config {
            syntax: syntax()?,
            config: text("config")?,
            variables: variables()?,
            extensions: extensions(EXTENSIONS)?,
            schema: match optional("schema") {
                None => None,
                Some(spec) => Some(spec_from_json(spec, 0).map_err(|e| format!("`schema`: {e}"))?),
            },
            literal_only: flag("literal_only")?,
        },
        other => return Err(format!("unknown kind {other:?}")),
    })
}

fn pos_to_json(pos: &Pos) -> Json {
    json!({ "line": pos.line, "column": pos.column, "byte": pos.byte })
}

fn range_to_json(range: &Range) -> Json {
    json!({ "start": pos_to_json(&range.start), "end": pos_to_json(&range.end) })
}

/// An error answer's `error` member for diagnostics.
pub fn error_json(diagnostics: &[Diagnostic]) -> Json {
    let phase = diagnostics.first().map_or(Phase::Eval, |d| d.phase);
    let diagnostics: Vec<Json> = diagnostics
        .iter()
        .map(|d| {
            let mut out = json!({ "severity": "error", "summary": d.summary, "detail": d.detail });
            if let Some(range) = &d.range {
                out["range"] = range_to_json(range);
            }
            out
        })
        .collect();
    json!({ "phase": phase.name(), "diagnostics": diagnostics })
}

fn body_to_json(body: &Body) -> Json {
    let mut attributes: Map<String, Json> = body
        .attributes
        .iter()
        .map(|(k, v)| (k.clone(), value_to_json(v)))
        .collect();
    for (k, why) in &body.unevaluated {
        let mut unevaluated = Map::new();
        unevaluated.insert("unevaluated".into(), Json::String(why.clone()));
        attributes.insert(k.clone(), Json::Object(unevaluated));
    }
    let blocks: Vec<Json> = body
        .blocks
        .iter()
        .map(|b| {
            let mut block = Map::new();
            block.insert("type".into(), Json::String(b.type_name.clone()));
            block.insert("labels".into(), json!(b.labels));
            block.insert("body".into(), body_to_json(&b.body));
            Json::Object(block)
        })
        .collect();
    let mut out = Map::new();
    out.insert("attributes".into(), Json::Object(attributes));
    out.insert("blocks".into(), Json::Array(blocks));
    if let Some(remain) = &body.remain {
        out.insert("remain".into(), body_to_json(remain));
    }
    Json::Object(out)
}

/// A body spec as a request writes it: `"attributes"`, or
/// `{"attributes": [{"name", "required"}], "blocks": [{"type", "labels",
/// "body"}], "remain": SPEC}` (runner/PROTOCOL.md).
pub fn spec_to_json(spec: &BodySpec) -> Json {
    let BodySpec::Schema {
        schema,
        block_bodies,
        remain,
    } = spec
    else {
        return json!("attributes");
    };
    let attributes: Vec<Json> = schema
        .attributes
        .iter()
        .map(|a| json!({ "name": a.name, "required": a.required }))
        .collect();
    let blocks: Vec<Json> = schema
        .blocks
        .iter()
        .map(|b| {
            let body = block_bodies
                .get(&b.type_name)
                .unwrap_or(&BodySpec::Attributes);
            let mut block = Map::new();
            block.insert("type".into(), Json::String(b.type_name.clone()));
            block.insert("labels".into(), json!(b.label_names));
            block.insert("body".into(), spec_to_json(body));
            Json::Object(block)
        })
        .collect();
    let mut out = Map::new();
    out.insert("attributes".into(), Json::Array(attributes));
    out.insert("blocks".into(), Json::Array(blocks));
    if let Some(remain) = remain {
        out.insert("remain".into(), spec_to_json(remain));
    }
    Json::Object(out)
}

/// Reads a body spec written by [`spec_to_json`].
pub fn spec_from_json(json: &Json, depth: usize) -> Result<BodySpec, String> {
    if depth > MAX_DEPTH {
        return Err("a schema nested too deeply".into());
    }
    match json {
        Json::String(s) if s == "attributes" => return Ok(BodySpec::Attributes),
        Json::Object(members) => {
            only_members(members, "a schema", &["attributes", "blocks", "remain"])?
        }
        other => {
            return Err(format!(
                "a schema is \"attributes\" or an object, not {other}"
            ))
        }
    }
    let list = |name: &str| -> Result<Vec<Json>, String> {
        match json.get(name) {
            None | Some(Json::Null) => Ok(Vec::new()),
            Some(Json::Array(items)) => Ok(items.clone()),
            Some(other) => Err(format!("`{name}` of a schema is an array, not {other}")),
        }
    };
    let mut schema = BodySchema::default();
    for a in list("attributes")? {
        let Json::Object(members) = &a else {
            return Err(format!("an attribute schema is an object, not {a}"));
        };
        only_members(members, "an attribute schema", &["name", "required"])?;
        if let Some(required) = members.get("required").filter(|r| !r.is_boolean()) {
            return Err(format!(
                "`required` of an attribute schema is a boolean, not {required}"
            ));
        }
        schema.attributes.push(AttributeSchema {
            name: a
                .get("name")
                .and_then(Json::as_str)
                .ok_or("an attribute schema has a string `name`")?
                .to_string(),
            required: a.get("required").and_then(Json::as_bool).unwrap_or(false),
        });
    }
    let mut block_bodies = BTreeMap::new();
    for b in list("blocks")? {
        let Json::Object(members) = &b else {
            return Err(format!("a block header schema is an object, not {b}"));
        };
        only_members(
            members,
            "a block header schema",
            &["type", "labels", "body"],
        )?;
        let type_name = b
            .get("type")
            .and_then(Json::as_str)
            .ok_or("a block header schema has a string `type`")?
            .to_string();
        let label_names = match b.get("labels") {
            None | Some(Json::Null) => Vec::new(),
            Some(labels) => strings(labels, "labels")?,
        };
        if let Some(body) = b.get("body").filter(|b| !b.is_null()) {
            block_bodies.insert(type_name.clone(), spec_from_json(body, depth + 1)?);
        }
        schema.blocks.push(BlockHeaderSchema {
            type_name,
            label_names,
        });
    }
    let remain = match json.get("remain") {
        None | Some(Json::Null) => None,
        Some(remain) => Some(Box::new(spec_from_json(remain, depth + 1)?)),
    };
    Ok(BodySpec::Schema {
        schema,
        block_bodies,
        remain,
    })
}

/// Checks that an object has no member but those `allowed`.
fn only_members(members: &Map<String, Json>, what: &str, allowed: &[&str]) -> Result<(), String> {
    match members.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(extra) => Err(format!(
            "{what} has no member `{extra}` (its members: {})",
            allowed.join(", ")
        )),
        None => Ok(()),
    }
}

fn body_from_json(json: &Json, depth: usize) -> Result<Body, String> {
    if depth > MAX_DEPTH {
        return Err("a body nested too deeply".into());
    }
    let mut unevaluated = BTreeMap::new();
    let attributes = match json.get("attributes") {
        None | Some(Json::Null) => BTreeMap::new(),
        Some(Json::Object(fields)) => {
            let mut attributes = BTreeMap::new();
            for (k, v) in fields {
                // `{"unevaluated": REASON}`: parsed, not evaluated.
                if let Some(why) = unevaluated_reason(v) {
                    unevaluated.insert(k.clone(), why);
                    continue;
                }
                let value = value_from_json(v).map_err(|e| format!("attribute {k}: {e}"))?;
                attributes.insert(k.clone(), value);
            }
            attributes
        }
        Some(other) => return Err(format!("`attributes` is an object, not {other}")),
    };
    let blocks = match json.get("blocks") {
        None | Some(Json::Null) => Vec::new(),
        Some(Json::Array(items)) => items
            .iter()
            .map(|b| {
                let type_name = b
                    .get("type")
                    .and_then(Json::as_str)
                    .ok_or("a block lacks its `type`")?;
                let labels = match b.get("labels") {
                    None | Some(Json::Null) => Vec::new(),
                    Some(Json::Array(labels)) => labels
                        .iter()
                        .map(|l| l.as_str().map(str::to_string).ok_or("labels are strings"))
                        .collect::<Result<_, _>>()?,
                    Some(other) => return Err(format!("`labels` is an array, not {other}")),
                };
                Ok(Block {
                    type_name: type_name.to_string(),
                    labels,
                    body: body_from_json(b.get("body").unwrap_or(&Json::Null), depth + 1)?,
                })
            })
            .collect::<Result<_, String>>()?,
        Some(other) => return Err(format!("`blocks` is an array, not {other}")),
    };
    let remain = match json.get("remain") {
        None | Some(Json::Null) => None,
        Some(remain) => Some(Box::new(body_from_json(remain, depth + 1)?)),
    };
    Ok(Body {
        attributes,
        blocks,
        remain,
        unevaluated,
    })
}

/// The reason of an attribute value written `{"unevaluated": REASON}`.
fn unevaluated_reason(v: &Json) -> Option<String> {
    let fields = v.as_object()?;
    if fields.len() != 1 {
        return None;
    }
    let why = fields.get("unevaluated")?;
    Some(why.as_str().unwrap_or("no reason given").to_string())
}

/// The answer an implementation gives for an outcome (the implementation
/// side: `hcl-ref`).
pub fn answer(id: &str, outcome: &Outcome) -> Json {
    let mut out = json!({ "id": id });
    let fields = out.as_object_mut().expect("an object");
    match outcome {
        Outcome::Value { value, safety } => {
            fields.insert("value".into(), value_to_json(value));
            if let Some(safety) = safety {
                fields.insert("safety".into(), json!(safety.name()));
            }
        }
        Outcome::Type(ty) => {
            fields.insert("type".into(), type_to_json(ty));
        }
        Outcome::Body(body) => {
            fields.insert("body".into(), body_to_json(body));
        }
        Outcome::Result(b) => {
            fields.insert("result".into(), json!(b));
        }
        Outcome::Parsed => {
            fields.insert("parsed".into(), json!(true));
        }
        Outcome::Static(shape) => {
            let (name, value) = static_to_json(shape);
            fields.insert(name.into(), value);
        }
        Outcome::Error { phase, diagnostics } => {
            let mut error = error_json(diagnostics);
            error["phase"] = json!(phase.name());
            fields.insert("error".into(), error);
        }
        Outcome::Unsupported(why)
        | Outcome::Crashed(why)
        | Outcome::TimedOut(why)
        | Outcome::Broken(why) => {
            fields.insert("unsupported".into(), json!(why));
        }
    }
    out
}

fn static_to_json(shape: &StaticShape) -> (&'static str, Json) {
    match shape {
        StaticShape::List(items) => ("list", json!(items)),
        StaticShape::Map(pairs) => (
            "map",
            Json::Array(
                pairs
                    .iter()
                    .map(|(k, v)| json!({ "key": k, "value": v }))
                    .collect(),
            ),
        ),
        StaticShape::Call { name, arguments } => {
            ("call", json!({ "name": name, "arguments": arguments }))
        }
        StaticShape::Traversal(steps) => ("traversal", json!(steps)),
    }
}

fn strings(json: &Json, what: &str) -> Result<Vec<String>, String> {
    json.as_array()
        .ok_or_else(|| format!("`{what}` is an array of strings"))?
        .iter()
        .map(|s| {
            s.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("`{what}` holds strings"))
        })
        .collect()
}

fn static_from_json(answer: &Json) -> Result<StaticShape, String> {
    if let Some(list) = answer.get("list") {
        return Ok(StaticShape::List(strings(list, "list")?));
    }
    if let Some(map) = answer.get("map") {
        let pairs = map
            .as_array()
            .ok_or("`map` is an array of {key, value}")?
            .iter()
            .map(|p| {
                let text = |k: &str| p.get(k).and_then(Json::as_str).map(str::to_string);
                Ok((
                    text("key").ok_or("a map pair lacks its `key` text")?,
                    text("value").ok_or("a map pair lacks its `value` text")?,
                ))
            })
            .collect::<Result<_, String>>()?;
        return Ok(StaticShape::Map(pairs));
    }
    if let Some(call) = answer.get("call") {
        return Ok(StaticShape::Call {
            name: call
                .get("name")
                .and_then(Json::as_str)
                .ok_or("a call lacks its `name`")?
                .to_string(),
            arguments: strings(call.get("arguments").unwrap_or(&json!([])), "arguments")?,
        });
    }
    if let Some(traversal) = answer.get("traversal") {
        return Ok(StaticShape::Traversal(strings(traversal, "traversal")?));
    }
    Err("an answer to a `static` request has `list`, `map`, `call`, `traversal`, `error` or `unsupported`".into())
}

fn pos_from_json(json: &Json) -> Result<Pos, String> {
    let number = |name: &str| {
        json.get(name)
            .and_then(Json::as_u64)
            .map(|n| n as usize)
            .ok_or_else(|| format!("a position lacks `{name}`"))
    };
    Ok(Pos {
        line: number("line")?,
        column: number("column")?,
        byte: number("byte").unwrap_or(0),
    })
}

/// Reads an implementation's answer to a request of kind `kind`.
pub fn outcome_from_answer(answer: &Json, kind: &str) -> Result<Outcome, String> {
    if let Some(why) = answer.get("malformed") {
        return Err(format!(
            "the implementation could not read the request: {}",
            why.as_str().unwrap_or("no reason given")
        ));
    }
    if let Some(why) = answer.get("unsupported") {
        return Ok(Outcome::Unsupported(
            why.as_str().unwrap_or("no reason given").to_string(),
        ));
    }
    if let Some(error) = answer.get("error") {
        let phase_name = error
            .get("phase")
            .and_then(Json::as_str)
            .ok_or("an error lacks its `phase`")?;
        let phase =
            Phase::from_name(phase_name).ok_or_else(|| format!("unknown phase {phase_name:?}"))?;
        let mut diagnostics = Vec::new();
        if let Some(Json::Array(answered)) = error.get("diagnostics") {
            for d in answered {
                let text =
                    |name: &str| d.get(name).and_then(Json::as_str).unwrap_or("").to_string();
                let range = match d.get("range") {
                    None | Some(Json::Null) => None,
                    Some(range) => Some(Range {
                        start: pos_from_json(range.get("start").ok_or("a range lacks `start`")?)?,
                        end: pos_from_json(range.get("end").ok_or("a range lacks `end`")?)?,
                    }),
                };
                diagnostics.push(Diagnostic {
                    phase,
                    summary: text("summary"),
                    detail: text("detail"),
                    range,
                });
            }
        }
        return Ok(Outcome::Error { phase, diagnostics });
    }
    // A `parse-only` implementation's answer to a source it accepts.
    if let Some(parsed) = answer
        .get("parsed")
        .filter(|_| matches!(kind, "expr" | "template" | "config"))
    {
        return match parsed {
            Json::Bool(true) => Ok(Outcome::Parsed),
            other => Err(format!("`parsed` is true, not {other}")),
        };
    }
    let field = |name: &str| {
        answer.get(name).ok_or_else(|| {
            format!("an answer to a `{kind}` request has `{name}`, `error` or `unsupported`")
        })
    };
    Ok(match kind {
        "convert" | "operation" | "expr" | "template" => {
            let value = value_from_json(field("value")?)?;
            let safety = match answer.get("safety").and_then(Json::as_str) {
                None => None,
                Some("safe") => Some(Safety::Safe),
                Some("unsafe") => Some(Safety::Unsafe),
                Some(other) => {
                    return Err(format!("safety is \"safe\" or \"unsafe\", not {other:?}"))
                }
            };
            Outcome::Value { value, safety }
        }
        "unify" => Outcome::Type(type_from_json(field("type")?)?),
        "typeexpr" => Outcome::Type(type_from_json(field("type")?)?),
        "identical" | "matches" => {
            Outcome::Result(field("result")?.as_bool().ok_or("`result` is a bool")?)
        }
        "config" => Outcome::Body(body_from_json(field("body")?, 0)?),
        "static" => Outcome::Static(static_from_json(answer)?),
        other => return Err(format!("no answer is defined for kind {other:?}")),
    })
}
