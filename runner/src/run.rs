//! Running cases and judging their outcomes.

pub use crate::known_failures::{failure_list, FailureFile, KnownFailures};

use crate::compare::{check_with, Grading};
use crate::needs::{self, missing_capabilities};
use crate::outcome::Outcome;
use crate::subprocess::Capabilities;
use crate::suite::{Case, Expectation, Input, Suite, SPEC_PROFILE};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How a case fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    Passed,
    /// A wrong answer, or a broken one.
    Failed,
    /// The implementation crashed on the case.
    Crashed,
    /// The implementation did not answer in time.
    TimedOut,
    /// The implementation cannot run the case; counted, never a failure.
    Unsupported,
    /// Failed, and listed as a known failure.
    ExpectedFailure,
    /// Listed as a known failure, but passed: the list must shrink.
    UnexpectedPass,
}

impl Status {
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
        matches!(
            self,
            Status::Failed | Status::Crashed | Status::TimedOut | Status::UnexpectedPass
        )
    }
}

/// The verdict on one case: its status, and for a failure what went wrong.
#[derive(Clone, Debug)]
pub struct Verdict {
    pub status: Status,
    pub message: String,
    /// One short line: the first difference, the crash, the missing
    /// capabilities; empty for a pass. Known-failure lists and the matrix
    /// show it.
    pub reason: String,
    /// For a case that expects an error: how far the implementation got.
    pub error_grade: Option<ErrorGrade>,
}

/// Errors are graded in steps: rejected at all, in the expected phase, at
/// the expected range (when the case pins one and the implementation
/// reports ranges).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
        Outcome::Error { phase: got, .. } => ErrorGrade {
            rejected: true,
            right_phase: got == phase,
            right_range: match range {
                Some(range) if !outcome.error_ranges().is_empty() => {
                    Some(outcome.error_ranges().iter().any(|r| {
                        format!(
                            "{}:{}-{}:{}",
                            r.start.line, r.start.column, r.end.line, r.end.column
                        ) == *range
                    }))
                }
                _ => None,
            },
        },
        _ => ErrorGrade::default(),
    })
}

/// `suite/FILE.yaml:LINE`, for messages.
pub fn case_location(case: &Case) -> String {
    let file = case.id.split("::").next().unwrap_or(&case.id);
    format!("suite/{file}.yaml:{}", case.line)
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
) -> Verdict {
    let at = format!("{}: case {}", case_location(case), case.id);
    let error_grade = grade_error(case.expectation_for(profile), outcome);
    let verdict = |status, message: String, reason: String| Verdict {
        status,
        message,
        reason,
        error_grade,
    };
    match outcome {
        Outcome::Unsupported(why) => verdict(
            Status::Unsupported,
            why.clone(),
            format!(
                "the implementation answered unsupported: {}",
                first_line(why)
            ),
        ),
        Outcome::Crashed(why) => verdict(
            Status::Crashed,
            format!("{at}: CRASH: {why}"),
            format!("CRASH: {}", first_line(why)),
        ),
        Outcome::TimedOut(why) => verdict(
            Status::TimedOut,
            format!("{at}: TIMEOUT: {why}"),
            "TIMEOUT".into(),
        ),
        Outcome::Broken(why) => verdict(
            Status::Failed,
            format!("{at}: broken answer: {why}"),
            format!("broken answer: {}", first_line(why)),
        ),
        _ => {
            let expect = case.expectation_for(profile);
            match check_with(expect, outcome, &grading(case, capabilities)) {
                Ok(()) => verdict(Status::Passed, String::new(), String::new()),
                Err(mismatch) => {
                    let mut message = format!("{at} failed");
                    if profile != SPEC_PROFILE && case.profiles.contains_key(profile) {
                        let _ = write!(message, " (expectation of profile {profile})");
                    }
                    let _ = write!(message, "\n{}", mismatch.report());
                    verdict(Status::Failed, message, mismatch.first_difference)
                }
            }
        }
    }
}

pub(crate) fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim()
}

/// The verdict on a case the implementation cannot run: unsupported, with
/// every missing capability named.
pub fn unsupported(missing: &[String]) -> Verdict {
    let reason = format!("needs {}", missing.join(", "));
    Verdict {
        status: Status::Unsupported,
        message: format!("unsupported ({reason})"),
        reason,
        error_grade: None,
    }
}

/// The capabilities an unsupported verdict's reason names (`needs kind
/// static, exact-types`), or `answered unsupported` when the
/// implementation itself declined the case.
pub fn missing_from_reason(reason: &str) -> Vec<String> {
    match reason.strip_prefix("needs ") {
        Some(list) => list.split(", ").map(str::to_string).collect(),
        None => vec!["answered unsupported".to_string()],
    }
}

