//! The suite as data (`hcl-conformance export`): every case as one JSON
//! document that a test harness in any language can run without the
//! runner. A case's document holds the request to send, exactly as the
//! runner sends it, and per profile the expected answer, in the protocol's
//! own encoding (`runner/PROTOCOL.md`) with the grading written beside it
//! (approximate numbers, element order, accepted alternatives, ranges), and
//! what an implementation must declare to be asked the case at all. The
//! export's JSON Schema is `runner/schema/export-case.schema.json` (and
//! `export-index.schema.json` for the index); `README.md` § The suite as
//! data describes how a harness uses it.

use hcl_conformance_format::kinds::{Body, Kind, Named, StaticShape, Syntax};
use hcl_conformance_format::needs::{case_features, case_syntax};
use hcl_conformance_format::profiles::PROFILES;
use hcl_conformance_format::suite::{Case, Expectation, Suite, SuiteFile};
use hcl_conformance_format::values::ExpectedValue;
use hcl_conformance_format::wire::{
    type_to_json, Hello, Request, RequestLine, Ty, PROTOCOL_VERSION,
};
use hcl_interpreter::convert::Safety;
use hcl_interpreter::{Phase, Type};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Serialize, Serializer};
use serde_json::{json, Map, Value as Json};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// The export's index, `index.json`: the versions, the handshake, and every
/// case with the path of its document.
#[derive(Serialize, JsonSchema)]
pub struct Index {
    /// The suite's version (README.md § Versions), when it has one.
    pub suite_version: Option<String>,
    /// The version of the runner that wrote the export.
    pub runner_version: String,
    /// The protocol version of the requests (runner/PROTOCOL.md).
    pub protocol: u64,
    /// The profiles every case states its expectation for: `spec`, then the
    /// implementations' profiles (`hcl-v2.14`, `hcl-v2.25`: each version of
    /// hashicorp/hcl's results where they depart from the spec's).
    pub profiles: Vec<String>,
    /// The handshake to send first, to the first process started.
    pub hello: Hello,
    /// The kinds that an implementation with the feature `parse-only`
    /// answers by parsing alone.
    pub parse_only_kinds: Vec<Named<Kind>>,
    /// Every case, in the suite's order.
    pub cases: Vec<IndexEntry>,
}

/// A case of the index.
#[derive(Serialize, JsonSchema)]
pub struct IndexEntry {
    /// `FILE::NAME`.
    pub id: String,
    /// Its document, relative to the index: `cases/FILE/NAME.json`.
    pub path: String,
}

/// One case, self-contained.
#[derive(Serialize, JsonSchema)]
pub struct ExportedCase {
    /// `FILE::NAME`, as known-failure lists and `hcl-conformance list` name
    /// cases.
    pub id: String,
    /// The case file, below `suite/` and without `.yaml`.
    pub file: String,
    pub name: String,
    /// The case's line in its file.
    pub line: usize,
    /// The area of the suite (runner/PROTOCOL.md § The conformance matrix).
    pub area: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The spec sections the case's file tests, as `document#anchor`.
    pub spec: Vec<String>,
    /// The requirement ids the case checks (`suite/requirements.jsonl`).
    pub covers: Vec<String>,
    /// Why the spec leaves the result open, for a case that accepts more
    /// than one result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub implementation_defined: Option<String>,
    /// The request, exactly as the runner sends it; its `id` is the case's
    /// id (any string will do).
    #[schemars(with = "RequestLine<'static, Request>")]
    pub request: Json,
    /// Per profile (every profile of the index): the expected answer, what
    /// the case needs of an implementation, and, where the profile departs
    /// from the spec, the note that says why.
    pub profiles: BTreeMap<String, ProfileCase>,
}

