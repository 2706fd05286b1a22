//! The reference interpreter, run in-process.

use crate::outcome::Outcome;
use crate::suite::Input;
use hcl_interpreter::{convert, operations, unify, Diagnostic};

fn error(diagnostic: Diagnostic) -> Outcome {
    Outcome::Error {
        phase: diagnostic.phase,
        ranges: diagnostic.range.into_iter().collect(),
    }
}

/// Runs one case's input through the reference interpreter.
pub fn run(input: &Input) -> Outcome {
    match input {
        Input::Convert { value, to } => match convert::convert(value, to) {
            Ok(converted) => Outcome::Value {
                value: converted.value,
                safety: Some(converted.safety),
            },
            Err(diagnostic) => error(diagnostic),
        },
        Input::Unify { types } => match unify::unify(types) {
            Ok(ty) => Outcome::Type(ty),
            Err(diagnostic) => error(diagnostic),
        },
        Input::Identical { types: [a, b] } => Outcome::Result(a.is_identical(b)),
        Input::Matches { ty, spec } => Outcome::Result(ty.matches(spec)),
        Input::Operation { op, operands } => match operations::apply(*op, operands) {
            Ok(value) => Outcome::Value {
                value,
                safety: None,
            },
            Err(diagnostic) => error(diagnostic),
        },
        Input::Expr { .. } | Input::Template { .. } | Input::Config { .. } => Outcome::Unsupported(
            "the reference interpreter does not evaluate the native syntax yet".into(),
        ),
    }
}
