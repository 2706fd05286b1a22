//! HTML: escaping, safe paths and URLs, and the frame every page of the
//! site shares (its header, navigation and search box), with links
//! relative to the page so that the site works from `file://` and from
//! any folder of a host.
//!
//! Everything a page shows that comes from outside the site's code (suite
//! texts, notes, names of files and implementations, matrix files) goes
//! through [`escape_into`] (or [`escape`]), through the Markdown renderer
//! (`super::markdown`, which escapes raw HTML and drops unsafe links), or,
//! for a path built from a name, through [`segment`].

use super::notation::Styled;
use askama::filters::Safe;
use askama::Template;
use std::fmt::Write as _;

/// Escapes `text` for an HTML attribute value (quoted with `"` or `'`)
/// and for text content, or with `visible` for text content only, where
/// characters a reader could not see (a carriage return, a byte order
/// mark, control and unusual space characters) are shown as marks. The
/// site's one escaping function: every text from outside goes through it.
pub fn escape_into(out: &mut String, text: &str, visible: bool) {
    // Writing to a `String` cannot fail.
    let _ = escape_to(out, text, visible);
}

/// [`escape_into`] to any writer: each run of characters kept written at
/// once, each other character replaced (a character a reader could not
/// see by its mark, [`ControlMark`]).
fn escape_to<W: std::fmt::Write>(out: &mut W, text: &str, visible: bool) -> std::fmt::Result {
    let mut kept = 0;
    for (at, c) in text.char_indices() {
        let replacement = match c {
            '<' => "&lt;",
            '>' => "&gt;",
            '&' => "&amp;",
            // Text content (`visible`) keeps its quotes.
            '"' if !visible => "&quot;",
            '\'' if !visible => "&#39;",
            // The root marker ([`ROOT`]) never comes from outside.
            '\u{1}' if !visible => "",
            c if visible && (c == '\r' || invisible(c)) => {
                out.write_str(&text[kept..at])?;
                kept = at + c.len_utf8();
                ControlMark::of(c)
                    .render_into(out)
                    .map_err(|_| std::fmt::Error)?;
                continue;
            }
            _ => continue,
        };
        out.write_str(&text[kept..at])?;
        out.write_str(replacement)?;
        kept = at + c.len_utf8();
    }
    out.write_str(&text[kept..])
}

/// The mark of a character a reader could not see
/// (`templates/control.html`): a carriage return as `␍`, any other as
/// its code point, `⟨U+FEFF⟩`.
#[derive(Template)]
#[template(path = "control.html")]
struct ControlMark {
    name: String,
    shown: String,
}

impl ControlMark {
    fn of(c: char) -> ControlMark {
        let code = format!("U+{:04X}", c as u32);
        match c {
            '\r' => ControlMark {
                name: format!("carriage return ({code})"),
                shown: "␍".into(),
            },
            _ => ControlMark {
                shown: format!("⟨{code}⟩"),
                name: code,
            },
        }
    }
}

/// Characters that show as nothing, or as a plain space.
fn invisible(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{00a0}' | '\u{1680}' | '\u{180e}' | '\u{2000}'..='\u{200f}' | '\u{2028}'..='\u{202f}' | '\u{205f}'..='\u{2064}' | '\u{3000}' | '\u{feff}')
}

/// `text` escaped for an attribute value or text content
/// ([`escape_into`]).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(&mut out, text, false);
    out
}

/// Styled text as HTML (`templates/styled.html`): each run of a style in
/// an `i` element of its class, as [`super::highlight::highlight`] writes
/// source text.
#[derive(Template)]
#[template(path = "styled.html")]
pub struct StyledHtml<'a> {
    /// Each run's class (empty for plain text) and text.
    runs: Vec<(&'static str, &'a str)>,
}

/// Styled text as HTML ([`StyledHtml`]).
pub fn styled(text: &Styled) -> StyledHtml<'_> {
    let runs = text
        .0
        .iter()
        .map(|(style, run)| (style.class(), run.as_str()))
        .collect();
    StyledHtml { runs }
}

