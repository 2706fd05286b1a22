//! Markdown (spec-notes, summaries, descriptions) to HTML, with
//! pulldown-cmark; the ids a text names (cases, requirements, notes)
//! become links into the site.
//!
//! The texts come from outside (suite files, notes, requirements), so the
//! HTML is safe whatever they hold: raw HTML in them is shown as text, a
//! link or image keeps its destination only when it is an http, https or
//! mailto URL or a note of the site (an image is shown as its text, not
//! loaded), and every text and attribute value is escaped by the site's
//! escaping function ([`escape`]), not by the renderer's.

use super::html::{escape, fragment_html, href, link, safe_url, url_scheme};
use askama::filters::Safe;
use askama::Template;
use pulldown_cmark::{Alignment, CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};

/// What a text may name, and where it is on the site.
#[derive(Default)]
pub struct Links {
    /// Case ids.
    pub cases: BTreeSet<String>,
    /// Requirement ids, with the page of their document.
    pub requirements: BTreeMap<String, String>,
    /// Note paths below `spec-notes/` (`gaps/numbers.md`).
    pub notes: BTreeSet<String>,
}

impl Links {
    /// `content` (HTML) linked to where `name` is on the site: a case id
    /// (as a case reference, which the site's script links), a
    /// requirement id, or a note path (`gaps/x.md`, `spec-notes/gaps/x.md`).
    pub fn link(&self, name: &str, content: &str) -> Option<String> {
        if self.cases.contains(name) {
            return Some(super::addresses::case_reference(content));
        }
        if let Some(link) = self.requirement_link(name, content) {
            return Some(link);
        }
        self.resolve(name).map(|target| {
            fragment_html(&LinkHtml {
                href: Safe(target),
                content,
            })
        })
    }

    /// `content` linked to the requirement `id` on the page of its
    /// document: a requirement reference, which the site's script links,
    /// where the id names the page ([`super::addresses::requirement_page`]).
    pub fn requirement_link(&self, id: &str, content: &str) -> Option<String> {
        let page = self.requirements.get(id)?;
        Some(match *page == super::addresses::requirement_page(id) {
            true => super::addresses::reference("r", content),
            false => fragment_html(&LinkHtml {
                href: link(page, Some(id)),
                content,
            }),
        })
    }

    /// Where a requirement id or a note path is on the site.
    pub fn resolve(&self, name: &str) -> Option<String> {
        if let Some(page) = self.requirements.get(name) {
            return Some(href(page, Some(name)));
        }
        self.note(name.strip_prefix("spec-notes/").unwrap_or(name))
    }

    /// The page of a note, by its path below `spec-notes/`.
    pub fn note(&self, path: &str) -> Option<String> {
        if path == "README.md" {
            return Some(href("notes/index.html", None));
        }
        let (path, anchor) = match path.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (path, None),
        };
        self.notes
            .contains(path)
            .then(|| href(&super::addresses::note_page(path), anchor))
    }
}

/// A link the site made around HTML the site made (`templates/link.html`).
#[derive(Template)]
#[template(path = "link.html")]
pub struct LinkHtml<'a> {
    pub href: Safe<String>,
    pub content: &'a str,
}

/// A piece of a run of text: text, or a link the site made.
enum Piece<'a> {
    Text(&'a str),
    Link(String),
}

/// A run of text with the ids it names linked (`templates/linked.html`).
#[derive(Template)]
#[template(path = "linked.html")]
struct Linked<'a> {
    pieces: Vec<Piece<'a>>,
}

/// A word's link: a cited document by file name
/// (`002_e701fb6c663d6b71.txt`) shows as its title, linked to its page;
/// a case or requirement id or a note path as itself, linked.
fn word_link(word: &str, links: &Links) -> Option<String> {
    match hcl_conformance_format::documents::document(word) {
        Some(d) => Some(fragment_html(&LinkHtml {
            href: link(&format!("spec/{}.html", d.short), None),
            content: &escape(d.title),
        })),
        None => (word.len() > 2)
            .then(|| links.link(word, &escape(word)))
            .flatten(),
    }
}

