//! The documentation site built from a hostile suite: case files, notes,
//! requirements and a matrix run whose texts hold HTML (`<img onerror>`,
//! `<script>`, `javascript:` links, an `<iframe>`...), a case file named so
//! that its name would close an attribute and open another, and
//! implementations named `../../../escaped`. Suites and matrix files come
//! from other people's pull requests and the site is published, so every
//! generated file is scanned: no element, event attribute or dangerous URL
//! from the hostile text is live, the text is still shown (escaped),
//! nothing is written outside `--out`, and `docs --check` refuses a site
//! with a bad page before writing anything.
//!
//! The scanner here is the test's own (a small HTML tokenizer), not the
//! site's `--check`, so that one is tested by the other; only the
//! tables of the elements and attributes the site writes are the
//! library's own (`docs::check::ELEMENTS`, `ATTRIBUTES`).
//! `HOSTILE_SITE_BINARY=PATH` runs the command-line tests with another
//! build of `hcl-conformance` (to see what an older one lets through).

use hcl_conformance_format::suite::load_suite;
use hcl_conformance_site::docs::check::{ATTRIBUTES, ELEMENTS};
use hcl_conformance_site::docs::{self, results::Results};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Markdown carrying HTML and links a published site must not run.
const HOSTILE: &str = "Text <img src=x onerror=alert(1)> and <script>alert(2)</script> \
<a href=\"javascript:alert(3)\">a</a> [b](javascript:alert(4)) [c](javascript://%0aalert(5)) \
[d](JaVaScRiPt:alert(6)) [e](&#106;avascript:alert(7)) [f](java\tscript:alert(8)) \
[g](data:text/html,alert9) [h](vbscript:alert10) <javascript:alert(11)> [i][ref] \
![j](javascript:alert(12)) ![k](https://evil.example/track.png) \
<iframe src=\"https://evil.example/\"></iframe> <svg onload=alert(13)> \
<style>body{display:none}</style> <b onmouseover=\"alert(14)\">b</b> \
<FUNCTION NAME>(<ARGUMENT>) `<code>` [ok](https://example.org/?a=1&b=\"2\").\n\n\
<div onclick=\"alert(15)\">a block of HTML</div>\n\n\
| left | right |\n| :--- | ---: |\n| <img src=x onerror=alert(16)> | 1 |\n\n\
[ref]: javascript:alert(17)\n";

