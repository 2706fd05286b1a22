//! Deep recursion on a stack that holds it.
//!
//! The parsers and evaluators of both syntaxes recurse as deep as their
//! input nests, which may be far deeper than a thread's default stack
//! allows. Their work first runs where it is called, on the caller's
//! stack, limited to the nesting that what is left of that stack holds
//! ([`levels_left`]); most inputs nest far less, and pay nothing more than
//! the call. Only an input that nests deeper runs again, on a larger stack
//! of its own ([`run`]), switched to on the caller's thread with the
//! `stacker` crate (as rustc does for its deep recursion): no thread is
//! started, and the work's memory comes from the caller's thread, as the
//! caller's own allocations do.
//!
//! A larger stack is taken in steps ([`with_nesting_limit`]): each step
//! reserves [`STEP_FACTOR`] times the address space of the one before,
//! from [`FIRST_STEP`] up to what the deepest accepted input needs, and an
//! input that nests deeper than a step holds runs again on the next. A
//! stack is reserved, not committed: only the pages the work touches take
//! memory, so the steps bound the address space a process reserves (a
//! process capped at 1 GiB of it runs every input its cap allows), not its
//! memory. Should the system refuse a step, the input that needed it ends
//! in a diagnostic that says so, and the caller goes on.
//!
//! The helpers are public for callers: a result nests as deep as its input
//! (a value of 200,000 nested tuples, a body of 200,000 nested blocks), and
//! code that walks one recursively, such as an encoder, needs a stack that
//! holds it as the interpreter does ([`run_levels`]). (Dropping one never
//! recurses.)

use crate::diagnostic::{Diagnostic, Phase};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Why work could not run to its end on a large stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The system refused a stack of this many bytes; the work did not
    /// start.
    Refused(usize),
    /// The work panicked (a bug).
    Panicked,
}

/// The summary of the diagnostic of work that needed a larger stack than
/// the system grants.
pub const NOT_ENOUGH_STACK: &str = "Not enough stack";

impl Failure {
    /// The diagnostic that reports the failure of the work of `syntax`.
    pub fn diagnostic(self, syntax: &str) -> Vec<Diagnostic> {
        vec![match self {
            Failure::Refused(size) => Diagnostic::new(
                Phase::Eval,
                NOT_ENOUGH_STACK,
                format!(
                    "The {syntax} syntax needed a stack of {} for this input's nesting, and the system refused it.",
                    mebibytes(size)
                ),
            ),
            Failure::Panicked => Diagnostic::new(
                Phase::Eval,
                Diagnostic::INTERNAL_ERROR,
                format!("the {syntax} syntax code panicked"),
            ),
        }]
    }
}

/// A size in bytes, in mebibytes, for messages.
fn mebibytes(bytes: usize) -> String {
    format!("{} MiB", bytes.div_ceil(1 << 20))
}

/// Bytes of the caller's stack kept for the frames around deep work: the
/// callers' frames before it reaches its depth, and its error handling.
const RESERVE: usize = 256 << 10;

/// The first larger stack taken for deep work.
pub const FIRST_STEP: usize = 16 << 20;

/// How much larger each step's stack is than the one before.
pub const STEP_FACTOR: usize = 4;

/// The number of levels of nesting, `bytes_per_level` bytes of stack each,
/// that what is left of the caller's stack holds (keeping a reserve for the
/// frames around the work): 0 when the stack's extent is not known.
pub fn levels_left(bytes_per_level: usize) -> usize {
    stacker::remaining_stack().map_or(0, |remaining| {
        remaining.saturating_sub(RESERVE) / bytes_per_level.max(1)
    })
}

/// The stack `levels` levels of `bytes_per_level` bytes each need, with the
/// reserve for the frames around them.
pub fn stack_for(levels: usize, bytes_per_level: usize) -> usize {
    levels
        .saturating_mul(bytes_per_level)
        .saturating_add(RESERVE)
}

/// The number of levels of `bytes_per_level` bytes a stack of `size` bytes
/// holds (the inverse of [`stack_for`]).
fn levels_in(size: usize, bytes_per_level: usize) -> usize {
    size.saturating_sub(RESERVE) / bytes_per_level.max(1)
}

/// The steps of stack size up to `largest`: [`FIRST_STEP`] and each
/// [`STEP_FACTOR`] times the one before while smaller than `largest`, then
/// `largest`.
fn steps(largest: usize) -> impl Iterator<Item = usize> {
    let mut next = Some(FIRST_STEP.min(largest));
    std::iter::from_fn(move || {
        let step = next?;
        next = (step < largest).then(|| step.saturating_mul(STEP_FACTOR).min(largest));
        Some(step)
    })
}

