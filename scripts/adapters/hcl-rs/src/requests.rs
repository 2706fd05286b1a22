//! Answers one protocol request (PROTOCOL.md § Requests) with hcl-rs.
//!
//! Kinds answered: `expr`, `template`, `config` (native syntax only) and
//! `operation` (as an expression over the variables `a` and `b`). hcl-rs
//! has no type system to query (`convert`, `unify`, `identical`,
//! `matches`), no static analyses (`static`), no JSON syntax and no
//! `dynamic` block extension; those requests are answered `unsupported`.

use crate::diagnostics::{eval_error, parse_error};
use crate::functions;
use crate::values::{Refusal, value_from_wire, value_to_wire};
use hcl::eval::{Context, Evaluate};
use hcl::{Body, Expression, Structure, Template, Value};
use serde_json::{Map as JsonMap, Value as Json, json};

/// The request kinds this adapter answers.
pub const KINDS: [&str; 4] = ["expr", "template", "config", "operation"];

/// The answer to `request` (without its `id`, which the caller adds).
pub fn answer(request: &Json) -> Json {
    let kind = request.get("kind").and_then(Json::as_str).unwrap_or("");
    let result = match kind {
        "hello" => Ok(hello()),
        "expr" => expr(request),
        "template" => template(request),
        "config" => config(request),
        "operation" => operation(request),
        other => Err(Refusal::Unsupported(format!(
            "hcl-rs adapter does not answer `{other}` requests"
        ))),
    };
    result.unwrap_or_else(|refusal| match refusal {
        Refusal::Unsupported(why) => json!({ "unsupported": why }),
        Refusal::Malformed(why) => {
            eprintln!("hcl-rs adapter: malformed request: {why}");
            json!({ "unsupported": format!("malformed request: {why}") })
        }
    })
}

/// The hello answer: kinds as `KINDS`, and no optional features. hcl-rs has
/// no unknown values (`unknown`), no conversions to classify (`safety`), no
/// source ranges on evaluation errors and only a point on parse errors
/// (`ranges`), no `dynamic` blocks (`dynblock`), no type distinctions
/// beyond JSON's kinds (`exact-types`) and 64-bit numbers (`big-numbers`).
fn hello() -> Json {
    json!({
        "name": "hcl-rs",
        "version": format!(
            "hcl-rs {} (hcl-edit {}, hcl-primitives {})",
            env!("HCL_RS_VERSION"),
            env!("HCL_EDIT_VERSION"),
            env!("HCL_PRIMITIVES_VERSION"),
        ),
        "capabilities": { "kinds": KINDS, "features": [] },
    })
}

/// A string field of the request.
fn text<'a>(request: &'a Json, name: &str) -> Result<&'a str, Refusal> {
    request
        .get(name)
        .and_then(Json::as_str)
        .ok_or_else(|| Refusal::Malformed(format!("the request lacks the string `{name}`")))
}

/// An evaluation context holding the request's variables and the
/// conformance functions.
fn context(request: &Json) -> Result<Context<'static>, Refusal> {
    let mut ctx = Context::new();
    functions::declare_all(&mut ctx);
    match request.get("variables") {
        None | Some(Json::Null) => {}
        Some(Json::Object(variables)) => {
            for (name, value) in variables {
                let ident = hcl::Identifier::new(name.as_str()).map_err(|_| {
                    Refusal::Malformed(format!("the variable name {name:?} is no identifier"))
                })?;
                ctx.declare_var(ident, value_from_wire(value)?);
            }
        }
        Some(other) => {
            return Err(Refusal::Malformed(format!(
                "`variables` is an object, not {other}"
            )));
        }
    }
    Ok(ctx)
}

/// An answer holding one value.
fn value_answer(value: &Value) -> Json {
    json!({ "value": value_to_wire(value) })
}

/// `expr`: parses the text with hcl-rs's expression parser
/// (`Expression::from_str`) and evaluates it (`Evaluate::evaluate`).
/// Rejection by the parser is a `parse` error, by evaluation an `eval`
/// error.
fn expr(request: &Json) -> Result<Json, Refusal> {
    let source = text(request, "expr")?;
    let ctx = context(request)?;
    evaluate_expression(source, &ctx)
}

/// Parses and evaluates one native-syntax expression.
fn evaluate_expression(source: &str, ctx: &Context) -> Result<Json, Refusal> {
    let parsed: Expression = match source.parse() {
        Ok(e) => e,
        Err(e) => return Ok(parse_error(&e)),
    };
    Ok(match parsed.evaluate(ctx) {
        Ok(value) => value_answer(&value),
        Err(e) => eval_error(&e),
    })
}