/// A case under one profile.
#[derive(Serialize, JsonSchema)]
pub struct ProfileCase {
    pub expect: Expected,
    pub needs: Needs,
    /// Where the profile expects another result than the spec: the note
    /// that explains it, from the repository's root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What an implementation must declare in its `hello` answer to be asked
/// the case; a case whose needs are not met is *unsupported*, never failed.
/// The kind must be among `kinds`; the syntax among `syntaxes` (an answer
/// without `syntaxes` reads both); every feature among `features`, unless
/// the implementation declares `parse-only` and the kind is one of the
/// index's `parse_only_kinds`: then the kind (and syntax) alone is needed.
#[derive(Serialize, JsonSchema)]
pub struct Needs {
    pub kind: Named<Kind>,
    /// The syntax of the request's source text: `native` (also every
    /// `expr` and `template`) or `json`; absent for kinds without source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub syntax: Option<Named<Syntax>>,
    /// `unknown`, `exact-types`, `big-numbers`, `namespaced-functions`,
    /// `schema`, and the extensions the request asks for (`dynblock`,
    /// `typeexpr`).
    pub features: Vec<String>,
}

/// An expected answer: the answer's own members, in the protocol's
/// encoding, with the grading that applies written beside them.
///
/// How an answer is judged (runner/PROTOCOL.md § Grading what an implementation can say): `value`: the
/// answer's value has the expected type (with the feature `exact-types`;
/// without it lists and tuples are compared as sequences, maps and objects
/// as mappings, primitives by kind) and the expected value: numbers equal
/// as decimals, or within the tolerance where `approx` marks one; strings
/// equal after Unicode normalization (NFC); set elements, and list or
/// tuple elements where `any_order` is true, in any order; unknown where
/// `unknown` marks, null where null. `safety`, when given, must equal the
/// answer's (with the feature `safety`). `error`: the answer is an error of
/// the expected phase, and, where `range` is given and the implementation
/// declares `ranges`, one of its diagnostics has that range (an error
/// without any range passes). `one_of`: any of the alternatives. A
/// `parse-only` implementation's answer to a request of a parse-only kind
/// is judged by parsing alone: an expected `parse` error must be a `parse`
/// error, anything else must be answered `{"parsed": true}`.
#[derive(Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Expected {
    /// A value (`convert`, `operation`, `expr`, `template`).
    Value {
        value: ExportedValue,
        #[serde(skip_serializing_if = "Option::is_none")]
        safety: Option<Named<Safety>>,
        /// The elements of the list or tuple may come in any order.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        any_order: bool,
    },
    /// A type (`unify`, `typeexpr`).
    Type {
        #[serde(rename = "type")]
        ty: Ty,
    },
    /// A body (`config`): attributes with their values, blocks in order,
    /// and, under partial processing, the remaining body.
    Body { body: Body<ExportedValue> },
    /// The result of a static analysis (`static`), compared exactly.
    Static(StaticShape),
    /// A yes/no answer (`identical`, `matches`).
    Result { result: bool },
    /// A rejection.
    Error { error: ExpectedError },
    /// Any one of these answers.
    OneOf { one_of: Vec<Expected> },
}

/// An expected error: its phase and, where the case pins it, a range.
#[derive(Serialize, JsonSchema)]
pub struct ExpectedError {
    pub phase: Named<Phase>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<ExpectedRange>,
}

/// A source range, as the protocol writes diagnostics' ranges (lines and
/// columns from 1; bytes are not compared).
#[derive(Serialize, JsonSchema)]
pub struct ExpectedRange {
    pub start: Position,
    pub end: Position,
}

#[derive(Serialize, JsonSchema)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// An expected value: `{"type", "value", "unknown"}` as the protocol
/// encodes values (numbers as decimal strings), and `approx`, marking the
/// numbers that need only be near: absent when none is; else, like
/// `unknown`, a tree that mirrors `value` (arrays for sequences, objects
/// holding only the marked keys for mappings, `false` where exact) with
/// the tolerance, a decimal string, at each approximate number.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportedValue {
    pub ty: Type,
    pub value: ExpectedValue,
}

impl Serialize for ExportedValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (value, unknown, approx) = encode(&self.value);
        let mut out = Map::from_iter([
            ("type".to_string(), type_to_json(&self.ty)),
            ("value".to_string(), value),
        ]);
        out.extend(unknown.map(|u| ("unknown".to_string(), u)));
        out.extend(approx.map(|a| ("approx".to_string(), a)));
        out.serialize(s)
    }
}

impl JsonSchema for ExportedValue {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "expected_value".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "An expected value: the protocol's {type, value, unknown}, and `approx` marking approximate numbers with their tolerance",
            "type": "object",
            "properties": {
                "type": g.subschema_for::<Ty>(),
                "value": true,
                "unknown": true,
                "approx": true
            },
            "required": ["type", "value"],
            "additionalProperties": false
        })
    }
}

