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
use std::collections::BTreeMap;
use std::path::Path;

/// xorshift64*: small, deterministic, good enough to mutate text.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Pieces of HCL that mutations splice in.
const TOKENS: &[&str] = &[
    "${", "}", "%{", "~}", "{", "[", "(", ")", "]", "\"", "<<EOT\n", "<<-EOT\n", "\nEOT\n", "\n",
    "for", "in", "if", "else", "endif", "endfor", "...", "[*]", ".*", ".0", "?", ":", "=>", "==",
    "!", "&&", "-", "/", "%", "1e99999", "null", "true", "x", "#", "//", "/*", "*/", "\\u", "\\",
    "é", "\u{feff}", "\r", "\t", "=", "::", "core::",
];

fn mutate(source: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = source.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(chars.len() + 1);
        match rng.below(5) {
            0 if !chars.is_empty() => {
                let end = (at + 1 + rng.below(8)).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            1 => {
                let token = TOKENS[rng.below(TOKENS.len())];
                chars.splice(at..at, token.chars());
            }
            2 if !chars.is_empty() => {
                let from = rng.below(chars.len());
                let end = (from + 1 + rng.below(16)).min(chars.len());
                let copy: Vec<char> = chars[from..end].to_vec();
                chars.splice(at..at, copy);
            }
            3 => chars.truncate(at),
            _ => chars.insert(at, char::from_u32(rng.below(0x3000) as u32).unwrap_or('?')),
        }
    }
    chars.into_iter().collect()
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
