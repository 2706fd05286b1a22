//! Speed and memory of the native syntax on generated Terraform-style
//! configurations of 1, 10 and 50 MB: parsing alone, and parsing plus the
//! evaluation of every attribute; and on a template of many
//! interpolations, and on 100,000 nested blocks and brackets (evaluated).
//! Each measurement runs in a fresh process so that its peak memory
//! (VmHWM) is its own; each figure is the median of `HCL_BENCH_RUNS`
//! (default 5) measurements, with their range, and the highest peak
//! memory.
//!
//! `cargo bench -p hcl-interpreter --bench native [-- SIZES_IN_MB...]`.
//! Peak memory is given as a multiple of the input's size (the process's
//! whole peak, its code and runtime included).
//! A benchmark, not a test: it reports and asserts nothing.

use hcl_interpreter::native::{eval_config, eval_expression, eval_template, parse_config};
use hcl_interpreter::number::Number;
use hcl_interpreter::{EvalContext, Type, Value};
use std::fmt::Write as _;
use std::time::Instant;

/// One resource block, numbered `n`: labels, nested blocks, templates with
/// interpolations and directives, a heredoc, a for expression, a
/// conditional, a splat and function calls.
fn resource(n: usize, out: &mut String) {
    let _ = write!(
        out,
        r#"resource "aws_instance" "web_{n}" {{
  ami           = "ami-${{var.region}}-{n}"
  count         = var.count + {n}
  description   = "instance ${{upper(var.env)}} number {n} in %{{ if var.disabled }}off%{{ else }}on%{{ endif }}"
  tags = {{
    Name  = "web-{n}"
    Env   = var.env == "prod" ? "production" : "staging"
    Owner = lower("Team-{n}")
  }}
  subnet_ids = [for s in var.subnets : upper(s) if s != "b"]
  by_name    = {{ for i, item in var.items : item.name => i }}
  names      = var.items[*].name
  user_data  = <<-EOT
    #!/bin/bash
    echo "starting {n} in ${{var.env}}"
    %{{ for s in var.subnets ~}}
    subnet ${{s}}
    %{{ endfor ~}}
  EOT
  enabled = length(var.subnets) > 2 && !var.disabled
  ratio   = ({n} * 3 + 1) / 7
  network {{
    port = 8000 + {n}
    cidr = join(",", var.subnets)
    rule "ingress" {{
      from = max(22, {n} % 1000)
      to   = min(65535, 22 + {n})
    }}
  }}
}}

"#
    );
}

fn generate(bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 2048);
    let mut n = 0;
    while out.len() < bytes {
        resource(n, &mut out);
        n += 1;
    }
    out
}

fn context() -> EvalContext {
    let s = |t: &str| Value::string(t);
    let subnets = Value::list(Type::String, vec![s("a"), s("b"), s("c")]).expect("strings");
    let item = |name: &str| Value::object([("name".to_string(), s(name))]);
    let var = Value::object([
        ("region".to_string(), s("us-east-1")),
        ("count".to_string(), Value::Number(Number::from_i64(3))),
        ("env".to_string(), s("prod")),
        ("subnets".to_string(), subnets),
        (
            "items".to_string(),
            Value::Tuple(vec![item("x"), item("y")]),
        ),
        ("disabled".to_string(), Value::Bool(false)),
    ]);
    EvalContext {
        variables: [("var".to_string(), var)].into_iter().collect(),
        ..EvalContext::default()
    }
}

/// Peak resident memory of this process, in bytes.
fn peak_memory() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// The child of an `interpolations` measurement: a template of `count`
/// interpolations, evaluated; prints `seconds peak_bytes source_bytes`.
fn interpolations_child(count: usize) {
    let source = "${var.env}-".repeat(count);
    let ctx = context();
    let started = Instant::now();
    eval_template(&source, &ctx).expect("the template evaluates");
    let seconds = started.elapsed().as_secs_f64();
    println!("{seconds} {} {}", peak_memory(), source.len());
}

/// The child of a deep-nesting measurement: 100,000 nested blocks (a
/// configuration file, evaluated) or brackets (an expression, evaluated);
/// prints `seconds peak_bytes source_bytes`.
fn deep_child(what: &str, levels: usize) {
    let source = match what {
        "blocks" => "b {\n".repeat(levels) + &"}\n".repeat(levels),
        _ => "[".repeat(levels) + "1" + &"]".repeat(levels),
    };
    let ctx = context();
    let started = Instant::now();
    match what {
        "blocks" => drop(eval_config(&source, &ctx).expect("the blocks evaluate")),
        _ => drop(eval_expression(&source, &ctx).expect("the brackets evaluate")),
    }
    let seconds = started.elapsed().as_secs_f64();
    println!("{seconds} {} {}", peak_memory(), source.len());
}

