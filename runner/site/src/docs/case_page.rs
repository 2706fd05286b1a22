//! The page of a suite file: its summary, then every case, each under the
//! anchor of its id (`FILE::NAME`): name and description, the input (its
//! source highlighted, an expected error's range marked in it), the
//! expected result, the spec sentences the case shows, other profiles'
//! results with their spec-notes, and implementations' verdicts.

use super::highlight::highlight;
use super::html::{escape, fragment, href, styled, Page};
use super::markdown;
use super::notation::{self, Cell, Rows};
use super::Context;
use hcl_conformance_format::documents;
use hcl_conformance_format::kinds::Keyword;
use hcl_conformance_format::requirements::Requirement;
use hcl_conformance_format::suite::{Case, Expectation, SuiteFile};
use std::fmt::Write as _;

/// The range an expectation pins, if it is an error (the first pinned
/// range of `one-of`).
fn expected_range(expect: &Expectation) -> Option<&str> {
    match expect {
        Expectation::Error { range, .. } => range.as_deref(),
        Expectation::OneOf(options) => options.iter().find_map(expected_range),
        _ => None,
    }
}

/// Rows as a definition list; source text highlighted, `mark` (a range)
/// marked in it. Each `dd` keeps its text's lines and spaces (`style.css`:
/// `.io dd`, preformatted as a `pre` would be); the end tags of `dt` and
/// `dd`, which HTML lets a page omit, are left out.
pub fn rows_html(rows: &Rows, mark: Option<&str>) -> String {
    let mut out = String::from("<dl>");
    for (label, cell) in rows {
        let _ = write!(out, "<dt>{}", escape(label));
        match cell {
            Cell::Text(text) => {
                let _ = write!(out, "<dd>{}", styled(text));
            }
            Cell::Source(source, kind) => {
                let offsets = mark.and_then(|r| notation::range_offsets(source, r));
                let _ = write!(out, "<dd>{}", highlight(source, *kind, offsets));
            }
        }
    }
    out.push_str("</dl>");
    out
}

/// The anchor of a requirement's text on a suite page.
fn text_anchor(id: &str) -> String {
    format!("r:{id}")
}

/// The texts of the requirements the cases of a page cover, each once,
/// under the heading of its document and section (`h3.doc`, once for the
/// requirements of a section, which their ids' order keeps together).
fn spec_texts(context: &Context, file: &SuiteFile, out: &mut String) {
    let mut ids: Vec<&str> = file
        .cases
        .iter()
        .flat_map(|c| c.covers.iter().map(String::as_str))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    out.push_str("<h2 id=spec-texts>The spec sentences these cases show</h2>");
    let mut section = None;
    for id in ids {
        let Some(r) = context.suite.requirements.get(id) else {
            continue;
        };
        if section != Some((&r.doc, &r.section)) {
            section = Some((&r.doc, &r.section));
            let _ = write!(
                out,
                "<h3 class=doc>{} § {}</h3>",
                escape(documents::title(&r.doc)),
                escape(&r.section),
            );
        }
        let _ = write!(
            out,
            "<div class=req id=\"{}\">{}",
            escape(&text_anchor(id)),
            context.requirement_link(id, None).unwrap_or_default(),
        );
        out.push_str(&requirement_text(context, r));
        out.push_str("</div>");
    }
}

/// A requirement's text: a grammar rule as written, prose as Markdown.
pub fn requirement_text(context: &Context, r: &Requirement) -> String {
    match r.kind.as_str() {
        "grammar" => format!("<blockquote><pre>{}</pre></blockquote>", escape(&r.text)),
        _ => format!(
            "<blockquote>{}</blockquote>",
            markdown::inline(&r.text, &context.links)
        ),
    }
}

