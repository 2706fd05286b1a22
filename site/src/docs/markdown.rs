//! Markdown (spec-notes, summaries, descriptions) to HTML, with
//! pulldown-cmark; the ids a text names (cases, requirements, notes)
//! become links into the site.

use super::html::{escape, href};
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
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
            true => format!("{}{content}</a>", super::REQUIREMENT_REFERENCE),
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
            .then(|| href(&format!("notes/{}", path.replace(".md", ".html")), anchor))
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
        let document = crate::documents::document(trimmed);
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

/// Markdown to HTML. `base` is the folder of the note below `spec-notes/`
/// (for its relative links), `None` for text that is no note. Relative
/// links to anything the site does not hold keep their text, unlinked.
pub fn to_html(markdown: &str, base: Option<&str>, links: &Links) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut events = Vec::new();
    // For each open link, whether it is kept (links do not nest, but a
    // stack costs nothing).
    let mut open_links: Vec<bool> = Vec::new();
    let mut in_link = 0usize;
    let mut in_code_block = false;
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                let dest = dest_url.to_string();
                let external = dest.contains("://") || dest.starts_with("mailto:");
                // A text that is no note (a requirement's, from its
                // document) loses its links within that document.
                let target = if external || (dest.starts_with('#') && base.is_some()) {
                    Some(dest)
                } else {
                    base.and_then(|b| super::join_path(b, &dest))
                        .and_then(|p| links.note(&p))
                };
                open_links.push(target.is_some());
                if let Some(t) = target {
                    in_link += 1;
                    events.push(Event::Start(Tag::Link {
                        link_type,
                        dest_url: CowStr::from(t),
                        title,
                        id,
                    }));
                }
            }
            Event::End(TagEnd::Link) => {
                if open_links.pop().unwrap_or(false) {
                    in_link = in_link.saturating_sub(1);
                    events.push(Event::End(TagEnd::Link));
                }
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                in_code_block = true;
                events.push(Event::Start(Tag::CodeBlock(kind)));
            }
            Event::End(TagEnd::CodeBlock) => {
                in_code_block = false;
                events.push(Event::End(TagEnd::CodeBlock));
            }
            Event::Code(code) if in_link == 0 => {
                match links.link(&code, &format!("<code>{}</code>", escape(&code))) {
                    Some(link) => events.push(Event::InlineHtml(CowStr::from(link))),
                    None => events.push(Event::Code(code)),
                }
            }
            Event::Text(text) if in_link == 0 && !in_code_block => match linkify(&text, links) {
                Some(html) => events.push(Event::InlineHtml(CowStr::from(html))),
                None => events.push(Event::Text(text)),
            },
            other => events.push(other),
        }
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    // The writer percent-encodes the root marker of a link.
    html.replace("%01R%01", super::html::ROOT)
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