/// An expected value's JSON, its unknown marks and its approximation
/// marks (`None` when it holds none of them).
fn encode(v: &ExpectedValue) -> (Json, Option<Json>, Option<Json>) {
    let number = |n: &hcl_interpreter::number::Number| Json::String(n.to_decimal_string());
    match v {
        ExpectedValue::Null => (Json::Null, None, None),
        ExpectedValue::Unknown => (Json::Null, Some(Json::Bool(true)), None),
        ExpectedValue::String(s) => (Json::String(s.clone()), None, None),
        ExpectedValue::Number(n) => (number(n), None, None),
        ExpectedValue::Approx {
            value, tolerance, ..
        } => (number(value), None, Some(number(tolerance))),
        ExpectedValue::Bool(b) => (Json::Bool(*b), None, None),
        ExpectedValue::Sequence(items) => {
            let (mut values, mut unknown, mut approx) = (Vec::new(), Vec::new(), Vec::new());
            for item in items {
                let (v, u, a) = encode(item);
                values.push(v);
                unknown.push(u);
                approx.push(a);
            }
            let marks = |marks: Vec<Option<Json>>| {
                let any = marks.iter().any(Option::is_some);
                any.then(|| {
                    let marks = marks.into_iter().map(|m| m.unwrap_or(Json::Bool(false)));
                    Json::Array(marks.collect())
                })
            };
            (Json::Array(values), marks(unknown), marks(approx))
        }
        ExpectedValue::Mapping(entries) => {
            let (mut values, mut unknown, mut approx) = (Map::new(), Map::new(), Map::new());
            for (k, item) in entries {
                let (v, u, a) = encode(item);
                values.insert(k.clone(), v);
                unknown.extend(u.map(|u| (k.clone(), u)));
                approx.extend(a.map(|a| (k.clone(), a)));
            }
            let marks = |m: Map<String, Json>| (!m.is_empty()).then_some(Json::Object(m));
            (Json::Object(values), marks(unknown), marks(approx))
        }
    }
}

/// A range written `L:C-L:C`, as case files write it.
fn range(text: &str) -> Option<ExpectedRange> {
    let position = |p: &str| {
        let (line, column) = p.split_once(':')?;
        Some(Position {
            line: line.parse().ok()?,
            column: column.parse().ok()?,
        })
    };
    let (start, end) = text.split_once('-')?;
    Some(ExpectedRange {
        start: position(start)?,
        end: position(end)?,
    })
}

/// An expectation as the export writes it.
pub fn expected(expect: &Expectation) -> Expected {
    let exported = |ty: &Type, value: &ExpectedValue| ExportedValue {
        ty: ty.clone(),
        value: value.clone(),
    };
    match expect {
        Expectation::Value {
            ty,
            value,
            safety,
            order_any,
        } => Expected::Value {
            value: exported(ty, value),
            safety: safety.map(Named),
            any_order: *order_any,
        },
        Expectation::Type(ty) => Expected::Type { ty: Ty(ty.clone()) },
        Expectation::Body(body) => Expected::Body {
            body: map_body(body, &|e| exported(&e.ty, &e.value)),
        },
        Expectation::Static(shape) => Expected::Static(shape.clone()),
        Expectation::Result(b) => Expected::Result { result: *b },
        Expectation::Error { phase, range: r } => Expected::Error {
            error: ExpectedError {
                phase: Named(*phase),
                range: r.as_deref().and_then(range),
            },
        },
        Expectation::OneOf(options) => Expected::OneOf {
            one_of: options.iter().map(expected).collect(),
        },
    }
}

/// A body with each attribute mapped.
fn map_body<A, B>(body: &Body<A>, f: &dyn Fn(&A) -> B) -> Body<B> {
    Body {
        attributes: body
            .attributes
            .iter()
            .map(|(k, v)| (k.clone(), f(v)))
            .collect(),
        blocks: body
            .blocks
            .iter()
            .map(|b| hcl_conformance_format::kinds::Block {
                type_name: b.type_name.clone(),
                labels: b.labels.clone(),
                body: map_body(&b.body, f),
            })
            .collect(),
        remain: body.remain.as_ref().map(|r| Box::new(map_body(r, f))),
    }
}

/// Every profile, `spec` first.
pub fn profiles() -> Vec<String> {
    PROFILES.iter().map(|p| p.name.to_string()).collect()
}

/// The request the runner sends for the case, with the case's id as its id.
pub fn request(case: &Case) -> Json {
    let line = RequestLine {
        id: &case.id,
        input: &case.input,
    };
    serde_json::to_value(line).unwrap_or_default()
}

