//! hcl-rs's errors as protocol error answers (PROTOCOL.md § Errors).
//!
//! An error from hcl-rs's parser is phase `parse`; an error from its
//! evaluator is phase `eval`. No diagnostic carries a `range`: hcl-rs's
//! evaluation errors name the failing expression but no source position,
//! and its parse errors give one point (line, column, byte offset), not a
//! range. The adapter does not declare `ranges`; the parser's position is
//! kept in the diagnostic's `detail` for a reader.

use hcl::eval::{Error as EvalError, ErrorKind};
use serde_json::{Value as Json, json};

/// An error answer with one diagnostic.
fn error_answer(phase: &str, summary: &str, detail: String) -> Json {
    json!({
        "error": {
            "phase": phase,
            "diagnostics": [{ "severity": "error", "summary": summary, "detail": detail }],
        }
    })
}

/// A `parse` error from one of hcl-rs's parsing entry points.
pub fn parse_error(error: &hcl::Error) -> Json {
    let detail = match error {
        hcl::Error::Parse(e) => {
            let at = e.location();
            format!(
                "{} (at line {}, column {}, byte {})",
                e.message(),
                at.line(),
                at.column(),
                at.offset()
            )
        }
        other => other.to_string(),
    };
    error_answer("parse", "hcl-rs parse error", detail)
}

/// An `eval` error from hcl-rs's evaluator, summarised by its kind.
pub fn eval_error(error: &EvalError) -> Json {
    let summary = match error.kind() {
        ErrorKind::UndefinedVar(_) => "Undefined variable",
        ErrorKind::UndefinedFunc(_) => "Undefined function",
        ErrorKind::Unexpected(_, _) => "Unexpected value",
        ErrorKind::Index(_) => "Index out of bounds",
        ErrorKind::UnaryOp(_, _) => "Invalid unary operand",
        ErrorKind::BinaryOp(_, _, _) => "Invalid binary operands",
        ErrorKind::NoSuchKey(_) => "No such key",
        ErrorKind::KeyExists(_) => "Duplicate key",
        ErrorKind::FuncCall(_, _) => "Function call failed",
        _ => "Evaluation failed",
    };
    error_answer("eval", summary, error.to_string())
}
