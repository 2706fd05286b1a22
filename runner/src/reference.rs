//! The reference interpreter, run in-process.

use crate::outcome::{Block, Body, Outcome};
use crate::suite::{Input, StaticShape, Syntax};
use hcl_interpreter::bodies::{self, BodyContent, BodySpec};
use hcl_interpreter::diagnostic::Range;
use hcl_interpreter::eval_context::Budget;
use hcl_interpreter::functions::FunctionTable;
use hcl_interpreter::static_analysis::{StaticResult, TraversalStep};
use hcl_interpreter::{
    config, convert, json, native, operations, typeexpr, unify, Diagnostic, EvalContext, Phase,
    Value,
};
use std::collections::BTreeMap;

fn error(diagnostic: Diagnostic) -> Outcome {
    errors(vec![diagnostic])
}

/// The evaluation context of a case: its variables, and an evaluation
/// budget of `budget` units.
fn context(variables: &BTreeMap<String, Value>, budget: u64) -> EvalContext {
    EvalContext {
        variables: variables.clone(),
        budget: Budget::new(budget),
        ..EvalContext::default()
    }
}

/// The first diagnostic's phase, and the ranges of all of them.
fn errors(diagnostics: Vec<Diagnostic>) -> Outcome {
    Outcome::Error {
        phase: diagnostics.first().map_or(Phase::Eval, |d| d.phase),
        diagnostics,
    }
}

fn value_or_errors(result: Result<Value, Vec<Diagnostic>>) -> Outcome {
    match result {
        Ok(value) => Outcome::Value {
            value,
            safety: None,
        },
        Err(diagnostics) => errors(diagnostics),
    }
}

fn content_outcome(mut content: BodyContent) -> Body {
    Body {
        attributes: std::mem::take(&mut content.attributes),
        blocks: std::mem::take(&mut content.blocks)
            .into_iter()
            .map(|mut b| Block {
                type_name: std::mem::take(&mut b.type_name),
                labels: std::mem::take(&mut b.labels),
                body: content_outcome(std::mem::take(&mut b.body)),
            })
            .collect(),
        remain: content.remain.take().map(|r| Box::new(content_outcome(*r))),
        unevaluated: BTreeMap::new(),
    }
}

/// A `config` case: the file's body processed as the case says
/// (suite/README.md, "Bodies and schemas").
fn run_config(
    syntax: Syntax,
    config: &str,
    variables: &BTreeMap<String, Value>,
    extensions: &[String],
    schema: Option<&BodySpec>,
    literal_only: bool,
    budget: u64,
) -> Outcome {
    let ctx = if literal_only {
        if let Err(diagnostic) = bodies::check_literal_only(variables) {
            return error(diagnostic);
        }
        EvalContext {
            budget: Budget::new(budget),
            ..EvalContext::literal_only_mode()
        }
    } else {
        context(variables, budget)
    };
    let mode = (!literal_only).then_some(&ctx);
    let dynamic_blocks = extensions.iter().any(|e| e == "dynblock");
    // Without a schema a JSON body is read in the dynamic attributes mode
    // (suite/README.md).
    let syntax = match syntax {
        Syntax::Native => config::Syntax::Native,
        Syntax::Json => config::Syntax::Json,
    };
    match config::process_config(syntax, config, schema, mode, dynamic_blocks) {
        Ok(content) => Outcome::Body(content_outcome(content)),
        Err(diagnostics) => errors(diagnostics),
    }
}

/// The source text of an expression's range.
fn text(source: &str, range: &Range) -> String {
    source
        .get(range.start.byte..range.end.byte)
        .unwrap_or("")
        .to_string()
}

/// A static result with expressions as their source text and traversal
/// steps as `.name` and `[KEY]` (KEY in JSON: a decimal number, a string, a
/// bool or null).
fn static_shape(source: &str, result: StaticResult) -> StaticShape {
    match result {
        StaticResult::List(items) => {
            StaticShape::List(items.iter().map(|r| text(source, r)).collect())
        }
        StaticResult::Map(pairs) => StaticShape::Map(
            pairs
                .iter()
                .map(|(k, v)| (text(source, k), text(source, v)))
                .collect(),
        ),
        StaticResult::Call { name, arguments } => StaticShape::Call {
            name,
            arguments: arguments.iter().map(|r| text(source, r)).collect(),
        },
        StaticResult::Traversal(traversal) => {
            let mut steps = vec![traversal.root];
            steps.extend(traversal.steps.into_iter().map(|step| match step {
                TraversalStep::Attribute(name) => format!(".{name}"),
                TraversalStep::Index(key) => format!("[{}]", key_json(&key)),
            }));
            StaticShape::Traversal(steps)
        }
    }
}

fn key_json(key: &Value) -> String {
    match key {
        Value::Number(n) => n.to_decimal_string(),
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        Value::Bool(b) => b.to_string(),
        _ => "null".to_string(),
    }
}

/// Runs one case's input through the reference interpreter, with the
/// default evaluation budget.
pub fn run(input: &Input) -> Outcome {
    run_with_budget(input, Budget::DEFAULT_LIMIT)
}

/// Runs one case's input through the reference interpreter, evaluating
/// with a budget of `budget` units (see [`Budget`]).
pub fn run_with_budget(input: &Input, budget: u64) -> Outcome {
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
        Input::Expr {
            expr,
            variables,
            extensions,
        } => {
            let mut ctx = context(variables, budget);
            if extensions.iter().any(|e| e == "typeexpr") {
                ctx.functions = Some(FunctionTable::conformance().with(typeexpr::convert_entry()));
            }
            value_or_errors(native::eval_expression(expr, &ctx))
        }
        Input::TypeExpr {
            syntax,
            expr,
            constraint,
        } => {
            let mode = if *constraint {
                typeexpr::Mode::TypeConstraint
            } else {
                typeexpr::Mode::Type
            };
            let read = match syntax {
                Syntax::Native => typeexpr::native_type(expr, mode),
                Syntax::Json => typeexpr::json_type(expr, mode),
            };
            match read {
                Ok(ty) => Outcome::Type(ty),
                Err(diagnostics) => errors(diagnostics),
            }
        }
        Input::Template {
            template,
            variables,
        } => value_or_errors(native::eval_template(template, &context(variables, budget))),
        Input::Config {
            syntax,
            config,
            variables,
            extensions,
            schema,
            literal_only,
        } => run_config(
            *syntax,
            config,
            variables,
            extensions,
            schema.as_ref(),
            *literal_only,
            budget,
        ),
        Input::Static {
            syntax: Syntax::Native,
            expr,
            analysis,
        } => match native::static_analysis::analyze(expr, *analysis) {
            Ok(result) => Outcome::Static(static_shape(expr, result)),
            Err(diagnostics) => errors(diagnostics),
        },
        Input::Static {
            syntax: Syntax::Json,
            expr,
            analysis,
        } => match json::analyze(expr, *analysis) {
            Ok(result) => Outcome::Static(static_shape(expr, result)),
            Err(diagnostics) => errors(diagnostics),
        },
    }
}
