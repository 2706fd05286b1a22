//! One case file read and checked (`suite/README.md` § A file, § Errors in
//! case files).
//!
//! A file is read in one pass over its YAML, straight from the document,
//! so that serde_norway gives every error its line: the header's fields,
//! then each case's fields in the order they are written. The fields every
//! case has are read as they come; at the first field of the case's kind
//! (its own `kind`, or the file's default `kind` written before `cases`),
//! the rest of the case is read as that kind's declaration in
//! `crate::kinds`, serde derive reading it field by field. A case whose
//! kind is not known yet at that point (its `kind` written after its kind's
//! fields, or the file's default after `cases`) keeps those fields as YAML,
//! read as its kind once the file is read: errors in them name the case's
//! line rather than the field's.
//!
//! Before the YAML is parsed, the text's nesting is checked once
//! ([`nesting_exceeds`], `super::nesting`): libyaml takes time in the
//! square of the depth of flow collections, and the limit is serde_norway's
//! own, so a file too deep is refused with its line and what to do.

use super::nesting::{nesting_exceeds, MAX_NESTING};
use super::{Case, CaseInput, Expectation, LoadError, ProfileExpectation, SuiteFile};
use crate::areas::area_of;
use crate::kinds::{Keyword, Kind, Named, Text};
use crate::profiles::{profile as find_profile, recorded_profiles};
use crate::requirements::Requirements;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_norway::{Mapping, Value as Yaml};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::Path;

