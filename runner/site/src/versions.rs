//! The suite's versions (README.md § Versions).
//!
//! Each version has a manifest, `suite/versions/X.Y.Z.txt`: every case id
//! of the suite at that version with the hash of what the case asks and
//! expects (`crate::export::case_hash`). The newest manifest is the
//! suite's version, and must record the suite as it is (a test checks
//! it). From the manifests come the changes between two versions (cases
//! added, changed, removed), `CHANGELOG.md`, and the rules a new version's
//! number follows: a major version for a protocol or case-format break, a
//! minor one when cases are added or removed, a patch one when only
//! expectations (or inputs) are corrected.

use crate::export::case_hash;
use hcl_conformance_format::suite::Suite;
use semver::Version;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Where the manifests are, from the repository's root.
pub const MANIFESTS: &str = "suite/versions/";

/// The version a manifest's path names: `suite/versions/1.2.0.txt`.
fn version_of_path(path: &str) -> Option<Version> {
    let name = path.strip_prefix(MANIFESTS)?.strip_suffix(".txt")?;
    Version::parse(name).ok()
}

/// The path of a version's manifest, from the repository's root.
pub fn manifest_path(version: &Version) -> String {
    format!("{MANIFESTS}{version}.txt")
}

/// The suite's version: its newest manifest's.
pub fn suite_version(suite: &Suite) -> Option<Version> {
    suite.texts.keys().filter_map(|p| version_of_path(p)).max()
}

/// The version of the suite built into the runner.
pub fn embedded_version() -> Option<Version> {
    let paths = hcl_conformance_format::suite::embedded_paths();
    paths.filter_map(version_of_path).max()
}

/// The runner's, the built-in suite's and the protocol's versions, as
/// `--version` shows them.
pub fn describe_versions() -> &'static str {
    static VERSIONS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let suite = embedded_version().map_or("none".into(), |v| v.to_string());
        format!(
            "{} (suite {suite}, protocol {})",
            env!("CARGO_PKG_VERSION"),
            hcl_conformance_format::wire::PROTOCOL_VERSION
        )
    });
    &VERSIONS
}

/// Case ids and their hashes.
pub type Hashes = BTreeMap<String, String>;

/// A version and the cases it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    pub version: Version,
    pub hashes: Hashes,
}

/// Every case of the suite as it is, with its hash.
pub fn hashes(suite: &Suite) -> Hashes {
    suite
        .cases()
        .map(|c| (c.id.clone(), case_hash(c)))
        .collect()
}

/// The suite's manifests, oldest first.
pub fn manifests(suite: &Suite) -> Result<Vec<Manifest>, String> {
    let mut manifests = Vec::new();
    for (path, text) in &suite.texts {
        if !path.starts_with(MANIFESTS) {
            continue;
        }
        let Some(version) = version_of_path(path) else {
            return Err(format!(
                "{path}: a manifest is named after its version, X.Y.Z.txt"
            ));
        };
        let hashes = parse_manifest(text).map_err(|e| format!("{path}:{e}"))?;
        manifests.push(Manifest { version, hashes });
    }
    manifests.sort_by(|a, b| a.version.cmp(&b.version));
    Ok(manifests)
}

/// A manifest's text: two comment lines, then `ID HASH` a line, by id.
pub fn render_manifest(version: &Version, hashes: &Hashes) -> String {
    let mut out = format!(
        "# hcl-conformance suite {version}: every case id and the hash of its request and expectations.\n\
         # Written by HCL_CONFORMANCE_WRITE_VERSIONS=1 cargo test --test versions (README.md § Versions); do not edit.\n"
    );
    for (id, hash) in hashes {
        let _ = writeln!(out, "{id} {hash}");
    }
    out
}

/// Reads a manifest's text; an error names the line (`LINE: what`).
pub fn parse_manifest(text: &str) -> Result<Hashes, String> {
    let mut hashes = Hashes::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((id, hash)) = line.split_once(' ') else {
            return Err(format!("{}: a line is `CASE-ID HASH`", i + 1));
        };
        if hashes.insert(id.into(), hash.trim().into()).is_some() {
            return Err(format!("{}: the case {id} is listed twice", i + 1));
        }
    }
    Ok(hashes)
}

/// What changed from one set of cases to another, each list by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    pub added: Vec<String>,
    /// Cases whose request or expectations differ.
    pub changed: Vec<String>,
    pub removed: Vec<String>,
}

impl Changes {
    pub fn between(old: &Hashes, new: &Hashes) -> Changes {
        let mut changes = Changes::default();
        for (id, hash) in new {
            match old.get(id) {
                None => changes.added.push(id.clone()),
                Some(old) if old != hash => changes.changed.push(id.clone()),
                Some(_) => {}
            }
        }
        changes.removed = old
            .keys()
            .filter(|id| !new.contains_key(*id))
            .cloned()
            .collect();
        changes
    }

    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }

    /// `3 added, 1 changed, 0 removed`.
    pub fn counts(&self) -> String {
        format!(
            "{} added, {} changed, {} removed",
            self.added.len(),
            self.changed.len(),
            self.removed.len()
        )
    }

    /// The smallest version after `previous` that these changes allow.
    pub fn next_version(&self, previous: &Version) -> Version {
        match self.added.is_empty() && self.removed.is_empty() {
            true => Version::new(previous.major, previous.minor, previous.patch + 1),
            false => Version::new(previous.major, previous.minor + 1, 0),
        }
    }
}

