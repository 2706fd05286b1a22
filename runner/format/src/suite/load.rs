//! Loading the suite: every `.yaml` file under `suite/`, checked in full.
//!
//! A file that does not load is a suite bug. Every problem is reported with
//! the file, the line and what to do; nothing is skipped silently.
//!
//! A file is read in two passes over its YAML: the fields every case has
//! (and so each case's kind), then each case's input, the fields of its
//! kind as `crate::kinds` declares them. Both read straight from the
//! document, so that serde_yaml gives every error its line.

use super::yaml::{flow_nesting_exceeds, MAX_FLOW_NESTING};
use super::{Case, CaseInput, Expectation, ProfileExpectation, SuiteFile};
use crate::areas::area_of;
use crate::kinds::{Kind, Named, Text};
use crate::profiles::{profile as find_profile, recorded_profiles};
use crate::requirements::Requirements;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// A problem in a case file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = self.line.map(|l| format!(":{l}")).unwrap_or_default();
        write!(f, "{}{line}: {}", self.path.display(), self.message)
    }
}

/// The whole suite, loaded.
#[derive(Clone, Debug)]
pub struct Suite {
    /// The `suite/` folder it was read from; `suite` for the embedded suite.
    pub dir: PathBuf,
    /// Where it was read from.
    pub origin: Origin,
    pub files: Vec<SuiteFile>,
    pub requirements: Requirements,
    /// The other files the runner reads, by their path from the
    /// repository's root (`/`-separated): `suite/finished-areas.txt`, the
    /// version manifests `suite/versions/X.Y.Z.txt`, the notes
    /// `spec-notes/**.md`.
    pub texts: BTreeMap<String, FileText>,
}

/// The text of a file: embedded in the runner, or read.
pub type FileText = std::borrow::Cow<'static, str>;

/// Where a suite is read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A suite folder (`--suite DIR`), its notes in `DIR/../spec-notes`.
    Dir(PathBuf),
    /// The suite embedded in the runner when it was built
    /// (`runner/format/build.rs`).
    Embedded,
}

impl Suite {
    pub fn cases(&self) -> impl Iterator<Item = &Case> {
        self.files.iter().flat_map(|f| f.cases.iter())
    }

    /// A file the suite holds besides its case files, by its path from the
    /// repository's root: `suite/finished-areas.txt`.
    pub fn text(&self, path: &str) -> Option<&str> {
        self.texts.get(path).map(|t| &**t)
    }

    /// Every note, `spec-notes/**.md`, by its path.
    pub fn notes(&self) -> impl Iterator<Item = (&str, &str)> {
        self.texts
            .iter()
            .filter(|(p, _)| p.starts_with("spec-notes/"))
            .map(|(p, t)| (p.as_str(), &**t))
    }
}

/// The `suite/` folder of the repository the runner was built from (which
/// an installed runner need not find any more: it runs the embedded suite,
/// [`load_embedded`]). For tests and tools that read the suite's files.
pub fn find_suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../suite")
}

/// Loads the suite embedded in the runner (`runner/format/build.rs`), reporting
/// every problem found (none, since the runner's tests load the same files).
pub fn load_embedded() -> Result<Suite, Vec<LoadError>> {
    let texts = super::embedded::FILES
        .iter()
        .map(|(path, text)| (path.to_string(), FileText::Borrowed(text)));
    load_texts(Origin::Embedded, Path::new("suite"), texts.collect())
}

