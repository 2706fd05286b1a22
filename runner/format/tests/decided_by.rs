//! Each note under spec-notes/gaps/ says which spec sentence decides it
//! (spec-notes/README.md § The rule): a `Decided by:` line right after its
//! `Cases:` line, quoting the sentence word for word, or saying that
//! nothing decides the question. These tests check that every note has the
//! line, that every quoted sentence is in the document and section it
//! cites, that the notes README's verdicts and table agree with the lines,
//! and that no case makes an error of what a hashicorp/hcl profile accepts
//! unless its note quotes a sentence.
//!
//! The documents are read from the folder the spec headings come from
//! (`scripts/list-spec-headings`): `$SHARED`, or `../shared` beside the
//! checkout, with `specs/hcl-v2.14.1/` and `seeds/`. Where that folder is
//! absent, a quote is checked against the suite's verbatim copy of the
//! documents' normative statements (`suite/requirements.jsonl`) instead: a
//! deciding sentence is a normative one, so each quote is one of those
//! statements or part of one.

use hcl_conformance_format::documents::{Document, DOCUMENTS};
use hcl_conformance_format::requirements::Requirements;
use hcl_conformance_format::suite::{Case, Expectation};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod notes;
use notes::gap_notes;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One sentence a note quotes: `DOCUMENT#ANCHOR "SENTENCE"`.
#[derive(Debug, PartialEq)]
struct Quote {
    document: String,
    anchor: String,
    sentence: String,
}

/// What a `Decided by:` line says.
#[derive(Debug, PartialEq)]
enum Decision {
    Sentences(Vec<Quote>),
    NotDecided,
    Contradicted,
}

const NOT_DECIDED: &str = "nothing (not decided)";
const CONTRADICTED: &str = "nothing (contradicted)";

/// Reads the text after `Decided by: `: `nothing (not decided)`,
/// `nothing (contradicted)`, or quotes separated by ` + `. A sentence may
/// itself hold quotation marks; it ends at the `"` that ends the line or
/// is followed by ` + ` and the next quote's `DOCUMENT#ANCHOR "`.
fn parse_decision(text: &str) -> Result<Decision, String> {
    match text {
        NOT_DECIDED => return Ok(Decision::NotDecided),
        CONTRADICTED => return Ok(Decision::Contradicted),
        _ => {}
    }
    let mut quotes = Vec::new();
    let mut rest = text;
    loop {
        let (reference, after) = rest
            .split_once(" \"")
            .ok_or_else(|| format!("expected `DOCUMENT#ANCHOR \"SENTENCE\"` at `{rest}`"))?;
        let (document, anchor) = reference
            .split_once('#')
            .ok_or_else(|| format!("`{reference}` names no section (`DOCUMENT#ANCHOR`)"))?;
        let end = after
            .match_indices('"')
            .map(|(i, _)| i)
            .find(|&i| {
                let tail = &after[i + 1..];
                tail.is_empty() || tail.strip_prefix(" + ").is_some_and(starts_a_quote)
            })
            .ok_or_else(|| {
                format!("the sentence after `{reference}` has no closing quotation mark")
            })?;
        quotes.push(Quote {
            document: document.to_string(),
            anchor: anchor.to_string(),
            sentence: after[..end].to_string(),
        });
        match after[end + 1..].strip_prefix(" + ") {
            Some(next) => rest = next,
            None => break,
        }
    }
    Ok(Decision::Sentences(quotes))
}

