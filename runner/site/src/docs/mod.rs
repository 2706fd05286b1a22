//! The suite as a website (`hcl-conformance docs`), and one case in the
//! terminal (`hcl-conformance show`).
//!
//! The site is static: plain HTML pages, one style sheet, one script and a
//! search index, every link relative, so that it works from `file://` and
//! from any static host, with no network resource. Links that would repeat
//! on every case (a case's heading and requirement ids, the cases pinning a
//! requirement, case and requirement ids in prose) are compact references
//! that the script links ([`links::script_links`]: the link check reads them as
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
//! [`links::broken_links_of`] before anything is written ([`Site::problems`]).
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
//! [`results`] (a matrix run's details), [`addresses`] (where each page
//! is), [`context`] (what the pages are made from), `pages` and
//! `case_page` (the pages), [`show`] (the terminal); this module builds
//! and writes the site from them.

pub mod addresses;
pub mod check;
pub mod context;
pub mod highlight;
pub mod html;
pub mod links;
pub mod markdown;
pub mod notation;
pub mod results;
pub mod show;

mod case_page;
mod pages;

use context::Context;
use hcl_conformance_format::suite::Suite;
use html::Page;
use results::Results;
use std::collections::BTreeSet;
use std::path::Path;

const STYLE: &str = include_str!("assets/style.css");
const SCRIPT: &str = include_str!("assets/site.js");

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
    /// Policy), and links that do not resolve ([`links::broken_links_of`]).
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
