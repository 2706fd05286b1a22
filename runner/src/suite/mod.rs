//! The suite's case format: the data a case file holds, and loading it.
//!
//! The format is specified, with examples, in `suite/README.md`.

mod load;
mod yaml;

pub use load::{find_suite_dir, load_file, load_suite, LoadError, Suite};
pub use yaml::{read_typed_value, ExpectedValue};

use hcl_interpreter::bodies::BodySpec;
use hcl_interpreter::convert::Safety;
use hcl_interpreter::operations::Operation;
use hcl_interpreter::static_analysis::Analysis;
use hcl_interpreter::{Phase, Type, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The profile whose expectations are the spec's.
pub const SPEC_PROFILE: &str = "spec";
/// The profiles a case may record a different result for.
pub const KNOWN_PROFILES: &[&str] = &["hcl-v2.14"];

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
    pub input: Input,
    pub expect: Expectation,
    /// Why the spec leaves the result open, for cases that accept several.
    pub implementation_defined: Option<String>,
    /// Results that other profiles expect instead, by profile name.
    pub profiles: BTreeMap<String, ProfileExpectation>,
    /// The line of the case in its file.
    pub line: usize,
}

impl Case {
    /// The expectation that `profile` holds the case to.
    pub fn expectation_for(&self, profile: &str) -> &Expectation {
        self.profiles
            .get(profile)
            .map_or(&self.expect, |p| &p.expect)
    }

    /// The area of the suite the case belongs to: its first folder.
    pub fn area(&self) -> &str {
        self.id.split('/').next().unwrap_or(&self.id)
    }
}

/// A profile's own expectation for a case, with the note explaining it.
#[derive(Clone, Debug)]
pub struct ProfileExpectation {
    pub expect: Expectation,
    pub note: String,
}

/// What the implementation is asked to do: one variant per case kind.
#[derive(Clone, Debug)]
pub enum Input {
    /// Convert a value to a type, unsafe conversions allowed.
    Convert { value: Value, to: Type },
    /// Unify a list of types.
    Unify { types: Vec<Type> },
    /// Are two types identical?
    Identical { types: [Type; 2] },
    /// Does a type match a type specification?
    Matches { ty: Type, spec: Type },
    /// Apply an operation to values.
    Operation { op: Operation, operands: Vec<Value> },
    /// Evaluate a native-syntax expression.
    Expr {
        expr: String,
        variables: BTreeMap<String, Value>,
    },
    /// Evaluate a standalone template (template file mode).
    Template {
        template: String,
        variables: BTreeMap<String, Value>,
    },
    /// Apply a static analysis to an expression.
    Static {
        syntax: Syntax,
        expr: String,
        analysis: Analysis,
    },
    /// Parse a configuration file and evaluate its attributes.
    Config {
        syntax: Syntax,
        config: String,
        variables: BTreeMap<String, Value>,
        /// Extensions applied to the body (`dynblock`).
        extensions: Vec<String>,
        /// How the bodies are processed; `None`: the default (suite/README.md).
        schema: Option<BodySpec>,
        /// Evaluate in literal-only mode instead of full expression mode.
        literal_only: bool,
    },
}

/// The concrete syntax of a configuration file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Native,
    Json,
}

impl Syntax {
    pub fn name(self) -> &'static str {
        match self {
            Syntax::Native => "native",
            Syntax::Json => "json",
        }
    }
}

impl Input {
    /// The case kind, as the suite names it.
    pub fn kind(&self) -> &'static str {
        match self {
            Input::Convert { .. } => "convert",
            Input::Unify { .. } => "unify",
            Input::Identical { .. } => "identical",
            Input::Matches { .. } => "matches",
            Input::Operation { .. } => "operation",
            Input::Expr { .. } => "expr",
            Input::Template { .. } => "template",
            Input::Config { .. } => "config",
            Input::Static { .. } => "static",
        }
    }
}

/// The kinds a case may have, and those reserved for later versions.
pub const CASE_KINDS: &[&str] = &[
    "convert",
    "unify",
    "identical",
    "matches",
    "operation",
    "expr",
    "template",
    "config",
    "static",
];
pub const RESERVED_KINDS: &[&str] = &[];
/// The extensions a `config` case may ask for.
pub const EXTENSIONS: &[&str] = &["dynblock"];

/// The result of a static analysis, with every expression as its exact
/// source text and every traversal step as `name`, `.attr` or `[KEY]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StaticShape {
    List(Vec<String>),
    Map(Vec<(String, String)>),
    Call {
        name: String,
        arguments: Vec<String>,
    },
    Traversal(Vec<String>),
}

/// An expected body: its attributes' values and its blocks, in order, and
/// under partial processing the remaining body.
#[derive(Clone, Debug, Default)]
pub struct ExpectedBody {
    pub attributes: BTreeMap<String, (Type, ExpectedValue)>,
    pub blocks: Vec<ExpectedBlock>,
    pub remain: Option<Box<ExpectedBody>>,
}

/// An expected block: type, labels and body.
#[derive(Clone, Debug)]
pub struct ExpectedBlock {
    pub type_name: String,
    pub labels: Vec<String>,
    pub body: ExpectedBody,
}

impl ExpectedBody {
    fn has_approx(&self) -> bool {
        self.attributes.values().any(|(_, v)| v.has_approx())
            || self.blocks.iter().any(|b| b.body.has_approx())
            || self.remain.as_ref().is_some_and(|r| r.has_approx())
    }
}

/// The result a case expects.
#[derive(Clone, Debug)]
pub enum Expectation {
    /// A value of a type. `safety` is compared when given; `order_any` makes
    /// a list's or tuple's element order irrelevant.
    Value {
        ty: Type,
        value: ExpectedValue,
        safety: Option<Safety>,
        order_any: bool,
    },
    /// A type (unification).
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
            Expectation::Body(body) => body.has_approx(),
            _ => false,
        }
    }
}
