//! `hcl-conformance matrix`: every configured implementation, and the
//! reference interpreter in-process as the first column, over the whole
//! suite; one Markdown table of passed / failed / unsupported per area of
//! the suite (`hcl_conformance_format::areas`), per-case details as JSON, and each
//! implementation's results held against its known-failure list.
//!
//! The configuration is TOML, a table per implementation (runner/PROTOCOL.md
//! § The conformance matrix):
//!
//! ```toml
//! ["hcl-go-v2.14"]                              # the column's name (quoted: it has dots)
//! command = "${ADAPTERS}/hcl-go-v2.14 --flag"   # split like a shell command line
//! profile = "hcl-v2.14"                         # optional: spec (default), hcl-v2.14
//! known-failures = "known-failures/hcl-go-v2.14.txt"  # optional
//! timeout = 10                                  # optional: seconds per case
//! ```

use crate::known_failures::{failure_list, FailureFile, KnownFailures};
use crate::report::unsupported_by_need;
use crate::run::{run_cases, Implementation, RunSettings};
use crate::subprocess::{ImplementationCommand, Pool};
use crate::verdict::{CaseRecord, Status};
use hcl_conformance_format::areas;
use hcl_conformance_format::kinds::{Keyword, Text};
use hcl_conformance_format::profiles::known_profile;
use hcl_conformance_format::profiles::SPEC_PROFILE;
use hcl_conformance_format::suite::Suite;
use hcl_conformance_format::wire::Capabilities;
use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// One implementation of the configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub name: String,
    pub command: Vec<String>,
    pub profile: String,
    pub known_failures: Option<PathBuf>,
    pub timeout: Duration,
    /// `FILE:LINE` of its `[name]` line, for messages.
    pub place: String,
}

/// An implementation's table, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Fields {
    command: Text,
    profile: Option<Text>,
    known_failures: Option<PathBuf>,
    timeout: Option<f64>,
}

/// Splits a command line as a POSIX shell would; empty is an error.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    match shell_words::split(text) {
        Ok(words) if words.is_empty() => Err("the command is empty".into()),
        Ok(words) => Ok(words),
        Err(e) => Err(format!("cannot split `{text}` as a command line: {e}")),
    }
}

/// Reads a matrix configuration. In a command, `${NAME}` is the environment
/// variable `NAME`; a relative `known-failures` path, and a relative
/// program path holding a `/`, are taken from the configuration file's
/// folder. A mistake is reported as `FILE:LINE: what is wrong`.
pub fn parse_config(path: &Path, text: &str) -> Result<Vec<Entry>, String> {
    let at = |line: usize| format!("{}:{line}", path.display());
    let table: IndexMap<String, Fields> = toml::from_str(text).map_err(|e| {
        let line = e
            .span()
            .map_or(1, |s| text[..s.start].matches('\n').count() + 1);
        format!("{}: {}", at(line), e.message())
    })?;
    let folder = path.parent().unwrap_or(Path::new("."));
    let mut entries = Vec::new();
    for (name, fields) in table {
        let header = format!("[{name}]");
        let line = text
            .lines()
            .position(|l| l.trim() == header)
            .map_or(1, |i| i + 1);
        let fail = |why: String| format!("{}: {header}: {why}", at(line));
        let usable = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
        if name == "reference" || !name.chars().all(usable) {
            return Err(fail(
                "not a usable name: use letters, digits, `-`, `_` and `.`, and not `reference`, \
                 the reference interpreter's column"
                    .into(),
            ));
        }
        let command = shellexpand::env(&*fields.command).map_err(|e| {
            fail(format!(
                "the environment variable {} is not set",
                e.var_name
            ))
        })?;
        let mut command = split_command(&command).map_err(fail)?;
        if command[0].contains('/') && Path::new(&command[0]).is_relative() {
            command[0] = folder.join(&command[0]).display().to_string();
        }
        let timeout = fields
            .timeout
            .map_or(Ok(Duration::from_secs(10)), Duration::try_from_secs_f64);
        let Some(timeout) = timeout.ok().filter(|t| !t.is_zero()) else {
            return Err(fail(format!(
                "timeout is a positive number of seconds, not {:?}",
                fields.timeout
            )));
        };
        entries.push(Entry {
            profile: known_profile(fields.profile.as_deref().unwrap_or(SPEC_PROFILE))
                .map_err(fail)?,
            name,
            command,
            known_failures: fields.known_failures.map(|p| folder.join(p)),
            timeout,
            place: at(line),
        });
    }
    if entries.is_empty() {
        return Err(format!(
            "{}: no implementation is configured; add a `[NAME]` table",
            path.display()
        ));
    }
    Ok(entries)
}

