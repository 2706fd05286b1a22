//! The site's own link check (`docs --check`, and the tests): the ids
//! each page defines, the links it holds (its `href` and `src`
//! attributes, and the links the site's script `assets/site.js` builds
//! from compact case and requirement references), and the links inside
//! the site that do not resolve.

use super::addresses::{requirement_page, suite_page};
use super::html;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The ids a page defines (`id="..."`) and the links it holds
/// (`href="..."`, `src="..."` of its scripts, and the links the site's
/// script builds from compact references, see [`script_links`]), as the
/// site's own check reads them: what the link check test and `docs
/// --check` hold every page to.
pub fn ids_and_links(html: &str) -> (Vec<String>, Vec<String>) {
    let attribute = |name: &str| {
        let pattern = format!(" {name}=\"");
        let mut found = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find(&pattern) {
            rest = &rest[at + pattern.len()..];
            let end = rest.find('"').unwrap_or(rest.len());
            found.push(unescape(&rest[..end]));
            rest = &rest[end..];
        }
        found
    };
    (
        attribute("id"),
        [attribute("href"), attribute("src"), script_links(html)].concat(),
    )
}

/// A case reference the site's script links: `<a class=c>FILE::NAME</a>`.
pub const CASE_REFERENCE: &str = "<a class=c>";

/// A requirement reference the script links: `<a class=r>ID</a>`, to the
/// requirement on the page of its document ([`requirement_page`]).
pub const REQUIREMENT_REFERENCE: &str = "<a class=r>";

/// A list of cases of one file the script links, each name to its case,
/// led by the file's name linked to its page: `<li data-f="FILE">NAME,
/// NAME</li>`.
pub const CASE_LIST: &str = " data-f=\"";
/// A list of requirement ids the script links, each to the anchor `r:ID`
/// of the same page (where a suite page quotes its text):
/// `<p class=rs>ID ID</p>`.
pub const REQUIREMENT_LIST: &str = " class=rs>";

