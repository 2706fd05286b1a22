//! The reference decides, the grading judges: a generated input becomes a
//! case whose expectation is the reference interpreter's answer, written
//! as the suite would write it (numbers the spec does not pin exactly as
//! `!approx`, an error's range only where the suite pins ranges), and the
//! implementation's answer is judged by the very code that judges suite
//! cases ([`crate::verdict::judge`]).

use super::Input;
use crate::verdict::{judge, CaseRecord};
use hcl_conformance_format::kinds::{Block, Body, Named};
use hcl_conformance_format::needs::missing_capabilities;
use hcl_conformance_format::suite::{Case, Expectation, Expected};
use hcl_conformance_format::values::ExpectedValue;
use hcl_conformance_format::wire::{Attribute, Capabilities, Outcome};
use hcl_interpreter::number::Number;
use hcl_interpreter::Value;
use std::collections::BTreeMap;

/// Significant digits kept of a number the spec does not pin exactly:
/// those of a 64-bit float, which every implementation has.
const APPROX_DIGITS: usize = 15;

/// Integers this long or shorter are exact in every implementation with
/// `big-numbers` (the spec guarantees 256-bit integers: 77 digits).
const EXACT_INTEGER_DIGITS: usize = 76;

/// Why the reference's answer makes no case.
pub const OUT_OF_BOUNDS: [&str; 3] = [
    "Evaluation budget exceeded",
    "Nesting too deep",
    "Not enough stack",
];

/// The case a generated input makes, with the reference's answer as its
/// expectation; `None` when the reference ran out of a resource (no case
/// can say what a conforming implementation answers then).
pub fn case_of(input: &Input, outcome: &Outcome, ranges: bool) -> Option<Case> {
    let request = input.request();
    let expect = expectation_of(input, outcome, ranges)?;
    let expect = open_answers(input, expect, ranges)?;
    Some(Case {
        id: "fuzz::generated".into(),
        name: "generated".into(),
        description: None,
        covers: Vec::new(),
        input: request.input,
        expect,
        implementation_defined: None,
        profiles: BTreeMap::new(),
        area: "fuzz",
        line: 0,
    })
}

/// Where the spec leaves the answer open, and the suite accepts each
/// reading (`one-of`), the expectation accepts each too:
/// - a `&&` or `||` whose result one operand decides while the other is
///   null or fails (spec-notes/gaps/ops-logic-evaluates-both-operands.md,
///   ops-null-operands.md): the error of evaluating both operands, and
///   the value of evaluating only the deciding one, as well as the
///   reference's answer;
/// - the safety of converting a tuple of fewer than two elements to a set
///   (spec-notes/gaps/tuple-to-set-safety.md): not compared.
fn open_answers(input: &Input, expect: Expectation, ranges: bool) -> Option<Expectation> {
    let mut options = vec![expect];
    // An unknown result of a conditional whose predicate is unknown: the
    // dynamic value as well, when a branch fails (native/ops-conditional-
    // errors-only-from-selected-branch::error-in-a-branch-under-an-unknown-
    // predicate-is-not-reported).
    if input.constructs().contains("conditional") {
        if let Some(Expectation::Value {
            value: ExpectedValue::Unknown,
            ..
        }) = options.first()
        {
            options.push(Expectation::Value {
                ty: hcl_interpreter::Type::Dynamic,
                value: ExpectedValue::Unknown,
                safety: None,
                order_any: false,
            });
        }
    }
    if input.has_logic() {
        options.push(Expectation::Error {
            phase: hcl_interpreter::Phase::Eval,
            range: None,
        });
        if let Some(short) = input.short_circuited() {
            let outcome = crate::reference::run(&short.request().input);
            if let Some(e) = expectation_of(&short, &outcome, ranges) {
                options.push(e);
            }
        }
    }
    if let Input::Convert { value, to } = input {
        if has_short_tuple(&value.ty()) && has_set(to) {
            for option in &mut options {
                if let Expectation::Value { safety, .. } = option {
                    *safety = None;
                }
            }
        }
    }
    let mut distinct: Vec<Expectation> = Vec::new();
    for option in options {
        if !distinct.contains(&option) {
            distinct.push(option);
        }
    }
    Some(match distinct.len() {
        1 => distinct.remove(0),
        _ => Expectation::OneOf(distinct),
    })
}

