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

use super::html::{escape, href, safe_url, url_scheme};
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
            return Some(super::case_reference(content));
        }
        if let Some(link) = self.requirement_link(name, content) {
            return Some(link);
        }
        self.resolve(name)
            .map(|target| format!("<a href=\"{target}\">{content}</a>"))
    }

    /// `content` linked to the requirement `id` on the page of its
    /// document: a requirement reference, which the site's script links,
    /// where the id names the page ([`super::requirement_page`]).
    pub fn requirement_link(&self, id: &str, content: &str) -> Option<String> {
        let page = self.requirements.get(id)?;
        Some(match *page == super::requirement_page(id) {
            true => format!("{}{content}</a>", super::links::REQUIREMENT_REFERENCE),
            false => format!("<a href=\"{}\">{content}</a>", href(page, Some(id))),
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
            .then(|| href(&super::note_page(path), anchor))
    }
}

/// A run of text with every id it names linked.
fn linkify(text: &str, links: &Links) -> Option<String> {
    let is_word = |c: char| c.is_alphanumeric() || "-_./:".contains(c);
    let mut out = String::new();
    let mut found = false;
    let mut rest = text;
    while !rest.is_empty() {
        let start = rest.find(is_word).unwrap_or(rest.len());
        out.push_str(&escape(&rest[..start]));
        rest = &rest[start..];
        let end = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
        let word = &rest[..end];
        let trimmed = word.trim_end_matches(['.', ':']);
        // A cited document by file name (`002_e701fb6c663d6b71.txt`) shows
        // as its title, linked to its page.
        let document = hcl_conformance_format::documents::document(trimmed);
        let label = document.map_or(trimmed, |d| d.title);
        let link = match document {
            Some(d) => Some(format!(
                "<a href=\"{}\">{}</a>",
                href(&format!("spec/{}.html", d.short), None),
                escape(label)
            )),
            None => (trimmed.len() > 2)
                .then(|| links.link(trimmed, &escape(label)))
                .flatten(),
        };
        match link {
            Some(link) => {
                found = true;
                out.push_str(&link);
                out.push_str(&escape(&word[trimmed.len()..]));
            }
            None => out.push_str(&escape(word)),
        }
        rest = &rest[end..];
    }
    found.then_some(out)
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

/// The class of a table's cell, for its column's alignment (`style.css`).
fn alignment_class(alignment: Option<&Alignment>) -> &'static str {
    match alignment {
        Some(Alignment::Left) => " class=left",
        Some(Alignment::Center) => " class=center",
        Some(Alignment::Right) => " class=right",
        Some(Alignment::None) | None => "",
    }
}

/// Markdown to HTML. `base` is the folder of the note below `spec-notes/`
/// (for its relative links), `None` for text that is no note. Relative
/// links to anything the site does not hold keep their text, unlinked;
/// so do links of a scheme other than http, https and mailto. Raw HTML
/// shows as text. Every text, link and cell is written here, escaped
/// ([`escape`]); the renderer writes the other elements (paragraphs,
/// lists, emphasis...), which carry nothing from the text.
pub fn to_html(markdown: &str, base: Option<&str>, links: &Links) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut events = Vec::new();
    let written = |html: String| Event::InlineHtml(CowStr::from(html));
    // For each open link or image, whether it wrote an `<a>` (links do
    // not nest: an image in a link is not linked again).
    let mut open_links: Vec<bool> = Vec::new();
    let mut in_link = 0usize;
    let mut in_code_block = false;
    // The alignments of the columns of the open table, whether its head
    // is open, and the column of the cell.
    let mut alignments: Vec<Alignment> = Vec::new();
    let mut in_head = false;
    let mut column = 0usize;
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(Tag::Link {
                dest_url, title, ..
            })
            | Event::Start(Tag::Image {
                dest_url, title, ..
            }) => {
                let target = link_target(&dest_url, base, links).filter(|_| in_link == 0);
                open_links.push(target.is_some());
                if let Some(target) = target {
                    in_link += 1;
                    let title = match title.is_empty() {
                        true => String::new(),
                        false => format!(" title=\"{}\"", escape(&title)),
                    };
                    events.push(written(format!("<a href=\"{target}\"{title}>")));
                }
            }
            Event::End(TagEnd::Link | TagEnd::Image) => {
                if open_links.pop().unwrap_or(false) {
                    in_link = in_link.saturating_sub(1);
                    events.push(written("</a>".into()));
                }
            }
            Event::Start(Tag::CodeBlock(_)) => {
                in_code_block = true;
                events.push(Event::Start(Tag::CodeBlock(CodeBlockKind::Indented)));
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code_block = false;
                events.push(Event::End(TagEnd::CodeBlock));
            }
            Event::Code(code) => {
                let shown = format!("<code>{}</code>", escape(&code));
                let linked = match in_link {
                    0 => links.link(&code, &shown),
                    _ => None,
                };
                events.push(written(linked.unwrap_or(shown)));
            }
            Event::Text(text) => {
                let linked = match in_link == 0 && !in_code_block {
                    true => linkify(&text, links),
                    false => None,
                };
                events.push(written(linked.unwrap_or_else(|| escape(&text))));
            }
            // Raw HTML is text; a block of it a paragraph.
            Event::Html(raw) | Event::InlineHtml(raw) => events.push(written(escape(&raw))),
            Event::Start(Tag::HtmlBlock) => events.push(Event::Start(Tag::Paragraph)),
            Event::End(TagEnd::HtmlBlock) => events.push(Event::End(TagEnd::Paragraph)),
            // Tables: a column's alignment is a class, not a style
            // attribute, which the pages' Content-Security-Policy forbids.
            Event::Start(Tag::Table(columns)) => {
                alignments = columns;
                events.push(written("<table>".into()));
            }
            Event::Start(Tag::TableHead) => {
                (in_head, column) = (true, 0);
                events.push(written("<thead><tr>".into()));
            }
            Event::End(TagEnd::TableHead) => {
                in_head = false;
                events.push(written("</tr></thead><tbody>\n".into()));
            }
            Event::Start(Tag::TableRow) => {
                column = 0;
                events.push(written("<tr>".into()));
            }
            Event::End(TagEnd::TableRow) => events.push(written("</tr>\n".into())),
            Event::Start(Tag::TableCell) => {
                let cell = if in_head { "th" } else { "td" };
                let class = alignment_class(alignments.get(column));
                events.push(written(format!("<{cell}{class}>")));
            }
            Event::End(TagEnd::TableCell) => {
                let cell = if in_head { "th" } else { "td" };
                column += 1;
                events.push(written(format!("</{cell}>")));
            }
            Event::End(TagEnd::Table) => events.push(written("</tbody></table>\n".into())),
            // What the options leave off, as text should it come.
            Event::FootnoteReference(name) => {
                events.push(written(escape(&format!("[^{name}]"))));
            }
            Event::TaskListMarker(done) => {
                events.push(written(if done { "[x] " } else { "[ ] " }.into()));
            }
            Event::InlineMath(math) | Event::DisplayMath(math) => {
                events.push(written(escape(&math)));
            }
            other => events.push(other),
        }
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
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
