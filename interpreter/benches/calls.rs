//! The fixed cost of a call: many calls of the public entry points on
//! inputs of a few bytes (`eval_expression("1")`...), each figure the median
//! of several runs, in microseconds per call. A benchmark, not a test: it
//! reports and asserts nothing.
//!
//! `cargo bench -p hcl-interpreter --bench calls`

use hcl_interpreter::config::{process_config, Syntax};
use hcl_interpreter::native::{eval_config, eval_expression, eval_template, parse_expression};
use hcl_interpreter::typeexpr::{native_type, Mode};
use hcl_interpreter::{json, EvalContext};
use std::hint::black_box;
use std::time::Instant;

/// Calls per run.
const CALLS: u32 = 20_000;

fn main() {
    let runs: usize = std::env::var("HCL_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(7);
    let ctx = EvalContext::default();
    let calls: [(&str, &dyn Fn()); 7] = [
        ("native eval_expression(\"1\")", &|| {
            black_box(eval_expression(black_box("1"), &ctx)).ok();
        }),
        ("native eval_template(\"a${1}\")", &|| {
            black_box(eval_template(black_box("a${1}"), &ctx)).ok();
        }),
        ("native eval_config(\"a = 1\")", &|| {
            black_box(eval_config(black_box("a = 1\n"), &ctx)).ok();
        }),
        ("native parse_expression(\"a.b\")", &|| {
            black_box(parse_expression(black_box("a.b"))).ok();
        }),
        ("json eval_expression(\"1\")", &|| {
            black_box(json::eval_expression(black_box("1"), Some(&ctx))).ok();
        }),
        ("config process_config(json, \"{}\")", &|| {
            let body = process_config(Syntax::Json, black_box("{}"), None, Some(&ctx), false);
            black_box(body).ok();
        }),
        ("typeexpr native_type(\"list(string)\")", &|| {
            black_box(native_type(black_box("list(string)"), Mode::Type)).ok();
        }),
    ];
    println!(
        "{:<44} {:>12} {:>15}   (median of {runs} runs of {CALLS} calls)",
        "call", "µs/call", "range"
    );
    for (name, call) in calls {
        let mut micros: Vec<f64> = (0..runs)
            .map(|_| {
                let started = Instant::now();
                for _ in 0..CALLS {
                    call();
                }
                started.elapsed().as_secs_f64() * 1e6 / f64::from(CALLS)
            })
            .collect();
        micros.sort_by(f64::total_cmp);
        println!(
            "{:<44} {:>12.2} {:>15}",
            name,
            micros[micros.len() / 2],
            format!("{:.2}-{:.2}", micros[0], micros[micros.len() - 1])
        );
    }
}
