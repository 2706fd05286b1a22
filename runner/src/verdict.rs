//! The verdict on one case: how it fared ([`Status`]), the record reports
//! show ([`CaseRecord`]), and judging an implementation's outcome against
//! the case's expectation under a profile ([`judge`]), comparing what the
//! implementation's features allow ([`grading`]).

use crate::compare::{check_with, first_line, Grading};
use hcl_conformance_format::kinds::{Kind, Named};
use hcl_conformance_format::needs;
use hcl_conformance_format::suite::{Case, Expectation};
use hcl_conformance_format::terminal::{cut, SHOWN_BYTES, SHOWN_LINE_BYTES};
use hcl_conformance_format::wire::{Capabilities, Outcome};
use schemars::JsonSchema;
use serde::Serialize;
use std::borrow::Cow;

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
    pub(crate) fn new(case: &Case, status: Status, reason: String, message: String) -> CaseRecord {
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

    /// The record of a case that needs the capabilities `missing`, which
    /// the implementation lacks.
    pub fn unsupported(case: &Case, missing: Vec<String>) -> CaseRecord {
        let reason = format!("needs {}", missing.join(", "));
        let message = format!("unsupported ({reason})");
        CaseRecord {
            needs: missing,
            ..CaseRecord::new(case, Status::Unsupported, reason, message)
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
    let grading = grading(case, capabilities);
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
        _ => match check_with(expect, outcome, &grading) {
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
