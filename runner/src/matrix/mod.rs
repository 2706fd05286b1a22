//! `hcl-conformance matrix`: every configured implementation, and the
//! reference interpreter in-process as the first column, over the whole
//! suite; one Markdown table of passed / failed / unsupported per area of
//! the spec, per-case details as JSON, and each implementation's results
//! held against its known-failure list.
//!
//! The configuration file's format is documented on [`parse_config`] (in
//! `config.rs`) and in `runner/PROTOCOL.md` § The conformance matrix.

mod config;

pub use config::{parse_config, split_command, Entry};

use crate::run::{failure_list, run_all, CaseRecord, FailureFile, KnownFailures, RunSettings};
use crate::run::{unsupported_by_need, Implementation, Status, Summary};
use crate::subprocess::{Capabilities, ImplementationCommand, Pool};
use crate::suite::{Suite, SPEC_PROFILE};
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;

/// The matrix's rows: areas of the spec, in order, each found from a case
/// file's path below `suite/` by the first matching prefix. A file no
/// prefix matches falls into [`OTHER_AREA`], never out of the totals.
pub const AREAS: &[(&str, &str)] = &[
    ("native/lexical-", "lexical"),
    ("native/structure-", "structure"),
    ("native/template-", "templates"),
    ("native/static-", "static analysis"),
    ("native/", "expressions"),
    ("types/", "types"),
    ("conversion/", "conversion"),
    ("unification/", "unification"),
    ("json/", "JSON syntax"),
    ("bodies/", "bodies"),
    ("body/", "bodies"),
    ("static/", "static analysis"),
    ("ext/", "extensions"),
];

/// The row of case files no entry of [`AREAS`] names.
pub const OTHER_AREA: &str = "other";

/// The order of the rows.
pub const AREA_ORDER: &[&str] = &[
    "lexical",
    "structure",
    "expressions",
    "templates",
    "types",
    "conversion",
    "unification",
    "JSON syntax",
    "bodies",
    "static analysis",
    "extensions",
    OTHER_AREA,
];

/// The matrix area of a case (`FILE::NAME`) or case file id.
pub fn area_of(case_id: &str) -> &'static str {
    let file = case_id.split("::").next().unwrap_or(case_id);
    AREAS
        .iter()
        .find(|(prefix, _)| file.starts_with(prefix))
        .map_or(OTHER_AREA, |(_, area)| area)
}

/// One column's results.
#[derive(Clone, Debug)]
pub struct Column {
    pub name: String,
    /// What the implementation says it is (`hello`'s name and version).
    pub description: String,
    pub profile: String,
    pub command: Vec<String>,
    pub capabilities: Option<Capabilities>,
    /// The known-failure list, as configured (None: no list).
    pub list_path: Option<PathBuf>,
    pub list: KnownFailures,
    /// One record per case of the suite, sorted by id, judged without the
    /// list (the list is held against them in [`Accounting`]).
    pub records: Vec<CaseRecord>,
}

/// How a column's results meet its known-failure list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accounting {
    /// Failed and listed.
    pub expected: Vec<String>,
    /// Failed, not listed.
    pub unexpected_failures: Vec<String>,
    /// Listed, but passed or unsupported.
    pub unexpected_passes: Vec<String>,
}

impl Accounting {
    pub fn matches(&self) -> bool {
        self.unexpected_failures.is_empty() && self.unexpected_passes.is_empty()
    }
}

/// Whether a status (judged without a list) is a failure: a wrong or broken
/// answer, a crash, a time-out.
pub fn is_failure(status: Status) -> bool {
    matches!(status, Status::Failed | Status::Crashed | Status::TimedOut)
}

impl Column {
    pub fn accounting(&self) -> Accounting {
        let mut accounting = Accounting::default();
        for r in &self.records {
            match (is_failure(r.status), self.list.contains(&r.id)) {
                (true, true) => accounting.expected.push(r.id.clone()),
                (true, false) => accounting.unexpected_failures.push(r.id.clone()),
                (false, true) => accounting.unexpected_passes.push(r.id.clone()),
                (false, false) => {}
            }
        }
        accounting
    }

    /// Passed, failed and unsupported cases of an area (`None`: all).
    pub fn counts(&self, area: Option<&str>) -> Counts {
        let mut counts = Counts::default();
        for r in &self.records {
            if area.is_some_and(|a| area_of(&r.id) != a) {
                continue;
            }
            match r.status {
                Status::Passed => counts.passed += 1,
                Status::Unsupported => counts.unsupported += 1,
                _ => counts.failed += 1,
            }
        }
        counts
    }
}

/// One cell of the matrix.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub unsupported: usize,
}

impl Counts {
    pub fn total(&self) -> usize {
        self.passed + self.failed + self.unsupported
    }
}

