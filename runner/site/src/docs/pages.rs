//! The pages other than the suite files': home, the specification's
//! documents, the suite's index, spec-notes, coverage, search, and the
//! results of implementations. Each page's HTML is a template of
//! `templates/` (named on its struct), filled with the values this module
//! gathers; the templates escape every value ([`super::html::Escape`])
//! but links the site made ([`Safe`], from [`super::html::link`]) and
//! HTML the site rendered itself (Markdown, requirement texts), which
//! they mark `|safe`.

use super::addresses::{document_page, file_page, implementation_page, suite_page};
use super::case_page::area_slug;
use super::context::{cited_documents, Context};
use super::html::{fragment, href, link, Page};
use super::markdown;
use super::results::{Implementation, Results, Verdict};
use askama::filters::Safe;
use askama::Template;
use hcl_conformance_format::areas;
use hcl_conformance_format::documents;
use hcl_conformance_format::requirements::{
    coverage as coverage_of, finished_areas, Requirement, SectionCoverage,
};
use hcl_conformance_format::suite::{Case, SuiteFile};
use std::collections::{BTreeMap, BTreeSet};

/// A page whose content is its template `body`, rendered.
fn page(
    path: impl Into<String>,
    title: impl Into<String>,
    body: impl Template,
) -> Result<Page, String> {
    Page::rendered(path, title, &body)
}

/// The sections of a document in the order of its headings, as
/// `(anchor, name)`: those the requirements know.
fn sections(context: &Context, doc: &str) -> Vec<(String, String)> {
    let mut known: Vec<(String, String)> = Vec::new();
    for r in context.suite.requirements.iter().filter(|r| r.doc == doc) {
        if !known.iter().any(|(a, _)| *a == r.anchor) {
            known.push((r.anchor.clone(), r.section.clone()));
        }
    }
    let order: Vec<&str> = context
        .headings
        .iter()
        .filter(|(d, _)| d == doc)
        .map(|(_, h)| h.as_str())
        .collect();
    known.sort_by_key(|(_, name)| order.iter().position(|h| h == name).unwrap_or(usize::MAX));
    // Headings as read, without their Markdown marks (`` `for` ``, `_x_`).
    let plain = |name: &str| {
        name.replace('`', "")
            .split(' ')
            .map(|w| w.trim_matches('_'))
            .collect::<Vec<_>>()
            .join(" ")
    };
    known
        .into_iter()
        .map(|(anchor, name)| (anchor, plain(&name)))
        .collect()
}

/// The suite files citing `doc#anchor` in their `spec:`.
fn files_citing<'a>(context: &'a Context, doc: &str, anchor: &str) -> Vec<&'a SuiteFile> {
    let citation = format!("{doc}#{anchor}");
    context
        .suite
        .files
        .iter()
        .filter(|f| f.spec.contains(&citation))
        .collect()
}

/// A cited document: its names, its page and its sections' links.
struct DocumentView {
    file: String,
    title: String,
    version: Option<&'static str>,
    url: Option<&'static str>,
    href: Safe<String>,
    sections: Vec<SectionLink>,
}

/// A section of a document, linked from the table of contents.
struct SectionLink {
    name: String,
    href: Safe<String>,
}

/// The documents the requirements cite ([`cited_documents`]), each with
/// its sections.
fn documents_view(context: &Context) -> Vec<DocumentView> {
    cited_documents(context.suite)
        .into_iter()
        .map(|file| {
            let d = documents::document(&file);
            let page = document_page(&file);
            let sections = sections(context, &file)
                .into_iter()
                .map(|(anchor, name)| SectionLink {
                    href: link(&page, Some(&anchor)),
                    name,
                })
                .collect();
            DocumentView {
                title: documents::title(&file).to_string(),
                version: d.map(|d| d.version),
                url: d.and_then(|d| d.url),
                href: link(&page, None),
                sections,
                file,
            }
        })
        .collect()
}

/// `index.html`: what the suite is, how to read a case, how to run it.
#[derive(Template)]
#[template(path = "home.html")]
struct Home {
    cases: usize,
    covered: usize,
    testable: usize,
    files: usize,
    notes: usize,
    search: Safe<String>,
    coverage: Safe<String>,
    suite: Safe<String>,
    notes_index: Safe<String>,
    toc: Vec<DocumentView>,
}

