//! Comparing an implementation's outcome with a case's expectation.
//!
//! A mismatch names the first difference by its path (`.a[2]: expected
//! string "x", got number 1`), and shows expected against actual as a diff
//! of one rendering of both: the answer as JSON, each cut to
//! [`SHOWN_BYTES`] (a longer answer is cut, not diffed whole).

use hcl_conformance_format::kinds::{Block, Body, Named};
use hcl_conformance_format::suite::{Expectation, Expected};
use hcl_conformance_format::terminal::{CutWriter, SHOWN_BYTES};
use hcl_conformance_format::values::ExpectedValue;
use hcl_conformance_format::wire::{Attribute, ErrorAnswer, Outcome};
use hcl_interpreter::convert::Safety;
use hcl_interpreter::{Phase, Type, Value};
use serde_json::{json, Value as Json};
use std::collections::BTreeMap;

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
        let diff = similar::TextDiff::from_lines(&self.expected, &self.actual);
        let diff = diff
            .unified_diff()
            .context_radius(3)
            .header("expected", "actual")
            .to_string();
        format!("first difference: {}\n{diff}", self.first_difference)
    }
}

/// What the comparison looks at, by the implementation's features
/// (`runner/PROTOCOL.md` § What the runner does with answers). A case is
/// graded only once its needs are met (`hcl_conformance_format::needs`), so what is left
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
    let expect = &weaken(expect, grading);
    let Some(first_difference) = first_difference(expect, outcome, grading) else {
        return Ok(());
    };
    // Cut as it is written: an answer of any size makes a diff of bounded
    // size and time.
    let render = |json: Json| {
        let mut out = CutWriter::new(SHOWN_BYTES);
        let _ = serde_json::to_writer_pretty(&mut out, &json);
        out.finish() + "\n"
    };
    Err(Mismatch {
        first_difference,
        expected: render(expected_json(expect, grading.parse_only)),
        actual: render(outcome_json(outcome)),
    })
}