/// A case's document.
pub fn export_case(case: &Case, file: &SuiteFile) -> ExportedCase {
    let profile = |name: &str| ProfileCase {
        expect: expected(case.expectation_for(name)),
        needs: Needs {
            kind: Named(case.input.kind()),
            syntax: case_syntax(&case.input).map(Named),
            features: case_features(case, name),
        },
        note: case.recorded_for(name).map(|(_, p)| p.note.clone()),
    };
    ExportedCase {
        id: case.id.clone(),
        file: file.id.clone(),
        name: case.name.clone(),
        line: case.line,
        area: case.area.into(),
        description: case.description.clone(),
        spec: file.spec.clone(),
        covers: case.covers.clone(),
        implementation_defined: case.implementation_defined.clone(),
        request: request(case),
        profiles: profiles().iter().map(|p| (p.clone(), profile(p))).collect(),
    }
}

/// The hash of what a case asks and expects: its request, the spec's
/// expectation and those of the profiles it records (not its description,
/// requirements or place). Sixteen hex digits of a SHA-256 of the
/// canonical JSON (keys sorted, no spaces) of
/// `{"request", "expect", "profiles": {NAME: EXPECT}}`, as export writes
/// them. The version manifests (`crate::versions`) record it.
pub fn case_hash(case: &Case) -> String {
    let profiles: Map<String, Json> = case
        .profiles
        .iter()
        .map(|(name, p)| (name.clone(), json!(expected(&p.expect))))
        .collect();
    let content = json!({
        "request": request(case),
        "expect": expected(&case.expect),
        "profiles": profiles,
    });
    let digest = Sha256::digest(canonical(&content).as_bytes());
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// JSON with every object's keys sorted and no spaces: one text for one
/// value, whatever the order maps keep.
fn canonical(json: &Json) -> String {
    match json {
        Json::Object(members) => {
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort();
            let members = keys.iter().map(|k| {
                format!(
                    "{}:{}",
                    Json::String((*k).clone()),
                    canonical(&members[k.as_str()])
                )
            });
            format!("{{{}}}", members.collect::<Vec<_>>().join(","))
        }
        Json::Array(items) => format!(
            "[{}]",
            items.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        other => other.to_string(),
    }
}

/// The longest file name that file systems commonly take (ext4, XFS,
/// Btrfs, ZFS, APFS: 255 bytes).
const MAX_FILE_NAME: usize = 255;

/// Writes the export into `out`: `index.json` and `cases/FILE/NAME.json`.
///
/// Nothing is lost on the way. The export is written whole into a new
/// folder beside `out` (`.NAME.export-PID-N`, on the same file system), and
/// only once it is complete does it take `out`'s place, by renaming: an
/// earlier export is first renamed aside (`.NAME.old-export-PID-N`), the
/// new one renamed to `out`, and then the earlier one removed. On any
/// failure the new folder is removed and the earlier export is left at
/// `out` as it was (should even renaming it back fail, the error says
/// where it is).
///
/// `out` may be absent, an empty folder, or an earlier export: `index.json`
/// and `cases/`, and nothing else, since the folder is replaced whole (a
/// folder holding anything else is refused, not emptied). A symbolic link,
/// `out` itself or anything in an earlier export, is refused rather than
/// followed: writing through a link would overwrite a file outside the
/// export.
///
/// A case whose document's file name (`NAME.json`) is longer than file
/// systems take is an error naming its file and line, found before anything
/// is written. It is not given a shorter, safe file name instead: the path
/// `cases/FILE/NAME.json` is part of the export's format (README.md § The
/// suite as data and the index's schema give it so, and a harness may
/// build it from the case's id rather than read the index), and the id,
/// which known-failure lists name, cannot change either; a case name of
/// some 250 characters is a mistake of the suite, to be fixed there.
pub fn write_export(
    suite: &Suite,
    out: &Path,
    suite_version: Option<String>,
    runner_version: &str,
) -> Result<usize, String> {
    let earlier = earlier_export(out)?;
    check_file_names(suite)?;
    let place = place_of(out)?;
    std::fs::create_dir_all(&place.folder)
        .map_err(|e| format!("cannot create the folder {}: {e}", place.folder.display()))?;
    let mut temporary = Temporary::create(&place, out)?;
    let count =
        write_documents(suite, &temporary.path, suite_version, runner_version).map_err(|e| {
            format!(
                "{e}; the export was not written, and {} is left as it was",
                out.display()
            )
        })?;
    replace(out, &place, &mut temporary, earlier)?;
    Ok(count)
}

/// What the destination of an export holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Earlier {
    Nothing,
    EmptyFolder,
    Export,
}

/// What `out` holds, or why it may not be replaced.
fn earlier_export(out: &Path) -> Result<Earlier, String> {
    let shown = out.display();
    let metadata = match std::fs::symlink_metadata(out) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Earlier::Nothing),
        Err(e) => return Err(format!("cannot read {shown}: {e}")),
        Ok(metadata) => metadata,
    };
    if metadata.file_type().is_symlink() {
        return Err(format!(
            "{shown} is a symbolic link; export does not write through links: give the folder \
             it points to, or a new folder"
        ));
    }
    if !metadata.is_dir() {
        return Err(format!(
            "{shown} is not a folder: give a new or empty folder, or an earlier export"
        ));
    }
    let mut names: Vec<String> = std::fs::read_dir(out)
        .and_then(|entries| {
            entries
                .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
                .collect()
        })
        .map_err(|e| format!("cannot read the folder {shown}: {e}"))?;
    if names.is_empty() {
        return Ok(Earlier::EmptyFolder);
    }
    names.sort();
    // Links first: a linked index.json is a link to refuse, not a missing
    // index. The walk does not follow links, and reads types without
    // opening anything.
    for entry in walkdir::WalkDir::new(out).min_depth(1) {
        let entry = entry.map_err(|e| format!("cannot read the earlier export {shown}: {e}"))?;
        let kind = entry.file_type();
        let what = match () {
            _ if kind.is_symlink() => "a symbolic link",
            _ if kind.is_file() || kind.is_dir() => continue,
            _ => "neither a file nor a folder",
        };
        return Err(format!(
            "{} is {what}, in the earlier export {shown}; export replaces the folder whole and \
             neither follows nor removes such entries: remove it, or give another folder",
            entry.path().display()
        ));
    }
    if !out.join("index.json").is_file() {
        return Err(format!(
            "{shown} holds files but no export (index.json): give an empty or new folder"
        ));
    }
    let others: Vec<&String> = names
        .iter()
        .filter(|n| !["index.json", "cases"].contains(&n.as_str()))
        .collect();
    if !others.is_empty() {
        let others: Vec<&str> = others.iter().map(|n| n.as_str()).collect();
        return Err(format!(
            "{shown} holds {} besides the export (index.json, cases/); export replaces the \
             folder whole: move them out, or give another folder",
            others.join(", ")
        ));
    }
    Ok(Earlier::Export)
}

