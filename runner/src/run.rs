//! Running cases and judging their outcomes.

use crate::compare::check;
use crate::outcome::Outcome;
use crate::suite::{Case, Input, Suite, SPEC_PROFILE};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

/// How a case fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Passed,
    Failed,
    /// The implementation cannot run the case; counted, never a failure.
    Unsupported,
}

/// The verdict on one case: its status, and for a failure what went wrong.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub status: Status,
    pub message: String,
}

/// Judges an outcome against the case's expectation under `profile`.
pub fn judge(case: &Case, outcome: &Outcome, profile: &str) -> Verdict {
    if let Outcome::Unsupported(why) = outcome {
        return Verdict {
            status: Status::Unsupported,
            message: why.clone(),
        };
    }
    match check(case.expectation_for(profile), outcome) {
        Ok(()) => Verdict {
            status: Status::Passed,
            message: String::new(),
        },
        Err(mismatch) => {
            let mut message = format!("{}: case {} failed", case_location(case), case.id);
            if profile != SPEC_PROFILE && case.profiles.contains_key(profile) {
                let _ = write!(message, " (expectation of profile {profile})");
            }
            let _ = write!(message, "\n{}", mismatch.report());
            Verdict {
                status: Status::Failed,
                message,
            }
        }
    }
}

/// `suite/FILE.yaml:LINE`, for messages.
pub fn case_location(case: &Case) -> String {
    let file = case.id.split("::").next().unwrap_or(&case.id);
    format!("suite/{file}.yaml:{}", case.line)
}

/// Counts of verdicts in one area of the suite.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AreaCounts {
    pub passed: usize,
    pub failed: usize,
    pub unsupported: usize,
    /// Cases whose expectation differs between the run's profile and the
    /// other known profiles.
    pub profile_differences: usize,
}

/// Verdict counts per area, filled in by trials running in parallel.
#[derive(Debug, Default)]
pub struct Summary {
    areas: Mutex<BTreeMap<String, AreaCounts>>,
}

impl Summary {
    pub fn record(&self, case: &Case, status: Status) {
        let mut areas = self.areas.lock().unwrap_or_else(|e| e.into_inner());
        let counts = areas.entry(case.area().to_string()).or_default();
        match status {
            Status::Passed => counts.passed += 1,
            Status::Failed => counts.failed += 1,
            Status::Unsupported => counts.unsupported += 1,
        }
        if !case.profiles.is_empty() {
            counts.profile_differences += 1;
        }
    }

    pub fn counts(&self) -> BTreeMap<String, AreaCounts> {
        self.areas.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// A table of the counts per area, with a total line.
    pub fn render(&self, implementation: &str, profile: &str) -> String {
        let areas = self.counts();
        let mut out = format!("\nsummary: {implementation}, profile {profile}\n");
        let _ = writeln!(
            out,
            "  {:<14} {:>7} {:>7} {:>11} {:>19}",
            "area", "passed", "failed", "unsupported", "differ by profile"
        );
        let mut total = AreaCounts::default();
        for (area, c) in &areas {
            let _ = writeln!(
                out,
                "  {:<14} {:>7} {:>7} {:>11} {:>19}",
                area, c.passed, c.failed, c.unsupported, c.profile_differences
            );
            total.passed += c.passed;
            total.failed += c.failed;
            total.unsupported += c.unsupported;
            total.profile_differences += c.profile_differences;
        }
        let _ = writeln!(
            out,
            "  {:<14} {:>7} {:>7} {:>11} {:>19}",
            "total", total.passed, total.failed, total.unsupported, total.profile_differences
        );
        out
    }
}

/// Something that answers a case's input.
pub type Implementation = Arc<dyn Fn(&Input) -> Outcome + Send + Sync>;

/// One libtest-mimic trial per case: the case's id is the trial's name, so
/// name filters and `--list` work per case.
pub fn trials(
    suite: &Suite,
    implementation: Implementation,
    profile: &str,
    summary: Arc<Summary>,
) -> Vec<libtest_mimic::Trial> {
    suite
        .cases()
        .map(|case| {
            let case = case.clone();
            let implementation = Arc::clone(&implementation);
            let summary = Arc::clone(&summary);
            let profile = profile.to_string();
            let kind = case.input.kind();
            libtest_mimic::Trial::test(case.id.clone(), move || {
                let outcome = implementation(&case.input);
                let verdict = judge(&case, &outcome, &profile);
                summary.record(&case, verdict.status);
                match verdict.status {
                    Status::Failed => Err(verdict.message.into()),
                    _ => Ok(()),
                }
            })
            .with_kind(kind)
        })
        .collect()
}

/// Runs every case of one file in-process and reports every failing case,
/// each with its own diff.
pub fn run_file_in_process(cases: &[Case], profile: &str) -> Result<usize, String> {
    let mut failures = Vec::new();
    for case in cases {
        let outcome = crate::reference::run(&case.input);
        let verdict = judge(case, &outcome, profile);
        if verdict.status != Status::Passed {
            failures.push(verdict.message);
        }
    }
    if failures.is_empty() {
        Ok(cases.len())
    } else {
        Err(format!(
            "{} of {} cases failed:\n\n{}",
            failures.len(),
            cases.len(),
            failures.join("\n\n")
        ))
    }
}
