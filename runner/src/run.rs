//! Running cases and judging their outcomes.

use crate::compare::check;
use crate::outcome::Outcome;
use crate::subprocess::Capabilities;
use crate::suite::{Case, Expectation, ExpectedValue, Input, Suite, SPEC_PROFILE};
use hcl_interpreter::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
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
        Outcome::Error { phase: got, ranges } => ErrorGrade {
            rejected: true,
            right_phase: got == phase,
            right_range: match range {
                Some(range) if !ranges.is_empty() => Some(ranges.iter().any(|r| {
                    format!(
                        "{}:{}-{}:{}",
                        r.start.line, r.start.column, r.end.line, r.end.column
                    ) == *range
                })),
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

/// Judges an outcome against the case's expectation under `profile`.
/// Without the `safety` feature, a conversion's safety is not compared.
pub fn judge(
    case: &Case,
    outcome: &Outcome,
    profile: &str,
    capabilities: Option<&Capabilities>,
) -> Verdict {
    let at = format!("{}: case {}", case_location(case), case.id);
    let (status, message) = match outcome {
        Outcome::Unsupported(why) => (Status::Unsupported, why.clone()),
        Outcome::Crashed(why) => (Status::Crashed, format!("{at}: CRASH: {why}")),
        Outcome::TimedOut(why) => (Status::TimedOut, format!("{at}: TIMEOUT: {why}")),
        Outcome::Broken(why) => (Status::Failed, format!("{at}: broken answer: {why}")),
        _ => {
            let expect = case.expectation_for(profile);
            let error_grade = grade_error(expect, outcome);
            let mut expect = expect.clone();
            if capabilities.is_some_and(|c| !c.features.contains("safety")) {
                forget_safety(&mut expect);
            }
            let graded = match check(&expect, outcome) {
                Ok(()) => (Status::Passed, String::new()),
                Err(mismatch) => {
                    let mut message = format!("{at} failed");
                    if profile != SPEC_PROFILE && case.profiles.contains_key(profile) {
                        let _ = write!(message, " (expectation of profile {profile})");
                    }
                    let _ = write!(message, "\n{}", mismatch.report());
                    (Status::Failed, message)
                }
            };
            return Verdict {
                status: graded.0,
                message: graded.1,
                error_grade,
            };
        }
    };
    Verdict {
        status,
        message,
        error_grade: grade_error(case.expectation_for(profile), outcome),
    }
}

fn forget_safety(expect: &mut Expectation) {
    match expect {
        Expectation::Value { safety, .. } => *safety = None,
        Expectation::OneOf(options) => options.iter_mut().for_each(forget_safety),
        _ => {}
    }
}

fn value_has_unknown(v: &Value) -> bool {
    !v.is_wholly_known()
}

fn expected_has_unknown(v: &ExpectedValue) -> bool {
    match v {
        ExpectedValue::Unknown => true,
        ExpectedValue::Sequence(items) => items.iter().any(expected_has_unknown),
        ExpectedValue::Mapping(entries) => entries.values().any(expected_has_unknown),
        _ => false,
    }
}

fn expectation_has_unknown(e: &Expectation) -> bool {
    match e {
        Expectation::Value { value, .. } => expected_has_unknown(value),
        Expectation::OneOf(options) => options.iter().any(expectation_has_unknown),
        Expectation::Body(body) => body_has_unknown(body),
        _ => false,
    }
}

fn body_has_unknown(body: &crate::suite::ExpectedBody) -> bool {
    body.attributes
        .values()
        .any(|(_, v)| expected_has_unknown(v))
        || body.blocks.iter().any(|b| body_has_unknown(&b.body))
}

/// The capability a case needs that the implementation lacks, if any.
pub fn missing_capability(
    case: &Case,
    profile: &str,
    capabilities: &Capabilities,
) -> Option<String> {
    let kind = case.input.kind();
    if !capabilities.kinds.contains(kind) {
        return Some(format!(
            "the implementation does not support the kind `{kind}`"
        ));
    }
    let input_values: Vec<&Value> = match &case.input {
        Input::Convert { value, .. } => vec![value],
        Input::Operation { operands, .. } => operands.iter().collect(),
        Input::Expr { variables, .. }
        | Input::Template { variables, .. }
        | Input::Config { variables, .. } => variables.values().collect(),
        _ => Vec::new(),
    };
    if let Input::Config {
        schema,
        literal_only,
        ..
    } = &case.input
    {
        if (schema.is_some() || *literal_only) && !capabilities.features.contains("schema") {
            return Some(
                "the implementation does not support body schemas and evaluation modes (feature `schema`)"
                    .into(),
            );
        }
    }
    if let Input::Config { extensions, .. } | Input::Expr { extensions, .. } = &case.input {
        if let Some(missing) = extensions
            .iter()
            .find(|e| !capabilities.features.contains(*e))
        {
            return Some(format!(
                "the implementation does not support the extension `{missing}` (feature `{missing}`)"
            ));
        }
    }
    let needs_unknown = input_values.into_iter().any(value_has_unknown)
        || expectation_has_unknown(case.expectation_for(profile));
    if needs_unknown && !capabilities.features.contains("unknown") {
        return Some(
            "the implementation does not support unknown values (feature `unknown`)".into(),
        );
    }
    None
}

/// Cases that may fail without failing the run, each with where it is
/// listed and why.
#[derive(Clone, Debug, Default)]
pub struct KnownFailures {
    entries: BTreeMap<String, (String, String)>,
}

impl KnownFailures {
    /// Reads a list: one case id a line, then its reason; `#` comments.
    pub fn load(path: &Path, suite: &Suite) -> Result<KnownFailures, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut entries = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (id, reason) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let place = format!("{}:{}", path.display(), i + 1);
            if !suite.cases().any(|c| c.id == id) {
                return Err(format!(
                    "{place}: `{id}` is not a case of the suite; remove the line"
                ));
            }
            if reason.trim().is_empty() {
                return Err(format!(
                    "{place}: say why `{id}` is expected to fail, after its id"
                ));
            }
            entries.insert(id.to_string(), (place, reason.trim().to_string()));
        }
        Ok(KnownFailures { entries })
    }

    /// Every case that records a different result for `profile`.
    pub fn from_profile(suite: &Suite, profile: &str) -> KnownFailures {
        let entries = suite
            .cases()
            .filter_map(|c| {
                let p = c.profiles.get(profile)?;
                Some((
                    c.id.clone(),
                    (
                        format!("{} (profiles.{profile})", case_location(c)),
                        format!("records a different {profile} result; see {}", p.note),
                    ),
                ))
            })
            .collect();
        KnownFailures { entries }
    }

    pub fn merge(&mut self, other: KnownFailures) {
        self.entries.extend(other.entries);
    }

    /// The verdict once the list is taken into account.
    pub fn apply(&self, case: &Case, verdict: Verdict) -> Verdict {
        let Some((place, reason)) = self.entries.get(&case.id) else {
            return verdict;
        };
        match verdict.status {
            Status::Failed | Status::Crashed | Status::TimedOut => Verdict {
                status: Status::ExpectedFailure,
                message: format!("expected failure ({place}: {reason})\n{}", verdict.message),
                ..verdict
            },
            Status::Passed => Verdict {
                error_grade: verdict.error_grade,
                status: Status::UnexpectedPass,
                message: format!(
                    "{}: case {} passed, but {place} lists it as an expected failure ({reason}): remove it from the list",
                    case_location(case),
                    case.id
                ),
            },
            _ => verdict,
        }
    }
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
                .and_then(|c| missing_capability(case, &settings.profile, c));
            if let Some(why) = missing {
                if is_selected(args, &case.id) && !args.list {
                    let verdict = Verdict {
                        status: Status::Unsupported,
                        message: why,
                        error_grade: None,
                    };
                    settings.summary.record(case, &verdict, 0.0);
                }
                return libtest_mimic::Trial::test(case.id.clone(), || Ok(()))
                    .with_kind(kind)
                    .with_ignored_flag(true);
            }
            let case = case.clone();
            let settings = settings.clone();
            libtest_mimic::Trial::test(case.id.clone(), move || {
                let started = Instant::now();
                let outcome = (settings.implementation)(&case.input);
                let verdict = judge(
                    &case,
                    &outcome,
                    &settings.profile,
                    settings.capabilities.as_ref(),
                );
                let verdict = settings.known_failures.apply(&case, verdict);
                settings
                    .summary
                    .record(&case, &verdict, started.elapsed().as_secs_f64());
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
