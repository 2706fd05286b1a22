//! JSON Schemas of what the runner reads and writes, generated from the
//! declarations themselves and published in `runner/schema/` (a test keeps
//! the files up to date): every protocol request and answer, and the JSON
//! report.

use crate::report::Report;
use crate::wire::{AnswerLine, Hello, HelloAnswer, Request, RequestLine};
use schemars::{JsonSchema, Schema};

/// A request line: `hello`, or a case's input.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum AnyRequest {
    Hello(Hello),
    Case(RequestLine<'static, Request>),
}

/// An answer line: to `hello`, or to a case's request.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum AnyAnswer {
    Hello(HelloAnswer),
    Case(AnswerLine<'static>),
}

/// The schemas, by file name.
pub fn schemas() -> Vec<(&'static str, Schema)> {
    vec![
        ("request.schema.json", schemars::schema_for!(AnyRequest)),
        ("answer.schema.json", schemars::schema_for!(AnyAnswer)),
        ("report.schema.json", schemars::schema_for!(Report)),
    ]
}
