//! The pages other than the suite files': home, the specification's
//! documents, the suite's index, spec-notes, coverage, search, and the
//! results of implementations.

use super::case_page::area_slug;
use super::html::{escape, fragment, href, Page};
use super::markdown;
use super::results::{Implementation, Results, Verdict};
use super::{cited_documents, document_page, file_page, implementation_page, suite_page, Context};
use hcl_conformance_format::areas;
use hcl_conformance_format::documents;
use hcl_conformance_format::requirements::{
    coverage as coverage_of, finished_areas, SectionCoverage,
};
use hcl_conformance_format::suite::Case;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

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
fn files_citing<'a>(
    context: &'a Context,
    doc: &str,
    anchor: &str,
) -> Vec<&'a hcl_conformance_format::suite::SuiteFile> {
    let citation = format!("{doc}#{anchor}");
    context
        .suite
        .files
        .iter()
        .filter(|f| f.spec.contains(&citation))
        .collect()
}

/// The table of contents of the specification: each document, its
/// sections as links.
fn table_of_contents(context: &Context) -> String {
    let mut out = String::from("<div class=spec-toc>");
    for doc in cited_documents(context.suite) {
        let page = document_page(&doc);
        let _ = write!(
            out,
            "<section><h3><a href=\"{}\">{}</a></h3><p class=meta>{}</p><ul>",
            href(&page, None),
            escape(documents::title(&doc)),
            escape(documents::document(&doc).map_or(doc.as_str(), |d| d.version))
        );
        for (anchor, name) in sections(context, &doc) {
            let _ = write!(
                out,
                "<li><a href=\"{}\">{}</a></li>",
                href(&page, Some(&anchor)),
                escape(&name)
            );
        }
        out.push_str("</ul></section>");
    }
    out.push_str("</div>");
    out
}

pub fn home(context: &Context) -> Page {
    let suite = context.suite;
    let cases = suite.cases().count();
    let testable = suite.requirements.iter().filter(|r| r.testable).count();
    let covered: BTreeSet<&str> = suite
        .cases()
        .flat_map(|c| c.covers.iter().map(String::as_str))
        .collect();
    let mut body = String::new();
    let _ = write!(
        body,
        "<h1>The HCL conformance suite</h1>\
<p class=lead>{cases} cases that pin down how HCL v2 (HashiCorp Configuration Language) behaves, \
each written from the specification, citing the sentences it checks, and checked against the \
reference interpreter and hashicorp/hcl v2.14.1. Read them as executable documentation of the \
language, or run them against your implementation.</p>\
<form class=big-search action=\"{}\"><input type=search name=q placeholder=\"Search: splat, heredoc, unify…\" aria-label=Search><button>Search</button></form>\
<p>{} of {testable} testable requirements are covered (<a href=\"{}\">coverage</a>); \
{} files of cases (<a href=\"{}\">the suite</a>); {} spec-notes (<a href=\"{}\">notes</a>).</p>",
        href("search.html", None),
        covered.iter().filter(|id| suite.requirements.get(id).is_some_and(|r| r.testable)).count(),
        href("coverage.html", None),
        suite.files.len(),
        href("suite/index.html", None),
        context.notes.len().saturating_sub(1),
        href("notes/index.html", None),
    );
    body.push_str("<h2>The specification, section by section</h2>\
<p>Each section lists its requirements, the spec's own sentences, and the cases that pin each one.</p>");
    body.push_str(&table_of_contents(context));
    body.push_str(
        "<h2 id=reading>How to read a case</h2>\
<p>A case file covers one topic of the spec: its header cites the sections and sums up what they say. \
Each case shows one behaviour, and is named after it. On its page a case shows:</p>\
<ul>\
<li><b>the input</b>: the source text (an expression, a template, a configuration file, JSON), \
highlighted by the reference interpreter's own lexer, or the values and types an operation takes. \
Variables and values are written in HCL notation, each with its type after <code>#</code>;</li>\
<li><b>the expected result</b>: a value with its type, a type, a body (written as configuration, \
each attribute's type after <code>#</code>), the result of a static analysis, or an error: the \
<i>phase</i> that rejects the input (<code>parse</code>, <code>eval</code>, <code>conversion</code>, \
<code>unification</code>, <code>static</code>, <code>schema</code>) and, where the case pins it, the \
source range, marked in the input. Message text is never part of a result;</li>\
<li><b>what the spec says</b>: the requirements the case covers, quoted from the spec;</li>\
<li><b>implementation-defined</b>: where the spec leaves the result open, the sentence saying what \
is open, and every result the case accepts (<i>either</i> … <i>or</i>);</li>\
<li><b>under the profile <code>hcl-v2.14</code></b>: where hashicorp/hcl v2.14.1 departs from what \
the spec decides, its result, and the spec-note that explains the choice;</li>\
<li><b>implementations</b>: with a matrix run, every implementation's verdict: passed, failed \
(with the first difference) or unsupported (with what it lacks).</li>\
</ul>\
<p>Every case has a stable address: <code>suite/FILE.html#FILE::NAME</code>, or \
<code>index.html#FILE::NAME</code>, which leads there. <code>hcl-conformance show FILE::NAME</code> \
shows the same in a terminal, and runs the case.</p>\
<h2 id=run>Running the suite against your implementation</h2>\
<p>Put the implementation behind the runner's protocol: an adapter reads one JSON request a line \
on standard input (a case's input) and writes one answer a line; the <code>hello</code> request's \
answer declares which kinds of case and which features it supports, and the others are reported as \
unsupported, not failed. Then run, in CI:</p>\
<pre>cargo run --release --bin hcl-conformance -- --impl './my-adapter' \\\n    --expect-failures known-failures.txt --report junit=conformance.xml</pre>\
<p>The run fails on any failure the known-failure list does not name, and on any listed case that \
passes, so the list always says where the implementation stands \
(<code>--write-failures FILE</code> writes it). The protocol is <code>runner/PROTOCOL.md</code>; \
the README's CI section has a complete adapter and script.</p>\
<h2 id=documents>The documents</h2><table><tr><th>document</th><th>version</th><th>file</th></tr>"
    );
    for doc in cited_documents(suite) {
        let d = documents::document(&doc);
        let title = escape(documents::title(&doc));
        let published = d.and_then(|d| d.url).map_or(String::new(), |u| {
            format!(" (<a href=\"{}\">published</a>)", escape(u))
        });
        let _ = write!(
            body,
            "<tr><td><a href=\"{}\">{title}</a>{published}</td><td>{}</td><td><code>{}</code></td></tr>",
            href(&document_page(&doc), None),
            escape(d.map_or("", |d| d.version)),
            escape(&doc)
        );
    }
    body.push_str("</table>");
    Page::new("index.html", "Home", body)
}

