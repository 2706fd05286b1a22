//! The workspace's crates are layered (ARCHITECTURE.md; issue 27): the
//! interpreter at the bottom, the case format on it, the site on both, the
//! runner on all three. This test reads every crate's `Cargo.toml` and the
//! code lines of its sources, and holds them to that order: a crate depends
//! on exactly the workspace crates below it (`[dependencies]`; its dev and
//! build dependencies on none above it), names no crate above it, and
//! re-exports (`pub use`) no other workspace crate's items. Beside them the
//! workspace holds leaf crates (`hcl-random-inputs`): they depend on no
//! workspace crate, are dev-dependencies of any, and dependencies only of
//! the crates they name (the runner's fuzzer generates from the seeded
//! generator). The checker's own tests plant violations to show that it
//! finds them.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A workspace crate: its package name, its library's name in paths, its
/// folder (from the repository root), and the workspace crates it is built
/// on.
struct Crate {
    package: &'static str,
    library: &'static str,
    folder: &'static str,
    below: &'static [&'static str],
}

/// The crates, from the bottom up.
const CRATES: [Crate; 4] = [
    Crate {
        package: "hcl-interpreter",
        library: "hcl_interpreter",
        folder: "interpreter",
        below: &[],
    },
    Crate {
        package: "hcl-conformance-format",
        library: "hcl_conformance_format",
        folder: "runner/format",
        below: &["hcl-interpreter"],
    },
    Crate {
        package: "hcl-conformance-site",
        library: "hcl_conformance_site",
        folder: "runner/site",
        below: &["hcl-interpreter", "hcl-conformance-format"],
    },
    Crate {
        package: "hcl-conformance",
        library: "hcl_conformance_runner",
        folder: "runner",
        below: &[
            "hcl-interpreter",
            "hcl-conformance-format",
            "hcl-conformance-site",
        ],
    },
];

/// The leaf crates: package name, folder, and the crates whose
/// `[dependencies]` may name it.
const LEAVES: [(&str, &str, &[&str]); 1] = [(
    "hcl-random-inputs",
    "interpreter/random-inputs",
    &["hcl-conformance"],
)];

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn by_package(package: &str) -> Option<&'static Crate> {
    CRATES.iter().find(|c| c.package == package)
}

/// The workspace crates a dependency table names (by key, or by its
/// `package` where it renames one).
fn workspace_dependencies(table: Option<&toml::Value>) -> BTreeSet<&'static str> {
    let Some(table) = table.and_then(toml::Value::as_table) else {
        return BTreeSet::new();
    };
    table
        .iter()
        .filter_map(|(key, value)| {
            let package = value.get("package").and_then(toml::Value::as_str);
            by_package(package.unwrap_or(key)).map(|c| c.package)
        })
        .collect()
}

/// What is wrong with a crate's `Cargo.toml`: its `[dependencies]` are not
/// exactly the workspace crates below it, or its dev or build dependencies
/// name one that is not below it.
fn manifest_violations(krate: &Crate, manifest: &str) -> Vec<String> {
    let manifest: toml::Value = match toml::from_str(manifest) {
        Ok(manifest) => manifest,
        Err(e) => return vec![format!("{}/Cargo.toml does not read: {e}", krate.folder)],
    };
    let below: BTreeSet<&str> = krate.below.iter().copied().collect();
    let mut violations = Vec::new();
    let built_on = workspace_dependencies(manifest.get("dependencies"));
    if built_on != below {
        violations.push(format!(
            "{}: [dependencies] names the workspace crates {built_on:?}, not {below:?}",
            krate.package
        ));
    }
    for table in ["dev-dependencies", "build-dependencies"] {
        for above in workspace_dependencies(manifest.get(table)).difference(&below) {
            violations.push(format!(
                "{}: [{table}] names {above}, which is not below it",
                krate.package
            ));
        }
    }
    violations
}

/// Whether `word` occurs in `line` as a path's first segment: not inside a
/// longer identifier, and followed by `::`, `;`, `,`, `}` or a space (`use
/// x as y`, `extern crate x`).
fn names(line: &str, word: &str) -> bool {
    let is_identifier = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(word).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        !before.is_some_and(is_identifier)
            && after.is_none_or(|c| matches!(c, ':' | ';' | ',' | '}' | ' '))
    })
}

/// What is wrong with the code lines of one source file of a crate (its
/// comments left out): a workspace crate named that is not below it, or a
/// `pub use` of another workspace crate's items.
fn source_violations(krate: &Crate, file: &str, text: &str) -> Vec<String> {
    let mut violations = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        for other in CRATES.iter().filter(|c| c.package != krate.package) {
            if !names(code, other.library) {
                continue;
            }
            if !krate.below.contains(&other.package) {
                violations.push(format!(
                    "{file}:{}: {} names {}, which is not below it",
                    n + 1,
                    krate.package,
                    other.library
                ));
            } else if code.starts_with("pub use") || code.starts_with("pub extern crate") {
                violations.push(format!(
                    "{file}:{}: {} re-exports {}'s items; name them where they are used",
                    n + 1,
                    krate.package,
                    other.library
                ));
            }
        }
    }
    violations
}

/// The Rust files under a folder.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(walkdir::DirEntry::into_path)
        .collect()
}

