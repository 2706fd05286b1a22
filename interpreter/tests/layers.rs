//! The module map's one rule (ARCHITECTURE.md): each module of the
//! interpreter uses only modules of its own layer or of the layers below,
//! so that the information model knows nothing of the syntaxes, the native
//! syntax nothing of the JSON syntax, and the syntaxes nothing of the
//! extensions; and the dynamic blocks extension reads bodies of any syntax
//! through `bodies` alone.

use std::collections::BTreeSet;
use std::path::Path;

/// Each top-level module and its layer, from the bottom.
const LAYERS: &[(&str, u8)] = &[
    // The information model (spec.md), and what every layer shares.
    ("diagnostic", 0),
    ("source", 0),
    ("large_stack", 0),
    ("memory", 0),
    ("number", 0),
    ("types", 0),
    ("value", 0),
    ("equality", 0),
    ("convert", 0),
    ("unify", 0),
    ("operations", 0),
    ("functions", 0),
    ("budget", 0),
    ("eval_context", 0),
    ("static_analysis", 0),
    ("bodies", 0),
    // The planted bugs (feature `planted-bugs`): called from the
    // information model and the native syntax, so in the bottom layer,
    // taking plain data.
    ("planted", 0),
    // The syntaxes: JSON strings hold native templates.
    ("native", 1),
    ("json", 2),
    // The extensions, and the calling application above everything.
    ("typeexpr", 3),
    ("dynblock", 3),
    ("config", 4),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, l)| *l)
}

/// The top-level modules a source file names as `crate::MODULE`, outside
/// comments and outside its tests (a file's test module is its last item,
/// after `#[cfg(test)]`; tests may reach above the code they test).
fn uses(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in text.lines() {
        if line.trim() == "#[cfg(test)]" {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_stem().is_some_and(|s| s != "tests")
        {
            out.push(path);
        }
    }
}

#[test]
fn each_module_uses_only_its_layer_and_the_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    files(&src, &mut paths);
    let mut problems = Vec::new();
    for path in paths {
        let relative = path.strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap();
        let module = first.as_os_str().to_str().unwrap().trim_end_matches(".rs");
        if module == "lib" {
            continue;
        }
        let Some(own) = layer(module) else {
            problems.push(format!(
                "{}: module {module} has no layer",
                relative.display()
            ));
            continue;
        };
        for used in uses(&std::fs::read_to_string(&path).unwrap()) {
            let Some(theirs) = layer(&used) else {
                continue;
            };
            let extension_reading_a_syntax = module == "dynblock" && (1..=2).contains(&theirs);
            if theirs > own || extension_reading_a_syntax {
                problems.push(format!(
                    "{} (layer {own}) uses crate::{used} (layer {theirs})",
                    relative.display()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
