//! Loading the suite: every `.yaml` file under `suite/`, checked in full.
//!
//! A file that does not load is a suite bug. Every problem is reported with
//! the file, the line and what to do; nothing is skipped silently.
//!
//! Each file is read and checked by `super::file`.

use super::file::parse_file;
use super::{Case, SuiteFile};
use crate::requirements::Requirements;
use std::collections::BTreeMap;
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
    read_folder(dir, "suite", &mut texts, &mut errors);
    let notes = dir.join("../spec-notes");
    if notes.is_dir() {
        read_folder(&notes, "spec-notes", &mut texts, &mut errors);
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

/// Reads the files the runner uses below `folder` into `texts`, by their
/// path from the repository's root (`NAME/...`, `name` being `suite` or
/// `spec-notes`), and the problems into `errors`: a symbolic link in the
/// suite, a file that is not a regular one, one that cannot be read.
fn read_folder(
    folder: &Path,
    name: &str,
    texts: &mut BTreeMap<String, FileText>,
    errors: &mut Vec<LoadError>,
) {
    let error = |path: &Path, message: &str| LoadError {
        path: path.into(),
        line: None,
        message: message.into(),
    };
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
