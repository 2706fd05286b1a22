//! Known-failure lists: plain text, one case id a line with the reason it
//! fails (`runner/PROTOCOL.md` § Running an implementation). A list must
//! match the results exactly, so it only shrinks; a run can write the list
//! it calls for, keeping the reasons already written.

use crate::compare::first_line;
use crate::verdict::{CaseRecord, Status};
use hcl_conformance_format::suite::{decode_text, Case, Suite};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
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

    /// Reads the lists at `paths`, in order (a later reason for a case
    /// wins), with the header of the last. A path where there is no file,
    /// or something other than a regular file (a pipe, `/dev/stdout`),
    /// holds no reasons to keep; a file that cannot be read, or whose text
    /// is not UTF-8 with LF or CRLF line endings, is an error naming it,
    /// its line and byte ([`read_list`]), never read as empty: the reasons
    /// it holds would be lost when the list is written again.
    pub fn read_all(paths: &[&Path]) -> Result<FailureFile, String> {
        let mut all = FailureFile::default();
        for path in paths {
            let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
            let file = match regular {
                true => FailureFile::parse(&read_list(path)?),
                false => FailureFile::default(),
            };
            all.header = file.header;
            all.entries.extend(file.entries);
        }
        Ok(all)
    }
}

/// A known-failure list's text. A byte that is not UTF-8, or a carriage
/// return that does not end a CRLF line, is an error at its line and byte
/// (`hcl_conformance_format::suite::decode_text`): read around (lossily, or as one long
/// comment line), the list would lose its reasons, and a list written
/// from it would drop them for good.
pub fn read_list(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| {
        format!(
            "{}: cannot read the known-failure list: {e}",
            path.display()
        )
    })?;
    decode_text(path, bytes).map_err(|e| format!("{e}; nothing was read from the list"))
}

/// Writes `text` to the list at `path` whole or not at all: into a new
/// file beside it, flushed to the disk, then renamed over it, so that a
/// full disk or a crash leaves the old list as it was rather than cut
/// short. A link is followed (the file it points to is replaced, the link
/// kept), and the old file's permissions are kept. Where `path` is not a
/// regular file (`/dev/stdout`, a pipe) the text is written to it directly.
pub fn write_list(path: &Path, text: &str) -> Result<(), String> {
    let failed = |e: std::io::Error| {
        format!(
            "cannot write the known-failure list {}: {e}",
            path.display()
        )
    };
    let existing = std::fs::metadata(path).ok();
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        return std::fs::write(path, text).map_err(failed);
    }
    let target = match existing {
        Some(_) => std::fs::canonicalize(path).map_err(failed)?,
        None => path.to_path_buf(),
    };
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    let mut temporary = None;
    for n in 0..100 {
        let candidate = target.with_file_name(temporary_name(&name, n));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(file) => {
                temporary = Some((candidate, file));
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(failed(e)),
        }
    }
    let Some((temporary, mut file)) = temporary else {
        return Err(failed(std::io::Error::other(
            "no free name for a temporary file beside it",
        )));
    };
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| match &existing {
            Some(old) => file.set_permissions(old.permissions()),
            None => Ok(()),
        })
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temporary, &target));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        failed(e)
    })
}

/// The `n`-th name [`write_list`] tries for the new file beside the list
/// named `name`: hidden, and this process's own.
fn temporary_name(name: &str, n: usize) -> String {
    format!(".{name}.{}-{n}.tmp", std::process::id())
}