/// Whether `text` starts with `DOCUMENT#ANCHOR "`.
fn starts_a_quote(text: &str) -> bool {
    text.split_once(" \"").is_some_and(|(reference, _)| {
        reference.split_once('#').is_some_and(|(document, anchor)| {
            !document.is_empty()
                && !anchor.is_empty()
                && anchor
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
    })
}

/// The note's `Decided by:` line, which must come right after its `Cases:`
/// line.
fn decision(text: &str) -> Result<Decision, String> {
    let lines: Vec<&str> = text.lines().collect();
    let cases = lines
        .iter()
        .position(|l| l.starts_with("Cases:"))
        .ok_or("no `Cases:` line")?;
    let line = lines
        .get(cases + 1)
        .and_then(|l| l.strip_prefix("Decided by: "))
        .ok_or("no `Decided by:` line right after the `Cases:` line")?;
    parse_decision(line.trim())
}

/// The cited document: a spec document by its file name (`spec.md`), or a
/// seed by its title (`Terraform Expressions Guide`), never a seed's file
/// name.
fn cited_document(name: &str) -> Option<&'static Document> {
    DOCUMENTS.iter().find(|d| {
        if d.file.ends_with(".md") {
            d.file == name
        } else {
            d.title == name
                || d.title
                    .strip_prefix(name)
                    .is_some_and(|rest| rest.starts_with(" ("))
        }
    })
}

/// White space collapsed, markdown emphasis (`_`, `*`) dropped, so that a
/// sentence wrapped over lines matches its quotation.
fn normalized(text: &str) -> String {
    text.replace(['_', '*'], "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where the documents are read from.
enum Source {
    /// The shared folder (`specs/hcl-v2.14.1/`, `seeds/`).
    Documents(PathBuf),
    /// The statements of `suite/requirements.jsonl`, verbatim from the
    /// documents, by document file name.
    Requirements(BTreeMap<String, Vec<String>>),
}

fn source() -> Source {
    let shared = std::env::var_os("SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared"));
    if shared.join("specs/hcl-v2.14.1/spec.md").is_file() {
        Source::Documents(shared)
    } else {
        source_from_requirements()
    }
}

/// The requirements source, whatever the environment holds.
fn source_from_requirements() -> Source {
    let text = std::fs::read_to_string(root().join("suite/requirements.jsonl")).unwrap();
    let mut statements: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        statements
            .entry(r["doc"].as_str().unwrap().to_string())
            .or_default()
            .push(normalized(r["text"].as_str().unwrap()));
    }
    Source::Requirements(statements)
}

/// The problems with the quotes of the notes: an unknown document or
/// section, or a sentence the document does not hold.
fn quote_problems(
    notes: &BTreeMap<String, String>,
    requirements: &Requirements,
    source: &Source,
) -> Vec<String> {
    let mut texts: BTreeMap<&str, String> = BTreeMap::new();
    let mut problems = Vec::new();
    for (path, text) in notes {
        let Ok(Decision::Sentences(quotes)) = decision(text) else {
            continue;
        };
        for quote in quotes {
            let Some(document) = cited_document(&quote.document) else {
                problems.push(format!(
                    "{path}: `{}` is no cited document (a spec document's file name, or a seed's title: runner/format/src/documents.rs)",
                    quote.document
                ));
                continue;
            };
            if !requirements.knows_section(document.file, &quote.anchor) {
                problems.push(format!(
                    "{path}: `{}#{}` is no section of the document",
                    quote.document, quote.anchor
                ));
            }
            let sentence = normalized(&quote.sentence);
            let found = match source {
                Source::Documents(shared) => {
                    let text = texts.entry(document.file).or_insert_with(|| {
                        let folder = if document.file.ends_with(".md") {
                            "specs/hcl-v2.14.1"
                        } else {
                            "seeds"
                        };
                        let file = shared.join(folder).join(document.file);
                        normalized(
                            &std::fs::read_to_string(&file)
                                .unwrap_or_else(|e| panic!("{}: {e}", file.display())),
                        )
                    });
                    text.contains(&sentence)
                }
                Source::Requirements(statements) => statements
                    .get(document.file)
                    .is_some_and(|all| all.iter().any(|s| s.contains(&sentence))),
            };
            if !found {
                problems.push(format!(
                    "{path}: {} does not hold the sentence \"{}\"",
                    quote.document, quote.sentence
                ));
            }
        }
    }
    problems
}

#[test]
fn every_note_says_which_sentence_decides_it() {
    let notes = gap_notes(&root());
    assert!(notes.len() > 50, "only {} notes found", notes.len());
    let problems: Vec<String> = notes
        .iter()
        .filter_map(|(path, text)| decision(text).err().map(|e| format!("{path}: {e}")))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_quoted_sentence_is_in_the_document_it_cites() {
    let root = root();
    let requirements = Requirements::load(&root.join("suite")).unwrap();
    let source = source();
    if let Source::Requirements(_) = source {
        eprintln!(
            "the documents are not in $SHARED or ../shared: quotes checked against suite/requirements.jsonl"
        );
    }
    let notes = gap_notes(&root);
    let quoted = notes
        .values()
        .filter(|t| matches!(decision(t), Ok(Decision::Sentences(_))))
        .count();
    assert!(quoted > 30, "only {quoted} notes quote a sentence");
    let problems = quote_problems(&notes, &requirements, &source);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A quote with a word changed, a section that does not exist, and a
/// seed named by its file name are all found, from either source.
#[test]
fn quote_check_finds_a_misquotation() {
    let root = root();
    let requirements = Requirements::load(&root.join("suite")).unwrap();
    let planted = "# A note\n\nRequirements: hcl.null-values.001\nCases: \nDecided by: spec.md#null-values \"A null value of a particular type is equal to every value.\" + spec.md#no-such-section \"Each type has a null value.\" + 003_ffa21bbb6e176447.txt#dynamic-blocks \"The nested `content` block defines the body of each generated block.\"\n";
    let notes = BTreeMap::from([(
        "spec-notes/gaps/planted.md".to_string(),
        planted.to_string(),
    )]);
    let mut sources = vec![source_from_requirements()];
    if let source @ Source::Documents(_) = source() {
        sources.push(source);
    }
    for source in &sources {
        let problems = quote_problems(&notes, &requirements, source);
        for expected in [
            "does not hold the sentence \"A null value of a particular type is equal to every value.\"",
            "`spec.md#no-such-section` is no section",
            "`003_ffa21bbb6e176447.txt` is no cited document",
        ] {
            assert!(
                problems.iter().any(|p| p.contains(expected)),
                "`{expected}` not reported: {problems:?}"
            );
        }
    }
}

#[test]
fn the_line_reads_quotes_with_quotation_marks_inside() {
    let line = "json-spec.md#structural-elements \"The special property name `\"//\"`, when used in an object representing a HCL body, is parsed and ignored.\" + spec.md#type-unification \"The dynamic pseudo-type unifies with any other type by selecting that other type.\"";
    let Ok(Decision::Sentences(quotes)) = parse_decision(line) else {
        panic!("not read: {line}");
    };
    assert_eq!(quotes.len(), 2);
    assert_eq!(quotes[0].document, "json-spec.md");
    assert_eq!(quotes[0].anchor, "structural-elements");
    assert!(quotes[0]
        .sentence
        .starts_with("The special property name `\"//\"`"));
    assert!(quotes[0].sentence.ends_with("is parsed and ignored."));
    assert_eq!(quotes[1].anchor, "type-unification");
    assert_eq!(parse_decision(NOT_DECIDED), Ok(Decision::NotDecided));
    assert_eq!(parse_decision(CONTRADICTED), Ok(Decision::Contradicted));
    assert!(parse_decision("nothing").is_err());
    assert!(parse_decision("spec.md \"no section\"").is_err());
    assert!(decision("Cases: a::b\nRequirements: x\nDecided by: nothing (not decided)\n").is_err());
}

/// Whether every result the expectation allows is an error.
fn only_errors(expectation: &Expectation) -> bool {
    match expectation {
        Expectation::Error { .. } => true,
        Expectation::OneOf(options) => options.iter().all(only_errors),
        _ => false,
    }
}

/// The cases whose spec expectation is an error while a profile records a
/// result that is not, and whose note quotes no sentence: each would tell
/// implementers that what a hashicorp/hcl version accepts is a bug,
/// without the spec sentence that decides it.
fn condemnations_without_a_sentence<'a>(
    cases: impl Iterator<Item = &'a Case>,
    notes: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for case in cases.filter(|c| only_errors(&c.expect)) {
        for (profile, recorded) in &case.profiles {
            if only_errors(&recorded.expect) {
                continue;
            }
            let quotes = notes
                .get(&recorded.note)
                .map(|text| decision(text))
                .is_some_and(|d| matches!(d, Ok(Decision::Sentences(_))));
            if !quotes {
                problems.push(format!(
                    "{}: the spec expects an error where `{profile}` records a result, but {} quotes no sentence that decides it (make the case accept hashicorp/hcl's result, or quote the sentence)",
                    case.id, recorded.note
                ));
            }
        }
    }
    problems
}

#[test]
fn no_case_condemns_a_profile_result_without_a_sentence() {
    let root = root();
    let suite =
        hcl_conformance_format::suite::load_suite(&root.join("suite")).expect("the suite loads");
    let notes = gap_notes(&root);
    let condemning = suite
        .cases()
        .filter(|c| only_errors(&c.expect))
        .filter(|c| c.profiles.values().any(|p| !only_errors(&p.expect)))
        .count();
    assert!(
        condemning > 10,
        "only {condemning} cases expect an error where a profile does not"
    );
    let problems = condemnations_without_a_sentence(suite.cases(), &notes);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A note that quotes nothing cannot back a case that makes an error of a
/// profile's result.
#[test]
fn condemnation_check_finds_a_note_without_a_sentence() {
    let root = root();
    let suite =
        hcl_conformance_format::suite::load_suite(&root.join("suite")).expect("the suite loads");
    let mut notes = gap_notes(&root);
    let case = suite
        .cases()
        .find(|c| only_errors(&c.expect) && c.profiles.values().any(|p| !only_errors(&p.expect)))
        .expect("a case that expects an error where a profile does not");
    let note = &case
        .profiles
        .values()
        .find(|p| !only_errors(&p.expect))
        .unwrap()
        .note;
    let text = notes.get_mut(note).expect("the case's note");
    let line = text
        .lines()
        .find(|l| l.starts_with("Decided by:"))
        .expect("a Decided by: line")
        .to_string();
    *text = text.replace(&line, &format!("Decided by: {NOT_DECIDED}"));
    let problems = condemnations_without_a_sentence(suite.cases(), &notes);
    assert!(
        problems.iter().any(|p| p.starts_with(&case.id)),
        "{} is not reported once {note} quotes nothing: {problems:?}",
        case.id
    );
}

/// The notes README gives each note's verdict in its digest and its
/// deciding sentence in a table; both agree with the note's line: a note
/// that quotes a sentence is decided (in part at least), `nothing (not
/// decided)` is not decided, `nothing (contradicted)` contradicted.
#[test]
fn the_readme_agrees_with_every_decided_by_line() {
    let root = root();
    let readme = std::fs::read_to_string(root.join("spec-notes/README.md")).unwrap();
    let digest = readme
        .split("## Digest: the notes and their verdicts")
        .nth(1)
        .expect("the README has the digest");
    let table = readme
        .split("## Which sentence decides each note")
        .nth(1)
        .expect("the README has the table of deciding sentences")
        .split("\n## ")
        .next()
        .unwrap_or("");
    let mut verdicts = BTreeMap::new();
    for line in digest.lines().filter(|l| l.starts_with("- [")) {
        if let Some((link, rest)) = line.split_once("): ") {
            let path = link.split_once("](").map_or("", |(_, p)| p);
            let verdict = ["not decided", "contradicted", "decided"]
                .into_iter()
                .find(|v| rest.starts_with(&format!("{v} —")));
            verdicts.insert(format!("spec-notes/{path}"), verdict);
        }
    }
    let mut rows = BTreeMap::new();
    for line in table.lines().filter(|l| l.starts_with("| [")) {
        // `| [NAME](gaps/NAME.md) | CELL |`
        let Some((link, cell)) = line.trim_start_matches("| ").split_once(" | ") else {
            continue;
        };
        let path = link
            .split_once("](")
            .map_or("", |(_, p)| p.trim_end_matches(')'));
        let cell = cell.strip_suffix(" |").unwrap_or(cell);
        rows.insert(format!("spec-notes/{path}"), Some(cell.to_string()));
    }
    let mut problems = Vec::new();
    for (path, text) in gap_notes(&root) {
        let Ok(decision) = decision(&text) else {
            continue; // every_note_says_which_sentence_decides_it reports it.
        };
        let (expected_verdict, expected_cell) = match &decision {
            Decision::Sentences(_) => ("decided", None),
            Decision::NotDecided => ("not decided", Some("not decided".to_string())),
            Decision::Contradicted => ("contradicted", Some("contradicted".to_string())),
        };
        if verdicts.get(&path).copied().flatten() != Some(expected_verdict) {
            problems.push(format!(
                "{path}: its digest line must say `{expected_verdict} —`, as its Decided by: line does"
            ));
        }
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("Decided by: "))
            .unwrap_or("")
            .trim();
        let expected_cell = expected_cell.unwrap_or_else(|| line.replace('|', "\\|"));
        match rows.get(&path) {
            Some(Some(cell)) if *cell == expected_cell => {}
            _ => problems.push(format!(
                "{path}: its row in the README's table must read `| [NAME](gaps/NAME.md) | {expected_cell} |`"
            )),
        }
    }
    let notes = gap_notes(&root);
    problems.extend(
        rows.keys()
            .filter(|p| !notes.contains_key(*p))
            .map(|p| format!("the README's table names {p}, which does not exist")),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