/// Reads and checks one case file's text; `path` is the file's, for its
/// id and for messages, and `note_exists` says whether a note (a path from
/// the repository's root, `spec-notes/gaps/x.md`) exists.
pub(super) fn parse_file(
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
    if let Some(line) = nesting_exceeds(text, MAX_NESTING) {
        let too_deep = format!(
            "the YAML nests more than {MAX_NESTING} levels deep here; a case file needs a few \
             levels: write deeply nested input as source text, in a block scalar (`|`)"
        );
        return Err(vec![error(Some(line), too_deep)]);
    }
    let file: FileFields = serde_norway::from_str(text).map_err(|e| {
        let (line, message) = yaml_error(text, e);
        vec![error(line, message)]
    })?;
    let lines = case_lines(text);
    let line_of = |case: &CaseFields| lines.get(case.name.0.as_str()).copied();
    // The header's problems, and the cases without a kind, all at once.
    let mut errors: Vec<LoadError> = check_header(&file, requirements)
        .into_iter()
        .map(|(line, m)| error(line, m))
        .collect();
    for case in file.cases.iter().filter(|c| c.kind(file.kind).is_none()) {
        let name = &case.name;
        let why = format!("case `{name}` has no `kind`, and the file gives no default `kind`");
        errors.push(error(line_of(case), why));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let id = file_id(path, suite_dir);
    let area = area_of(file.spec.0.first().map_or("", |c| &c.0));
    let (mut names, mut cases) = (BTreeSet::new(), Vec::new());
    for (index, mut fields) in file.cases.into_iter().enumerate() {
        let line = line_of(&fields);
        if !names.insert(fields.name.clone()) {
            let twice = format!("the case name `{}` is used twice in this file", fields.name);
            errors.push(error(line, twice));
        }
        let input = match fields.input(index, file.kind) {
            Ok(input) => input,
            Err(why) => return Err(vec![error(line, why)]),
        };
        match check_case(&fields, &input, requirements, note_exists) {
            Err(problems) => errors.extend(problems.into_iter().map(|m| error(line, m))),
            Ok(()) => cases.push(fields.into_case(&id, input, area, line.unwrap_or(0))),
        }
    }
    match errors.is_empty() {
        true => Ok(SuiteFile {
            id,
            path: path.to_path_buf(),
            spec: file.spec.0.into_iter().map(|t| t.0).collect(),
            summary: file.summary.0,
            cases,
        }),
        false => Err(errors),
    }
}

/// A YAML error's line and message. The message is the error's own, less
/// the place (`at line L column C`) it repeats, since the line leads the
/// message. Where the text is not well-formed YAML, that is the error
/// shown: the document is read as far as it is well-formed, so an error in
/// what it holds can come first (a flow sequence not closed reads on into
/// the next line), and reading the text again, with nothing to check but
/// the YAML, finds the real problem.
fn yaml_error(text: &str, e: serde_norway::Error) -> (Option<usize>, String) {
    let e = serde_norway::from_str::<de::IgnoredAny>(text)
        .err()
        .unwrap_or(e);
    let Some(at) = e.location() else {
        return (None, e.to_string());
    };
    let place = format!(" at line {} column {}", at.line(), at.column());
    (Some(at.line()), e.to_string().replacen(&place, "", 1))
}

/// The header's problems, with their lines: a citation that is not a
/// known section, an empty summary, no cases.
fn check_header(file: &FileFields, requirements: &Requirements) -> Vec<(Option<usize>, String)> {
    let mut problems = Vec::new();
    for citation in &file.spec.0 {
        let split = citation.split_once('#');
        if !split.is_some_and(|(doc, anchor)| requirements.knows_section(doc, anchor)) {
            problems.push((Some(1), format!(
                "`spec: {citation}` is not a known section; cite DOCUMENT#ANCHOR as in requirements.jsonl, e.g. spec.md#type-unification"
            )));
        }
    }
    if file.summary.trim().is_empty() {
        problems.push((Some(1), "the `summary` is empty".into()));
    }
    if file.cases.is_empty() {
        problems.push((None, "the file has no cases".into()));
    }
    problems
}

/// A file's header, and its cases.
struct FileFields {
    spec: OneOrMany,
    summary: Text,
    kind: Option<Kind>,
    cases: Vec<CaseFields>,
}

/// The header's fields, read as keys, so that an unknown one is an error
/// at its line.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "lowercase")]
enum FileField {
    Spec,
    Summary,
    Kind,
    Cases,
}

/// A case: the fields every case has, and its input.
struct CaseFields {
    name: Text,
    description: Option<Text>,
    covers: Vec<Text>,
    kind: Option<Kind>,
    expect: Expectation,
    implementation_defined: Option<Text>,
    profiles: BTreeMap<Text, ProfileExpectation>,
    input: Input,
}

/// A case's input: read as its kind, or kept until its kind is known.
enum Input {
    Read(CaseInput),
    Later(Mapping),
}

impl CaseFields {
    /// The case's kind: its own, or the file's default.
    fn kind(&self, default: Option<Kind>) -> Option<Kind> {
        self.kind.or(default)
    }

    /// The case's input, read now if it was kept until its kind was known
    /// (`index`: the case's place in the file, for messages).
    fn input(&mut self, index: usize, default: Option<Kind>) -> Result<CaseInput, String> {
        let kind = self.kind(default);
        let input = std::mem::replace(&mut self.input, Input::Later(Mapping::new()));
        match (input, kind) {
            (Input::Read(input), _) => Ok(input),
            (Input::Later(fields), Some(kind)) => {
                let mut track = serde_path_to_error::Track::new();
                let fields =
                    serde_path_to_error::Deserializer::new(Yaml::Mapping(fields), &mut track);
                CaseInput::read(kind, fields).map_err(|e| match track.path().to_string() {
                    path if path == "." => format!("cases[{index}]: {e}"),
                    path => format!("cases[{index}].{path}: {e}"),
                })
            }
            (Input::Later(_), None) => Err(format!("case `{}` has no `kind`", self.name)),
        }
    }

    fn into_case(self, file_id: &str, input: CaseInput, area: &'static str, line: usize) -> Case {
        Case {
            id: format!("{file_id}::{}", self.name),
            name: self.name.0,
            description: self.description.map(|d| d.0),
            covers: self.covers.into_iter().map(|t| t.0).collect(),
            input,
            expect: self.expect,
            implementation_defined: self.implementation_defined.map(|d| d.0),
            profiles: self.profiles.into_iter().map(|(k, p)| (k.0, p)).collect(),
            area,
            line,
        }
    }
}

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

/// Reads the value of a field into `slot`; a field given twice is an error.
fn once<'de, T: Deserialize<'de>, A: MapAccess<'de>>(
    slot: &mut Option<T>,
    field: &'static str,
    map: &mut A,
) -> Result<(), A::Error> {
    if slot.is_some() {
        return Err(de::Error::duplicate_field(field));
    }
    *slot = Some(map.next_value()?);
    Ok(())
}

/// The value of a field the format requires.
fn required<T, E: de::Error>(slot: Option<T>, field: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(field))
}

impl<'de> Deserialize<'de> for FileFields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(FileVisitor)
    }
}

/// Reads a file's mapping: the header's fields, and the cases with the
/// default kind given before them.
struct FileVisitor;

impl<'de> Visitor<'de> for FileVisitor {
    type Value = FileFields;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a case file: a mapping of `spec`, `summary`, `kind` and `cases`")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FileFields, A::Error> {
        let (mut spec, mut summary, mut kind, mut cases) = (None, None, None, None);
        while let Some(key) = map.next_key()? {
            match key {
                FileField::Spec => once(&mut spec, "spec", &mut map)?,
                FileField::Summary => once(&mut summary, "summary", &mut map)?,
                FileField::Kind => once::<Option<Named<Kind>>, _>(&mut kind, "kind", &mut map)?,
                FileField::Cases if cases.is_some() => {
                    return Err(de::Error::duplicate_field("cases"))
                }
                FileField::Cases => {
                    let default = kind.flatten().map(|k| k.0);
                    cases = Some(map.next_value_seed(Cases { default })?);
                }
            }
        }
        Ok(FileFields {
            spec: required(spec, "spec")?,
            summary: required(summary, "summary")?,
            kind: kind.flatten().map(|k| k.0),
            cases: required(cases, "cases")?,
        })
    }
}

