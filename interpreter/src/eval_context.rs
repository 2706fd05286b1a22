//! The evaluation context: the variables in scope, the function table, and
//! the evaluation budget.
//!
//! Spec: spec.md § Expression Evaluation

use crate::functions::FunctionTable;
use crate::value::Value;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// What an expression is evaluated with: the global variable scope ("a map
/// from variable name to value"), the function table, and the budget of
/// work its evaluations may do.
///
/// Spec: spec.md § Expression Evaluation, § Functions and Function Calls
#[derive(Clone, Debug)]
pub struct EvalContext {
    pub variables: BTreeMap<String, Value>,
    /// "The evaluation context used to evaluate an expression includes a
    /// function table": the conformance table by default. `None` is
    /// literal-only mode, where "variables and functions are not
    /// available": no function may be called. (The variables are the
    /// caller's to leave empty: see [`crate::bodies::check_literal_only`].)
    pub functions: Option<FunctionTable>,
    /// The work that evaluations in this context may do, shared by every
    /// evaluation made with it (see [`Budget`]).
    pub budget: Budget,
}

impl Default for EvalContext {
    /// No variables, the conformance function table, the default budget.
    fn default() -> EvalContext {
        EvalContext {
            variables: BTreeMap::new(),
            functions: Some(FunctionTable::conformance()),
            budget: Budget::default(),
        }
    }
}

impl EvalContext {
    /// The context of literal-only mode: "variables and functions are not
    /// available".
    ///
    /// Spec: spec.md § Expression Evaluation
    pub fn literal_only_mode() -> EvalContext {
        EvalContext {
            functions: None,
            ..EvalContext::default()
        }
    }
}

/// What an expression is evaluated in: an evaluation context, and the
/// variables that enclosing constructs of the calling application define
/// around it (the iterators of the dynamic blocks extension).
///
/// "Variables can also be created by expressions themselves, which always
/// creates a _child scope_ that incorporates the variables from its parent
/// scope but (re-)defines zero or more names with new values", and an
/// extension can do so for the expressions of a body: each such variable
/// is a child scope of the scope around it, and "the most locally-defined
/// variable of the given name is used".
///
/// Spec: spec.md § Expression Evaluation; hclsyntax-spec.md § Variables
/// and Variable Expressions
#[derive(Clone, Debug)]
pub struct EvalScope<'a> {
    context: &'a EvalContext,
    local: Option<Rc<LocalVariable>>,
}

/// A variable of a child scope, and the scope it is in.
#[derive(Debug)]
struct LocalVariable {
    name: String,
    value: Value,
    parent: Option<Rc<LocalVariable>>,
}

impl<'a> EvalScope<'a> {
    /// The global scope of `context`.
    pub fn global(context: &'a EvalContext) -> EvalScope<'a> {
        EvalScope {
            context,
            local: None,
        }
    }

    /// The child scope that defines `name` as `value`.
    pub fn child(&self, name: impl Into<String>, value: Value) -> EvalScope<'a> {
        EvalScope {
            context: self.context,
            local: Some(Rc::new(LocalVariable {
                name: name.into(),
                value,
                parent: self.local.clone(),
            })),
        }
    }

    /// The evaluation context.
    pub fn context(&self) -> &'a EvalContext {
        self.context
    }

    /// Whether a value of a variable of this scope nests deeper than
    /// `levels` (its elements and types counted). Stops as soon as one does.
    pub(crate) fn nests_deeper_than(&self, levels: usize) -> bool {
        let mut local = self.local.as_deref();
        while let Some(variable) = local {
            if variable.value.nests_deeper_than(levels) {
                return true;
            }
            local = variable.parent.as_deref();
        }
        self.context
            .variables
            .values()
            .any(|v| v.nests_deeper_than(levels))
    }

    /// The most locally-defined variable of the given name.
    pub fn variable(&self, name: &str) -> Option<&Value> {
        let mut local = self.local.as_deref();
        while let Some(variable) = local {
            if variable.name == name {
                return Some(&variable.value);
            }
            local = variable.parent.as_deref();
        }
        self.context.variables.get(name)
    }
}

/// Child scopes nest as deep as the constructs that make them, so dropping
/// their chain must not recurse.
impl Drop for LocalVariable {
    fn drop(&mut self) {
        let mut parent = self.parent.take();
        while let Some(variable) = parent {
            parent = match Rc::try_unwrap(variable) {
                Ok(mut last_owner) => last_owner.parent.take(),
                Err(_) => None,
            };
        }
    }
}