/// A case file's name that closes a quoted attribute and opens one.
const ATTRIBUTE_NAME: &str = "q\" onmouseover=\"alert(18)";
/// A case file's name that is a tag.
const TAG_NAME: &str = "<img src=x onerror=alert(19)>";

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("hostile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `text` as a YAML block scalar's lines, indented by `indent` spaces.
fn block(text: &str, indent: usize) -> String {
    let pad = " ".repeat(indent);
    text.lines()
        .map(|l| format!("{pad}{l}\n"))
        .collect::<String>()
}

const SECTION: &str = "hclsyntax-spec.md#hcl-native-syntax-specification";
const REQUIREMENT: &str = "native.hcl-native-syntax-specification.001";

/// A small hostile suite at `root/suite` (notes at `root/spec-notes`), and
/// a matrix run's details at `root/matrix`.
fn hostile_suite(root: &Path) {
    let suite = root.join("suite");
    let requirement = |id: &str, doc: &str, section: &str, anchor: &str| {
        serde_json::json!({
            "id": id, "doc": doc, "section": section, "anchor": anchor,
            "text": HOSTILE, "kind": "rule", "testable": true,
            "ambiguity": "<img src=x onerror=alert(20)>",
        })
        .to_string()
    };
    write(
        &suite.join("requirements.jsonl"),
        &[
            requirement(
                REQUIREMENT,
                "hclsyntax-spec.md",
                "HCL Native Syntax Specification",
                "hcl-native-syntax-specification",
            ),
            // A document the site does not know, its names hostile.
            requirement(
                "x\"><img src=x onerror=alert(21)>.001",
                "../\"><img src=x onerror=alert(22)>.md",
                "<script>alert(23)</script>",
                "\"><svg onload=alert(24)>",
            ),
        ]
        .join("\n"),
    );
    write(
        &suite.join("native/hostile.yaml"),
        &format!(
            "spec: {SECTION}\nsummary: |\n{}kind: expr\ncases:\n  - name: hostile-texts\n    description: |\n{}    \
             covers: [{REQUIREMENT}]\n    expr: '\"<img src=x onerror=alert(25)>\"'\n    expect:\n      one-of:\n        \
             - {{ type: string, value: \"<img src=x onerror=alert(26)>\" }}\n        \
             - {{ type: string, value: \"<script>alert(27)</script>\" }}\n    implementation-defined: |\n{}    \
             profiles:\n      hcl-v2.14:\n        expect: {{ type: string, value: \"<svg onload=alert(28)>\" }}\n        \
             note: spec-notes/gaps/hostile.md\n",
            block(HOSTILE, 2),
            block(HOSTILE, 6),
            block(HOSTILE, 6),
        ),
    );
    for (name, file) in [(ATTRIBUTE_NAME, "attribute"), (TAG_NAME, "tag")] {
        write(
            &suite.join(format!("native/{name}.yaml")),
            &format!(
                "spec: {SECTION}\nsummary: A file named to break out of an attribute or to be a tag ({file}).\n\
                 kind: expr\ncases:\n  - name: badly-named-{file}\n    covers: [{REQUIREMENT}]\n    \
                 expr: '1'\n    expect: {{ type: number, value: 1 }}\n"
            ),
        );
    }
    let notes = root.join("spec-notes");
    write(&notes.join("README.md"), &format!("# Notes\n\n{HOSTILE}"));
    write(
        &notes.join("gaps/hostile.md"),
        &format!(
            "# A note <img src=x onerror=alert(29)>\n\nRequirements: {REQUIREMENT}\n\n\
             ## What the suite expects\n\n{HOSTILE}\n## Why\n\n{HOSTILE}"
        ),
    );
    write(
        &notes.join(format!("gaps/{ATTRIBUTE_NAME}.md")),
        &format!("# {TAG_NAME}\n\n{HOSTILE}"),
    );

    // The matrix: implementations named to climb out of `--out`, or as
    // tags and attributes, their descriptions and verdicts hostile.
    let names = [
        "reference",
        "../../../escaped",
        "..",
        ATTRIBUTE_NAME,
        TAG_NAME,
    ];
    let implementations: Vec<_> = names
        .iter()
        .map(|name| {
            serde_json::json!({
                "name": name,
                "description": "<img src=x onerror=alert(30)>",
                "profile": "<script>alert(31)</script>",
                "kinds": ["<svg onload=alert(32)>"],
                "features": ["\"><b onmouseover=alert(33)>"],
                "known_failures": "<iframe src=javascript:alert(34)>",
                "totals": { "passed": 1, "failed": 1, "unsupported": 1 },
            })
        })
        .collect();
    let loaded = load_suite(&suite).expect("the hostile suite loads");
    let cases: Vec<_> = loaded
        .cases()
        .enumerate()
        .map(|(n, case)| {
            let results: serde_json::Map<_, _> = names
                .iter()
                .enumerate()
                .map(|(i, name)| {
                    let status = ["passed", "failed", "unsupported"][(n + i) % 3];
                    let verdict = serde_json::json!({
                        "status": status,
                        "reason": "<img src=x onerror=alert(35)>",
                        "listed": i % 2 == 0,
                    });
                    (name.to_string(), verdict)
                })
                .collect();
            serde_json::json!({ "id": case.id, "area": case.area, "results": results })
        })
        .collect();
    write(
        &root.join("matrix/matrix-details.json"),
        &serde_json::json!({ "implementations": implementations, "cases": cases }).to_string(),
    );
}

/// A tag of an HTML page: its name and attributes (names lowercased,
/// values with character references decoded), and for `script`, whether
/// it has content.
#[derive(Debug)]
struct Tag {
    name: String,
    attributes: Vec<(String, String)>,
    content: String,
}

/// The start tags of `html`, read as a browser's tokenizer reads them
/// (comments, end tags and text skipped; `script` and `style` content
/// raw text).
fn tags(html: &str) -> Vec<Tag> {
    let bytes = html.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(at) = html[i..].find('<') {
        i += at + 1;
        if html[i..].starts_with("!--") {
            i = html[i..].find("-->").map_or(html.len(), |e| i + e + 3);
            continue;
        }
        if bytes.get(i).is_some_and(|b| b"/!?".contains(b)) {
            i = html[i..].find('>').map_or(html.len(), |e| i + e + 1);
            continue;
        }
        if !bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
            continue;
        }
        let end_of = |from: usize, stop: &dyn Fn(u8) -> bool| {
            (from..bytes.len())
                .find(|&j| stop(bytes[j]))
                .unwrap_or(bytes.len())
        };
        let space = |b: u8| b" \t\n\x0c\r".contains(&b);
        let name_end = end_of(i, &|b| space(b) || b == b'/' || b == b'>');
        let name = html[i..name_end].to_ascii_lowercase();
        i = name_end;
        let mut attributes = Vec::new();
        loop {
            i = end_of(i, &|b| !space(b) && b != b'/');
            if i >= bytes.len() || bytes[i] == b'>' {
                i += 1;
                break;
            }
            let attr_end = end_of(i + 1, &|b| space(b) || b == b'/' || b == b'>' || b == b'=');
            let attr = html[i..attr_end].to_ascii_lowercase();
            i = end_of(attr_end, &|b| !space(b));
            let mut value = String::new();
            if bytes.get(i) == Some(&b'=') {
                i = end_of(i + 1, &|b| !space(b));
                match bytes.get(i) {
                    Some(&q) if q == b'"' || q == b'\'' => {
                        let e = end_of(i + 1, &|b| b == q);
                        value = html[i + 1..e.min(html.len())].to_string();
                        i = e + 1;
                    }
                    _ => {
                        let e = end_of(i, &|b| space(b) || b == b'>');
                        value = html[i..e].to_string();
                        i = e;
                    }
                }
            }
            attributes.push((attr, decode(&value)));
        }
        let mut content = String::new();
        if ["script", "style", "title", "textarea"].contains(&name.as_str()) {
            let close = format!("</{name}");
            let e = html[i.min(html.len())..]
                .to_ascii_lowercase()
                .find(&close)
                .map_or(html.len(), |e| i + e);
            content = html[i.min(html.len())..e].to_string();
            i = e;
        }
        found.push(Tag {
            name,
            attributes,
            content,
        });
        if i >= html.len() {
            break;
        }
    }
    found
}

