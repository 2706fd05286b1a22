//! The suite as a website (`hcl-conformance docs`), and one case in the
//! terminal (`hcl-conformance show`).
//!
//! The site is static: plain HTML pages, one style sheet, one script and a
//! search index, every link relative, so that it works from `file://` and
//! from any static host, with no network resource. Links that would repeat
//! on every case (a case's heading and requirement ids, the cases pinning a
//! requirement, case and requirement ids in prose) are compact references
//! that the script links ([`script_links`]: the link check reads them as
//! the script does), which keeps the whole site within a few MiB. Its
//! pages:
//! - `index.html`: what the suite is, how to read a case, how to run it;
//! - `spec/`: each cited document's sections, their requirements (text
//!   from `requirements.jsonl`) and the cases that pin each one;
//! - `suite/`: one page per case file, every case with the anchor of its
//!   id (`FILE::NAME`);
//! - `matrix.html` and `impl/`: the results of implementations, from a
//!   matrix run (`--matrix DIR`);
//! - `coverage.html`, `notes/` (the spec-notes), `search.html`.
//!
//!
//! Suites, notes and matrix files come from other people's pull requests
//! and the site is published, so everything a page shows from them is
//! escaped ([`html::escape_into`]) or rendered by [`markdown`] with raw
//! HTML shown as text and only http, https, mailto and the site's own
//! links kept; a name that makes a path (a suite file's, a note's, an
//! implementation's) becomes safe segments ([`html::segment`]), and
//! [`Site::write`] writes nothing outside its folder. Every page carries a
//! Content-Security-Policy that allows the site's own scripts and styles
//! only; `docs --check` holds the pages to [`check`] and the links to
//! [`broken_links_of`] before anything is written ([`Site::problems`]).
//!
//! The pages' HTML comes from templates (`runner/site/templates/*.html`,
//! compiled with the crate by askama): every value a template writes is
//! escaped by the site's escaper ([`html::Escape`], configured in
//! `runner/site/askama.toml`) but links the site made ([`html::link`],
//! `Safe` values) and HTML the site rendered itself (Markdown, highlighted
//! source, requirement texts, nested templates), which the templates mark
//! `|safe`.
//!
//! Modules: [`notation`] (values, types, inputs and expectations as text),
//! [`highlight`] (source text by the reference interpreter's lexer),
//! [`markdown`], [`html`] (escaping, safe paths and URLs, the page frame),
//! [`check`] (the markup check), [`links`] (the link check),
//! [`results`] (a matrix run's details), `pages` and `case_page` (the
//! pages), [`show`] (the terminal).

pub mod check;
pub mod highlight;
pub mod html;
pub mod links;
pub mod markdown;
pub mod notation;
pub mod results;
pub mod show;

mod case_page;
mod pages;

use askama::Template;
use hcl_conformance_format::documents;
use hcl_conformance_format::requirements::notes_by_requirement;
use hcl_conformance_format::suite::{Case, Suite, SuiteFile};
use html::Page;
use markdown::Links;
use results::Results;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const STYLE: &str = include_str!("assets/style.css");
const SCRIPT: &str = include_str!("assets/site.js");

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

/// The page of a document's sections: `spec/SHORT.html`.
pub fn document_page(file: &str) -> String {
    match documents::document(file) {
        Some(d) => format!("spec/{}.html", d.short),
        None => format!(
            "spec/{}.html",
            html::segment(&file.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "-"))
        ),
    }
}

/// The page of a suite file: `suite/FILE.html`.
pub fn file_page(file: &SuiteFile) -> String {
    suite_page(&file.id)
}

/// The page of the suite file of id `id` (`native/expr-splat-full`):
/// `suite/native/expr-splat-full.html`, each part of the id a safe
/// [`html::segment`] (as `site.js` makes it).
pub fn suite_page(id: &str) -> String {
    html::named_page("suite", id)
}

/// The page of a note, by its path below `spec-notes/` (`gaps/x.md`):
/// `notes/gaps/x.html`, each part a safe [`html::segment`]; the README's
/// is `notes/index.html`.
pub fn note_page(path: &str) -> String {
    match path {
        "README.md" => "notes/index.html".into(),
        path => html::named_page("notes", path.strip_suffix(".md").unwrap_or(path)),
    }
}

