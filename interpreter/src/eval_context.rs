//! The evaluation context: the variables in scope, the function table, and
//! the evaluation budget ([`crate::budget`]).
//!
//! Spec: spec.md § Expression Evaluation

use crate::budget::Budget;
use crate::functions::FunctionTable;
use crate::value::Value;
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