/// Reads the `cases` list, each case with the file's default kind, if it
/// was given before the list.
struct Cases {
    default: Option<Kind>,
}

impl<'de> DeserializeSeed<'de> for Cases {
    type Value = Vec<CaseFields>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Cases {
    type Value = Vec<CaseFields>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut cases = Vec::new();
        while let Some(case) = items.next_element_seed(CaseVisitor(self.default))? {
            cases.push(case);
        }
        Ok(cases)
    }
}

/// Reads one case's mapping, with the file's default kind if known.
#[derive(Clone, Copy)]
struct CaseVisitor(Option<Kind>);

impl<'de> DeserializeSeed<'de> for CaseVisitor {
    type Value = CaseFields;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<CaseFields, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for CaseVisitor {
    type Value = CaseFields;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a case: a mapping of its fields")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CaseFields, A::Error> {
        let mut common = Common::default();
        // The fields every case has, up to the first of its kind's.
        let first = loop {
            match map.next_key::<String>()? {
                Some(key) if common.read(&key, &mut map)? => continue,
                first => break first,
            }
        };
        let reading = common.kind().or(self.0);
        let rest = de::value::MapAccessDeserializer::new(KindFields {
            ended: first.is_none(),
            first,
            map: &mut map,
            common: &mut common,
            reading,
        });
        let input = match reading {
            Some(kind) => Input::Read(CaseInput::read(kind, rest)?),
            None => Input::Later(Mapping::deserialize(rest)?),
        };
        common.finish(input)
    }
}

/// The fields every case has, as they are read.
#[derive(Default)]
struct Common {
    name: Option<Text>,
    description: Option<Option<Text>>,
    covers: Option<Vec<Text>>,
    kind: Option<Option<Named<Kind>>>,
    expect: Option<Expectation>,
    implementation_defined: Option<Option<Text>>,
    profiles: Option<BTreeMap<Text, ProfileExpectation>>,
}

impl Common {
    /// Reads the value of `key` when it is a field every case has; `false`
    /// when it is not (a field of the case's kind).
    fn read<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        match key {
            "name" => once(&mut self.name, "name", map)?,
            "description" => once(&mut self.description, "description", map)?,
            "covers" => once(&mut self.covers, "covers", map)?,
            "kind" => once(&mut self.kind, "kind", map)?,
            "expect" => once(&mut self.expect, "expect", map)?,
            "implementation-defined" => once(
                &mut self.implementation_defined,
                "implementation-defined",
                map,
            )?,
            "profiles" => once(&mut self.profiles, "profiles", map)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The case's own kind, if read.
    fn kind(&self) -> Option<Kind> {
        self.kind.flatten().map(|k| k.0)
    }

    fn finish<E: de::Error>(self, input: Input) -> Result<CaseFields, E> {
        Ok(CaseFields {
            name: required(self.name, "name")?,
            description: self.description.flatten(),
            covers: required(self.covers, "covers")?,
            kind: self.kind.flatten().map(|k| k.0),
            expect: required(self.expect, "expect")?,
            implementation_defined: self.implementation_defined.flatten(),
            profiles: self.profiles.unwrap_or_default(),
            input,
        })
    }
}

/// The rest of a case's mapping as the fields of its kind, from `first`
/// on: the fields every case has that come after it are read into
/// `common` on the way.
struct KindFields<'a, A> {
    first: Option<String>,
    ended: bool,
    map: &'a mut A,
    common: &'a mut Common,
    /// The kind the fields are read as, if known.
    reading: Option<Kind>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for KindFields<'_, A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if let Some(key) = self.first.take() {
            return seed
                .deserialize(de::value::StringDeserializer::new(key))
                .map(Some);
        }
        while !self.ended {
            let Some(key) = self.map.next_key::<String>()? else {
                self.ended = true;
                break;
            };
            if !self.common.read(&key, self.map)? {
                return seed
                    .deserialize(de::value::StringDeserializer::new(key))
                    .map(Some);
            }
            // The case's own kind, come too late: its fields were read as
            // the file's default kind.
            if let (Some(own), Some(reading)) = (self.common.kind(), self.reading) {
                if key == "kind" && own != reading {
                    return Err(de::Error::custom(format!(
                        "the case's `kind` comes after fields of another kind (`{}`, the \
                         file's default): write `kind` before the fields of the case's kind",
                        reading.name()
                    )));
                }
            }
        }
        Ok(None)
    }
    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        self.map.next_value_seed(seed)
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

