//! Machine-readable reports of a run: JSON, JUnit XML (for CI systems) and
//! Markdown.

use crate::run::{CaseRecord, Status, Summary, COLUMNS};
use serde_json::json;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The report formats.
pub const FORMATS: &[&str] = &["json", "junit", "markdown"];

/// Who was run, and under which profile.
pub struct RunInfo<'a> {
    pub implementation: &'a str,
    pub profile: &'a str,
}

/// Renders a report in `format` (one of [`FORMATS`]).
pub fn render(format: &str, info: &RunInfo, summary: &Summary) -> Option<String> {
    let records = summary.records();
    Some(match format {
        "json" => json_report(info, summary, &records),
        "junit" => junit_report(info, &records),
        "markdown" => markdown_report(info, summary, &records),
        _ => return None,
    })
}

fn json_report(info: &RunInfo, summary: &Summary, records: &[CaseRecord]) -> String {
    let areas: serde_json::Map<String, serde_json::Value> = summary
        .counts()
        .into_iter()
        .map(|(area, counts)| {
            let mut fields: serde_json::Map<String, serde_json::Value> = counts
                .by_status
                .iter()
                .map(|(status, n)| (status.name().to_lowercase().replace(' ', "_"), json!(n)))
                .collect();
            fields.insert(
                "differ_by_profile".into(),
                json!(counts.profile_differences),
            );
            (area, serde_json::Value::Object(fields))
        })
        .collect();
    let cases: Vec<serde_json::Value> = records
        .iter()
        .map(|r| {
            json!({
                "id": r.id, "area": r.area, "kind": r.kind,
                "status": r.status.name().to_lowercase().replace(' ', "_"),
                "message": r.message, "reason": r.reason, "seconds": r.seconds,
                "error_grade": r.error_grade.map(|g| json!({
                    "rejected": g.rejected, "right_phase": g.right_phase, "right_range": g.right_range,
                })),
            })
        })
        .collect();
    let report = json!({
        "implementation": info.implementation,
        "profile": info.profile,
        "areas": areas,
        "cases": cases,
    });
    serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
}

fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot hold.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

fn junit_report(info: &RunInfo, records: &[CaseRecord]) -> String {
    let mut by_area: BTreeMap<&str, Vec<&CaseRecord>> = BTreeMap::new();
    for r in records {
        by_area.entry(&r.area).or_default().push(r);
    }
    let failing = |r: &&CaseRecord| r.status.fails_run();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"hcl-conformance: {} ({})\" tests=\"{}\" failures=\"{}\">",
        xml_escape(info.implementation),
        xml_escape(info.profile),
        records.len(),
        records.iter().filter(failing).count()
    );
    for (area, cases) in by_area {
        let skipped = cases
            .iter()
            .filter(|r| matches!(r.status, Status::Unsupported | Status::ExpectedFailure))
            .count();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{skipped}\">",
            xml_escape(area),
            cases.len(),
            cases.iter().filter(|r| r.status.fails_run()).count()
        );
        for r in cases {
            let (file, name) = r.id.split_once("::").unwrap_or(("", &r.id));
            let _ = write!(
                out,
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.6}\"",
                xml_escape(file),
                xml_escape(name),
                r.seconds
            );
            match r.status {
                Status::Passed => out.push_str("/>\n"),
                Status::Unsupported | Status::ExpectedFailure => {
                    let _ = writeln!(
                        out,
                        "><skipped message=\"{}\"/></testcase>",
                        xml_escape(&format!("{}: {}", r.status.name(), first_line(&r.message)))
                    );
                }
                status => {
                    let _ = writeln!(
                        out,
                        "><failure type=\"{}\" message=\"{}\">{}</failure></testcase>",
                        xml_escape(status.name()),
                        xml_escape(first_line(&r.message)),
                        xml_escape(&r.message)
                    );
                }
            }
        }
        out.push_str("  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

fn markdown_report(info: &RunInfo, summary: &Summary, records: &[CaseRecord]) -> String {
    let statuses = COLUMNS;
    let mut out = format!(
        "# hcl-conformance: {}\n\nProfile: `{}`\n\n| area |",
        info.implementation, info.profile
    );
    for s in statuses {
        let _ = write!(out, " {} |", s.name());
    }
    out.push_str("\n|---|");
    for _ in statuses {
        out.push_str("---:|");
    }
    out.push('\n');
    for (area, counts) in summary.counts() {
        let _ = write!(out, "| {area} |");
        for s in statuses {
            let _ = write!(out, " {} |", counts.get(s));
        }
        out.push('\n');
    }
    let failing: Vec<&CaseRecord> = records.iter().filter(|r| r.status.fails_run()).collect();
    if !failing.is_empty() {
        out.push_str("\n## Failing cases\n\n");
        for r in failing {
            let _ = writeln!(
                out,
                "- `{}` ({}): {}",
                r.id,
                r.status.name(),
                first_line(&r.message)
            );
        }
    }
    out
}