/// The expectation with what `grading` does not compare taken out: safety,
/// error ranges, and for a parse-only implementation all but whether the
/// source parses: a `parse` error stays one, and any other result, errors
/// of later phases included, becomes `Result(true)`, "it parses".
fn weaken(expect: &Expectation, grading: &Grading) -> Expectation {
    match expect {
        Expectation::OneOf(options) => {
            let mut weakened: Vec<Expectation> = Vec::new();
            for option in options.iter().map(|o| weaken(o, grading)) {
                if !weakened.contains(&option) {
                    weakened.push(option);
                }
            }
            match weakened.len() {
                1 => weakened.remove(0),
                _ => Expectation::OneOf(weakened),
            }
        }
        Expectation::Error { phase, range } if !grading.parse_only || *phase == Phase::Parse => {
            Expectation::Error {
                phase: *phase,
                range: range.clone().filter(|_| grading.ranges),
            }
        }
        _ if grading.parse_only => Expectation::Result(true),
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
    let parse_only = grading.parse_only;
    match (expect, outcome) {
        (Expectation::OneOf(options), _) => {
            let misses = options
                .iter()
                .map(|option| first_difference(option, outcome, grading));
            let misses: Vec<String> = misses.collect::<Option<_>>()?;
            Some(format!(
                "none of the accepted results: {}",
                misses.join("; ")
            ))
        }
        (Expectation::Result(true), Outcome::Parsed(true)) if parse_only => None,
        (Expectation::Result(true), outcome) if parse_only => Some(format!(
            "expected the source to parse (`parsed: true`), got {}",
            describe_outcome(outcome)
        )),
        (
            Expectation::Value {
                ty,
                value,
                safety,
                order_any,
            },
            Outcome::Value {
                value: actual,
                safety: got,
            },
        ) => value_difference(
            ty,
            value,
            *safety,
            *order_any,
            actual,
            got.as_ref(),
            grading,
        ),
        (Expectation::Body(expected), Outcome::Body(actual)) => {
            compare_body(expected, actual, "body", grading)
        }
        (Expectation::Static(expected), Outcome::Static(actual)) if expected == actual => None,
        (Expectation::Type(ty), Outcome::Type(actual)) if *ty == actual.0 => None,
        (Expectation::Type(ty), Outcome::Type(actual)) => {
            Some(format!("expected type {ty}, got type {}", actual.0))
        }
        (Expectation::Result(b), Outcome::Result(actual)) if b == actual => None,
        (Expectation::Result(b), Outcome::Result(actual)) => {
            Some(format!("expected {b}, got {actual}"))
        }
        (Expectation::Error { phase, .. }, Outcome::Error(error)) if *phase != *error.phase => {
            Some(format!(
                "expected an error in phase {phase}, got one in phase {}",
                *error.phase
            ))
        }
        (
            Expectation::Error {
                range: Some(range), ..
            },
            Outcome::Error(error),
        ) => range_difference(range, error, parse_only),
        (Expectation::Error { .. }, Outcome::Error(_)) => None,
        (expect, Outcome::Unsupported(why)) => Some(format!(
            "expected {}, but the implementation does not support the case: {why}",
            describe_expectation(expect)
        )),
        (expect, outcome) => Some(format!(
            "expected {}, got {}",
            describe_expectation(expect),
            describe_outcome(outcome)
        )),
    }
}

/// How a value answer differs from the expected value: its type (where
/// types are compared exactly), the value itself, then the conversion's
/// safety where the case expects one.
fn value_difference(
    ty: &Type,
    value: &ExpectedValue,
    safety: Option<Safety>,
    order_any: bool,
    actual: &Value,
    got: Option<&Named<Safety>>,
    grading: &Grading,
) -> Option<String> {
    let actual_type = actual.ty();
    if grading.exact_types && actual_type != *ty {
        return Some(format!(
            "expected a value of type {ty}, got one of type {actual_type}"
        ));
    }
    if let Some(difference) = compare_value(value, actual, "", order_any) {
        return Some(difference);
    }
    match (safety, got) {
        (Some(expected), Some(got)) if expected != got.0 => Some(format!(
            "expected the conversion to be {}, got {}",
            expected.name(),
            got.name()
        )),
        (Some(expected), None) => Some(format!(
            "expected the conversion to be {}; the implementation reported no safety",
            expected.name()
        )),
        _ => None,
    }
}

/// Whether an error answer is at the range the case pins: one of its
/// ranges is that range.
fn range_difference(range: &str, error: &ErrorAnswer, parse_only: bool) -> Option<String> {
    let ranges = error.ranges();
    let a = if parse_only { "a parse" } else { "an" };
    if ranges.is_empty() {
        return Some(format!(
            "expected {a} error at {range}, got one without a range"
        ));
    }
    (!ranges.iter().any(|r| r == range)).then(|| {
        format!(
            "expected {a} error at {range}, got one at {}",
            ranges.join(", ")
        )
    })
}

/// A key that one of two maps holds and the other lacks.
enum Unmatched<K> {
    /// Expected, and missing from the actual map.
    Missing(K),
    /// In the actual map, and not expected.
    Extra(K),
}

/// The first expected key the actual map lacks, else the first actual key
/// not expected; `None` when both maps have the same keys.
fn unmatched_key<'a, K: Ord, E, A>(
    expected: &'a BTreeMap<K, E>,
    actual: &'a BTreeMap<K, A>,
) -> Option<Unmatched<&'a K>> {
    let missing = expected.keys().find(|k| !actual.contains_key(*k));
    let extra = || actual.keys().find(|k| !expected.contains_key(*k));
    missing
        .map(Unmatched::Missing)
        .or_else(|| extra().map(Unmatched::Extra))
}

