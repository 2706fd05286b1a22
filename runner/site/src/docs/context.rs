//! What every page is made from ([`Context`]): the suite, a matrix run's
//! results, the spec-notes and their links to requirements and cases, the
//! documents' headings.

use super::addresses::{document_page, note_page};
use super::html;
use super::markdown::{self, Links};
use super::results::Results;
use hcl_conformance_format::documents;
use hcl_conformance_format::requirements::notes_by_requirement;
use hcl_conformance_format::suite::{Case, Suite};
use std::collections::BTreeMap;

/// A spec-note: its path below `spec-notes/`, title and text.
pub struct Note {
    /// `gaps/numbers.md`, `findings/hcl-rs.md`, `README.md`.
    pub path: String,
    pub title: String,
    pub markdown: String,
}

impl Note {
    /// Its page on the site ([`note_page`]).
    pub fn page(&self) -> String {
        note_page(&self.path)
    }

    /// The folder of the note below `spec-notes/`, for its relative links.
    pub fn folder(&self) -> &str {
        self.path.rsplit_once('/').map_or("", |(folder, _)| folder)
    }
}

/// Everything the pages are made from.
pub struct Context<'a> {
    pub suite: &'a Suite,
    pub results: Option<&'a Results>,
    pub links: Links,
    /// The cases covering each requirement id, in suite order.
    pub covering: BTreeMap<&'a str, Vec<&'a Case>>,
    /// The spec-notes, README first.
    pub notes: Vec<Note>,
    /// The notes naming each requirement id on their `Requirements:` line.
    pub notes_by_requirement: BTreeMap<String, Vec<String>>,
    /// The cases whose profiles cite each note (its path below `spec-notes/`).
    pub cases_by_note: BTreeMap<String, Vec<&'a Case>>,
    /// Every heading of every document, in order (`spec-headings.txt`).
    pub headings: Vec<(String, String)>,
}

/// The documents the requirements cite, in the order of the document
/// table, then any other in the order of the list.
pub fn cited_documents(suite: &Suite) -> Vec<String> {
    let cited: Vec<String> = suite.requirements.iter().map(|r| r.doc.clone()).collect();
    let mut docs: Vec<String> = documents::DOCUMENTS
        .iter()
        .map(|d| d.file.to_string())
        .filter(|f| cited.contains(f))
        .collect();
    for doc in cited {
        if !docs.contains(&doc) {
            docs.push(doc);
        }
    }
    docs
}

/// Reads the spec-notes below `dir`: its README, then every note by path.
fn read_notes(suite: &Suite) -> Vec<Note> {
    let mut notes: Vec<Note> = suite
        .notes()
        .map(|(path, markdown)| {
            let relative = path.strip_prefix("spec-notes/").unwrap_or(path).to_string();
            Note {
                title: markdown::title(markdown).unwrap_or_else(|| relative.clone()),
                path: relative,
                markdown: markdown.to_string(),
            }
        })
        .collect();
    notes.sort_by(|a, b| {
        (!a.path.ends_with("README.md"), &a.path).cmp(&(!b.path.ends_with("README.md"), &b.path))
    });
    notes
}

/// Reads `spec-headings.txt`: `DOCUMENT § HEADING` a line.
fn read_headings(suite: &Suite) -> Vec<(String, String)> {
    let text = suite.text("suite/spec-headings.txt").unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(" § "))
        .map(|(d, h)| (d.to_string(), h.to_string()))
        .collect()
}

impl<'a> Context<'a> {
    pub fn new(suite: &'a Suite, results: Option<&'a Results>) -> Result<Context<'a>, String> {
        let notes = read_notes(suite);
        let mut covering: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
        let mut cases_by_note: BTreeMap<String, Vec<&Case>> = BTreeMap::new();
        for case in suite.cases() {
            for id in &case.covers {
                covering.entry(id.as_str()).or_default().push(case);
            }
            for p in case.profiles.values() {
                let note = p.note.strip_prefix("spec-notes/").unwrap_or(&p.note);
                cases_by_note
                    .entry(note.to_string())
                    .or_default()
                    .push(case);
            }
        }
        let links = Links {
            cases: suite.cases().map(|c| c.id.clone()).collect(),
            requirements: suite
                .requirements
                .iter()
                .map(|r| (r.id.clone(), document_page(&r.doc)))
                .collect(),
            notes: notes
                .iter()
                .filter(|n| n.path != "README.md")
                .map(|n| n.path.clone())
                .collect(),
        };
        Ok(Context {
            suite,
            results,
            links,
            covering,
            notes,
            notes_by_requirement: notes_by_requirement(suite.notes()),
            cases_by_note,
            headings: read_headings(suite),
        })
    }

    /// A link to a requirement on its document's page, around its id.
    pub fn requirement_link(&self, id: &str) -> Option<String> {
        self.links.requirement_link(id, &html::escape(id))
    }

    /// A link to a section on its document's page, as the templates
    /// write it ([`html::link`]).
    pub fn section_link(&self, doc: &str, anchor: &str) -> askama::filters::Safe<String> {
        html::link(&document_page(doc), Some(anchor))
    }

    /// The note a profile names (a path, usually `spec-notes/gaps/...`).
    pub fn note(&self, path: &str) -> Option<&Note> {
        let path = path.strip_prefix("spec-notes/").unwrap_or(path);
        self.notes.iter().find(|n| n.path == path)
    }

    /// A section's readable name: `Title § Section`.
    pub fn section_name(&self, doc: &str, anchor: &str) -> String {
        let section = self
            .suite
            .requirements
            .iter()
            .find(|r| r.doc == doc && r.anchor == anchor)
            .map_or(anchor, |r| r.section.as_str());
        format!("{} § {section}", documents::title(doc))
    }
}
