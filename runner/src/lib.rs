//! The hcl-conformance runner: loads the suite, runs its cases against the
//! reference interpreter (and, through the subprocess protocol, against any
//! implementation), compares results and reports.
//!
//! It builds on two crates of this workspace, named in `use` lines by their
//! own names: `hcl-conformance-format` (`runner/format/`: the case
//! kinds, values, the protocol's wire form, areas, documents, requirements,
//! loading the suite, and what a case needs) and `hcl-conformance-site`
//! (`runner/site/`: the documentation site, `show`, export and versions).
//!
//! Its own modules, from the bottom up (each uses only those above it):
//! - [`reference`]: the reference interpreter, in-process.
//! - [`compare`]: expected against actual, with the first difference and a
//!   diff.
//! - [`subprocess`]: an implementation behind the protocol.
//! - [`verdict`]: how a case fared, and judging an outcome.
//! - [`known_failures`]: the lists of cases an implementation is known to
//!   fail.
//! - [`run`]: runs cases: needs, the answer, the verdict, the list.
//! - [`report`]: the summary, and JSON, JUnit and Markdown reports.
//! - [`matrix`]: every configured implementation over the whole suite, as
//!   one table by area.
//! - [`fuzz`]: generative conformance: generated inputs, the reference's
//!   answers as expectations, disagreements shrunk and clustered.
//! - [`schemas`]: JSON Schemas of the protocol and of the JSON report.

pub mod compare;
pub mod fuzz;
pub mod known_failures;
pub mod matrix;
pub mod reference;
pub mod report;
pub mod run;
pub mod schemas;
pub mod subprocess;
pub mod verdict;