pub fn home(context: &Context) -> Result<Page, String> {
    let suite = context.suite;
    let covered: BTreeSet<&str> = suite
        .cases()
        .flat_map(|c| c.covers.iter().map(String::as_str))
        .collect();
    let home = Home {
        cases: suite.cases().count(),
        covered: covered
            .iter()
            .filter(|id| suite.requirements.get(id).is_some_and(|r| r.testable))
            .count(),
        testable: suite.requirements.iter().filter(|r| r.testable).count(),
        files: suite.files.len(),
        notes: context.notes.len().saturating_sub(1),
        search: link("search.html", None),
        coverage: link("coverage.html", None),
        suite: link("suite/index.html", None),
        notes_index: link("notes/index.html", None),
        toc: documents_view(context),
    };
    page("index.html", "Home", home)
}

/// `spec/index.html`: the table of contents of the specification.
#[derive(Template)]
#[template(path = "spec_index.html")]
struct SpecIndex {
    toc: Vec<DocumentView>,
}

/// `spec/SHORT.html`: a document's sections and their requirements.
#[derive(Template)]
#[template(path = "document.html")]
struct DocumentPage<'a> {
    d: &'a DocumentView,
    sections: Vec<SectionView<'a>>,
}

/// A section of a document's page.
struct SectionView<'a> {
    anchor: String,
    fragment: String,
    name: String,
    area: &'static str,
    covered: usize,
    testable: usize,
    /// The suite files citing it: each linked, with how many cases.
    files: Vec<FileLink>,
    requirements: Vec<RequirementView<'a>>,
}

/// A suite file, linked.
struct FileLink {
    href: Safe<String>,
    id: String,
    cases: usize,
}

/// A requirement on its document's page (`requirement.html`).
struct RequirementView<'a> {
    r: &'a Requirement,
    /// Its text, as the site renders it ([`super::case_page::requirement_text`]).
    text: super::case_page::RequirementText<'a>,
    /// The notes naming it: each linked, with its title.
    notes: Vec<(Safe<String>, &'a str)>,
    /// How many cases cover it, and their names by file.
    cases: usize,
    by_file: BTreeMap<&'a str, Vec<&'a str>>,
}

impl<'a> RequirementView<'a> {
    fn new(context: &'a Context, r: &'a Requirement) -> RequirementView<'a> {
        let notes = context
            .notes_by_requirement
            .get(&r.id)
            .into_iter()
            .flatten()
            .filter_map(|note| {
                let href = context.links.note(note)?;
                let title = context
                    .note(note)
                    .map_or(note.as_str(), |n| n.title.as_str());
                Some((Safe(href), title))
            })
            .collect();
        let cases = context
            .covering
            .get(r.id.as_str())
            .map(Vec::as_slice)
            .unwrap_or_default();
        let mut by_file: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for case in cases {
            by_file
                .entry(case.id.split("::").next().unwrap_or(""))
                .or_default()
                .push(&case.name);
        }
        RequirementView {
            r,
            text: super::case_page::requirement_text(context, r),
            notes,
            cases: cases.len(),
            by_file,
        }
    }
}

/// A section of `doc` with its requirements, and the files citing it.
fn section_view<'a>(
    context: &'a Context,
    doc: &str,
    anchor: String,
    name: String,
) -> SectionView<'a> {
    let requirements: Vec<&Requirement> = context
        .suite
        .requirements
        .iter()
        .filter(|r| r.doc == doc && r.anchor == anchor)
        .collect();
    let testable = requirements.iter().filter(|r| r.testable).count();
    let covered = requirements
        .iter()
        .filter(|r| r.testable && context.covering.contains_key(r.id.as_str()))
        .count();
    let files = files_citing(context, doc, &anchor)
        .into_iter()
        .map(|f| FileLink {
            href: link(&file_page(f), None),
            id: f.id.clone(),
            cases: f.cases.len(),
        })
        .collect();
    SectionView {
        area: areas::area_of(&format!("{doc}#{anchor}")),
        fragment: fragment(&anchor),
        anchor,
        name,
        covered,
        testable,
        files,
        requirements: requirements
            .into_iter()
            .map(|r| RequirementView::new(context, r))
            .collect(),
    }
}

/// `spec/index.html` and a page per document.
pub fn spec_pages(context: &Context) -> Result<Vec<Page>, String> {
    let documents = documents_view(context);
    let mut pages = Vec::new();
    for d in &documents {
        let sections = sections(context, &d.file)
            .into_iter()
            .map(|(anchor, name)| section_view(context, &d.file, anchor, name))
            .collect();
        let body = DocumentPage { d, sections };
        pages.push(page(document_page(&d.file), d.title.clone(), body)?);
    }
    let index = page(
        "spec/index.html",
        "The specification",
        SpecIndex { toc: documents },
    )?;
    pages.insert(0, index);
    Ok(pages)
}

