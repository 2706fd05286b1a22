//! The spec requirements that cases cite, and the coverage of them.
//!
//! `suite/requirements.jsonl` is a verbatim copy of the project's list of
//! every normative statement of the specs; `suite/requirements-overrides.jsonl`
//! holds our corrections (an `id`, the replaced fields, and a `why`).
//! `suite/finished-areas.txt` names the sections whose coverage must stay
//! complete.

use crate::areas::{self, area_of};
use crate::documents;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// One normative statement of a spec document.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Requirement {
    pub id: String,
    /// The document's file name: `spec.md`, `hclsyntax-spec.md`...
    pub doc: String,
    pub section: String,
    pub anchor: String,
    pub text: String,
    pub kind: String,
    pub testable: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ambiguity: Option<String>,
}

/// All requirements, in the order of the list.
#[derive(Clone, Debug, Default)]
pub struct Requirements {
    list: Vec<Requirement>,
    index: BTreeMap<String, usize>,
}

/// The non-blank lines of a JSON-lines file, numbered from 1.
fn json_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    lines.filter(|(_, l)| !l.trim().is_empty())
}

impl Requirements {
    /// Loads the list and applies the overrides.
    pub fn load(suite_dir: &Path) -> Result<Requirements, String> {
        let path = suite_dir.join("requirements.jsonl");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        let overrides = suite_dir.join("requirements-overrides.jsonl");
        let overrides = std::fs::read_to_string(&overrides).unwrap_or_default();
        Requirements::parse(&text, &overrides, suite_dir)
    }

    /// Reads the list, `requirements.jsonl`, and applies the overrides,
    /// `requirements-overrides.jsonl`, both given as text; `suite_dir`
    /// names the files in messages.
    pub fn parse(text: &str, overrides: &str, suite_dir: &Path) -> Result<Requirements, String> {
        let path = suite_dir.join("requirements.jsonl");
        let mut requirements = Requirements::default();
        for (line, json) in json_lines(text) {
            let requirement = serde_json::from_str(json)
                .map_err(|e| format!("{}:{line}: {e}", path.display()))?;
            requirements.insert(requirement);
        }
        let path = suite_dir.join("requirements-overrides.jsonl");
        for (line, json) in json_lines(overrides) {
            requirements
                .apply_override(json)
                .map_err(|e| format!("{}:{line}: {e}", path.display()))?;
        }
        Ok(requirements)
    }

    fn insert(&mut self, requirement: Requirement) {
        match self.index.get(&requirement.id) {
            Some(&i) => self.list[i] = requirement,
            None => {
                self.index.insert(requirement.id.clone(), self.list.len());
                self.list.push(requirement);
            }
        }
    }

    /// Applies one override line: its fields replace the requirement's.
    fn apply_override(&mut self, line: &str) -> Result<(), String> {
        type Fields = serde_json::Map<String, serde_json::Value>;
        let mut fields: Fields = serde_json::from_str(line).map_err(|e| e.to_string())?;
        fields.remove("why").ok_or("an override says `why`")?;
        let id = fields
            .get("id")
            .and_then(|v| v.as_str())
            .ok_or("an override names an `id`")?;
        let mut merged: Fields = match self.get(id) {
            Some(r) => serde_json::from_value(serde_json::to_value(r).map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string())?,
            None => Fields::new(),
        };
        merged.extend(fields);
        let requirement = serde_json::from_value(merged.into()).map_err(|e| e.to_string())?;
        self.insert(requirement);
        Ok(())
    }

    pub fn get(&self, id: &str) -> Option<&Requirement> {
        self.index.get(id).map(|&i| &self.list[i])
    }

    pub fn iter(&self) -> impl Iterator<Item = &Requirement> {
        self.list.iter()
    }

    /// Whether `doc#anchor` names a section the list knows.
    pub fn knows_section(&self, doc: &str, anchor: &str) -> bool {
        self.list.iter().any(|r| r.doc == doc && r.anchor == anchor)
    }
}

/// The requirement ids that the spec-notes settle: those named on a
/// `Requirements:` line of a note under `spec-notes/`.
pub fn ids_settled_by_notes(notes_dir: &Path) -> BTreeSet<String> {
    let texts: Vec<String> = walkdir::WalkDir::new(notes_dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect();
    ids_settled_by(texts.iter().map(String::as_str))
}

/// The requirement ids named on a `Requirements:` line of these notes.
pub fn ids_settled_by<'a>(notes: impl Iterator<Item = &'a str>) -> BTreeSet<String> {
    notes.flat_map(requirement_ids).collect()
}

/// The ids on the `Requirements:` lines of a note's text.
fn requirement_ids(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines()
        .filter_map(|l| l.strip_prefix("Requirements:"))
        .flat_map(|list| list.split([',', ' ']))
        .map(|id| id.trim().trim_matches('`'))
        .filter(|id| !id.is_empty())
        .map(str::to_string)
}

/// For each requirement id named on a `Requirements:` line of a note, the
/// notes naming it (their paths below `spec-notes/`), from the suite's
/// notes as [`Suite::notes`](crate::suite::Suite::notes) gives them.
pub fn notes_by_requirement<'a>(
    notes: impl Iterator<Item = (&'a str, &'a str)>,
) -> BTreeMap<String, Vec<String>> {
    let mut ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (path, text) in notes {
        let name = path.strip_prefix("spec-notes/").unwrap_or(path);
        for id in requirement_ids(text) {
            let named = ids.entry(id).or_default();
            if !named.iter().any(|n| n == name) {
                named.push(name.to_string());
            }
        }
    }
    ids
}

