//! The markup check of `docs --check`: a page of the site holds only the
//! elements and attributes the site writes, scripts and a style sheet of
//! its own `assets/` only (none inline), no event attribute, no URL of a
//! scheme other than http, https and mailto, and its
//! Content-Security-Policy. Text from outside is escaped
//! ([`super::html::escape_into`]), so live HTML here means a page the site
//! did not mean to write.

use super::html::{url_scheme, CONTENT_SECURITY_POLICY, SAFE_SCHEMES};

/// The elements the site's pages are made of.
pub const ELEMENTS: &[&str] = &[
    "html",
    "meta",
    "title",
    "link",
    "script",
    "body",
    "header",
    "nav",
    "main",
    "footer",
    "form",
    "input",
    "button",
    "a",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "div",
    "section",
    "span",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "code",
    "pre",
    "i",
    "b",
    "em",
    "strong",
    "del",
    "blockquote",
    "small",
    "mark",
    "hr",
    "br",
];

/// The attributes the site writes, on any of its elements.
pub const ATTRIBUTES: &[&str] = &[
    "id",
    "class",
    "title",
    "lang",
    "href",
    "src",
    "defer",
    "rel",
    "charset",
    "name",
    "content",
    "http-equiv",
    "action",
    "type",
    "placeholder",
    "aria-label",
    "aria-current",
    "data-root",
    "data-f",
    "start",
];

/// The attributes holding a URL.
const URL_ATTRIBUTES: &[&str] = &["href", "src", "action"];

/// A start tag: its name and attributes, lowercased, each value with its
/// character references decoded; the text up to its end tag for the
/// elements whose content is raw text (`script`, `style`...).
#[derive(Debug)]
struct StartTag<'a> {
    name: String,
    attributes: Vec<(String, String)>,
    raw_text: &'a str,
}

impl StartTag<'_> {
    fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{c}')
}

/// The start tags of `html`, as an HTML tokenizer reads them: comments,
/// declarations and end tags skipped, a `<` not followed by a letter text.
fn start_tags(html: &str) -> Vec<StartTag<'_>> {
    let mut tags = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        if let Some(comment) = rest.strip_prefix("!--") {
            rest = comment.find("-->").map_or("", |end| &comment[end + 3..]);
            continue;
        }
        if rest.starts_with(['/', '!', '?']) {
            rest = rest.find('>').map_or("", |end| &rest[end + 1..]);
            continue;
        }
        if !rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        let end = rest
            .find(|c: char| is_space(c) || c == '/' || c == '>')
            .unwrap_or(rest.len());
        let name = rest[..end].to_ascii_lowercase();
        rest = &rest[end..];
        let mut attributes = Vec::new();
        loop {
            rest = rest.trim_start_matches(|c: char| is_space(c) || c == '/');
            if rest.is_empty() {
                break;
            }
            if let Some(after) = rest.strip_prefix('>') {
                rest = after;
                break;
            }
            // An attribute's name may start with `=`; it ends at a space,
            // `/`, `>` or `=`.
            let end = rest
                .char_indices()
                .skip(1)
                .find(|&(_, c)| is_space(c) || matches!(c, '/' | '>' | '='))
                .map_or(rest.len(), |(i, _)| i);
            let attribute = rest[..end].to_ascii_lowercase();
            rest = rest[end..].trim_start_matches(is_space);
            let mut value = "";
            if let Some(after) = rest.strip_prefix('=') {
                rest = after.trim_start_matches(is_space);
                match rest.chars().next() {
                    Some(quote @ ('"' | '\'')) => {
                        let inner = &rest[1..];
                        let end = inner.find(quote).unwrap_or(inner.len());
                        value = &inner[..end];
                        rest = inner.get(end + 1..).unwrap_or("");
                    }
                    _ => {
                        let end = rest
                            .find(|c: char| is_space(c) || c == '>')
                            .unwrap_or(rest.len());
                        value = &rest[..end];
                        rest = &rest[end..];
                    }
                }
            }
            attributes.push((attribute, decode_references(value)));
        }
        let mut raw_text = "";
        if matches!(
            name.as_str(),
            "script" | "style" | "title" | "textarea" | "xmp" | "iframe" | "noscript"
        ) {
            let close = format!("</{name}");
            let end = rest.to_ascii_lowercase().find(&close).unwrap_or(rest.len());
            raw_text = &rest[..end];
            rest = &rest[end..];
        }
        tags.push(StartTag {
            name,
            attributes,
            raw_text,
        });
    }
    tags
}

/// An attribute's value with its character references decoded: numeric
/// ones, and the named ones that could hide a URL's scheme.
fn decode_references(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at + 1..];
        let end = rest
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '#')
            .unwrap_or(rest.len());
        let reference = &rest[..end];
        let decoded = match reference {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "colon" => Some(':'),
            "Tab" => Some('\t'),
            "NewLine" => Some('\n'),
            r => r.strip_prefix('#').and_then(|n| {
                let code = match n.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => n.parse().ok(),
                };
                code.and_then(char::from_u32)
            }),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[end..];
                rest = rest.strip_prefix(';').unwrap_or(rest);
            }
            None => out.push('&'),
        }
    }
    out.push_str(rest);
    out
}

/// Whether `url` (of the page at `page`) names a file of the site's
/// `assets/` folder ending in `suffix`.
fn own_asset(page: &str, url: &str, suffix: &str) -> bool {
    let root = super::html::root_of(page);
    url.strip_prefix(&root)
        .and_then(|rest| rest.strip_prefix("assets/"))
        .is_some_and(|name| {
            name.ends_with(suffix)
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
                && !name.contains("..")
        })
}

