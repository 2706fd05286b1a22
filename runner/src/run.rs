//! Running cases and judging their outcomes: a verdict per case, held
//! against the known-failure lists.

use crate::compare::{check_with, first_line, Grading};
use crate::kinds::{Kind, Named};
use crate::known_failures::KnownFailures;
use crate::needs::{self, missing_capabilities};
use crate::suite::{Case, CaseInput, Expectation, SPEC_PROFILE};
use crate::wire::{Capabilities, Outcome};
use schemars::JsonSchema;
use serde::Serialize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How a case fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Passed,
    /// A wrong answer, or a broken one.
    Failed,
    /// The implementation crashed on the case.
    #[serde(rename = "crash")]
    Crashed,
    /// The implementation did not answer in time.
    #[serde(rename = "timeout")]
    TimedOut,
    /// The implementation cannot run the case; counted, never a failure.
    Unsupported,
    /// Failed, and listed as a known failure.
    ExpectedFailure,
    /// Listed as a known failure, but passed: the list must shrink.
    UnexpectedPass,
}

impl Status {
    /// Every status, in the order of the tables.
    pub const ALL: [Status; 7] = [
        Status::Passed,
        Status::Failed,
        Status::Crashed,
        Status::TimedOut,
        Status::Unsupported,
        Status::ExpectedFailure,
        Status::UnexpectedPass,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Crashed => "CRASH",
            Status::TimedOut => "TIMEOUT",
            Status::Unsupported => "unsupported",
            Status::ExpectedFailure => "expected failure",
            Status::UnexpectedPass => "unexpected pass",
        }
    }

    /// Whether the status fails the run.
    pub fn fails_run(self) -> bool {
        matches!(self, Status::Failed | Status::Crashed | Status::TimedOut | Status::UnexpectedPass)
    }

    /// Whether the case failed (judged without a list): a wrong or broken
    /// answer, a crash, a time-out.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Failed | Status::Crashed | Status::TimedOut)
    }
}

/// Errors are graded in steps: rejected at all, in the expected phase, at
/// the expected range (when the case pins one and the implementation
/// reports ranges).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ErrorGrade {
    pub rejected: bool,
    pub right_phase: bool,
    /// `None` when the case pins no range or the answer carries none.
    pub right_range: Option<bool>,
}

/// How an outcome fares against an error expectation.
pub fn grade_error(expect: &Expectation, outcome: &Outcome) -> Option<ErrorGrade> {
    let Expectation::Error { phase, range } = expect else {
        return None;
    };
    Some(match outcome {
        Outcome::Error(error) => ErrorGrade {
            rejected: true,
            right_phase: error.phase.0 == *phase,
            right_range: match range {
                Some(range) if !error.ranges().is_empty() => Some(error.ranges().contains(range)),
                _ => None,
            },
        },
        _ => ErrorGrade::default(),
    })
}

/// The verdict on one case, as reports show it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CaseRecord {
    pub id: String,
    pub area: &'static str,
    pub kind: Named<Kind>,
    pub status: Status,
    /// One short line: the first difference, the crash, what the case
    /// needs; empty for a pass. Known-failure lists and the matrix show it.
    pub reason: String,
    /// What went wrong, in full: the place, the first difference, the diff.
    pub message: String,
    /// For an unsupported case: every capability it needs and the
    /// implementation lacks (`answered unsupported` when it declined).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub needs: Vec<String>,
    pub seconds: f64,
    /// For a case that expects an error: how far the implementation got.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_grade: Option<ErrorGrade>,
}

/// What the comparison may look at for this case, by the implementation's
/// features; everything for the reference interpreter in-process
/// (`capabilities` is `None`).
pub fn grading(case: &Case, capabilities: Option<&Capabilities>) -> Grading {
    let Some(c) = capabilities else {
        return Grading::FULL;
    };
    let has = |feature: &str| c.features.contains(feature);
    Grading {
        exact_types: has(needs::EXACT_TYPES),
        safety: has(needs::SAFETY),
        ranges: has(needs::RANGES),
        parse_only: needs::parse_only(case, c),
        unevaluated_values: has(needs::UNEVALUATED_VALUES),
    }
}

