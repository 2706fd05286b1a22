//! How long `hcl-ref` takes to answer deeply nested inputs: nested
//! brackets (a tuple value), nested blocks (a body), and nested `dynamic`
//! blocks, at 10,000, 50,000 and 199,999 levels (the deepest the parser
//! accepts; `dynamic` blocks take three levels of source each), and one
//! level beyond the limit (a parse error). The answer must come in time
//! linear in its size: the last column, milliseconds per 1,000 levels,
//! should stay flat as the depth grows.
//!
//! `cargo bench --bench deep_answers`. A benchmark, not a test: it reports
//! and asserts nothing but that each request was answered. Each figure is
//! the median of `HCL_BENCH_RUNS` runs (default 3), each a fresh process.

use serde_json::json;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Seconds for one `hcl-ref` process to answer `request`, and the
/// answer's length in bytes.
fn answer_once(request: &str) -> (f64, usize) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_hcl-ref"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("hcl-ref starts");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input = format!("{request}\n");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("hcl-ref runs");
    writer.join().expect("the writer").expect("hcl-ref reads");
    let seconds = started.elapsed().as_secs_f64();
    assert!(
        output.stdout.starts_with(b"{") && output.stdout.ends_with(b"}\n"),
        "no answer"
    );
    (seconds, output.stdout.len())
}

fn median(mut figures: Vec<f64>) -> f64 {
    figures.sort_by(f64::total_cmp);
    figures[figures.len() / 2]
}

fn main() {
    let runs: usize = std::env::var("HCL_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(3);
    let brackets = |n: usize| {
        json!({ "id": "1", "kind": "expr", "variables": {},
                "expr": "[".repeat(n) + "1" + &"]".repeat(n) })
    };
    let blocks = |n: usize| {
        json!({ "id": "1", "kind": "config", "syntax": "native", "variables": {},
                "config": "b {\n".repeat(n) + &"}\n".repeat(n) })
    };
    let dynamic = |n: usize| {
        json!({ "id": "1", "kind": "config", "syntax": "native", "variables": {},
                "extensions": ["dynblock"],
                "config": "dynamic \"b\" {\n for_each = [1]\n content {\n".repeat(n)
                    + &"}\n}\n".repeat(n) })
    };
    type Input = (
        &'static str,
        fn(usize) -> serde_json::Value,
        &'static [usize],
    );
    let inputs: [Input; 3] = [
        (
            "nested brackets",
            brackets,
            &[10_000, 50_000, 199_999, 200_000],
        ),
        ("nested blocks", blocks, &[10_000, 50_000, 199_999, 200_000]),
        ("nested dynamic blocks", dynamic, &[10_000, 50_000, 66_666]),
    ];
    println!(
        "{:<24} {:>8} {:>12} {:>10} {:>14}",
        "input", "levels", "answer", "seconds", "ms/1000 levels"
    );
    for (name, make, depths) in inputs {
        for &depth in depths {
            let request = make(depth).to_string();
            let mut seconds = Vec::new();
            let mut bytes = 0;
            for _ in 0..runs {
                let (s, b) = answer_once(&request);
                seconds.push(s);
                bytes = b;
            }
            let s = median(seconds);
            println!(
                "{name:<24} {depth:>8} {:>10} B {s:>10.3} {:>14.2}",
                bytes,
                s * 1e6 / depth as f64
            );
        }
    }
}
