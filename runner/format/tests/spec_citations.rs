//! Every `Spec: DOCUMENT § Heading` citation in the code names a heading
//! that exists (suite/spec-headings.txt lists them).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

mod notes;
use notes::gap_notes;

fn headings() -> BTreeSet<String> {
    let path = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../suite/spec-headings.txt"
    ));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.to_lowercase())
        .collect()
}

/// The citations in one file: each `Spec:` paragraph of a doc comment,
/// joined across its wrapped lines.
fn citations(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        let comment = line
            .strip_prefix("///")
            .or_else(|| line.strip_prefix("//!"));
        if let Some(rest) = comment.and_then(|c| c.trim_start().strip_prefix("Spec:")) {
            let start = i + 1;
            let mut joined = rest.trim().to_string();
            while let Some(next) = lines.get(i + 1).map(|l| l.trim_start()) {
                let more = next
                    .strip_prefix("///")
                    .or_else(|| next.strip_prefix("//!"));
                match more.map(str::trim) {
                    Some(m)
                        if !m.is_empty() && !m.starts_with("SPEC-GAP") && !m.starts_with("```") =>
                    {
                        joined.push(' ');
                        joined.push_str(m);
                        i += 1;
                    }
                    _ => break,
                }
            }
            found.push((start, joined));
        }
        i += 1;
    }
    found
}

/// Splits `spec.md § A, § B; hclsyntax-spec.md § C` into (document, heading).
fn cited_sections(citation: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut parts = citation.split('§');
    let mut doc = parts
        .next()
        .unwrap_or("")
        .trim()
        .trim_end_matches(',')
        .to_string();
    for part in parts {
        let mut section = part.trim().to_string();
        let mut next_doc = None;
        // A part may end with the next citation's document.
        if let Some(at) = section.rfind([',', ';', ' ']) {
            let tail = section[at + 1..].trim();
            if tail.ends_with(".md") || tail.ends_with(".txt") {
                next_doc = Some(tail.to_string());
                section.truncate(at);
            }
        }
        let section = section
            .trim()
            .trim_end_matches([',', ';', '.'])
            .trim_end_matches(" and its subsections")
            .split(" › ")
            .next()
            .unwrap_or("")
            // A parenthesized remark may follow the heading.
            .split(" (")
            .next()
            .unwrap_or("")
            .trim()
            .trim_end_matches([',', ';'])
            .to_string();
        out.push((doc.clone(), section));
        if let Some(next) = next_doc {
            doc = next;
        }
    }
    out
}