/// Judges an outcome against the case's expectation under `profile`,
/// comparing what the implementation's features allow ([`grading`]).
pub fn judge(
    case: &Case,
    outcome: &Outcome,
    profile: &str,
    capabilities: Option<&Capabilities>,
) -> CaseRecord {
    let at = format!("{}: case {}", case.location(), case.id);
    let expect = case.expectation_for(profile);
    let record = |status, message: String, reason: String| CaseRecord {
        id: case.id.clone(),
        area: case.area,
        kind: Named(case.input.kind()),
        status,
        reason,
        message,
        needs: Vec::new(),
        seconds: 0.0,
        error_grade: grade_error(expect, outcome),
    };
    let broken = |why: String| {
        let reason = format!("broken answer: {}", first_line(&why));
        record(Status::Failed, format!("{at}: broken answer: {why}"), reason)
    };
    match outcome {
        Outcome::Unsupported(why) => CaseRecord {
            needs: vec!["answered unsupported".into()],
            ..record(
                Status::Unsupported,
                why.clone(),
                format!("the implementation answered unsupported: {}", first_line(why)),
            )
        },
        Outcome::Crashed(why) => record(
            Status::Crashed,
            format!("{at}: CRASH: {why}"),
            format!("CRASH: {}", first_line(why)),
        ),
        Outcome::TimedOut(why) => {
            record(Status::TimedOut, format!("{at}: TIMEOUT: {why}"), "TIMEOUT".into())
        }
        Outcome::Broken(why) => broken(why.clone()),
        Outcome::Malformed(why) => broken(format!(
            "malformed answer: the implementation could not read the request: {why}"
        )),
        _ => match check_with(expect, outcome, &grading(case, capabilities)) {
            Ok(()) => record(Status::Passed, String::new(), String::new()),
            Err(mismatch) => {
                let of_profile = if profile != SPEC_PROFILE && case.profiles.contains_key(profile) {
                    format!(" (expectation of profile {profile})")
                } else {
                    String::new()
                };
                let message = format!("{at} failed{of_profile}\n{}", mismatch.report());
                record(Status::Failed, message, mismatch.first_difference)
            }
        },
    }
}

/// The verdict on a case the implementation cannot run: unsupported, with
/// every missing capability named.
pub fn unsupported(case: &Case, missing: Vec<String>) -> CaseRecord {
    let reason = format!("needs {}", missing.join(", "));
    CaseRecord {
        id: case.id.clone(),
        area: case.area,
        kind: Named(case.input.kind()),
        status: Status::Unsupported,
        message: format!("unsupported ({reason})"),
        reason,
        needs: missing,
        seconds: 0.0,
        error_grade: None,
    }
}

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

/// Runs one case: unsupported when the implementation lacks something it
/// needs, else judged (a panic of the runner or of the reference
/// interpreter is the case's failure), then held against the known-failure
/// list.
pub fn run_case(case: &Case, settings: &RunSettings) -> CaseRecord {
    let missing = settings
        .capabilities
        .as_ref()
        .map(|c| missing_capabilities(case, &settings.profile, c))
        .unwrap_or_default();
    if !missing.is_empty() {
        return apply_list(&settings.known_failures, case, unsupported(case, missing));
    }
    let started = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| (settings.implementation)(&case.input)))
        .unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("");
            Outcome::Broken(format!("the runner panicked: {why}"))
        });
    let record = judge(case, &outcome, &settings.profile, settings.capabilities.as_ref());
    CaseRecord {
        seconds: started.elapsed().as_secs_f64(),
        ..apply_list(&settings.known_failures, case, record)
    }
}

/// The verdict once the list is taken into account: a listed failure is
/// expected; a listed case that passed, or (listed by hand) that the
/// implementation cannot run, is an unexpected pass: the list must shrink.
fn apply_list(list: &KnownFailures, case: &Case, record: CaseRecord) -> CaseRecord {
    let Some(listing) = list.listing(&case.id) else {
        return record;
    };
    let (place, reason) = (&listing.place, &listing.reason);
    let how = match record.status {
        s if s.is_failure() => {
            return CaseRecord {
                status: Status::ExpectedFailure,
                message: format!("expected failure ({place}: {reason})\n{}", record.message),
                ..record
            }
        }
        Status::Passed => "passed".to_string(),
        Status::Unsupported if listing.by_hand => format!("is {}", record.message),
        _ => return record,
    };
    CaseRecord {
        status: Status::UnexpectedPass,
        message: format!(
            "{}: case {} {how}, but {place} lists it as an expected failure ({reason}): remove it from the list",
            case.location(),
            case.id
        ),
        reason: format!("listed as an expected failure, but {how}"),
        ..record
    }
}

/// Runs `cases` on `jobs` threads, calling `each` with every verdict as it
/// comes; returns the verdicts sorted by case id.
pub fn run_cases(
    cases: &[&Case],
    settings: &RunSettings,
    jobs: usize,
    each: &(dyn Fn(&CaseRecord) + Sync),
) -> Vec<CaseRecord> {
    let next = AtomicUsize::new(0);
    let records = Mutex::new(Vec::with_capacity(cases.len()));
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                while let Some(case) = cases.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let record = run_case(case, settings);
                    each(&record);
                    records.lock().unwrap_or_else(|e| e.into_inner()).push(record);
                }
            });
        }
    });
    let mut records = records.into_inner().unwrap_or_else(|e| e.into_inner());
    records.sort_by(|a, b| a.id.cmp(&b.id));
    records
}
