//! Planted bugs, for proving the differential fuzzer (`hcl-conformance
//! fuzz`, issue 28): never in a release.
//!
//! This module is compiled only with the `planted-bugs` feature, which no
//! workspace crate enables. An `hcl-ref` built with it (scripts/fuzz-planted)
//! plays a wrong implementation behind the protocol: the environment
//! variable `HCL_REF_PLANTED_BUG=NAME` chooses one bug, read once; without
//! it there is no bug and every function here hands its input back as it
//! was. An unknown name makes `hcl-ref` refuse to start
//! ([`check_planted_bug!`](crate::check_planted_bug)).
//!
//! Each bug models a bug that a real implementation had or could plausibly
//! have, and changes one construct only. The interpreter calls one
//! function of this module at that construct, in a hook of one statement
//! under `#[cfg(feature = "planted-bugs")]`; the functions take and give
//! plain data (values, ranges, flags, slices), so that this module, in the
//! information model's layer, names nothing of the syntaxes.
//!
//! Every item is `#[mutants::skip]`: no test build has the feature, so
//! no test could catch a mutant of this code.

use crate::diagnostic::{Phase, Range};
use crate::number::Number;
use crate::types::Type;
use crate::value::Value;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The environment variable that chooses the bug.
pub const VARIABLE: &str = "HCL_REF_PLANTED_BUG";

/// The planted bugs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    /// hashicorp/hcl issue 723 (opentofu/opentofu issue 2327): a splat
    /// over a list gives a list, and a splat over a scalar gives an empty
    /// tuple for a null and a one-element tuple otherwise; nested, the
    /// inner splat's results differ in type from one element to the next,
    /// and hashicorp/hcl panicked building a list of them ("inconsistent
    /// list element types"). Modelled: a splat whose source is null (and
    /// not a null sequence, which is an error) for one element of an
    /// outer splat over a list, set or tuple, and not null for another,
    /// aborts the process. (hashicorp/hcl made a tuple of a tuple's
    /// results and did not crash there; the tuple is included so that
    /// literals reach the bug without list-typed variables.)
    ///
    /// Hook: native/eval/splat.rs, `eval_splat`, after the source is evaluated.
    NestedSplatNull,
    /// Terraform issue 23710: in a `<<-` heredoc, a strip marker changed
    /// the tokens so that the flush processing no longer saw the lines
    /// after it ("When the strip marker is put in the for directive, the
    /// indentation of the heredoc is not removed"). Modelled: the literal
    /// text after the first interpolation or directive that has a strip
    /// marker (`${~`, `~}`, `%{~`) keeps its indentation; the minimum
    /// indentation is still found over every line.
    ///
    /// Hook: native/parser/template/literal.rs, `flush_heredoc`, before the
    /// literals are trimmed.
    FlushStripMarker,
    /// A `<<-` heredoc strips each line's own leading spaces, as the
    /// shell's `<<-` strips tabs, instead of the minimum indentation of
    /// its lines: relative indentation is lost. A line that begins with a
    /// sequence, or holds only spaces, is left alone as before, and no
    /// longer stops the other lines from being trimmed.
    ///
    /// Hook: native/parser/template/literal.rs, `flush_heredoc`, once the
    /// minimum indentation is found.
    HeredocPerLineStrip,
    /// A plain `<<` heredoc is stripped of its lines' common indentation
    /// as if it were a `<<-` heredoc.
    ///
    /// Hook: native/parser/template/mod.rs, `parse_template_expression`.
    PlainHeredocFlush,
    /// A splat over a null value that is not a sequence gives the
    /// one-element tuple `[null]` instead of the empty tuple: the change
    /// proposed in hashicorp/hcl issue 723, which treats a null as any
    /// other single value.
    ///
    /// Hook: native/eval/splat.rs, `eval_splat`, on the result.
    SplatNullOne,
    /// Every `eval`-phase diagnostic's range ends one character later than
    /// it should: its end column and end byte are one more (an exclusive
    /// end counted as inclusive, or inclusive counted as exclusive). The
    /// native syntax's evaluation errors (expressions, templates,
    /// attributes, and the templates of JSON strings), the JSON syntax's
    /// and the dynamic blocks extension's; resource limits and the
    /// extension's body errors keep their ranges.
    ///
    /// Hook: native/mod.rs, `Problem::into_diagnostics`; json/expression.rs
    /// and dynblock/expand.rs, `eval_error`.
    RangeOffByOne,
    /// Converting a string to a number accepts an exponent, `"1e3"` being
    /// 1000, as hashicorp/hcl v2.14 (go-cty's number parser) does, where
    /// the spec allows none: in every conversion (convert requests,
    /// operands, function arguments). (The reference rejects exponents,
    /// so a plant that rejects them would change nothing.)
    ///
    /// Hook: convert/primitive.rs, `string_to_number`.
    StringExponent,
    /// A conditional's result keeps the chosen branch's type instead of
    /// being converted to the unification of both branches' types:
    /// `true ? 1 : "a"` is the number 1, not the string "1". Branches that
    /// do not unify are still an error.
    ///
    /// Hook: native/eval/operators.rs, `eval_conditional`, before the
    /// chosen result is converted.
    ConditionalNoUnify,
    /// In a heredoc, the escapes `$${` and `%%{` are kept as written, as a
    /// lexer that knows them only in quoted templates does: `$${x}` is
    /// the text `$${x}`, not `${x}`.
    ///
    /// Hook: native/lexer/template_file.rs, `text_step` (heredoc mode).
    TemplateEscape,
    /// An object `for` without `...` keeps the last value of a key
    /// produced twice, as a map insertion does, instead of failing.
    ///
    /// Hook: native/eval/for_expr.rs, `Produced::attribute`.
    ObjectForDuplicate,
}