/// The first sentence of a summary.
fn first_sentence(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.find(". ") {
        Some(at) => text[..=at].to_string(),
        None => text,
    }
}

/// `suite/index.html`: the files by area.
#[derive(Template)]
#[template(path = "suite_index.html")]
struct SuiteIndex {
    cases: usize,
    files: usize,
    areas: Vec<AreaFiles>,
}

/// An area's files on the suite's index.
struct AreaFiles {
    name: &'static str,
    slug: String,
    cases: usize,
    files: Vec<FileSummary>,
}

/// A file on the suite's index: linked, with the first sentence of its
/// summary (rendered Markdown).
struct FileSummary {
    href: Safe<String>,
    id: String,
    cases: usize,
    summary: String,
}

/// `suite/index.html`: the files by area.
pub fn suite_index(context: &Context) -> Result<Page, String> {
    let mut areas_found = Vec::new();
    for area in areas::names() {
        let files: Vec<FileSummary> = context
            .suite
            .files
            .iter()
            .filter(|f| f.cases.first().is_some_and(|c| c.area == area))
            .map(|f| FileSummary {
                href: link(&file_page(f), None),
                id: f.id.clone(),
                cases: f.cases.len(),
                summary: markdown::inline(&first_sentence(&f.summary), &context.links),
            })
            .collect();
        if files.is_empty() {
            continue;
        }
        areas_found.push(AreaFiles {
            name: area,
            slug: area_slug(area),
            cases: files.iter().map(|f| f.cases).sum(),
            files,
        });
    }
    let index = SuiteIndex {
        cases: context.suite.cases().count(),
        files: context.suite.files.len(),
        areas: areas_found,
    };
    page("suite/index.html", "The suite", index)
}

/// `notes/PATH.html`: a spec-note.
#[derive(Template)]
#[template(path = "note.html")]
struct NotePage<'a> {
    /// The note, rendered by [`markdown::to_html`].
    text: String,
    /// The cases whose profiles cite it.
    cases: &'a [&'a Case],
}

/// `notes/index.html`.
#[derive(Template)]
#[template(path = "notes_index.html")]
struct NotesIndex<'a> {
    /// The notes' README, rendered by [`markdown::to_html`].
    readme: String,
    /// Each folder's heading and notes.
    folders: Vec<(&'static str, Vec<NoteLink<'a>>)>,
}

/// A note on the notes' index.
struct NoteLink<'a> {
    href: Safe<String>,
    title: &'a str,
    path: &'a str,
}

/// `notes/index.html` (the notes' README and a list of every note) and a
/// page per note.
pub fn note_pages(context: &Context) -> Result<Vec<Page>, String> {
    let mut pages = Vec::new();
    let mut readme = String::new();
    for note in &context.notes {
        if note.path == "README.md" {
            readme.push_str(&markdown::to_html(&note.markdown, Some(""), &context.links));
            continue;
        }
        let body = NotePage {
            text: markdown::to_html(&note.markdown, Some(note.folder()), &context.links),
            cases: context
                .cases_by_note
                .get(&note.path)
                .map(Vec::as_slice)
                .unwrap_or_default(),
        };
        pages.push(page(note.page(), note.title.clone(), body)?);
    }
    let folders = [
        ("gaps/", "Every spec-note"),
        ("findings/", "Findings, by implementation"),
    ]
    .into_iter()
    .map(|(folder, heading)| {
        let notes = context
            .notes
            .iter()
            .filter(|n| n.path.starts_with(folder))
            .map(|note| NoteLink {
                href: link(&note.page(), None),
                title: &note.title,
                path: &note.path,
            })
            .collect();
        (heading, notes)
    })
    .collect();
    pages.push(page(
        "notes/index.html",
        "Spec notes",
        NotesIndex { readme, folders },
    )?);
    Ok(pages)
}

/// `coverage.html`: covered/testable requirements per area and section.
#[derive(Template)]
#[template(path = "coverage.html")]
struct Coverage {
    covered: usize,
    testable: usize,
    areas: Vec<AreaCoverage>,
}

/// An area's coverage.
struct AreaCoverage {
    name: &'static str,
    covered: usize,
    testable: usize,
    sections: Vec<SectionRow>,
}