/// How many unsupported cases need each capability.
pub fn unsupported_by_need(records: &[CaseRecord]) -> BTreeMap<String, usize> {
    let mut needs: BTreeMap<String, usize> = BTreeMap::new();
    for r in records.iter().filter(|r| r.status == Status::Unsupported) {
        for need in missing_from_reason(&r.reason) {
            *needs.entry(need).or_default() += 1;
        }
    }
    needs
}

/// Runs one case: unsupported when the implementation lacks something it
/// needs, else judged, then held against the known-failure list.
pub fn run_case(case: &Case, settings: &RunSettings) -> (Verdict, f64) {
    let missing = settings
        .capabilities
        .as_ref()
        .map(|c| missing_capabilities(case, &settings.profile, c))
        .unwrap_or_default();
    if !missing.is_empty() {
        return (
            settings.known_failures.apply(case, unsupported(&missing)),
            0.0,
        );
    }
    let started = Instant::now();
    let outcome = (settings.implementation)(&case.input);
    let verdict = judge(
        case,
        &outcome,
        &settings.profile,
        settings.capabilities.as_ref(),
    );
    let verdict = settings.known_failures.apply(case, verdict);
    (verdict, started.elapsed().as_secs_f64())
}

/// Counts of verdicts in one area of the suite.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AreaCounts {
    pub by_status: BTreeMap<Status, usize>,
    /// Cases whose expectation differs between profiles.
    pub profile_differences: usize,
}

impl AreaCounts {
    pub fn get(&self, status: Status) -> usize {
        self.by_status.get(&status).copied().unwrap_or(0)
    }
}

/// One case's verdict, for reports.
#[derive(Clone, Debug)]
pub struct CaseRecord {
    pub id: String,
    pub area: String,
    pub kind: &'static str,
    pub status: Status,
    pub message: String,
    /// One short line (see [`Verdict::reason`]).
    pub reason: String,
    pub seconds: f64,
    pub error_grade: Option<ErrorGrade>,
}

/// Verdicts, filled in by trials running in parallel.
#[derive(Debug, Default)]
pub struct Summary {
    records: Mutex<Vec<CaseRecord>>,
    differences: Mutex<BTreeMap<String, usize>>,
}

/// The columns of the summary table and reports, in order.
pub const COLUMNS: [Status; 7] = [
    Status::Passed,
    Status::Failed,
    Status::Crashed,
    Status::TimedOut,
    Status::Unsupported,
    Status::ExpectedFailure,
    Status::UnexpectedPass,
];

impl Summary {
    pub fn record(&self, case: &Case, verdict: &Verdict, seconds: f64) {
        let record = CaseRecord {
            id: case.id.clone(),
            area: case.area().to_string(),
            kind: case.input.kind(),
            status: verdict.status,
            message: verdict.message.clone(),
            reason: verdict.reason.clone(),
            seconds,
            error_grade: verdict.error_grade,
        };
        self.records
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(record);
        if !case.profiles.is_empty() {
            *self
                .differences
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry(case.area().to_string())
                .or_default() += 1;
        }
    }

    /// The records, sorted by case id.
    pub fn records(&self) -> Vec<CaseRecord> {
        let mut records = self
            .records
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        records.sort_by(|a, b| a.id.cmp(&b.id));
        records
    }

    pub fn counts(&self) -> BTreeMap<String, AreaCounts> {
        let mut areas: BTreeMap<String, AreaCounts> = BTreeMap::new();
        for record in self.records() {
            *areas
                .entry(record.area)
                .or_default()
                .by_status
                .entry(record.status)
                .or_default() += 1;
        }
        for (area, n) in self
            .differences
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            areas.entry(area.clone()).or_default().profile_differences = *n;
        }
        areas
    }

    /// A table of the counts per area, with a total line.
    pub fn render(&self, implementation: &str, profile: &str) -> String {
        let areas = self.counts();
        let mut out = format!("\nsummary: {implementation}, profile {profile}\n");
        let _ = write!(out, "  {:<12}", "area");
        for status in COLUMNS {
            let _ = write!(out, " {:>16}", status.name());
        }
        let _ = writeln!(out, " {:>18}", "differ by profile");
        let mut total = AreaCounts::default();
        for counts in areas.values() {
            for (status, n) in &counts.by_status {
                *total.by_status.entry(*status).or_default() += n;
            }
            total.profile_differences += counts.profile_differences;
        }
        for (area, counts) in areas.iter().chain([(&"total".to_string(), &total)]) {
            let _ = write!(out, "  {area:<12}");
            for status in COLUMNS {
                let _ = write!(out, " {:>16}", counts.get(status));
            }
            let _ = writeln!(out, " {:>18}", counts.profile_differences);
        }
        let needs = unsupported_by_need(&self.records());
        if !needs.is_empty() {
            let shown: Vec<String> = needs.iter().map(|(n, k)| format!("{n} {k}")).collect();
            let _ = writeln!(
                out,
                "  unsupported cases, by what they need (a case may need several): {}",
                shown.join(", ")
            );
        }
        let grades: Vec<ErrorGrade> = self
            .records()
            .iter()
            .filter_map(|r| r.error_grade)
            .collect();
        if !grades.is_empty() {
            let pinned: Vec<bool> = grades.iter().filter_map(|g| g.right_range).collect();
            let _ = writeln!(
                out,
                "  error cases: {} rejected, {} in the expected phase, {} of {} at the expected range (of {})",
                grades.iter().filter(|g| g.rejected).count(),
                grades.iter().filter(|g| g.right_phase).count(),
                pinned.iter().filter(|ok| **ok).count(),
                pinned.len(),
                grades.len()
            );
        }
        out
    }
}