/// Loads every case file under `dir`, reporting every problem found.
///
/// The suite is read from plain files and folders: a symbolic link below
/// `dir` is an error, not followed, since a case's id is its file's path
/// (a linked file would give its cases a second id, or bring in a file from
/// outside the suite). The notes are read from `dir/../spec-notes`.
pub fn load_suite(dir: &Path) -> Result<Suite, Vec<LoadError>> {
    let error = |path: &Path, message: &str| LoadError {
        path: path.into(),
        line: None,
        message: message.into(),
    };
    if !dir.join("requirements.jsonl").is_file() {
        let what = match dir.is_dir() {
            true => "this folder has no requirements.jsonl, so it is not the suite folder",
            false => "there is no folder here",
        };
        let what = format!(
            "{what}; give the suite folder's path with --suite DIR, or leave --suite out to run the suite built into the runner"
        );
        return Err(vec![error(dir, &what)]);
    }
    let (mut texts, mut errors) = (BTreeMap::new(), Vec::new());
    let notes = dir.join("../spec-notes");
    for (folder, name) in [(dir, "suite"), (notes.as_path(), "spec-notes")] {
        if name == "spec-notes" && !folder.is_dir() {
            continue;
        }
        for entry in walkdir::WalkDir::new(folder).sort_by_file_name() {
            let entry = match entry {
                Ok(entry) if entry.path_is_symlink() && entry.depth() > 0 => {
                    if name == "suite" {
                        errors.push(error(
                            entry.path(),
                            "a symbolic link; the suite is read from plain files and folders only: \
                             replace the link with what it points to",
                        ));
                    }
                    continue;
                }
                Ok(entry) if entry.file_type().is_dir() => continue,
                Ok(entry) => entry,
                Err(e) => {
                    errors.push(error(
                        e.path().unwrap_or(folder),
                        &format!("cannot read: {e}"),
                    ));
                    continue;
                }
            };
            let path = entry.path();
            let extension = path.extension().and_then(|x| x.to_str()).unwrap_or("");
            let wanted = match name {
                "suite" => ["yaml", "yml", "jsonl", "txt", "md"].contains(&extension),
                _ => extension == "md",
            };
            if !wanted {
                continue;
            }
            // The entry's type is the link's own (lstat): a named pipe,
            // socket or device is never opened, since opening a pipe waits
            // for a writer that may never come.
            if !entry.file_type().is_file() {
                errors.push(error(
                    path,
                    "not a regular file (a named pipe, socket or device); the suite is read \
                     from plain files only: replace it with a file, or remove it",
                ));
                continue;
            }
            let relative = path.strip_prefix(folder).unwrap_or(path);
            let parts: Vec<_> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect();
            match std::fs::read(path) {
                Ok(bytes) => match decode_text(path, bytes) {
                    Ok(text) => {
                        let key = format!("{name}/{}", parts.join("/"));
                        texts.insert(key, FileText::Owned(text));
                    }
                    Err(e) => errors.push(e),
                },
                Err(e) => errors.push(error(path, &format!("cannot read the file: {e}"))),
            }
        }
    }
    match load_texts(Origin::Dir(dir.to_path_buf()), dir, texts) {
        Ok(suite) if errors.is_empty() => Ok(suite),
        Ok(_) => Err(errors),
        Err(mut more) => {
            errors.append(&mut more);
            Err(errors)
        }
    }
}

/// A text file's bytes as text, or the problem with them at its line and
/// byte: the suite's files, known-failure lists and the runner's other
/// inputs are UTF-8, with lines ending in LF or CRLF. A byte that is not
/// UTF-8 is an error, not replaced, and so is a carriage return alone
/// (the line ending of old Mac files), which line-by-line readers would
/// take for part of one long line; a byte order mark at the start is
/// dropped.
pub fn decode_text(path: &Path, bytes: Vec<u8>) -> Result<String, LoadError> {
    let at = |bytes: &[u8], offset: usize, message: String| LoadError {
        path: path.into(),
        line: Some(bytes[..offset].iter().filter(|&&b| b == b'\n').count() + 1),
        message,
    };
    let mut text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            let bytes = e.as_bytes();
            let byte = bytes.get(offset).copied().unwrap_or(0);
            return Err(at(
                bytes,
                offset,
                format!(
                    "the byte at offset {offset} (0x{byte:02X}) is not UTF-8; the file must be \
                     UTF-8 text: re-save it as UTF-8 (iconv -f latin1 -t utf-8 converts Latin-1)"
                ),
            ));
        }
    };
    let lone_cr = text
        .bytes()
        .enumerate()
        .find(|&(i, b)| b == b'\r' && text.as_bytes().get(i + 1) != Some(&b'\n'));
    if let Some((offset, _)) = lone_cr {
        return Err(at(
            text.as_bytes(),
            offset,
            format!(
                "the byte at offset {offset} is a carriage return without a line feed after \
                 it; lines end in LF or CRLF, not CR alone: convert the line endings \
                 (tr '\\r' '\\n')"
            ),
        ));
    }
    if text.starts_with('\u{feff}') {
        text.remove(0);
    }
    Ok(text)
}

