//! How fast `hcl-conformance fuzz` checks generated inputs against
//! `hcl-ref` through the protocol: generation, the reference's answer,
//! the request and its answer, and the grading, per case, on one and two
//! jobs (issue 28 asks for at least 5,000 a second on two).
//!
//! `cargo bench --bench fuzz`. A benchmark, not a test: it reports (and
//! stops if hcl-ref disagrees with the reference, which would make the
//! figure meaningless).

use hcl_conformance_runner::fuzz::{self, generate::GenKind, FuzzSettings};
use hcl_conformance_runner::subprocess::{ImplementationCommand, Pool};
use std::sync::Arc;
use std::time::Duration;

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let pool = Arc::new(
        Pool::start(ImplementationCommand::new(
            env!("CARGO_BIN_EXE_hcl-ref").into(),
            Vec::new(),
            Duration::from_secs(30),
        ))
        .expect("hcl-ref starts"),
    );
    let capabilities = Some(pool.capabilities().clone());
    let settings = |jobs, cases| FuzzSettings {
        implementation: {
            let pool = Arc::clone(&pool);
            Arc::new(move |input: &_| pool.run(input))
        },
        capabilities: capabilities.clone(),
        profile: "spec".into(),
        seed: 1,
        cases: Some(cases),
        time: None,
        kinds: <GenKind as strum::VariantArray>::VARIANTS.to_vec(),
        jobs,
        shrink_limit: 3000,
        ranges: true,
    };
    fuzz::run(&settings(2, 5_000), &|_| {}); // warm-up
    for jobs in [1, 2] {
        let mut rates: Vec<f64> = (0..5)
            .map(|_| {
                let outcome = fuzz::run(&settings(jobs, 100_000), &|_| {});
                assert_eq!(outcome.progress.disagreements, 0);
                outcome.progress.cases as f64 / outcome.progress.seconds
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        println!(
            "fuzz against hcl-ref, {jobs} job(s): median {:.0} cases/s (min {:.0}, max {:.0}, 5 runs of 100,000 cases)",
            rates[2], rates[0], rates[4]
        );
    }
}