/// The page of an implementation of a matrix run: `impl/NAME.html`, its
/// name one safe [`html::segment`] (a `/` in it encoded too).
pub fn implementation_page(name: &str) -> String {
    format!("impl/{}.html", html::segment(name))
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

/// What was built.
#[derive(Clone, Debug, Default)]
pub struct Built {
    pub pages: usize,
    pub files: usize,
    pub bytes: u64,
}

/// The site, made in memory: every file's path below the site's root
/// (with `/`) and text, pages first.
#[derive(Clone, Debug, Default)]
pub struct Site {
    pub files: Vec<(String, String)>,
    /// How many of the files are pages.
    pub pages: usize,
}

/// The names from outside that name pages (suite files and their
/// folders, notes, implementations) refused when too long, and two pages
/// at one path (a suite file `suite/index.yaml` and the suite's index).
fn check_names(suite: &Suite, results: Option<&Results>, pages: &[Page]) -> Result<(), String> {
    for file in &suite.files {
        for part in file.id.split('/') {
            html::check_segment("a suite file or folder", part)?;
        }
    }
    for note in suite.notes() {
        for part in note.0.split('/') {
            html::check_segment("a spec-note or its folder", part)?;
        }
    }
    for i in results.map_or(&[][..], |r| &r.implementations) {
        html::check_segment("an implementation of the matrix", &i.name)?;
    }
    let mut paths = BTreeSet::new();
    for page in pages {
        if !paths.insert(page.path.as_str()) {
            return Err(format!(
                "two pages of the site would be {}: rename the suite file, spec-note or \
                 implementation it is named after",
                page.path.escape_debug()
            ));
        }
    }
    Ok(())
}

/// Makes the site of `suite` (and of the results of a matrix run), in
/// memory; refuses names from outside that cannot be pages
/// ([`html::check_segment`], two pages at one path).
pub fn render_site(suite: &Suite, results: Option<&Results>) -> Result<Site, String> {
    let context = Context::new(suite, results)?;
    let mut pages: Vec<Page> = Vec::new();
    pages.push(pages::home(&context)?);
    pages.extend(pages::spec_pages(&context)?);
    pages.push(pages::suite_index(&context)?);
    for file in &suite.files {
        pages.push(case_page::file_page(&context, file)?);
    }
    pages.extend(pages::note_pages(&context)?);
    pages.push(pages::coverage(&context)?);
    pages.push(pages::search_page()?);
    if let Some(results) = results {
        pages.push(pages::matrix(&context, results)?);
        pages.extend(pages::implementation_pages(&context, results)?);
    }
    check_names(suite, results, &pages)?;
    let has_matrix = results.is_some();
    let mut files: Vec<(String, String)> = pages
        .iter()
        .map(|p| Ok((p.path.clone(), p.render(has_matrix)?)))
        .collect::<Result<_, String>>()?;
    files.push(("assets/style.css".into(), STYLE.into()));
    files.push(("assets/site.js".into(), SCRIPT.into()));
    files.push((
        "assets/search-index.js".into(),
        pages::search_index(&context),
    ));
    if let Some(results) = results {
        files.push(("assets/verdicts.js".into(), results.script(suite)));
    }
    Ok(Site {
        files,
        pages: pages.len(),
    })
}

impl Site {
    /// What `docs --check` finds wrong with the site, before it is
    /// written, as `PAGE: PROBLEM`: live HTML that is not the site's own
    /// ([`check::markup_problems`]: elements, attributes, scripts and URLs
    /// the site does not write, a page without its Content-Security-
    /// Policy), and links that do not resolve ([`broken_links_of`]).
    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        for (path, text) in &self.files {
            if path.ends_with(".html") {
                problems.extend(
                    check::markup_problems(path, text)
                        .into_iter()
                        .map(|p| format!("{path}: {p}")),
                );
            }
        }
        let pages = self.files.iter().map(|(p, t)| (p.clone(), t.as_str()));
        let others: BTreeSet<String> = self
            .files
            .iter()
            .filter(|(p, _)| !p.ends_with(".html"))
            .map(|(p, _)| p.clone())
            .collect();
        problems.extend(
            links::broken_links_of(pages.filter(|(p, _)| p.ends_with(".html")), &|f| {
                others.contains(f)
            })
            .into_iter()
            .map(|b| format!("{b}: a broken link")),
        );
        problems
    }

    /// Writes the site to `out` (created if need be), replacing the files
    /// it writes; other files there are left. Every file's path is checked
    /// to stay inside `out`, its folders included (none of them a link out
    /// of it).
    pub fn write(&self, out: &Path) -> Result<Built, String> {
        std::fs::create_dir_all(out)
            .map_err(|e| format!("cannot create {}: {e}", out.display()))?;
        let root = out
            .canonicalize()
            .map_err(|e| format!("cannot read {}: {e}", out.display()))?;
        let mut built = Built {
            pages: self.pages,
            ..Built::default()
        };
        for (path, text) in &self.files {
            let target = inside(&root, path)?;
            std::fs::write(&target, text)
                .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
            built.files += 1;
            built.bytes += text.len() as u64;
        }
        Ok(built)
    }
}