fn has_short_tuple(ty: &hcl_interpreter::Type) -> bool {
    use hcl_interpreter::Type;
    match ty {
        Type::Tuple(e) => e.len() < 2 || e.iter().any(has_short_tuple),
        Type::List(e) | Type::Set(e) | Type::Map(e) => has_short_tuple(e),
        Type::Object(a) => a.values().any(has_short_tuple),
        _ => false,
    }
}

fn has_set(ty: &hcl_interpreter::Type) -> bool {
    use hcl_interpreter::Type;
    match ty {
        Type::Set(_) => true,
        Type::Tuple(e) => e.iter().any(has_set),
        Type::List(e) | Type::Map(e) => has_set(e),
        Type::Object(a) => a.values().any(has_set),
        _ => false,
    }
}

/// The reference's answer as the suite would write it; `None` when it
/// makes no case.
fn expectation_of(input: &Input, outcome: &Outcome, ranges: bool) -> Option<Expectation> {
    let request = input.request();
    let exact = !input.has_inexact_numbers();
    // A number of an inexact input written into a string: its digits
    // beyond a 64-bit float's are the implementation's.
    if !exact && outcome_strings(outcome).iter().any(|s| long_digit_run(s)) {
        return None;
    }
    let expect = match outcome {
        Outcome::Value { value, safety } => Expectation::Value {
            ty: value.ty(),
            value: expected(value, exact),
            safety: safety.map(|s| s.0),
            order_any: false,
        },
        Outcome::Type(ty) => Expectation::Type(ty.0.clone()),
        Outcome::Result(b) => Expectation::Result(*b),
        Outcome::Body(body) => Expectation::Body(expected_body(body, exact)?),
        Outcome::Error(error) => {
            let summaries = error.diagnostics.iter().map(|d| d.summary.as_str());
            if summaries.clone().any(|s| OUT_OF_BOUNDS.contains(&s)) {
                return None;
            }
            // A division or remainder by zero: the suite accepts the
            // error, infinity or the dividend (native/ops-arithmetic::
            // positive-number-divided-by-zero-is-infinity-or-an-error,
            // remainder-by-zero-is-the-dividend-or-an-error), which no one
            // expectation of the reference's says.
            let details = error.diagnostics.iter().map(|d| d.detail.as_str());
            if details
                .chain(summaries)
                .any(|t| t.contains("division by zero"))
            {
                return None;
            }
            // The range the suite would pin: the first diagnostic's, unless
            // the source has combining marks before it (hashicorp/hcl
            // counts columns in grapheme clusters, the suite in characters:
            // suite/README.md, "Deliberately not tested").
            // Nor in a JSON string with an escape: hashicorp/hcl counts
            // positions there in the string's decoded text, and the suite
            // pins none (spec-notes/gaps/json-static-call-argument-text.md).
            let json_escapes = matches!(input, Input::Json { .. }) && request.text().contains('\\');
            let range = error.ranges().into_iter().next();
            let range = range
                .filter(|_| ranges && !json_escapes && !request.text().chars().any(is_combining));
            Expectation::Error {
                phase: *error.phase,
                range,
            }
        }
        _ => return None,
    };
    Some(expect)
}