/// Text content as the templates write it ([`Safe`]): escaped by
/// [`escape_into`] for text content, characters a reader could not see
/// shown as marks.
pub fn visible(text: &str) -> Safe<Visible<'_>> {
    Safe(Visible(text))
}

/// Text escaped for text content ([`visible`]), written as it is
/// displayed.
pub struct Visible<'a>(&'a str);

impl std::fmt::Display for Visible<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        escape_to(f, self.0, true)
    }
}

/// A fragment of a page (a link, a code span of a Markdown text...): its
/// template rendered. Like `write!` to a `String`, this does not fail:
/// the site's templates write text, numbers and links, whose `Display`
/// never does (were one to, the fragment would be left empty).
pub fn fragment_html(template: &impl Template) -> String {
    let mut out = String::new();
    if template.render_into(&mut out).is_err() {
        out.clear();
    }
    out
}

/// The way from a page at `path` (relative to the site's root) back to
/// the root: `""`, `"../"`, `"../../"`...
pub fn root_of(path: &str) -> String {
    "../".repeat(path.matches('/').count())
}

/// A page of the site.
pub struct Page {
    /// Relative to the site's root, with `/`: `suite/native/expr-splat-full.html`.
    pub path: String,
    pub title: String,
    /// The content of `<main>`, with links written from the root
    /// ([`ROOT`], replaced by [`Page::render`]).
    pub body: String,
}

/// The marker a page's body writes before a link from the root; escaped
/// text never holds it (control characters are escaped or dropped).
pub const ROOT: &str = "\u{1}R\u{1}";

impl Page {
    pub fn new(path: impl Into<String>, title: impl Into<String>, body: String) -> Page {
        Page {
            path: path.into(),
            title: title.into(),
            body,
        }
    }

    /// A page whose content is the template `body`, rendered.
    pub fn rendered(
        path: impl Into<String>,
        title: impl Into<String>,
        body: &impl Template,
    ) -> Result<Page, String> {
        let path = path.into();
        let body = body
            .render()
            .map_err(|e| format!("cannot write the page {path}: {e}"))?;
        Ok(Page::new(path, title, body))
    }

    /// The whole HTML document (`templates/page.html`).
    pub fn render(&self, has_matrix: bool) -> Result<String, String> {
        let mut nav = vec![
            ("index.html", "Home"),
            ("spec/index.html", "Specification"),
            ("suite/index.html", "Suite"),
        ];
        if has_matrix {
            nav.push(("matrix.html", "Implementations"));
        }
        nav.extend([
            ("coverage.html", "Coverage"),
            ("notes/index.html", "Spec notes"),
        ]);
        let root = root_of(&self.path);
        let frame = Frame {
            csp: CONTENT_SECURITY_POLICY,
            title: &self.title,
            body: self.body.replace(ROOT, &root),
            root,
            path: &self.path,
            nav,
        };
        frame
            .render()
            .map_err(|e| format!("cannot write the page {}: {e}", self.path))
    }
}

/// The frame of a page: `templates/page.html`.
#[derive(Template)]
#[template(path = "page.html")]
struct Frame<'a> {
    /// [`CONTENT_SECURITY_POLICY`], the site's own constant.
    csp: &'a str,
    title: &'a str,
    /// The way back to the root ([`root_of`]).
    root: String,
    path: &'a str,
    /// Each link of the navigation: its page from the root, and label.
    nav: Vec<(&'a str, &'a str)>,
    /// The page's content, safe HTML made by the site's own templates,
    /// its links from the root made relative.
    body: String,
}

/// The site's escaper, for every value its templates (`templates/`)
/// write: text escaped for an attribute value or text content
/// ([`escape_into`]).
#[derive(Clone, Copy)]
pub struct Escape;

impl askama::filters::Escaper for Escape {
    fn write_escaped_str<W: std::fmt::Write>(&self, mut dest: W, text: &str) -> std::fmt::Result {
        escape_to(&mut dest, text, false)
    }
}

/// A link from the root: `ROOT PATH#ANCHOR`, safe in a quoted attribute:
/// the path's characters other than letters, digits, `/`, `-`, `_`, `.`
/// and `~` percent-encoded (a page's path from a name is already made of
/// those, [`segment`]), the anchor as a [`fragment`].
pub fn href(path: &str, anchor: Option<&str>) -> String {
    let mut out = String::from(ROOT);
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' | b'~' => {
                out.push(b as char)
            }
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    if let Some(a) = anchor {
        out.push('#');
        out.push_str(&fragment(a));
    }
    out
}