impl KnownFailures {
    /// Reads a list: one case id a line, then its reason; `#` comments.
    /// Every bad line is reported, as `FILE:LINE: what is wrong`.
    pub fn load(path: &Path, suite: &Suite) -> Result<KnownFailures, String> {
        let text = read_list(path)?;
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

    /// Every case whose expectation under `profile` (its own recorded
    /// result, or one of a profile it follows) differs from the spec's.
    pub fn from_profile(suite: &Suite, profile: &str) -> KnownFailures {
        let entries = suite
            .cases()
            .filter(|c| c.differs_under(profile))
            .filter_map(|c| {
                let (recorded, p) = c.recorded_for(profile)?;
                let listing = Listing {
                    place: format!("{} (profiles.{recorded})", c.location()),
                    reason: format!("records a different {recorded} result; see {}", p.note),
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

    /// The verdict once the list is taken into account: a listed failure is
    /// expected; a listed case that passed, or (listed by hand) that the
    /// implementation cannot run, is an unexpected pass: the list must shrink.
    pub fn verdict(&self, case: &Case, record: CaseRecord) -> CaseRecord {
        let Some(listing) = self.listing(&case.id) else {
            return record;
        };
        let (place, reason) = (&listing.place, &listing.reason);
        let how = match record.status {
            s if s.is_failure() => {
                let message = format!("expected failure ({place}: {reason})\n{}", record.message);
                return CaseRecord {
                    status: Status::ExpectedFailure,
                    message,
                    ..record
                };
            }
            Status::Passed => "passed".to_string(),
            Status::Unsupported if listing.by_hand => format!("is {}", record.message),
            _ => return record,
        };
        let (location, id) = (case.location(), &case.id);
        CaseRecord {
            status: Status::UnexpectedPass,
            message: format!(
                "{location}: case {id} {how}, but {place} lists it as an expected failure ({reason}): remove it from the list"
            ),
            reason: format!("listed as an expected failure, but {how}"),
            ..record
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use hcl_conformance_format::kinds::{Expr, Input};
    use hcl_conformance_format::suite::{Case, Expectation, Origin, ProfileExpectation, SuiteFile};
    use std::path::PathBuf;

    /// A suite of one file with a case of each name; those named in
    /// `recorded` record another result for the profile hcl-v2.14.
    fn suite(names: &[&str], recorded: &[&str]) -> Suite {
        let case = |(line, name): (usize, &&str)| {
            let profiles = recorded.contains(name).then(|| {
                let note = format!("spec-notes/gaps/{name}.md");
                let expect = Expectation::Result(false);
                ("hcl-v2.14".to_string(), ProfileExpectation { expect, note })
            });
            Case {
                id: format!("area/file::{name}"),
                name: name.to_string(),
                description: None,
                covers: Vec::new(),
                input: Input::Expr(Expr {
                    expr: "true".into(),
                    variables: BTreeMap::new(),
                    extensions: Vec::new(),
                }),
                expect: Expectation::Result(true),
                implementation_defined: None,
                profiles: profiles.into_iter().collect(),
                area: "expressions",
                line: 10 * (line + 1),
            }
        };
        let file = SuiteFile {
            id: "area/file".into(),
            path: PathBuf::from("suite/area/file.yaml"),
            spec: Vec::new(),
            summary: String::new(),
            cases: names.iter().enumerate().map(case).collect(),
        };
        Suite {
            dir: PathBuf::from("suite"),
            origin: Origin::Embedded,
            files: vec![file],
            requirements: Default::default(),
            texts: BTreeMap::new(),
        }
    }

    #[test]
    fn a_profile_lists_every_case_that_records_a_result_for_it() {
        let suite = suite(&["a", "b", "c"], &["a", "c"]);
        let known = KnownFailures::from_profile(&suite, "hcl-v2.14");
        assert_eq!(known.len(), 2);
        assert!(!known.is_empty());
        assert!(known.contains("area/file::a") && known.contains("area/file::c"));
        assert!(!known.contains("area/file::b"));
        let listing = known.listing("area/file::c").unwrap();
        assert!(!listing.by_hand, "{listing:?}");
        assert_eq!(
            listing.place,
            "suite/area/file.yaml:30 (profiles.hcl-v2.14)"
        );
        assert!(
            listing.reason.contains("spec-notes/gaps/c.md"),
            "{listing:?}"
        );
        // No case records a result of the spec's profile apart.
        assert!(KnownFailures::from_profile(&suite, "spec").is_empty());
    }

    #[test]
    fn a_failure_list_keeps_written_reasons_and_drops_cases_that_pass() {
        let suite = suite(&["a", "b", "c", "d"], &[]);
        let [a, b, c, d] = ["a", "b", "c", "d"].map(|n| format!("area/file::{n}"));
        let (a, b, c, d) = (a.as_str(), b.as_str(), c.as_str(), d.as_str());
        let previous = FailureFile::parse(&format!(
            "# kept header\n{a} written by hand\n{c} listed, not run\n{d} passes now\nno/such::case gone\n"
        ));
        let failures = [(b, "Wrong value\nthe diff"), (a, "a new message")];
        let ran = BTreeSet::from([a, b, d]);
        let list = failure_list(failures.into_iter(), &ran, &previous, &suite, &[]);
        assert_eq!(
            list,
            format!("# kept header\n{a} written by hand\n{b} Wrong value\n{c} listed, not run\n")
        );
        // A new list: the default header, a reason on one short line.
        let long = "x".repeat(200);
        let longest_kept = "y".repeat(160);
        let failures = [(a, ""), (b, long.as_str()), (c, longest_kept.as_str())];
        let header = ["# default header".to_string()];
        let list = failure_list(
            failures.into_iter(),
            &ran,
            &FailureFile::default(),
            &suite,
            &header,
        );
        let cut = "x".repeat(157);
        assert_eq!(
            list,
            format!("# default header\n{a} fails\n{b} {cut}...\n{c} {longest_kept}\n")
        );
    }

    /// Each status a case can have, through a list naming the case by hand
    /// (`by_hand`) or from a profile, and through a list without it.
    #[test]
    fn the_list_turns_each_verdict_as_it_says() {
        let suite = suite(&["a"], &[]);
        let case = &suite.files[0].cases[0];
        let listed = |by_hand| KnownFailures {
            entries: BTreeMap::from([(
                case.id.clone(),
                Listing {
                    place: "list.txt:3".into(),
                    reason: "why".into(),
                    by_hand,
                },
            )]),
        };
        let record = |status| CaseRecord::new(case, status, "first".into(), "in full".into());
        let turned = |list: &KnownFailures, status| {
            let v = list.verdict(case, record(status));
            (v.status, v.reason, v.message)
        };
        let unchanged = |status: Status| (status, "first".to_string(), "in full".to_string());
        let passed_but_listed = |how: &str| {
            (
                Status::UnexpectedPass,
                format!("listed as an expected failure, but {how}"),
                format!(
                    "suite/area/file.yaml:10: case area/file::a {how}, but list.txt:3 lists it \
                     as an expected failure (why): remove it from the list"
                ),
            )
        };
        for by_hand in [true, false] {
            let list = listed(by_hand);
            for failure in [Status::Failed, Status::Crashed, Status::TimedOut] {
                let expected = (
                    Status::ExpectedFailure,
                    "first".to_string(),
                    "expected failure (list.txt:3: why)\nin full".to_string(),
                );
                assert_eq!(turned(&list, failure), expected, "{failure:?}");
            }
            assert_eq!(turned(&list, Status::Passed), passed_but_listed("passed"));
            for other in [Status::ExpectedFailure, Status::UnexpectedPass] {
                assert_eq!(turned(&list, other), unchanged(other));
            }
        }
        // Listed by hand, a case the implementation cannot run must fail
        // instead; listed from a profile, it stays unsupported.
        let unsupported = turned(&listed(true), Status::Unsupported);
        assert_eq!(unsupported, passed_but_listed("is in full"));
        let unsupported = turned(&listed(false), Status::Unsupported);
        assert_eq!(unsupported, unchanged(Status::Unsupported));
        // A list without the case leaves every verdict as it is.
        for status in <Status as strum::VariantArray>::VARIANTS {
            assert_eq!(
                turned(&KnownFailures::default(), *status),
                unchanged(*status)
            );
        }
    }

    /// A file of this test's own, removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str, text: &str) -> Scratch {
            let path = std::env::temp_dir().join(format!(
                "hcl-conformance-known-failures-{}-{name}",
                std::process::id()
            ));
            std::fs::write(&path, text).unwrap();
            Scratch(path)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn a_list_is_loaded_with_each_entry_placed_and_merged_with_another() {
        let suite = suite(&["a", "b", "c"], &["c"]);
        let file = Scratch::new("good", "# header\narea/file::a  why it fails\n");
        let mut known = KnownFailures::load(&file.0, &suite).unwrap();
        let listing = known.listing("area/file::a").unwrap();
        assert_eq!(listing.place, format!("{}:2", file.0.display()));
        assert_eq!(listing.reason, "why it fails");
        assert!(listing.by_hand);
        assert!(!known.contains("area/file::b"));
        known.merge(KnownFailures::from_profile(&suite, "hcl-v2.14"));
        assert!(known.contains("area/file::a") && known.contains("area/file::c"));
        assert_eq!(known.len(), 2);
    }

    #[test]
    fn every_bad_line_of_a_list_is_an_error_at_its_place() {
        let suite = suite(&["a"], &[]);
        let file = Scratch::new(
            "bad",
            "area/file::a first\nno/such::case gone\narea/file::a\narea/file::a again\n",
        );
        let errors = KnownFailures::load(&file.0, &suite).unwrap_err();
        let place = file.0.display();
        let lines: Vec<&str> = errors.lines().collect();
        assert_eq!(lines.len(), 3, "{errors}");
        assert!(lines[0].starts_with(&format!("{place}:2: `no/such::case` is not a case")));
        assert!(lines[1].starts_with(&format!("{place}:3: say why `area/file::a`")));
        assert!(lines[2].starts_with(&format!("{place}:4: `area/file::a` is listed twice")));
        let missing = file.0.with_extension("missing");
        assert!(KnownFailures::load(&missing, &suite)
            .unwrap_err()
            .contains("cannot read the known-failure list"));
    }

    #[test]
    fn lists_read_together_keep_every_entry_in_order_and_the_last_header() {
        let first = Scratch::new("first", "# one\nx::a first\n");
        let second = Scratch::new("second", "# two\nx::b second\n");
        let all = FailureFile::read_all(&[&first.0, &second.0]).unwrap();
        assert_eq!(all.header, ["# two"]);
        assert_eq!(
            all.entries,
            [
                ("x::a".into(), "first".into(), 2),
                ("x::b".into(), "second".into(), 2)
            ]
        );
    }

    #[test]
    fn lists_that_cannot_be_read_whole_are_errors_and_absent_ones_are_empty() {
        let latin1 = Scratch::new("latin1", "");
        std::fs::write(&latin1.0, b"# caf\xe9\nx::a kept\n").unwrap();
        let error = FailureFile::read_all(&[&latin1.0]).unwrap_err();
        let place = latin1.0.display();
        assert!(
            error.starts_with(&format!(
                "{place}:1: the byte at offset 5 (0xE9) is not UTF-8"
            )),
            "{error}"
        );
        let cr = Scratch::new("cr", "# header\rx::a kept\r");
        let error = FailureFile::read_all(&[&cr.0]).unwrap_err();
        assert!(
            error.starts_with(&format!(
                "{}:1: the byte at offset 8 is a carriage return",
                cr.0.display()
            )),
            "{error}"
        );
        // CRLF is read as lines; no file, or no regular file, holds nothing.
        let crlf = Scratch::new("crlf", "# header\r\nx::a kept\r\n");
        let missing = crlf.0.with_extension("missing");
        let all = FailureFile::read_all(&[&crlf.0, &missing, Path::new("/dev/null")]).unwrap();
        assert_eq!(all.entries, [("x::a".into(), "kept".into(), 2)]);
    }

    #[test]
    fn a_list_is_replaced_whole_through_its_link_keeping_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let file = Scratch::new("replaced", "old\n");
        let link = Scratch(file.0.with_extension("link"));
        std::os::unix::fs::symlink(&file.0, &link.0).unwrap();
        let mode = std::fs::Permissions::from_mode(0o640);
        std::fs::set_permissions(&file.0, mode).unwrap();
        write_list(&link.0, "new\n").unwrap();
        assert!(link.0.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&file.0).unwrap(), "new\n");
        let mode = std::fs::metadata(&file.0).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        // Nothing is left beside it.
        let folder = file.0.parent().unwrap();
        let name = file.0.file_name().unwrap().to_string_lossy().to_string();
        let left = std::fs::read_dir(folder)
            .unwrap()
            .filter_map(Result::ok)
            .any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(&format!(".{name}."))
            });
        assert!(!left);
        // A new list is written where there was none.
        let new = Scratch(file.0.with_extension("new"));
        write_list(&new.0, "fresh\n").unwrap();
        assert_eq!(std::fs::read_to_string(&new.0).unwrap(), "fresh\n");
    }

    #[test]
    fn a_list_entry_keeps_its_line_number_and_the_leading_comments_are_its_header() {
        let file = FailureFile::parse(
            "# header\n#  two\n\nsome::case  why it fails \n# later\nother::case\n",
        );
        assert_eq!(file.header, ["# header", "#  two"]);
        assert_eq!(
            file.entries,
            [
                ("some::case".into(), "why it fails".into(), 4),
                ("other::case".into(), String::new(), 6)
            ]
        );
    }

    #[test]
    fn a_list_is_replaced_by_a_new_file_renamed_over_it() {
        use std::os::unix::fs::MetadataExt;
        let dir = std::env::temp_dir().join(format!("write-list-rename-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let list = dir.join("list.txt");
        std::fs::write(&list, "old\n").unwrap();
        let before = std::fs::metadata(&list).unwrap().ino();
        write_list(&list, "new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&list).unwrap(), "new\n");
        // A new file, not the old one written over.
        assert_ne!(std::fs::metadata(&list).unwrap().ino(), before);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_temporary_name_in_use_is_passed_over_and_other_errors_are_reported() {
        let dir = std::env::temp_dir().join(format!("write-list-taken-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let list = dir.join("list.txt");
        let taken = dir.join(temporary_name("list.txt", 0));
        std::fs::write(&taken, "someone else's").unwrap();
        write_list(&list, "new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&list).unwrap(), "new\n");
        assert_eq!(std::fs::read_to_string(&taken).unwrap(), "someone else's");
        // A folder that does not exist is its own error, not a search for
        // a free name.
        let error = write_list(&dir.join("missing/list.txt"), "x").unwrap_err();
        assert!(error.contains("No such file"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