/// The strings of an answer's values.
fn outcome_strings(outcome: &Outcome) -> Vec<String> {
    fn strings(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.clone()),
            Value::List(_, e) | Value::Set(_, e) | Value::Tuple(e) => {
                e.iter().for_each(|v| strings(v, out))
            }
            Value::Map(_, e) | Value::Object(e) => e.values().for_each(|v| strings(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    match outcome {
        Outcome::Value { value, .. } => strings(value, &mut out),
        Outcome::Body(body) => body.all_attributes().into_iter().for_each(|a| {
            if let Attribute::Value(v) = a {
                strings(v, &mut out)
            }
        }),
        _ => {}
    }
    out
}

/// Whether a text holds more digits in a row than a 64-bit float pins.
fn long_digit_run(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_digit())
        .any(|run| run.len() > APPROX_DIGITS)
}

/// The expectation a reference body makes.
fn expected_body(body: &Body<Attribute>, exact: bool) -> Option<Body<Expected>> {
    let attributes = body.attributes.iter().map(|(name, a)| match a {
        Attribute::Value(v) => Some((
            name.clone(),
            Expected {
                ty: v.ty(),
                value: expected(v, exact),
            },
        )),
        Attribute::Unevaluated { .. } => None,
    });
    let blocks = body.blocks.iter().map(|b| {
        Some(Block {
            type_name: b.type_name.clone(),
            labels: b.labels.clone(),
            body: expected_body(&b.body, exact)?,
        })
    });
    let remain = match &body.remain {
        Some(r) => Some(Box::new(expected_body(r, exact)?)),
        None => None,
    };
    Some(Body {
        attributes: attributes.collect::<Option<_>>()?,
        blocks: blocks.collect::<Option<_>>()?,
        remain,
    })
}

/// A combining mark (general categories Mn, Mc, Me), roughly: the ranges
/// the generator writes.
fn is_combining(c: char) -> bool {
    matches!(c as u32, 0x300..=0x36F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// The expectation a reference value makes: exact, but for numbers the
/// spec does not pin (a fraction, or any result of an input holding a
/// fraction; an integer beyond 256 bits), which are `!approx` to the
/// digits of a 64-bit float.
fn expected(value: &Value, exact_inputs: bool) -> ExpectedValue {
    let mut e = ExpectedValue::from(value);
    approximate(&mut e, exact_inputs);
    e
}

fn approximate(e: &mut ExpectedValue, exact_inputs: bool) {
    match e {
        ExpectedValue::Number(n) if !n.is_infinite() => {
            let text = n.to_decimal_string();
            let digits = text.trim_start_matches('-').len();
            if !(exact_inputs && n.is_integer() && digits <= EXACT_INTEGER_DIGITS) {
                if let Some(approx) = approx_of(&text) {
                    *e = approx;
                }
            }
        }
        ExpectedValue::Sequence(items) => {
            items.iter_mut().for_each(|i| approximate(i, exact_inputs))
        }
        ExpectedValue::Mapping(entries) => entries
            .values_mut()
            .for_each(|v| approximate(v, exact_inputs)),
        _ => {}
    }
}

/// `!approx` of a decimal text, cut to [`APPROX_DIGITS`] significant
/// digits (within one unit of the last: cutting loses less than one).
fn approx_of(text: &str) -> Option<ExpectedValue> {
    let (sign, magnitude) = text.strip_prefix('-').map_or(("", text), |m| ("-", m));
    let (int, frac) = magnitude.split_once('.').unwrap_or((magnitude, ""));
    let all: String = format!("{int}{frac}");
    let lead = all.len() - all.trim_start_matches('0').len();
    let significant = &all[lead..];
    if significant.is_empty() {
        return Some(ExpectedValue::Number(Number::zero()));
    }
    let kept = &significant[..significant.len().min(APPROX_DIGITS)];
    // The exponent of the first significant digit.
    let first = int.len() as i64 - lead as i64 - 1;
    let text = format!("{sign}{}.{}e{first}", &kept[..1], &kept[1..]);
    let value = Number::parse_decimal(&text, true).ok()?;
    let tolerance =
        Number::parse_decimal(&format!("1e{}", first - (kept.len() as i64 - 1)), true).ok()?;
    Some(ExpectedValue::Approx {
        value,
        tolerance,
        text,
    })
}

/// How an implementation fared on a generated case.
pub enum Trial {
    /// It answered as the case expects.
    Agreed,
    /// No case: the reference ran out of a resource, or the implementation
    /// lacks a capability the case needs.
    Skipped,
    /// It answered otherwise: how (the cluster's kind of difference), and
    /// the verdict.
    Disagreed {
        difference: String,
        record: Box<CaseRecord>,
    },
}

/// Runs a generated input: the reference decides, the implementation
/// answers, the suite's grading judges.
pub fn trial(input: &Input, settings: &super::FuzzSettings) -> Trial {
    let request = input.request();
    let reference = crate::reference::run(&request.input);
    let Some(case) = case_of(input, &reference, settings.ranges) else {
        return Trial::Skipped;
    };
    let capabilities = settings.capabilities.as_ref();
    if capabilities.is_some_and(|c| !missing_capabilities(&case, &settings.profile, c).is_empty()) {
        return Trial::Skipped;
    }
    // An implementation that leaves values unevaluated cannot see an
    // evaluation error (its findings note calls those no departures).
    let unevaluated = capabilities.is_some_and(|c| {
        c.features
            .contains(hcl_conformance_format::needs::UNEVALUATED_VALUES)
    });
    if unevaluated
        && matches!(
            case.expect,
            Expectation::Error {
                phase: hcl_interpreter::Phase::Eval,
                ..
            }
        )
    {
        return Trial::Skipped;
    }
    let outcome = (settings.implementation)(&case.input);
    let record = judge(&case, &outcome, &settings.profile, capabilities);
    if !record.status.is_failure() || another_fault(&case.expect, &outcome) {
        return Trial::Agreed;
    }
    let difference = difference(&case.expect, &outcome, capabilities);
    // The type of a null or unknown next to a failing branch of a
    // conditional is the implementation's (native/ops-conditional-errors-
    // only-from-selected-branch::error-in-a-branch-under-an-unknown-
    // predicate-is-not-reported accepts either).
    let null_or_unknown = |e: &Expectation| {
        matches!(
            e,
            Expectation::Value {
                value: ExpectedValue::Null | ExpectedValue::Unknown,
                ..
            }
        )
    };
    let expected_null = match &case.expect {
        Expectation::OneOf(options) => options.iter().any(null_or_unknown),
        e => null_or_unknown(e),
    };
    if difference == "type differs" && expected_null && input.constructs().contains("conditional") {
        return Trial::Agreed;
    }
    Trial::Disagreed {
        difference,
        record: Box::new(record),
    }
}

/// Whether the answer is an error in the expected phase at a range apart
/// from the reference's: the input may hold two faults, and the spec does
/// not say which one is reported (a suite case pins a range only where
/// there is one). A range that overlaps the reference's but differs is
/// still a difference.
fn another_fault(expect: &Expectation, outcome: &Outcome) -> bool {
    let (
        Expectation::Error {
            phase,
            range: Some(range),
        },
        Outcome::Error(error),
    ) = (expect, outcome)
    else {
        return false;
    };
    let span = |r: &str| -> Option<((usize, usize), (usize, usize))> {
        let (start, end) = r.split_once('-')?;
        let pos = |p: &str| -> Option<(usize, usize)> {
            let (l, c) = p.split_once(':')?;
            Some((l.parse().ok()?, c.parse().ok()?))
        };
        Some((pos(start)?, pos(end)?))
    };
    let Some(expected) = span(range) else {
        return false;
    };
    let ranges = error.ranges();
    *error.phase == *phase
        && !ranges.is_empty()
        && ranges
            .iter()
            .filter_map(|r| span(r))
            .all(|(s, e)| e < expected.0 || s > expected.1 || (e == expected.0 && s != e))
}

/// The kind of a difference, as clusters group them.
pub fn difference(
    expect: &Expectation,
    outcome: &Outcome,
    capabilities: Option<&Capabilities>,
) -> String {
    let exact_types = capabilities.is_none_or(|c| {
        c.features
            .contains(hcl_conformance_format::needs::EXACT_TYPES)
    });
    match (expect, outcome) {
        (_, Outcome::Crashed(_)) => "crash".into(),
        (_, Outcome::TimedOut(_)) => "timeout".into(),
        (_, Outcome::Broken(_) | Outcome::Malformed(_)) => "broken answer".into(),
        (Expectation::Error { phase, .. }, Outcome::Error(e)) if *e.phase == *phase => {
            "error range differs".into()
        }
        (Expectation::Error { phase, .. }, Outcome::Error(e)) => {
            format!(
                "{} error instead of {}",
                Named(*e.phase).0.name(),
                phase.name()
            )
        }
        (Expectation::Error { phase, .. }, _) => format!("accepts a {} error", phase.name()),
        (_, Outcome::Error(e)) => format!("rejects with a {} error", e.phase.0.name()),
        (Expectation::Value { ty, .. }, Outcome::Value { value, .. })
            if exact_types && *ty != value.ty() =>
        {
            "type differs".into()
        }
        (
            Expectation::Value {
                safety: Some(s), ..
            },
            Outcome::Value {
                safety: Some(t), ..
            },
        ) if *s != t.0 => "safety differs".into(),
        (Expectation::Body(_), Outcome::Body(_)) => "body differs".into(),
        _ => "value differs".into(),
    }
}
