//! Known-failure lists: plain text, one case id a line with the reason it
//! fails (`runner/PROTOCOL.md` § Running an implementation). A list must
//! match the results exactly, so it only shrinks; a run can write the list
//! it calls for, keeping the reasons already written.

use crate::compare::first_line;
use crate::suite::Suite;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Cases that may fail without failing the run, each with where it is
/// listed and why.
#[derive(Clone, Debug, Default)]
pub struct KnownFailures {
    entries: BTreeMap<String, Listing>,
}

/// Where a known failure is listed, and why it fails.
#[derive(Clone, Debug)]
pub struct Listing {
    /// `FILE:LINE`, or the case's profile entry.
    pub place: String,
    pub reason: String,
    /// Listed by hand in a file (not derived from a profile's recorded
    /// differences): then the case must fail, not merely not pass.
    pub by_hand: bool,
}

/// A known-failure file's lines: its leading comment block, and each
/// listed id with its reason and line number.
#[derive(Clone, Debug, Default)]
pub struct FailureFile {
    pub header: Vec<String>,
    pub entries: Vec<(String, String, usize)>,
}

impl FailureFile {
    /// Reads a list: one case id a line, then its reason; `#` comments,
    /// blank lines.
    pub fn parse(text: &str) -> FailureFile {
        let mut file = FailureFile::default();
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with('#') && file.entries.is_empty() {
                file.header.push(line.trim_end().to_string());
            }
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let (id, reason) = trimmed
                .split_once(char::is_whitespace)
                .unwrap_or((trimmed, ""));
            file.entries
                .push((id.to_string(), reason.trim().to_string(), i + 1));
        }
        file
    }

    /// Reads the lists at `paths` that exist, in order (a later reason for
    /// a case wins), with the header of the last.
    pub fn read_all(paths: &[&Path]) -> FailureFile {
        let mut all = FailureFile::default();
        for path in paths {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            let file = FailureFile::parse(&text);
            all.header = file.header;
            all.entries.extend(file.entries);
        }
        all
    }
}

impl KnownFailures {
    /// Reads a list: one case id a line, then its reason; `#` comments.
    /// Every bad line is reported, as `FILE:LINE: what is wrong`.
    pub fn load(path: &Path, suite: &Suite) -> Result<KnownFailures, String> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "{}: cannot read the known-failure list: {e}",
                path.display()
            )
        })?;
        let ids: BTreeSet<&str> = suite.cases().map(|c| c.id.as_str()).collect();
        let mut entries = BTreeMap::new();
        let mut errors = Vec::new();
        for (id, reason, line) in FailureFile::parse(&text).entries {
            let place = format!("{}:{line}", path.display());
            if !ids.contains(id.as_str()) {
                errors.push(format!(
                    "{place}: `{id}` is not a case of the suite; remove the line (or fix the id: FILE::NAME, as `hcl-conformance list` shows)"
                ));
            } else if reason.is_empty() {
                errors.push(format!(
                    "{place}: say why `{id}` is expected to fail, after its id"
                ));
            } else if let Some(first) = entries.get(&id).map(|l: &Listing| l.place.clone()) {
                errors.push(format!(
                    "{place}: `{id}` is listed twice (first at {first}); keep one line"
                ));
            } else {
                let by_hand = true;
                entries.insert(
                    id,
                    Listing {
                        place,
                        reason,
                        by_hand,
                    },
                );
            }
        }
        if errors.is_empty() {
            Ok(KnownFailures { entries })
        } else {
            Err(errors.join("\n"))
        }
    }

    /// Every case that records a different result for `profile`.
    pub fn from_profile(suite: &Suite, profile: &str) -> KnownFailures {
        let entries = suite
            .cases()
            .filter_map(|c| {
                let p = c.profiles.get(profile)?;
                let listing = Listing {
                    place: format!("{} (profiles.{profile})", c.location()),
                    reason: format!("records a different {profile} result; see {}", p.note),
                    by_hand: false,
                };
                Some((c.id.clone(), listing))
            })
            .collect();
        KnownFailures { entries }
    }

    pub fn merge(&mut self, other: KnownFailures) {
        self.entries.extend(other.entries);
    }

    /// Where and why the case is listed, if it is.
    pub fn listing(&self, id: &str) -> Option<&Listing> {
        self.entries.get(id)
    }

    /// Whether the case is listed.
    pub fn contains(&self, id: &str) -> bool {
        self.entries.contains_key(id)
    }

    /// How many cases are listed.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// A known-failure list for a run: `failures` (the cases that failed,
/// crashed or timed out, expected or not, with their reasons), sorted, one
/// `ID reason` a line. A reason from `previous` (an existing list, perhaps
/// edited by hand) is kept for a case that still fails; listed cases
/// `ran` does not hold stay listed when they are cases of the suite.
pub fn failure_list<'a>(
    failures: impl Iterator<Item = (&'a str, &'a str)>,
    ran: &BTreeSet<&str>,
    previous: &FailureFile,
    suite: &Suite,
    default_header: &[String],
) -> String {
    let exists: BTreeSet<&str> = suite.cases().map(|c| c.id.as_str()).collect();
    let old: BTreeMap<&str, &str> = previous
        .entries
        .iter()
        .filter(|(_, reason, _)| !reason.is_empty())
        .map(|(id, reason, _)| (id.as_str(), reason.as_str()))
        .collect();
    let mut lines: BTreeMap<&str, String> = failures
        .map(|(id, reason)| {
            let reason = old
                .get(id)
                .map_or_else(|| short_reason(reason), |r| r.to_string());
            (id, reason)
        })
        .collect();
    for (id, reason) in &old {
        if !ran.contains(id) && exists.contains(id) {
            lines.insert(id, reason.to_string());
        }
    }
    let header = match previous.header.is_empty() {
        true => default_header,
        false => &previous.header,
    };
    let mut out: String = header.iter().map(|line| format!("{line}\n")).collect();
    for (id, reason) in lines {
        out.push_str(&format!("{id} {reason}\n"));
    }
    out
}

/// A reason on one line, at most about 160 characters.
fn short_reason(reason: &str) -> String {
    let line = first_line(reason);
    let line = if line.is_empty() { "fails" } else { line };
    if line.chars().count() > 160 {
        let cut: String = line.chars().take(157).collect();
        format!("{cut}...")
    } else {
        line.to_string()
    }
}
