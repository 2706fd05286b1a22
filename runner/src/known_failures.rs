//! Known-failure lists: plain text, one case id a line with the reason it
//! fails (`runner/PROTOCOL.md` § Running an implementation). A list must
//! match the results exactly, so it only shrinks; a run can write the list
//! it calls for, keeping the reasons already written.

use crate::run::{case_location, first_line, CaseRecord, Status, Verdict};
use crate::suite::{Case, Suite};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// Cases that may fail without failing the run, each with where it is
/// listed and why.
#[derive(Clone, Debug, Default)]
pub struct KnownFailures {
    entries: BTreeMap<String, Listing>,
}

/// Where a known failure is listed, and why it fails.
#[derive(Clone, Debug)]
struct Listing {
    /// `FILE:LINE`, or the case's profile entry.
    place: String,
    reason: String,
    /// Listed by hand in a file (not derived from a profile's recorded
    /// differences): then the case must fail, not merely not pass.
    by_hand: bool,
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
        let mut in_header = true;
        for (i, line) in text.lines().enumerate() {
            let trimmed = line.trim();
            if trimmed.starts_with('#') && in_header {
                file.header.push(line.trim_end().to_string());
            }
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            in_header = false;
            let (id, reason) = trimmed
                .split_once(char::is_whitespace)
                .unwrap_or((trimmed, ""));
            file.entries
                .push((id.to_string(), reason.trim().to_string(), i + 1));
        }
        file
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
                    "{place}: `{id}` is not a case of the suite; remove the line (or fix the id: FILE::NAME, as --list shows)"
                ));
                continue;
            }
            if reason.is_empty() {
                errors.push(format!(
                    "{place}: say why `{id}` is expected to fail, after its id"
                ));
                continue;
            }
            if let Some(first) = entries.get(&id).map(|l: &Listing| l.place.clone()) {
                errors.push(format!(
                    "{place}: `{id}` is listed twice (first at {first}); keep one line"
                ));
                continue;
            }
            entries.insert(
                id,
                Listing {
                    place,
                    reason,
                    by_hand: true,
                },
            );
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
                Some((
                    c.id.clone(),
                    Listing {
                        place: format!("{} (profiles.{profile})", case_location(c)),
                        reason: format!("records a different {profile} result; see {}", p.note),
                        by_hand: false,
                    },
                ))
            })
            .collect();
        KnownFailures { entries }
    }

    pub fn merge(&mut self, other: KnownFailures) {
        self.entries.extend(other.entries);
    }

    /// Whether the case is listed.
    pub fn contains(&self, id: &str) -> bool {
        self.entries.contains_key(id)
    }

    /// The reason given for a listed case.
    pub fn reason(&self, id: &str) -> Option<&str> {
        self.entries.get(id).map(|l| l.reason.as_str())
    }

    /// How many cases are listed.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The verdict once the list is taken into account: a listed failure
    /// is expected; a listed case that passed, or (listed by hand) that
    /// the implementation cannot run, is an unexpected pass: the list must
    /// shrink.
    pub fn apply(&self, case: &Case, verdict: Verdict) -> Verdict {
        let Some(Listing {
            place,
            reason,
            by_hand,
        }) = self.entries.get(&case.id)
        else {
            return verdict;
        };
        let how = match verdict.status {
            Status::Failed | Status::Crashed | Status::TimedOut => {
                return Verdict {
                    status: Status::ExpectedFailure,
                    message: format!("expected failure ({place}: {reason})\n{}", verdict.message),
                    ..verdict
                }
            }
            Status::Passed => "passed".to_string(),
            Status::Unsupported if *by_hand => format!("is {}", verdict.message),
            _ => return verdict,
        };
        Verdict {
            status: Status::UnexpectedPass,
            message: format!(
                "{}: case {} {how}, but {place} lists it as an expected failure ({reason}): remove it from the list",
                case_location(case),
                case.id
            ),
            reason: format!("listed as an expected failure, but {how}"),
            error_grade: verdict.error_grade,
        }
    }
}

/// A known-failure list for a run: every case that failed, crashed or
/// timed out (expected or not), sorted, one `ID reason` a line. A reason
/// from `previous` (an existing list, perhaps edited by hand) is kept for a
/// case that still fails; a new failure gets the observed difference.
/// Listed cases this run did not select stay listed when they are cases of
/// the suite.
pub fn failure_list(
    records: &[CaseRecord],
    previous: &FailureFile,
    suite: &Suite,
    default_header: &[String],
) -> String {
    let ran: BTreeSet<&str> = records.iter().map(|r| r.id.as_str()).collect();
    let exists: BTreeSet<&str> = suite.cases().map(|c| c.id.as_str()).collect();
    let old: BTreeMap<&str, &str> = previous
        .entries
        .iter()
        .filter(|(_, reason, _)| !reason.is_empty())
        .map(|(id, reason, _)| (id.as_str(), reason.as_str()))
        .collect();
    let mut lines: BTreeMap<String, String> = BTreeMap::new();
    for r in records {
        if matches!(
            r.status,
            Status::Failed | Status::Crashed | Status::TimedOut | Status::ExpectedFailure
        ) {
            let reason = old
                .get(r.id.as_str())
                .map(|s| s.to_string())
                .unwrap_or_else(|| short_reason(&r.reason));
            lines.insert(r.id.clone(), reason);
        }
    }
    for (id, reason) in &old {
        if !ran.contains(id) && exists.contains(id) {
            lines.insert(id.to_string(), reason.to_string());
        }
    }
    let header = if previous.header.is_empty() {
        default_header
    } else {
        &previous.header
    };
    let mut out = String::new();
    for line in header {
        let _ = writeln!(out, "{line}");
    }
    for (id, reason) in lines {
        let _ = writeln!(out, "{id} {reason}");
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