/// Runs one implementation over the whole suite, judged without its list.
pub fn run_column(
    suite: &Suite,
    name: &str,
    implementation: Implementation,
    capabilities: Option<Capabilities>,
    profile: &str,
    jobs: usize,
) -> Vec<CaseRecord> {
    let settings = RunSettings {
        implementation,
        capabilities,
        profile: profile.to_string(),
        known_failures: Arc::new(KnownFailures::default()),
        summary: Arc::new(Summary::default()),
    };
    let started = std::time::Instant::now();
    let records = run_all(suite, &settings, jobs);
    eprintln!(
        "matrix: {name}: {} cases in {:.1}s",
        records.len(),
        started.elapsed().as_secs_f64()
    );
    records
}

/// The reference interpreter's column.
pub fn reference_column(suite: &Suite, jobs: usize) -> Column {
    let records = run_column(
        suite,
        "reference",
        Arc::new(crate::reference::run),
        None,
        SPEC_PROFILE,
        jobs,
    );
    Column {
        name: "reference".into(),
        description: "the reference interpreter (in-process)".into(),
        profile: SPEC_PROFILE.into(),
        command: Vec::new(),
        capabilities: None,
        list_path: None,
        list: KnownFailures::default(),
        records,
    }
}

/// A configured implementation, started, with its list read.
pub struct Started {
    entry: Entry,
    pool: Arc<Pool>,
    list: KnownFailures,
}

/// Reads a configured implementation's list and starts it (the `hello`
/// handshake), so that a missing adapter stops the matrix before anything
/// runs.
pub fn start_entry(suite: &Suite, entry: &Entry) -> Result<Started, String> {
    let list = match &entry.known_failures {
        None => KnownFailures::default(),
        Some(path) => KnownFailures::load(path, suite).map_err(|e| {
            format!(
                "{}: the known-failure list of [{}] has problems:\n{e}",
                entry.place, entry.name
            )
        })?,
    };
    let pool = Pool::start(ImplementationCommand::new(
        entry.command[0].clone(),
        entry.command[1..].to_vec(),
        entry.timeout,
    ))
    .map_err(|e| {
        format!(
            "{}: the implementation [{}] (`{}`) did not start: {e}\n\
             Build it (scripts/matrix builds every adapter), or fix its command.",
            entry.place,
            entry.name,
            entry.command.join(" ")
        )
    })?;
    Ok(Started {
        entry: entry.clone(),
        pool: Arc::new(pool),
        list,
    })
}

/// Runs a started implementation over the suite.
pub fn entry_column(suite: &Suite, started: Started, jobs: usize) -> Column {
    let Started { entry, pool, list } = started;
    let capabilities = pool.capabilities().clone();
    let runner = Arc::clone(&pool);
    let records = run_column(
        suite,
        &entry.name,
        Arc::new(move |input: &_| runner.run(input)),
        Some(capabilities.clone()),
        &entry.profile,
        jobs,
    );
    Column {
        name: entry.name.clone(),
        // The version string names the implementation (`hashicorp/hcl
        // 2.14.1, go-cty 1.12.1`); the adapter's name is the column's.
        description: if capabilities.version.trim().is_empty() {
            capabilities.name.clone()
        } else {
            capabilities.version.trim().to_string()
        },
        profile: entry.profile.clone(),
        command: entry.command.clone(),
        capabilities: Some(capabilities),
        list_path: entry.known_failures.clone(),
        list,
        records,
    }
}

fn cell(counts: Counts) -> String {
    format!(
        "{} / {} / {}",
        counts.passed, counts.failed, counts.unsupported
    )
}

/// The rows, in [`AREA_ORDER`], with their numbers of cases.
fn areas_with_cases(suite: &Suite) -> Vec<(&'static str, usize)> {
    let mut sizes: BTreeMap<&str, usize> = BTreeMap::new();
    for case in suite.cases() {
        *sizes.entry(area_of(&case.id)).or_default() += 1;
    }
    // Every named area has its row, empty or not; `other` only when a case
    // file falls in it.
    AREA_ORDER
        .iter()
        .map(|a| (*a, sizes.get(a).copied().unwrap_or(0)))
        .filter(|(a, size)| *a != OTHER_AREA || *size > 0)
        .collect()
}

/// The column's heading: its name, and its profile when not the spec's.
fn heading(column: &Column) -> String {
    if column.profile == SPEC_PROFILE {
        column.name.clone()
    } else {
        format!("{} ({})", column.name, column.profile)
    }
}

