//! Comparing an implementation's outcome with a case's expectation.
//!
//! A mismatch names the first difference by its path (`.a[2]: expected
//! string "x", got number 1`), and shows expected against actual as a diff.

use crate::outcome::{Body, Outcome};
use crate::suite::{Expectation, ExpectedBody, ExpectedValue, StaticShape};
use hcl_interpreter::number::Number;
use hcl_interpreter::{Phase, Type, Value};
use std::fmt::Write as _;

/// How an outcome differs from an expectation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The first difference, with its path.
    pub first_difference: String,
    /// The expectation, rendered.
    pub expected: String,
    /// The outcome, rendered the same way.
    pub actual: String,
}

impl Mismatch {
    /// The first difference and a unified diff of the two renderings.
    pub fn report(&self) -> String {
        let mut out = format!("first difference: {}\n", self.first_difference);
        let diff = similar::TextDiff::from_lines(&self.expected, &self.actual);
        let _ = write!(
            out,
            "{}",
            diff.unified_diff()
                .context_radius(3)
                .header("expected", "actual")
        );
        out
    }
}

/// What the comparison looks at, by the implementation's features
/// (`runner/PROTOCOL.md` § What the runner does with answers). A case is
/// graded only once its needs are met (`crate::needs`), so what is left
/// here is the weaker grading of what an implementation can say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grading {
    /// Value types are compared (`exact-types`); without it tuples and
    /// lists are sequences, objects and maps mappings, null equals null.
    pub exact_types: bool,
    /// A conversion's safety is compared (`safety`).
    pub safety: bool,
    /// Error ranges are compared (`ranges`).
    pub ranges: bool,
    /// Only whether the source parses is compared (`parse-only`, for the
    /// kinds `expr`, `template` and `config`).
    pub parse_only: bool,
    /// A body attribute may be answered `unevaluated`
    /// (`unevaluated-values`): then only its presence is compared.
    pub unevaluated_values: bool,
}

impl Grading {
    /// Everything compared: the reference interpreter in-process.
    pub const FULL: Grading = Grading {
        exact_types: true,
        safety: true,
        ranges: true,
        parse_only: false,
        unevaluated_values: false,
    };
}

/// Checks an outcome against an expectation, comparing everything.
pub fn check(expect: &Expectation, outcome: &Outcome) -> Result<(), Mismatch> {
    check_with(expect, outcome, &Grading::FULL)
}

/// Checks an outcome against an expectation, comparing what `grading`
/// says.
pub fn check_with(
    expect: &Expectation,
    outcome: &Outcome,
    grading: &Grading,
) -> Result<(), Mismatch> {
    if grading.parse_only {
        return check_parsed(expect, outcome, grading);
    }
    let expect = &weaken(expect, grading);
    let first_difference = match first_difference(expect, outcome, grading) {
        None => return Ok(()),
        Some(difference) => difference,
    };
    Err(Mismatch {
        first_difference,
        expected: render_expectation(expect),
        actual: render_outcome(outcome),
    })
}

/// What a parse-only implementation must answer: that the source parses,
/// or a `parse` error (at a range, when it reports ranges and the case
/// pins one).
#[derive(Clone, Debug, PartialEq, Eq)]
enum ParseExpectation {
    Parsed,
    ParseError(Option<String>),
}

/// The parse-only answers an expectation accepts: a `parse` error stays
/// one; any other result, errors of later phases included, means the
/// source parses.
fn parse_expectations(expect: &Expectation, grading: &Grading, out: &mut Vec<ParseExpectation>) {
    let accepted = match expect {
        Expectation::OneOf(options) => {
            for option in options {
                parse_expectations(option, grading, out);
            }
            return;
        }
        Expectation::Error {
            phase: Phase::Parse,
            range,
        } => ParseExpectation::ParseError(range.clone().filter(|_| grading.ranges)),
        _ => ParseExpectation::Parsed,
    };
    if !out.contains(&accepted) {
        out.push(accepted);
    }
}