/// Compares an expected body with an actual one: the same attributes with
/// the same values, and the same blocks in the same order. An attribute
/// the implementation did not evaluate counts by its presence alone, when
/// the implementation declares `unevaluated-values`.
fn compare_body(
    expected: &Body<Expected>,
    actual: &Body<Attribute>,
    path: &str,
    grading: &Grading,
) -> Option<String> {
    match unmatched_key(&expected.attributes, &actual.attributes) {
        Some(Unmatched::Missing(name)) => {
            let name = &name.0;
            return Some(format!(
                "{path}: expected the attribute {name:?}, which is missing"
            ));
        }
        Some(Unmatched::Extra(name)) => {
            return Some(format!("{path}: got the unexpected attribute {:?}", name.0));
        }
        None => {}
    }
    for (name, Expected { ty, value }) in &expected.attributes {
        let at = format!("{path}.{name}");
        let got = match &actual.attributes[name] {
            Attribute::Value(got) => got,
            Attribute::Unevaluated { .. } if grading.unevaluated_values => continue,
            Attribute::Unevaluated { unevaluated } => return Some(format!(
                "{at}: the implementation did not evaluate the attribute ({unevaluated}) but does not declare the feature unevaluated-values"
            )),
        };
        if grading.exact_types && got.ty() != *ty {
            return Some(format!(
                "{at}: expected a value of type {ty}, got one of type {}",
                got.ty()
            ));
        }
        if let Some(difference) = compare_value(value, got, &at, false) {
            return Some(difference);
        }
    }
    if let Some(difference) = compare_blocks(&expected.blocks, &actual.blocks, path, grading) {
        return Some(difference);
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

/// Compares a body's blocks: as many, and each of the same type, with the
/// same labels and a body that compares equal, in order.
fn compare_blocks(
    expected: &[Block<Expected>],
    actual: &[Block<Attribute>],
    path: &str,
    grading: &Grading,
) -> Option<String> {
    if expected.len() != actual.len() {
        return Some(format!(
            "{path}: expected {} blocks, got {}",
            expected.len(),
            actual.len()
        ));
    }
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        let at = format!("{path}.blocks[{i}]");
        if e.type_name != a.type_name {
            return Some(format!(
                "{at}: expected a block of type {:?}, got {:?}",
                e.type_name.0, a.type_name.0
            ));
        }
        if e.labels != a.labels {
            let labels = |l: &[hcl_conformance_format::kinds::Text]| {
                format!("{:?}", l.iter().map(|t| &t.0).collect::<Vec<_>>())
            };
            return Some(format!(
                "{at}: expected the labels {}, got {}",
                labels(&e.labels),
                labels(&a.labels)
            ));
        }
        if let Some(difference) = compare_body(&e.body, &a.body, &format!("{at}.body"), grading) {
            return Some(difference);
        }
    }
    None
}

fn describe_expectation(expect: &Expectation) -> String {
    match expect {
        Expectation::Value { ty, .. } => format!("a value of type {ty}"),
        Expectation::Type(ty) => format!("the type {ty}"),
        Expectation::Body(_) => "a body".into(),
        Expectation::Static(shape) => format!("the static result {}", json!(shape)),
        Expectation::Result(b) => format!("the answer {b}"),
        Expectation::Error { phase, .. } => format!("an error in phase {phase}"),
        Expectation::OneOf(_) => "one of several results".into(),
    }
}

fn describe_outcome(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Value { value, .. } => format!("a value of type {}", value.ty()),
        Outcome::Type(ty) => format!("the type {}", ty.0),
        Outcome::Body(_) => "a body".into(),
        Outcome::Static(shape) => format!("the static result {}", json!(shape)),
        Outcome::Result(b) => format!("the answer {b}"),
        Outcome::Parsed(_) => "`parsed: true`".into(),
        Outcome::Error(error) => match error.diagnostics.first().map(|d| first_line(&d.summary)) {
            Some(summary) if !summary.is_empty() => {
                format!("an error in phase {} ({summary})", *error.phase)
            }
            _ => format!("an error in phase {}", *error.phase),
        },
        Outcome::Unsupported(why) => format!("unsupported ({why})"),
        Outcome::Malformed(why) => format!("`malformed` ({why})"),
        Outcome::Crashed(why) => format!("a crash ({why})"),
        Outcome::TimedOut(why) => format!("no answer in time ({why})"),
        Outcome::Broken(why) => format!("a broken answer ({why})"),
    }
}

/// The first line of a text, trimmed.
pub fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim()
}