impl Bug {
    /// Every bug, in the order of its documentation.
    pub const ALL: [Bug; 10] = [
        Bug::NestedSplatNull,
        Bug::FlushStripMarker,
        Bug::HeredocPerLineStrip,
        Bug::PlainHeredocFlush,
        Bug::SplatNullOne,
        Bug::RangeOffByOne,
        Bug::StringExponent,
        Bug::ConditionalNoUnify,
        Bug::TemplateEscape,
        Bug::ObjectForDuplicate,
    ];

    /// The bug's name, as `HCL_REF_PLANTED_BUG` gives it.
    #[mutants::skip]
    pub fn name(self) -> &'static str {
        match self {
            Bug::NestedSplatNull => "nested-splat-null",
            Bug::FlushStripMarker => "flush-strip-marker",
            Bug::HeredocPerLineStrip => "heredoc-per-line-strip",
            Bug::PlainHeredocFlush => "plain-heredoc-flush",
            Bug::SplatNullOne => "splat-null-one",
            Bug::RangeOffByOne => "range-off-by-one",
            Bug::StringExponent => "string-exponent",
            Bug::ConditionalNoUnify => "conditional-no-unify",
            Bug::TemplateEscape => "template-escape",
            Bug::ObjectForDuplicate => "object-for-duplicate",
        }
    }
}

/// The bug `HCL_REF_PLANTED_BUG` chooses, read the first time it is asked
/// for: none when the variable is unset or empty, an error naming every
/// bug when it names none of them.
#[mutants::skip]
pub fn chosen() -> Result<Option<Bug>, &'static str> {
    static CHOSEN: OnceLock<Result<Option<Bug>, String>> = OnceLock::new();
    match CHOSEN.get_or_init(read_variable) {
        Ok(bug) => Ok(*bug),
        Err(why) => Err(why.as_str()),
    }
}

#[mutants::skip]
fn read_variable() -> Result<Option<Bug>, String> {
    let Some(name) = std::env::var_os(VARIABLE) else {
        return Ok(None);
    };
    if name.is_empty() {
        return Ok(None);
    }
    match Bug::ALL.into_iter().find(|bug| name == bug.name()) {
        Some(bug) => Ok(Some(bug)),
        None => {
            let names: Vec<&str> = Bug::ALL.iter().map(|bug| bug.name()).collect();
            Err(format!(
                "{VARIABLE}={:?} names no planted bug; the planted bugs are: {}",
                name.to_string_lossy(),
                names.join(", ")
            ))
        }
    }
}

/// `hcl-ref`'s start-up check: `Err` with the message to print when
/// `HCL_REF_PLANTED_BUG` names no planted bug. (Without the feature the
/// macro of the same name in `lib.rs` gives `Ok(())`.)
#[macro_export]
macro_rules! check_planted_bug {
    () => {
        $crate::planted::chosen().map(|_| ())
    };
}

/// Whether `bug` is the one planted.
#[mutants::skip]
fn planted(bug: Bug) -> bool {
    chosen() == Ok(Some(bug))
}

// nested-splat-null: the splats being evaluated on this thread, innermost
// last, and what the splats in their traversals had as their source.
thread_local! {
    static SPLATS: RefCell<Vec<SplatSources>> = const { RefCell::new(Vec::new()) };
}

/// What the splats inside one splat's traversal had as their source.
struct SplatSources {
    /// Whether that splat is over a list, set or tuple.
    over_sequence: bool,
    null: bool,
    not_null: bool,
}

/// The splat being evaluated, until it is dropped.
pub struct SplatInProgress(());

#[mutants::skip]
impl Drop for SplatInProgress {
    fn drop(&mut self) {
        SPLATS.with_borrow_mut(|splats| splats.pop());
    }
}