#[test]
fn every_cited_heading_exists() {
    let known = headings();
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut missing = Vec::new();
    let mut checked = 0;
    for dir in [
        "interpreter/src",
        "runner/format/src",
        "runner/site/src",
        "runner/src",
    ] {
        for entry in walkdir::WalkDir::new(root.join(dir))
            .into_iter()
            .filter_map(Result::ok)
        {
            if entry.path().extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(entry.path()).unwrap();
            for (line, citation) in citations(&text) {
                for (doc, section) in cited_sections(&citation) {
                    checked += 1;
                    if !known.contains(&format!("{doc} § {section}").to_lowercase()) {
                        missing.push(format!(
                            "{}:{line}: `{doc} § {section}` is not a heading (suite/spec-headings.txt)",
                            entry.path().strip_prefix(root).unwrap_or(entry.path()).display()
                        ));
                    }
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} citations found");
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Every case a note under spec-notes/gaps/ names on its `Cases:` line exists, so notes and
/// suite cannot drift apart.
#[test]
fn every_case_a_note_names_exists() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let suite =
        hcl_conformance_format::suite::load_suite(&root.join("suite")).expect("the suite loads");
    let ids: BTreeSet<&str> = suite.cases().map(|c| c.id.as_str()).collect();
    let mut missing = Vec::new();
    for entry in walkdir::WalkDir::new(root.join("spec-notes/gaps"))
        .into_iter()
        .filter_map(Result::ok)
    {
        if entry.path().extension().is_none_or(|x| x != "md") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        for line in text.lines().filter_map(|l| l.strip_prefix("Cases:")) {
            for id in line.split([',', ' ']).map(|t| t.trim_matches(['`', '.'])) {
                if id.contains("::") && !ids.contains(id) {
                    missing.push(format!("{}: {id}", entry.path().display()));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "notes name cases that do not exist:\n{}",
        missing.join("\n")
    );
}

/// The items of a note's `NAME:` line (`Cases:`, `Requirements:`), split at
/// commas and spaces; `None` when the note has no such line.
fn note_line<'a>(text: &'a str, name: &str) -> Option<Vec<&'a str>> {
    let line = text.lines().find_map(|l| l.strip_prefix(name))?;
    Some(
        line.split([',', ' '])
            .map(|t| t.trim_matches(['`', '.']))
            .filter(|t| !t.is_empty())
            .collect(),
    )
}

/// The bookkeeping between cases and notes (spec-notes/README.md § A note):
/// each case that records a profile's result names, with `note:`, a note
/// whose `Cases:` line names the case; and every note has a `Requirements:`
/// line naming at least one requirement.
fn bookkeeping_problems<'a>(
    cases: impl Iterator<Item = &'a hcl_conformance_format::suite::Case>,
    notes: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for case in cases {
        for (profile, expectation) in &case.profiles {
            let Some(text) = notes.get(&expectation.note) else {
                continue; // The loader reports a note that does not exist.
            };
            let named = note_line(text, "Cases:").unwrap_or_default();
            if !named.contains(&case.id.as_str()) {
                problems.push(format!(
                    "{}: the case {} records a `{profile}` result with this note; add it to the note's Cases: line",
                    expectation.note, case.id
                ));
            }
        }
    }
    for (path, text) in notes {
        if note_line(text, "Requirements:").is_none_or(|ids| ids.is_empty()) {
            problems.push(format!(
                "{path}: the Requirements: line is missing or empty; name the requirement ids the note settles"
            ));
        }
    }
    problems
}

/// Every profiled case is named by its note, and every note names its
/// requirements.
#[test]
fn notes_name_their_profiled_cases_and_requirements() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let suite =
        hcl_conformance_format::suite::load_suite(&root.join("suite")).expect("the suite loads");
    let notes = gap_notes(root);
    let profiled = suite.cases().filter(|c| !c.profiles.is_empty()).count();
    assert!(profiled > 100, "only {profiled} profiled cases found");
    let problems = bookkeeping_problems(suite.cases(), &notes);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The check above finds a profiled case left off its note's `Cases:` line,
/// and an emptied `Requirements:` line.
#[test]
fn bookkeeping_check_finds_a_planted_omission() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let suite =
        hcl_conformance_format::suite::load_suite(&root.join("suite")).expect("the suite loads");
    let mut notes = gap_notes(root);
    let case = suite
        .cases()
        .find(|c| !c.profiles.is_empty())
        .expect("a profiled case");
    let note = &case.profiles.values().next().unwrap().note;
    let text = notes.get_mut(note).expect("the case's note");
    *text = text.replace(&case.id, "");
    let requirements_line = text
        .lines()
        .find(|l| l.starts_with("Requirements:"))
        .expect("a Requirements: line")
        .to_string();
    *text = text.replace(&requirements_line, "Requirements:");
    let problems = bookkeeping_problems(suite.cases(), &notes);
    assert!(
        problems.iter().any(|p| p.contains(&case.id)),
        "the omission of {} from {note} is not found: {problems:?}",
        case.id
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with(note.as_str()) && p.contains("Requirements:")),
        "the empty Requirements: line of {note} is not found: {problems:?}"
    );
}

/// The notes README's digest gives every note one verdict line, and names
/// no note that does not exist, so that it cannot drift from the notes.
#[test]
fn the_digest_gives_every_note_one_verdict() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let readme = std::fs::read_to_string(root.join("spec-notes/README.md")).unwrap();
    let digest = readme
        .split("## Digest: the notes and their verdicts")
        .nth(1)
        .expect("the README has the digest");
    let mut verdicts: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for line in digest.lines().filter(|l| l.starts_with("- [")) {
        let (link, rest) = line
            .split_once("): ")
            .expect("`- [name](gaps/name.md): verdict`");
        let path = link.split_once("](").expect("a link").1;
        let verdict = ["decided", "not decided", "contradicted"]
            .into_iter()
            .find(|v| rest.starts_with(&format!("{v} —")))
            .unwrap_or_else(|| panic!("no verdict in: {line}"));
        verdicts
            .entry(format!("spec-notes/{path}"))
            .or_default()
            .push(verdict);
    }
    let notes = gap_notes(root);
    let mut problems: Vec<String> = notes
        .keys()
        .filter(|n| verdicts.get(*n).is_none_or(|v| v.len() != 1))
        .map(|n| format!("{n}: needs exactly one digest line in spec-notes/README.md"))
        .collect();
    problems.extend(
        verdicts
            .keys()
            .filter(|n| !notes.contains_key(*n))
            .map(|n| format!("the digest names {n}, which does not exist")),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