/// The links the site's script (`assets/site.js`) builds from a page's
/// compact references, as it builds them: a case `FILE::NAME` links to
/// `ROOT/suite/FILE.html#FILE::NAME` (`ROOT` the page's `data-root`), a
/// requirement id of a list to `#r:ID`. A reference's text is plain text
/// up to the next tag.
pub fn script_links(html: &str) -> Vec<String> {
    let root = html
        .split_once(" data-root=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map_or(String::new(), |(root, _)| unescape(root));
    let case = |id: &str| {
        let file = id.split("::").next().unwrap_or(id);
        format!("{root}{}#{}", suite_page(file), html::fragment(id))
    };
    let texts = |pattern: &str| {
        let mut found: Vec<(String, String)> = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find(pattern) {
            rest = &rest[at + pattern.len()..];
            // What an attribute names (up to its quote), and the text.
            let (value, text) = match pattern.ends_with('"') {
                true => {
                    let end = rest.find('"').unwrap_or(rest.len());
                    let value = &rest[..end];
                    let text = rest.find('>').map_or("", |gt| &rest[gt + 1..]);
                    (value, text)
                }
                false => ("", rest),
            };
            let text = &text[..text.find('<').unwrap_or(text.len())];
            found.push((unescape(value), unescape(text)));
        }
        found
    };
    let items = |text: &str| -> Vec<String> {
        text.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let mut links = Vec::new();
    // A reference's text, which may be in a `code` element.
    let references = |pattern: &str| {
        let mut found = Vec::new();
        let mut rest = html;
        while let Some(at) = rest.find(pattern) {
            rest = &rest[at + pattern.len()..];
            let content = &rest[..rest.find("</a>").unwrap_or(rest.len())];
            let text: String = content
                .split('<')
                .map(|part| part.split_once('>').map_or(part, |(_, text)| text))
                .collect();
            found.push(unescape(&text).trim().to_string());
        }
        found
    };
    for id in references(CASE_REFERENCE) {
        links.push(case(&id));
    }
    for id in references(REQUIREMENT_REFERENCE) {
        links.push(format!(
            "{root}{}#{}",
            requirement_page(&id),
            html::fragment(&id)
        ));
    }
    for (file, names) in texts(CASE_LIST) {
        links.push(format!("{root}{}", suite_page(&file)));
        for name in items(&names) {
            links.push(case(&format!("{file}::{name}")));
        }
    }
    for (_, ids) in texts(REQUIREMENT_LIST) {
        for id in items(&ids) {
            links.push(format!("#{}", html::fragment(&format!("r:{id}"))));
        }
    }
    links
}

fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Every link of the site at `dir` that points inside it and does not
/// resolve (its file missing, or its anchor not an id of that file), as
/// `PAGE: LINK`.
pub fn broken_links(dir: &Path) -> Result<Vec<String>, String> {
    let mut pages: Vec<(String, String)> = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
    {
        let path = entry.path();
        if path.extension().is_none_or(|x| x != "html") {
            continue;
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let relative = path
            .strip_prefix(dir)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        pages.push((relative, text));
    }
    Ok(broken_links_of(
        pages.iter().map(|(p, t)| (p.clone(), t.as_str())),
        &|file| dir.join(file).is_file(),
    ))
}

/// Every link of `pages` (each its path from the site's root, and its
/// HTML) that points inside the site and does not resolve: to a page
/// missing or without its anchor, or to another file (`is_file`, by path
/// from the root) missing; as `PAGE: LINK`.
pub fn broken_links_of<'a>(
    pages: impl Iterator<Item = (String, &'a str)>,
    is_file: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let mut read: BTreeMap<String, (BTreeSet<String>, Vec<String>)> = BTreeMap::new();
    for (path, text) in pages {
        let (ids, links) = ids_and_links(text);
        read.insert(path, (ids.into_iter().collect(), links));
    }
    let mut broken = Vec::new();
    for (page, (_, links)) in &read {
        for link in links {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (target, anchor) = match link.split_once('#') {
                Some((t, a)) => (t, Some(percent_decode(a))),
                None => (link.as_str(), None),
            };
            let target = percent_decode(target.split('?').next().unwrap_or(""));
            let resolved = if target.is_empty() {
                Some(page.clone())
            } else {
                resolve(page, &target)
            };
            let ok = match resolved {
                Some(file) if file.ends_with(".html") => match read.get(&file) {
                    Some((ids, _)) => anchor.is_none_or(|a| ids.contains(&a)),
                    None => false,
                },
                Some(file) => is_file(&file) && anchor.is_none(),
                None => false,
            };
            if !ok {
                broken.push(format!("{page}: {link}"));
            }
        }
    }
    broken
}

/// `target` relative to the page `page`, as a path from the root; `None`
/// when it leaves the site.
fn resolve(page: &str, target: &str) -> Option<String> {
    let folder = page.rsplit_once('/').map_or("", |(folder, _)| folder);
    join_path(folder, target)
}

/// A relative `link` followed from the folder `base` (`a/b`, `""` for the
/// root): the path it names, or `None` when it climbs above the root.
pub(crate) fn join_path(base: &str, link: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in link.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = || {
            std::str::from_utf8(bytes.get(i + 1..i + 3)?)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        };
        match (bytes[i], hex()) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The references the site writes (`templates/reference.html`) are
    /// the ones the check reads.
    #[test]
    fn the_site_writes_the_references_the_check_reads() {
        let case = super::super::addresses::case_reference("native/x::a");
        assert_eq!(case, format!("{CASE_REFERENCE}native/x::a</a>"));
        let requirement = super::super::addresses::reference("r", "native.x.001");
        assert_eq!(
            requirement,
            format!("{REQUIREMENT_REFERENCE}native.x.001</a>")
        );
        let (_, links) = ids_and_links(&format!("<body data-root=\"\">{case} {requirement}"));
        assert_eq!(
            links,
            [
                "suite/native/x.html#native/x::a",
                "spec/native.html#native.x.001"
            ]
        );
    }

    #[test]
    fn the_links_the_script_builds_are_read() {
        let page = "<body data-root=\"../\"><a class=c>native/x::a-b</a> \
                    <ul><li data-f=\"json/y\">c, d-e</ul> <p class=rs>native.x.001 r.2</p> \
                    <a href=\"#top\">t</a> <a class=r><code>json.y.002</code></a>";
        let (_, links) = ids_and_links(page);
        assert_eq!(
            links,
            [
                "#top",
                "../suite/native/x.html#native/x::a-b",
                "../spec/json.html#json.y.002",
                "../suite/json/y.html",
                "../suite/json/y.html#json/y::c",
                "../suite/json/y.html#json/y::d-e",
                "#r:native.x.001",
                "#r:r.2",
            ]
        );
    }

    /// A site of two pages whose script-built links all resolve but for
    /// one case reference, one requirement reference, one name of a case
    /// list, a list of a file that does not exist and one requirement id
    /// of a list.
    #[test]
    fn the_link_check_finds_broken_references_the_script_links() {
        let dir = std::env::temp_dir().join(format!("docs-refs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("suite/native")).unwrap();
        std::fs::create_dir_all(dir.join("spec")).unwrap();
        std::fs::write(
            dir.join("suite/native/x.html"),
            "<body data-root=\"../../\"><section id=\"native/x::a\"><p class=rs>n.1 n.9</section>\
             <section id=\"native/x::b\"></section><div id=\"r:n.1\"></div>",
        )
        .unwrap();
        std::fs::write(
            dir.join("spec/native.html"),
            "<body data-root=\"../\"><a class=c>native/x::a</a> <a class=c>native/x::gone</a> \
             <ul><li data-f=\"native/x\">a, b, c<li data-f=\"native/none\">a</ul>\
             <div id=\"native.1\"></div> <a class=r>native.1</a> <a class=r>native.2</a>",
        )
        .unwrap();
        let broken = broken_links(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            broken,
            [
                "spec/native.html: ../suite/native/x.html#native/x::gone",
                "spec/native.html: ../spec/native.html#native.2",
                "spec/native.html: ../suite/native/x.html#native/x::c",
                "spec/native.html: ../suite/native/none.html",
                "spec/native.html: ../suite/native/none.html#native/none::a",
                "suite/native/x.html: #r:n.9",
            ]
        );
    }
}