/// The child: generate, then time one phase; prints `seconds peak_bytes`.
fn child(mode: &str, megabytes: usize) {
    let source = generate(megabytes << 20);
    let ctx = context();
    let started = Instant::now();
    match mode {
        "parse" => {
            parse_config(&source).expect("the generated file parses");
        }
        _ => {
            eval_config(&source, &ctx).expect("the generated file evaluates");
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!("{seconds} {} {}", peak_memory(), source.len());
}

/// `runs` measurements of `mode` at `size`: the median seconds and the
/// highest peak memory as a multiple of the input (`None` if none ran).
fn median_and_peak(
    exe: &std::path::Path,
    mode: &str,
    size: usize,
    runs: usize,
) -> Option<(f64, f64)> {
    let measured: Vec<(f64, f64, f64)> = (0..runs)
        .filter_map(|_| measure(exe, mode, size).ok())
        .collect();
    let mut seconds: Vec<f64> = measured.iter().map(|m| m.0).collect();
    let peak_ratio = measured.iter().map(|m| m.1 / m.2).fold(0.0, f64::max);
    seconds.sort_by(f64::total_cmp);
    seconds
        .get(seconds.len() / 2)
        .map(|&median| (median, peak_ratio))
}

/// One measurement in a fresh process: seconds, peak bytes, input bytes.
fn measure(exe: &std::path::Path, mode: &str, size: usize) -> Result<(f64, f64, f64), String> {
    let output = std::process::Command::new(exe)
        .env("HCL_BENCH_CHILD", format!("{mode}:{size}"))
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&output.stdout);
    let fields: Vec<f64> = text
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    match fields[..] {
        [seconds, peak, len] => Ok((seconds, peak, len)),
        _ => Err(format!("{text}{}", String::from_utf8_lossy(&output.stderr))),
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if let Ok(spec) = std::env::var("HCL_BENCH_CHILD") {
        let (mode, size) = spec.split_once(':').expect("MODE:SIZE");
        let size = size.parse().expect("a size");
        match mode {
            "interpolations" => interpolations_child(size),
            "blocks" | "brackets" => deep_child(mode, size),
            _ => child(mode, size),
        }
        return;
    }
    let sizes: Vec<usize> = if args.is_empty() {
        vec![1, 10, 50]
    } else {
        args.iter()
            .map(|a| a.parse().expect("sizes in MB"))
            .collect()
    };
    // Each figure is the median of several runs, each in a fresh process,
    // with the slowest and fastest runs beside it: on a shared machine one
    // run can be far off.
    let runs: usize = std::env::var("HCL_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(5);
    let exe = std::env::current_exe().expect("this benchmark's path");

    // "A template with 100,000 interpolations must evaluate in linear
    // time": ten times the interpolations, about ten times the time.
    let mut interpolation_seconds = Vec::new();
    for count in [10_000, 100_000] {
        if let Some((median, peak_ratio)) = median_and_peak(&exe, "interpolations", count, runs) {
            println!(
                "template of {count} interpolations (median of {runs} runs): {:.2} ms, peak memory {peak_ratio:.1} times the input",
                median * 1e3
            );
            interpolation_seconds.push(median);
        }
    }
    if let [small, large] = interpolation_seconds[..] {
        println!(
            "  100,000 / 10,000 interpolations: {:.1} times the time",
            large / small
        );
    }
    // Deep nesting: the stack the recursion takes is memory too.
    for what in ["blocks", "brackets"] {
        if let Some((median, peak_ratio)) = median_and_peak(&exe, what, 100_000, runs) {
            println!(
                "100,000 nested {what} (median of {runs} runs): {:.2} ms, peak memory {peak_ratio:.1} times the input",
                median * 1e3
            );
        }
    }
    println!(
        "{:>6} {:>12} {:>10} {:>15} {:>12} {:>16}   (median of {runs} runs)",
        "size", "phase", "MiB/s", "range", "seconds", "peak memory / MB"
    );
    for mb in sizes {
        for mode in ["parse", "parse+eval"] {
            let mut rates = Vec::new();
            let mut seconds = Vec::new();
            let mut peak_ratio: f64 = 0.0;
            for _ in 0..runs {
                match measure(&exe, mode, mb) {
                    Ok((s, peak, len)) => {
                        rates.push(len / (1 << 20) as f64 / s);
                        seconds.push(s);
                        peak_ratio = peak_ratio.max(peak / len);
                    }
                    Err(why) => println!("{mb} MB {mode}: failed: {why}"),
                }
            }
            if rates.is_empty() {
                continue;
            }
            rates.sort_by(f64::total_cmp);
            seconds.sort_by(f64::total_cmp);
            let median = |v: &[f64]| v[v.len() / 2];
            println!(
                "{:>4}MB {:>12} {:>10.1} {:>15} {:>12.3} {:>16.1}",
                mb,
                mode,
                median(&rates),
                format!("{:.1}-{:.1}", rates[0], rates[rates.len() - 1]),
                median(&seconds),
                peak_ratio
            );
        }
    }
}
