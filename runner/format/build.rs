//! Embeds the suite in the runner, so that an installed `hcl-conformance`
//! runs it from any folder (`runner/format/src/suite/embedded.rs`).
//!
//! Writes `$OUT_DIR/embedded_suite.rs`: every text file of the repository's
//! `suite/` folder (case files, requirements, overrides, finished areas,
//! spec headings, version manifests) and every note of `spec-notes/`, as
//! `(path from the repository's root, text)` pairs, in path order, each
//! through `include_str!` so that the compiler reads the file itself. Cargo
//! runs the script again when anything in either folder changes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The folders embedded, and the file name endings taken from each.
const EMBEDDED: &[(&str, &[&str])] = &[
    ("suite", &["yaml", "yml", "jsonl", "txt", "md"]),
    ("spec-notes", &["md"]),
];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let root = manifest_dir.join("../..");
    let mut entries = Vec::new();
    for (folder, endings) in EMBEDDED {
        let dir = root.join(folder);
        println!("cargo:rerun-if-changed={}", dir.display());
        if !dir
            .join(if *folder == "suite" {
                "requirements.jsonl"
            } else {
                "README.md"
            })
            .is_file()
        {
            panic!(
                "{}: the folder is missing: the runner embeds the suite, so it is built from a checkout \
                 of the hcl-conformance repository (cargo install --path runner, or --git URL)",
                dir.display()
            );
        }
        for entry in walkdir::WalkDir::new(&dir).sort_by_file_name() {
            let entry = entry.unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
            let path = entry.path();
            let wanted = path
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| endings.contains(&x));
            if entry.file_type().is_file() && wanted {
                entries.push((
                    relative(path, &root),
                    path.canonicalize().unwrap_or(path.into()),
                ));
            }
        }
    }
    entries.sort();
    let mut code = String::from(
        "/// The embedded files: (path from the repository's root, text), in path order.\n\
         pub static FILES: &[(&str, &str)] = &[\n",
    );
    for (name, path) in &entries {
        let _ = writeln!(
            code,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    std::fs::write(out.join("embedded_suite.rs"), code)
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}

/// `suite/conversion/primitive.yaml`: the path below `root`, with `/`.
fn relative(path: &Path, root: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<_> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    parts.join("/")
}
