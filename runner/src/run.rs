//! Running cases: each case's way from what it needs, through the
//! implementation's answer and its verdict ([`crate::verdict`]), to the
//! known-failure list ([`crate::known_failures`]).

use crate::known_failures::KnownFailures;
use crate::verdict::{judge, CaseRecord};
use hcl_conformance_format::needs::missing_capabilities;
use hcl_conformance_format::suite::{Case, CaseInput};
use hcl_conformance_format::wire::{Capabilities, Outcome};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Something that answers a case's input.
pub type Implementation = Arc<dyn Fn(&CaseInput) -> Outcome + Send + Sync>;

/// Everything a run needs besides the cases.
#[derive(Clone)]
pub struct RunSettings {
    pub implementation: Implementation,
    pub capabilities: Option<Capabilities>,
    pub profile: String,
    pub known_failures: KnownFailures,
}

/// Runs one case along its way through the runner: what it needs (a case
/// that needs a capability the implementation lacks is unsupported, naming
/// every one); else the implementation's answer (a panic of the runner or
/// of the reference interpreter is the case's failure) and its verdict; last,
/// the known-failure list.
pub fn run_case(case: &Case, settings: &RunSettings) -> CaseRecord {
    let capabilities = settings.capabilities.as_ref();
    let missing = capabilities
        .map(|c| missing_capabilities(case, &settings.profile, c))
        .unwrap_or_default();
    let record = if missing.is_empty() {
        let started = std::time::Instant::now();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            (settings.implementation)(&case.input)
        }));
        let outcome = run.unwrap_or_else(|panic| {
            let why = panic.downcast_ref::<String>().map(String::as_str);
            let why = why
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("");
            Outcome::Broken(format!("the runner panicked: {why}"))
        });
        CaseRecord {
            seconds: started.elapsed().as_secs_f64(),
            ..judge(case, &outcome, &settings.profile, capabilities)
        }
    } else {
        CaseRecord::unsupported(case, missing)
    };
    settings.known_failures.verdict(case, record)
}

/// Runs `cases` on `jobs` threads, calling `each` with every verdict as it
/// comes; returns the verdicts sorted by case id.
pub fn run_cases(
    cases: &[&Case],
    settings: &RunSettings,
    jobs: usize,
    each: &(dyn Fn(&CaseRecord) + Sync),
) -> Vec<CaseRecord> {
    let (next, records) = (
        AtomicUsize::new(0),
        Mutex::new(Vec::with_capacity(cases.len())),
    );
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                while let Some(case) = cases.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let record = run_case(case, settings);
                    each(&record);
                    records
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(record);
                }
            });
        }
    });
    let mut records = records.into_inner().unwrap_or_else(|e| e.into_inner());
    records.sort_by(|a, b| a.id.cmp(&b.id));
    records
}