#[test]
fn the_workspace_is_the_four_crates() {
    let text = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let manifest: toml::Value = toml::from_str(&text).unwrap();
    let members: BTreeSet<&str> = manifest["workspace"]["members"]
        .as_array()
        .expect("the workspace lists its members")
        .iter()
        .filter_map(toml::Value::as_str)
        .collect();
    let folders: BTreeSet<&str> = CRATES
        .iter()
        .map(|c| c.folder)
        .chain(LEAVES.iter().map(|(_, folder, _)| *folder))
        .collect();
    assert_eq!(members, folders);
    for krate in &CRATES {
        let text = std::fs::read_to_string(root().join(krate.folder).join("Cargo.toml")).unwrap();
        let manifest: toml::Value = toml::from_str(&text).unwrap();
        assert_eq!(
            manifest["package"]["name"].as_str(),
            Some(krate.package),
            "{}",
            krate.folder
        );
    }
}

#[test]
fn the_leaf_crates_depend_on_no_workspace_crate_and_only_the_crates_they_name_are_built_on_them() {
    for (package, folder, users) in LEAVES {
        let text = std::fs::read_to_string(root().join(folder).join("Cargo.toml")).unwrap();
        let manifest: toml::Value = toml::from_str(&text).unwrap();
        assert_eq!(manifest["package"]["name"].as_str(), Some(package));
        for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
            let named = workspace_dependencies(manifest.get(table));
            assert!(named.is_empty(), "{package}: [{table}] names {named:?}");
        }
        for krate in CRATES.iter().filter(|c| !users.contains(&c.package)) {
            let text =
                std::fs::read_to_string(root().join(krate.folder).join("Cargo.toml")).unwrap();
            let manifest: toml::Value = toml::from_str(&text).unwrap();
            for table in ["dependencies", "build-dependencies"] {
                assert!(
                    manifest.get(table).and_then(|t| t.get(package)).is_none(),
                    "{}: [{table}] names the leaf {package}, which names only {users:?}",
                    krate.package
                );
            }
        }
    }
}

#[test]
fn each_crate_depends_on_exactly_the_crates_below_it() {
    let violations: Vec<String> = CRATES
        .iter()
        .flat_map(|krate| {
            let path = root().join(krate.folder).join("Cargo.toml");
            manifest_violations(krate, &std::fs::read_to_string(path).unwrap())
        })
        .collect();
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn no_source_names_a_crate_above_its_own_or_re_exports_another() {
    let mut violations = Vec::new();
    let mut files = 0;
    for krate in &CRATES {
        let folder = root().join(krate.folder);
        let mut sources = rust_files(&folder.join("src"));
        sources.extend(Some(folder.join("build.rs")).filter(|p| p.exists()));
        for path in sources {
            let text = std::fs::read_to_string(&path).unwrap();
            let file = path
                .strip_prefix(root())
                .unwrap_or(&path)
                .display()
                .to_string();
            violations.extend(source_violations(krate, &file, &text));
            files += 1;
        }
    }
    assert!(files > 100, "only {files} source files found");
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

// The checker, on planted violations.

fn format_crate() -> &'static Crate {
    by_package("hcl-conformance-format").unwrap()
}

#[test]
fn a_crate_naming_one_above_it_is_found() {
    let planted = "//! A module.\nuse hcl_interpreter::Value;\nuse hcl_conformance_site::docs;\n";
    let found = source_violations(format_crate(), "planted.rs", planted);
    assert_eq!(
        found,
        ["planted.rs:3: hcl-conformance-format names hcl_conformance_site, which is not below it"]
    );
    let inline = "fn f() { hcl_conformance_runner::run::run_cases(); }";
    assert_eq!(source_violations(format_crate(), "f.rs", inline).len(), 1);
    let bottom = by_package("hcl-interpreter").unwrap();
    assert_eq!(
        source_violations(bottom, "f.rs", "use hcl_conformance_format as f;").len(),
        1
    );
}

#[test]
fn a_re_export_of_another_crate_is_found_and_comments_and_longer_names_are_not() {
    let planted = "pub use hcl_interpreter::{\n    Value,\n};\n";
    assert_eq!(
        source_violations(format_crate(), "planted.rs", planted),
        ["planted.rs:1: hcl-conformance-format re-exports hcl_interpreter's items; name them where they are used"]
    );
    let innocent = "// use hcl_conformance_site::docs;\n/// `hcl_conformance_runner::run`\nlet my_hcl_conformance_site = 1;\npub use crate::values::Value;\n";
    assert!(source_violations(format_crate(), "innocent.rs", innocent).is_empty());
}

#[test]
fn a_manifest_with_a_dependency_above_or_one_missing_is_found() {
    let planted = "[package]\nname = \"hcl-conformance-format\"\n\n[dependencies]\n\
                   hcl-interpreter = { path = \"../../interpreter\" }\n\
                   site = { package = \"hcl-conformance-site\", path = \"../site\" }\n\n\
                   [dev-dependencies]\nhcl-conformance = { path = \"..\" }\n";
    let found = manifest_violations(format_crate(), planted);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("[dependencies] names the workspace crates"));
    assert!(found[1].contains("[dev-dependencies] names hcl-conformance,"));
    let missing = "[dependencies]\nserde = \"1\"\n";
    assert_eq!(manifest_violations(format_crate(), missing).len(), 1);
    let right = "[dependencies]\nhcl-interpreter = { path = \"../../interpreter\" }\n";
    assert!(manifest_violations(format_crate(), right).is_empty());
}