fn render_parse_expectation(expect: &ParseExpectation) -> String {
    match expect {
        ParseExpectation::Parsed => "parsed: true\n".into(),
        ParseExpectation::ParseError(None) => "error: parse\n".into(),
        ParseExpectation::ParseError(Some(range)) => format!("error: parse\nrange: {range}\n"),
    }
}

fn parse_difference(expect: &ParseExpectation, outcome: &Outcome) -> Option<String> {
    match (expect, outcome) {
        (ParseExpectation::Parsed, Outcome::Parsed) => None,
        (
            ParseExpectation::ParseError(range),
            outcome @ Outcome::Error {
                phase: Phase::Parse,
                ..
            },
        ) => {
            let range = range.as_ref()?;
            let ranges = outcome.error_ranges();
            let shown: Vec<String> = ranges.iter().map(show_range).collect();
            if ranges.is_empty() || shown.contains(range) {
                None
            } else {
                Some(format!(
                    "expected a parse error at {range}, got one at {}",
                    shown.join(", ")
                ))
            }
        }
        (ParseExpectation::Parsed, _) => Some(format!(
            "expected the source to parse (`parsed: true`), got {}",
            describe_outcome(outcome)
        )),
        (ParseExpectation::ParseError(_), _) => Some(format!(
            "expected an error in phase parse, got {}",
            describe_outcome(outcome)
        )),
    }
}

/// Grades a parse-only implementation's answer.
fn check_parsed(
    expect: &Expectation,
    outcome: &Outcome,
    grading: &Grading,
) -> Result<(), Mismatch> {
    let mut accepted = Vec::new();
    parse_expectations(expect, grading, &mut accepted);
    let mut misses = Vec::new();
    for option in &accepted {
        match parse_difference(option, outcome) {
            None => return Ok(()),
            Some(miss) => misses.push(miss),
        }
    }
    Err(Mismatch {
        first_difference: if misses.len() == 1 {
            misses.join("")
        } else {
            format!("none of the accepted results: {}", misses.join("; "))
        },
        expected: accepted.iter().map(render_parse_expectation).collect(),
        actual: render_outcome(outcome),
    })
}

/// The expectation with what `grading` does not compare taken out: safety
/// and error ranges.
fn weaken(expect: &Expectation, grading: &Grading) -> Expectation {
    match expect {
        Expectation::OneOf(options) => {
            Expectation::OneOf(options.iter().map(|o| weaken(o, grading)).collect())
        }
        Expectation::Error { phase, range } => Expectation::Error {
            phase: *phase,
            range: range.clone().filter(|_| grading.ranges),
        },
        Expectation::Value {
            ty,
            value,
            safety,
            order_any,
        } => Expectation::Value {
            ty: ty.clone(),
            value: value.clone(),
            safety: safety.filter(|_| grading.safety),
            order_any: *order_any,
        },
        other => other.clone(),
    }
}