/// A difference `what` found at `path` (the value's root when empty).
fn at_path(path: &str, what: String) -> String {
    if path.is_empty() {
        what
    } else {
        format!("{path}: {what}")
    }
}

/// Compares an expected value with an actual one of the same type.
fn compare_value(
    expected: &ExpectedValue,
    actual: &Value,
    path: &str,
    order_any: bool,
) -> Option<String> {
    let at = |what: String| Some(at_path(path, what));
    let elements = |items: &[ExpectedValue], elements: &[Value]| {
        let mut zipped = items.iter().zip(elements).enumerate();
        zipped.find_map(|(i, (e, a))| compare_value(e, a, &format!("{path}[{i}]"), false))
    };
    match (expected, actual) {
        (ExpectedValue::Unknown, Value::Unknown(_)) | (ExpectedValue::Null, Value::Null(_)) => None,
        (ExpectedValue::Unknown, other) => at(format!(
            "expected an unknown value, got {}",
            show_actual(other)
        )),
        (ExpectedValue::Null, other) => at(format!("expected null, got {}", show_actual(other))),
        (_, Value::Unknown(_)) => at(format!(
            "expected {}, got an unknown value",
            show_expected(expected)
        )),
        (_, Value::Null(_)) => at(format!("expected {}, got null", show_expected(expected))),
        (ExpectedValue::String(e), Value::String(a)) if e == a => None,
        (ExpectedValue::Number(e), Value::Number(a)) if e == a => None,
        (ExpectedValue::Bool(e), Value::Bool(a)) if e == a => None,
        (
            ExpectedValue::Approx {
                value, tolerance, ..
            },
            Value::Number(a),
        ) => {
            let distance = a
                .subtract(value)
                .map(|d| if d.signum() < 0 { d.negate() } else { d });
            match distance.is_ok_and(|d| d <= *tolerance) {
                true => None,
                false => at(format!(
                    "expected {}, got {a} (more than {tolerance} away)",
                    show_expected(expected)
                )),
            }
        }
        (ExpectedValue::Sequence(items), Value::Set(_, actual)) => {
            compare_unordered(items, actual, path)
        }
        (ExpectedValue::Sequence(items), Value::List(_, a) | Value::Tuple(a)) if order_any => {
            compare_unordered(items, a, path)
        }
        (ExpectedValue::Sequence(items), Value::List(_, a) | Value::Tuple(a))
            if items.len() != a.len() =>
        {
            at(format!(
                "expected {} elements, got {}",
                items.len(),
                a.len()
            ))
        }
        (ExpectedValue::Sequence(items), Value::List(_, a) | Value::Tuple(a)) => elements(items, a),
        (ExpectedValue::Mapping(entries), Value::Map(_, actual) | Value::Object(actual)) => {
            compare_entries(entries, actual, path)
        }
        (expected, actual) => at(format!(
            "expected {}, got {}",
            show_expected(expected),
            show_actual(actual)
        )),
    }
}

/// Compares a map or object with the expected entries: the same keys, and
/// each entry's value compared in turn.
fn compare_entries(
    entries: &BTreeMap<String, ExpectedValue>,
    actual: &BTreeMap<String, Value>,
    path: &str,
) -> Option<String> {
    let at = |what: String| Some(at_path(path, what));
    match unmatched_key(entries, actual) {
        Some(Unmatched::Missing(key)) => {
            return at(format!("expected the key {key:?}, which is missing"))
        }
        Some(Unmatched::Extra(key)) => return at(format!("got the unexpected key {key:?}")),
        None => {}
    }
    entries
        .iter()
        .find_map(|(k, e)| compare_value(e, &actual[k], &format!("{path}[{k:?}]"), false))
}

/// Compares as multisets: every expected element matches a distinct actual
/// element.
fn compare_unordered(items: &[ExpectedValue], elements: &[Value], path: &str) -> Option<String> {
    if items.len() != elements.len() {
        let at = if path.is_empty() {
            String::new()
        } else {
            format!("{path}: ")
        };
        return Some(format!(
            "{at}expected {} elements, got {}",
            items.len(),
            elements.len()
        ));
    }
    let mut used = vec![false; elements.len()];
    for (i, item) in items.iter().enumerate() {
        let found = (0..elements.len())
            .find(|j| !used[*j] && compare_value(item, &elements[*j], "", false).is_none());
        match found {
            Some(j) => used[j] = true,
            None => {
                return Some(format!(
                    "{path}[{i}]: expected element {} is not among the actual elements (compared without order)",
                    value_json(item)
                ))
            }
        }
    }
    None
}

