//! JSON Schemas of what the runner reads and writes, generated from the
//! declarations themselves and published in `runner/schema/` (a test keeps
//! the files up to date): every protocol request and answer, the JSON
//! report, and the export's case documents and index.

use crate::report::Report;
use hcl_conformance_format::wire::{AnswerLine, Hello, HelloAnswer, Request, RequestLine};
use hcl_conformance_site::export::{ExportedCase, Index};
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
        ("report.schema.json", written::<Report>()),
        ("export-case.schema.json", written::<ExportedCase>()),
        ("export-index.schema.json", written::<Index>()),
    ]
}

/// The schema of what the runner writes, members left out when empty
/// included.
fn written<T: JsonSchema>() -> Schema {
    SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
}