fn first_difference(expect: &Expectation, outcome: &Outcome, grading: &Grading) -> Option<String> {
    match (expect, outcome) {
        (Expectation::OneOf(options), _) => {
            let misses: Vec<String> = options
                .iter()
                .map(|option| first_difference(option, outcome, grading))
                .collect::<Option<_>>()?;
            Some(format!(
                "none of the accepted results: {}",
                misses.join("; ")
            ))
        }
        (
            Expectation::Value {
                ty,
                value,
                safety,
                order_any,
            },
            Outcome::Value {
                value: actual,
                safety: actual_safety,
            },
        ) => {
            let actual_type = actual.ty();
            if grading.exact_types && actual_type != *ty {
                return Some(format!(
                    "expected a value of type {ty}, got one of type {actual_type}"
                ));
            }
            if let Some(difference) = compare_value(value, actual, "", *order_any) {
                return Some(difference);
            }
            match (safety, actual_safety) {
                (Some(expected), Some(got)) if expected != got => Some(format!(
                    "expected a {} conversion, got an {} one",
                    expected.name(),
                    got.name()
                )),
                (Some(expected), None) => Some(format!(
                    "expected a {} conversion; the implementation reported no safety",
                    expected.name()
                )),
                _ => None,
            }
        }
        (Expectation::Body(expected), Outcome::Body(actual)) => {
            compare_body(expected, actual, "body", grading)
        }
        (Expectation::Static(expected), Outcome::Static(actual)) if expected == actual => None,
        (Expectation::Static(expected), Outcome::Static(actual)) => Some(format!(
            "expected the static result {}, got {}",
            show_static(expected),
            show_static(actual)
        )),
        (Expectation::Type(ty), Outcome::Type(actual)) if ty == actual => None,
        (Expectation::Type(ty), Outcome::Type(actual)) => {
            Some(format!("expected type {ty}, got type {actual}"))
        }
        (Expectation::Result(b), Outcome::Result(actual)) if b == actual => None,
        (Expectation::Result(b), Outcome::Result(actual)) => {
            Some(format!("expected {b}, got {actual}"))
        }
        (Expectation::Error { phase, range }, outcome @ Outcome::Error { phase: got, .. }) => {
            let ranges = outcome.error_ranges();
            if phase != got {
                return Some(format!(
                    "expected an error in phase {phase}, got one in phase {got}"
                ));
            }
            let range = range.as_ref()?;
            if ranges.is_empty() {
                return None;
            }
            let shown: Vec<String> = ranges.iter().map(show_range).collect();
            if shown.contains(range) {
                None
            } else {
                Some(format!(
                    "expected an error at {range}, got one at {}",
                    shown.join(", ")
                ))
            }
        }
        (expect, Outcome::Unsupported(why)) => Some(format!(
            "expected {}, but the implementation does not support the case: {why}",
            describe_expectation(expect)
        )),
        (expect, outcome @ Outcome::Error { .. }) => Some(format!(
            "expected {}, got {}",
            describe_expectation(expect),
            describe_outcome(outcome)
        )),
        (expect, outcome) => Some(format!(
            "expected {}, got {}",
            describe_expectation(expect),
            describe_outcome(outcome)
        )),
    }
}

/// Compares an expected body with an actual one: the same attributes with
/// the same values, and the same blocks in the same order. An attribute
/// the implementation did not evaluate counts by its presence alone, when
/// the implementation declares `unevaluated-values`.
fn compare_body(
    expected: &ExpectedBody,
    actual: &Body,
    path: &str,
    grading: &Grading,
) -> Option<String> {
    let present =
        |k: &String| actual.attributes.contains_key(k) || actual.unevaluated.contains_key(k);
    if let Some(missing) = expected.attributes.keys().find(|k| !present(k)) {
        return Some(format!(
            "{path}: expected the attribute {missing:?}, which is missing"
        ));
    }
    if let Some(extra) = actual
        .attributes
        .keys()
        .chain(actual.unevaluated.keys())
        .find(|k| !expected.attributes.contains_key(*k))
    {
        return Some(format!("{path}: got the unexpected attribute {extra:?}"));
    }
    for (name, (ty, value)) in &expected.attributes {
        let at = format!("{path}.{name}");
        let Some(got) = actual.attributes.get(name) else {
            if grading.unevaluated_values {
                continue;
            }
            let why = actual.unevaluated.get(name).map_or("", String::as_str);
            return Some(format!(
                "{at}: the implementation did not evaluate the attribute ({why}) but does not declare the feature unevaluated-values"
            ));
        };
        let got_type = got.ty();
        if grading.exact_types && got_type != *ty {
            return Some(format!(
                "{at}: expected a value of type {ty}, got one of type {got_type}"
            ));
        }
        if let Some(difference) = compare_value(value, got, &at, false) {
            return Some(difference);
        }
    }
    if expected.blocks.len() != actual.blocks.len() {
        return Some(format!(
            "{path}: expected {} blocks, got {}",
            expected.blocks.len(),
            actual.blocks.len()
        ));
    }
    for (i, (e, a)) in expected.blocks.iter().zip(&actual.blocks).enumerate() {
        let at = format!("{path}.blocks[{i}]");
        if e.type_name != a.type_name {
            return Some(format!(
                "{at}: expected a block of type {:?}, got {:?}",
                e.type_name, a.type_name
            ));
        }
        if e.labels != a.labels {
            return Some(format!(
                "{at}: expected the labels {:?}, got {:?}",
                e.labels, a.labels
            ));
        }
        if let Some(difference) = compare_body(&e.body, &a.body, &format!("{at}.body"), grading) {
            return Some(difference);
        }
    }
    match (&expected.remain, &actual.remain) {
        (None, None) => None,
        (Some(_), None) => Some(format!(
            "{path}: expected a remaining body (partial processing), got none"
        )),
        (None, Some(_)) => Some(format!(
            "{path}: got a remaining body, but the case processes the body exhaustively"
        )),
        (Some(e), Some(a)) => compare_body(e, a, &format!("{path}.remain"), grading),
    }
}

