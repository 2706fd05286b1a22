//! Random and mutated inputs never crash the native syntax: every suite
//! case's source, mutated many times, ends in a value or a diagnostic
//! (type expressions, of both syntaxes, included; expressions are evaluated
//! with the type expression extension's `convert`).
//! Bounded in iterations (not in time), so the test is deterministic.

use hcl_conformance_format::kinds::{Input, Syntax, Text};
use hcl_conformance_format::suite::{load_suite, TypedValue};
use hcl_interpreter::functions::FunctionTable;
use hcl_interpreter::native::{eval_config, eval_expression, eval_template};
use hcl_interpreter::typeexpr::{convert_entry, json_type, native_type, Mode};
use hcl_interpreter::EvalContext;
use hcl_random_inputs::{mutate_text, Mutations, Rng};
use std::collections::BTreeMap;
use std::path::Path;

/// Pieces of HCL that mutations splice in.
const TOKENS: &[&str] = &[
    "${", "}", "%{", "~}", "{", "[", "(", ")", "]", "\"", "<<EOT\n", "<<-EOT\n", "\nEOT\n", "\n",
    "for", "in", "if", "else", "endif", "endfor", "...", "[*]", ".*", ".0", "?", ":", "=>", "==",
    "!", "&&", "-", "/", "%", "1e99999", "null", "true", "x", "#", "//", "/*", "*/", "\\u", "\\",
    "é", "\u{feff}", "\r", "\t", "=", "::", "core::",
];

fn mutate(source: &str, rng: &mut Rng) -> String {
    let how = Mutations {
        pieces: TOKENS,
        hostile: &[],
        chars_below: 0x3000,
    };
    mutate_text(source, rng, &how)
}

#[test]
fn mutated_suite_inputs_never_crash() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../suite"));
    let suite = load_suite(dir).expect("the suite loads");
    let sources: Vec<(&str, String, EvalContext)> = suite
        .cases()
        .filter_map(|c| {
            let variables = |v: &BTreeMap<Text, TypedValue>| {
                v.iter().map(|(k, v)| (k.0.clone(), v.0.clone())).collect()
            };
            match &c.input {
                Input::Expr(e) => Some(("expr", e.expr.0.clone(), variables(&e.variables))),
                Input::Template(t) => {
                    Some(("template", t.template.0.clone(), variables(&t.variables)))
                }
                Input::Config(c) => Some(("config", c.config.0.clone(), variables(&c.variables))),
                Input::TypeExpr(t) if *t.syntax == Syntax::Json => {
                    Some(("typeexpr-json", t.expr.0.clone(), Default::default()))
                }
                Input::TypeExpr(t) => Some(("typeexpr", t.expr.0.clone(), Default::default())),
                _ => None,
            }
        })
        .map(|(kind, source, variables)| {
            (
                kind,
                source,
                EvalContext {
                    variables,
                    functions: Some(FunctionTable::conformance().with(convert_entry())),
                    ..EvalContext::default()
                },
            )
        })
        .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut runs = 0;
    // A fixed number of mutations, spread over every source.
    let rounds = if sources.is_empty() {
        0
    } else {
        (20_000 / sources.len()).max(2)
    };
    for (kind, source, ctx) in &sources {
        for _ in 0..rounds {
            let input = mutate(source, &mut rng);
            // Each input has a budget of its own.
            let ctx = &EvalContext {
                budget: Default::default(),
                ..ctx.clone()
            };
            // A panic fails the test with the input that caused it.
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match *kind {
                "expr" => eval_expression(&input, ctx).map(|_| ()),
                "template" => eval_template(&input, ctx).map(|_| ()),
                "typeexpr" => native_type(&input, Mode::TypeConstraint).map(|_| ()),
                "typeexpr-json" => json_type(&input, Mode::Type).map(|_| ()),
                _ => eval_config(&input, ctx).map(|_| ()),
            }));
            assert!(outcome.is_ok(), "{kind} input {input:?} panicked");
            runs += 1;
        }
    }
    println!("{runs} mutated inputs from {} sources", sources.len());
}
