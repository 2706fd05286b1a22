//! Deep recursion on a stack that holds it.
//!
//! The parsers and evaluators of both syntaxes recurse as deep as their
//! input nests, which may be far deeper than a thread's default stack
//! allows. Their work first runs where it is called, on the caller's
//! stack, limited to the nesting that what is left of that stack holds
//! ([`levels_left`]); most inputs nest far less, and pay nothing more than
//! the call. Only an input that nests deeper runs again, on a large stack
//! of its own ([`run`]), switched to on the caller's thread with the
//! `stacker` crate (as rustc does for its deep recursion): the stack is
//! reserved, not committed, so only the pages used are touched; no thread
//! is started; and the work's memory comes from the caller's thread, as the
//! caller's own allocations do.
//!
//! The helper is public for callers: a result nests as deep as its input
//! (a value of 200,000 nested tuples, a body of 200,000 nested blocks), and
//! code that walks one recursively, such as an encoder, needs a large stack
//! as the interpreter does. (Dropping one never recurses.)

use crate::diagnostic::{Diagnostic, Phase};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Why work could not run to its end on a large stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The system refused a stack of that size; the work did not start.
    Refused,
    /// The work panicked (a bug).
    Panicked,
}

impl Failure {
    /// The diagnostic that reports the failure of the work of `syntax`.
    pub(crate) fn diagnostic(self, syntax: &str) -> Vec<Diagnostic> {
        let why = match self {
            Failure::Refused => format!("could not allocate a stack for the {syntax} syntax"),
            Failure::Panicked => format!("the {syntax} syntax code panicked"),
        };
        vec![Diagnostic::new(
            Phase::Eval,
            Diagnostic::INTERNAL_ERROR,
            why,
        )]
    }
}

/// Bytes of the caller's stack kept for the frames around deep work: the
/// callers' frames before it reaches its depth, and its error handling.
const RESERVE: usize = 256 << 10;

/// The number of levels of nesting, `bytes_per_level` bytes of stack each,
/// that what is left of the caller's stack holds (keeping a reserve for the
/// frames around the work): 0 when the stack's extent is not known.
pub fn levels_left(bytes_per_level: usize) -> usize {
    stacker::remaining_stack().map_or(0, |remaining| {
        remaining.saturating_sub(RESERVE) / bytes_per_level.max(1)
    })
}

/// Runs `work` here, on the caller's stack, and returns its result; a panic
/// in the work (a bug) is a [`Failure::Panicked`].
pub fn run_here<T>(work: impl FnOnce() -> T) -> Result<T, Failure> {
    catch_unwind(AssertUnwindSafe(work)).map_err(|_| Failure::Panicked)
}

/// Runs `work` on a stack of `size` bytes and returns its result.
///
/// Callers that handle deeply nested results (a value, a type or a body
/// nested as deep as the input may nest, see [`crate::native`] § Limits)
/// can run that work on a large stack too: [`crate::native::STACK_SIZE`]
/// is enough for the deepest input accepted.
pub fn run<T>(size: usize, work: impl FnOnce() -> T) -> Result<T, Failure> {
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
            Failure::Refused
        }
    })
}