fn show_static(shape: &StaticShape) -> String {
    render_static(shape).trim_end().replace('\n', " ")
}

/// A static result, one expression a line.
fn render_static(shape: &StaticShape) -> String {
    let mut out = String::new();
    match shape {
        StaticShape::List(items) => {
            out.push_str("list:\n");
            for item in items {
                let _ = writeln!(out, "  - {}", quote(item));
            }
        }
        StaticShape::Map(pairs) => {
            out.push_str("map:\n");
            for (key, value) in pairs {
                let _ = writeln!(out, "  - {} => {}", quote(key), quote(value));
            }
        }
        StaticShape::Call { name, arguments } => {
            let _ = writeln!(out, "call: {}", quote(name));
            for argument in arguments {
                let _ = writeln!(out, "  - {}", quote(argument));
            }
        }
        StaticShape::Traversal(steps) => {
            out.push_str("traversal:\n");
            for step in steps {
                let _ = writeln!(out, "  - {}", quote(step));
            }
        }
    }
    out
}

fn show_range(range: &hcl_interpreter::diagnostic::Range) -> String {
    format!(
        "{}:{}-{}:{}",
        range.start.line, range.start.column, range.end.line, range.end.column
    )
}

fn describe_expectation(expect: &Expectation) -> String {
    match expect {
        Expectation::Value { ty, .. } => format!("a value of type {ty}"),
        Expectation::Type(ty) => format!("the type {ty}"),
        Expectation::Body(_) => "a body".into(),
        Expectation::Static(shape) => format!("the static result {}", show_static(shape)),
        Expectation::Result(b) => format!("the answer {b}"),
        Expectation::Error { phase, .. } => format!("an error in phase {phase}"),
        Expectation::OneOf(_) => "one of several results".into(),
    }
}

fn describe_outcome(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Value { value, .. } => format!("a value of type {}", value.ty()),
        Outcome::Type(ty) => format!("the type {ty}"),
        Outcome::Body(_) => "a body".into(),
        Outcome::Static(shape) => format!("the static result {}", show_static(shape)),
        Outcome::Result(b) => format!("the answer {b}"),
        Outcome::Parsed => "`parsed: true`".into(),
        Outcome::Error { phase, diagnostics } => match diagnostics.first() {
            Some(first) if !first.summary.is_empty() => format!(
                "an error in phase {phase} ({})",
                crate::run::first_line(&first.summary)
            ),
            _ => format!("an error in phase {phase}"),
        },
        Outcome::Unsupported(why) => format!("unsupported ({why})"),
        Outcome::Crashed(why) => format!("a crash ({why})"),
        Outcome::TimedOut(why) => format!("no answer in time ({why})"),
        Outcome::Broken(why) => format!("a broken answer ({why})"),
    }
}

