//! How fast the runner drives an implementation through the protocol:
//! cases per second against `hcl-ref`, persistent and one-process-per-case.
//!
//! `cargo bench --bench protocol`. A benchmark, not a test: it reports and
//! asserts nothing.

use hcl_conformance_format::suite::{load_suite, CaseInput as Input};
use hcl_conformance_runner::subprocess::{ImplementationCommand, Pool};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn pool(args: &[&str]) -> Arc<Pool> {
    Arc::new(
        Pool::start(ImplementationCommand::new(
            env!("CARGO_BIN_EXE_hcl-ref").into(),
            args.iter().map(|a| a.to_string()).collect(),
            Duration::from_secs(30),
        ))
        .expect("hcl-ref starts"),
    )
}

/// Runs `inputs` on `threads` threads, `rounds` times; returns cases/s.
fn measure(pool: &Arc<Pool>, inputs: &Arc<Vec<Input>>, threads: usize, rounds: usize) -> f64 {
    let started = Instant::now();
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let pool = Arc::clone(pool);
            let inputs = Arc::clone(inputs);
            std::thread::spawn(move || {
                for _ in 0..rounds {
                    for input in inputs.iter().skip(t).step_by(threads) {
                        std::hint::black_box(pool.run(input));
                    }
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().expect("a worker");
    }
    (inputs.len() * rounds) as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite"));
    let suite = load_suite(dir).expect("the suite loads");
    let inputs: Arc<Vec<Input>> = Arc::new(suite.cases().map(|c| c.input.clone()).collect());
    println!("{} cases", inputs.len());

    let persistent = pool(&[]);
    measure(&persistent, &inputs, 1, 1); // warm-up
    for threads in [1, 2] {
        let rate = measure(&persistent, &inputs, threads, 10);
        println!("persistent hcl-ref, {threads} worker(s): {rate:.0} cases/s");
    }
    let one_shot = pool(&["--one-shot"]);
    for threads in [1, 2] {
        let rate = measure(&one_shot, &inputs, threads, 1);
        println!("one-shot hcl-ref (a process per case), {threads} worker(s): {rate:.0} cases/s");
    }
}
