//! The suite's case format: the data a case file holds, and loading it.
//!
//! The format is specified, with examples, in `suite/README.md`. A case's
//! input is the declaration of its kind (`crate::kinds`), with types and
//! values written as case files write them (`yaml`).

mod embedded;
mod file;
mod load;
pub mod nesting;
pub mod yaml;

use crate::values::ExpectedValue;
pub use load::{
    decode_text, find_suite_dir, load_embedded, load_file, load_suite, FileText, LoadError, Origin,
    Suite,
};
pub use yaml::{TypeText, TypedValue};

use crate::kinds::{Body, Input, StaticShape};
use hcl_interpreter::convert::Safety;
use hcl_interpreter::{Phase, Type};
use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::profiles::SPEC_PROFILE;

/// A case's input: its kind's declaration, as the case file writes it.
pub type CaseInput = Input<TypeText, TypedValue>;

/// One case file: a topic of the spec.
#[derive(Clone, Debug)]
pub struct SuiteFile {
    /// The path below `suite/`, without `.yaml`: `conversion/primitive`.
    pub id: String,
    pub path: PathBuf,
    /// The spec sections the file tests, as `document#anchor`.
    pub spec: Vec<String>,
    pub summary: String,
    pub cases: Vec<Case>,
}

/// One case: an input, and the result the spec prescribes for it.
#[derive(Clone, Debug)]
pub struct Case {
    /// `FILE::NAME`, unique in the suite.
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    /// The requirement ids the case checks.
    pub covers: Vec<String>,
    pub input: CaseInput,
    pub expect: Expectation,
    /// Why the spec leaves the result open, for cases that accept several.
    pub implementation_defined: Option<String>,
    /// Results that other profiles expect instead, by profile name, as the
    /// case file records them: a profile records a result only where it
    /// differs from the profile it follows (`crate::profiles`).
    pub profiles: BTreeMap<String, ProfileExpectation>,
    /// The area of the suite (`crate::areas`), from the file's first spec
    /// citation.
    pub area: &'static str,
    /// The line of the case in its file.
    pub line: usize,
}

impl Case {
    /// The expectation that `profile` holds the case to: its own recorded
    /// result, or that of the nearest profile it follows that records one,
    /// or the spec's.
    pub fn expectation_for(&self, profile: &str) -> &Expectation {
        self.recorded_for(profile)
            .map_or(&self.expect, |(_, p)| &p.expect)
    }

    /// The recorded result that `profile` holds the case to, with the name
    /// of the profile that records it (`profile` or one it follows); `None`
    /// when the case is held to the spec's expectation.
    pub fn recorded_for(&self, profile: &str) -> Option<(&'static str, &ProfileExpectation)> {
        crate::profiles::lineage(profile)
            .into_iter()
            .find_map(|name| self.profiles.get(name).map(|p| (name, p)))
    }

    /// Whether `profile` expects something the spec's expectation does not
    /// accept: a recorded result that is neither the spec's expectation nor
    /// one of the options of its `one-of` (an implementation that gives
    /// such a result fails the spec's expectation).
    pub fn differs_under(&self, profile: &str) -> bool {
        self.recorded_for(profile).is_some_and(|(_, p)| {
            let accepted = match &self.expect {
                Expectation::OneOf(options) => options.contains(&p.expect),
                spec => *spec == p.expect,
            };
            !accepted
        })
    }

    /// `suite/FILE.yaml:LINE`, for messages.
    pub fn location(&self) -> String {
        let file = self.id.split("::").next().unwrap_or(&self.id);
        format!("suite/{file}.yaml:{}", self.line)
    }
}

/// A profile's own expectation for a case, with the note explaining it.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(from = "yaml::RawProfileExpectation")]
pub struct ProfileExpectation {
    pub expect: Expectation,
    pub note: String,
}

/// An expected value of a type: `{ type: T, value: V }`, numbers possibly
/// approximate.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(try_from = "yaml::RawExpected")]
pub struct Expected {
    pub ty: Type,
    pub value: ExpectedValue,
}

/// An expected body: its attributes' values and its blocks, in order, and
/// under partial processing the remaining body.
pub type ExpectedBody = Body<Expected>;