/// Compares an expected value with an actual one of the same type.
fn compare_value(
    expected: &ExpectedValue,
    actual: &Value,
    path: &str,
    order_any: bool,
) -> Option<String> {
    let at = |what: String| {
        Some(if path.is_empty() {
            what
        } else {
            format!("{path}: {what}")
        })
    };
    match (expected, actual) {
        (ExpectedValue::Unknown, Value::Unknown(_)) | (ExpectedValue::Null, Value::Null(_)) => None,
        (ExpectedValue::Unknown, other) => at(format!(
            "expected an unknown value, got {}",
            show_scalar(other)
        )),
        (ExpectedValue::Null, other) => at(format!("expected null, got {}", show_scalar(other))),
        (_, Value::Unknown(_)) => at(format!(
            "expected {}, got an unknown value",
            show_expected_scalar(expected)
        )),
        (_, Value::Null(_)) => at(format!(
            "expected {}, got null",
            show_expected_scalar(expected)
        )),
        (ExpectedValue::String(e), Value::String(a)) if e == a => None,
        (ExpectedValue::Number(e), Value::Number(a)) if e == a => None,
        (ExpectedValue::Bool(e), Value::Bool(a)) if e == a => None,
        (
            ExpectedValue::Approx {
                value, tolerance, ..
            },
            Value::Number(a),
        ) => {
            let within = a
                .subtract(value)
                .map(|d| if d.signum() < 0 { d.negate() } else { d })
                .is_ok_and(|d| d <= *tolerance);
            if within {
                None
            } else {
                at(format!(
                    "expected {}, got {} (more than {} away)",
                    show_expected_scalar(expected),
                    a,
                    tolerance
                ))
            }
        }
        (ExpectedValue::Sequence(items), Value::Set(_, elements)) => {
            compare_unordered(items, elements, path)
        }
        (ExpectedValue::Sequence(items), Value::List(_, elements) | Value::Tuple(elements)) => {
            if order_any {
                return compare_unordered(items, elements, path);
            }
            if items.len() != elements.len() {
                return at(format!(
                    "expected {} elements, got {}",
                    items.len(),
                    elements.len()
                ));
            }
            items
                .iter()
                .zip(elements)
                .enumerate()
                .find_map(|(i, (e, a))| compare_value(e, a, &format!("{path}[{i}]"), false))
        }
        (ExpectedValue::Mapping(entries), Value::Map(_, actual) | Value::Object(actual)) => {
            if let Some(missing) = entries.keys().find(|k| !actual.contains_key(*k)) {
                return at(format!("expected the key {missing:?}, which is missing"));
            }
            if let Some(extra) = actual.keys().find(|k| !entries.contains_key(*k)) {
                return at(format!("got the unexpected key {extra:?}"));
            }
            entries
                .iter()
                .find_map(|(k, e)| compare_value(e, &actual[k], &format!("{path}[{k:?}]"), false))
        }
        (expected, actual) => at(format!(
            "expected {}, got {}",
            show_expected_scalar(expected),
            show_scalar(actual)
        )),
    }
}

/// Compares as multisets: every expected element matches a distinct actual
/// element.
fn compare_unordered(items: &[ExpectedValue], elements: &[Value], path: &str) -> Option<String> {
    if items.len() != elements.len() {
        return Some(format!(
            "{}expected {} elements, got {}",
            if path.is_empty() {
                String::new()
            } else {
                format!("{path}: ")
            },
            items.len(),
            elements.len()
        ));
    }
    let mut used = vec![false; elements.len()];
    for (i, item) in items.iter().enumerate() {
        let found = elements
            .iter()
            .enumerate()
            .find(|(j, a)| !used[*j] && compare_value(item, a, "", false).is_none());
        match found {
            Some((j, _)) => used[j] = true,
            None => {
                return Some(format!(
                    "{path}[{i}]: expected element {} is not among the actual elements (compared without order)",
                    render_expected_inline(item)
                ))
            }
        }
    }
    None
}

fn show_scalar(v: &Value) -> String {
    match v {
        Value::String(s) => format!("string {s:?}"),
        Value::Number(n) => format!("number {n}"),
        Value::Bool(b) => format!("bool {b}"),
        Value::Null(ty) => format!("null of {ty}"),
        Value::Unknown(ty) => format!("unknown {ty}"),
        other => format!("a {}", other.ty()),
    }
}

fn show_expected_scalar(e: &ExpectedValue) -> String {
    match e {
        ExpectedValue::String(s) => format!("string {s:?}"),
        ExpectedValue::Number(n) => format!("number {n}"),
        ExpectedValue::Approx { text, .. } => format!("number ~{text}"),
        ExpectedValue::Bool(b) => format!("bool {b}"),
        ExpectedValue::Null => "null".into(),
        ExpectedValue::Unknown => "an unknown value".into(),
        ExpectedValue::Sequence(_) => "a sequence".into(),
        ExpectedValue::Mapping(_) => "a mapping".into(),
    }
}