/// A section's row of the coverage table.
struct SectionRow {
    covered: usize,
    testable: usize,
    href: Safe<String>,
    title: String,
    section: String,
    finished: bool,
    /// The requirements uncovered and those whose ambiguity has no
    /// spec-note: each list's label and links (HTML the site made), when
    /// not empty.
    lists: Vec<(&'static str, Vec<String>)>,
}

/// Covered and testable requirements of sections.
fn total(sections: &[&SectionCoverage]) -> (usize, usize) {
    sections
        .iter()
        .fold((0, 0), |(c, t), s| (c + s.covered, t + s.testable))
}

/// `coverage.html`: covered/testable requirements per area and section.
pub fn coverage(context: &Context) -> Result<Page, String> {
    let suite = context.suite;
    let covered: BTreeSet<String> = suite
        .cases()
        .flat_map(|c| c.covers.iter().cloned())
        .collect();
    let settled: BTreeSet<String> = context.notes_by_requirement.keys().cloned().collect();
    let sections = coverage_of(&suite.requirements, &covered, &settled);
    let finished = finished_areas(&suite.dir).unwrap_or_default();
    let links = |ids: &[String]| -> Vec<String> {
        ids.iter()
            .map(|id| context.requirement_link(id).unwrap_or_default())
            .collect()
    };
    let row = |s: &SectionCoverage| SectionRow {
        covered: s.covered,
        testable: s.testable,
        href: context.section_link(&s.doc, &s.anchor),
        title: documents::title(&s.doc).to_string(),
        section: s.section.clone(),
        finished: finished.iter().any(|(d, a)| *d == s.doc && *a == s.anchor),
        lists: [
            ("uncovered", &s.uncovered),
            ("ambiguity without a spec-note", &s.unexplained),
        ]
        .into_iter()
        .filter(|(_, ids)| !ids.is_empty())
        .map(|(label, ids)| (label, links(ids)))
        .collect(),
    };
    let mut areas_found = Vec::new();
    for area in areas::names() {
        let in_area: Vec<&SectionCoverage> = sections.iter().filter(|s| s.area() == area).collect();
        if in_area.is_empty() {
            continue;
        }
        let (covered, testable) = total(&in_area);
        areas_found.push(AreaCoverage {
            name: area,
            covered,
            testable,
            sections: in_area
                .into_iter()
                .filter(|s| s.testable > 0 || !s.unexplained.is_empty())
                .map(row)
                .collect(),
        });
    }
    let (covered, testable) = total(&sections.iter().collect::<Vec<_>>());
    let body = Coverage {
        covered,
        testable,
        areas: areas_found,
    };
    page("coverage.html", "Coverage", body)
}

/// `search.html`.
#[derive(Template)]
#[template(path = "search.html")]
struct Search {
    search: Safe<String>,
    index: Safe<String>,
}

pub fn search_page() -> Result<Page, String> {
    let body = Search {
        search: link("search.html", None),
        index: link("assets/search-index.js", None),
    };
    page("search.html", "Search", body)
}

/// `assets/search-index.js`: `[kind, title, link, text]` per entry, links
/// from the root.
pub fn search_index(context: &Context) -> String {
    let strip = |link: String| link.replace(super::html::ROOT, "");
    let mut entries: Vec<serde_json::Value> = Vec::new();
    // A section's entry holds its requirements; site.js makes each an
    // entry `["requirement", id, "", "SECTION TEXT"]`, its link following
    // from the id where the id's first segment names the page.
    for doc in cited_documents(context.suite) {
        for (anchor, name) in sections(context, &doc) {
            let title = format!("{} § {name}", documents::title(&doc));
            let requirements: Vec<serde_json::Value> = context
                .suite
                .requirements
                .iter()
                .filter(|r| r.doc == doc && r.anchor == anchor)
                .map(|r| {
                    let text = r.text.split_whitespace().collect::<Vec<_>>().join(" ");
                    match super::addresses::requirement_page(&r.id) == document_page(&r.doc) {
                        true => serde_json::json!([r.id, text]),
                        false => serde_json::json!([
                            r.id,
                            text,
                            strip(href(&document_page(&r.doc), Some(&r.id)))
                        ]),
                    }
                })
                .collect();
            entries.push(serde_json::json!([
                "section",
                title,
                strip(href(&document_page(&doc), Some(&anchor))),
                "",
                requirements
            ]));
        }
    }
    // A file's entry holds its cases: each its name, or `[name,
    // description]`; site.js makes each an entry `["case", "FILE::NAME",
    // "", description]`, its link and the file's following from the ids.
    for f in &context.suite.files {
        let cases: Vec<serde_json::Value> = f
            .cases
            .iter()
            .map(|c| match c.description.as_deref() {
                Some(d) if !d.is_empty() => serde_json::json!([c.name, d]),
                _ => serde_json::json!(c.name),
            })
            .collect();
        entries.push(serde_json::json!([
            "file",
            f.id,
            "",
            f.summary.split_whitespace().collect::<Vec<_>>().join(" "),
            cases
        ]));
    }
    for note in context.notes.iter().filter(|n| n.path != "README.md") {
        entries.push(serde_json::json!([
            "note",
            note.title,
            strip(href(&note.page(), None)),
            note.path
        ]));
    }
    let json = serde_json::to_string(&entries).unwrap_or_else(|_| "[]".into());
    format!("// Generated by hcl-conformance docs: [kind, title, link from the site's root (none for a\n// file, case or requirement: site.js makes it from the id), text], a file's with its cases\n// (each a name or [name, description]), a section's with its requirements (each [id, text],\n// and the link when the id's first segment does not name the page).\nwindow.HCL_SEARCH = {json};\n")
}

/// An implementation's column heading.
fn heading(i: &Implementation) -> String {
    match i.profile.as_str() {
        "" | "spec" => i.name.clone(),
        profile => format!("{} ({profile})", i.name),
    }
}

/// `matrix.html`: passed / failed / unsupported per area and
/// implementation, each figure linking to the cases behind it.
#[derive(Template)]
#[template(path = "matrix.html")]
struct Matrix<'a> {
    implementations: Vec<ImplementationLink<'a>>,
    rows: Vec<MatrixRow>,
}