/// One column's results.
#[derive(Clone, Debug)]
pub struct Column {
    pub name: String,
    /// What the implementation is (`hello`'s version, else its name).
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

impl Column {
    pub fn accounting(&self) -> Accounting {
        let mut accounting = Accounting::default();
        for r in &self.records {
            let ids = match (r.status.is_failure(), self.list.contains(&r.id)) {
                (true, true) => &mut accounting.expected,
                (true, false) => &mut accounting.unexpected_failures,
                (false, true) => &mut accounting.unexpected_passes,
                (false, false) => continue,
            };
            ids.push(r.id.clone());
        }
        accounting
    }

    /// Passed, failed and unsupported cases of an area (`None`: all).
    pub fn counts(&self, area: Option<&str>) -> [usize; 3] {
        let mut counts = [0; 3];
        for r in self
            .records
            .iter()
            .filter(|r| area.is_none_or(|a| r.area == a))
        {
            counts[match r.status {
                Status::Passed => 0,
                Status::Unsupported => 2,
                _ => 1,
            }] += 1;
        }
        counts
    }

    /// The column's heading: its name, and its profile when not the spec's.
    fn heading(&self) -> String {
        match self.profile.as_str() {
            SPEC_PROFILE => self.name.clone(),
            profile => format!("{} ({profile})", self.name),
        }
    }

    /// The column's known-failure list as its results would have it: every
    /// failure, with the configured list's reasons kept (a list that can no
    /// longer be read is an error, not a list without reasons).
    pub fn regenerated_list(&self, suite: &Suite) -> Result<String, String> {
        let previous = FailureFile::read_all(
            &self
                .list_path
                .iter()
                .map(PathBuf::as_path)
                .collect::<Vec<_>>(),
        )?;
        let header = [
            format!(
                "# Known failures of {} ({}), profile {}: one case id a line, then why.",
                self.name, self.description, self.profile
            ),
            "# Written by `hcl-conformance matrix` from its run; edit the reasons, they are kept."
                .into(),
        ];
        let failures = self.records.iter().filter(|r| r.status.is_failure());
        let ran: BTreeSet<&str> = self.records.iter().map(|r| r.id.as_str()).collect();
        let failures = failures.map(|r| (r.id.as_str(), r.reason.as_str()));
        Ok(failure_list(failures, &ran, &previous, suite, &header))
    }
}

/// Runs one implementation over the whole suite, judged without a list.
fn column(
    suite: &Suite,
    name: &str,
    implementation: Implementation,
    hello: Option<(&str, Capabilities)>,
    profile: &str,
    jobs: usize,
) -> Column {
    let (description, capabilities) = match hello {
        Some((description, capabilities)) => (description.to_string(), Some(capabilities)),
        None => ("the reference interpreter (in-process)".to_string(), None),
    };
    let settings = RunSettings {
        implementation,
        capabilities: capabilities.clone(),
        profile: profile.into(),
        known_failures: KnownFailures::default(),
    };
    let started = std::time::Instant::now();
    let cases: Vec<_> = suite.cases().collect();
    let records = run_cases(&cases, &settings, jobs, &|_| {});
    let seconds = started.elapsed().as_secs_f64();
    // A note on the way: a standard error that cannot take it loses it.
    let _ = writeln!(
        std::io::stderr(),
        "matrix: {name}: {} cases in {seconds:.1}s",
        records.len()
    );
    Column {
        name: name.into(),
        description,
        profile: profile.into(),
        command: Vec::new(),
        capabilities,
        list_path: None,
        list: KnownFailures::default(),
        records,
    }
}

/// An implementation of the configuration, started, with its
/// known-failure list read.
struct Started<'e> {
    entry: &'e Entry,
    pool: Arc<Pool>,
    list: KnownFailures,
}

/// A matrix run: its columns (the reference interpreter's first) and its
/// table, `matrix.md`.
pub struct Matrix {
    pub columns: Vec<Column>,
    pub markdown: String,
}