fn case_html(context: &Context, case: &Case, out: &mut String) {
    // The site's script links the heading to the case's own anchor. A
    // case's section is known by its id, `FILE::NAME` (`style.css`,
    // `site.js`: `section[id*="::"]`).
    let _ = write!(
        out,
        "<section id=\"{}\"><h3>{} <small>{}</small></h3>",
        escape(&case.id),
        escape(&case.name),
        case.input.kind().name()
    );
    if let Some(description) = &case.description {
        let _ = write!(
            out,
            "<p class=desc>{}</p>",
            markdown::inline(description, &context.links)
        );
    }
    let range = expected_range(&case.expect);
    // Two columns: the input's rows, and the expected result's with what
    // goes with it. The headings Input, Expected result and What the spec
    // says are the style sheet's (`.io > dl::before`, `p.rs::before`).
    out.push_str("<div class=io>");
    out.push_str(&rows_html(&notation::input(&case.input), range));
    out.push_str("<div>");
    out.push_str(&rows_html(&notation::expectation(&case.expect), None));
    if let Some(why) = &case.implementation_defined {
        let _ = write!(
            out,
            "<p class=idef><b>Implementation-defined:</b> {}</p>",
            markdown::inline(why, &context.links)
        );
    }
    for (profile, p) in &case.profiles {
        let _ = write!(
            out,
            "<div class=profile><h4>Under the profile <code>{}</code></h4>",
            escape(profile)
        );
        out.push_str(&rows_html(&notation::expectation(&p.expect), None));
        let note = context.note(&p.note);
        match note {
            Some(n) => {
                let _ = write!(
                    out,
                    "<p>Why: <a href=\"#{}\">{}</a></p>",
                    escape(&fragment(&note_anchor(&n.path))),
                    escape(&n.title)
                );
            }
            None => {
                let _ = write!(out, "<p>Why: {}</p>", escape(&p.note));
            }
        }
        out.push_str("</div>");
    }
    out.push_str("</div></div>");
    if !case.covers.is_empty() {
        // Each text is quoted once, at the page's end (`spec_texts`), with
        // its section, under the anchor `r:ID`; the site's script links
        // each id to it and shows the text here too
        // (`super::links::REQUIREMENT_LIST`). The paragraph's end tag is optional.
        out.push_str("<p class=rs>");
        for (i, id) in case.covers.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&escape(id));
        }
    }
    // The site's script adds the implementations' verdicts
    // (`assets/verdicts.js`).
    out.push_str("</section>\n");
}

/// The anchor of a note rendered on a suite page.
pub fn note_anchor(path: &str) -> String {
    format!("note:{path}")
}

/// The page of one suite file.
pub fn file_page(context: &Context, file: &SuiteFile) -> Page {
    let mut body = String::new();
    let _ = write!(body, "<h1>{}</h1>", escape(&file.id));
    let _ = write!(
        body,
        "<p class=meta><code>suite/{}.yaml</code> · {} cases · area: <a href=\"{}\">{}</a></p>",
        escape(&file.id),
        file.cases.len(),
        href(
            "suite/index.html",
            Some(&format!(
                "area-{}",
                area_slug(file.cases.first().map_or("", |c| c.area))
            ))
        ),
        escape(file.cases.first().map_or("", |c| c.area)),
    );
    body.push_str("<p class=spec>Spec: ");
    for (i, citation) in file.spec.iter().enumerate() {
        let (doc, anchor) = citation.split_once('#').unwrap_or((citation, ""));
        if i > 0 {
            body.push_str(" · ");
        }
        let _ = write!(
            body,
            "<a href=\"{}\">{}</a>",
            context.section_href(doc, anchor),
            escape(&context.section_name(doc, anchor))
        );
    }
    body.push_str("</p>");
    let _ = write!(
        body,
        "<div class=summary>{}</div>",
        markdown::to_html(&file.summary, None, &context.links)
    );
    // The site's script lists the cases here, from their headings.
    body.push_str("<nav class=toc id=cases><h2>Cases</h2></nav>");
    for case in &file.cases {
        case_html(context, case, &mut body);
    }
    spec_texts(context, file, &mut body);
    // The notes that the cases' profiles cite, each once: what the suite
    // expects, and a link to the whole note.
    let mut notes: Vec<&str> = file
        .cases
        .iter()
        .flat_map(|c| c.profiles.values().map(|p| p.note.as_str()))
        .collect();
    notes.sort_unstable();
    notes.dedup();
    let notes: Vec<_> = notes.into_iter().filter_map(|n| context.note(n)).collect();
    if !notes.is_empty() {
        body.push_str("<h2>Spec-notes of these cases</h2>");
        for note in notes {
            let _ = write!(
                body,
                "<div class=note id=\"{}\"><h3>{}</h3>{}<p><a href=\"{}\">The whole note: the question, hashicorp/hcl's behaviour, why.</a></p></div>",
                escape(&note_anchor(&note.path)),
                escape(&note.title),
                markdown::to_html(markdown::section(&note.markdown, "What the suite expects"), Some(note.folder()), &context.links),
                href(&note.page(), None),
            );
        }
    }
    if context.results.is_some() {
        let _ = write!(
            body,
            "<script src=\"{}\"></script>",
            href("assets/verdicts.js", None)
        );
    }
    Page::new(super::file_page(file), file.id.clone(), body)
}

/// An area's name as an anchor.
pub fn area_slug(area: &str) -> String {
    area.replace(' ', "-")
}