/// A run of text with every id it names linked.
fn linkify(text: &str, links: &Links) -> Option<String> {
    let is_word = |c: char| c.is_alphanumeric() || "-_./:".contains(c);
    let mut pieces = Vec::new();
    let mut found = false;
    let mut rest = text;
    while !rest.is_empty() {
        let start = rest.find(is_word).unwrap_or(rest.len());
        pieces.push(Piece::Text(&rest[..start]));
        rest = &rest[start..];
        let end = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
        let word = &rest[..end];
        let trimmed = word.trim_end_matches(['.', ':']);
        match word_link(trimmed, links) {
            Some(link) => {
                found = true;
                pieces.push(Piece::Link(link));
                pieces.push(Piece::Text(&word[trimmed.len()..]));
            }
            None => pieces.push(Piece::Text(word)),
        }
        rest = &rest[end..];
    }
    found.then(|| fragment_html(&Linked { pieces }))
}

/// Where a link of a text leads, as the value of its `href` (escaped); `None`
/// for a link that keeps its text only: one whose URL has a scheme other
/// than http, https and mailto (`javascript:`...), a relative one that is
/// not a note the site holds, or an anchor of a text that is no note.
fn link_target(dest: &str, base: Option<&str>, links: &Links) -> Option<String> {
    match url_scheme(dest) {
        Some(_) => safe_url(dest).then(|| escape(dest.trim())),
        None if dest.starts_with('#') => base.map(|_| escape(dest)),
        // A text that is no note (a requirement's, from its document)
        // loses its links within that document.
        None => base
            .and_then(|b| super::links::join_path(b, dest))
            .and_then(|p| links.note(&p)),
    }
}

/// The start tag of a table's cell: `th` in the head, `td` in the body;
/// its column's alignment a class (`style.css`), not a style attribute,
/// which the pages' Content-Security-Policy forbids.
fn cell_start(head: bool, alignment: Option<&Alignment>) -> &'static str {
    match (head, alignment) {
        (true, Some(Alignment::Left)) => "<th class=left>",
        (true, Some(Alignment::Center)) => "<th class=center>",
        (true, Some(Alignment::Right)) => "<th class=right>",
        (true, Some(Alignment::None) | None) => "<th>",
        (false, Some(Alignment::Left)) => "<td class=left>",
        (false, Some(Alignment::Center)) => "<td class=center>",
        (false, Some(Alignment::Right)) => "<td class=right>",
        (false, Some(Alignment::None) | None) => "<td>",
    }
}

/// The start of a link of a text (`templates/link_start.html`).
#[derive(Template)]
#[template(path = "link_start.html")]
struct LinkStart<'a> {
    /// The target, escaped or made by the site ([`link_target`]).
    href: Safe<String>,
    title: &'a str,
}

/// Code of a text (`templates/code.html`).
#[derive(Template)]
#[template(path = "code.html")]
struct Code<'a> {
    code: &'a str,
}

/// The events of a Markdown text rewritten for the site: every text,
/// link and cell written here (escaped, or from the site's templates),
/// the rest left to the renderer.
struct Rewriter<'a> {
    base: Option<&'a str>,
    links: &'a Links,
    events: Vec<Event<'a>>,
    /// For each open link or image, whether it wrote an `<a>` (links do
    /// not nest: an image in a link is not linked again).
    open_links: Vec<bool>,
    in_link: usize,
    in_code_block: bool,
    /// The alignments of the columns of the open table, whether its head
    /// is open, and the column of the cell.
    alignments: Vec<Alignment>,
    in_head: bool,
    column: usize,
}

impl<'a> Rewriter<'a> {
    /// HTML written as it is.
    fn write(&mut self, html: impl Into<CowStr<'a>>) {
        self.events.push(Event::InlineHtml(html.into()));
    }