/// A requirement: its id, kind and text, its ambiguity and notes, and the
/// cases that cover it, grouped by file.
fn requirement_html(
    context: &Context,
    r: &hcl_conformance_format::requirements::Requirement,
    out: &mut String,
) {
    let testable = if r.testable {
        ""
    } else {
        " <span class=tag>not testable</span>"
    };
    // The site's script links the id to the requirement's own anchor.
    let _ = write!(
        out,
        "<div class=req id=\"{}\"><p class=rid>{} <span class=tag>{}</span>{testable}</p>",
        escape(&r.id),
        escape(&r.id),
        escape(&r.kind)
    );
    out.push_str(&super::case_page::requirement_text(context, r));
    if let Some(ambiguity) = &r.ambiguity {
        let _ = write!(out, "<p class=amb><b>Ambiguity:</b> {}", escape(ambiguity));
        for note in context
            .notes_by_requirement
            .get(&r.id)
            .into_iter()
            .flatten()
        {
            if let Some(link) = context.links.note(note) {
                let title = context
                    .note(note)
                    .map_or(note.as_str(), |n| n.title.as_str());
                let _ = write!(
                    out,
                    " · spec-note: <a href=\"{link}\">{}</a>",
                    escape(title)
                );
            }
        }
        out.push_str("</p>");
    }
    let cases = context
        .covering
        .get(r.id.as_str())
        .map(Vec::as_slice)
        .unwrap_or_default();
    if !cases.is_empty() {
        let _ = write!(
            out,
            "<p class=pins>Pinned by {} case{}:</p><ul class=pins>",
            cases.len(),
            if cases.len() == 1 { "" } else { "s" }
        );
        let mut by_file: BTreeMap<&str, Vec<&Case>> = BTreeMap::new();
        for case in cases {
            by_file
                .entry(case.id.split("::").next().unwrap_or(""))
                .or_default()
                .push(case);
        }
        // The site's script leads each list with its file's name, linked,
        // and links each name (`super::links::CASE_LIST`).
        for (file, cases) in by_file {
            let _ = write!(out, "<li data-f=\"{}\">", escape(file));
            for (i, case) in cases.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&escape(&case.name));
            }
        }
        out.push_str("</ul>");
    } else if r.testable {
        out.push_str("<p class=pins>No case covers it yet.</p>");
    }
    out.push_str("</div>");
}