/// Coverage of one section.
#[derive(Clone, Debug, Default)]
pub struct SectionCoverage {
    pub doc: String,
    pub anchor: String,
    pub section: String,
    pub testable: usize,
    pub covered: usize,
    pub uncovered: Vec<String>,
    /// Requirements with an ambiguity entry that no spec-note settles.
    pub unexplained: Vec<String>,
}

impl SectionCoverage {
    /// The area of the suite the section is in.
    pub fn area(&self) -> &'static str {
        area_of(&format!("{}#{}", self.doc, self.anchor))
    }
}

/// Coverage of every section, in the order of the requirement list.
pub fn coverage(
    requirements: &Requirements,
    covered: &BTreeSet<String>,
    settled: &BTreeSet<String>,
) -> Vec<SectionCoverage> {
    let mut sections: Vec<SectionCoverage> = Vec::new();
    for r in requirements.iter() {
        let found = sections
            .iter()
            .position(|s| s.doc == r.doc && s.anchor == r.anchor);
        let at = found.unwrap_or_else(|| {
            sections.push(SectionCoverage {
                doc: r.doc.clone(),
                anchor: r.anchor.clone(),
                section: r.section.clone(),
                ..Default::default()
            });
            sections.len() - 1
        });
        let s = &mut sections[at];
        if r.testable {
            s.testable += 1;
            if covered.contains(&r.id) {
                s.covered += 1;
            } else {
                s.uncovered.push(r.id.clone());
            }
        }
        if r.ambiguity.is_some() && r.testable && !settled.contains(&r.id) {
            s.unexplained.push(r.id.clone());
        }
    }
    sections
}

/// Reads `finished-areas.txt`: one `doc#anchor` a line, `#` comments.
pub fn finished_areas(suite_dir: &Path) -> Result<Vec<(String, String)>, String> {
    let path = suite_dir.join("finished-areas.txt");
    match std::fs::read_to_string(&path) {
        Ok(text) => parse_finished_areas(&text, &path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Reads the text of `finished-areas.txt`; `path` names it in messages.
pub fn parse_finished_areas(text: &str, path: &Path) -> Result<Vec<(String, String)>, String> {
    let mut areas = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split(" #").next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((doc, anchor)) = line.split_once('#') else {
            return Err(format!(
                "{}:{}: write a section as DOCUMENT#ANCHOR, e.g. spec.md#type-unification",
                path.display(),
                i + 1
            ));
        };
        areas.push((doc.to_string(), anchor.to_string()));
    }
    Ok(areas)
}

/// The coverage report: per area of the suite and section,
/// covered/testable, and the uncovered and unexplained ids.
pub fn render_coverage(sections: &[SectionCoverage], finished: &[(String, String)]) -> String {
    let mut out = String::new();
    let total = |sections: &[&SectionCoverage]| {
        let (t, c) = sections
            .iter()
            .fold((0, 0), |(t, c), s| (t + s.testable, c + s.covered));
        format!("{c}/{t} testable requirements covered ({})", percent(c, t))
    };
    for area in areas::names() {
        let in_area: Vec<&SectionCoverage> = sections.iter().filter(|s| s.area() == area).collect();
        if in_area.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n{area}: {}", total(&in_area));
        for s in in_area {
            if s.testable == 0 && s.unexplained.is_empty() {
                continue;
            }
            let finished = finished.iter().any(|(d, a)| *d == s.doc && *a == s.anchor);
            let _ = writeln!(
                out,
                "  {:>3}/{:<3} {:>4}  {} § {}{}",
                s.covered,
                s.testable,
                percent(s.covered, s.testable),
                documents::title(&s.doc),
                s.section,
                if finished { " [finished]" } else { "" }
            );
            if !s.uncovered.is_empty() && s.covered > 0 {
                let _ = writeln!(out, "           uncovered: {}", s.uncovered.join(", "));
            }
            if !s.unexplained.is_empty() {
                let _ = writeln!(
                    out,
                    "           ambiguity without a spec-note: {}",
                    s.unexplained.join(", ")
                );
            }
        }
    }
    let all: Vec<&SectionCoverage> = sections.iter().collect();
    let _ = writeln!(out, "\nall areas: {}", total(&all));
    out
}

fn percent(part: usize, whole: usize) -> String {
    match (part * 100).checked_div(whole) {
        None => "-".into(),
        Some(p) => format!("{p}%"),
    }
}

/// The problems that make `coverage --check` fail: a finished section with
/// an uncovered requirement or an unexplained ambiguity, or a finished
/// section the list does not know.
pub fn check_finished(sections: &[SectionCoverage], finished: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (doc, anchor) in finished {
        let Some(s) = sections
            .iter()
            .find(|s| s.doc == *doc && s.anchor == *anchor)
        else {
            problems.push(format!(
                "finished area {doc}#{anchor} is not a known section"
            ));
            continue;
        };
        for id in &s.uncovered {
            problems.push(format!("{doc}#{anchor}: {id} is not covered by any case"));
        }
        for id in &s.unexplained {
            problems.push(format!(
                "{doc}#{anchor}: {id} has an ambiguity but no spec-note names it on a Requirements: line"
            ));
        }
    }
    problems
}
