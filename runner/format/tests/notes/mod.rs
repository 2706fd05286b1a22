//! What the tests of the spec-notes' bookkeeping share (`spec_citations`,
//! `decided_by`): reading the notes.

use std::collections::BTreeMap;
use std::path::Path;

/// The notes under spec-notes/gaps/, by path relative to the repository root
/// (`spec-notes/gaps/numbers.md`, as a profile's `note:` names it), with
/// their text.
pub fn gap_notes(root: &Path) -> BTreeMap<String, String> {
    walkdir::WalkDir::new(root.join("spec-notes/gaps"))
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
        .map(|e| {
            let relative = e.path().strip_prefix(root).unwrap_or(e.path());
            let text = std::fs::read_to_string(e.path()).unwrap();
            (relative.display().to_string(), text)
        })
        .collect()
}