/// Runs `work` here, on the caller's stack, and returns its result; a panic
/// in the work (a bug) is a [`Failure::Panicked`].
pub fn run_here<T>(work: impl FnOnce() -> T) -> Result<T, Failure> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|_| Failure::Panicked)
}

/// Whether the system grants `size` bytes of address space now: reserved
/// and released at once, without touching it. `stacker` panics when it is
/// refused a stack; asking first keeps that panic, and the trace the panic
/// hook prints, for a race with another thread's allocations.
fn granted(size: usize) -> bool {
    Vec::<u8>::new().try_reserve_exact(size).is_ok()
}

/// Runs `work` on a stack of `size` bytes and returns its result: a
/// [`Failure::Refused`] if the system refuses the stack, a
/// [`Failure::Panicked`] if the work panics (a bug).
///
/// Callers that handle deeply nested results (a value, a type or a body
/// nested as deep as the input may nest, see [`crate::native`] § Limits)
/// can run that work on a large stack too, best with [`run_levels`].
pub fn run<T>(size: usize, work: impl FnOnce() -> T) -> Result<T, Failure> {
    if !granted(size) {
        return Err(Failure::Refused(size));
    }
    let started = Cell::new(false);
    catch_unwind(AssertUnwindSafe(|| {
        stacker::grow(size, || {
            started.set(true);
            work()
        })
    }))
    .map_err(|_| {
        if started.get() {
            Failure::Panicked
        } else {
            Failure::Refused(size)
        }
    })
}

/// Runs `work`, which recurses `levels` levels deep, `bytes_per_level`
/// bytes of stack each: here if what is left of the caller's stack holds
/// them, or else on a stack that does (at least [`FIRST_STEP`]).
pub fn run_levels<T>(
    levels: usize,
    bytes_per_level: usize,
    work: impl FnOnce() -> T,
) -> Result<T, Failure> {
    if levels <= levels_left(bytes_per_level) {
        return run_here(work);
    }
    run(stack_for(levels, bytes_per_level).max(FIRST_STEP), work)
}

/// The nesting that a syntax's deep work accepts.
pub(crate) struct Nesting {
    /// The syntax, for messages ("native", "JSON").
    pub syntax: &'static str,
    /// The deepest nesting accepted.
    pub max_levels: usize,
    /// The stack one level of nesting may take, parsing and evaluation
    /// together, in debug builds too.
    pub bytes_per_level: usize,
}

/// The summary of the parse error of an input nested deeper than the
/// limit, in both syntaxes.
pub(crate) const NESTING_TOO_DEEP: &str = "Nesting too deep";

/// Whether a parse stopped at the nesting limit.
fn too_deep(diagnostics: &[Diagnostic]) -> bool {
    diagnostics
        .first()
        .is_some_and(|d| d.phase == Phase::Parse && d.summary == NESTING_TOO_DEEP)
}