/// `spec/index.html` and a page per document.
pub fn spec_pages(context: &Context) -> Vec<Page> {
    let mut pages = Vec::new();
    let index = format!(
        "<h1>The specification</h1><p>The documents the suite is written from, each section with its \
requirements and the cases that pin them.</p>{}",
        table_of_contents(context)
    );
    pages.push(Page::new("spec/index.html", "The specification", index));
    for doc in cited_documents(context.suite) {
        let d = documents::document(&doc);
        let mut body = String::new();
        let _ = write!(
            body,
            "<h1>{}</h1><p class=meta>{} · cited as <code>{}</code>",
            escape(documents::title(&doc)),
            escape(d.map_or("", |d| d.version)),
            escape(&doc)
        );
        if let Some(url) = d.and_then(|d| d.url) {
            let _ = write!(body, " · <a href=\"{}\">published text</a>", escape(url));
        }
        body.push_str("</p><nav class=toc><ol>");
        let sections = sections(context, &doc);
        for (anchor, name) in &sections {
            let _ = write!(
                body,
                "<li><a href=\"#{}\">{}</a></li>",
                escape(&fragment(anchor)),
                escape(name)
            );
        }
        body.push_str("</ol></nav>");
        for (anchor, name) in &sections {
            let requirements: Vec<_> = context
                .suite
                .requirements
                .iter()
                .filter(|r| r.doc == doc && r.anchor == *anchor)
                .collect();
            let testable = requirements.iter().filter(|r| r.testable).count();
            let covered = requirements
                .iter()
                .filter(|r| r.testable && context.covering.contains_key(r.id.as_str()))
                .count();
            let _ = write!(
                body,
                "<section class=sec id=\"{}\"><h2><a class=self href=\"#{}\">{}</a></h2>",
                escape(anchor),
                escape(&fragment(anchor)),
                escape(name)
            );
            let _ = write!(
                body,
                "<p class=meta>area: {} · {covered} of {testable} testable requirements covered",
                escape(areas::area_of(&format!("{doc}#{anchor}")))
            );
            if let Some(url) = d.and_then(|d| d.url) {
                let _ = write!(
                    body,
                    " · <a href=\"{}#{}\">in the published text</a>",
                    escape(url),
                    fragment(anchor)
                );
            }
            body.push_str("</p>");
            let files = files_citing(context, &doc, anchor);
            if !files.is_empty() {
                body.push_str("<p class=files>Case files: ");
                for (i, f) in files.iter().enumerate() {
                    if i > 0 {
                        body.push_str(" · ");
                    }
                    let _ = write!(
                        body,
                        "<a href=\"{}\">{}</a> ({} cases)",
                        href(&file_page(f), None),
                        escape(&f.id),
                        f.cases.len()
                    );
                }
                body.push_str("</p>");
            }
            for r in requirements {
                requirement_html(context, r, &mut body);
            }
            body.push_str("</section>");
        }
        pages.push(Page::new(document_page(&doc), documents::title(&doc), body));
    }
    pages
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
pub fn suite_index(context: &Context) -> Page {
    let mut body = format!(
        "<h1>The suite</h1><p>{} cases in {} files, by area of the spec.</p>",
        context.suite.cases().count(),
        context.suite.files.len()
    );
    for area in areas::names() {
        let files: Vec<_> = context
            .suite
            .files
            .iter()
            .filter(|f| f.cases.first().is_some_and(|c| c.area == area))
            .collect();
        if files.is_empty() {
            continue;
        }
        let count: usize = files.iter().map(|f| f.cases.len()).sum();
        let _ = write!(
            body,
            "<h2 id=\"area-{}\">{} <span class=meta>({count} cases)</span></h2><table class=files>",
            escape(&area_slug(area)),
            escape(area)
        );
        for f in files {
            let _ = write!(
                body,
                "<tr><td><a href=\"{}\">{}</a></td><td class=num>{}</td><td>{}</td></tr>",
                href(&file_page(f), None),
                escape(&f.id),
                f.cases.len(),
                markdown::inline(&first_sentence(&f.summary), &context.links)
            );
        }
        body.push_str("</table>");
    }
    Page::new("suite/index.html", "The suite", body)
}

/// `notes/index.html` (the notes' README and a list of every note) and a
/// page per note.
pub fn note_pages(context: &Context) -> Vec<Page> {
    let mut pages = Vec::new();
    let mut index = String::new();
    for note in &context.notes {
        if note.path == "README.md" {
            index.push_str(&markdown::to_html(&note.markdown, Some(""), &context.links));
            continue;
        }
        let mut body = markdown::to_html(&note.markdown, Some(note.folder()), &context.links);
        if let Some(cases) = context.cases_by_note.get(&note.path) {
            let _ = write!(
                body,
                "<h2>Cases that record another profile's result with this note</h2><ul>"
            );
            for case in cases {
                let _ = write!(body, "<li>{}", context.case_link(case));
            }
            body.push_str("</ul>");
        }
        pages.push(Page::new(note.page(), note.title.clone(), body));
    }
    for (folder, heading) in [
        ("gaps/", "Every spec-note"),
        ("findings/", "Findings, by implementation"),
    ] {
        let _ = write!(index, "<h2>{heading}</h2><ul>");
        for note in context.notes.iter().filter(|n| n.path.starts_with(folder)) {
            let _ = write!(
                index,
                "<li><a href=\"{}\">{}</a> <code>{}</code></li>",
                href(&note.page(), None),
                escape(&note.title),
                escape(&note.path)
            );
        }
        index.push_str("</ul>");
    }
    pages.push(Page::new("notes/index.html", "Spec notes", index));
    pages
}

/// `coverage.html`: covered/testable requirements per area and section.
pub fn coverage(context: &Context) -> Page {
    let suite = context.suite;
    let covered: BTreeSet<String> = suite
        .cases()
        .flat_map(|c| c.covers.iter().cloned())
        .collect();
    let settled: BTreeSet<String> = context.notes_by_requirement.keys().cloned().collect();
    let sections = coverage_of(&suite.requirements, &covered, &settled);
    let finished = finished_areas(&suite.dir).unwrap_or_default();
    let total = |s: &[&SectionCoverage]| {
        s.iter()
            .fold((0, 0), |(c, t), s| (c + s.covered, t + s.testable))
    };
    let all: Vec<&SectionCoverage> = sections.iter().collect();
    let (c, t) = total(&all);
    let mut body = format!(
        "<h1>Coverage</h1><p>{c} of {t} testable requirements are covered by at least one case \
(<code>hcl-conformance coverage</code> prints the same table). A section marked <i>finished</i> \
must stay fully covered (<code>suite/finished-areas.txt</code>).</p>"
    );
    for area in areas::names() {
        let in_area: Vec<&SectionCoverage> = sections.iter().filter(|s| s.area() == area).collect();
        if in_area.is_empty() {
            continue;
        }
        let (c, t) = total(&in_area);
        let _ = write!(body, "<h2>{} <span class=meta>{c}/{t}</span></h2><table class=cov><tr><th>covered</th><th>section</th><th></th></tr>", escape(area));
        for s in in_area {
            if s.testable == 0 && s.unexplained.is_empty() {
                continue;
            }
            let done = finished.iter().any(|(d, a)| *d == s.doc && *a == s.anchor);
            let _ = write!(
                body,
                "<tr><td class=num>{}/{}</td><td><a href=\"{}\">{} § {}</a>{}</td><td>",
                s.covered,
                s.testable,
                context.section_href(&s.doc, &s.anchor),
                escape(documents::title(&s.doc)),
                escape(&s.section),
                if done {
                    " <span class=tag>finished</span>"
                } else {
                    ""
                }
            );
            let ids = |label: &str, ids: &[String], out: &mut String| {
                if ids.is_empty() {
                    return;
                }
                let _ = write!(out, "{label}: ");
                for (i, id) in ids.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&context.requirement_link(id, None).unwrap_or_default());
                }
            };
            ids("uncovered", &s.uncovered, &mut body);
            ids("ambiguity without a spec-note", &s.unexplained, &mut body);
            body.push_str("</td></tr>");
        }
        body.push_str("</table>");
    }
    Page::new("coverage.html", "Coverage", body)
}