/// Something that answers a case's input.
pub type Implementation = Arc<dyn Fn(&Input) -> Outcome + Send + Sync>;

/// Everything a run needs besides the cases.
#[derive(Clone)]
pub struct RunSettings {
    pub implementation: Implementation,
    pub capabilities: Option<Capabilities>,
    pub profile: String,
    pub known_failures: Arc<KnownFailures>,
    pub summary: Arc<Summary>,
}

/// One libtest-mimic trial per case: the case's id is the trial's name, so
/// name filters and `--list` work per case. A case the implementation
/// cannot run is an ignored trial, counted as unsupported.
pub fn trials(
    suite: &Suite,
    settings: &RunSettings,
    args: &libtest_mimic::Arguments,
) -> Vec<libtest_mimic::Trial> {
    suite
        .cases()
        .map(|case| {
            let kind = case.input.kind();
            let missing = settings
                .capabilities
                .as_ref()
                .map(|c| missing_capabilities(case, &settings.profile, c))
                .unwrap_or_default();
            // A case the implementation cannot run is an ignored trial; its
            // verdict is recorded here (an unexpected pass when the
            // known-failure list names it: then the trial runs and fails).
            if !missing.is_empty() && !settings.known_failures.contains(&case.id) {
                if is_selected(args, &case.id) && !args.list {
                    settings.summary.record(case, &unsupported(&missing), 0.0);
                }
                return libtest_mimic::Trial::test(case.id.clone(), || Ok(()))
                    .with_kind(kind)
                    .with_ignored_flag(true);
            }
            let case = case.clone();
            let settings = settings.clone();
            libtest_mimic::Trial::test(case.id.clone(), move || {
                let (verdict, seconds) = run_case(&case, &settings);
                settings.summary.record(&case, &verdict, seconds);
                if verdict.status.fails_run() {
                    Err(verdict.message.into())
                } else {
                    Ok(())
                }
            })
            .with_kind(kind)
        })
        .collect()
}

/// Runs every case of the suite on `jobs` threads, without libtest: the
/// matrix's way. Every case gets exactly one record.
pub fn run_all(suite: &Suite, settings: &RunSettings, jobs: usize) -> Vec<CaseRecord> {
    let cases: Vec<&Case> = suite.cases().collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                let (verdict, seconds) = run_case(case, settings);
                settings.summary.record(case, &verdict, seconds);
            });
        }
    });
    settings.summary.records()
}

/// Whether libtest-mimic's name filters select the case.
fn is_selected(args: &libtest_mimic::Arguments, id: &str) -> bool {
    let matches = |filter: &str| {
        if args.exact {
            id == filter
        } else {
            id.contains(filter)
        }
    };
    args.filter.as_deref().is_none_or(matches) && !args.skip.iter().any(|s| matches(s))
}

/// Runs every case of one file in-process and reports every failing case,
/// each with its own diff.
pub fn run_file_in_process(cases: &[Case], profile: &str) -> Result<usize, String> {
    let mut failures = Vec::new();
    for case in cases {
        let outcome = crate::reference::run(&case.input);
        let verdict = judge(case, &outcome, profile, None);
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

/// Where a report goes when no path is given.
pub fn default_report_path(format: &str) -> PathBuf {
    PathBuf::from(format!(
        "hcl-conformance-report.{}",
        match format {
            "junit" => "xml",
            "markdown" => "md",
            other => other,
        }
    ))
}
