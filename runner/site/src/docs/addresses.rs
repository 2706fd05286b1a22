//! Where each page of the site is: the path of a document's, a suite
//! file's, a note's, an implementation's and a requirement's page, and the
//! compact case and requirement references the site's script links.

use super::html;
use askama::Template;
use hcl_conformance_format::documents;
use hcl_conformance_format::suite::SuiteFile;

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
