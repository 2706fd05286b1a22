//! JSON Schemas of what the runner reads and writes, generated from the
//! declarations themselves and published in `runner/schema/` (a test keeps
//! the files up to date): every protocol request and answer, and the JSON
//! report.

use crate::report::Report;
use crate::wire::{AnswerLine, Hello, HelloAnswer, Request, RequestLine};
use schemars::{generate::SchemaSettings, JsonSchema, Schema};

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
        // What the runner writes, members left out when empty included.
        (
            "report.schema.json",
            SchemaSettings::draft2020_12()
                .for_serialize()
                .into_generator()
                .into_root_schema_for::<Report>(),
        ),
    ]
}
