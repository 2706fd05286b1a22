//! What a run reports: the summary, a Markdown table by area, and the
//! reports for machines: JSON (with a schema, `runner/schema/`), JUnit XML
//! (for CI systems) and Markdown.

use crate::verdict::{CaseRecord, Status};
use hcl_conformance_format::areas;
use hcl_conformance_format::suite::{Origin, Suite};
use hcl_conformance_format::terminal::escape_controls;
use hcl_conformance_format::wire::{HelloAnswer, PROTOCOL_VERSION};
use hcl_conformance_site::versions::suite_version;
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
    /// The suite's version (README.md § Versions), when it has one.
    pub suite_version: Option<String>,
    /// The git commit of the suite, when it was read from a folder (`--suite`)
    /// in a git checkout; none for the suite built into the runner.
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
        suite: &Suite,
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
        let git = |dir: &std::path::Path| {
            let git = std::process::Command::new("git")
                .args(["rev-parse", "HEAD"])
                .current_dir(dir)
                .output();
            let commit = git.ok().filter(|o| o.status.success());
            commit.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        };
        let suite_commit = match &suite.origin {
            Origin::Dir(dir) => git(dir),
            Origin::Embedded => None,
        };
        let suite_version = suite_version(suite).map(|v| v.to_string());
        let runner = format!("hcl-conformance {}", env!("CARGO_PKG_VERSION"));
        let profile = profile.into();
        Report {
            runner,
            protocol: PROTOCOL_VERSION,
            suite_version,
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
    /// reason; control characters from the implementation escaped (it is
    /// read in terminals too).
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
        escape_controls(&out).into_owned()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::ErrorGrade;
    use hcl_conformance_format::kinds::{Kind, Named};
    use hcl_conformance_format::suite::Origin;
    use std::path::PathBuf;

    fn record(name: &str, status: Status, needs: &[&str]) -> CaseRecord {
        CaseRecord {
            id: format!("area/file::{name}"),
            area: "expressions",
            kind: Named(Kind::Expr),
            status,
            reason: format!("{} reason", status.name()),
            message: String::new(),
            needs: needs.iter().map(|n| n.to_string()).collect(),
            seconds: 0.0,
            error_grade: None,
        }
    }

    fn report(cases: Vec<CaseRecord>) -> Report {
        let suite = Suite {
            dir: PathBuf::from("suite"),
            origin: Origin::Embedded,
            files: Vec::new(),
            requirements: Default::default(),
            texts: BTreeMap::new(),
        };
        Report::new("fake".into(), None, "spec", &suite, cases)
    }

    #[test]
    fn unsupported_cases_are_counted_by_each_capability_they_need() {
        let records = [
            record("a", Status::Unsupported, &["exact-types", "unknown"]),
            record("b", Status::Unsupported, &["exact-types"]),
            // Only unsupported cases count, whatever else a record holds.
            record("c", Status::Failed, &["big-numbers"]),
            record("d", Status::Passed, &[]),
        ];
        assert_eq!(
            unsupported_by_need(&records),
            BTreeMap::from([("exact-types", 2), ("unknown", 1)])
        );
    }

    #[test]
    fn the_summary_shows_needs_and_error_grades_only_when_there_are_some() {
        let mut graded = record("e", Status::Failed, &[]);
        graded.error_grade = Some(ErrorGrade {
            rejected: true,
            right_phase: false,
            right_range: None,
        });
        let summary = report(vec![
            record("a", Status::Unsupported, &["exact-types", "unknown"]),
            record("b", Status::Unsupported, &["exact-types"]),
            graded,
        ])
        .summary();
        assert!(
            summary.contains(
                "\n  unsupported cases, by what they need (a case may need several): exact-types 2, unknown 1\n"
            ),
            "{summary}"
        );
        assert!(
            summary.contains(
                "\n  error cases: 1 rejected, 0 in the expected phase, 0 of 0 at the expected range (of 1)\n"
            ),
            "{summary}"
        );
        let passed = report(vec![record("a", Status::Passed, &[])]);
        let summary = passed.summary();
        assert!(summary.contains(&passed.table()), "{summary}");
        assert!(!summary.contains("unsupported cases"), "{summary}");
        assert!(!summary.contains("error cases"), "{summary}");
    }

    #[test]
    fn junit_skips_unsupported_cases_and_expected_failures_and_fails_the_rest() {
        let junit = report(vec![
            record("passed", Status::Passed, &[]),
            record("unsupported", Status::Unsupported, &["unknown"]),
            record("expected", Status::ExpectedFailure, &[]),
            record("failed", Status::Failed, &[]),
            record("unexpected", Status::UnexpectedPass, &[]),
        ])
        .junit();
        let count = |what: &str| junit.matches(what).count();
        assert_eq!(count("<testcase "), 5, "{junit}");
        assert_eq!(count("<skipped "), 2, "{junit}");
        assert_eq!(count("<failure"), 2, "{junit}");
        assert_eq!(count("<skipped"), 2, "{junit}");
        assert!(
            junit.contains(r#"<skipped message="unsupported reason" type="unsupported""#),
            "{junit}"
        );
        assert!(
            junit.contains(r#"<failure message="unexpected pass reason" type="unexpected pass""#),
            "{junit}"
        );
    }

    #[test]
    fn markdown_gives_the_table_then_each_case_that_fails_the_run_with_its_reason() {
        let records = vec![
            record("a", Status::Passed, &[]),
            record("b", Status::Failed, &[]),
            record("c", Status::ExpectedFailure, &[]),
            record("d", Status::Crashed, &[]),
        ];
        let report = report(records);
        let markdown = report.markdown();
        assert_eq!(
            markdown,
            format!(
                "# hcl-conformance: fake\n\nProfile: `spec`\n\n{}\n## Failing cases\n\n\
                 - `area/file::b` (failed): failed reason\n\
                 - `area/file::d` (CRASH): CRASH reason\n",
                report.table()
            )
        );
    }

    #[test]
    fn the_table_has_a_column_for_passed_failed_and_each_status_that_occurs() {
        let table = report(vec![
            record("a", Status::Passed, &[]),
            record("b", Status::Unsupported, &["unknown"]),
            record("c", Status::Unsupported, &["unknown"]),
        ])
        .table();
        assert_eq!(
            table,
            "| area            |  passed |  failed | unsupported |\n\
             |-----------------|--------:|--------:|------------:|\n\
             | expressions     |       1 |       0 |           2 |\n\
             | total           |       1 |       0 |           2 |\n"
        );
    }
}