    fn event(&mut self, event: Event<'a>) {
        match event {
            Event::Start(Tag::Link {
                dest_url, title, ..
            })
            | Event::Start(Tag::Image {
                dest_url, title, ..
            }) => self.link_start(&dest_url, &title),
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if self.open_links.pop().unwrap_or(false) {
                    self.in_link = self.in_link.saturating_sub(1);
                    self.write("</a>");
                }
            }
            Event::Start(Tag::CodeBlock(_)) => {
                self.in_code_block = true;
                self.events
                    .push(Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)));
            }
            Event::End(TagEnd::CodeBlock) => {
                self.in_code_block = false;
                self.events.push(Event::End(TagEnd::CodeBlock));
            }
            Event::Code(code) => {
                let shown = fragment_html(&Code { code: &code });
                let linked = match self.in_link {
                    0 => self.links.link(&code, &shown),
                    _ => None,
                };
                self.write(linked.unwrap_or(shown));
            }
            Event::Text(text) => {
                let linked = match self.in_link == 0 && !self.in_code_block {
                    true => linkify(&text, self.links),
                    false => None,
                };
                self.write(linked.unwrap_or_else(|| escape(&text)));
            }
            // Raw HTML is text; a block of it a paragraph.
            Event::Html(raw) | Event::InlineHtml(raw) => self.write(escape(&raw)),
            Event::Start(Tag::HtmlBlock) => self.events.push(Event::Start(Tag::Paragraph)),
            Event::End(TagEnd::HtmlBlock) => self.events.push(Event::End(TagEnd::Paragraph)),
            // What the options leave off, as text should it come.
            Event::FootnoteReference(name) => self.write(escape(&format!("[^{name}]"))),
            Event::TaskListMarker(done) => self.write(if done { "[x] " } else { "[ ] " }),
            Event::InlineMath(math) | Event::DisplayMath(math) => self.write(escape(&math)),
            other => self.table_event(other),
        }
    }

    /// A link or image: a link to its target when it may have one
    /// ([`link_target`]) and is not inside another.
    fn link_start(&mut self, dest: &str, title: &str) {
        let target = link_target(dest, self.base, self.links).filter(|_| self.in_link == 0);
        self.open_links.push(target.is_some());
        if let Some(target) = target {
            self.in_link += 1;
            self.write(fragment_html(&LinkStart {
                href: Safe(target),
                title,
            }));
        }
    }

    /// A table's events, written here; any other event to the renderer.
    fn table_event(&mut self, event: Event<'a>) {
        match event {
            Event::Start(Tag::Table(columns)) => {
                self.alignments = columns;
                self.write("<table>");
            }
            Event::Start(Tag::TableHead) => {
                (self.in_head, self.column) = (true, 0);
                self.write("<thead><tr>");
            }
            Event::End(TagEnd::TableHead) => {
                self.in_head = false;
                self.write("</tr></thead><tbody>\n");
            }
            Event::Start(Tag::TableRow) => {
                self.column = 0;
                self.write("<tr>");
            }
            Event::End(TagEnd::TableRow) => self.write("</tr>\n"),
            Event::Start(Tag::TableCell) => {
                self.write(cell_start(self.in_head, self.alignments.get(self.column)));
            }
            Event::End(TagEnd::TableCell) => {
                self.column += 1;
                self.write(if self.in_head { "</th>" } else { "</td>" });
            }
            Event::End(TagEnd::Table) => self.write("</tbody></table>\n"),
            other => self.events.push(other),
        }
    }
}

/// Markdown to HTML. `base` is the folder of the note below `spec-notes/`
/// (for its relative links), `None` for text that is no note. Relative
/// links to anything the site does not hold keep their text, unlinked;
/// so do links of a scheme other than http, https and mailto. Raw HTML
/// shows as text. Every text, link and cell is written here, escaped
/// ([`escape`]) or from the site's templates (`Rewriter`); the renderer
/// writes the other elements (paragraphs, lists, emphasis...), which
/// carry nothing from the text.
pub fn to_html(markdown: &str, base: Option<&str>, links: &Links) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut rewriter = Rewriter {
        base,
        links,
        events: Vec::new(),
        open_links: Vec::new(),
        in_link: 0,
        in_code_block: false,
        alignments: Vec::new(),
        in_head: false,
        column: 0,
    };
    for event in Parser::new_ext(markdown, options) {
        rewriter.event(event);
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, rewriter.events.into_iter());
    html
}

/// Markdown of one paragraph (a summary, a description) as inline HTML,
/// without the `<p>` around it.
pub fn inline(markdown: &str, links: &Links) -> String {
    let html = to_html(markdown, None, links);
    let trimmed = html.trim();
    match trimmed
        .strip_prefix("<p>")
        .and_then(|t| t.strip_suffix("</p>"))
    {
        Some(inner) if !inner.contains("<p>") => inner.to_string(),
        _ => trimmed.to_string(),
    }
}

/// The text of a note under its heading `## NAME`, up to the next such
/// heading; empty when it has none.
pub fn section<'a>(markdown: &'a str, name: &str) -> &'a str {
    let heading = format!("\n## {name}\n");
    let Some(at) = markdown.find(&heading) else {
        return "";
    };
    let rest = &markdown[at + heading.len()..];
    rest[..rest.find("\n## ").unwrap_or(rest.len())].trim()
}

