//! The profiles: the expectations a case is checked against. `spec` is what
//! the specification prescribes; each other profile is what one version of
//! hashicorp/hcl answers, recorded in a case file only where it differs
//! from the profile it follows (`suite/README.md` § Profiles).
//!
//! This table is the one place a profile is declared. Adding a version of
//! hashicorp/hcl is one row here, a module file for its oracle
//! (`scripts/adapters/hcl-go/go-vX.Y.mod`), and a run of that oracle over
//! the suite to record where it departs from the row it follows.

/// One profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Its name, as `--profile` and case files write it: `hcl-v2.25`.
    pub name: &'static str,
    /// What it expects: the spec, or the library version it records.
    pub library: &'static str,
    /// The profile whose expectation a case falls back on when it records
    /// none for this one.
    pub follows: Option<&'static str>,
    /// The command (from the repository's root) that builds the profile's
    /// oracle and prints the path of its adapter; the test command runs the
    /// whole suite through it under this profile.
    pub oracle: Option<&'static str>,
    /// The note that lists what the profile changes and why.
    pub notes: &'static str,
}

/// The profile whose expectations are the spec's.
pub const SPEC_PROFILE: &str = "spec";

/// Every profile, `spec` first; a profile follows one above it. Between
/// v2.14.1 and v2.25.0 the table holds the versions that implementations of
/// the conformance matrix are built on (v2.23.0: @cdktf/hcl2json; v2.24.0:
/// pygohcl, tfparse), so that each is graded by its own library's results.
pub const PROFILES: &[Profile] = &[
    Profile {
        name: SPEC_PROFILE,
        library: "the HCL specification (the v2.14.1 documents)",
        follows: None,
        oracle: None,
        notes: "spec-notes/README.md",
    },
    Profile {
        name: "hcl-v2.14",
        library: "hashicorp/hcl v2.14.1 with go-cty v1.12.1",
        follows: Some(SPEC_PROFILE),
        oracle: Some("scripts/build-hcl-go.sh hcl-v2.14"),
        notes: "spec-notes/profiles/hcl-v2.14.md",
    },
    Profile {
        name: "hcl-v2.23",
        library: "hashicorp/hcl v2.23.0 with go-cty v1.15.1",
        follows: Some("hcl-v2.14"),
        oracle: Some("scripts/build-hcl-go.sh hcl-v2.23"),
        notes: "spec-notes/profiles/hcl-v2.23.md",
    },
    Profile {
        name: "hcl-v2.24",
        library: "hashicorp/hcl v2.24.0 with go-cty v1.18.1",
        follows: Some("hcl-v2.23"),
        oracle: Some("scripts/build-hcl-go.sh hcl-v2.24"),
        notes: "spec-notes/profiles/hcl-v2.24.md",
    },
    Profile {
        name: "hcl-v2.25",
        library: "hashicorp/hcl v2.25.0 with go-cty v1.20.0",
        follows: Some("hcl-v2.24"),
        oracle: Some("scripts/build-hcl-go.sh hcl-v2.25"),
        notes: "spec-notes/profiles/hcl-v2.25.md",
    },
];

/// The profile of that name.
pub fn profile(name: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.name == name)
}

/// The names of the profiles a case file may record a result for: all but
/// `spec`, in the table's order.
pub fn recorded_profiles() -> impl Iterator<Item = &'static str> {
    PROFILES
        .iter()
        .filter(|p| p.name != SPEC_PROFILE)
        .map(|p| p.name)
}

/// The profile and the ones it follows, nearest first, `spec` excluded:
/// `hcl-v2.25`, `hcl-v2.14`. Empty for `spec` and for an unknown name. The
/// table's rows only follow rows above them, so the walk ends.
pub fn lineage(name: &str) -> Vec<&'static str> {
    let mut chain = Vec::new();
    let mut next = profile(name);
    while let Some(p) = next {
        if p.name == SPEC_PROFILE || chain.contains(&p.name) {
            break;
        }
        chain.push(p.name);
        next = p.follows.and_then(profile);
    }
    chain
}

/// Checks a profile name, for command-line arguments and matrix files.
pub fn known_profile(name: &str) -> Result<String, String> {
    match profile(name) {
        Some(p) => Ok(p.name.to_string()),
        None => Err(format!(
            "unknown profile `{name}`; the profiles are {}",
            PROFILES
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_profile_follows_one_declared_above_it() {
        for (i, p) in PROFILES.iter().enumerate() {
            match p.follows {
                None => assert_eq!(p.name, SPEC_PROFILE, "only spec follows nothing"),
                Some(f) => assert!(
                    PROFILES[..i].iter().any(|q| q.name == f),
                    "{} follows {f}, which is not declared above it",
                    p.name
                ),
            }
        }
    }

    #[test]
    fn a_lineage_walks_to_spec() {
        assert_eq!(
            lineage("hcl-v2.25"),
            ["hcl-v2.25", "hcl-v2.24", "hcl-v2.23", "hcl-v2.14"]
        );
        assert_eq!(lineage("hcl-v2.14"), ["hcl-v2.14"]);
        assert!(lineage(SPEC_PROFILE).is_empty());
        assert!(lineage("hcl-v9").is_empty());
    }

    #[test]
    fn unknown_profiles_are_named_with_the_known_ones() {
        assert_eq!(known_profile("hcl-v2.25").as_deref(), Ok("hcl-v2.25"));
        let err = known_profile("hcl-v3").unwrap_err();
        assert!(
            err.contains("hcl-v3") && err.contains("spec, hcl-v2.14, hcl-v2.23"),
            "{err}"
        );
    }
}
