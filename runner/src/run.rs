//! Running cases and judging their outcomes: a verdict per case, held
//! against the known-failure lists.

use crate::compare::{check_with, first_line, Grading};
use crate::known_failures::KnownFailures;
use hcl_conformance_format::kinds::{Kind, Named};
use hcl_conformance_format::needs::{self, missing_capabilities};
use hcl_conformance_format::suite::{Case, CaseInput, Expectation};
use hcl_conformance_format::terminal::{cut, SHOWN_BYTES, SHOWN_LINE_BYTES};
use hcl_conformance_format::wire::{Capabilities, Outcome};
use schemars::JsonSchema;
use serde::Serialize;
use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// How a case fared; the name is how tables show it.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    JsonSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    #[strum(serialize = "passed")]
    Passed,
    /// A wrong answer, or a broken one.
    #[strum(serialize = "failed")]
    Failed,
    /// The implementation crashed on the case.
    #[serde(rename = "crash")]
    #[strum(serialize = "CRASH")]
    Crashed,
    /// The implementation did not answer in time.
    #[serde(rename = "timeout")]
    #[strum(serialize = "TIMEOUT")]
    TimedOut,
    /// The implementation cannot run the case; counted, never a failure.
    #[strum(serialize = "unsupported")]
    Unsupported,
    /// Failed, and listed as a known failure.
    #[strum(serialize = "expected failure")]
    ExpectedFailure,
    /// Listed as a known failure, but passed: the list must shrink.
    #[strum(serialize = "unexpected pass")]
    UnexpectedPass,
}

impl Status {
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Whether the status fails the run.
    pub fn fails_run(self) -> bool {
        self.is_failure() || self == Status::UnexpectedPass
    }

    /// Whether the case failed (judged without a list): a wrong or broken
    /// answer, a crash, a time-out.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Failed | Status::Crashed | Status::TimedOut)
    }
}

/// Errors are graded in steps: rejected at all, in the expected phase, at
/// the expected range (`None` when the case pins no range; an answer
/// without a range is not at it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ErrorGrade {
    pub rejected: bool,
    pub right_phase: bool,
    pub right_range: Option<bool>,
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

impl CaseRecord {
    /// A record whose reason and message, which may hold any amount of an
    /// implementation's output, are cut to the sizes shown
    /// ([`SHOWN_LINE_BYTES`], [`SHOWN_BYTES`]).
    fn new(case: &Case, status: Status, reason: String, message: String) -> CaseRecord {
        let (id, area, kind) = (case.id.clone(), case.area, Named(case.input.kind()));
        let kept = |text: String, max| match cut(&text, max) {
            Cow::Borrowed(_) => text,
            Cow::Owned(cut) => cut,
        };
        CaseRecord {
            id,
            area,
            kind,
            status,
            reason: kept(reason, SHOWN_LINE_BYTES),
            message: kept(message, SHOWN_BYTES),
            needs: Vec::new(),
            seconds: 0.0,
            error_grade: None,
        }
    }
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
    let record = |status, reason: String, message: String| CaseRecord {
        error_grade: grade_error(expect, outcome),
        ..CaseRecord::new(case, status, reason, message)
    };
    let failed = |status, what: &str, why: &str| {
        record(
            status,
            format!("{what}: {}", first_line(why)),
            format!("{at}: {what}: {why}"),
        )
    };
    match outcome {
        Outcome::Unsupported(why) => CaseRecord {
            needs: vec!["answered unsupported".into()],
            ..record(
                Status::Unsupported,
                format!(
                    "the implementation answered unsupported: {}",
                    first_line(why)
                ),
                why.clone(),
            )
        },
        Outcome::Crashed(why) => failed(Status::Crashed, "CRASH", why),
        Outcome::TimedOut(why) => CaseRecord {
            reason: "TIMEOUT".into(),
            ..failed(Status::TimedOut, "TIMEOUT", why)
        },
        Outcome::Broken(why) => failed(Status::Failed, "broken answer", why),
        Outcome::Malformed(why) => failed(
            Status::Failed,
            "broken answer",
            &format!("malformed answer: the implementation could not read the request: {why}"),
        ),
        _ => match check_with(expect, outcome, &grading(case, capabilities)) {
            Ok(()) => record(Status::Passed, String::new(), String::new()),
            Err(mismatch) => {
                let of_profile = match case.recorded_for(profile) {
                    Some((recorded, _)) => format!(" (expectation of profile {recorded})"),
                    None => String::new(),
                };
                let message = format!("{at} failed{of_profile}\n{}", mismatch.report());
                record(Status::Failed, mismatch.first_difference, message)
            }
        },
    }
}

/// How an outcome fares against an error expectation.
pub fn grade_error(expect: &Expectation, outcome: &Outcome) -> Option<ErrorGrade> {
    let Expectation::Error { phase, range } = expect else {
        return None;
    };
    let Outcome::Error(error) = outcome else {
        return Some(ErrorGrade::default());
    };
    let ranges = error.ranges();
    let right_range = range.as_ref().map(|r| ranges.contains(r));
    Some(ErrorGrade {
        rejected: true,
        right_phase: *error.phase == *phase,
        right_range,
    })
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

/// Runs one case: unsupported, naming every capability it needs and the
/// implementation lacks; else judged (a panic of the runner or of the
/// reference interpreter is the case's failure); then held against the
/// known-failure list.
pub fn run_case(case: &Case, settings: &RunSettings) -> CaseRecord {
    let capabilities = settings.capabilities.as_ref();
    let missing = capabilities
        .map(|c| missing_capabilities(case, &settings.profile, c))
        .unwrap_or_default();
    if !missing.is_empty() {
        let reason = format!("needs {}", missing.join(", "));
        let record = CaseRecord::new(
            case,
            Status::Unsupported,
            reason.clone(),
            format!("unsupported ({reason})"),
        );
        return apply_list(
            &settings.known_failures,
            case,
            CaseRecord {
                needs: missing,
                ..record
            },
        );
    }
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
    let record = judge(case, &outcome, &settings.profile, capabilities);
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
            let message = format!("expected failure ({place}: {reason})\n{}", record.message);
            return CaseRecord {
                status: Status::ExpectedFailure,
                message,
                ..record
            };
        }
        Status::Passed => "passed".to_string(),
        Status::Unsupported if listing.by_hand => format!("is {}", record.message),
        _ => return record,
    };
    let (location, id) = (case.location(), &case.id);
    CaseRecord {
        status: Status::UnexpectedPass,
        message: format!(
            "{location}: case {id} {how}, but {place} lists it as an expected failure ({reason}): remove it from the list"
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