/// Character references decoded, as far as a URL's scheme needs.
fn decode(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').unwrap_or(0);
        let entity = &rest[1..end.max(1)];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "colon" => Some(':'),
            "Tab" => Some('\t'),
            "NewLine" => Some('\n'),
            e if e.starts_with("#x") || e.starts_with("#X") => u32::from_str_radix(&e[2..], 16)
                .ok()
                .and_then(char::from_u32),
            e if e.starts_with('#') => e[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match (decoded, end) {
            (Some(c), e) if e > 0 => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A URL's scheme as a browser reads it (tabs and newlines removed,
/// leading spaces and controls trimmed), lowercased; `None` for a
/// relative URL.
fn scheme(url: &str) -> Option<String> {
    let url: String = url
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let colon = url.find(':')?;
    let scheme = &url[..colon];
    let valid = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    valid.then(|| scheme.to_ascii_lowercase())
}

/// What is live in a page that should not be: elements and attributes
/// the site does not write, event attributes, inline scripts and styles,
/// scripts from elsewhere than the site's assets, and URLs with a scheme
/// other than http, https and mailto.
fn live_html(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    for tag in tags(html) {
        let name = &tag.name;
        if !ELEMENTS.contains(&name.as_str()) {
            found.push(format!("element <{name}>"));
        }
        for (attr, value) in &tag.attributes {
            if attr.starts_with("on") {
                found.push(format!("event attribute {attr}= on <{name}>"));
            } else if !ATTRIBUTES.contains(&attr.as_str()) {
                found.push(format!("attribute {attr}= on <{name}>"));
            }
            if ["href", "src", "action"].contains(&attr.as_str()) {
                if let Some(s) =
                    scheme(value).filter(|s| !["http", "https", "mailto"].contains(&s.as_str()))
                {
                    found.push(format!("{s}: URL in {attr}= of <{name}>"));
                }
            }
        }
        let attribute = |a: &str| {
            tag.attributes
                .iter()
                .find(|(n, _)| n == a)
                .map(|(_, v)| v.as_str())
        };
        if name == "script" {
            let own = attribute("src").is_some_and(|src| {
                scheme(src).is_none()
                    && ["site.js", "search-index.js", "verdicts.js"]
                        .iter()
                        .any(|asset| src.trim_start_matches("../") == format!("assets/{asset}"))
            });
            if !own || !tag.content.trim().is_empty() {
                found.push(format!("script {:?}", attribute("src")));
            }
        }
        if name == "meta"
            && attribute("http-equiv")
                .is_some_and(|h| !h.eq_ignore_ascii_case("content-security-policy"))
        {
            found.push("meta http-equiv".into());
        }
    }
    found
}

/// Every file below `dir`.
fn tree(dir: &Path) -> BTreeSet<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}

/// What is live in the site at `dir`, as `FILE: WHAT`: every page
/// scanned, and every file that is neither a page nor one of the site's
/// assets.
fn scan_site(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for path in tree(dir) {
        let relative = path
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        match relative.rsplit_once('.').map(|(_, x)| x) {
            Some("html") => found.extend(
                live_html(&text)
                    .into_iter()
                    .map(|w| format!("{relative}: {w}")),
            ),
            _ if ["assets/style.css", "assets/site.js"].contains(&relative.as_str()) => {}
            // The data scripts are one JSON value each, which the site's
            // script shows as text.
            _ if ["assets/search-index.js", "assets/verdicts.js"].contains(&relative.as_str()) => {
                let code: String = text.lines().filter(|l| !l.starts_with("//")).collect();
                let json = code
                    .split_once(" = ")
                    .map(|(_, j)| j.trim_end().trim_end_matches(';'));
                if json
                    .and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok())
                    .is_none()
                {
                    found.push(format!("{relative}: not one JSON value"));
                }
            }
            _ => found.push(format!("{relative}: a file the site does not write")),
        }
    }
    found
}

/// How many findings of each kind (what follows the file's name, without
/// the numbers of the `alert`s).
fn by_kind(found: &[String]) -> std::collections::BTreeMap<String, usize> {
    let mut kinds = std::collections::BTreeMap::new();
    for f in found {
        let what = f.rsplit_once(".html: ").map_or(f.as_str(), |(_, w)| w);
        let what: String = what.chars().filter(|c| !c.is_ascii_digit()).collect();
        *kinds.entry(what).or_insert(0) += 1;
    }
    kinds
}

/// The hostile text, as it reads: these must be shown, escaped.
const SHOWN: &[&str] = &[
    "&lt;img src=x onerror=alert(1)&gt;",
    "&lt;script&gt;alert(2)&lt;/script&gt;",
    "&lt;FUNCTION NAME&gt;(&lt;ARGUMENT&gt;)",
    "&lt;div onclick=&quot;alert(15)&quot;&gt;a block of HTML&lt;/div&gt;",
];

#[test]
fn the_scanner_finds_live_html() {
    let page =
        |body: &str| format!("<!doctype html><html lang=en><body data-root=\"\">{body}</body>");
    let live = [
        ("<img src=x onerror=alert(1)>", 2),
        ("<script>alert(1)</script>", 1),
        ("<script src=\"https://evil.example/x.js\"></script>", 1),
        ("<a href=\"javascript:alert(1)\">a</a>", 1),
        ("<a href=\" &#106;ava&#x73;cript&colon;alert(1)\">a</a>", 1),
        ("<a href=\"java\tscript:alert(1)\">a</a>", 1),
        ("<a href='data:text/html,x'>a</a>", 1),
        ("<li data-f=\"q\" onmouseover=\"alert(1)\">", 1),
        ("<b onmouseover=alert(1)>b</b>", 1),
        ("<iframe src=x></iframe>", 1),
        ("<svg onload=alert(1)>", 2),
        ("<style>x{}</style>", 1),
        ("<td style=\"text-align: right\">", 1),
        ("<FUNCTION NAME>", 1),
        (
            "<meta http-equiv=refresh content=\"0;url=javascript:alert(1)\">",
            1,
        ),
    ];
    for (html, count) in live {
        let found = live_html(&page(html));
        assert_eq!(found.len(), count, "{html}: {found:?}");
    }
    let quiet = [
        "&lt;img src=x onerror=alert(1)&gt;",
        "<a href=\"https://example.org/?a=1&amp;b=2\" title=\"t\">a</a>",
        "<a href=\"../suite/native/q~22~20onmouseover~3D~22alert~2818~29.html\">q</a>",
        "<section id=\"q&quot; onmouseover=&quot;alert(1)\"><h3>x</h3></section>",
        "<script src=\"../assets/site.js\" defer></script><p>onerror=alert(1)</p>",
        "<meta http-equiv=Content-Security-Policy content=\"default-src 'self'\">",
    ];
    for html in quiet {
        assert_eq!(live_html(&page(html)), Vec::<String>::new(), "{html}");
    }
    assert_eq!(
        scheme("\u{1} JAVA\tSCRIPT:x").as_deref(),
        Some("javascript")
    );
    assert_eq!(scheme("../a.html#b:c"), None);
}

/// The path of the `hcl-conformance` to run.
fn binary() -> PathBuf {
    std::env::var_os("HOSTILE_SITE_BINARY").map_or_else(
        || env!("CARGO_BIN_EXE_hcl-conformance").into(),
        PathBuf::from,
    )
}

/// `hcl-conformance docs` on `root`'s suite and matrix, writing to `out`.
fn docs(root: &Path, out: &Path, check: bool) -> std::process::Output {
    let mut command = Command::new(binary());
    command
        .arg("docs")
        .arg("--suite")
        .arg(root.join("suite"))
        .arg("--matrix")
        .arg(root.join("matrix"))
        .arg("--out")
        .arg(out);
    if check {
        command.arg("--check");
    }
    command.output().expect("hcl-conformance runs")
}

#[test]
fn a_hostile_suite_makes_a_site_with_no_live_html() {
    let scratch = Scratch::new("cli");
    let root = &scratch.0;
    hostile_suite(root);
    // Deep enough that `impl/../../../escaped.html` would stay in the
    // scratch folder, where the test sees it.
    let out = root.join("a/b/c/site");
    let before = tree(root);
    let output = docs(root, &out, true);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let written: BTreeSet<PathBuf> = tree(root).difference(&before).cloned().collect();
    let outside: Vec<_> = written.iter().filter(|p| !p.starts_with(&out)).collect();
    let live = scan_site(&out);
    assert!(
        live.is_empty() && outside.is_empty(),
        "{} live, by kind: {:#?}\nthe first: {:#?}\n{} files outside --out: {outside:?}\n{stderr}",
        live.len(),
        by_kind(&live),
        &live[..live.len().min(20)],
        outside.len()
    );
    assert!(output.status.success(), "docs --check failed: {stderr}");

    // The hostile text is shown, as text.
    let pages: String = tree(&out)
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    for shown in SHOWN {
        assert!(pages.contains(shown), "the site does not show {shown}");
    }
    // Every suite file and implementation has its page, inside --out, and
    // every link resolves.
    let suite = load_suite(&root.join("suite")).unwrap();
    let results = Results::load(&root.join("matrix")).unwrap();
    let context = docs::context::Context::new(&suite, Some(&results)).unwrap();
    for file in &suite.files {
        assert!(
            out.join(docs::addresses::file_page(file)).is_file(),
            "{}",
            file.id
        );
    }
    assert_eq!(
        tree(&out.join("impl")).len(),
        results.implementations.len(),
        "{:?}",
        tree(&out.join("impl"))
    );
    assert_eq!(context.notes.len(), 3);
    for note in &context.notes {
        assert!(out.join(note.page()).is_file(), "{}", note.path);
    }
    assert_eq!(
        docs::links::broken_links(&out).unwrap(),
        Vec::<String>::new()
    );
}

#[test]
fn the_library_builds_the_same_safe_site() {
    let scratch = Scratch::new("lib");
    let root = &scratch.0;
    hostile_suite(root);
    let suite = load_suite(&root.join("suite")).unwrap();
    let results = Results::load(&root.join("matrix")).unwrap();
    let out = root.join("a/b/c/site");
    let before = tree(root);
    docs::build_site(&suite, Some(&results), &out).unwrap();
    let outside: Vec<_> = tree(root)
        .difference(&before)
        .filter(|p| !p.starts_with(&out))
        .cloned()
        .collect();
    assert_eq!(outside, Vec::<PathBuf>::new());
    assert_eq!(scan_site(&out), Vec::<String>::new());
}

#[test]
fn the_check_finds_a_tampered_page_before_anything_is_written() {
    let scratch = Scratch::new("tampered");
    let root = &scratch.0;
    hostile_suite(root);
    let suite = load_suite(&root.join("suite")).unwrap();
    let results = Results::load(&root.join("matrix")).unwrap();
    let site = docs::render_site(&suite, Some(&results)).unwrap();
    assert_eq!(site.problems(), Vec::<String>::new());
    let page = docs::addresses::suite_page("native/hostile");
    // A page that shows live HTML, and one that lost its
    // Content-Security-Policy, are found, each on its page.
    let tamper = |from: &str, to: &str| {
        let mut tampered = site.clone();
        let (_, text) = tampered.files.iter_mut().find(|(p, _)| *p == page).unwrap();
        assert!(text.contains(from), "{from}");
        *text = text.replacen(from, to, 1);
        tampered.problems()
    };
    for (from, to, problem) in [
        (
            "&lt;img src=x onerror=alert(1)&gt;",
            "<img src=x onerror=alert(1)>",
            "an event attribute onerror= on <img>",
        ),
        (
            "<a href=\"https://example.org/",
            "<a href=\"javascript:alert(1)//",
            "a javascript: URL in href= of <a>",
        ),
        (
            "<meta http-equiv=Content-Security-Policy",
            "<meta name=x",
            "no Content-Security-Policy",
        ),
        (
            "<a href=\"../../suite/index.html\"",
            "<a href=\"../../suite/gone.html\"",
            "../../suite/gone.html: a broken link",
        ),
    ] {
        let problems = tamper(from, to);
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with(&format!("{page}: ")) && p.ends_with(problem)),
            "{to}: {problems:?}"
        );
    }
    // The command checks before it writes: a note linking to an anchor no
    // page has makes `docs --check` fail with nothing written.
    let note = root.join("spec-notes/gaps/hostile.md");
    let text = std::fs::read_to_string(&note).unwrap();
    std::fs::write(&note, format!("{text}\n[a missing anchor](#nowhere)\n")).unwrap();
    let out = root.join("site");
    let output = docs(root, &out, true);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("notes/gaps/hostile.html: #nowhere"),
        "{stderr}"
    );
    assert!(!out.exists(), "docs --check wrote {}", out.display());
    // Without --check it writes the site.
    assert!(docs(root, &out, false).status.success());
    assert!(out.join("index.html").is_file());
}

