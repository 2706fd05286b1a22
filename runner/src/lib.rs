//! The hcl-conformance runner: loads the suite, runs its cases against the
//! reference interpreter (and, through the subprocess protocol, against any
//! implementation), compares results and reports.
//!
//! - [`suite`]: the case format (`suite/README.md`): loading and checking
//!   case files.
//! - [`requirements`]: the spec requirements cases cite, and coverage.
//! - [`outcome`]: what an implementation answered for a case.
//! - [`reference`]: the reference interpreter, in-process.
//! - [`compare`]: expected against actual, with the first difference and a
//!   readable diff.
//! - [`needs`]: what a case needs of an implementation (kinds, features).
//! - [`run`]: runs cases and gathers verdicts and summaries.
//! - [`known_failures`]: the lists of cases an implementation is known to
//!   fail.
//! - [`matrix`]: every configured implementation over the whole suite, as
//!   one table by area.

pub mod compare;
pub mod known_failures;
pub mod matrix;
pub mod needs;
pub mod outcome;
pub mod reference;
pub mod report;
pub mod requirements;
pub mod run;
pub mod subprocess;
pub mod suite;
pub mod wire;