/// The evaluation budget: a resource limit of this implementation, not of
/// the language. The spec lets a program ask for work far beyond its size
/// (`[for a in l: [for b in l: [for c in l: 1]]]` builds a billion values
/// from a thousand), so evaluation counts its work in *units* and ends in
/// the eval diagnostic "Evaluation budget exceeded" when the limit is
/// reached, rather than running out of memory or time.
///
/// A unit is one expression evaluated, one value copied or built (each
/// element of a copied collection counts), or 64 bytes of text copied or
/// built (a string's bytes, a template's output). The count is shared by
/// every evaluation made with the same context: a configuration file's
/// attributes share one budget.
///
/// Work in proportion to the input is always allowed: each source an
/// evaluation reads (an expression, a template, a configuration file)
/// raises the limit by one unit per byte, several times what realistic
/// configurations spend (the native benchmark's 50 MB configuration
/// spends about 0.16 units a byte).
///
/// The default, [`Budget::DEFAULT_LIMIT`], is generous: it is far beyond
/// every case of the suite, and keeps a runaway evaluation of a small
/// input to a few seconds and about two gigabytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    limit: Cell<u64>,
    spent: Cell<u64>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget::new(Budget::DEFAULT_LIMIT)
    }
}

/// The evaluation budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BudgetExceeded {
    pub limit: u64,
}

impl BudgetExceeded {
    /// The diagnostic's summary.
    pub const SUMMARY: &'static str = "Evaluation budget exceeded";

    /// The diagnostic's detail.
    pub fn detail(self) -> String {
        format!(
            "This evaluation asks for more than {} units of work (expressions evaluated, values built or copied, 64-byte pieces of text); the limit is set by the evaluation context's budget.",
            self.limit
        )
    }
}

impl Budget {
    /// The default limit: 2^25 units (about 33 million).
    pub const DEFAULT_LIMIT: u64 = 1 << 25;

    /// Bytes of text that count as one unit.
    pub const TEXT_BYTES_PER_UNIT: u64 = 64;

    /// A budget of `limit` units, none spent.
    pub const fn new(limit: u64) -> Budget {
        Budget {
            limit: Cell::new(limit),
            spent: Cell::new(0),
        }
    }

    /// The number of units evaluations may spend (the limit it was made
    /// with, raised by the sources read so far).
    pub fn limit(&self) -> u64 {
        self.limit.get()
    }

    /// Raises the limit for a source of `bytes` bytes about to be read:
    /// work in proportion to the input is always allowed.
    pub(crate) fn allow_source(&self, bytes: usize) {
        self.limit
            .set(self.limit.get().saturating_add(bytes as u64));
    }

    /// The units spent so far.
    pub fn spent(&self) -> u64 {
        self.spent.get()
    }

    /// The units left.
    pub(crate) fn remaining(&self) -> u64 {
        self.limit().saturating_sub(self.spent.get())
    }

    /// Spends `units`, or reports that the budget would be exceeded.
    #[inline]
    pub(crate) fn charge(&self, units: u64) -> Result<(), BudgetExceeded> {
        let spent = self.spent.get().saturating_add(units);
        if spent > self.limit() {
            return Err(BudgetExceeded {
                limit: self.limit(),
            });
        }
        self.spent.set(spent);
        Ok(())
    }

    /// Spends the units of `bytes` bytes of text.
    #[inline]
    pub(crate) fn charge_text(&self, bytes: usize) -> Result<(), BudgetExceeded> {
        self.charge(1 + bytes as u64 / Self::TEXT_BYTES_PER_UNIT)
    }

    /// Spends the units of a copy of `v`: one per value it holds, and those
    /// of its text. Counting stops as soon as the budget is exceeded, so
    /// the count never costs more than the copy it pays for.
    pub(crate) fn charge_copy(&self, v: &Value) -> Result<(), BudgetExceeded> {
        let remaining = self.remaining();
        let mut units: u64 = 0;
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            units += 1;
            match v {
                Value::String(text) => units += text.len() as u64 / Self::TEXT_BYTES_PER_UNIT,
                Value::List(_, elements) | Value::Set(_, elements) | Value::Tuple(elements) => {
                    stack.extend(elements)
                }
                Value::Map(_, entries) | Value::Object(entries) => {
                    for (key, v) in entries {
                        units += key.len() as u64 / Self::TEXT_BYTES_PER_UNIT;
                        stack.push(v);
                    }
                }
                _ => {}
            }
            if units > remaining {
                break;
            }
        }
        self.charge(units)
    }
}