pub fn search_page() -> Page {
    let body = format!(
        "<h1>Search</h1><form class=big-search action=\"{}\"><input type=search id=q name=q placeholder=\"Search cases, files, requirements, notes\" aria-label=Search><button>Search</button></form>\
<p id=search-status>Searches case names and descriptions, file summaries, requirement texts, sections and notes, \
in this copy of the site (no network). Every word must match.</p><div id=results></div>\
<script src=\"{}\"></script>",
        href("search.html", None),
        href("assets/search-index.js", None)
    );
    Page::new("search.html", "Search", body)
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
                    match super::requirement_page(&r.id) == document_page(&r.doc) {
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
pub fn matrix(context: &Context, results: &Results) -> Page {
    let mut body = String::from(
        "<h1>Implementations</h1><p>Every implementation with an adapter, run over the whole suite by \
<code>hcl-conformance matrix</code>. Each cell is <b class=p>passed</b> / <b class=f>failed</b> / \
<b class=u>unsupported</b>: an unsupported case needs a kind of request or a feature the implementation \
does not declare. Each figure links to its cases.</p><table class=matrix><tr><th>area</th><th>cases</th>",
    );
    for i in &results.implementations {
        let _ = write!(
            body,
            "<th><a href=\"{}\">{}</a></th>",
            href(&implementation_page(&i.name), None),
            escape(&heading(i))
        );
    }
    body.push_str("</tr>");
    let area_of: BTreeMap<&str, &str> = context
        .suite
        .cases()
        .map(|c| (c.id.as_str(), c.area))
        .collect();
    let mut rows: Vec<Option<&str>> = areas::names().map(Some).collect();
    rows.push(None);
    for area in rows {
        let ids: Vec<&str> = results
            .cases
            .keys()
            .map(String::as_str)
            .filter(|id| area.is_none_or(|a| area_of.get(id) == Some(&a)))
            .collect();
        if ids.is_empty() {
            continue;
        }
        let label = area.unwrap_or("total");
        let _ = write!(
            body,
            "<tr><th>{}</th><td class=num>{}</td>",
            escape(label),
            ids.len()
        );
        for (column, i) in results.implementations.iter().enumerate() {
            let mut counts = [0usize; 3];
            for id in &ids {
                if let Some(Some(v)) = results.cases.get(*id).map(|vs| &vs[column]) {
                    counts[match v.class() {
                        "p" => 0,
                        "f" => 1,
                        _ => 2,
                    }] += 1;
                }
            }
            let page = implementation_page(&i.name);
            let anchor = |status: &str| area.map(|a| format!("{}-{status}", area_slug(a)));
            let _ = write!(
                body,
                "<td class=num><a class=p href=\"{}\">{}</a> / <a class=f href=\"{}\">{}</a> / <a class=u href=\"{}\">{}</a></td>",
                href(&page, anchor("passed").as_deref()),
                counts[0],
                href(&page, anchor("failed").as_deref()),
                counts[1],
                href(&page, anchor("unsupported").as_deref()),
                counts[2]
            );
        }
        body.push_str("</tr>");
    }
    body.push_str("</table><h2>The implementations</h2><ul>");
    for i in &results.implementations {
        let findings = context.note(&format!("findings/{}.md", i.name));
        let _ = write!(
            body,
            "<li><a href=\"{}\">{}</a>: {}",
            href(&implementation_page(&i.name), None),
            escape(&heading(i)),
            escape(&i.description)
        );
        if let Some(n) = findings {
            let _ = write!(
                body,
                " · findings: <a href=\"{}\">{}</a>",
                href(&n.page(), None),
                escape(&n.title)
            );
        }
        body.push_str("</li>");
    }
    body.push_str("</ul>");
    Page::new("matrix.html", "Implementations", body)
}

/// Where cases are: each file linked, with how many of the cases are in
/// it.
fn files_of(cases: &[(&Case, &Verdict)], out: &mut String) {
    let mut by_file: BTreeMap<&str, usize> = BTreeMap::new();
    for (case, _) in cases {
        *by_file
            .entry(case.id.split("::").next().unwrap_or(""))
            .or_default() += 1;
    }
    for (n, (file, count)) in by_file.into_iter().enumerate() {
        let comma = if n > 0 { ", " } else { "" };
        let _ = write!(
            out,
            "{comma}<a href=\"{}\">{}</a> ({count})",
            href(&suite_page(file), None),
            escape(file)
        );
    }
}

/// `impl/NAME.html`: an implementation's results by area: every failure
/// with its first difference, the unsupported cases by what they need,
/// the passed ones by file; and its findings note.
pub fn implementation_pages(context: &Context, results: &Results) -> Vec<Page> {
    let cases: BTreeMap<&str, &Case> = context.suite.cases().map(|c| (c.id.as_str(), c)).collect();
    let mut pages = Vec::new();
    for (column, i) in results.implementations.iter().enumerate() {
        let mut body = String::new();
        let _ = write!(
            body,
            "<h1>{}</h1><p class=lead>{}</p><p>",
            escape(&heading(i)),
            escape(&i.description)
        );
        let t = i.totals;
        let _ = write!(
            body,
            "<b class=p>{} passed</b> · <b class=f>{} failed</b> · <b class=u>{} unsupported</b>",
            t.passed, t.failed, t.unsupported
        );
        if let Some(kinds) = &i.kinds {
            let _ = write!(body, " · kinds: {}", escape(&kinds.join(", ")));
        }
        if let Some(features) = i.features.as_ref().filter(|f| !f.is_empty()) {
            let _ = write!(body, " · features: {}", escape(&features.join(", ")));
        }
        if let Some(list) = &i.known_failures {
            let _ = write!(body, " · known-failure list: <code>{}</code>", escape(list));
        }
        body.push_str("</p>");
        if let Some(n) = context.note(&format!("findings/{}.md", i.name)) {
            let _ = write!(
                body,
                "<p>Findings: <a href=\"{}\">{}</a></p>",
                href(&n.page(), None),
                escape(&n.title)
            );
        }
        let mut areas_found: Vec<(&str, ByStatus)> = Vec::new();
        for area in areas::names() {
            let mut by_status: ByStatus = Default::default();
            for (id, verdicts) in &results.cases {
                let (Some(case), Some(Some(v))) = (cases.get(id.as_str()), verdicts.get(column))
                else {
                    continue;
                };
                if case.area == area {
                    by_status[match v.class() {
                        "p" => 0,
                        "f" => 1,
                        _ => 2,
                    }]
                    .push((case, v));
                }
            }
            if by_status.iter().any(|l| !l.is_empty()) {
                areas_found.push((area, by_status));
            }
        }
        body.push_str("<table class=matrix><tr><th>area</th><th>passed</th><th>failed</th><th>unsupported</th></tr>");
        for (area, by_status) in &areas_found {
            let slug = area_slug(area);
            let _ = write!(
                body,
                "<tr><th><a href=\"#{slug}\">{}</a></th>",
                escape(area)
            );
            for (n, status) in STATUSES.iter().enumerate() {
                let _ = write!(
                    body,
                    "<td class=num><a href=\"#{slug}-{status}\">{}</a></td>",
                    by_status[n].len()
                );
            }
            body.push_str("</tr>");
        }
        body.push_str("</table>");
        for (area, [passed, failed, unsupported]) in &areas_found {
            let slug = area_slug(area);
            let _ = write!(body, "<h2 id=\"{slug}\">{}</h2>", escape(area));
            let _ = write!(
                body,
                "<h3 id=\"{slug}-failed\">{} failed</h3><ul class=cases>",
                failed.len()
            );
            for (case, v) in failed {
                let listed = if v.listed { " (known failure)" } else { "" };
                let _ = write!(
                    body,
                    "<li>{}: <i>{}</i>{listed}",
                    context.case_link(case),
                    escape(&v.reason)
                );
            }
            let _ = write!(
                body,
                "</ul><h3 id=\"{slug}-unsupported\">{} unsupported</h3><ul class=cases>",
                unsupported.len()
            );
            let mut by_reason: BTreeMap<&str, Vec<(&Case, &Verdict)>> = BTreeMap::new();
            for (case, v) in unsupported {
                by_reason
                    .entry(v.reason.as_str())
                    .or_default()
                    .push((case, v));
            }
            for (reason, list) in by_reason {
                let _ = write!(
                    body,
                    "<li><i>{}</i>: {} cases, in ",
                    escape(reason),
                    list.len()
                );
                files_of(&list, &mut body);
                body.push_str("</li>");
            }
            let _ = write!(
                body,
                "</ul><h3 id=\"{slug}-passed\">{} passed</h3><p>",
                passed.len()
            );
            files_of(passed, &mut body);
            body.push_str("</p>");
        }
        pages.push(Page::new(implementation_page(&i.name), heading(i), body));
    }
    pages
}

/// An area's cases by verdict: passed, failed, unsupported.
type ByStatus<'a> = [Vec<(&'a Case, &'a Verdict)>; 3];

/// The verdicts, in the order of a matrix cell.
const STATUSES: [&str; 3] = ["passed", "failed", "unsupported"];
