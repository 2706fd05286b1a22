//! The HCL conformance suite for readers and for other tools: the
//! documentation site and one case in the terminal (`hcl-conformance docs`,
//! `show`), every case as a JSON document (`export`), and the suite's
//! versions and changes (`changes`, README.md § Versions).
//!
//! It reads the suite through `hcl-conformance-format`, whose modules it
//! names as its own below; it runs nothing.
//! - [`export`]: the suite as data: every case as a JSON document.
//! - [`versions`]: the suite's versions: manifests, changes, the changelog.
//! - [`docs`]: the site, and `show`.

pub mod docs;
pub mod export;
pub mod versions;
