//! The suite's versions (README.md § Versions): the newest manifest of
//! `suite/versions/` records the suite as it is, every version's number
//! follows the rules, `CHANGELOG.md` is the one the manifests give, and
//! the formats (manifest, list header) read back what they write. (What
//! `changes`, `--version` and `--write-failures` say:
//! runner/tests/versions_cli.rs.)
//!
//! After a change to the suite, `HCL_CONFORMANCE_WRITE_VERSIONS=X.Y.Z cargo
//! test -p hcl-conformance-site --test versions` starts version X.Y.Z (a new manifest), and
//! `HCL_CONFORMANCE_WRITE_VERSIONS=1 ...` records the change in the current
//! version's manifest instead (while that version is not yet on main); both
//! write `CHANGELOG.md` anew.

use hcl_conformance_format::suite::load_suite;
use hcl_conformance_site::versions::{
    changelog, check_bump, hashes, list_header, manifest_path, manifests, parse_manifest,
    render_manifest, stamp_list, version_of_list, Changes, Hashes, Manifest,
};
use semver::Version;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A few ids, then how many more.
fn some(ids: &[String]) -> String {
    let shown: Vec<&str> = ids.iter().take(5).map(String::as_str).collect();
    match ids.len() > 5 {
        true => format!("{}, and {} more", shown.join(", "), ids.len() - 5),
        false => shown.join(", "),
    }
}

#[test]
fn the_versions_record_the_suite_and_give_the_changelog() {
    let suite = load_suite(&root().join("suite")).expect("the suite loads");
    let mut manifests = manifests(&suite).expect("the manifests read");
    let now = hashes(&suite);
    if let Ok(asked) = std::env::var("HCL_CONFORMANCE_WRITE_VERSIONS") {
        let newest = manifests.last().map(|m| m.version.clone());
        let version = match (asked.as_str(), newest) {
            ("1", Some(newest)) => newest,
            ("1", None) => panic!("the suite has no version yet: name the first, HCL_CONFORMANCE_WRITE_VERSIONS=1.0.0"),
            (text, _) => Version::parse(text).unwrap_or_else(|e| {
                panic!("HCL_CONFORMANCE_WRITE_VERSIONS is 1 or a version X.Y.Z, not {text}: {e}")
            }),
        };
        let path = root().join(manifest_path(&version));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, render_manifest(&version, &now)).unwrap();
        manifests.retain(|m| m.version != version);
        manifests.push(Manifest {
            version,
            hashes: now.clone(),
        });
        manifests.sort_by(|a, b| a.version.cmp(&b.version));
        std::fs::write(root().join("CHANGELOG.md"), changelog(&manifests)).unwrap();
    }
    let newest = manifests
        .last()
        .expect("the suite has a version: a manifest in suite/versions/");
    let changes = Changes::between(&newest.hashes, &now);
    assert!(
        changes.is_empty(),
        "the suite differs from {}, the manifest of its version {}: {} (added: {}; changed: {}; removed: {}).\n\
         Record the change (README.md § Versions): HCL_CONFORMANCE_WRITE_VERSIONS={} cargo test -p hcl-conformance-site --test versions \
         starts the next version (the smallest these changes allow); HCL_CONFORMANCE_WRITE_VERSIONS=1 adds them \
         to {} instead, while that version is not yet on main.",
        manifest_path(&newest.version),
        newest.version,
        changes.counts(),
        some(&changes.added),
        some(&changes.changed),
        some(&changes.removed),
        changes.next_version(&newest.version),
        newest.version,
    );
    for pair in manifests.windows(2) {
        let changes = Changes::between(&pair[0].hashes, &pair[1].hashes);
        if let Err(e) = check_bump(&pair[0].version, &pair[1].version, &changes) {
            panic!(
                "{}: {e} (README.md § Versions); rename the manifest, or rewrite it with HCL_CONFORMANCE_WRITE_VERSIONS",
                manifest_path(&pair[1].version)
            );
        }
    }
    let written = std::fs::read_to_string(root().join("CHANGELOG.md")).unwrap_or_default();
    assert!(
        written == changelog(&manifests),
        "CHANGELOG.md is not the one the manifests in suite/versions/ give: \
         write it with HCL_CONFORMANCE_WRITE_VERSIONS=1 cargo test -p hcl-conformance-site --test versions"
    );
}

// The rules and the formats, on their own.

fn v(text: &str) -> Version {
    Version::parse(text).unwrap()
}

