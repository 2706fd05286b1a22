//! Loading the suite: every `.yaml` file under `suite/`, checked in full.
//!
//! A file that does not load is a suite bug. Every problem is reported with
//! the file, the line and what to do; nothing is skipped silently.

use super::yaml::{flow_nesting_exceeds, strings, RawCase, RawFile, MAX_FLOW_NESTING};
use super::{
    Case, Input, SuiteFile, Syntax, CASE_KINDS, EXPR_EXTENSIONS, EXTENSIONS, KNOWN_PROFILES,
    RESERVED_KINDS,
};
use crate::requirements::Requirements;
use hcl_interpreter::operations::Operation;
use hcl_interpreter::static_analysis::Analysis;
use std::collections::BTreeSet;
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
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for LoadError {}

/// The whole suite, loaded.
#[derive(Clone, Debug)]
pub struct Suite {
    /// The `suite/` folder.
    pub dir: PathBuf,
    pub files: Vec<SuiteFile>,
    pub requirements: Requirements,
}

impl Suite {
    pub fn cases(&self) -> impl Iterator<Item = &super::Case> {
        self.files.iter().flat_map(|f| f.cases.iter())
    }
}

/// Finds the `suite/` folder: `$HCL_CONFORMANCE_SUITE`, or `suite/` in the
/// current folder or one of its parents, or beside this crate.
pub fn find_suite_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("HCL_CONFORMANCE_SUITE") {
        return PathBuf::from(dir);
    }
    if let Ok(cwd) = std::env::current_dir() {
        for dir in cwd.ancestors() {
            let candidate = dir.join("suite");
            if candidate.join("requirements.jsonl").is_file() {
                return candidate;
            }
        }
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../suite")
}

/// Loads every case file under `dir`, reporting every problem found.
///
/// The suite is read from plain files and folders: a symbolic link below
/// `dir` is an error, not followed, since a case's id is its file's path
/// (a linked file would give its cases a second id, or bring in a file from
/// outside the suite).
pub fn load_suite(dir: &Path) -> Result<Suite, Vec<LoadError>> {
    if !dir.join("requirements.jsonl").is_file() {
        let what = if dir.is_dir() {
            "this folder has no requirements.jsonl, so it is not the suite folder"
        } else {
            "there is no folder here"
        };
        return Err(vec![LoadError {
            path: dir.to_path_buf(),
            line: None,
            message: format!(
                "{what}; give the suite folder's path with --suite DIR \
                 (or HCL_CONFORMANCE_SUITE), or run from the repository"
            ),
        }]);
    }
    let requirements = Requirements::load(dir).map_err(|message| {
        vec![LoadError {
            path: dir.join("requirements.jsonl"),
            line: None,
            message,
        }]
    })?;
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let mut paths = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        match entry {
            Ok(entry) if entry.path_is_symlink() && entry.depth() > 0 => errors.push(LoadError {
                path: entry.into_path(),
                line: None,
                message: "a symbolic link; the suite is read from plain files and folders only: \
                          replace the link with what it points to"
                    .into(),
            }),
            Ok(entry) if entry.file_type().is_file() => paths.push(entry.into_path()),
            Ok(_) => {}
            Err(e) => errors.push(LoadError {
                path: e.path().unwrap_or(dir).to_path_buf(),
                line: None,
                message: format!("cannot read: {e}"),
            }),
        }
    }
    paths.sort();
    for path in paths {
        match path.extension().and_then(|x| x.to_str()) {
            Some("yaml") => match load_file(&path, dir, &requirements) {
                Ok(file) => files.push(file),
                Err(mut file_errors) => errors.append(&mut file_errors),
            },
            Some("yml") => errors.push(LoadError {
                path,
                line: None,
                message: "case files end in .yaml; rename this file".into(),
            }),
            _ => {}
        }
    }
    if errors.is_empty() {
        Ok(Suite {
            dir: dir.to_path_buf(),
            files,
            requirements,
        })
    } else {
        Err(errors)
    }
}