/// Every document's file name fits a file system's; else the first case
/// whose does not, at its file and line.
fn check_file_names(suite: &Suite) -> Result<(), String> {
    for file in &suite.files {
        if let Some(part) = file.id.split('/').find(|p| p.len() > MAX_FILE_NAME) {
            return Err(format!(
                "{}: the folder or file name `{part}` is {} bytes long; file systems take at most \
                 {MAX_FILE_NAME}: shorten it (nothing was written)",
                file.path.display(),
                part.len()
            ));
        }
        for case in &file.cases {
            let name = format!("{}.json", case.name);
            if name.len() > MAX_FILE_NAME {
                let start: String = case.name.chars().take(40).collect();
                return Err(format!(
                    "{}:{}: case `{start}...`: its document's file name, NAME.json, would be {} \
                     bytes long, and file systems take at most {MAX_FILE_NAME}: shorten the \
                     case's name (nothing was written)",
                    file.path.display(),
                    case.line,
                    name.len()
                ));
            }
        }
    }
    Ok(())
}

/// Where `out` is: a path to it that names it (`.` and `..` do not: the
/// folder they are does), the folder holding it, and its name there.
struct Place {
    path: PathBuf,
    folder: PathBuf,
    name: OsString,
}

fn place_of(out: &Path) -> Result<Place, String> {
    let path = match out.file_name() {
        Some(_) => out.to_path_buf(),
        None => std::fs::canonicalize(out)
            .map_err(|e| format!("cannot find the folder {}: {e}", out.display()))?,
    };
    let Some(name) = path.file_name().map(OsStr::to_os_string) else {
        return Err(format!(
            "cannot export to {}: give a folder below it",
            out.display()
        ));
    };
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // `DIR/.` names DIR too, but renaming it is renaming `.`.
    let path = folder.join(&name);
    Ok(Place { path, folder, name })
}

/// A folder of this run's own beside the destination, removed when dropped
/// unless kept.
struct Temporary {
    path: PathBuf,
    keep: bool,
}