/// The line where each case starts, by its name, found in one scan of the
/// file's text: the first line that writes `name: NAME`.
fn case_lines(text: &str) -> HashMap<&str, usize> {
    let mut lines = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_start().trim_start_matches('-').trim_start();
        if let Some(rest) = line.strip_prefix("name:") {
            lines
                .entry(rest.trim().trim_matches(['"', '\'']))
                .or_insert(i + 1);
        }
    }
    lines
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
    check_covers(case, requirements, &mut problems);
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
    check_profiles(case, note_exists, &mut problems);
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems),
    }
}

/// The requirements a case covers are known and testable, and there is one.
fn check_covers(case: &CaseFields, requirements: &Requirements, problems: &mut Vec<String>) {
    let name = &case.name;
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
}

/// The profiles a case records results for are known, and so are their
/// notes.
fn check_profiles(
    case: &CaseFields,
    note_exists: &dyn Fn(&str) -> bool,
    problems: &mut Vec<String>,
) {
    let name = &case.name;
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::Input;

    const HEADER: &str = "spec: spec.md#type-unification\nsummary: a test file\n";

    /// A case that unifies `types`, with `before` and `after` around them.
    fn case(before: &str, types: &str, after: &str) -> String {
        format!(
            "  - name: c\n{before}    covers: [hcl.type-unification.007]\n    types: {types}\n{after}    expect: {{ type: string }}\n"
        )
    }

    fn parse(text: &str) -> Result<SuiteFile, Vec<LoadError>> {
        let dir = super::super::find_suite_dir();
        let requirements = Requirements::load(&dir).expect("the requirements load");
        parse_file(text, &dir.join("t.yaml"), &dir, &requirements, &|_| true)
    }

    /// Checks that `text` does not load, its first error at `line` and
    /// saying `what`.
    fn expect_error(text: &str, line: usize, what: &str) {
        let errors = parse(text).expect_err("the file must not load");
        assert_eq!(errors[0].line, Some(line), "{}", errors[0]);
        assert!(errors[0].message.contains(what), "{}", errors[0]);
    }

    fn kind_of(text: &str) -> Kind {
        let file = parse(text).unwrap_or_else(|e| panic!("{e:?}"));
        file.cases[0].input.kind()
    }

    #[test]
    fn a_kind_written_after_its_fields_is_still_the_cases() {
        let late = case("", "[number, string]", "    kind: unify\n");
        assert_eq!(kind_of(&format!("{HEADER}cases:\n{late}")), Kind::Unify);
        let identical = case("    kind: identical\n", "[number, string]", "");
        let text = format!("{HEADER}kind: unify\ncases:\n{identical}");
        assert_eq!(kind_of(&text), Kind::Identical);
        // `kind: null` after the fields is no kind: the default stands.
        let null = case("", "[number, string]", "    kind: null\n");
        let text = format!("{HEADER}kind: unify\ncases:\n{null}");
        assert_eq!(kind_of(&text), Kind::Unify);
    }

    #[test]
    fn a_default_kind_after_the_cases_is_the_default() {
        let text = format!("{HEADER}cases:\n{}kind: unify\n", case("", "[number]", ""));
        let file = parse(&text).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(matches!(&file.cases[0].input, Input::Unify(u) if u.types.len() == 1));
    }

    #[test]
    fn errors_in_fields_read_later_name_the_case_and_the_field() {
        let text = format!(
            "{HEADER}cases:\n{}kind: unify\n",
            case("", "[number, 5]", "")
        );
        expect_error(&text, 4, "cases[0].types[1]: invalid type: integer `5`");
    }

    #[test]
    fn a_kind_after_fields_of_the_default_kind_is_refused() {
        let identical = case("", "[number, string]", "    kind: identical\n");
        let text = format!("{HEADER}kind: unify\ncases:\n{identical}");
        expect_error(&text, 5, "write `kind` before the fields");
    }

    #[test]
    fn a_syntax_error_is_shown_before_what_it_breaks() {
        let text = format!(
            "{HEADER}kind: unify\ncases:\n{}",
            case("", "[number, string", "")
        );
        expect_error(
            &text,
            8,
            "did not find expected ',' or ']', while parsing a flow sequence at line 7 column 12",
        );
    }

    #[test]
    fn unknown_header_fields_are_refused_at_their_line() {
        let text = format!(
            "{HEADER}kind: unify\ncases:\n{}colour: red\n",
            case("", "[number]", "")
        );
        expect_error(&text, 9, "unknown field `colour`, expected one of `spec`");
    }

    #[test]
    fn case_lines_are_found_in_one_scan() {
        let text = "cases:\n  - name: a\n    x: 1\n  - name: \"b\"\n  - name: a\n";
        let lines = case_lines(text);
        assert_eq!((lines["a"], lines["b"]), (2, 4));
    }
}
