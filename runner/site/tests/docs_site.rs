//! The documentation site (`hcl-conformance docs`): built from the whole
//! suite with a small fake matrix run, it passes `docs --check` (no HTML
//! but the site's own), every internal link and anchor resolves, every
//! case has exactly one anchor, every requirement and spec-note its place;
//! the link check finds broken links. (`hostile_site.rs`: the site of a
//! hostile suite.)

use hcl_conformance_format::documents;
use hcl_conformance_format::suite::{load_suite, Suite};
use hcl_conformance_site::docs::links::broken_links;
use hcl_conformance_site::docs::{render_site, results::Results};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("docs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn suite() -> Suite {
    load_suite(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../suite"
    )))
    .expect("the suite loads")
}

const NOTES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec-notes");

/// A matrix run's details, as `hcl-conformance matrix` writes them, for two
/// implementations: the reference passing everything, and `weak`, which
/// fails the splat cases and cannot run the JSON ones.
fn fake_matrix(suite: &Suite, dir: &Path) {
    let cases: Vec<_> = suite
        .cases()
        .map(|c| {
            let weak = if c.id.contains("splat") {
                serde_json::json!({ "status": "failed", "reason": "$: expected a list, got a tuple", "listed": true })
            } else if c.id.starts_with("json/") {
                serde_json::json!({ "status": "unsupported", "reason": "needs kind config" })
            } else {
                serde_json::json!({ "status": "passed", "reason": "" })
            };
            let passed = serde_json::json!({ "status": "passed", "reason": "", "listed": false });
            serde_json::json!({ "id": c.id, "area": c.area, "results": { "reference": passed, "weak": weak } })
        })
        .collect();
    let totals = serde_json::json!({ "passed": 1, "failed": 1, "unsupported": 1 });
    let details = serde_json::json!({
        "implementations": [
            { "name": "reference", "description": "the reference interpreter", "profile": "spec", "totals": totals },
            { "name": "weak", "description": "a weak implementation", "profile": "spec", "totals": totals },
        ],
        "cases": cases,
    });
    std::fs::write(dir.join("matrix-details.json"), details.to_string()).unwrap();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every `id="..."` of the HTML pages below `dir`, with the pages holding it.
fn ids(dir: &Path) -> BTreeMap<String, Vec<String>> {
    let mut ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
    {
        if entry.path().extension().is_none_or(|x| x != "html") {
            continue;
        }
        let page = entry
            .path()
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let (page_ids, _) = hcl_conformance_site::docs::links::ids_and_links(&read(entry.path()));
        for id in page_ids {
            ids.entry(id).or_default().push(page.clone());
        }
    }
    ids
}

#[test]
fn every_link_resolves_and_every_case_has_one_anchor() {
    let suite = suite();
    let (matrix, out) = (scratch("matrix"), scratch("site"));
    fake_matrix(&suite, &matrix);
    let results = Results::load(&matrix).unwrap();
    // What `docs --check` finds before writing: nothing (the markup check
    // and the links, checked again below from the written files).
    let site = render_site(&suite, Some(&results)).unwrap();
    let problems = site.problems();
    assert!(
        problems.is_empty(),
        "{} problems, the first: {:?}",
        problems.len(),
        &problems[..problems.len().min(10)]
    );
    let built = site.write(&out).unwrap();
    assert!(built.pages > suite.files.len(), "{built:?}");

    let broken = broken_links(&out).unwrap();
    assert!(
        broken.is_empty(),
        "{} broken links, the first: {:?}",
        broken.len(),
        &broken[..broken.len().min(10)]
    );

    // The check reads the links the site's script builds: every case's
    // requirement ids and every case pinning a requirement among them.
    let script_links: usize = walkdir::WalkDir::new(&out)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| hcl_conformance_site::docs::links::script_links(&read(e.path())).len())
        .sum();
    let covers: usize = suite.cases().map(|c| c.covers.len()).sum();
    assert!(
        script_links >= 2 * covers,
        "{script_links} links built by the script, {covers} requirement ids of cases"
    );

    let ids = ids(&out);
    for case in suite.cases() {
        let file = case.id.split("::").next().unwrap();
        let pages = ids.get(&case.id).map(Vec::as_slice).unwrap_or_default();
        assert_eq!(
            pages,
            [format!("suite/{file}.html")],
            "the anchor of {}",
            case.id
        );
    }
    // No other case sections than the suite's.
    let sections: usize = walkdir::WalkDir::new(out.join("suite"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| read(e.path()).matches("<section id=\"").count())
        .sum();
    assert_eq!(sections, suite.cases().count());

    for r in suite.requirements.iter() {
        let page = hcl_conformance_site::docs::addresses::document_page(&r.doc);
        assert!(
            ids.get(&r.id).is_some_and(|p| p.contains(&page)),
            "requirement {} has no anchor on {page}",
            r.id
        );
    }
    for note in walkdir::WalkDir::new(NOTES)
        .into_iter()
        .filter_map(Result::ok)
    {
        let path = note
            .path()
            .strip_prefix(NOTES)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if path.ends_with(".md") && path != "README.md" {
            assert!(
                out.join("notes")
                    .join(path.replace(".md", ".html"))
                    .is_file(),
                "no page for the note {path}"
            );
        }
    }

    // The matrix: its page links to both implementations' pages, the weak
    // one's page names its failures with their reasons, and the verdicts
    // every case page shows are there.
    let matrix_page = read(&out.join("matrix.html"));
    assert!(
        matrix_page.contains("href=\"impl/weak.html#expressions-failed\""),
        "{matrix_page}"
    );
    let weak = read(&out.join("impl/weak.html"));
    let splat = suite.cases().find(|c| c.id.contains("splat")).unwrap();
    assert!(weak.contains(&format!(
        ">{}</a>: <i>$: expected a list, got a tuple</i> (known failure)",
        splat.id
    )));
    let verdicts = read(&out.join("assets/verdicts.js"));
    assert!(
        verdicts.contains("[\"unsupported\",\"needs kind config\",false]"),
        "{}",
        &verdicts[..200]
    );
    // The splat case's row, by its place in its file: the reference
    // passed, the weak implementation failed it.
    let data: serde_json::Value = serde_json::from_str(
        verdicts[verdicts.find("= ").unwrap() + 2..]
            .trim_end()
            .trim_end_matches(';'),
    )
    .unwrap();
    let (file, _) = splat.id.split_once("::").unwrap();
    let at = suite
        .files
        .iter()
        .find(|f| f.id == file)
        .and_then(|f| f.cases.iter().position(|c| c.id == splat.id))
        .unwrap();
    let row = &data["rows"][data["files"][file][at].as_u64().unwrap() as usize];
    let status =
        |column: usize| data["verdicts"][row[column].as_u64().unwrap() as usize][0].clone();
    assert_eq!(
        data["implementations"],
        serde_json::json!(["reference", "weak"])
    );
    assert_eq!((status(0), status(1)), ("passed".into(), "failed".into()));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_link_check_finds_missing_pages_and_anchors() {
    let out = scratch("broken");
    std::fs::create_dir_all(out.join("sub")).unwrap();
    let page = |ids: &str, links: &str| format!("<!doctype html><p {ids}>{links}</p>");
    std::fs::write(
        out.join("a.html"),
        page(
            "id=\"top\"",
            "<a href=\"sub/b.html#x%3Ay\">b</a> <a href=\"#top\">t</a> <a href=\"#gone\">g</a>",
        ),
    )
    .unwrap();
    std::fs::write(out.join("sub/b.html"), page("id=\"x:y\"", "<a href=\"../a.html\">a</a> <a href=\"../c.html\">c</a> <a href=\"../a.html#nowhere\">n</a> <a href=\"https://x.org/#q\">w</a>")).unwrap();
    let broken = broken_links(&out).unwrap();
    assert_eq!(
        broken,
        [
            "a.html: #gone",
            "sub/b.html: ../c.html",
            "sub/b.html: ../a.html#nowhere"
        ]
    );
}

#[test]
fn every_cited_document_has_a_title() {
    let suite = suite();
    let cited = suite.requirements.iter().map(|r| r.doc.clone());
    let spec_lines = suite.files.iter().flat_map(|f| {
        f.spec
            .iter()
            .map(|s| s.split('#').next().unwrap().to_string())
    });
    for doc in cited.chain(spec_lines) {
        let d = documents::document(&doc).unwrap_or_else(|| {
            panic!("{doc} is cited but has no entry in runner/format/src/documents.rs")
        });
        assert!(!d.title.is_empty() && !d.version.is_empty());
    }
}
