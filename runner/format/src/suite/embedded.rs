//! The suite embedded in the runner when it was built: the files of
//! `suite/` and `spec-notes/`, written by `runner/format/build.rs`.

include!(concat!(env!("OUT_DIR"), "/embedded_suite.rs"));
