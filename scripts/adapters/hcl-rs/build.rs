//! Reads the exact versions of hcl-rs and the two crates it parses with
//! (hcl-edit, hcl-primitives) from the committed Cargo.lock, so the hello
//! answer names the versions that were really built, never a copy that can
//! drift from the lock file.

use std::fs;

/// The crates whose versions the hello answer reports.
const CRATES: [(&str, &str); 3] = [
    ("hcl-rs", "HCL_RS_VERSION"),
    ("hcl-edit", "HCL_EDIT_VERSION"),
    ("hcl-primitives", "HCL_PRIMITIVES_VERSION"),
];

fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    let lock = fs::read_to_string("Cargo.lock").unwrap_or_default();
    for (name, var) in CRATES {
        let version = locked_version(&lock, name).unwrap_or_else(|| "unknown".to_string());
        println!("cargo:rustc-env={var}={version}");
    }
}

/// The `version` line that follows `name = "<name>"` in a Cargo.lock
/// `[[package]]` entry.
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted {
            let next = lines.next()?.trim();
            let version = next.strip_prefix("version = \"")?.strip_suffix('"')?;
            return Some(version.to_string());
        }
    }
    None
}