/// `matrix.md`: the table, the known-failure accounting, and why cases are
/// unsupported.
pub fn render_markdown(suite: &Suite, columns: &[Column]) -> String {
    let total_cases = suite.cases().count();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Each cell is **passed / failed / unsupported** over the area's cases; the three add up to \
         the area's count. *Failed* counts wrong or broken answers, crashes and time-outs, listed \
         as known failures or not; *unsupported* counts cases needing a request kind or feature the \
         implementation does not declare (`runner/PROTOCOL.md`). {total_cases} cases in all.\n"
    );
    out.push_str("| area | cases |");
    for c in columns {
        let _ = write!(out, " {} |", heading(c));
    }
    out.push_str("\n|---|---:|");
    for _ in columns {
        out.push_str("---:|");
    }
    out.push('\n');
    for (area, size) in areas_with_cases(suite) {
        let _ = write!(out, "| {area} | {size} |");
        for c in columns {
            let _ = write!(out, " {} |", cell(c.counts(Some(area))));
        }
        out.push('\n');
    }
    let _ = write!(out, "| **total** | **{total_cases}** |");
    for c in columns {
        let _ = write!(out, " **{}** |", cell(c.counts(None)));
    }
    out.push_str("\n\n");

    out.push_str(
        "Known-failure lists (a listed case must fail; any other failure fails the run):\n\n",
    );
    out.push_str(
        "| implementation | what it is | list | listed | failed as listed | failed, not listed | listed, did not fail |\n\
         |---|---|---|---:|---:|---:|---:|\n",
    );
    for c in columns {
        let a = c.accounting();
        let list = c
            .list_path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or("none".to_string(), |f| format!("`{}`", f.to_string_lossy()));
        let _ = writeln!(
            out,
            "| {} | {} | {list} | {} | {} | {} | {} |",
            heading(c),
            c.description.replace('|', "\\|"),
            c.list.len(),
            a.expected.len(),
            a.unexpected_failures.len(),
            a.unexpected_passes.len()
        );
    }

    let mut by_need: Vec<(String, BTreeMap<String, usize>)> = Vec::new();
    for c in columns {
        let needs = unsupported_by_need(&c.records);
        if !needs.is_empty() {
            by_need.push((heading(c), needs));
        }
    }
    if !by_need.is_empty() {
        out.push_str(
            "\nWhy cases are unsupported (a case may need several capabilities):\n\n\
             | implementation | cases needing what it lacks |\n|---|---|\n",
        );
        for (name, needs) in by_need {
            let shown: Vec<String> = needs.iter().map(|(n, k)| format!("{n}: {k}")).collect();
            let _ = writeln!(out, "| {name} | {} |", shown.join(", "));
        }
    }
    out
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Crashed => "crash",
        Status::TimedOut => "timeout",
        Status::Unsupported => "unsupported",
        Status::ExpectedFailure => "expected_failure",
        Status::UnexpectedPass => "unexpected_pass",
    }
}

/// `matrix-details.json`: every case's verdict and reason per
/// implementation, and whether its list names it.
pub fn render_details(suite: &Suite, columns: &[Column]) -> String {
    let implementations: Vec<serde_json::Value> = columns
        .iter()
        .map(|c| {
            let a = c.accounting();
            json!({
                "name": c.name,
                "description": c.description,
                "profile": c.profile,
                "command": c.command,
                "kinds": c.capabilities.as_ref().map(|k| k.kinds.iter().collect::<Vec<_>>()),
                "features": c.capabilities.as_ref().map(|k| k.features.iter().collect::<Vec<_>>()),
                "known_failures": c.list_path.as_ref().map(|p| p.display().to_string()),
                "totals": {
                    "passed": c.counts(None).passed,
                    "failed": c.counts(None).failed,
                    "unsupported": c.counts(None).unsupported,
                },
                "failed_as_listed": a.expected.len(),
                "failed_not_listed": a.unexpected_failures,
                "listed_did_not_fail": a.unexpected_passes,
            })
        })
        .collect();
    let by_id: Vec<BTreeMap<&str, &CaseRecord>> = columns
        .iter()
        .map(|c| c.records.iter().map(|r| (r.id.as_str(), r)).collect())
        .collect();
    let cases: Vec<serde_json::Value> = suite
        .cases()
        .map(|case| {
            let results: serde_json::Map<String, serde_json::Value> = columns
                .iter()
                .zip(&by_id)
                .map(|(c, records)| {
                    let result = match records.get(case.id.as_str()) {
                        Some(r) => json!({
                            "status": status_name(r.status),
                            "reason": r.reason,
                            "listed": c.list.contains(&r.id),
                        }),
                        None => json!({ "status": "missing" }),
                    };
                    (c.name.clone(), result)
                })
                .collect();
            json!({
                "id": case.id,
                "area": area_of(&case.id),
                "kind": case.input.kind(),
                "results": results,
            })
        })
        .collect();
    let details = json!({
        "cases_in_suite": cases.len(),
        "implementations": implementations,
        "cases": cases,
    });
    serde_json::to_string_pretty(&details).unwrap_or_default() + "\n"
}

/// A column's known-failure list as its results would have it: every
/// failure, with the configured list's reasons kept.
pub fn regenerated_list(suite: &Suite, column: &Column) -> String {
    let previous = column
        .list_path
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .map(|text| FailureFile::parse(&text))
        .unwrap_or_default();
    let header = vec![
        format!(
            "# Known failures of {} ({}), profile {}: one case id a line, then why.",
            column.name, column.description, column.profile
        ),
        "# Written by `hcl-conformance matrix` from its run; edit the reasons, they are kept."
            .to_string(),
    ];
    failure_list(&column.records, &previous, suite, &header)
}
