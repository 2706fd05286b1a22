//! The page of a suite file: its summary, then every case, each under the
//! anchor of its id (`FILE::NAME`): name and description, the input (its
//! source highlighted, an expected error's range marked in it), the
//! expected result, the spec sentences the case shows, other profiles'
//! results with their spec-notes, and implementations' verdicts.

//!
//! The page is the template `templates/file.html`, each case
//! `templates/case.html`, each case's rows `templates/rows.html`.

use super::context::Context;
use super::highlight::{highlight, Highlighted};
use super::html::{fragment, link, styled, Page, StyledHtml};
use super::markdown;
use super::notation::{self, Cell, Rows};
use askama::filters::Safe;
use askama::Template;
use hcl_conformance_format::documents;
use hcl_conformance_format::kinds::Keyword;
use hcl_conformance_format::requirements::Requirement;
use hcl_conformance_format::suite::{Case, Expectation, SuiteFile};

/// The range an expectation pins, if it is an error (the first pinned
/// range of `one-of`).
fn expected_range(expect: &Expectation) -> Option<&str> {
    match expect {
        Expectation::Error { range, .. } => range.as_deref(),
        Expectation::OneOf(options) => options.iter().find_map(expected_range),
        _ => None,
    }
}

/// A row's value on the page: styled text, or highlighted source.
enum CellHtml<'a> {
    Text(StyledHtml<'a>),
    Source(Highlighted<'a>),
}

/// Rows as a definition list (`templates/rows.html`).
#[derive(Template)]
#[template(path = "rows.html")]
pub struct RowsHtml<'a> {
    rows: Vec<(&'a str, CellHtml<'a>)>,
}

/// Rows as a definition list; source text highlighted.
pub fn rows_html(rows: &Rows) -> RowsHtml<'_> {
    marked_rows_html(rows, &None)
}

/// Rows as a definition list; source text highlighted, `mark` (a range)
/// marked in it.
pub fn marked_rows_html<'a>(rows: &'a Rows, mark: &Option<&str>) -> RowsHtml<'a> {
    let rows = rows
        .iter()
        .map(|(label, cell)| {
            let cell = match cell {
                Cell::Text(text) => CellHtml::Text(styled(text)),
                Cell::Source(source, kind) => {
                    let offsets = mark.and_then(|r| notation::range_offsets(source, r));
                    CellHtml::Source(highlight(source, *kind, offsets))
                }
            };
            (label.as_str(), cell)
        })
        .collect();
    RowsHtml { rows }
}

/// The anchor of a requirement's text on a suite page.
fn text_anchor(id: &str) -> String {
    format!("r:{id}")
}

/// The text of a requirement a case of the page covers, quoted once at
/// the page's end, under the heading of its document and section (when
/// it is not the previous text's).
struct QuotedText<'a> {
    /// `Title § Section`.
    heading: Option<String>,
    anchor: String,
    /// The requirement's id, linked (HTML the site made).
    link: String,
    /// Its text ([`requirement_text`]).
    text: RequirementText<'a>,
}

/// The texts of the requirements the cases of a page cover, each once,
/// under the heading of its document and section (`h3.doc`, once for the
/// requirements of a section, which their ids' order keeps together).
fn spec_texts<'a>(context: &'a Context, file: &SuiteFile) -> Vec<QuotedText<'a>> {
    let mut ids: Vec<&str> = file
        .cases
        .iter()
        .flat_map(|c| c.covers.iter().map(String::as_str))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let mut section = None;
    let mut texts = Vec::new();
    for id in ids {
        let Some(r) = context.suite.requirements.get(id) else {
            continue;
        };
        let heading = (section != Some((&r.doc, &r.section)))
            .then(|| format!("{} § {}", documents::title(&r.doc), r.section));
        section = Some((&r.doc, &r.section));
        texts.push(QuotedText {
            heading,
            anchor: text_anchor(id),
            link: context.requirement_link(id).unwrap_or_default(),
            text: requirement_text(context, r),
        });
    }
    texts
}

/// A requirement's text (`templates/requirement_text.html`): a grammar
/// rule as written, prose as Markdown.
#[derive(Template)]
#[template(path = "requirement_text.html")]
pub struct RequirementText<'a> {
    grammar: Option<&'a str>,
    /// The prose, rendered by [`markdown::inline`].
    prose: String,
}

/// A requirement's text: a grammar rule as written, prose as Markdown.
pub fn requirement_text<'a>(context: &Context, r: &'a Requirement) -> RequirementText<'a> {
    match r.kind.as_str() {
        "grammar" => RequirementText {
            grammar: Some(&r.text),
            prose: String::new(),
        },
        _ => RequirementText {
            grammar: None,
            prose: markdown::inline(&r.text, &context.links),
        },
    }
}