/// The file at `path` (relative, with `/`) below the folder `root`
/// (canonical), its folders created one by one: refused unless every part
/// of the path is a plain name, every folder on the way (links resolved)
/// is inside `root`, and the file is no link.
fn inside(root: &Path, path: &str) -> Result<std::path::PathBuf, String> {
    use std::path::Component;
    let refuse = |why: &str| {
        Err(format!(
            "refusing to write {} outside the site's folder {}: {why}",
            path.escape_debug(),
            root.display()
        ))
    };
    let relative = Path::new(path);
    let plain = relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)));
    if !plain || path.is_empty() || path.contains('\\') || path.contains('\0') {
        return refuse("its path is not a plain relative one");
    }
    let mut folder = root.to_path_buf();
    let parts: Vec<_> = relative.components().collect();
    for part in &parts[..parts.len().saturating_sub(1)] {
        folder.push(part);
        if !folder.exists() {
            std::fs::create_dir(&folder)
                .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        }
        let real = folder
            .canonicalize()
            .map_err(|e| format!("cannot read {}: {e}", folder.display()))?;
        if !real.starts_with(root) || !real.is_dir() {
            return refuse("one of its folders leads elsewhere");
        }
    }
    let target = root.join(relative);
    if target.is_symlink() {
        return refuse("it is a symbolic link");
    }
    Ok(target)
}

/// Makes the site of `suite` (and of the results of a matrix run) and
/// writes it to `out` ([`render_site`], [`Site::write`]).
pub fn build_site(suite: &Suite, results: Option<&Results>, out: &Path) -> Result<Built, String> {
    render_site(suite, results)?.write(out)
}

/// A case reference around `content` (HTML whose text is the case id, as
/// `FILE::NAME` or `<code>FILE::NAME</code>`): the site's script makes it
/// a link to `suite/FILE.html#FILE::NAME`; without the script it reads as
/// the id.
pub fn case_reference(content: &str) -> String {
    reference("c", content)
}

/// A compact reference the site's script links (`templates/reference.html`):
/// `<a class=CLASS>CONTENT</a>`, `c` for a case ([`links::CASE_REFERENCE`]),
/// `r` for a requirement ([`links::REQUIREMENT_REFERENCE`]).
#[derive(Template)]
#[template(path = "reference.html")]
struct Reference<'a> {
    class: &'a str,
    content: &'a str,
}

/// A compact reference of class `class` around `content` (HTML the site
/// made), [`Reference`].
pub(crate) fn reference(class: &str, content: &str) -> String {
    html::fragment_html(&Reference { class, content })
}

/// The page the site's script links a requirement reference to:
/// `spec/SHORT.html`, `SHORT` the id's first segment (`native` of
/// `native.splat-operators.001`). A requirement whose document's page is
/// another has a link of its own instead.
pub fn requirement_page(id: &str) -> String {
    format!("spec/{}.html", id.split('.').next().unwrap_or(id))
}