/// Runs the reference interpreter and every configured implementation
/// (all started, and their lists read, before any case runs) and writes
/// `matrix.md`, `matrix-details.json` and `known-failures/` to `out`.
pub fn run_matrix(
    suite: &Suite,
    entries: &[Entry],
    out: &Path,
    jobs: usize,
) -> Result<Matrix, String> {
    let started = entries
        .iter()
        .map(|entry| start(entry, suite))
        .collect::<Result<Vec<_>, _>>()?;
    let reference = Arc::new(|input: &_| crate::reference::run(input));
    let mut columns = vec![column(
        suite,
        "reference",
        reference,
        None,
        SPEC_PROFILE,
        jobs,
    )];
    columns.extend(
        started
            .into_iter()
            .map(|s| configured_column(suite, s, jobs)),
    );
    let markdown = render_markdown(suite, &columns);
    write_matrix(suite, &columns, &markdown, out)?;
    Ok(Matrix { columns, markdown })
}

/// Reads an entry's known-failure list and starts its implementation.
fn start<'e>(entry: &'e Entry, suite: &Suite) -> Result<Started<'e>, String> {
    let list = match &entry.known_failures {
        None => KnownFailures::default(),
        Some(path) => KnownFailures::load(path, suite).map_err(|e| {
            format!(
                "{}: the known-failure list of [{}] has problems:\n{e}",
                entry.place, entry.name
            )
        })?,
    };
    let command = ImplementationCommand::new(
        entry.command[0].clone(),
        entry.command[1..].to_vec(),
        entry.timeout,
    );
    let pool = Pool::start(command).map_err(|e| {
        format!(
            "{}: the implementation [{}] (`{}`) did not start: {e}\n\
             Build it (scripts/matrix builds every adapter), or fix its command.",
            entry.place,
            entry.name,
            entry.command.join(" ")
        )
    })?;
    Ok(Started {
        entry,
        pool: Arc::new(pool),
        list,
    })
}

/// The column of a configured implementation: its run, with its command
/// and its known-failure list.
fn configured_column(suite: &Suite, started: Started, jobs: usize) -> Column {
    let Started { entry, pool, list } = started;
    let hello = pool.hello().clone();
    // The version string names the implementation (`hashicorp/hcl
    // 2.14.1, go-cty 1.12.1`); the adapter's name is the column's.
    let description = if hello.version.trim().is_empty() {
        &hello.name
    } else {
        hello.version.trim()
    };
    let implementation = Arc::new(move |input: &_| pool.run(input));
    let settings = Some((description, hello.capabilities.clone()));
    let column = column(
        suite,
        &entry.name,
        implementation,
        settings,
        &entry.profile,
        jobs,
    );
    let (command, list_path) = (entry.command.clone(), entry.known_failures.clone());
    Column {
        command,
        list_path,
        list,
        ..column
    }
}

/// Writes `matrix.md`, `matrix-details.json` and each configured column's
/// regenerated list under `known-failures/` to `out`.
fn write_matrix(
    suite: &Suite,
    columns: &[Column],
    markdown: &str,
    out: &Path,
) -> Result<(), String> {
    let mut files = vec![
        ("matrix.md".to_string(), markdown.to_string()),
        ("matrix-details.json".into(), render_details(suite, columns)),
    ];
    for c in &columns[1..] {
        files.push((
            format!("known-failures/{}.txt", c.name),
            c.regenerated_list(suite)?,
        ));
    }
    for (name, text) in files {
        let path = out.join(name);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, text));
        written.map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

impl Matrix {
    /// How the results differ from the known-failure lists, column by
    /// column (at most 20 ids of each kind), each with the list its results
    /// call for under `out`; empty where they all match.
    pub fn differences(&self, out: &Path) -> String {
        let mut text = String::new();
        for column in &self.columns {
            let accounting = column.accounting();
            if accounting.unexpected_failures.is_empty() && accounting.unexpected_passes.is_empty()
            {
                continue;
            }
            let list = column
                .list_path
                .as_ref()
                .map_or("no known-failure list".into(), |p| p.display().to_string());
            text.push_str(&format!(
                "\n{}: the results differ from {list}:\n",
                column.name
            ));
            for (what, ids) in [
                ("failed, not listed", &accounting.unexpected_failures),
                ("listed, did not fail", &accounting.unexpected_passes),
            ] {
                ids.iter()
                    .take(20)
                    .for_each(|id| text.push_str(&format!("  {what}: {id}\n")));
                if ids.len() > 20 {
                    text.push_str(&format!(
                        "  ... and {} more {what} (see matrix-details.json)\n",
                        ids.len() - 20
                    ));
                }
            }
            text.push_str(&format!(
                "  {}/known-failures/{}.txt is the list these results call for; review it and copy it over.\n",
                out.display(),
                column.name
            ));
        }
        text
    }
}