/// An implementation of the matrix: its page, heading and description,
/// and its findings note (linked, with its title).
struct ImplementationLink<'a> {
    href: Safe<String>,
    heading: String,
    description: &'a str,
    findings: Option<(Safe<String>, &'a str)>,
}

/// A row of the matrix: an area (or the total), how many cases, and each
/// implementation's cell: each verdict's class, link and count.
struct MatrixRow {
    label: &'static str,
    cases: usize,
    cells: Vec<[(&'static str, Safe<String>, usize); 3]>,
}

/// The verdicts of a matrix cell, in order: their class and name.
const STATUSES: [(&str, &str); 3] = [("p", "passed"), ("f", "failed"), ("u", "unsupported")];

/// The place of a verdict in a matrix cell.
fn status_index(v: &Verdict) -> usize {
    match v.class() {
        "p" => 0,
        "f" => 1,
        _ => 2,
    }
}

/// The matrix's row of `area` (the total when `None`); `None` when no
/// case of the results is in it.
fn matrix_row(
    results: &Results,
    area_of: &BTreeMap<&str, &str>,
    area: Option<&'static str>,
) -> Option<MatrixRow> {
    let ids: Vec<&str> = results
        .cases
        .keys()
        .map(String::as_str)
        .filter(|id| area.is_none_or(|a| area_of.get(id) == Some(&a)))
        .collect();
    if ids.is_empty() {
        return None;
    }
    let cell = |column: usize, i: &Implementation| {
        let mut counts = [0usize; 3];
        for id in &ids {
            if let Some(Some(v)) = results.cases.get(*id).map(|vs| &vs[column]) {
                counts[status_index(v)] += 1;
            }
        }
        let page = implementation_page(&i.name);
        std::array::from_fn(|n| {
            let (class, status) = STATUSES[n];
            let anchor = area.map(|a| format!("{}-{status}", area_slug(a)));
            (class, link(&page, anchor.as_deref()), counts[n])
        })
    };
    Some(MatrixRow {
        label: area.unwrap_or("total"),
        cases: ids.len(),
        cells: results
            .implementations
            .iter()
            .enumerate()
            .map(|(column, i)| cell(column, i))
            .collect(),
    })
}

/// `matrix.html`: passed / failed / unsupported per area and
/// implementation, each figure linking to the cases behind it.
pub fn matrix(context: &Context, results: &Results) -> Result<Page, String> {
    let area_of: BTreeMap<&str, &str> = context
        .suite
        .cases()
        .map(|c| (c.id.as_str(), c.area))
        .collect();
    let rows = areas::names()
        .map(Some)
        .chain([None])
        .filter_map(|area| matrix_row(results, &area_of, area))
        .collect();
    let implementations = results
        .implementations
        .iter()
        .map(|i| ImplementationLink {
            href: link(&implementation_page(&i.name), None),
            heading: heading(i),
            description: &i.description,
            findings: findings(context, i),
        })
        .collect();
    let body = Matrix {
        implementations,
        rows,
    };
    page("matrix.html", "Implementations", body)
}

/// An implementation's findings note, linked, with its title.
fn findings<'a>(context: &'a Context, i: &Implementation) -> Option<(Safe<String>, &'a str)> {
    let n = context.note(&format!("findings/{}.md", i.name))?;
    Some((link(&n.page(), None), n.title.as_str()))
}

/// Where cases are (`files_of.html`): each file linked, with how many of
/// the cases are in it; and how many cases in all.
struct FilesOf<'a> {
    cases: usize,
    files: Vec<(Safe<String>, &'a str, usize)>,
}

impl<'a> FilesOf<'a> {
    fn new(cases: &[(&'a Case, &'a Verdict)]) -> FilesOf<'a> {
        let mut by_file: BTreeMap<&str, usize> = BTreeMap::new();
        for (case, _) in cases {
            *by_file
                .entry(case.id.split("::").next().unwrap_or(""))
                .or_default() += 1;
        }
        FilesOf {
            cases: cases.len(),
            files: by_file
                .into_iter()
                .map(|(file, count)| (link(&suite_page(file), None), file, count))
                .collect(),
        }
    }
}