/// `nested-splat-null`: called with a splat's source as soon as it is
/// evaluated. Records the source's nullness for the splat around it (the
/// innermost one in progress), and aborts the process when that splat,
/// over a list, set or tuple, has now seen a null source and another one;
/// then records this splat as in progress until the result is dropped.
#[mutants::skip]
pub fn nested_splat_null(source: &Value) -> Option<SplatInProgress> {
    if !planted(Bug::NestedSplatNull) {
        return None;
    }
    SPLATS.with_borrow_mut(|splats| {
        if let Some(outer) = splats.last_mut().filter(|outer| outer.over_sequence) {
            match source {
                // A null sequence is an error, an unknown value no value.
                Value::Null(Type::List(_) | Type::Set(_) | Type::Tuple(_)) | Value::Unknown(_) => {}
                Value::Null(_) => outer.null = true,
                _ => outer.not_null = true,
            }
            if outer.null && outer.not_null {
                // The planted crash: hashicorp/hcl panicked here.
                std::process::abort();
            }
        }
        splats.push(SplatSources {
            over_sequence: matches!(source, Value::List(..) | Value::Set(..) | Value::Tuple(_)),
            null: false,
            not_null: false,
        });
    });
    Some(SplatInProgress(()))
}

/// `flush-strip-marker`: the items of a `<<-` heredoc whose literals the
/// flush rule trims: all of them, or with the bug those up to the first
/// that has a strip marker (`strip_markers` gives an item's two).
#[mutants::skip]
pub fn flush_strip_marker<T>(items: &mut [T], strip_markers: impl Fn(&T) -> [bool; 2]) -> &mut [T] {
    if !planted(Bug::FlushStripMarker) {
        return items;
    }
    match items
        .iter()
        .position(|item| strip_markers(item).contains(&true))
    {
        Some(first) => &mut items[..=first],
        None => items,
    }
}

/// `heredoc-per-line-strip`: the number of leading spaces the flush rule
/// removes from each line (`None`: the heredoc has no line to trim); with
/// the bug, all of them.
#[mutants::skip]
pub fn heredoc_per_line_strip(minimum: Option<usize>) -> Option<usize> {
    match planted(Bug::HeredocPerLineStrip) {
        true => Some(usize::MAX),
        false => minimum,
    }
}

/// `plain-heredoc-flush`: whether a template expression is flushed; with
/// the bug, every heredoc.
#[mutants::skip]
pub fn plain_heredoc_flush(heredoc: bool, flush: bool) -> bool {
    flush || (heredoc && planted(Bug::PlainHeredocFlush))
}

/// `splat-null-one`: a splat's result; with the bug, the one-element tuple
/// of a source that is a null of no sequence type.
#[mutants::skip]
pub fn splat_null_one(source: &Value, result: Value) -> Value {
    match source {
        Value::Null(Type::List(_) | Type::Set(_) | Type::Tuple(_)) => result,
        Value::Null(_) if planted(Bug::SplatNullOne) => Value::Tuple(vec![source.clone()]),
        _ => result,
    }
}

/// `range-off-by-one`: a diagnostic's range; with the bug, an `eval`
/// diagnostic's ends one character (column and byte) later.
#[mutants::skip]
pub fn range_off_by_one(phase: Phase, mut range: Range) -> Range {
    if phase == Phase::Eval && planted(Bug::RangeOffByOne) {
        range.end.column += 1;
        range.end.byte += 1;
    }
    range
}

/// `string-exponent`: with the bug, the number a string with an exponent
/// stands for: `[-+]?` digits with at most one period (as the reference
/// reads them), then `[eE][-+]?[0-9]+`. `None` leaves the string to the
/// reference's reading.
#[mutants::skip]
pub fn string_exponent(s: &str) -> Option<Number> {
    if !planted(Bug::StringExponent) {
        return None;
    }
    let (mantissa, exponent) = s.split_once(['e', 'E'])?;
    let (sign, unsigned) = match mantissa.strip_prefix('-') {
        Some(unsigned) => ("-", unsigned),
        None => ("", mantissa.strip_prefix('+').unwrap_or(mantissa)),
    };
    let (integer, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    let exponent_digits = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
    if (integer.is_empty() && fraction.is_empty())
        || !digits(integer)
        || !digits(fraction)
        || exponent_digits.is_empty()
        || !digits(exponent_digits)
    {
        return None;
    }
    let integer = if integer.is_empty() { "0" } else { integer };
    let fraction = if fraction.is_empty() { "0" } else { fraction };
    Number::parse_decimal(&format!("{sign}{integer}.{fraction}e{exponent}"), true).ok()
}

/// `conditional-no-unify`: whether a conditional gives its chosen result
/// as it is, without converting it to the unified type.
#[mutants::skip]
pub fn conditional_no_unify() -> bool {
    planted(Bug::ConditionalNoUnify)
}

/// `template-escape`: whether an escape `$${` or `%%{` read in a heredoc
/// (`heredoc`) or elsewhere is kept as text.
#[mutants::skip]
pub fn template_escape(heredoc: bool) -> bool {
    heredoc && planted(Bug::TemplateEscape)
}

/// `object-for-duplicate`: with the bug, the value of a key an object
/// `for` has produced before replaces the earlier one, and `None` is
/// returned; otherwise the value is handed back.
#[mutants::skip]
pub fn object_for_duplicate(
    object: &mut BTreeMap<String, Value>,
    name: &str,
    value: Value,
) -> Option<Value> {
    match object.get_mut(name) {
        Some(earlier) if planted(Bug::ObjectForDuplicate) => {
            *earlier = value;
            None
        }
        _ => Some(value),
    }
}