/// A case on its file's page (`templates/case.html`).
struct CaseView<'a> {
    case: &'a Case,
    /// Its description, rendered by [`markdown::inline`].
    description: Option<String>,
    input: Rows,
    /// The range an expected error pins, marked in the input.
    range: Option<&'a str>,
    expected: Rows,
    /// Why the result is implementation-defined, rendered.
    implementation_defined: Option<String>,
    profiles: Vec<ProfileView<'a>>,
}

/// Another profile's result of a case, with the spec-note that explains
/// it: its anchor on the page when the note is known, and its title (or
/// the path the profile names).
struct ProfileView<'a> {
    name: &'a str,
    expected: Rows,
    note_anchor: Option<String>,
    note: &'a str,
}

impl<'a> CaseView<'a> {
    fn new(context: &'a Context, case: &'a Case) -> CaseView<'a> {
        let inline = |text: &str| markdown::inline(text, &context.links);
        let profiles = case
            .profiles
            .iter()
            .map(|(name, p)| {
                let note = context.note(&p.note);
                ProfileView {
                    name,
                    expected: notation::expectation(&p.expect),
                    note_anchor: note.map(|n| fragment(&note_anchor(&n.path))),
                    note: note.map_or(p.note.as_str(), |n| n.title.as_str()),
                }
            })
            .collect();
        CaseView {
            case,
            description: case.description.as_deref().map(inline),
            input: notation::input(&case.input),
            range: expected_range(&case.expect),
            expected: notation::expectation(&case.expect),
            implementation_defined: case.implementation_defined.as_deref().map(inline),
            profiles,
        }
    }
}

/// The anchor of a note rendered on a suite page.
pub fn note_anchor(path: &str) -> String {
    format!("note:{path}")
}

/// A spec-note on a suite page: what the suite expects (rendered), and a
/// link to the whole note.
struct NoteView<'a> {
    anchor: String,
    title: &'a str,
    expects: String,
    href: Safe<String>,
}

/// The page of one suite file (`templates/file.html`).
#[derive(Template)]
#[template(path = "file.html")]
struct FilePage<'a> {
    file: &'a SuiteFile,
    area: &'a str,
    area_href: Safe<String>,
    /// The sections the file cites: each linked, with its name.
    spec: Vec<(Safe<String>, String)>,
    /// The file's summary, rendered by [`markdown::to_html`].
    summary: String,
    cases: Vec<CaseView<'a>>,
    texts: Vec<QuotedText<'a>>,
    notes: Vec<NoteView<'a>>,
    /// The script of the implementations' verdicts, with a matrix run.
    verdicts: Option<Safe<String>>,
}

/// The notes that the cases' profiles cite, each once: what the suite
/// expects, and a link to the whole note.
fn notes_of<'a>(context: &'a Context, file: &SuiteFile) -> Vec<NoteView<'a>> {
    let mut notes: Vec<&str> = file
        .cases
        .iter()
        .flat_map(|c| c.profiles.values().map(|p| p.note.as_str()))
        .collect();
    notes.sort_unstable();
    notes.dedup();
    notes
        .into_iter()
        .filter_map(|n| context.note(n))
        .map(|note| NoteView {
            anchor: note_anchor(&note.path),
            title: &note.title,
            expects: markdown::to_html(
                markdown::section(&note.markdown, "What the suite expects"),
                Some(note.folder()),
                &context.links,
            ),
            href: link(&note.page(), None),
        })
        .collect()
}

/// The page of one suite file.
pub fn file_page(context: &Context, file: &SuiteFile) -> Result<Page, String> {
    let area = file.cases.first().map_or("", |c| c.area);
    let spec = file
        .spec
        .iter()
        .map(|citation| {
            let (doc, anchor) = citation.split_once('#').unwrap_or((citation, ""));
            (
                context.section_link(doc, anchor),
                context.section_name(doc, anchor),
            )
        })
        .collect();
    let body = FilePage {
        file,
        area,
        area_href: link(
            "suite/index.html",
            Some(&format!("area-{}", area_slug(area))),
        ),
        spec,
        summary: markdown::to_html(&file.summary, None, &context.links),
        cases: file
            .cases
            .iter()
            .map(|c| CaseView::new(context, c))
            .collect(),
        texts: spec_texts(context, file),
        notes: notes_of(context, file),
        verdicts: context.results.map(|_| link("assets/verdicts.js", None)),
    };
    Page::rendered(super::addresses::file_page(file), file.id.clone(), &body)
}

/// An area's name as an anchor.
pub fn area_slug(area: &str) -> String {
    area.replace(' ', "-")
}
