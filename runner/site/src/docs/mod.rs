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
//! Modules: [`notation`] (values, types, inputs and expectations as text),
//! [`highlight`] (source text by the reference interpreter's lexer),
//! [`markdown`], [`html`] (escaping, safe paths and URLs, the page frame),
//! [`check`] (the markup check), [`results`] (a matrix run's details),
//! `pages` and `case_page` (the pages), [`show`] (the terminal).

pub mod check;
pub mod highlight;
pub mod html;
pub mod markdown;
pub mod notation;
pub mod results;
pub mod show;

mod case_page;
mod pages;

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

    /// A link to a case, as the reference the site's script links
    /// ([`case_reference`]).
    pub fn case_link(&self, case: &Case) -> String {
        case_reference(&html::escape(&case.id))
    }

    /// A link to a requirement on its document's page, around `content`
    /// (HTML; the id when `None`).
    pub fn requirement_link(&self, id: &str, content: Option<&str>) -> Option<String> {
        self.links
            .requirement_link(id, content.unwrap_or(&html::escape(id)))
    }

    /// A link to a section on its document's page.
    pub fn section_href(&self, doc: &str, anchor: &str) -> String {
        html::href(&document_page(doc), Some(anchor))
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
    pages.push(pages::home(&context));
    pages.extend(pages::spec_pages(&context));
    pages.push(pages::suite_index(&context));
    for file in &suite.files {
        pages.push(case_page::file_page(&context, file));
    }
    pages.extend(pages::note_pages(&context));
    pages.push(pages::coverage(&context));
    pages.push(pages::search_page());
    if let Some(results) = results {
        pages.push(pages::matrix(&context, results));
        pages.extend(pages::implementation_pages(&context, results));
    }
    check_names(suite, results, &pages)?;
    let has_matrix = results.is_some();
    let mut files: Vec<(String, String)> = pages
        .iter()
        .map(|p| (p.path.clone(), p.render(has_matrix)))
        .collect();
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
            broken_links_of(pages.filter(|(p, _)| p.ends_with(".html")), &|f| {
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

/// The ids a page defines (`id="..."`) and the links it holds
/// (`href="..."`, `src="..."` of its scripts, and the links the site's
/// script builds from compact references, see [`script_links`]), as the
/// site's own check reads them: what the link check test and `docs
/// --check` hold every page to.
pub fn ids_and_links(html: &str) -> (Vec<String>, Vec<String>) {
    let attribute = |name: &str| {
        let pattern = format!(" {name}=\"");
        let mut found = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find(&pattern) {
            rest = &rest[at + pattern.len()..];
            let end = rest.find('"').unwrap_or(rest.len());
            found.push(unescape(&rest[..end]));
            rest = &rest[end..];
        }
        found
    };
    (
        attribute("id"),
        [attribute("href"), attribute("src"), script_links(html)].concat(),
    )
}

/// A case reference the site's script links: `<a class=c>FILE::NAME</a>`.
pub const CASE_REFERENCE: &str = "<a class=c>";

/// A case reference around `content` (HTML whose text is the case id, as
/// `FILE::NAME` or `<code>FILE::NAME</code>`): the site's script makes it
/// a link to `suite/FILE.html#FILE::NAME`; without the script it reads as
/// the id.
pub fn case_reference(content: &str) -> String {
    format!("{CASE_REFERENCE}{content}</a>")
}
/// A requirement reference the script links: `<a class=r>ID</a>`, to the
/// requirement on the page of its document ([`requirement_page`]).
pub const REQUIREMENT_REFERENCE: &str = "<a class=r>";

/// The page the site's script links a requirement reference to:
/// `spec/SHORT.html`, `SHORT` the id's first segment (`native` of
/// `native.splat-operators.001`). A requirement whose document's page is
/// another has a link of its own instead.
pub fn requirement_page(id: &str) -> String {
    format!("spec/{}.html", id.split('.').next().unwrap_or(id))
}

/// A list of cases of one file the script links, each name to its case,
/// led by the file's name linked to its page: `<li data-f="FILE">NAME,
/// NAME</li>`.
pub const CASE_LIST: &str = " data-f=\"";
/// A list of requirement ids the script links, each to the anchor `r:ID`
/// of the same page (where a suite page quotes its text):
/// `<p class=rs>ID ID</p>`.
pub const REQUIREMENT_LIST: &str = " class=rs>";

/// The links the site's script (`assets/site.js`) builds from a page's
/// compact references, as it builds them: a case `FILE::NAME` links to
/// `ROOT/suite/FILE.html#FILE::NAME` (`ROOT` the page's `data-root`), a
/// requirement id of a list to `#r:ID`. A reference's text is plain text
/// up to the next tag.
pub fn script_links(html: &str) -> Vec<String> {
    let root = html
        .split_once(" data-root=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map_or(String::new(), |(root, _)| unescape(root));
    let case = |id: &str| {
        let file = id.split("::").next().unwrap_or(id);
        format!("{root}{}#{}", suite_page(file), html::fragment(id))
    };
    let texts = |pattern: &str| {
        let mut found: Vec<(String, String)> = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find(pattern) {
            rest = &rest[at + pattern.len()..];
            // What an attribute names (up to its quote), and the text.
            let (value, text) = match pattern.ends_with('"') {
                true => {
                    let end = rest.find('"').unwrap_or(rest.len());
                    let value = &rest[..end];
                    let text = rest.find('>').map_or("", |gt| &rest[gt + 1..]);
                    (value, text)
                }
                false => ("", rest),
            };
            let text = &text[..text.find('<').unwrap_or(text.len())];
            found.push((unescape(value), unescape(text)));
        }
        found
    };
    let items = |text: &str| -> Vec<String> {
        text.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let mut links = Vec::new();
    // A reference's text, which may be in a `code` element.
    let references = |pattern: &str| {
        let mut found = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find(pattern) {
            rest = &rest[at + pattern.len()..];
            let content = &rest[..rest.find("</a>").unwrap_or(rest.len())];
            let text: String = content
                .split('<')
                .map(|part| part.split_once('>').map_or(part, |(_, text)| text))
                .collect();
            found.push(unescape(&text).trim().to_string());
        }
        found
    };
    for id in references(CASE_REFERENCE) {
        links.push(case(&id));
    }
    for id in references(REQUIREMENT_REFERENCE) {
        links.push(format!(
            "{root}{}#{}",
            requirement_page(&id),
            html::fragment(&id)
        ));
    }
    for (file, names) in texts(CASE_LIST) {
        links.push(format!("{root}{}", suite_page(&file)));
        for name in items(&names) {
            links.push(case(&format!("{file}::{name}")));
        }
    }
    for (_, ids) in texts(REQUIREMENT_LIST) {
        for id in items(&ids) {
            links.push(format!("#{}", html::fragment(&format!("r:{id}"))));
        }
    }
    links
}

fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Every link of the site at `dir` that points inside it and does not
/// resolve (its file missing, or its anchor not an id of that file), as
/// `PAGE: LINK`.
pub fn broken_links(dir: &Path) -> Result<Vec<String>, String> {
    let mut pages: Vec<(String, String)> = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
    {
        let path = entry.path();
        if path.extension().is_none_or(|x| x != "html") {
            continue;
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let relative = path
            .strip_prefix(dir)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        pages.push((relative, text));
    }
    Ok(broken_links_of(
        pages.iter().map(|(p, t)| (p.clone(), t.as_str())),
        &|file| dir.join(file).is_file(),
    ))
}

/// Every link of `pages` (each its path from the site's root, and its
/// HTML) that points inside the site and does not resolve: to a page
/// missing or without its anchor, or to another file (`is_file`, by path
/// from the root) missing; as `PAGE: LINK`.
pub fn broken_links_of<'a>(
    pages: impl Iterator<Item = (String, &'a str)>,
    is_file: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let mut read: BTreeMap<String, (BTreeSet<String>, Vec<String>)> = BTreeMap::new();
    for (path, text) in pages {
        let (ids, links) = ids_and_links(text);
        read.insert(path, (ids.into_iter().collect(), links));
    }
    let mut broken = Vec::new();
    for (page, (_, links)) in &read {
        for link in links {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (target, anchor) = match link.split_once('#') {
                Some((t, a)) => (t, Some(percent_decode(a))),
                None => (link.as_str(), None),
            };
            let target = percent_decode(target.split('?').next().unwrap_or(""));
            let resolved = if target.is_empty() {
                Some(page.clone())
            } else {
                resolve(page, &target)
            };
            let ok = match resolved {
                Some(file) if file.ends_with(".html") => match read.get(&file) {
                    Some((ids, _)) => anchor.is_none_or(|a| ids.contains(&a)),
                    None => false,
                },
                Some(file) => is_file(&file) && anchor.is_none(),
                None => false,
            };
            if !ok {
                broken.push(format!("{page}: {link}"));
            }
        }
    }
    broken
}

/// `target` relative to the page `page`, as a path from the root; `None`
/// when it leaves the site.
fn resolve(page: &str, target: &str) -> Option<String> {
    let folder = page.rsplit_once('/').map_or("", |(folder, _)| folder);
    join_path(folder, target)
}

/// A relative `link` followed from the folder `base` (`a/b`, `""` for the
/// root): the path it names, or `None` when it climbs above the root.
pub(crate) fn join_path(base: &str, link: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in link.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = || {
            std::str::from_utf8(bytes.get(i + 1..i + 3)?)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        };
        match (bytes[i], hex()) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_links_the_script_builds_are_read() {
        let page = "<body data-root=\"../\"><a class=c>native/x::a-b</a> \
                    <ul><li data-f=\"json/y\">c, d-e</ul> <p class=rs>native.x.001 r.2</p> \
                    <a href=\"#top\">t</a> <a class=r><code>json.y.002</code></a>";
        let (_, links) = ids_and_links(page);
        assert_eq!(
            links,
            [
                "#top",
                "../suite/native/x.html#native/x::a-b",
                "../spec/json.html#json.y.002",
                "../suite/json/y.html",
                "../suite/json/y.html#json/y::c",
                "../suite/json/y.html#json/y::d-e",
                "#r:native.x.001",
                "#r:r.2",
            ]
        );
    }

    /// A site of two pages whose script-built links all resolve but for
    /// one case reference, one requirement reference, one name of a case
    /// list, a list of a file that does not exist and one requirement id
    /// of a list.
    #[test]
    fn the_link_check_finds_broken_references_the_script_links() {
        let dir = std::env::temp_dir().join(format!("docs-refs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("suite/native")).unwrap();
        std::fs::create_dir_all(dir.join("spec")).unwrap();
        std::fs::write(
            dir.join("suite/native/x.html"),
            "<body data-root=\"../../\"><section id=\"native/x::a\"><p class=rs>n.1 n.9</section>\
             <section id=\"native/x::b\"></section><div id=\"r:n.1\"></div>",
        )
        .unwrap();
        std::fs::write(
            dir.join("spec/native.html"),
            "<body data-root=\"../\"><a class=c>native/x::a</a> <a class=c>native/x::gone</a> \
             <ul><li data-f=\"native/x\">a, b, c<li data-f=\"native/none\">a</ul>\
             <div id=\"native.1\"></div> <a class=r>native.1</a> <a class=r>native.2</a>",
        )
        .unwrap();
        let broken = broken_links(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            broken,
            [
                "spec/native.html: ../suite/native/x.html#native/x::gone",
                "spec/native.html: ../spec/native.html#native.2",
                "spec/native.html: ../suite/native/x.html#native/x::c",
                "spec/native.html: ../suite/native/none.html",
                "spec/native.html: ../suite/native/none.html#native/none::a",
                "suite/native/x.html: #r:n.9",
            ]
        );
    }
}