fn changes(added: usize, changed: usize, removed: usize) -> Changes {
    let ids = |n: usize, what: &str| (0..n).map(|i| format!("f::{what}-{i}")).collect();
    Changes {
        added: ids(added, "a"),
        changed: ids(changed, "c"),
        removed: ids(removed, "r"),
    }
}

#[test]
fn a_patch_version_only_changes_cases() {
    assert_eq!(
        check_bump(&v("1.0.0"), &v("1.0.1"), &changes(0, 2, 0)),
        Ok(())
    );
    let added = check_bump(&v("1.0.0"), &v("1.0.1"), &changes(1, 0, 0)).unwrap_err();
    assert!(added.contains("minor version: 1.1.0"), "{added}");
    let removed = check_bump(&v("1.0.0"), &v("1.0.1"), &changes(0, 0, 1)).unwrap_err();
    assert!(removed.contains("minor version: 1.1.0"), "{removed}");
}

#[test]
fn a_minor_version_may_add_change_and_remove() {
    assert_eq!(
        check_bump(&v("1.2.3"), &v("1.3.0"), &changes(3, 1, 1)),
        Ok(())
    );
    assert_eq!(
        check_bump(&v("1.2.3"), &v("1.3.0"), &changes(0, 1, 0)),
        Ok(())
    );
}

#[test]
fn only_a_major_version_may_change_no_case() {
    let error = check_bump(&v("1.0.0"), &v("1.1.0"), &changes(0, 0, 0)).unwrap_err();
    assert!(error.contains("changes no case"), "{error}");
    assert_eq!(
        check_bump(&v("1.0.0"), &v("2.0.0"), &changes(0, 0, 0)),
        Ok(())
    );
}

#[test]
fn a_version_comes_after_the_previous_one() {
    assert!(check_bump(&v("1.1.0"), &v("1.0.9"), &changes(0, 1, 0)).is_err());
    assert!(check_bump(&v("1.1.0"), &v("1.1.0"), &changes(0, 1, 0)).is_err());
    assert!(check_bump(&v("1.1.0"), &v("1.2.0-rc.1"), &changes(1, 0, 0)).is_err());
}

#[test]
fn changes_are_found_by_id_and_hash() {
    let old: Hashes = [("a", "1"), ("b", "2"), ("c", "3")]
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .into();
    let new: Hashes = [("b", "2"), ("c", "4"), ("d", "5")]
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .into();
    let changes = Changes::between(&old, &new);
    assert_eq!(changes.added, ["d"]);
    assert_eq!(changes.changed, ["c"]);
    assert_eq!(changes.removed, ["a"]);
    assert_eq!(changes.next_version(&v("1.4.2")), v("1.5.0"));
}

#[test]
fn a_manifest_reads_back_what_was_written() {
    let hashes: Hashes = [("x::a", "00ff"), ("y/z::b", "1234")]
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .into();
    let text = render_manifest(&v("1.0.0"), &hashes);
    assert_eq!(parse_manifest(&text), Ok(hashes));
    assert!(parse_manifest("x::a 1\nx::a 2\n")
        .unwrap_err()
        .starts_with("2: "));
    assert!(parse_manifest("x::a\n").unwrap_err().starts_with("1: "));
}

#[test]
fn a_list_names_its_suite_version_in_its_header() {
    let list = format!(
        "# Known failures of x\n{}\na::b why\n",
        list_header(&v("1.2.0"))
    );
    assert_eq!(version_of_list(&list), Some(v("1.2.0")));
    assert_eq!(version_of_list("# Known failures\na::b why\n"), None);
    // Only the header counts, not a comment further down.
    assert_eq!(version_of_list("a::b why\n# Suite version 1.0.0\n"), None);
}

#[test]
fn a_written_list_names_the_version_it_was_written_against() {
    let stamp = list_header(&v("1.1.0"));
    let fresh = stamp_list("# Known failures\n# Written by\na::b why\n", &v("1.1.0"));
    assert_eq!(
        fresh,
        format!("# Known failures\n# Written by\n{stamp}\na::b why\n")
    );
    let old = format!("# Known failures\n{}\na::b why\n", list_header(&v("1.0.0")));
    assert_eq!(
        stamp_list(&old, &v("1.1.0")),
        format!("# Known failures\n{stamp}\na::b why\n")
    );
    assert_eq!(stamp_list("", &v("1.1.0")), format!("{stamp}\n"));
    assert_eq!(
        stamp_list("a::b why\n", &v("1.1.0")),
        format!("{stamp}\na::b why\n")
    );
    assert_eq!(
        version_of_list(&stamp_list(&old, &v("1.1.0"))),
        Some(v("1.1.0"))
    );
}
