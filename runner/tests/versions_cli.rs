//! The suite's versions as the runner shows them (README.md § Versions):
//! `--version` names the built-in suite's version, `changes` lists what
//! was added, changed and removed since a version or a written list, and
//! `--write-failures` names the suite's version in the list it writes.
//! (The versions themselves, the manifests and the changelog:
//! runner/site/tests/versions.rs.)

use hcl_conformance_format::suite::load_suite;
use hcl_conformance_site::versions::{hashes, render_manifest, suite_version};
use semver::Version;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn runner(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_hcl-conformance"))
        .args(args)
        .current_dir("/")
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

#[test]
fn version_names_the_runner_the_built_in_suite_and_the_protocol() {
    let suite = load_suite(&root().join("suite")).expect("the suite loads");
    let version = suite_version(&suite).expect("the suite has a version");
    let (code, out, _) = runner(&["--version"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out.trim(),
        format!(
            "hcl-conformance {} (suite {version}, protocol 1)",
            env!("CARGO_PKG_VERSION")
        )
    );
}

/// A suite folder with one case file, and an older version's manifest in
/// which one of its cases is missing (added since), one has another hash
/// (changed since) and one case no longer exists (removed since).
fn scratch_suite(name: &str) -> (PathBuf, Vec<String>) {
    let dir = std::env::temp_dir().join(format!(
        "hcl-conformance-versions-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("conversion")).unwrap();
    std::fs::create_dir_all(dir.join("versions")).unwrap();
    for file in ["requirements.jsonl", "conversion/bool-and-number.yaml"] {
        std::fs::copy(root().join("suite").join(file), dir.join(file)).unwrap();
    }
    let suite = load_suite(&dir).expect("the scratch suite loads");
    let mut old = hashes(&suite);
    let ids: Vec<String> = old.keys().cloned().collect();
    old.remove(&ids[0]);
    old.insert(ids[1].clone(), "0000000000000000".into());
    old.insert(
        "conversion/gone::removed-case".into(),
        "1111111111111111".into(),
    );
    let version = Version::new(0, 9, 0);
    std::fs::write(
        dir.join("versions/0.9.0.txt"),
        render_manifest(&version, &old),
    )
    .unwrap();
    (dir, ids)
}

#[test]
fn changes_lists_what_was_added_changed_and_removed_since_a_version() {
    let (dir, ids) = scratch_suite("since");
    let suite = dir.display().to_string();
    let (code, out, err) = runner(&["changes", "--since", "0.9.0", "--suite", &suite]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        format!(
            "From suite version 0.9.0 to this suite (0.9.0): 1 added, 1 changed, 1 removed.\n\
             \nadded:\n  {}\n\nchanged:\n  {}\n\nremoved:\n  conversion/gone::removed-case\n",
            ids[0], ids[1]
        )
    );
    let (code, _, err) = runner(&["changes", "--since", "0.8.0", "--suite", &suite]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("the suite has no version 0.8.0; its versions are 0.9.0"),
        "{err}"
    );
}

#[test]
fn a_written_list_names_its_suite_version_and_changes_reads_it() {
    let (dir, ids) = scratch_suite("list");
    let suite = dir.display().to_string();
    let list = dir.join("known.txt");
    // A list naming a changed case and a case since removed, as a user
    // would have it from the older version.
    std::fs::write(
        &list,
        format!(
            "# Known failures\n# Suite version 0.9.0\n{} wrong\nconversion/gone::removed-case old\n",
            ids[1]
        ),
    )
    .unwrap();
    let (code, out, err) = runner(&[
        "changes",
        "--since",
        &list.display().to_string(),
        "--suite",
        &suite,
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(&format!(
            "  {}  (listed: its reason may be out of date)",
            ids[1]
        )) && out.contains("  conversion/gone::removed-case  (listed: take it out of the list)")
            && out.contains(&format!("\n  {}\n", ids[0])),
        "{out}"
    );
    // --write-failures names the suite's version in the list it writes.
    let written = dir.join("written.txt");
    let hcl_ref = env!("CARGO_BIN_EXE_hcl-ref");
    let (code, _, err) = runner(&[
        "--suite",
        &suite,
        "--impl",
        hcl_ref,
        "--write-failures",
        &written.display().to_string(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(text.contains("\n# Suite version 0.9.0: "), "{text}");
    // A list without the line: changes asks for the version.
    std::fs::write(&list, format!("{} wrong\n", ids[1])).unwrap();
    let (code, _, err) = runner(&[
        "changes",
        "--since",
        &list.display().to_string(),
        "--suite",
        &suite,
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("the list names no suite version"), "{err}");
}