/// `impl/NAME.html`: an implementation's results by area.
#[derive(Template)]
#[template(path = "implementation.html")]
struct ImplementationPage<'a> {
    i: &'a Implementation,
    heading: String,
    features: &'a [String],
    findings: Option<(Safe<String>, &'a str)>,
    /// The verdicts' names, in the order of [`AreaResults::cases`].
    statuses: [&'static str; 3],
    areas: Vec<AreaResults<'a>>,
}

/// An area's results: its cases by verdict (passed, failed,
/// unsupported), the unsupported ones by what they need and the passed
/// ones by file.
struct AreaResults<'a> {
    name: &'static str,
    slug: String,
    cases: ByStatus<'a>,
    unsupported: BTreeMap<&'a str, FilesOf<'a>>,
    passed: FilesOf<'a>,
}

/// An area's cases by verdict: passed, failed, unsupported.
type ByStatus<'a> = [Vec<(&'a Case, &'a Verdict)>; 3];

/// The areas of an implementation's results (the column `column`), each
/// with its cases by verdict; areas without a verdict left out.
fn area_results<'a>(
    cases: &BTreeMap<&str, &'a Case>,
    results: &'a Results,
    column: usize,
) -> Vec<AreaResults<'a>> {
    let mut found = Vec::new();
    for area in areas::names() {
        let mut by_status: ByStatus = Default::default();
        for (id, verdicts) in &results.cases {
            let (Some(case), Some(Some(v))) = (cases.get(id.as_str()), verdicts.get(column)) else {
                continue;
            };
            if case.area == area {
                by_status[status_index(v)].push((case, v));
            }
        }
        if by_status.iter().all(|l| l.is_empty()) {
            continue;
        }
        let mut by_reason: BTreeMap<&str, Vec<(&Case, &Verdict)>> = BTreeMap::new();
        for (case, v) in &by_status[2] {
            by_reason
                .entry(v.reason.as_str())
                .or_default()
                .push((case, v));
        }
        found.push(AreaResults {
            name: area,
            slug: area_slug(area),
            unsupported: by_reason
                .into_iter()
                .map(|(reason, list)| (reason, FilesOf::new(&list)))
                .collect(),
            passed: FilesOf::new(&by_status[0]),
            cases: by_status,
        });
    }
    found
}

/// `impl/NAME.html`: an implementation's results by area: every failure
/// with its first difference, the unsupported cases by what they need,
/// the passed ones by file; and its findings note.
pub fn implementation_pages(context: &Context, results: &Results) -> Result<Vec<Page>, String> {
    let cases: BTreeMap<&str, &Case> = context.suite.cases().map(|c| (c.id.as_str(), c)).collect();
    let mut pages = Vec::new();
    for (column, i) in results.implementations.iter().enumerate() {
        let body = ImplementationPage {
            i,
            heading: heading(i),
            features: i.features.as_deref().unwrap_or_default(),
            findings: findings(context, i),
            statuses: STATUSES.map(|(_, status)| status),
            areas: area_results(&cases, results, column),
        };
        pages.push(page(implementation_page(&i.name), heading(i), body)?);
    }
    Ok(pages)
}