/// The title of a note: its first level-one heading.
pub fn title(markdown: &str) -> Option<String> {
    markdown
        .lines()
        .find_map(|l| l.strip_prefix("# "))
        .map(|t| t.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links() -> Links {
        Links {
            cases: ["native/x::a-case".to_string()].into(),
            requirements: [("native.x.001".to_string(), "spec/native.html".to_string())].into(),
            notes: ["gaps/n.md".to_string()].into(),
        }
    }

    #[test]
    fn ids_become_links() {
        let html = to_html(
            "Cases: native/x::a-case, native.x.001.\nSee `gaps/n.md` and 002_e701fb6c663d6b71.txt § Lexer.",
            None,
            &links(),
        );
        assert!(html.contains("<a class=c>native/x::a-case</a>,"), "{html}");
        assert!(
            html.contains("<a href=\"\u{1}R\u{1}spec/lexmodes.html\">HCL Native Syntax Lexer Modes (an EBNF grammar)</a> § Lexer"),
            "{html}"
        );
        assert!(html.contains("<a class=r>native.x.001</a>."), "{html}");
        assert!(
            html.contains("<a href=\"\u{1}R\u{1}notes/gaps/n.html\"><code>gaps/n.md</code></a>"),
            "{html}"
        );
    }

    #[test]
    fn relative_links_are_resolved_or_dropped() {
        let html = to_html(
            "[n](n.md) and [r](../../runner/PROTOCOL.md) and [w](https://x.org)",
            Some("gaps"),
            &links(),
        );
        assert!(
            html.contains("<a href=\"\u{1}R\u{1}notes/gaps/n.html\">n</a>"),
            "{html}"
        );
        assert!(html.contains(" and r and "), "{html}");
        assert!(html.contains("<a href=\"https://x.org\">w</a>"), "{html}");
    }

    #[test]
    fn raw_html_is_text() {
        let html = to_html(
            "<img src=x onerror=alert(1)> <FUNCTION NAME>\n\n<div onclick=\"x\">\n\n<!-- c -->",
            Some("gaps"),
            &links(),
        );
        assert_eq!(
            html,
            "<p>&lt;img src=x onerror=alert(1)&gt; &lt;FUNCTION NAME&gt;</p>\n\
             <p>&lt;div onclick=&quot;x&quot;&gt;\n</p>\n<p>&lt;!-- c --&gt;</p>\n"
        );
    }

    #[test]
    fn links_of_unsafe_schemes_keep_their_text_only() {
        let html = to_html(
            "[a](javascript:alert(1)) [b](JAVASCRIPT://%0aalert(2)) [c](&#106;avascript:x) \
             [d](data:text/html,x) <javascript:alert(3)> [e][r] ![f](javascript:x) \
             ![g](https://example.org/g.png \"t\\\"\") [![h](x.png)](https://example.org/?a&b)\n\n\
             [r]: vbscript:x",
            Some("gaps"),
            &links(),
        );
        assert_eq!(
            html,
            "<p>a b c d javascript:alert(3) e f \
             <a href=\"https://example.org/g.png\" title=\"t&quot;\">g</a> \
             <a href=\"https://example.org/?a&amp;b\">h</a></p>\n"
        );
    }

    #[test]
    fn table_alignments_are_classes() {
        let html = to_html("| a | b |\n| :-: | --: |\n| 1 | 2 |\n", None, &links());
        assert!(
            html.contains("<th class=center>a</th><th class=right>b</th>")
                && html.contains("<td class=center>1</td><td class=right>2</td>")
                && !html.contains("style="),
            "{html}"
        );
    }

    #[test]
    fn note_sections_are_found() {
        let note =
            "# T\n\n## The question\nq\n\n## What the suite expects\nOne\ntwo.\n\n## Why\nw\n";
        assert_eq!(section(note, "What the suite expects"), "One\ntwo.");
        assert_eq!(section(note, "Why"), "w");
        assert_eq!(section(note, "Missing"), "");
    }

    #[test]
    fn tables_render() {
        let html = to_html(
            "| a | b |\n| --- | --- |\n| `x \\| y` | z |\n",
            None,
            &Links::default(),
        );
        assert!(html.contains("<td><code>x | y</code></td>"), "{html}");
    }
}