/// What is wrong with the page at `page` (its path from the site's root),
/// as the check reads its HTML `html`: each problem once per place.
pub fn markup_problems(page: &str, html: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut policy = false;
    let mut before_policy = Vec::new();
    for tag in start_tags(html) {
        let name = tag.name.as_str();
        if !ELEMENTS.contains(&name) {
            problems.push(format!("an element <{name}> the site does not write"));
        }
        for (attribute, value) in &tag.attributes {
            if attribute.starts_with("on") {
                problems.push(format!("an event attribute {attribute}= on <{name}>"));
            } else if !ATTRIBUTES.contains(&attribute.as_str()) {
                problems.push(format!(
                    "an attribute {attribute}= the site does not write, on <{name}>"
                ));
            }
            if URL_ATTRIBUTES.contains(&attribute.as_str()) {
                if let Some(scheme) =
                    url_scheme(value).filter(|s| !SAFE_SCHEMES.contains(&s.as_str()))
                {
                    problems.push(format!("a {scheme}: URL in {attribute}= of <{name}>"));
                }
            }
        }
        match name {
            "script" => {
                let src = tag.attribute("src").unwrap_or("");
                if !own_asset(page, src, ".js") || !tag.raw_text.trim().is_empty() {
                    problems.push(format!(
                        "a script that is not one of the site's assets: <script src={src:?}>"
                    ));
                }
            }
            "link" => {
                let href = tag.attribute("href").unwrap_or("");
                if tag.attribute("rel") != Some("stylesheet") || !own_asset(page, href, ".css") {
                    problems.push(format!(
                        "a <link> that is not the site's style sheet: {href:?}"
                    ));
                }
            }
            "meta" => match tag.attribute("http-equiv") {
                None => {}
                Some(h) if h.eq_ignore_ascii_case("content-security-policy") => {
                    match tag.attribute("content") == Some(CONTENT_SECURITY_POLICY) {
                        true => policy = true,
                        false => problems.push("another Content-Security-Policy".into()),
                    }
                }
                Some(h) => problems.push(format!("a <meta http-equiv={h:?}>")),
            },
            _ => {}
        }
        if !policy && matches!(name, "script" | "link" | "body") {
            before_policy.push(name.to_string());
        }
    }
    if !policy {
        problems.push("no Content-Security-Policy".into());
    } else if let Some(first) = before_policy.first() {
        problems.push(format!("a <{first}> before the Content-Security-Policy"));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(body: &str) -> String {
        format!(
            "<!doctype html><html lang=en><meta charset=utf-8>\
             <meta http-equiv=Content-Security-Policy content=\"{CONTENT_SECURITY_POLICY}\">\
             <link rel=stylesheet href=\"../assets/style.css\">\
             <script src=\"../assets/site.js\" defer></script><body data-root=\"../\">{body}"
        )
    }

    #[test]
    fn the_site_s_own_markup_passes() {
        let body = "<h1>x</h1><p class=meta><a href=\"../suite/native/q~22.html#a%22b\">q</a> \
                    <a href=\"https://example.org/?a=1&amp;b=2\" title=\"t &quot;\">e</a> \
                    <a href=\"mailto:a@example.org\">m</a> &lt;img src=x onerror=alert(1)&gt;\
                    <section id=\"q&quot; onmouseover=&quot;x\"><h3>n</h3></section>\
                    <form class=search action=\"../search.html\"><input type=search name=q></form>\
                    <!-- <img> --><script src=\"../assets/verdicts.js\"></script>";
        assert_eq!(
            markup_problems("suite/x.html", &page(body)),
            Vec::<String>::new()
        );
    }

    #[test]
    fn live_html_is_found() {
        let cases = [
            ("<img src=x onerror=alert(1)>", 2),
            ("<script>alert(1)</script>", 1),
            ("<script src=\"https://evil.example/x.js\"></script>", 1),
            ("<script src=\"../assets/../../x.js\"></script>", 1),
            ("<a href=\"javascript:alert(1)\">a</a>", 1),
            ("<a href=\" &#106;ava&#x73;cript&colon;alert(1)\">a</a>", 1),
            ("<a href=\"java&Tab;script:alert(1)\">a</a>", 1),
            ("<a href='data:text/html,x'>a</a>", 1),
            ("<li data-f=\"q\" onmouseover=\"alert(1)\">", 1),
            ("<b onmouseover=alert(1)>b</b>", 1),
            ("<iframe src=x></iframe>", 1),
            ("<svg onload=alert(1)>", 2),
            ("<style>x{}</style>", 1),
            ("<td style=\"text-align: right\">", 1),
            ("<FUNCTION NAME>", 1),
            ("<meta http-equiv=refresh content=\"0;url=x\">", 1),
            (
                "<link rel=stylesheet href=\"https://evil.example/x.css\">",
                1,
            ),
            ("<base href=\"https://evil.example/\">", 1),
        ];
        for (html, count) in cases {
            let found = markup_problems("suite/x.html", &page(html));
            assert_eq!(found.len(), count, "{html}: {found:?}");
        }
        // A page without its policy, or with a script before it.
        let bare = "<!doctype html><body><p>x";
        assert_eq!(
            markup_problems("index.html", bare),
            ["no Content-Security-Policy"]
        );
        let late = format!(
            "<script src=\"assets/site.js\"></script>\
             <meta http-equiv=Content-Security-Policy content=\"{CONTENT_SECURITY_POLICY}\">"
        );
        assert_eq!(
            markup_problems("index.html", &late),
            ["a <script> before the Content-Security-Policy"]
        );
    }
}