/// Loads a suite from its files' texts, by path from the repository's root
/// (`suite/...`, `spec-notes/...`); `dir` names the suite folder in
/// messages.
fn load_texts(
    origin: Origin,
    dir: &Path,
    mut texts: BTreeMap<String, FileText>,
) -> Result<Suite, Vec<LoadError>> {
    let error = |path: &Path, message: &str| LoadError {
        path: path.into(),
        line: None,
        message: message.into(),
    };
    let at = |path: &str| dir.join(path.strip_prefix("suite/").unwrap_or(path));
    let requirements = Requirements::parse(
        texts.get("suite/requirements.jsonl").map_or("", |t| t),
        texts
            .get("suite/requirements-overrides.jsonl")
            .map_or("", |t| t),
        dir,
    )
    .map_err(|e| vec![error(&dir.join("requirements.jsonl"), &e)])?;
    let case_files: Vec<String> = texts
        .keys()
        .filter(|p| p.starts_with("suite/") && (p.ends_with(".yaml") || p.ends_with(".yml")))
        .cloned()
        .collect();
    let (mut files, mut errors) = (Vec::new(), Vec::new());
    for path in case_files {
        let text = texts.remove(&path).unwrap_or_default();
        if path.ends_with(".yml") {
            errors.push(error(
                &at(&path),
                "case files end in .yaml; rename this file",
            ));
            continue;
        }
        let note_exists = |note: &str| texts.contains_key(note);
        match parse_file(&text, &at(&path), dir, &requirements, &note_exists) {
            Ok(file) => files.push(file),
            Err(mut file_errors) => errors.append(&mut file_errors),
        }
    }
    match errors.is_empty() {
        true => Ok(Suite {
            dir: dir.to_path_buf(),
            origin,
            files,
            requirements,
            texts,
        }),
        false => Err(errors),
    }
}

/// A file's header, and the fields every case has.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileFields {
    spec: OneOrMany,
    summary: Text,
    kind: Option<Named<Kind>>,
    cases: Vec<CaseFields>,
}

/// The fields every case has; its other fields are its kind's.
#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
struct CaseFields {
    name: Text,
    description: Option<Text>,
    covers: Vec<Text>,
    kind: Option<Named<Kind>>,
    expect: Expectation,
    implementation_defined: Option<Text>,
    #[serde(default)]
    profiles: BTreeMap<Text, ProfileExpectation>,
}

/// The names of the fields of [`CaseFields`], which the second pass
/// passes over.
const CASE_FIELDS: &[&str] = &[
    "name",
    "description",
    "covers",
    "kind",
    "expect",
    "implementation-defined",
    "profiles",
];

/// One string or a list of them.
struct OneOrMany(Vec<Text>);

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct OneOrManyVisitor;
        impl<'de> Visitor<'de> for OneOrManyVisitor {
            type Value = OneOrMany;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or a list of strings")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<OneOrMany, E> {
                Ok(OneOrMany(vec![text.into()]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, items: A) -> Result<OneOrMany, A::Error> {
                Vec::deserialize(de::value::SeqAccessDeserializer::new(items)).map(OneOrMany)
            }
        }
        d.deserialize_any(OneOrManyVisitor)
    }
}

/// The second pass: reads the file's `cases` as inputs of the kinds given,
/// in order, each from its case's fields but [`CASE_FIELDS`].
#[derive(Clone, Copy)]
enum Inputs<'a> {
    File(&'a [Kind]),
    Cases(&'a [Kind]),
    Case(Kind),
}

impl<'de> DeserializeSeed<'de> for Inputs<'_> {
    type Value = Vec<CaseInput>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Inputs<'_> {
    type Value = Vec<CaseInput>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a case file")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let kinds = match self {
            Inputs::Case(kind) => {
                let fields = de::value::MapAccessDeserializer::new(KindFields(map));
                return CaseInput::read(kind, fields).map(|input| vec![input]);
            }
            Inputs::File(kinds) | Inputs::Cases(kinds) => kinds,
        };
        let mut inputs = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "cases" => inputs = map.next_value_seed(Inputs::Cases(kinds))?,
                _ => drop(map.next_value::<IgnoredAny>()?),
            }
        }
        Ok(inputs)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut cases: A) -> Result<Self::Value, A::Error> {
        let kinds = match self {
            Inputs::Cases(kinds) | Inputs::File(kinds) => kinds,
            Inputs::Case(_) => &[],
        };
        let mut inputs = Vec::new();
        for kind in kinds {
            inputs.extend(
                cases
                    .next_element_seed(Inputs::Case(*kind))?
                    .into_iter()
                    .flatten(),
            );
        }
        Ok(inputs)
    }
}