/// The result a case expects.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(try_from = "yaml::RawExpectation")]
pub enum Expectation {
    /// A value of a type. `safety` is compared when given; `order_any` makes
    /// a list's or tuple's element order irrelevant.
    Value {
        ty: Type,
        value: ExpectedValue,
        safety: Option<Safety>,
        order_any: bool,
    },
    /// A type (unification, type expressions).
    Type(Type),
    /// A body (configuration files).
    Body(ExpectedBody),
    /// The result of a static analysis.
    Static(StaticShape),
    /// The answer to a yes/no question (type relations).
    Result(bool),
    /// A rejection, in a phase, optionally at a source range `L:C-L:C`.
    Error { phase: Phase, range: Option<String> },
    /// Any of several results is conforming.
    OneOf(Vec<Expectation>),
}

impl Expectation {
    /// Whether the expectation leaves something to the implementation, and
    /// so needs an `implementation-defined` reason.
    pub fn is_open(&self) -> bool {
        match self {
            Expectation::OneOf(_) => true,
            Expectation::Value {
                value, order_any, ..
            } => *order_any || value.has_approx(),
            Expectation::Body(body) => body.all_attributes().iter().any(|e| e.value.has_approx()),
            _ => false,
        }
    }

    /// Every `(type, value)` the expectation holds: a value, a body's
    /// attributes, those of every option of `one-of`.
    pub fn values(&self) -> Vec<(&Type, &ExpectedValue)> {
        match self {
            Expectation::Value { ty, value, .. } => vec![(ty, value)],
            Expectation::OneOf(options) => options.iter().flat_map(Expectation::values).collect(),
            Expectation::Body(body) => body
                .all_attributes()
                .into_iter()
                .map(|e| (&e.ty, &e.value))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The paths of the files built into the runner, from the repository's
/// root: `suite/...`, `spec-notes/...`.
pub fn embedded_paths() -> impl Iterator<Item = &'static str> {
    embedded::FILES.iter().map(|(path, _)| *path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{self, Input};
    use hcl_interpreter::Phase;

    fn error(phase: Phase) -> Expectation {
        Expectation::Error { phase, range: None }
    }

    /// A case expecting `expect`, recording `recorded` for hcl-v2.14.
    fn case(expect: Expectation, recorded: Expectation) -> Case {
        let note = "spec-notes/gaps/x.md".to_string();
        Case {
            id: "t::c".into(),
            name: "c".into(),
            description: None,
            covers: Vec::new(),
            input: Input::Expr(kinds::Expr {
                expr: "1".into(),
                variables: BTreeMap::new(),
                extensions: Vec::new(),
            }),
            expect,
            implementation_defined: None,
            profiles: [(
                "hcl-v2.14".to_string(),
                ProfileExpectation {
                    expect: recorded,
                    note,
                },
            )]
            .into(),
            area: "expressions",
            line: 1,
        }
    }

    #[test]
    fn a_profile_follows_the_nearest_profile_that_records_a_result() {
        let c = case(error(Phase::Parse), error(Phase::Eval));
        assert_eq!(c.expectation_for("hcl-v2.14"), &error(Phase::Eval));
        assert_eq!(c.expectation_for("hcl-v2.25"), &error(Phase::Eval));
        assert_eq!(
            c.recorded_for("hcl-v2.25").map(|(p, _)| p),
            Some("hcl-v2.14")
        );
        assert_eq!(c.expectation_for("spec"), &error(Phase::Parse));
        assert!(c.recorded_for("spec").is_none());
    }

    #[test]
    fn a_recorded_result_the_spec_accepts_is_no_difference() {
        let one_of = Expectation::OneOf(vec![error(Phase::Eval), Expectation::Result(true)]);
        assert!(!case(one_of.clone(), error(Phase::Eval)).differs_under("hcl-v2.14"));
        assert!(case(one_of, error(Phase::Parse)).differs_under("hcl-v2.25"));
        assert!(case(error(Phase::Parse), error(Phase::Eval)).differs_under("hcl-v2.14"));
        assert!(!case(error(Phase::Eval), error(Phase::Eval)).differs_under("hcl-v2.14"));
    }
}
