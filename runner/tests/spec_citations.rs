//! Every `Spec: DOCUMENT § Heading` citation in the code names a heading
//! that exists (suite/spec-headings.txt lists them).

use std::collections::BTreeSet;
use std::path::Path;

fn headings() -> BTreeSet<String> {
    let path = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../suite/spec-headings.txt"
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
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut missing = Vec::new();
    let mut checked = 0;
    for dir in ["interpreter/src", "runner/src"] {
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
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let suite = hcl_conformance::suite::load_suite(&root.join("suite")).expect("the suite loads");
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