/// `matrix.md`: the table, the known-failure accounting, and why cases are
/// unsupported.
pub fn render_markdown(suite: &Suite, columns: &[Column]) -> String {
    let total = suite.cases().count();
    let cell =
        |[passed, failed, unsupported]: [usize; 3]| format!("{passed} / {failed} / {unsupported}");
    let mut out = format!(
        "Each cell is **passed / failed / unsupported** over the area's cases; the three add up to \
         the area's count. *Failed* counts wrong or broken answers, crashes and time-outs, listed \
         as known failures or not; *unsupported* counts cases needing a request kind or feature the \
         implementation does not declare (`runner/PROTOCOL.md`). {total} cases in all.\n\n| area | cases |"
    );
    columns
        .iter()
        .for_each(|c| out.push_str(&format!(" {} |", c.heading())));
    out.push_str(&format!("\n|---|---:|{}\n", "---:|".repeat(columns.len())));
    for area in areas::names() {
        let size = suite.cases().filter(|c| c.area == area).count();
        // Every named area has its row, empty or not; `other` only when a
        // case file falls in it.
        if area == areas::OTHER && size == 0 {
            continue;
        }
        out.push_str(&format!("| {area} | {size} |"));
        columns
            .iter()
            .for_each(|c| out.push_str(&format!(" {} |", cell(c.counts(Some(area))))));
        out.push('\n');
    }
    out.push_str(&format!("| **total** | **{total}** |"));
    columns
        .iter()
        .for_each(|c| out.push_str(&format!(" **{}** |", cell(c.counts(None)))));
    out.push_str(
        "\n\nKnown-failure lists (a listed case must fail; any other failure fails the run):\n\n\
         | implementation | what it is | list | listed | failed as listed | failed, not listed | listed, did not fail |\n\
         |---|---|---|---:|---:|---:|---:|\n",
    );
    for c in columns {
        let a = c.accounting();
        let file = c.list_path.as_ref().and_then(|p| p.file_name());
        let list = file.map_or("none".to_string(), |f| format!("`{}`", f.to_string_lossy()));
        let description = c.description.replace('|', "\\|");
        let (listed, expected) = (c.list.len(), a.expected.len());
        let (failures, passes) = (a.unexpected_failures.len(), a.unexpected_passes.len());
        let _ = writeln!(
            out,
            "| {} | {description} | {list} | {listed} | {expected} | {failures} | {passes} |",
            c.heading()
        );
    }
    let by_need = columns
        .iter()
        .map(|c| (c.heading(), unsupported_by_need(&c.records)));
    let by_need: Vec<_> = by_need.filter(|(_, needs)| !needs.is_empty()).collect();
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

/// `matrix-details.json`: every case's verdict and reason per
/// implementation, and whether its list names it.
pub fn render_details(suite: &Suite, columns: &[Column]) -> String {
    let implementations: Vec<_> = columns
        .iter()
        .map(|c| {
            let a = c.accounting();
            let [passed, failed, unsupported] = c.counts(None);
            json!({
                "name": c.name, "description": c.description, "profile": c.profile, "command": c.command,
                "kinds": c.capabilities.as_ref().map(|k| &k.kinds),
                "features": c.capabilities.as_ref().map(|k| &k.features),
                "known_failures": c.list_path.as_ref().map(|p| p.display().to_string()),
                "totals": { "passed": passed, "failed": failed, "unsupported": unsupported },
                "failed_as_listed": a.expected.len(),
                "failed_not_listed": a.unexpected_failures,
                "listed_did_not_fail": a.unexpected_passes,
            })
        })
        .collect();
    let cases: Vec<_> = suite
        .cases()
        .map(|case| {
            // Each column holds one record per case, sorted by id.
            let results: serde_json::Map<_, _> = columns
                .iter()
                .filter_map(|c| {
                    let at = c.records.binary_search_by(|r| r.id.as_str().cmp(&case.id)).ok()?;
                    let r = &c.records[at];
                    let result = json!({ "status": r.status, "reason": r.reason, "listed": c.list.contains(&r.id) });
                    Some((c.name.clone(), result))
                })
                .collect();
            json!({ "id": case.id, "area": case.area, "kind": case.input.kind().name(), "results": results })
        })
        .collect();
    let details = json!({ "cases_in_suite": cases.len(), "implementations": implementations, "cases": cases });
    serde_json::to_string_pretty(&details).unwrap_or_default() + "\n"
}