/// [`href`] as a value the templates write as it is ([`Safe`]): a link
/// the site made, of the root marker and percent-encoded characters.
pub fn link(path: &str, anchor: Option<&str>) -> Safe<String> {
    Safe(href(path, anchor))
}

/// The longest name of a file or folder the site writes (below the 255
/// bytes file systems allow, with room for `.html`).
pub const MAX_SEGMENT: usize = 200;

/// A name from outside (a suite file's or folder's, a note's, an
/// implementation's) as one segment of a path on the site, the same on
/// every file system and in a URL: ASCII letters, digits, `-`, `_` and
/// `.` but a leading one are kept, every other byte (of its UTF-8) is
/// written `~XX` (two hex digits), so that two names never share a
/// segment, and no segment is empty, `.`, `..`, hidden, or holds a `/`,
/// `\`, a NUL, a control character or a quote. `site.js` (`segment`)
/// makes the same segments from a case's file; [`check_segment`] refuses
/// the names whose segment would be too long.
pub fn segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for (i, b) in name.bytes().enumerate() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' => out.push(b as char),
            b'.' if i > 0 => out.push('.'),
            _ => {
                let _ = write!(out, "~{b:02X}");
            }
        }
    }
    if out.is_empty() {
        out.push('~');
    }
    out
}

/// A name whose [`segment`] is too long for a file system: refused, with
/// what it names (`a suite file`, `an implementation`...).
pub fn check_segment(what: &str, name: &str) -> Result<(), String> {
    match segment(name).len() > MAX_SEGMENT {
        true => Err(format!(
            "{what} is named `{}`, too long a name for a page of the site (at most {MAX_SEGMENT} \
             bytes, each byte but letters, digits, `-`, `_` and `.` counting three)",
            name.escape_debug()
        )),
        false => Ok(()),
    }
}

/// A path below the site's root from a name of `/`-separated parts (a
/// suite file's id, a note's path without `.md`): `FOLDER/SEG/SEG.html`,
/// each part a [`segment`].
pub fn named_page(folder: &str, name: &str) -> String {
    let parts: Vec<String> = name.split('/').map(segment).collect();
    format!("{folder}/{}.html", parts.join("/"))
}

/// The schemes a link from outside may have; any other (`javascript:`,
/// `data:`, `vbscript:`, `file:`...) is dropped.
pub const SAFE_SCHEMES: [&str; 3] = ["http", "https", "mailto"];

/// A URL's scheme, lowercased, as a browser reads it (leading spaces and
/// control characters trimmed, tabs and newlines anywhere dropped:
/// `java\tscript:` is `javascript:`); `None` for a relative URL.
pub fn url_scheme(url: &str) -> Option<String> {
    let url: String = url
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let (scheme, _) = url.split_once(':')?;
    let valid = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    valid.then(|| scheme.to_ascii_lowercase())
}

/// Whether a link from outside may stay a link: an http, https or mailto
/// URL, or a relative one.
pub fn safe_url(url: &str) -> bool {
    url_scheme(url).is_none_or(|s| SAFE_SCHEMES.contains(&s.as_str()))
}

/// The Content-Security-Policy of every page: scripts, styles, images and
/// everything else from the site's own files only (no inline script or
/// style, no plug-in), no `<base>`, forms sent to the site only.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
style-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'";