/// `template`: parses the text as a standalone template
/// (`Template::from_str`, hcl-rs's template-file API) and evaluates it
/// (`Evaluate for Template`). That API always gives a string: hcl-rs
/// unwraps a lone interpolation only for template *expressions* (quoted
/// strings and heredocs), so a template file `${true}` evaluates to the
/// string `"true"` where the spec unwraps it to the bool.
fn template(request: &Json) -> Result<Json, Refusal> {
    let source = text(request, "template")?;
    let ctx = context(request)?;
    let parsed: Template = match source.parse() {
        Ok(t) => t,
        Err(e) => return Ok(parse_error(&e)),
    };
    Ok(match parsed.evaluate(&ctx) {
        Ok(s) => value_answer(&Value::String(s)),
        Err(e) => eval_error(&e),
    })
}

/// `config`: parses a native-syntax file (`hcl::parse`) and evaluates
/// every attribute in it (`Evaluate for Body`). hcl-rs has no JSON syntax
/// and no `dynamic` block extension: such requests are unsupported.
fn config(request: &Json) -> Result<Json, Refusal> {
    match text(request, "syntax")? {
        "native" => {}
        "json" => return Err(Refusal::Unsupported("hcl-rs has no JSON syntax".into())),
        other => return Err(Refusal::Malformed(format!("unknown syntax {other:?}"))),
    }
    if let Some(extensions) = request.get("extensions").and_then(Json::as_array)
        && !extensions.is_empty()
    {
        return Err(Refusal::Unsupported(format!(
            "hcl-rs has none of the extensions {}",
            Json::Array(extensions.clone())
        )));
    }
    let source = text(request, "config")?;
    let ctx = context(request)?;
    let parsed: Body = match hcl::parse(source) {
        Ok(b) => b,
        Err(e) => return Ok(parse_error(&e)),
    };
    Ok(match parsed.evaluate(&ctx) {
        Ok(body) => json!({ "body": body_to_wire(&body) }),
        Err(e) => eval_error(&e),
    })
}

/// An evaluated body as the protocol's body answer: attributes by name,
/// blocks in source order, labels as strings whether quoted or bare.
///
/// hcl-rs keeps a body as a sequence of structures; should an attribute
/// name occur twice (hcl-rs's parser allows it), the protocol's attribute
/// object can hold only one: the later one is kept, and the duplicate is
/// logged on standard error.
fn body_to_wire(body: &Body) -> Json {
    let mut attributes = JsonMap::new();
    let mut blocks = Vec::new();
    for structure in body.iter() {
        match structure {
            Structure::Attribute(attr) => {
                let value = Value::from(attr.expr.clone());
                let name = attr.key.as_str().to_string();
                if attributes.contains_key(&name) {
                    eprintln!("hcl-rs adapter: hcl-rs accepted the attribute {name:?} twice");
                }
                attributes.insert(name, value_to_wire(&value));
            }
            Structure::Block(block) => {
                let labels: Vec<&str> = block.labels.iter().map(|l| l.as_str()).collect();
                blocks.push(json!({
                    "type": block.identifier.as_str(),
                    "labels": labels,
                    "body": body_to_wire(&block.body),
                }));
            }
        }
    }
    json!({ "attributes": attributes, "blocks": blocks })
}

/// The native-syntax expression for an operation over the variables `a`
/// and `b` (PROTOCOL.md: an adapter that evaluates expressions binds the
/// operands to `a` and `b`), and its operand count.
fn operation_source(op: &str) -> Option<(&'static str, usize)> {
    Some(match op {
        "equal" => ("a == b", 2),
        "not-equal" => ("a != b", 2),
        "add" => ("a + b", 2),
        "subtract" => ("a - b", 2),
        "multiply" => ("a * b", 2),
        "divide" => ("a / b", 2),
        "modulo" => ("a % b", 2),
        "less" => ("a < b", 2),
        "less-or-equal" => ("a <= b", 2),
        "greater" => ("a > b", 2),
        "greater-or-equal" => ("a >= b", 2),
        "and" => ("a && b", 2),
        "or" => ("a || b", 2),
        "negate" => ("-a", 1),
        "not" => ("!a", 1),
        _ => return None,
    })
}