impl Temporary {
    fn create(place: &Place, out: &Path) -> Result<Temporary, String> {
        let mut last = None;
        for n in 0..100 {
            let path = place.folder.join(sibling_name(&place.name, "export", n));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(Temporary { path, keep: false }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(path),
                Err(e) => {
                    return Err(format!(
                        "cannot create the folder {}: {e}; export writes the new export there, \
                         beside {}, before it takes its place: the folder holding it must be \
                         writable",
                        path.display(),
                        out.display()
                    ))
                }
            }
        }
        Err(format!(
            "cannot create a temporary folder beside {}: {} and the 99 names before it exist; \
             remove them",
            out.display(),
            last.map_or(String::new(), |p| p.display().to_string())
        ))
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// `.NAME.WHAT-PID-N`: a hidden name beside `NAME`, this process's own.
fn sibling_name(name: &OsStr, what: &str, n: usize) -> OsString {
    let mut sibling = OsString::from(".");
    sibling.push(name);
    sibling.push(format!(".{what}-{}-{n}", std::process::id()));
    sibling
}

/// Puts the complete export in `temporary` in `out`'s place.
fn replace(
    out: &Path,
    place: &Place,
    temporary: &mut Temporary,
    earlier: Earlier,
) -> Result<(), String> {
    let shown = out.display();
    let (folder, name) = (&place.folder, &place.name);
    let out = place.path.as_path();
    if earlier != Earlier::Export {
        // Renaming onto an empty folder replaces it.
        std::fs::rename(&temporary.path, out).map_err(|e| {
            format!("cannot move the new export to {shown}: {e}; nothing was written")
        })?;
        temporary.keep = true;
        return Ok(());
    }
    let aside = (0..100)
        .map(|n| folder.join(sibling_name(name, "old-export", n)))
        .find(|p| std::fs::symlink_metadata(p).is_err())
        .ok_or_else(|| {
            format!("cannot find a free name beside {shown} to move the earlier export to")
        })?;
    std::fs::rename(out, &aside).map_err(|e| {
        format!(
            "cannot move the earlier export {shown} aside (to {}): {e}; it is left as it was",
            aside.display()
        )
    })?;
    if let Err(e) = std::fs::rename(&temporary.path, out) {
        return Err(match std::fs::rename(&aside, out) {
            Ok(()) => format!(
                "cannot move the new export to {shown}: {e}; the earlier export is left as it was"
            ),
            Err(back) => format!(
                "cannot move the new export to {shown}: {e}; nor the earlier export back from {} \
                 ({back}): it is whole there, move it back by hand",
                aside.display()
            ),
        });
    }
    temporary.keep = true;
    std::fs::remove_dir_all(&aside).map_err(|e| {
        format!(
            "the export is written to {shown}, but the earlier one, moved to {}, could not be \
             removed: {e}; remove it",
            aside.display()
        )
    })
}

/// Writes `index.json` and `cases/FILE/NAME.json` into the folder `root`.
fn write_documents(
    suite: &Suite,
    root: &Path,
    suite_version: Option<String>,
    runner_version: &str,
) -> Result<usize, String> {
    let mut entries = Vec::new();
    for file in &suite.files {
        for case in &file.cases {
            let path = format!("cases/{}/{}.json", file.id, case.name);
            let document = serde_json::to_string_pretty(&export_case(case, file))
                .map_err(|e| format!("case {}: {e}", case.id))?;
            let target = root.join(&path);
            target
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::write(&target, document + "\n"))
                .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
            entries.push(IndexEntry {
                id: case.id.clone(),
                path,
            });
        }
    }
    let count = entries.len();
    let index = Index {
        suite_version,
        runner_version: runner_version.into(),
        protocol: PROTOCOL_VERSION,
        profiles: profiles(),
        hello: Hello {
            id: "0".into(),
            kind: "hello".into(),
            protocol: PROTOCOL_VERSION,
        },
        parse_only_kinds: hcl_conformance_format::wire::PARSED_KINDS
            .iter()
            .copied()
            .map(Named)
            .collect(),
        cases: entries,
    };
    let index_path = root.join("index.json");
    let text = serde_json::to_string_pretty(&index).map_err(|e| e.to_string())?;
    std::fs::write(&index_path, text + "\n")
        .map_err(|e| format!("cannot write {}: {e}", index_path.display()))?;
    Ok(count)
}
