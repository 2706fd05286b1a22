//! The reference interpreter, run in-process: one arm per case kind, each
//! calling one public interpreter function.

use hcl_conformance_format::kinds::{self, Block, Body, Input, StaticShape, Syntax, Text};
use hcl_conformance_format::wire::{Attribute, ErrorAnswer, Outcome, Ty, Val};
use hcl_interpreter::bodies::{self, BodyContent, ContentBlock};
use hcl_interpreter::budget::Budget;
use hcl_interpreter::convert::Safety;
use hcl_interpreter::diagnostic::{Phase, Range};
use hcl_interpreter::functions::FunctionTable;
use hcl_interpreter::static_analysis::{StaticResult, TraversalStep};
use hcl_interpreter::{
    config, convert, json, native, operations, typeexpr, unify, Diagnostic, EvalContext, Type,
    Value,
};
use std::collections::BTreeMap;
use std::ops::Deref;

fn errors(diagnostics: &[Diagnostic]) -> Outcome {
    Outcome::Error(ErrorAnswer::from_diagnostics(diagnostics))
}

fn value(value: Value, safety: Option<Safety>) -> Outcome {
    Outcome::Value {
        value: Val(value),
        safety: safety.map(kinds::Named),
    }
}

fn value_or_errors(result: Result<Value, Vec<Diagnostic>>) -> Outcome {
    result.map_or_else(|d| errors(&d), |v| value(v, None))
}

/// The variables of a case, as the interpreter takes them (moved, not
/// copied: a request's values can be large).
fn variables<V: Into<Value>>(variables: BTreeMap<Text, V>) -> BTreeMap<String, Value> {
    variables
        .into_iter()
        .map(|(k, v)| (k.0, v.into()))
        .collect()
}

/// The evaluation context of a case: its variables, and its evaluation
/// budget.
fn context(variables: BTreeMap<String, Value>, budget: Budget) -> EvalContext {
    EvalContext {
        variables,
        budget,
        ..EvalContext::default()
    }
}

/// A body's content as the protocol writes it. Bodies nest as deep as
/// their source's blocks (200,000 levels), so the conversion runs without
/// recursion: one heap stack holds a frame for each body being converted,
/// its blocks taken one at a time.
fn content_outcome(content: BodyContent) -> Body<Attribute> {
    /// Where a converted body goes.
    enum Place {
        /// It is the result.
        Root,
        /// It is the body of a block of the body below it on the stack.
        Block {
            type_name: String,
            labels: Vec<String>,
        },
        /// It is the remaining body of the body below it on the stack.
        Remain,
    }
    struct Frame {
        place: Place,
        converted: Body<Attribute>,
        blocks: std::vec::IntoIter<ContentBlock>,
        remain: Option<Box<BodyContent>>,
    }
    let frame = |place, mut content: BodyContent| Frame {
        place,
        converted: Body {
            attributes: attributes(std::mem::take(&mut content.attributes)),
            blocks: Vec::with_capacity(content.blocks.len()),
            remain: None,
        },
        blocks: std::mem::take(&mut content.blocks).into_iter(),
        remain: content.remain.take(),
    };
    let mut stack = vec![frame(Place::Root, content)];
    loop {
        let Some(top) = stack.last_mut() else {
            return Body::default();
        };
        if let Some(mut b) = top.blocks.next() {
            let place = Place::Block {
                type_name: std::mem::take(&mut b.type_name),
                labels: std::mem::take(&mut b.labels),
            };
            let body = std::mem::take(&mut b.body);
            stack.push(frame(place, body));
            continue;
        }
        if let Some(remain) = top.remain.take() {
            stack.push(frame(Place::Remain, *remain));
            continue;
        }
        let Some(done) = stack.pop() else {
            return Body::default();
        };
        let Some(parent) = stack.last_mut() else {
            return done.converted;
        };
        match done.place {
            Place::Block { type_name, labels } => {
                parent
                    .converted
                    .blocks
                    .push(block(type_name, labels, done.converted));
            }
            Place::Remain | Place::Root => parent.converted.remain = Some(Box::new(done.converted)),
        }
    }
}

fn attributes(values: BTreeMap<String, Value>) -> BTreeMap<Text, Attribute> {
    values
        .into_iter()
        .map(|(k, v)| (Text(k), Attribute::Value(Val(v))))
        .collect()
}

fn block(type_name: String, labels: Vec<String>, body: Body<Attribute>) -> Block<Attribute> {
    Block {
        type_name: Text(type_name),
        labels: labels.into_iter().map(Text).collect(),
        body,
    }
}

/// A `config` case: the file's body processed as the case says
/// (suite/README.md, "Bodies and schemas").
fn run_config<V: Into<Value>>(c: kinds::Config<V>, budget: Budget) -> (Outcome, Budget) {
    let variables = variables(c.variables);
    let ctx = if c.literal_only {
        if let Err(diagnostic) = bodies::check_literal_only(&variables) {
            return (errors(&[diagnostic]), budget);
        }
        EvalContext {
            budget,
            ..EvalContext::literal_only_mode()
        }
    } else {
        context(variables, budget)
    };
    let mode = (!c.literal_only).then_some(&ctx);
    let dynamic_blocks = c.extensions.iter().any(|e| &**e == "dynblock");
    let schema = match c.schema.as_ref().map(|s| s.to_body_spec(0)).transpose() {
        Ok(schema) => schema,
        Err(why) => return (Outcome::Malformed(format!("`schema`: {why}")), ctx.budget),
    };
    // Without a schema a JSON body is read in the dynamic attributes mode
    // (suite/README.md).
    let syntax = match *c.syntax {
        Syntax::Native => config::Syntax::Native,
        Syntax::Json => config::Syntax::Json,
    };
    let outcome =
        match config::process_config(syntax, &c.config, schema.as_ref(), mode, dynamic_blocks) {
            Ok(content) => Outcome::Body(content_outcome(content)),
            Err(diagnostics) => errors(&diagnostics),
        };
    (outcome, ctx.budget)
}