/// A case's mapping without [`CASE_FIELDS`].
struct KindFields<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for KindFields<A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        while let Some(key) = self.0.next_key::<String>()? {
            if !CASE_FIELDS.contains(&key.as_str()) {
                return seed
                    .deserialize(de::value::StringDeserializer::new(key))
                    .map(Some);
            }
            self.0.next_value::<IgnoredAny>()?;
        }
        Ok(None)
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.0.next_value_seed(seed)
    }
}

/// Loads and checks one case file.
pub fn load_file(
    path: &Path,
    suite_dir: &Path,
    requirements: &Requirements,
) -> Result<SuiteFile, Vec<LoadError>> {
    let error = |line: Option<usize>, message: String| LoadError {
        path: path.into(),
        line,
        message,
    };
    let bytes =
        std::fs::read(path).map_err(|e| vec![error(None, format!("cannot read the file: {e}"))])?;
    let text = decode_text(path, bytes).map_err(|e| vec![e])?;
    let repo_root = suite_dir.parent().unwrap_or(suite_dir);
    let note_exists = |note: &str| repo_root.join(note).is_file();
    parse_file(&text, path, suite_dir, requirements, &note_exists)
}

/// Reads and checks one case file's text; `path` is the file's, for its
/// id and for messages, and `note_exists` says whether a note (a path from
/// the repository's root, `spec-notes/gaps/x.md`) exists.
fn parse_file(
    text: &str,
    path: &Path,
    suite_dir: &Path,
    requirements: &Requirements,
    note_exists: &dyn Fn(&str) -> bool,
) -> Result<SuiteFile, Vec<LoadError>> {
    let error = |line: Option<usize>, message: String| LoadError {
        path: path.into(),
        line,
        message,
    };
    let too_deep = format!(
        "the YAML nests more than {MAX_FLOW_NESTING} levels deep here; a case file needs a few \
         levels: write deeply nested input as source text, in a block scalar (`|`)"
    );
    // Checked before parsing, whose time grows with the square of the
    // depth of `[` and `{`.
    if let Some(line) = flow_nesting_exceeds(text, MAX_FLOW_NESTING) {
        return Err(vec![error(Some(line), too_deep)]);
    }
    let yaml_error = |e: serde_norway::Error| {
        let line = e.location().map(|l| l.line());
        // serde_yaml writes " at line L column C" after the problem: the
        // line is ours to show (a context, "while parsing...", keeps its).
        let message = e.to_string();
        let (problem, rest) = message.split_once(" at line ").unwrap_or((&message, ""));
        let context = rest.split_once(", ").map_or("", |(_, context)| context);
        let message = if context.is_empty() {
            problem.to_string()
        } else {
            format!("{problem}, {context}")
        };
        match message.contains("recursion limit exceeded") {
            true => vec![error(line, too_deep.clone())],
            false => vec![error(line, message)],
        }
    };
    let file: FileFields = serde_norway::from_str(text).map_err(yaml_error)?;
    let mut errors = Vec::new();
    for citation in &file.spec.0 {
        let split = citation.split_once('#');
        if !split.is_some_and(|(doc, anchor)| requirements.knows_section(doc, anchor)) {
            errors.push(error(Some(1), format!(
                "`spec: {citation}` is not a known section; cite DOCUMENT#ANCHOR as in requirements.jsonl, e.g. spec.md#type-unification"
            )));
        }
    }
    if file.summary.trim().is_empty() {
        errors.push(error(Some(1), "the `summary` is empty".into()));
    }
    if file.cases.is_empty() {
        errors.push(error(None, "the file has no cases".into()));
    }
    let lines: Vec<Option<usize>> = file
        .cases
        .iter()
        .map(|c| line_of_case(text, &c.name))
        .collect();
    let mut kinds = Vec::new();
    for (case, line) in file.cases.iter().zip(&lines) {
        match case.kind.or(file.kind) {
            Some(kind) => kinds.push(kind.0),
            None => errors.push(error(
                *line,
                format!(
                    "case `{}` has no `kind`, and the file gives no default `kind`",
                    case.name
                ),
            )),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let inputs = Inputs::File(&kinds).deserialize(serde_norway::Deserializer::from_str(text));
    let id = file_id(path, suite_dir);
    let area = area_of(file.spec.0.first().map_or("", |c| &c.0));
    let mut names = BTreeSet::new();
    let mut cases = Vec::new();
    for ((fields, input), line) in file
        .cases
        .into_iter()
        .zip(inputs.map_err(yaml_error)?)
        .zip(lines)
    {
        if !names.insert(fields.name.clone()) {
            errors.push(error(
                line,
                format!("the case name `{}` is used twice in this file", fields.name),
            ));
        }
        match check_case(&fields, &input, requirements, note_exists) {
            Err(problems) => errors.extend(problems.into_iter().map(|m| error(line, m))),
            Ok(()) => cases.push(Case {
                id: format!("{id}::{}", fields.name),
                name: fields.name.0,
                description: fields.description.map(|d| d.0),
                covers: fields.covers.into_iter().map(|t| t.0).collect(),
                input,
                expect: fields.expect,
                implementation_defined: fields.implementation_defined.map(|d| d.0),
                profiles: fields.profiles.into_iter().map(|(k, p)| (k.0, p)).collect(),
                area,
                line: line.unwrap_or(0),
            }),
        }
    }
    let spec = file.spec.0.into_iter().map(|t| t.0).collect();
    match errors.is_empty() {
        true => Ok(SuiteFile {
            id,
            path: path.to_path_buf(),
            spec,
            summary: file.summary.0,
            cases,
        }),
        false => Err(errors),
    }
}

/// The file's id: its path below the suite folder, without `.yaml`.
fn file_id(path: &Path, suite_dir: &Path) -> String {
    let relative = path
        .strip_prefix(suite_dir)
        .unwrap_or(path)
        .with_extension("");
    let parts: Vec<_> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    parts.join("/")
}

/// The line where the case named `name` starts, found in the file's text.
fn line_of_case(text: &str, name: &str) -> Option<usize> {
    let named = |line: &str| {
        let line = line.trim_start().trim_start_matches('-').trim_start();
        line.strip_prefix("name:")
            .is_some_and(|rest| rest.trim().trim_matches(['"', '\'']) == name)
    };
    text.lines().position(named).map(|i| i + 1)
}

/// Checks what the case format cannot say; the problems all at once.
fn check_case(
    case: &CaseFields,
    input: &CaseInput,
    requirements: &Requirements,
    note_exists: &dyn Fn(&str) -> bool,
) -> Result<(), Vec<String>> {
    let name = &case.name;
    let mut problems = Vec::new();
    let kebab = name.split('-').all(|part| {
        !part.is_empty()
            && part
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    });
    if !kebab {
        problems.push(format!(
            "case name `{name}` is not kebab-case (a-z, 0-9 and single dashes)"
        ));
    }
    if case.covers.is_empty() {
        problems.push(format!(
            "case `{name}` covers no requirement; list the ids it checks in `covers`"
        ));
    }
    for id in &case.covers {
        match requirements.get(id) {
            None => problems.push(format!("case `{name}` covers `{id}`, which is not in requirements.jsonl")),
            Some(r) if !r.testable => problems.push(format!(
                "case `{name}` covers `{id}`, which is marked not testable; remove it, or correct it in requirements-overrides.jsonl"
            )),
            Some(_) => {}
        }
    }
    if let Err(problem) = input.check() {
        problems.push(format!("case `{name}`: {problem}"));
    }
    let open = case.expect.is_open() || case.profiles.values().any(|p| p.expect.is_open());
    match (&case.implementation_defined, open) {
        (None, true) => problems.push(format!(
            "case `{name}` accepts several results (one-of, order: any or !approx): say why in `implementation-defined`"
        )),
        (Some(_), false) => {
            problems.push(format!("case `{name}` is marked implementation-defined but accepts one result only"))
        }
        _ => {}
    }
    for (profile, expectation) in &case.profiles {
        if find_profile(profile).is_none() || &**profile == super::SPEC_PROFILE {
            let known = recorded_profiles().collect::<Vec<_>>().join(", ");
            problems.push(format!(
                "case `{name}`: unknown profile `{profile}`; the profiles are {known}"
            ));
        }
        if !note_exists(&expectation.note) {
            let note = &expectation.note;
            problems.push(format!(
                "case `{name}`: the note `{note}` of profile `{profile}` does not exist"
            ));
        }
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems),
    }
}
