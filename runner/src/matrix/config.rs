//! The matrix's configuration file: a `[NAME]` section per implementation,
//! with `key = value` lines (format on [`parse_config`]).

use crate::suite::{KNOWN_PROFILES, SPEC_PROFILE};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One implementation of the configuration file.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub name: String,
    pub command: Vec<String>,
    pub profile: String,
    pub known_failures: Option<PathBuf>,
    pub timeout: Duration,
    /// `FILE:LINE` of its `[name]` line, for messages.
    pub place: String,
}

/// Reads a matrix configuration: sections of `key = value` lines.
///
/// ```text
/// # a comment
/// [hcl-go]                                   # the column's name
/// command = ${ADAPTERS}/hcl-go --flag         # required; split like a shell
/// profile = hcl-v2.14                         # optional: spec (default), hcl-v2.14
/// known-failures = known-failures/hcl-go.txt  # optional
/// timeout = 10                                # optional: seconds per case
/// ```
///
/// `${NAME}` in a value is the environment variable `NAME` (`env`); a
/// relative `known-failures` path, and a relative program path holding a
/// `/`, are taken from the configuration file's folder. Every problem is
/// reported as `FILE:LINE: what is wrong`.
pub fn parse_config(
    path: &Path,
    text: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Vec<Entry>, Vec<String>> {
    let folder = path.parent().unwrap_or(Path::new("."));
    let mut entries: Vec<Entry> = Vec::new();
    let mut errors = Vec::new();
    // The section being read: its entry, and the keys it has set.
    let mut current: Option<(Entry, Vec<String>)> = None;
    let finish = |current: Option<(Entry, Vec<String>)>,
                  entries: &mut Vec<Entry>,
                  errors: &mut Vec<String>| {
        if let Some((entry, _)) = current {
            if entry.command.is_empty() {
                errors.push(format!(
                    "{}: [{}] has no `command = ...` line; add the command that starts the adapter",
                    entry.place, entry.name
                ));
            } else {
                entries.push(entry);
            }
        }
    };
    for (i, raw) in text.lines().enumerate() {
        let place = format!("{}:{}", path.display(), i + 1);
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let Some(name) = rest.strip_suffix(']').map(str::trim) else {
                errors.push(format!("{place}: a section line is `[NAME]`, not `{line}`"));
                continue;
            };
            finish(current.take(), &mut entries, &mut errors);
            let valid = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
            if !valid {
                errors.push(format!(
                    "{place}: `{name}` is not a usable name; use letters, digits, `-`, `_` and `.`"
                ));
            } else if name == "reference" {
                errors.push(format!(
                    "{place}: `reference` is the reference interpreter's column; choose another name"
                ));
            } else if let Some(first) = entries.iter().find(|e| e.name == name) {
                errors.push(format!(
                    "{place}: [{name}] is configured twice (first at {})",
                    first.place
                ));
            }
            current = Some((
                Entry {
                    name: name.to_string(),
                    command: Vec::new(),
                    profile: SPEC_PROFILE.to_string(),
                    known_failures: None,
                    timeout: Duration::from_secs(10),
                    place,
                },
                Vec::new(),
            ));
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            errors.push(format!(
                "{place}: expected `key = value` or `[NAME]`, not `{line}`"
            ));
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        let Some((entry, keys)) = current.as_mut() else {
            errors.push(format!(
                "{place}: `{key}` comes before any `[NAME]` line; start the implementation's section first"
            ));
            continue;
        };
        if keys.iter().any(|k| k == key) {
            errors.push(format!(
                "{place}: `{key}` is set twice for [{}]",
                entry.name
            ));
            continue;
        }
        keys.push(key.to_string());
        let value = match expand(value, env) {
            Ok(value) => value,
            Err(e) => {
                errors.push(format!("{place}: {e}"));
                continue;
            }
        };
        match key {
            "command" => match split_command(&value) {
                Ok(mut words) => {
                    if words[0].contains('/') && Path::new(&words[0]).is_relative() {
                        words[0] = folder.join(&words[0]).display().to_string();
                    }
                    entry.command = words;
                }
                Err(e) => errors.push(format!("{place}: {e}")),
            },
            "profile" => {
                if value == SPEC_PROFILE || KNOWN_PROFILES.contains(&value.as_str()) {
                    entry.profile = value;
                } else {
                    errors.push(format!(
                        "{place}: unknown profile `{value}`; the profiles are {SPEC_PROFILE}, {}",
                        KNOWN_PROFILES.join(", ")
                    ));
                }
            }
            "known-failures" => entry.known_failures = Some(folder.join(value)),
            "timeout" => match value.parse::<f64>() {
                Ok(s) if s > 0.0 && s.is_finite() => entry.timeout = Duration::from_secs_f64(s),
                _ => errors.push(format!(
                    "{place}: timeout is a positive number of seconds, not `{value}`"
                )),
            },
            other => errors.push(format!(
                "{place}: unknown key `{other}`; the keys are command, profile, known-failures, timeout"
            )),
        }
    }
    finish(current, &mut entries, &mut errors);
    if entries.is_empty() && errors.is_empty() {
        errors.push(format!(
            "{}: no implementation is configured; add a `[NAME]` section with a `command = ...` line",
            path.display()
        ));
    }
    if errors.is_empty() {
        Ok(entries)
    } else {
        Err(errors)
    }
}

/// A line without its `#` comment (a `#` starts one at the line's start or
/// after white space, so `a#b` in a value stays).
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'#' && (i == 0 || bytes[i - 1].is_ascii_whitespace()) {
            return &line[..i];
        }
    }
    line
}

/// Replaces each `${NAME}` with the environment variable `NAME`.
fn expand(value: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let end = after
            .find('}')
            .ok_or_else(|| format!("`${{` without its `}}` in `{value}`"))?;
        let name = &after[..end];
        let expanded = env(name).ok_or_else(|| {
            format!("the environment variable {name} is not set (used as ${{{name}}})")
        })?;
        out.push_str(&expanded);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Splits a command line as a POSIX shell would, for quotes and
/// backslashes.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated ' in `{text}`")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => word.push(chars.next().ok_or("a trailing backslash")?),
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated \" in `{text}`")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next().ok_or("a trailing backslash")?);
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("the command is empty".into());
    }
    Ok(words)
}