/// A static result with expressions as their source text and traversal
/// steps as `.name` and `[KEY]` (KEY in JSON: a decimal number, a string, a
/// bool or null).
fn static_shape(source: &str, result: StaticResult) -> StaticShape {
    let text = |range: &Range| {
        Text(
            source
                .get(range.start.byte..range.end.byte)
                .unwrap_or("")
                .into(),
        )
    };
    match result {
        StaticResult::List(items) => StaticShape::List(items.iter().map(text).collect()),
        StaticResult::Map(pairs) => StaticShape::Map(
            pairs
                .iter()
                .map(|(k, v)| kinds::Pair {
                    key: text(k),
                    value: text(v),
                })
                .collect(),
        ),
        StaticResult::Call { name, arguments } => StaticShape::Call(kinds::Call {
            name: Text(name),
            arguments: arguments.iter().map(text).collect(),
        }),
        StaticResult::Traversal(traversal) => {
            let mut steps = vec![Text(traversal.root)];
            steps.extend(traversal.steps.into_iter().map(|step| match step {
                TraversalStep::Attribute(name) => Text(format!(".{name}")),
                TraversalStep::Index(key) => Text(format!("[{}]", key_json(&key))),
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
pub fn run<T: Deref<Target = Type> + Clone, V: Into<Value> + Clone>(
    input: &Input<T, V>,
) -> Outcome {
    run_within(input.clone(), Budget::default()).0
}

/// Runs one case's input through the reference interpreter, paying for
/// its work from `budget` (see [`Budget`]; what reading the request
/// spent included): evaluation, conversion, unification (the types
/// unified and their unification) and operations. Gives back the outcome,
/// and the budget with what the work spent.
pub fn run_within<T: Deref<Target = Type>, V: Into<Value>>(
    input: Input<T, V>,
    budget: Budget,
) -> (Outcome, Budget) {
    // The evaluation context holds the budget while it evaluates.
    let evaluated = |ctx: EvalContext, result: Result<Value, Vec<Diagnostic>>| {
        (value_or_errors(result), ctx.budget)
    };
    let outcome = match input {
        Input::Convert(c) => match convert::convert(&c.value.into(), &c.to, &budget) {
            Ok(converted) => value(converted.value, Some(converted.safety)),
            Err(diagnostic) => errors(&[diagnostic]),
        },
        Input::Unify(u) => {
            let types: Vec<Type> = u.types.iter().map(|t| (**t).clone()).collect();
            let unified = types
                .iter()
                .try_for_each(|ty| budget.charge_type(ty))
                .map_err(|exceeded| exceeded.diagnostic(Phase::Unification))
                .and_then(|()| unify::unify(&types))
                .and_then(|ty| match budget.charge_type(&ty) {
                    Ok(()) => Ok(ty),
                    Err(exceeded) => Err(exceeded.diagnostic(Phase::Unification)),
                });
            match unified {
                Ok(ty) => Outcome::Type(Ty(ty)),
                Err(diagnostic) => errors(&[diagnostic]),
            }
        }
        Input::Identical(i) => Outcome::Result(i.types[0].is_identical(&i.types[1])),
        Input::Matches(m) => Outcome::Result(m.ty.matches(&m.spec)),
        Input::Operation(o) => {
            let operands: Vec<Value> = o.operands.into_iter().map(Into::into).collect();
            match operations::apply(*o.op, &operands, &budget) {
                Ok(v) => value(v, None),
                Err(diagnostic) => errors(&[diagnostic]),
            }
        }
        Input::Expr(e) => {
            let mut ctx = context(variables(e.variables), budget);
            if e.extensions.iter().any(|e| &**e == "typeexpr") {
                ctx.functions = Some(FunctionTable::conformance().with(typeexpr::convert_entry()));
            }
            let result = native::eval_expression(&e.expr, &ctx);
            return evaluated(ctx, result);
        }
        Input::TypeExpr(t) => {
            let mode = if t.constraint {
                typeexpr::Mode::TypeConstraint
            } else {
                typeexpr::Mode::Type
            };
            let read = match *t.syntax {
                Syntax::Native => typeexpr::native_type(&t.expr, mode),
                Syntax::Json => typeexpr::json_type(&t.expr, mode),
            };
            read.map_or_else(|d| errors(&d), |ty| Outcome::Type(Ty(ty)))
        }
        Input::Template(t) => {
            let ctx = context(variables(t.variables), budget);
            let result = native::eval_template(&t.template, &ctx);
            return evaluated(ctx, result);
        }
        Input::Config(c) => return run_config(c, budget),
        Input::Static(s) => {
            let result = match *s.syntax {
                Syntax::Native => native::static_analysis::analyze(&s.expr, *s.analysis),
                Syntax::Json => json::analyze(&s.expr, *s.analysis),
            };
            result.map_or_else(
                |d| errors(&d),
                |r| Outcome::Static(static_shape(&s.expr, r)),
            )
        }
    };
    (outcome, budget)
}