/// A rendering tree shared by expected and actual values, so that equal
/// values render identically and a diff shows only real differences.
enum Shown {
    Scalar(String),
    Sequence(Vec<Shown>),
    Mapping(Vec<(String, Shown)>),
}

fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| format!("{s:?}"))
}

fn number_text(n: &Number) -> String {
    n.to_decimal_string()
}

fn shown_value(v: &Value) -> Shown {
    match v {
        Value::Null(_) => Shown::Scalar("null".into()),
        Value::Unknown(_) => Shown::Scalar("!unknown".into()),
        Value::String(s) => Shown::Scalar(quote(s)),
        Value::Number(n) => Shown::Scalar(number_text(n)),
        Value::Bool(b) => Shown::Scalar(b.to_string()),
        Value::List(_, e) | Value::Set(_, e) | Value::Tuple(e) => {
            Shown::Sequence(e.iter().map(shown_value).collect())
        }
        Value::Map(_, e) | Value::Object(e) => {
            Shown::Mapping(e.iter().map(|(k, v)| (quote(k), shown_value(v))).collect())
        }
    }
}

fn shown_expected(e: &ExpectedValue) -> Shown {
    match e {
        ExpectedValue::Null => Shown::Scalar("null".into()),
        ExpectedValue::Unknown => Shown::Scalar("!unknown".into()),
        ExpectedValue::String(s) => Shown::Scalar(quote(s)),
        ExpectedValue::Number(n) => Shown::Scalar(number_text(n)),
        ExpectedValue::Approx { text, .. } => Shown::Scalar(format!("!approx {text}")),
        ExpectedValue::Bool(b) => Shown::Scalar(b.to_string()),
        ExpectedValue::Sequence(items) => {
            Shown::Sequence(items.iter().map(shown_expected).collect())
        }
        ExpectedValue::Mapping(entries) => Shown::Mapping(
            entries
                .iter()
                .map(|(k, v)| (quote(k), shown_expected(v)))
                .collect(),
        ),
    }
}

fn render_shown(shown: &Shown, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent);
    match shown {
        Shown::Scalar(s) => {
            let _ = writeln!(out, " {s}");
        }
        Shown::Sequence(items) if items.is_empty() => {
            let _ = writeln!(out, " []");
        }
        Shown::Mapping(entries) if entries.is_empty() => {
            let _ = writeln!(out, " {{}}");
        }
        Shown::Sequence(items) => {
            out.push('\n');
            for item in items {
                let _ = write!(out, "{pad}-");
                render_shown(item, indent + 1, out);
            }
        }
        Shown::Mapping(entries) => {
            out.push('\n');
            for (k, v) in entries {
                let _ = write!(out, "{pad}{k}:");
                render_shown(v, indent + 1, out);
            }
        }
    }
}

fn render_typed(ty: &Type, shown: &Shown) -> String {
    let mut out = format!("type: {ty}\nvalue:");
    render_shown(shown, 1, &mut out);
    out
}

fn render_expected_inline(e: &ExpectedValue) -> String {
    let mut out = String::new();
    render_shown(&shown_expected(e), 0, &mut out);
    out.trim().replace('\n', " ")
}

/// Renders an expectation in the same shape as [`render_outcome`].
pub fn render_expectation(expect: &Expectation) -> String {
    match expect {
        Expectation::Value {
            ty, value, safety, ..
        } => {
            let mut out = render_typed(ty, &shown_expected(value));
            if let Some(safety) = safety {
                let _ = writeln!(out, "safety: {}", safety.name());
            }
            out
        }
        Expectation::Type(ty) => format!("type: {ty}\n"),
        Expectation::Body(body) => {
            let mut out = String::from("body:");
            render_shown(&shown_expected_body(body), 1, &mut out);
            out
        }
        Expectation::Static(shape) => render_static(shape),
        Expectation::Result(b) => format!("result: {b}\n"),
        Expectation::Error { phase, range } => match range {
            Some(range) => format!("error: {phase}\nrange: {range}\n"),
            None => format!("error: {phase}\n"),
        },
        Expectation::OneOf(options) => {
            let mut out = String::from("one of:\n");
            for option in options {
                for line in render_expectation(option).lines() {
                    let _ = writeln!(out, "  | {line}");
                }
                out.push_str("  ---\n");
            }
            out
        }
    }
}

