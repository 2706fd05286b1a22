//! Every case of the suite can fail: for each case, a changed expectation is
//! caught by the comparison against the reference interpreter's outcome.

use hcl_conformance_format::kinds::{Pair, StaticShape};
use hcl_conformance_format::suite::{load_suite, Expectation, Expected};
use hcl_conformance_format::values::ExpectedValue;
use hcl_conformance_runner::compare::check;
use hcl_conformance_runner::reference;
use hcl_interpreter::number::Number;
use hcl_interpreter::{Phase, Type};
use std::path::Path;

/// Another type than `ty`.
fn other_type(ty: &Type) -> Type {
    if *ty == Type::String {
        Type::Number
    } else {
        Type::String
    }
}

/// The expected value with its first scalar changed, if it has one.
fn change_first_scalar(value: &ExpectedValue) -> Option<ExpectedValue> {
    Some(match value {
        ExpectedValue::Null => ExpectedValue::Unknown,
        ExpectedValue::Unknown => ExpectedValue::Null,
        ExpectedValue::String(s) => ExpectedValue::String(format!("{s}~")),
        ExpectedValue::Bool(b) => ExpectedValue::Bool(!b),
        ExpectedValue::Number(n) => ExpectedValue::Number(match n {
            Number::Finite(_) => n.add(&Number::from_i64(1)).ok()?,
            Number::PositiveInfinity => Number::NegativeInfinity,
            Number::NegativeInfinity => Number::PositiveInfinity,
        }),
        ExpectedValue::Approx { value, .. } => {
            ExpectedValue::Number(value.add(&Number::from_i64(1)).ok()?)
        }
        ExpectedValue::Sequence(items) => {
            if items.is_empty() {
                return None;
            }
            let mut items = items.clone();
            items[0] = change_first_scalar(&items[0])?;
            ExpectedValue::Sequence(items)
        }
        ExpectedValue::Mapping(entries) => {
            let (key, first) = entries.iter().next()?;
            let mut entries = entries.clone();
            entries.insert(key.clone(), change_first_scalar(first)?);
            ExpectedValue::Mapping(entries)
        }
    })
}

/// Ways to change an expectation so that it no longer holds.
fn mutations(expect: &Expectation) -> Vec<Expectation> {
    match expect {
        Expectation::Result(b) => vec![Expectation::Result(!b)],
        Expectation::Type(ty) => vec![Expectation::Type(other_type(ty))],
        Expectation::Error { phase, range } => {
            let other = if *phase == Phase::Eval {
                Phase::Parse
            } else {
                Phase::Eval
            };
            vec![
                Expectation::Error {
                    phase: other,
                    range: range.clone(),
                },
                Expectation::Result(true),
            ]
        }
        Expectation::Value {
            ty,
            value,
            safety,
            order_any,
        } => {
            let mut changed = vec![Expectation::Value {
                ty: other_type(ty),
                value: value.clone(),
                safety: *safety,
                order_any: *order_any,
            }];
            if let Some(value) = change_first_scalar(value) {
                changed.push(Expectation::Value {
                    ty: ty.clone(),
                    value,
                    safety: *safety,
                    order_any: *order_any,
                });
            }
            changed.push(Expectation::Error {
                phase: Phase::Conversion,
                range: None,
            });
            changed
        }
        Expectation::Body(body) => {
            // An extra attribute, and a missing block.
            let mut more = body.clone();
            let extra = Expected {
                ty: Type::Bool,
                value: ExpectedValue::Bool(true),
            };
            more.attributes.insert("mutation~".into(), extra);
            let mut changed = vec![Expectation::Body(more), Expectation::Result(true)];
            if !body.blocks.is_empty() {
                let mut fewer = body.clone();
                fewer.blocks.pop();
                changed.push(Expectation::Body(fewer));
            }
            changed
        }
        Expectation::Static(shape) => {
            let mut changed = shape.clone();
            match &mut changed {
                StaticShape::List(items) | StaticShape::Traversal(items) => items.push("~".into()),
                StaticShape::Map(pairs) => pairs.push(Pair {
                    key: "~".into(),
                    value: "~".into(),
                }),
                StaticShape::Call(call) => call.name.0.push('~'),
            }
            vec![Expectation::Static(changed), Expectation::Result(true)]
        }
        Expectation::OneOf(options) => {
            // Every accepted result changed at once.
            let per_option: Vec<Vec<Expectation>> = options.iter().map(mutations).collect();
            vec![Expectation::OneOf(
                per_option.iter().map(|m| m[0].clone()).collect(),
            )]
        }
    }
}

#[test]
fn every_changed_expectation_is_caught() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite"));
    let suite = load_suite(dir).unwrap_or_else(|errors| {
        panic!(
            "{}",
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        )
    });
    let mut checked = 0;
    let mut uncaught = Vec::new();
    for case in suite.cases() {
        let outcome = reference::run(&case.input);
        assert!(
            check(&case.expect, &outcome).is_ok(),
            "{} fails unmutated",
            case.id
        );
        for mutated in mutations(&case.expect) {
            checked += 1;
            if check(&mutated, &outcome).is_ok() {
                uncaught.push(format!("{}: {:?}", case.id, mutated));
            }
        }
    }
    assert!(checked > 300, "only {checked} mutations checked");
    assert!(
        uncaught.is_empty(),
        "changed expectations that still pass:\n{}",
        uncaught.join("\n")
    );
}