/// `operation`: evaluates the operator's expression with the operands
/// bound to `a` and `b`.
fn operation(request: &Json) -> Result<Json, Refusal> {
    let op = text(request, "op")?;
    let (source, arity) =
        operation_source(op).ok_or_else(|| Refusal::Unsupported(format!("no operation {op:?}")))?;
    let operands = request
        .get("operands")
        .and_then(Json::as_array)
        .ok_or_else(|| Refusal::Malformed("the request lacks `operands`".into()))?;
    if operands.len() != arity {
        return Err(Refusal::Malformed(format!(
            "{op} takes {arity} operands, not {}",
            operands.len()
        )));
    }
    let mut ctx = Context::new();
    for (name, operand) in ["a", "b"].into_iter().zip(operands) {
        ctx.declare_var(name, value_from_wire(operand)?);
    }
    evaluate_expression(source, &ctx)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(request: Json) -> Json {
        answer(&request)
    }

    #[test]
    fn hello_declares_kinds_and_no_features() {
        let hello = ask(json!({"id": "0", "kind": "hello", "protocol": 1}));
        assert_eq!(hello["name"], "hcl-rs");
        assert_eq!(hello["capabilities"]["kinds"], json!(KINDS));
        assert_eq!(hello["capabilities"]["features"], json!([]));
        assert!(hello["version"].as_str().unwrap().starts_with("hcl-rs 0."));
    }

    #[test]
    fn parse_and_eval_errors_have_their_phases() {
        let parse = ask(json!({"kind": "expr", "expr": "1 +", "variables": {}}));
        assert_eq!(parse["error"]["phase"], "parse");
        let eval = ask(json!({"kind": "expr", "expr": "nope", "variables": {}}));
        assert_eq!(eval["error"]["phase"], "eval");
        let config = ask(json!({"kind": "config", "syntax": "native", "config": "a = nope\n"}));
        assert_eq!(config["error"]["phase"], "eval");
    }

    #[test]
    fn variables_and_functions_are_available() {
        let answer = ask(json!({
            "kind": "expr",
            "expr": "join(\"-\", [for s in l: upper(s)])",
            "variables": {"l": {"type": ["list", "string"], "value": ["a", "b"]}},
        }));
        assert_eq!(answer["value"], json!({"type": "string", "value": "A-B"}));
    }

    #[test]
    fn template_kind_evaluates_a_template_file() {
        let answer = ask(json!({
            "kind": "template",
            "template": "%{ for x in xs }${x}%{ endfor }",
            "variables": {"xs": {"type": ["list", "string"], "value": ["a", "b"]}},
        }));
        assert_eq!(answer["value"], json!({"type": "string", "value": "ab"}));
    }

    #[test]
    fn config_gives_attributes_and_blocks() {
        let answer = ask(json!({
            "kind": "config",
            "syntax": "native",
            "config": "a = 1\nb \"x\" y {\n  c = true\n}\n",
            "variables": {},
        }));
        assert_eq!(
            answer["body"],
            json!({
                "attributes": {"a": {"type": "number", "value": 1}},
                "blocks": [{"type": "b", "labels": ["x", "y"], "body": {
                    "attributes": {"c": {"type": "bool", "value": true}}, "blocks": []}}],
            })
        );
    }

    #[test]
    fn what_hcl_rs_lacks_is_unsupported() {
        for request in [
            json!({"kind": "config", "syntax": "json", "config": "{}"}),
            json!({"kind": "config", "syntax": "native", "config": "", "extensions": ["dynblock"]}),
            json!({"kind": "convert", "value": {"type": "string", "value": "1"}, "to": "number"}),
            json!({"kind": "expr", "expr": "a", "variables": {"a": {"type": "number", "value": null, "unknown": true}}}),
        ] {
            assert!(ask(request.clone())["unsupported"].is_string(), "{request}");
        }
    }

    #[test]
    fn operations_bind_a_and_b() {
        let add = ask(json!({"kind": "operation", "op": "add", "operands": [
            {"type": "number", "value": "1.5"}, {"type": "number", "value": 1}]}));
        assert_eq!(add["value"], json!({"type": "number", "value": 2.5}));
        let not = ask(json!({"kind": "operation", "op": "not", "operands": [
            {"type": "bool", "value": true}]}));
        assert_eq!(not["value"], json!({"type": "bool", "value": false}));
        let wrong = ask(json!({"kind": "operation", "op": "add", "operands": []}));
        assert!(wrong["unsupported"].is_string());
    }
}