/// Renders an outcome for a diff.
pub fn render_outcome(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Value { value, safety } => {
            let mut out = render_typed(&value.ty(), &shown_value(value));
            if let Some(safety) = safety {
                let _ = writeln!(out, "safety: {}", safety.name());
            }
            out
        }
        Outcome::Type(ty) => format!("type: {ty}\n"),
        Outcome::Body(body) => {
            let mut out = String::from("body:");
            render_shown(&shown_body(body), 1, &mut out);
            out
        }
        Outcome::Static(shape) => render_static(shape),
        Outcome::Result(b) => format!("result: {b}\n"),
        Outcome::Parsed => "parsed: true\n".into(),
        Outcome::Error { phase, diagnostics } => {
            let mut out = format!("error: {phase}\n");
            if let Some(range) = diagnostics.iter().find_map(|d| d.range) {
                let _ = writeln!(out, "range: {}", show_range(&range));
            }
            out
        }
        Outcome::Unsupported(why) => format!("unsupported: {why}\n"),
        Outcome::Crashed(why) => format!("CRASH: {why}\n"),
        Outcome::TimedOut(why) => format!("TIMEOUT: {why}\n"),
        Outcome::Broken(why) => format!("broken answer: {why}\n"),
    }
}

fn typed(ty: &Type, value: Shown) -> Shown {
    Shown::Mapping(vec![
        ("type".into(), Shown::Scalar(ty.to_string())),
        ("value".into(), value),
    ])
}

fn shown_body(body: &Body) -> Shown {
    let mut attributes: Vec<(&String, Shown)> = body
        .attributes
        .iter()
        .map(|(k, v)| (k, typed(&v.ty(), shown_value(v))))
        .chain(
            body.unevaluated
                .iter()
                .map(|(k, why)| (k, Shown::Scalar(format!("!unevaluated {}", quote(why))))),
        )
        .collect();
    attributes.sort_by(|a, b| a.0.cmp(b.0));
    let attributes = attributes.into_iter().map(|(k, v)| (quote(k), v)).collect();
    let mut shown = vec![
        ("attributes".into(), Shown::Mapping(attributes)),
        (
            "blocks".into(),
            Shown::Sequence(
                body.blocks
                    .iter()
                    .map(|b| shown_block(&b.type_name, &b.labels, shown_body(&b.body)))
                    .collect(),
            ),
        ),
    ];
    if let Some(remain) = &body.remain {
        shown.push(("remain".into(), shown_body(remain)));
    }
    Shown::Mapping(shown)
}

fn shown_expected_body(body: &ExpectedBody) -> Shown {
    let mut shown = vec![
        (
            "attributes".into(),
            Shown::Mapping(
                body.attributes
                    .iter()
                    .map(|(k, (ty, v))| (quote(k), typed(ty, shown_expected(v))))
                    .collect(),
            ),
        ),
        (
            "blocks".into(),
            Shown::Sequence(
                body.blocks
                    .iter()
                    .map(|b| shown_block(&b.type_name, &b.labels, shown_expected_body(&b.body)))
                    .collect(),
            ),
        ),
    ];
    if let Some(remain) = &body.remain {
        shown.push(("remain".into(), shown_expected_body(remain)));
    }
    Shown::Mapping(shown)
}

fn shown_block(type_name: &str, labels: &[String], body: Shown) -> Shown {
    Shown::Mapping(vec![
        ("type".into(), Shown::Scalar(quote(type_name))),
        (
            "labels".into(),
            Shown::Sequence(labels.iter().map(|l| Shown::Scalar(quote(l))).collect()),
        ),
        ("body".into(), body),
    ])
}