/// The file's id: its path below the suite folder, without `.yaml`.
fn file_id(path: &Path, suite_dir: &Path) -> String {
    let relative = path.strip_prefix(suite_dir).unwrap_or(path);
    relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// Loads and checks one case file.
pub fn load_file(
    path: &Path,
    suite_dir: &Path,
    requirements: &Requirements,
) -> Result<SuiteFile, Vec<LoadError>> {
    let error = |line: Option<usize>, message: String| LoadError {
        path: path.to_path_buf(),
        line,
        message,
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| vec![error(None, format!("cannot read the file: {e}"))])?;
    let too_deep = format!(
        "the YAML nests more than {MAX_FLOW_NESTING} levels deep here; a case file needs a few \
         levels: write deeply nested input as source text, in a block scalar (`|`)"
    );
    // Checked before parsing, whose time grows with the square of the
    // depth of `[` and `{`.
    if let Some(line) = flow_nesting_exceeds(&text, MAX_FLOW_NESTING) {
        return Err(vec![error(Some(line), too_deep)]);
    }
    let raw: RawFile = serde_yaml::from_str(&text).map_err(|e| {
        let line = e.location().map(|l| l.line());
        // serde_yaml appends " at line L column C"; the line is ours to show.
        let message = e.to_string();
        let message = message
            .split(" at line ")
            .next()
            .unwrap_or(&message)
            .to_string();
        if message.contains("recursion limit exceeded") {
            return vec![error(line, too_deep.clone())];
        }
        vec![error(line, message)]
    })?;
    let id = file_id(path, suite_dir);
    let mut errors = Vec::new();
    let spec = raw.spec.into_vec();
    for citation in &spec {
        let known = citation
            .split_once('#')
            .is_some_and(|(doc, anchor)| requirements.knows_section(doc, anchor));
        if !known {
            errors.push(error(
                Some(1),
                format!(
                    "`spec: {citation}` is not a known section; cite DOCUMENT#ANCHOR as in requirements.jsonl, e.g. spec.md#type-unification"
                ),
            ));
        }
    }
    if raw.summary.trim().is_empty() {
        errors.push(error(Some(1), "the `summary` is empty".into()));
    }
    if raw.cases.is_empty() {
        errors.push(error(None, "the file has no cases".into()));
    }
    let repo_root = suite_dir.parent().unwrap_or(suite_dir);
    let mut names = BTreeSet::new();
    let mut cases = Vec::new();
    for raw_case in raw.cases {
        let line = line_of_case(&text, &raw_case.name);
        match build_case(raw_case, raw.kind.as_deref(), &id, requirements, repo_root) {
            Ok(case) => {
                if !names.insert(case.name.clone()) {
                    errors.push(error(
                        line,
                        format!("the case name `{}` is used twice in this file", case.name),
                    ));
                }
                cases.push(Case {
                    line: line.unwrap_or(0),
                    ..case
                });
            }
            Err(problems) => {
                errors.extend(problems.into_iter().map(|m| error(line, m)));
            }
        }
    }
    if errors.is_empty() {
        Ok(SuiteFile {
            id,
            path: path.to_path_buf(),
            spec,
            summary: raw.summary.0,
            cases,
        })
    } else {
        Err(errors)
    }
}

/// The line where the case named `name` starts, found in the file's text.
fn line_of_case(text: &str, name: &str) -> Option<usize> {
    text.lines()
        .position(|line| {
            let line = line.trim_start().trim_start_matches('-').trim_start();
            line.strip_prefix("name:")
                .is_some_and(|rest| rest.trim().trim_matches(['"', '\'']) == name)
        })
        .map(|i| i + 1)
}

fn is_kebab_case(name: &str) -> bool {
    !name.is_empty()
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Checks a raw case and builds it; the problems are all reported at once.
fn build_case(
    raw: RawCase,
    default_kind: Option<&str>,
    file_id: &str,
    requirements: &Requirements,
    repo_root: &Path,
) -> Result<Case, Vec<String>> {
    let mut problems = Vec::new();
    let name = raw.name.clone();
    if !is_kebab_case(&name) {
        problems.push(format!(
            "case name `{name}` is not kebab-case (a-z, 0-9 and single dashes)"
        ));
    }
    if raw.covers.is_empty() {
        problems.push(format!(
            "case `{name}` covers no requirement; list the ids it checks in `covers`"
        ));
    }
    for id in &raw.covers {
        match requirements.get(id) {
            None => problems.push(format!(
                "case `{name}` covers `{id}`, which is not in requirements.jsonl"
            )),
            Some(r) if !r.testable => problems.push(format!(
                "case `{name}` covers `{id}`, which is marked not testable; remove it, or correct it in requirements-overrides.jsonl"
            )),
            Some(_) => {}
        }
    }
    let input = match build_input(&raw, default_kind) {
        Ok(input) => Some(input),
        Err(problem) => {
            problems.push(format!("case `{name}`: {problem}"));
            None
        }
    };
    let open = raw.expect.is_open()
        || raw
            .profiles
            .iter()
            .flatten()
            .any(|(_, p)| p.expect.is_open());
    match (&raw.implementation_defined, open) {
        (None, true) => problems.push(format!(
            "case `{name}` accepts several results (one-of, order: any or !approx): say why in `implementation-defined`"
        )),
        (Some(_), false) if !raw.expect.is_open() => problems.push(format!(
            "case `{name}` is marked implementation-defined but accepts one result only"
        )),
        _ => {}
    }
    let mut profiles = std::collections::BTreeMap::new();
    for (profile, expectation) in raw.profiles.into_iter().flatten() {
        if !KNOWN_PROFILES.contains(&profile.0.as_str()) {
            problems.push(format!(
                "case `{name}`: unknown profile `{profile}`; the profiles are {}",
                KNOWN_PROFILES.join(", ")
            ));
        }
        if !repo_root.join(&expectation.note.0).is_file() {
            problems.push(format!(
                "case `{name}`: the note `{}` of profile `{profile}` does not exist",
                expectation.note
            ));
        }
        profiles.insert(profile.0, expectation.into());
    }
    match input {
        Some(input) if problems.is_empty() => Ok(Case {
            id: format!("{file_id}::{name}"),
            name: name.0,
            description: raw.description.map(|d| d.0),
            covers: strings(raw.covers),
            input,
            expect: raw.expect,
            implementation_defined: raw.implementation_defined.map(|d| d.0),
            profiles,
            line: 0,
        }),
        _ => Err(problems),
    }
}

/// Builds the input of a case from the fields of its kind, rejecting fields
/// of other kinds.
fn build_input(raw: &RawCase, default_kind: Option<&str>) -> Result<Input, String> {
    let kind = raw
        .kind
        .as_deref()
        .or(default_kind)
        .ok_or("no `kind`, and the file gives no default `kind`")?;
    if RESERVED_KINDS.contains(&kind) {
        return Err(format!(
            "kind `{kind}` is reserved for a later version of the format"
        ));
    }
    if !CASE_KINDS.contains(&kind) {
        return Err(format!(
            "unknown kind `{kind}`; the kinds are {}",
            CASE_KINDS.join(", ")
        ));
    }
    let present = [
        ("value", raw.value.is_some()),
        ("to", raw.to.is_some()),
        ("types", raw.types.is_some()),
        ("type", raw.ty.is_some()),
        ("spec", raw.spec.is_some()),
        ("op", raw.op.is_some()),
        ("operands", raw.operands.is_some()),
        ("expr", raw.expr.is_some()),
        ("template", raw.template.is_some()),
        ("config", raw.config.is_some()),
        ("syntax", raw.syntax.is_some()),
        ("variables", raw.variables.is_some()),
        ("analysis", raw.analysis.is_some()),
        ("extensions", raw.extensions.is_some()),
        ("schema", raw.schema.is_some()),
        ("literal-only", raw.literal_only.is_some()),
        ("constraint", raw.constraint.is_some()),
    ];
    // Fields a kind may leave out.
    let optional: &[&str] = match kind {
        "expr" => &["variables", "extensions"],
        "template" => &["variables"],
        "typeexpr" => &["syntax", "constraint"],
        "config" => &[
            "variables",
            "syntax",
            "extensions",
            "schema",
            "literal-only",
        ],
        "static" => &["syntax"],
        _ => &[],
    };
    let wanted: &[&str] = match kind {
        "convert" => &["value", "to"],
        "unify" | "identical" => &["types"],
        "matches" => &["type", "spec"],
        "operation" => &["op", "operands"],
        "expr" => &["expr"],
        "template" => &["template"],
        "static" => &["expr", "analysis"],
        "typeexpr" => &["expr"],
        _ => &["config"],
    };
    for (field, given) in present {
        if given && !wanted.contains(&field) && !optional.contains(&field) {
            return Err(format!("`{field}` is not a field of a `{kind}` case"));
        }
        if !given && wanted.contains(&field) {
            return Err(format!("a `{kind}` case needs `{field}`"));
        }
    }
    let variables = || -> std::collections::BTreeMap<String, hcl_interpreter::Value> {
        raw.variables
            .iter()
            .flatten()
            .map(|(name, v)| (name.0.clone(), v.0.clone()))
            .collect()
    };
    let syntax = || match raw.syntax.as_deref() {
        None | Some("native") => Ok(Syntax::Native),
        Some("json") => Ok(Syntax::Json),
        Some(other) => Err(format!(
            "unknown syntax `{other}`; the syntaxes are native and json"
        )),
    };
    let types = || -> Vec<hcl_interpreter::Type> {
        raw.types.iter().flatten().map(|t| t.0.clone()).collect()
    };
    Ok(match kind {
        "convert" => Input::Convert {
            value: raw.value.clone().expect("checked").0,
            to: raw.to.clone().expect("checked").0,
        },
        "unify" => {
            let types = types();
            if types.is_empty() {
                return Err("`types` lists at least one type".into());
            }
            Input::Unify { types }
        }
        "identical" => {
            let types = types();
            let [a, b]: [hcl_interpreter::Type; 2] = types
                .try_into()
                .map_err(|_| "`types` of an `identical` case lists exactly two types")?;
            Input::Identical { types: [a, b] }
        }
        "matches" => Input::Matches {
            ty: raw.ty.clone().expect("checked").0,
            spec: raw.spec.clone().expect("checked").0,
        },
        "expr" => Input::Expr {
            expr: raw.expr.clone().expect("checked").0,
            variables: variables(),
            extensions: {
                let extensions = raw.extensions.clone().unwrap_or_default();
                if let Some(unknown) = extensions
                    .iter()
                    .find(|e| !EXPR_EXTENSIONS.contains(&e.0.as_str()))
                {
                    return Err(format!(
                        "unknown extension `{unknown}` for an `expr` case; the extensions are {}",
                        EXPR_EXTENSIONS.join(", ")
                    ));
                }
                strings(extensions)
            },
        },
        "typeexpr" => Input::TypeExpr {
            syntax: syntax()?,
            expr: raw.expr.clone().expect("checked").0,
            constraint: raw.constraint.unwrap_or(false),
        },
        "template" => Input::Template {
            template: raw.template.clone().expect("checked").0,
            variables: variables(),
        },
        "static" => {
            Input::Static {
                syntax: syntax()?,
                expr: raw.expr.clone().expect("checked").0,
                analysis: {
                    let name = raw.analysis.as_deref().expect("checked");
                    Analysis::from_name(name).ok_or_else(|| {
                    format!("unknown analysis `{name}`; the analyses are list, map, call, traversal")
                })?
                },
            }
        }
        "config" => Input::Config {
            syntax: syntax()?,
            config: raw.config.clone().expect("checked").0,
            variables: variables(),
            extensions: {
                let extensions = raw.extensions.clone().unwrap_or_default();
                if let Some(unknown) = extensions
                    .iter()
                    .find(|e| !EXTENSIONS.contains(&e.0.as_str()))
                {
                    return Err(format!(
                        "unknown extension `{unknown}`; the extensions are {}",
                        EXTENSIONS.join(", ")
                    ));
                }
                strings(extensions)
            },
            schema: raw.schema.clone().map(|s| s.0),
            literal_only: {
                let literal_only = raw.literal_only.unwrap_or(false);
                if literal_only && raw.extensions.as_ref().is_some_and(|e| !e.is_empty()) {
                    return Err("`literal-only` does not go with `extensions`".into());
                }
                literal_only
            },
        },
        _ => {
            let op_name = raw.op.as_deref().expect("checked");
            let op = Operation::from_name(op_name).ok_or_else(|| {
                format!(
                    "unknown op `{op_name}`; the operations are {}",
                    Operation::ALL.map(Operation::name).join(", ")
                )
            })?;
            let operands: Vec<_> = raw.operands.iter().flatten().map(|v| v.0.clone()).collect();
            if operands.len() != op.arity() {
                return Err(format!("`{op_name}` takes {} operand(s)", op.arity()));
            }
            Input::Operation { op, operands }
        }
    })
}
