//! The hcl-conformance runner: loads the suite, runs its cases against the
//! reference interpreter (and, through the subprocess protocol, against any
//! implementation), compares results and reports.
//!
//! From the bottom up (each module uses only those above it in this list):
//! - [`kinds`]: the case kinds, declared once for case files and requests.
//! - [`areas`]: the areas of the suite, from the spec's sections.
//! - [`values`]: values read by type, as case files write them.
//! - [`wire`]: the protocol (`runner/PROTOCOL.md`): requests, answers, and
//!   go-cty's encoding of types and values.
//! - [`requirements`]: the spec requirements cases cite, and coverage.
//! - [`suite`]: the case format (`suite/README.md`): loading and checking
//!   case files.
//! - [`reference`]: the reference interpreter, in-process.
//! - [`compare`]: expected against actual, with the first difference and a
//!   diff.
//! - [`subprocess`]: an implementation behind the protocol.
//! - [`needs`]: what a case needs of an implementation (kinds, features).
//! - [`known_failures`]: the lists of cases an implementation is known to
//!   fail.
//! - [`run`]: runs cases and judges them.
//! - [`report`]: the summary, and JSON, JUnit and Markdown reports.
//! - [`matrix`]: every configured implementation over the whole suite, as
//!   one table by area.
//! - [`schemas`]: JSON Schemas of the protocol and of the JSON report.

pub mod areas;
pub mod compare;
pub mod kinds;
pub mod known_failures;
pub mod matrix;
pub mod needs;
pub mod reference;
pub mod report;
pub mod requirements;
pub mod run;
pub mod schemas;
pub mod subprocess;
pub mod suite;
pub mod values;
pub mod wire;
