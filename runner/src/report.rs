//! What a run reports: the summary, a Markdown table by area, and the
//! reports for machines: JSON (with a schema, `runner/schema/`), JUnit XML
//! (for CI systems) and Markdown.

use crate::areas;
use crate::run::{CaseRecord, Status};
use crate::wire::{HelloAnswer, PROTOCOL_VERSION};
use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};
use schemars::JsonSchema;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use strum::VariantArray;

/// Verdicts counted by status.
pub type Counts = BTreeMap<Status, usize>;

/// A run's report: who was run, how, on which suite, and every verdict.
#[derive(Serialize, JsonSchema)]
pub struct Report {
    /// The runner's version.
    pub runner: String,
    /// The version of the protocol the runner speaks.
    pub protocol: u64,
    /// The git commit of the suite, when the suite is in a git checkout.
    pub suite_commit: Option<String>,
    /// The profile whose expectations the cases were held to.
    pub profile: String,
    /// Who was run, as the summary names it.
    pub implementation: String,
    /// The implementation's answer to `hello`; none for the reference
    /// interpreter in-process.
    pub hello: Option<HelloAnswer>,
    /// The verdicts counted by status, over all cases and by area.
    pub totals: Counts,
    pub areas: BTreeMap<String, Counts>,
    pub cases: Vec<CaseRecord>,
}

impl Report {
    pub fn new(
        implementation: String,
        hello: Option<HelloAnswer>,
        profile: &str,
        suite_dir: &std::path::Path,
        cases: Vec<CaseRecord>,
    ) -> Report {
        let mut areas: BTreeMap<String, Counts> = BTreeMap::new();
        let mut totals = Counts::new();
        for case in &cases {
            *areas
                .entry(case.area.into())
                .or_default()
                .entry(case.status)
                .or_default() += 1;
            *totals.entry(case.status).or_default() += 1;
        }
        let git = std::process::Command::new("git")
            .args(["rev-parse", "HEAD"])
            .current_dir(suite_dir)
            .output();
        let commit = git.ok().filter(|o| o.status.success());
        let suite_commit = commit.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
        let runner = format!("hcl-conformance {}", env!("CARGO_PKG_VERSION"));
        let profile = profile.into();
        Report {
            runner,
            protocol: PROTOCOL_VERSION,
            suite_commit,
            profile,
            implementation,
            hello,
            totals,
            areas,
            cases,
        }
    }

    /// The verdicts by area in a Markdown table, aligned: a column for each
    /// status that occurs (passed and failed always), a row for each area
    /// with cases, then the total.
    pub fn table(&self) -> String {
        let occurs = |s: &Status| {
            matches!(s, Status::Passed | Status::Failed) || self.totals.contains_key(s)
        };
        let columns: Vec<Status> = Status::VARIANTS.iter().copied().filter(occurs).collect();
        let mut out = format!("| {:<15} |", "area");
        columns
            .iter()
            .for_each(|s| out.push_str(&format!(" {:>7} |", s.name())));
        let rule = columns
            .iter()
            .map(|s| format!("{}:|", "-".repeat(s.name().len().max(7) + 1)));
        out.push_str(&format!(
            "\n|{}|{}\n",
            "-".repeat(17),
            rule.collect::<String>()
        ));
        let rows = areas::names().filter_map(|a| Some((a, self.areas.get(a)?)));
        for (area, counts) in rows.chain([("total", &self.totals)]) {
            out.push_str(&format!("| {area:<15} |"));
            for s in &columns {
                let width = s.name().len().max(7);
                out.push_str(&format!(" {:>width$} |", counts.get(s).unwrap_or(&0)));
            }
            out.push('\n');
        }
        out
    }

    /// The summary: the table, and how unsupported and error cases fared.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "\nsummary: {}, profile {}\n\n{}",
            self.implementation,
            self.profile,
            self.table()
        );
        let needs = unsupported_by_need(&self.cases);
        if !needs.is_empty() {
            let shown: Vec<String> = needs.iter().map(|(n, k)| format!("{n} {k}")).collect();
            let shown = shown.join(", ");
            let _ = writeln!(
                out,
                "  unsupported cases, by what they need (a case may need several): {shown}"
            );
        }
        let grades: Vec<_> = self.cases.iter().filter_map(|r| r.error_grade).collect();
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

    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// JUnit XML: a test suite per area, a test case per case; unsupported
    /// cases and expected failures are skipped ones.
    pub fn junit(&self) -> String {
        let mut report = quick_junit::Report::new(format!(
            "hcl-conformance: {} ({})",
            self.implementation, self.profile
        ));
        for area in areas::names().filter(|a| self.areas.contains_key(*a)) {
            let mut suite = TestSuite::new(area);
            for r in self.cases.iter().filter(|r| r.area == area) {
                let mut status = match r.status {
                    Status::Passed => TestCaseStatus::success(),
                    Status::Unsupported | Status::ExpectedFailure => TestCaseStatus::skipped(),
                    _ => TestCaseStatus::non_success(NonSuccessKind::Failure),
                };
                if r.status != Status::Passed {
                    status
                        .set_type(r.status.name())
                        .set_message(&*r.reason)
                        .set_description(&*r.message);
                }
                let (file, name) = r.id.split_once("::").unwrap_or(("", &r.id));
                let mut case = TestCase::new(name, status);
                case.set_classname(file)
                    .set_time(std::time::Duration::from_secs_f64(r.seconds));
                suite.add_test_case(case);
            }
            report.add_test_suite(suite);
        }
        report.to_string().unwrap_or_default()
    }

    /// Markdown: the table, and each case that fails the run with its
    /// reason.
    pub fn markdown(&self) -> String {
        let mut out = format!(
            "# hcl-conformance: {}\n\nProfile: `{}`\n\n{}",
            self.implementation,
            self.profile,
            self.table()
        );
        let failing = self.cases.iter().filter(|r| r.status.fails_run());
        for (i, r) in failing.enumerate() {
            let heading = if i == 0 { "\n## Failing cases\n\n" } else { "" };
            let _ = writeln!(
                out,
                "{heading}- `{}` ({}): {}",
                r.id,
                r.status.name(),
                r.reason
            );
        }
        out
    }
}

/// How many unsupported cases need each capability.
pub fn unsupported_by_need(records: &[CaseRecord]) -> BTreeMap<&str, usize> {
    let mut needs: BTreeMap<&str, usize> = BTreeMap::new();
    for r in records.iter().filter(|r| r.status == Status::Unsupported) {
        for need in &r.needs {
            *needs.entry(need).or_default() += 1;
        }
    }
    needs
}
