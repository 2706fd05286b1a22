//! The profile table (`hcl_conformance_format::profiles`) agrees with what
//! it names: each profile's notes exist and link every note its cases
//! cite, and each oracle's Go module file pins the library versions the
//! profile claims.

use hcl_conformance_format::profiles::{PROFILES, SPEC_PROFILE};
use hcl_conformance_format::suite::load_suite;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn each_profile_note_links_every_note_its_recorded_results_cite() {
    let suite = load_suite(&root().join("suite")).expect("the suite loads");
    for profile in PROFILES.iter().filter(|p| p.name != SPEC_PROFILE) {
        let text = std::fs::read_to_string(root().join(profile.notes))
            .unwrap_or_else(|e| panic!("{}: the notes of {}: {e}", profile.notes, profile.name));
        let cited: BTreeSet<&str> = suite
            .cases()
            .filter_map(|c| c.profiles.get(profile.name))
            .map(|p| p.note.as_str())
            .collect();
        let missing: Vec<&str> = cited
            .into_iter()
            .filter(|note| {
                let file = note.rsplit('/').next().unwrap_or(note);
                !text.contains(&format!("../gaps/{file})"))
            })
            .collect();
        assert!(
            missing.is_empty(),
            "{}: cases record {} results citing these notes, which it does not link: {missing:?}",
            profile.notes,
            profile.name
        );
    }
}

/// `hashicorp/hcl v2.25.0 with go-cty v1.20.0` -> the two versions.
fn claimed_versions(library: &str) -> Option<(&str, &str)> {
    let rest = library.strip_prefix("hashicorp/hcl ")?;
    let (hcl, cty) = rest.split_once(" with go-cty ")?;
    Some((hcl, cty))
}

#[test]
fn each_oracle_module_file_pins_the_versions_its_profile_names() {
    let adapter = root().join("scripts/adapters/hcl-go");
    for profile in PROFILES.iter().filter(|p| p.oracle.is_some()) {
        let (hcl, cty) = claimed_versions(profile.library).unwrap_or_else(|| {
            panic!(
                "{}: library `{}` names no versions",
                profile.name, profile.library
            )
        });
        let version = profile.name.trim_start_matches("hcl-");
        let modfile = match version {
            "v2.14" => "go.mod".to_string(),
            v => format!("go-{v}.mod"),
        };
        let text = std::fs::read_to_string(adapter.join(&modfile))
            .unwrap_or_else(|e| panic!("{}: {modfile}: {e}", profile.name));
        for (module, want) in [
            ("github.com/hashicorp/hcl/v2", hcl),
            ("github.com/zclconf/go-cty", cty),
        ] {
            assert!(
                text.lines()
                    .any(|l| l.split_whitespace().collect::<Vec<_>>() == [module, want]),
                "{modfile} must require {module} {want}, as profile {} says",
                profile.name
            );
        }
        assert!(
            profile.oracle == Some(&*format!("scripts/build-hcl-go.sh {}", profile.name)),
            "{}: the oracle command is the hcl-go build at this profile",
            profile.name
        );
    }
}