/// An anchor as a URL fragment: characters a URL would misread
/// percent-encoded (ids keep `/`, `:` and `.`, which fragments allow).
pub fn fragment(anchor: &str) -> String {
    let mut out = String::new();
    for b in anchor.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' | b':' | b'~' => {
                out.push(b as char)
            }
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::notation::Style;
    use super::*;

    /// The segments `site.js` (`hclSuitePage`) makes of the same names,
    /// as Node printed them: the two must agree.
    #[test]
    fn names_become_safe_segments() {
        let pages = [
            (
                "native/expr-splat-full",
                "suite/native/expr-splat-full.html",
            ),
            (
                "native/q\" onmouseover=\"alert(18)",
                "suite/native/q~22~20onmouseover~3D~22alert~2818~29.html",
            ),
            (
                "native/<img src=x onerror=alert(19)>",
                "suite/native/~3Cimg~20src~3Dx~20onerror~3Dalert~2819~29~3E.html",
            ),
            (".hidden/..", "suite/~2Ehidden/~2E..html"),
            ("a/é€😀", "suite/a/~C3~A9~E2~82~AC~F0~9F~98~80.html"),
            ("x/", "suite/x/~.html"),
            ("a.b.c/-_", "suite/a.b.c/-_.html"),
        ];
        for (name, page) in pages {
            assert_eq!(named_page("suite", name), page, "{name}");
        }
        for name in [
            "../../../escaped",
            "..",
            ".",
            "",
            "a\\b",
            "a\0b",
            "~",
            "~7E",
            "a\u{7f}",
        ] {
            let s = segment(name);
            assert!(
                !s.is_empty()
                    && !s.starts_with('.')
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.~".contains(&b)),
                "{name:?}: {s}"
            );
        }
        // Two names never share a segment.
        assert_ne!(segment("~"), segment("~7E"));
        assert_ne!(segment(""), segment("~"));
        assert!(check_segment("a file", &"a".repeat(MAX_SEGMENT)).is_ok());
        assert!(check_segment("a file", &"<".repeat(MAX_SEGMENT / 3 + 1)).is_err());
    }

    #[test]
    fn only_safe_schemes_are_safe() {
        for url in [
            "https://example.org/",
            "HTTP://example.org/",
            "mailto:a@example.org",
            "../notes/x.html#a:b",
            "#r:native.x.001",
            "x.html?q=a:b",
        ] {
            assert!(safe_url(url), "{url}");
        }
        for url in [
            "javascript:alert(1)",
            " JavaScript:alert(1)",
            "java\tscript:alert(1)",
            "\u{1}javascript:alert(1)",
            "javascript://%0aalert(1)",
            "data:text/html,x",
            "vbscript:x",
            "file:///etc/passwd",
        ] {
            assert!(!safe_url(url), "{url:?}");
        }
    }

    #[test]
    fn attribute_values_and_links_are_escaped() {
        assert_eq!(escape("\"'<>&\u{1}"), "&quot;&#39;&lt;&gt;&amp;");
        assert_eq!(
            href("suite/q\" x=\"y.html", Some("a\"b")),
            "\u{1}R\u{1}suite/q%22%20x%3D%22y.html#a%22b"
        );
        let page = Page::new("suite/a/b.html", "<t>", String::new())
            .render(false)
            .unwrap();
        assert!(page.contains(&format!(
            "<meta http-equiv=Content-Security-Policy content=\"{CONTENT_SECURITY_POLICY}\">"
        )));
        assert!(page.contains("<title>&lt;t&gt; · "));
    }

    /// The templates escape with the site's escaper (askama's own would
    /// write `&#34;` and keep the root marker), and write text content
    /// with its quotes kept and invisible characters shown.
    #[test]
    fn templates_escape_as_the_site_does() {
        let hostile = "\"'<>&\u{1}R\u{1}\r";
        let page = Page::new("a.html", hostile, String::new())
            .render(false)
            .unwrap();
        assert!(
            page.contains(&format!("<title>{} · ", escape(hostile))),
            "{page}"
        );
        assert!(page.contains("<title>&quot;&#39;&lt;&gt;&amp;R\r · "));
        let text = Styled(vec![
            (Style::Plain, hostile.to_string()),
            (Style::Str, "\u{feff}".to_string()),
        ]);
        assert_eq!(
            styled(&text).render().unwrap(),
            "\"'&lt;&gt;&amp;<span class=ctl title=\"U+0001\">⟨U+0001⟩</span>R\
             <span class=ctl title=\"U+0001\">⟨U+0001⟩</span>\
             <span class=ctl title=\"carriage return (U+000D)\">␍</span>\
             <i class=s><span class=ctl title=\"U+FEFF\">⟨U+FEFF⟩</span></i>"
        );
    }
}