/// An actual value in a message: a scalar, or its type.
fn show_actual(v: &Value) -> String {
    match v {
        Value::Null(ty) => format!("null of {ty}"),
        Value::Unknown(ty) => format!("unknown {ty}"),
        Value::String(_) | Value::Number(_) | Value::Bool(_) => show_expected(&v.into()),
        other => format!("a {}", other.ty()),
    }
}

fn show_expected(e: &ExpectedValue) -> String {
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

/// An expected value as JSON: numbers exact, `"!unknown"`, `"!approx N"`.
fn value_json(e: &ExpectedValue) -> Json {
    match e {
        ExpectedValue::Null => Json::Null,
        ExpectedValue::Unknown => "!unknown".into(),
        ExpectedValue::String(s) => s.as_str().into(),
        ExpectedValue::Number(n) => {
            let text = n.to_decimal_string();
            text.parse::<serde_json::Number>()
                .map_or(Json::String(text), Json::Number)
        }
        ExpectedValue::Approx { text, .. } => format!("!approx {text}").into(),
        ExpectedValue::Bool(b) => (*b).into(),
        ExpectedValue::Sequence(items) => items.iter().map(value_json).collect(),
        ExpectedValue::Mapping(entries) => Json::Object(
            entries
                .iter()
                .map(|(k, v)| (k.clone(), value_json(v)))
                .collect(),
        ),
    }
}

fn typed_json(ty: &Type, value: &ExpectedValue) -> Json {
    json!({ "type": ty.to_string(), "value": value_json(value) })
}

/// A body as JSON, its attributes written by `attribute`.
fn body_json<A>(body: &Body<A>, attribute: &dyn Fn(&A) -> Json) -> Json {
    let attributes = body
        .attributes
        .iter()
        .map(|(k, v)| (k.0.clone(), attribute(v)));
    let blocks = body
        .blocks
        .iter()
        .map(|b| json!({ "type": b.type_name, "labels": b.labels, "body": body_json(&b.body, attribute) }));
    let mut json = json!({ "attributes": Json::Object(attributes.collect()), "blocks": blocks.collect::<Vec<_>>() });
    if let Some(remain) = &body.remain {
        json["remain"] = body_json(remain, attribute);
    }
    json
}

/// An expectation as the answer that meets it (for a parse-only
/// implementation, `Result(true)` is `parsed: true`).
fn expected_json(expect: &Expectation, parse_only: bool) -> Json {
    match expect {
        Expectation::Value {
            ty, value, safety, ..
        } => {
            let mut json = json!({ "value": typed_json(ty, value) });
            if let Some(safety) = safety {
                json["safety"] = safety.name().into();
            }
            json
        }
        Expectation::Type(ty) => json!({ "type": ty.to_string() }),
        Expectation::Body(body) => {
            json!({ "body": body_json(body, &|e| typed_json(&e.ty, &e.value)) })
        }
        Expectation::Static(shape) => json!(shape),
        Expectation::Result(b) if parse_only => json!({ "parsed": b }),
        Expectation::Result(b) => json!({ "result": b }),
        Expectation::Error {
            phase,
            range: Some(range),
        } => {
            json!({ "error": phase.name(), "range": range })
        }
        Expectation::Error { phase, range: None } => json!({ "error": phase.name() }),
        Expectation::OneOf(options) => {
            json!({ "one-of": options.iter().map(|o| expected_json(o, parse_only)).collect::<Vec<_>>() })
        }
    }
}

/// An outcome in the shape of [`expected_json`].
fn outcome_json(outcome: &Outcome) -> Json {
    let value = |v: &Value| typed_json(&v.ty(), &v.into());
    match outcome {
        Outcome::Value { value: v, safety } => {
            let mut json = json!({ "value": value(v) });
            if let Some(safety) = safety {
                json["safety"] = safety.name().into();
            }
            json
        }
        Outcome::Type(ty) => json!({ "type": ty.0.to_string() }),
        Outcome::Body(body) => json!({ "body": body_json(body, &|a| match a {
            Attribute::Value(v) => value(v),
            Attribute::Unevaluated { unevaluated } => json!({ "unevaluated": unevaluated }),
        }) }),
        Outcome::Error(error) => match error.ranges().first() {
            Some(range) => json!({ "error": error.phase.name(), "range": range }),
            None => json!({ "error": error.phase.name() }),
        },
        Outcome::Crashed(why) => json!({ "crash": why }),
        Outcome::TimedOut(why) => json!({ "timeout": why }),
        Outcome::Broken(why) => json!({ "broken": why }),
        answer => json!(answer),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hcl_conformance_format::kinds::Named;
    use hcl_conformance_format::wire::{ErrorAnswer, Val, WireDiagnostic};
    use hcl_interpreter::convert::Safety;
    use hcl_interpreter::number::Number;
    use std::collections::BTreeMap;

    fn one() -> Number {
        Number::from_i64(1)
    }

    /// The expectation of the number `n`, with the conversion safety
    /// `safety` when the case pins one.
    fn a_number(n: i64, safety: Option<Safety>) -> Expectation {
        Expectation::Value {
            ty: Type::Number,
            value: ExpectedValue::Number(Number::from_i64(n)),
            safety,
            order_any: false,
        }
    }

    /// The expectation of a list of the numbers `ns`, in order unless
    /// `order_any`.
    fn a_list(ns: &[i64], order_any: bool) -> Expectation {
        Expectation::Value {
            ty: Type::List(Box::new(Type::Number)),
            value: ExpectedValue::Sequence(
                ns.iter()
                    .map(|n| ExpectedValue::Number(Number::from_i64(*n)))
                    .collect(),
            ),
            safety: None,
            order_any,
        }
    }

    /// An answer of `value`, with no conversion safety reported.
    fn answer(value: Value) -> Outcome {
        Outcome::Value {
            value: Val(value),
            safety: None,
        }
    }

    fn a_list_answer(ns: &[i64]) -> Outcome {
        let elements = ns.iter().map(|n| Value::Number(Number::from_i64(*n)));
        answer(Value::List(Type::Number, elements.collect()))
    }

    fn eval_error(summary: &str) -> Outcome {
        Outcome::Error(ErrorAnswer {
            phase: Named(Phase::Eval),
            diagnostics: vec![WireDiagnostic {
                severity: "error".into(),
                summary: summary.into(),
                detail: String::new(),
                range: None,
            }],
        })
    }

    #[test]
    fn a_report_names_the_first_difference_then_diffs_expected_against_actual() {
        let mismatch = check(&Expectation::Result(true), &Outcome::Result(false)).unwrap_err();
        assert_eq!(mismatch.first_difference, "expected true, got false");
        let report = mismatch.report();
        assert!(
            report.starts_with(
                "first difference: expected true, got false\n--- expected\n+++ actual\n"
            ),
            "{report}"
        );
        assert!(
            report.contains("\n-  \"result\": true\n+  \"result\": false\n"),
            "{report}"
        );
    }

    #[test]
    fn an_expected_safety_is_a_difference_when_the_answer_reports_another_or_none() {
        let expect = a_number(1, Some(Safety::Unsafe));
        let answer = |safety| Outcome::Value {
            value: Val(Value::Number(one())),
            safety,
        };
        assert_eq!(check(&expect, &answer(Some(Named(Safety::Unsafe)))), Ok(()));
        let other = check(&expect, &answer(Some(Named(Safety::Safe)))).unwrap_err();
        assert_eq!(
            other.first_difference,
            "expected the conversion to be unsafe, got safe"
        );
        let silent = check(&expect, &answer(None)).unwrap_err();
        assert!(
            silent
                .first_difference
                .contains("the implementation reported no safety"),
            "{silent:?}"
        );
        // Without the feature `safety` it is not compared.
        let grading = Grading {
            safety: false,
            ..Grading::FULL
        };
        assert_eq!(check_with(&expect, &answer(None), &grading), Ok(()));
    }

    /// A list's elements are compared in order, unless the case lets the
    /// implementation choose the order (`order: any`).
    #[test]
    fn list_elements_are_compared_in_order_unless_any_order_is_allowed() {
        let reversed = a_list_answer(&[2, 1]);
        let mismatch = check(&a_list(&[1, 2], false), &reversed).unwrap_err();
        assert!(
            mismatch
                .first_difference
                .starts_with("[0]: expected number 1"),
            "{mismatch:?}"
        );
        assert_eq!(check(&a_list(&[1, 2], true), &reversed), Ok(()));
    }

    /// A list of another length is a difference, however its first
    /// elements compare.
    #[test]
    fn a_list_of_another_length_is_a_difference() {
        for other in [&[1, 2][..], &[][..]] {
            let mismatch = check(&a_list(other, false), &a_list_answer(&[1])).unwrap_err();
            assert_eq!(
                mismatch.first_difference,
                format!("expected {} elements, got 1", other.len())
            );
        }
    }

    /// `!approx` accepts a number within its tolerance on either side, and
    /// no other.
    #[test]
    fn an_approximate_number_is_a_difference_beyond_its_tolerance_on_either_side() {
        let expect = Expectation::Value {
            ty: Type::Number,
            value: ExpectedValue::Approx {
                value: Number::from_i64(10),
                tolerance: one(),
                text: "10".into(),
            },
            safety: None,
            order_any: false,
        };
        let answer = |n| answer(Value::Number(Number::from_i64(n)));
        for n in [9, 10, 11] {
            assert_eq!(check(&expect, &answer(n)), Ok(()), "{n}");
        }
        for n in [8, 12, -10] {
            let mismatch = check(&expect, &answer(n)).unwrap_err();
            assert!(
                mismatch.first_difference.contains("(more than 1 away)"),
                "{n}: {mismatch:?}"
            );
        }
    }

    /// A body's mismatch shows both bodies whole: attributes and blocks.
    #[test]
    fn a_body_mismatch_renders_both_bodies() {
        let expected = Body {
            attributes: BTreeMap::from([(
                "a".into(),
                Expected {
                    ty: Type::Number,
                    value: ExpectedValue::Number(one()),
                },
            )]),
            ..Body::default()
        };
        let actual = Body {
            attributes: BTreeMap::from([(
                "a".into(),
                Attribute::Value(Val(Value::Number(Number::from_i64(2)))),
            )]),
            ..Body::default()
        };
        let mismatch = check(&Expectation::Body(expected), &Outcome::Body(actual)).unwrap_err();
        let rendering = |n| {
            format!(
                "\"body\": {{\n    \"attributes\": {{\n      \"a\": {{\n        \"type\": \"number\",\n        \"value\": {n}\n      }}\n    }},\n    \"blocks\": []\n  }}"
            )
        };
        assert!(
            mismatch.expected.contains(&rendering(1)),
            "{}",
            mismatch.expected
        );
        assert!(
            mismatch.actual.contains(&rendering(2)),
            "{}",
            mismatch.actual
        );
    }

    /// `one-of` is graded option by option: each option is weakened as the
    /// implementation's grading asks, not the whole as one expectation.
    #[test]
    fn each_option_of_one_of_is_graded_as_the_implementation_asks() {
        let error = |phase, range: Option<&str>| Expectation::Error {
            phase,
            range: range.map(String::from),
        };
        // Without the feature `ranges`, two ranges of one phase are that
        // phase, whatever range the answer gives.
        let options = Expectation::OneOf(vec![
            error(Phase::Eval, Some("1:1-1:2")),
            error(Phase::Eval, Some("1:5-1:6")),
        ]);
        let no_ranges = Grading {
            ranges: false,
            ..Grading::FULL
        };
        assert!(check(&options, &eval_error("x")).is_err());
        assert_eq!(check_with(&options, &eval_error("x"), &no_ranges), Ok(()));
        // Parse-only, a parse error and a value are two options: the parse
        // error, and "it parses".
        let options = Expectation::OneOf(vec![error(Phase::Parse, None), a_number(1, None)]);
        let parse_only = Grading {
            parse_only: true,
            ..Grading::FULL
        };
        let parse_error = Outcome::Error(ErrorAnswer {
            phase: Named(Phase::Parse),
            diagnostics: Vec::new(),
        });
        assert_eq!(check_with(&options, &parse_error, &parse_only), Ok(()));
        assert_eq!(
            check_with(&options, &Outcome::Parsed(true), &parse_only),
            Ok(())
        );
    }

    #[test]
    fn an_error_answer_is_described_by_the_first_line_of_its_first_summary() {
        assert_eq!(
            first_line("  Invalid operand \nthe rest"),
            "Invalid operand"
        );
        assert_eq!(first_line(""), "");
        let mismatch = check(
            &Expectation::Result(true),
            &eval_error("Invalid operand\nmore"),
        )
        .unwrap_err();
        assert_eq!(
            mismatch.first_difference,
            "expected the answer true, got an error in phase eval (Invalid operand)"
        );
        // An error with no summary is described by its phase alone.
        let mismatch = check(&Expectation::Result(true), &eval_error(" \nmore")).unwrap_err();
        assert_eq!(
            mismatch.first_difference,
            "expected the answer true, got an error in phase eval"
        );
    }

    /// `{"parsed": true}` answers a case only from an implementation graded
    /// as parse-only; from any other it is no answer to a case expecting
    /// a result.
    #[test]
    fn a_parsed_answer_passes_only_parse_only_grading() {
        let expect = Expectation::Result(true);
        let parsed = Outcome::Parsed(true);
        assert!(check(&expect, &parsed).is_err());
        let grading = Grading {
            parse_only: true,
            ..Grading::FULL
        };
        assert_eq!(check_with(&expect, &parsed, &grading), Ok(()));
    }

    #[test]
    fn a_parse_only_expectation_is_shown_as_the_parsed_answer() {
        let grading = Grading {
            parse_only: true,
            ..Grading::FULL
        };
        let value = a_number(1, None);
        let mismatch = check_with(&value, &eval_error("x"), &grading).unwrap_err();
        assert_eq!(mismatch.expected, "{\n  \"parsed\": true\n}\n");
        // Graded fully, a yes/no expectation is the answer `result`.
        let mismatch = check(&Expectation::Result(true), &eval_error("x")).unwrap_err();
        assert_eq!(mismatch.expected, "{\n  \"result\": true\n}\n");
    }

    #[test]
    fn options_that_grade_alike_are_one_expectation() {
        // Parse-only, two values are both "it parses".
        let grading = Grading {
            parse_only: true,
            ..Grading::FULL
        };
        let number = |n| a_number(n, None);
        let options = Expectation::OneOf(vec![number(1), number(2)]);
        let mismatch = check_with(&options, &eval_error("x"), &grading).unwrap_err();
        assert_eq!(
            mismatch.first_difference,
            "expected the source to parse (`parsed: true`), got an error in phase eval (x)"
        );
        assert_eq!(mismatch.expected, "{\n  \"parsed\": true\n}\n");
        // A parse error expected, and the source parsed.
        let parse_error = Expectation::Error {
            phase: Phase::Parse,
            range: None,
        };
        let mismatch = check_with(&parse_error, &Outcome::Parsed(true), &grading).unwrap_err();
        assert_eq!(
            mismatch.first_difference,
            "expected an error in phase parse, got `parsed: true`"
        );
    }

    #[test]
    fn a_mismatch_renders_expected_and_actual_values_alike() {
        let expect = a_number(1, None);
        let mismatch = check(&expect, &answer(Value::Number(Number::from_i64(2)))).unwrap_err();
        let rendering = |n| {
            format!(
                "{{\n  \"value\": {{\n    \"type\": \"number\",\n    \"value\": {n}\n  }}\n}}\n"
            )
        };
        assert_eq!(mismatch.expected, rendering(1));
        assert_eq!(mismatch.actual, rendering(2));
    }
}