/// Whether `next` may follow `previous` with these changes: it is newer;
/// a patch version only changes cases; a minor or patch version changes
/// something (a major one, a protocol or case-format break, may change no
/// case). An error says what the version should be.
pub fn check_bump(previous: &Version, next: &Version, changes: &Changes) -> Result<(), String> {
    if next <= previous {
        return Err(format!("version {next} does not come after {previous}"));
    }
    if !next.pre.is_empty() || !next.build.is_empty() {
        return Err(format!(
            "version {next}: suite versions are MAJOR.MINOR.PATCH"
        ));
    }
    let major = next.major > previous.major;
    let minor = !major && next.minor > previous.minor;
    if !major && changes.is_empty() {
        return Err(format!(
            "version {next} changes no case: only a major version (a protocol or case-format break) may"
        ));
    }
    let adds_or_removes = !changes.added.is_empty() || !changes.removed.is_empty();
    if !major && !minor && adds_or_removes {
        return Err(format!(
            "version {next} adds or removes cases ({}), so it is a minor version: {}",
            changes.counts(),
            changes.next_version(previous)
        ));
    }
    Ok(())
}

/// `CHANGELOG.md`, generated from the manifests (oldest first): per
/// version, newest first, the cases added, changed and removed.
pub fn changelog(manifests: &[Manifest]) -> String {
    let mut out = String::from(
        "# Changelog\n\n\
         The suite's versions, newest first (README.md § Versions says what a\n\
         major, minor and patch version mean): for each, the cases added, changed\n\
         (their request or an expectation) and removed, by id.\n\
         `hcl-conformance changes --since VERSION` lists them for any span of\n\
         versions. Generated from the manifests in `suite/versions/` by\n\
         `HCL_CONFORMANCE_WRITE_VERSIONS=1 cargo test --test versions`; do not edit.\n",
    );
    for (i, manifest) in manifests.iter().enumerate().rev() {
        let _ = write!(out, "\n## {}\n\n", manifest.version);
        let Some(previous) = i.checked_sub(1).map(|p| &manifests[p]) else {
            let files: BTreeMap<&str, usize> =
                manifest
                    .hashes
                    .keys()
                    .fold(BTreeMap::new(), |mut files, id| {
                        *files
                            .entry(id.split("::").next().unwrap_or(id))
                            .or_default() += 1;
                        files
                    });
            let _ = writeln!(
                out,
                "The first versioned release: {} cases in {} files.\n",
                manifest.hashes.len(),
                files.len()
            );
            for (file, count) in files {
                let _ = writeln!(out, "- `{file}`: {count}");
            }
            continue;
        };
        let changes = Changes::between(&previous.hashes, &manifest.hashes);
        let _ = writeln!(
            out,
            "{} cases: {}.",
            manifest.hashes.len(),
            changes.counts()
        );
        for (what, ids) in [
            ("Added", &changes.added),
            ("Changed", &changes.changed),
            ("Removed", &changes.removed),
        ] {
            if ids.is_empty() {
                continue;
            }
            let _ = writeln!(out, "\n### {what}\n");
            for id in ids {
                let _ = writeln!(out, "- `{id}`");
            }
        }
    }
    out
}

/// The line of a known-failure list that names the suite version it was
/// written against.
pub fn list_header(version: &Version) -> String {
    format!("# Suite version {version}: `hcl-conformance changes --since THIS-FILE` lists the cases added or changed since.")
}

/// A known-failure list's text with its header naming `version`: the
/// `# Suite version` line replaced, or added at the end of the leading
/// comment block.
pub fn stamp_list(text: &str, version: &Version) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let header = lines.iter().take_while(|l| l.starts_with('#')).count();
    let stamp = list_header(version);
    let mut out: Vec<&str> = Vec::with_capacity(lines.len() + 1);
    let old = lines[..header]
        .iter()
        .position(|l| l.starts_with("# Suite version "));
    for (i, line) in lines.iter().enumerate() {
        if Some(i) == old {
            out.push(&stamp);
            continue;
        }
        if old.is_none() && i == header {
            out.push(&stamp);
        }
        out.push(line);
    }
    if old.is_none() && header == lines.len() {
        out.push(&stamp);
    }
    out.join("\n") + "\n"
}

/// The suite version a known-failure list names on a `# Suite version`
/// line.
pub fn version_of_list(text: &str) -> Option<Version> {
    let line = text
        .lines()
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
        .find_map(|l| l.strip_prefix("# Suite version "))?;
    let version = line.split([':', ' ']).next()?;
    Version::parse(version).ok()
}