/// Runs `work`, which parses a source (and evaluates it, if it may) and
/// recurses as deep as it nests, giving it the nesting limit it must keep
/// to: first here, on the caller's stack, with the limit what is left of it
/// holds; then, as long as the input nests deeper than the limit of the
/// last try, again on a larger stack, in steps ([`steps`]) up to the one
/// that holds `nesting.max_levels`. Steps that cannot hold the input's
/// nesting as `estimate` gives it (asked only when the input does not fit
/// here; it may count low, not high) are skipped, and so are steps that
/// cannot hold the values of the variables the evaluation reads (it
/// recurses through them too), which the caller may have nested deeper
/// (`variables_deeper_than`).
///
/// Should the system refuse a step's stack, the input ends in the
/// diagnostic of the last try ("Nesting too deep" at its limit), which then
/// says that a larger stack was refused, or, with no try at all, in
/// [`Failure::Refused`]'s. A panic in the work (a bug) is reported as a
/// diagnostic rather than propagated.
pub(crate) fn with_nesting_limit<T>(
    nesting: &Nesting,
    estimate: impl FnOnce() -> usize,
    variables_deeper_than: impl Fn(usize) -> bool,
    work: impl Fn(usize) -> Result<T, Vec<Diagnostic>>,
) -> Result<T, Vec<Diagnostic>> {
    let bytes_per_level = nesting.bytes_per_level;
    let max = nesting.max_levels;
    let here = levels_left(bytes_per_level).min(max);
    // The deepest limit tried so far, and its "Nesting too deep".
    let mut tried = 0;
    let mut last_too_deep = None;
    if here >= MIN_LEVELS_HERE && (here == max || !variables_deeper_than(here)) {
        match run_here(|| work(here)) {
            Ok(Err(diagnostics)) if here < max && too_deep(&diagnostics) => {
                tried = here;
                last_too_deep = Some(diagnostics);
            }
            Ok(result) => return result,
            Err(failure) => return Err(failure.diagnostic(nesting.syntax)),
        }
    }
    let largest = stack_for(max, bytes_per_level);
    let estimate = estimate().min(max);
    let levels = |size| levels_in(size, bytes_per_level).min(max);
    // Whether a stack of `size` may hold the input: more than the deepest
    // limit tried, and the variables.
    let worth = |size, tried| levels(size) > tried && !variables_deeper_than(levels(size));
    let mut refused = None;
    for size in steps(largest) {
        // Steps that cannot hold the estimated nesting are skipped.
        if size < largest && (levels(size) < estimate || !worth(size, tried)) {
            continue;
        }
        match run(size, || work(levels(size))) {
            Ok(Err(diagnostics)) if levels(size) < max && too_deep(&diagnostics) => {
                tried = levels(size);
                last_too_deep = Some(diagnostics);
            }
            Ok(result) => return result,
            Err(Failure::Refused(size)) => {
                refused = Some(size);
                break;
            }
            Err(failure) => return Err(failure.diagnostic(nesting.syntax)),
        }
    }
    let Some(refused) = refused else {
        // Only a limit below the maximum is retried, and the last step
        // holds the maximum: not reached.
        return Err(last_too_deep.unwrap_or_else(|| Failure::Panicked.diagnostic(nesting.syntax)));
    };
    // The system refused a step: smaller stacks than it that may still
    // hold the input, the largest first: the one the estimate needs (with a
    // quarter more, for the levels the estimate does not count), then the
    // steps skipped.
    let needed = (estimate + estimate / 4 + 16).min(max);
    let mut fallbacks: Vec<usize> = steps(largest)
        .chain([stack_for(needed, bytes_per_level)])
        .filter(|&size| size < refused && worth(size, tried))
        .collect();
    fallbacks.sort_unstable_by(|a, b| b.cmp(a));
    fallbacks.dedup();
    for size in fallbacks {
        match run(size, || work(levels(size))) {
            Ok(Err(diagnostics)) if levels(size) < max && too_deep(&diagnostics) => {
                return Err(refused_deeper(diagnostics, refused));
            }
            Ok(result) => return result,
            Err(Failure::Refused(_)) => {}
            Err(failure) => return Err(failure.diagnostic(nesting.syntax)),
        }
    }
    Err(match last_too_deep {
        Some(diagnostics) => refused_deeper(diagnostics, refused),
        None => Failure::Refused(refused).diagnostic(nesting.syntax),
    })
}

/// With fewer levels than this left on the caller's stack, work goes
/// straight to a larger stack.
pub(crate) const MIN_LEVELS_HERE: usize = 32;

/// The "Nesting too deep" diagnostics of a try, saying that the stack a
/// deeper nesting needs, `size` bytes, was refused.
fn refused_deeper(mut diagnostics: Vec<Diagnostic>, size: usize) -> Vec<Diagnostic> {
    if let Some(first) = diagnostics.first_mut() {
        first.detail.push_str(&format!(
            " Deeper nesting needs a larger stack ({}), which the system refused.",
            mebibytes(size)
        ));
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_grow_by_the_factor_up_to_the_largest() {
        let all: Vec<usize> = steps(2 << 30).collect();
        assert_eq!(all, [16 << 20, 64 << 20, 256 << 20, 1 << 30, 2 << 30]);
        let small: Vec<usize> = steps(100 << 20).collect();
        assert_eq!(small, [16 << 20, 64 << 20, 100 << 20]);
        assert_eq!(steps(1 << 20).collect::<Vec<_>>(), [1 << 20]);
    }

    #[test]
    fn a_stack_is_sized_for_its_levels() {
        assert_eq!(levels_in(stack_for(1_000, 100), 100), 1_000);
        assert_eq!(levels_in(RESERVE / 2, 100), 0);
    }

    #[test]
    fn a_stack_the_system_refuses_is_reported_not_panicked() {
        // More address space than a 64-bit process has.
        let size = 1 << 62;
        assert_eq!(run(size, || 1), Err(Failure::Refused(size)));
        let diagnostics = Failure::Refused(size).diagnostic("native");
        assert_eq!(diagnostics[0].summary, NOT_ENOUGH_STACK);
    }

    #[test]
    fn work_runs_here_when_its_levels_fit() {
        let here = stacker::remaining_stack();
        let (inside, moved) =
            run_levels(1, 1, || (stacker::remaining_stack(), true)).expect("runs");
        assert!(moved);
        // Here: the same stack, less what the calls took.
        assert!(inside <= here && inside.unwrap_or(0) + (64 << 10) > here.unwrap_or(0));
        let far = run_levels(100, 1 << 20, stacker::remaining_stack).expect("runs");
        assert!(far.unwrap_or(0) >= 100 << 20);
    }
}
