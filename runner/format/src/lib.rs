//! The HCL conformance suite's case format and protocol, each declared once:
//! what a case file holds, how it is loaded, how its input and results cross
//! the wire to an implementation, and what a case needs of one.
//!
//! From the bottom up (each module uses only those above it in this list):
//! - [`kinds`]: the case kinds, declared once for case files and requests.
//! - [`areas`]: the areas of the suite, from the spec's sections.
//! - [`documents`]: the documents that requirements and cases cite.
//! - [`profiles`]: the profiles, one row per version of hashicorp/hcl.
//! - [`values`]: values read by type, as case files write them.
//! - [`envelope`]: the protocol's JSON read strictly: members named twice,
//!   the members each kind's request has.
//! - [`decoding`]: the protocol's types and values read from JSON straight
//!   into the interpreter's, paid for from an evaluation budget.
//! - [`wire`]: the protocol (`runner/PROTOCOL.md`): requests, answers, and
//!   go-cty's encoding of types and values.
//! - [`requirements`]: the spec requirements cases cite, and coverage.
//! - [`suite`]: the case format (`suite/README.md`): loading and checking
//!   case files, and the suite embedded at build time.
//! - [`needs`]: what a case needs of an implementation (kinds, features).
//! - [`terminal`]: text from outside as a terminal may show it (control
//!   characters escaped, long text cut), for the runner and `show`.

pub mod areas;
pub mod decoding;
pub mod documents;
pub mod envelope;
pub mod kinds;
pub mod needs;
pub mod profiles;
pub mod requirements;
pub mod suite;
pub mod terminal;
pub mod values;
pub mod wire;