#[test]
fn names_that_cannot_be_pages_are_refused() {
    let scratch = Scratch::new("names");
    let root = &scratch.0;
    hostile_suite(root);
    let case_file = |name: &str| {
        format!(
            "spec: {SECTION}\nsummary: A file named {name:?}.\nkind: expr\ncases:\n  - name: a-case\n    \
             covers: [{REQUIREMENT}]\n    expr: '1'\n    expect: {{ type: number, value: 1 }}\n"
        )
    };
    // A suite file whose page would be the suite's index.
    let index = root.join("suite/index.yaml");
    write(&index, &case_file("index"));
    let out = root.join("site");
    let output = docs(root, &out, false);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("two pages of the site would be suite/index.html"),
        "{stderr}"
    );
    assert!(!out.exists());
    std::fs::remove_file(&index).unwrap();
    // A name whose segment would be too long for a file system: 90 bytes,
    // each written `~XX`.
    let long = "<".repeat(90);
    write(
        &root.join(format!("suite/native/{long}.yaml")),
        &case_file("long"),
    );
    let output = docs(root, &out, false);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("too long a name for a page"), "{stderr}");
    assert!(!out.exists());
}

#[cfg(unix)]
#[test]
fn the_site_is_written_inside_its_folder_only() {
    let scratch = Scratch::new("inside");
    let root = &scratch.0;
    let out = root.join("site");
    let site = |path: &str| docs::Site {
        files: vec![(path.to_string(), "<!doctype html>".to_string())],
        pages: 1,
    };
    for path in [
        "../escaped.html",
        "a/../../escaped.html",
        "/tmp/escaped.html",
        "",
        "a\\..\\b.html",
    ] {
        let error = site(path).write(&out).unwrap_err();
        assert!(error.contains("refusing to write"), "{path}: {error}");
    }
    // A folder of the site that is a link out of it.
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("suite")).unwrap();
    let error = site("suite/native/x.html").write(&out).unwrap_err();
    assert!(error.contains("leads elsewhere"), "{error}");
    // A page that is a link.
    std::os::unix::fs::symlink(elsewhere.join("target.html"), out.join("index.html")).unwrap();
    let error = site("index.html").write(&out).unwrap_err();
    assert!(error.contains("symbolic link"), "{error}");
    assert_eq!(tree(&elsewhere), BTreeSet::new());
    assert_eq!(
        tree(root)
            .into_iter()
            .filter(|p| !p.starts_with(&out))
            .count(),
        0
    );
    // And a plain path is written.
    site("suite/native/x.html")
        .write(&root.join("plain"))
        .unwrap();
    assert!(root.join("plain/suite/native/x.html").is_file());
}
