//! The native syntax: configuration files, expressions and templates.
//!
//! Spec: hclsyntax-spec.md § HCL Native Syntax Specification
//!
//! Spec: 002_e701fb6c663d6b71.txt § Lexical Analysis (the lexer modes)
//!
//! Spec: spec.md § Expression Evaluation, § Functions and Function Calls
//!
//! - [`lexer`]: source text to tokens, one module per lexer mode;
//! - `parser`: tokens to the syntax tree of [`ast`] (§ Structural
//!   Elements, § Expressions, § Templates);
//! - `eval`: the value of an expression or template in a scope, one module
//!   per section of § Expressions and § Templates;
//! - `config`: a configuration file's attributes evaluated, its blocks
//!   kept;
//! - `dynblock`: the dynamic blocks extension (`dynamic` blocks expanded).
//!
//! The public API is [`eval_expression`], [`eval_template`],
//! [`eval_config`] and [`eval_config_with_extensions`], and the parse-only
//! [`parse_expression`], [`parse_template`] and [`parse_config`]. Parse
//! errors have [`Phase::Parse`], evaluation errors [`Phase::Eval`]; every
//! diagnostic has a source range. The parser stops at its first error and
//! so does the evaluator, so there is one diagnostic.
//!
//! # Limits
//!
//! - **Nesting**: input may nest at most [`MAX_NESTING_DEPTH`] levels. A
//!   level is a nested expression (inside parentheses, brackets, braces,
//!   an interpolation, a function argument, an operand of a unary operator
//!   or a branch of a conditional), a block body, a template directive, and
//!   each link of a chain of binary operators or postfix operators (so
//!   `1 + 1 + ... + 1` with more than that many operators is also
//!   rejected). Deeper input is a parse error ("Nesting too deep").
//! - **Stack**: parsing and evaluation run on a [`STACK_SIZE`] stack of
//!   their own, switched to on the caller's thread (reserved, not
//!   committed: only the pages used are touched), enough for the deepest
//!   accepted input. Should the system refuse that stack, smaller ones are
//!   tried with proportionally smaller nesting limits. A value nested
//!   100,000 levels deep, such as the result of 100,000 nested brackets,
//!   is returned to the caller. Dropping it (a [`Value`], its [`Type`], a
//!   [`Body`]) never recurses; comparing, converting or encoding it does,
//!   through [`Value`]'s own code: callers doing that need a large stack
//!   too ([`crate::large_stack::run`]). The syntax trees of the parse-only
//!   entry points drop themselves on a large stack ([`Parsed`]).
//!
//!   [`Type`]: crate::types::Type
//! - **Size**: a source may be at most [`source::MAX_SOURCE_LEN`] bytes
//!   (4 GiB), since spans hold 32-bit offsets. A source is held in memory
//!   with its syntax tree (tokens are read from the lexer as the parser
//!   needs them), about 8 bytes per byte of a typical configuration; the
//!   tree is kept until [`eval_config`] has evaluated the whole file, so
//!   the tree and the result are both held at the end (the `native`
//!   benchmark's peak memory is about 9 to 12 times its input when parsing,
//!   14 to 18 times when evaluating too).
//! - **Time**: lexing, parsing and the evaluation of templates and
//!   expressions are linear in the size of the input (apart from the
//!   work the program itself asks for, such as nested `for` expressions).
//!   That work is bounded by the context's evaluation budget
//!   ([`crate::eval_context::Budget`]): beyond it, evaluation ends in the
//!   eval diagnostic "Evaluation budget exceeded". Variable lookup walks the chain of `for` scopes, so an expression
//!   nested n `for` expressions deep that refers to an outer variable at
//!   every level costs O(n²).

pub mod ast;
mod body;
mod config;
mod dynblock;
mod eval;
pub mod lexer;
mod parser;
pub mod source;
pub mod static_analysis;

use crate::diagnostic::{Diagnostic, Phase, Range};
use crate::eval_context::EvalContext;
use crate::large_stack::{self, Failure};
use crate::value::Value;
use source::{LineIndex, Span};
use std::collections::BTreeMap;
use std::ops::Deref;

pub use body::process_config;

/// The diagnostics of a rejected input.
pub type Diagnostics = Vec<Diagnostic>;

/// The deepest nesting accepted (see the module documentation).
pub const MAX_NESTING_DEPTH: usize = 200_000;

/// The stack of parsing and evaluation: 2 GiB, about 10 KiB per
/// level of [`MAX_NESTING_DEPTH`]. The deepest input of every nesting
/// construct fits, in debug builds too (`tests.rs` checks it); release
/// builds use about a third of that.
pub const STACK_SIZE: usize = 2 << 30;

/// Trees no deeper than this are dropped where they are.
const SHALLOW_DEPTH: usize = 1_000;

/// A configuration file's body: every attribute evaluated, and its blocks
/// in source order.
///
/// Spec: hclsyntax-spec.md § Bodies; spec.md § Body Content
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Body {
    pub attributes: BTreeMap<String, Value>,
    pub blocks: Vec<Block>,
}

/// Bodies nest as deeply as their source's blocks (up to
/// [`MAX_NESTING_DEPTH`] levels), so dropping one must not recurse: the
/// blocks of every level are moved onto one heap stack and dropped there,
/// each with no blocks left in its body.
impl Drop for Body {
    fn drop(&mut self) {
        if self.blocks.iter().all(|block| block.body.blocks.is_empty()) {
            return;
        }
        let mut blocks = std::mem::take(&mut self.blocks);
        while let Some(mut block) = blocks.pop() {
            blocks.append(&mut block.body.blocks);
        }
    }
}

/// A block: its type, its labels and its body.
///
/// Spec: hclsyntax-spec.md § Blocks
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub type_name: String,
    pub labels: Vec<String>,
    pub body: Body,
}

/// Parses a whole expression, then evaluates it in `ctx`.
///
/// Spec: hclsyntax-spec.md § Expressions; spec.md § Expression Evaluation
pub fn eval_expression(source: &str, ctx: &EvalContext) -> Result<Value, Diagnostics> {
    ctx.budget.allow_source(source.len());
    on_large_stack(|depth_limit| {
        let parsed = parse_phase(source, depth_limit, parser::parse_expression_source)?;
        eval::evaluate_expression(&parsed.tree, &parsed.arena, ctx)
            .map_err(|p| p.into_diagnostics(source, Phase::Eval))
    })
}

/// Parses a template in template file mode, then evaluates it in `ctx`.
///
/// Spec: hclsyntax-spec.md § Templates
pub fn eval_template(source: &str, ctx: &EvalContext) -> Result<Value, Diagnostics> {
    ctx.budget.allow_source(source.len());
    on_large_stack(|depth_limit| {
        let parsed = parse_phase(source, depth_limit, parser::parse_template_source)?;
        eval::evaluate_template(&parsed.tree, &parsed.arena, ctx)
            .map_err(|p| p.into_diagnostics(source, Phase::Eval))
    })
}

/// Parses a configuration file, then evaluates every attribute in `ctx`.
///
/// Spec: hclsyntax-spec.md § Structural Elements
pub fn eval_config(source: &str, ctx: &EvalContext) -> Result<Body, Diagnostics> {
    ctx.budget.allow_source(source.len());
    on_large_stack(|depth_limit| {
        let parsed = parse_phase(source, depth_limit, parser::parse_config_file)?;
        config::evaluate_config_file(parsed.tree, &parsed.arena, ctx)
            .map_err(|p| p.into_diagnostics(source, Phase::Eval))
    })
}

/// Parses a configuration file, then evaluates every attribute in `ctx`;
/// with `dynblock`, every `dynamic` block is first replaced by the blocks
/// it generates (the dynamic blocks extension, in every body at every
/// depth). Without extensions this is [`eval_config`].
///
/// Spec: hclsyntax-spec.md § Structural Elements;
/// ext-dynblock-README.md § HCL Dynamic Blocks Extension
pub fn eval_config_with_extensions(
    source: &str,
    ctx: &EvalContext,
    dynblock: bool,
) -> Result<Body, Diagnostics> {
    if !dynblock {
        return eval_config(source, ctx);
    }
    ctx.budget.allow_source(source.len());
    on_large_stack(|depth_limit| {
        let parsed = parse_phase(source, depth_limit, parser::parse_config_file)?;
        dynblock::evaluate_config_file(&parsed.tree, &parsed.arena, ctx)
            .map_err(|p| p.into_diagnostics(source, Phase::Eval))
    })
}

/// Parses a whole expression.
///
/// Spec: hclsyntax-spec.md § Expressions
pub fn parse_expression(source: &str) -> Result<Parsed<ast::Expression>, Diagnostics> {
    parse_only(source, parser::parse_expression_source)
}

/// Parses a template in template file mode.
///
/// Spec: hclsyntax-spec.md § Templates
pub fn parse_template(source: &str) -> Result<Parsed<ast::Template>, Diagnostics> {
    parse_only(source, parser::parse_template_source)
}

/// Parses a configuration file.
///
/// Spec: hclsyntax-spec.md § Structural Elements
pub fn parse_config(source: &str) -> Result<Parsed<ast::ConfigFile>, Diagnostics> {
    parse_only(source, parser::parse_config_file)
}

/// A syntax tree and the source it was read from.
///
/// The blocks of a configuration file nest as deep as the accepted nesting,
/// which would overflow a small stack when dropped, so a deep tree is
/// dropped on a large stack. (Expressions are nodes of the tree's arena,
/// whose drop is flat.)
pub struct Parsed<T: Send + 'static> {
    tree: Option<T>,
    arena: ast::Arena,
    depth: usize,
    lines: LineIndex,
}

impl<T: Send + 'static> Parsed<T> {
    pub fn tree(&self) -> &T {
        self.tree.as_ref().expect("present until dropped")
    }

    /// The nodes of the tree.
    pub fn arena(&self) -> &ast::Arena {
        &self.arena
    }

    /// The source range of a span of the tree.
    pub fn range(&self, span: Span) -> Range {
        self.lines.range(span)
    }

    /// The source text.
    pub fn source(&self) -> &str {
        self.lines.source()
    }
}

impl<T: Send + 'static> Deref for Parsed<T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.tree()
    }
}

impl<T: Send + 'static> std::fmt::Debug for Parsed<T>
where
    T: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.tree.fmt(f)
    }
}

impl<T: Send + 'static> Drop for Parsed<T> {
    fn drop(&mut self) {
        let Some(tree) = self.tree.take() else {
            return;
        };
        if self.depth <= SHALLOW_DEPTH {
            return;
        }
        // Without a large stack, the tree is leaked rather than dropped on
        // a stack that may be too small.
        let mut tree = Some(tree);
        if large_stack::run(STACK_SIZE, || drop(tree.take())).is_err() {
            std::mem::forget(tree);
        }
    }
}

/// An error found by the lexer, the parser or the evaluator: where, and
/// what. The phase and the line and column are added at the public API.
///
/// Boxed, so that the `Result`s passed up through deep recursion stay
/// small.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem(Box<ProblemData>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct ProblemData {
    span: Span,
    summary: String,
    detail: String,
}

impl Problem {
    #[cold]
    pub fn new(span: Span, summary: impl Into<String>, detail: impl Into<String>) -> Problem {
        Problem(Box::new(ProblemData {
            span,
            summary: summary.into(),
            detail: detail.into(),
        }))
    }

    fn into_diagnostics(self, source: &str, phase: Phase) -> Diagnostics {
        let lines = LineIndex::new(source);
        let data = *self.0;
        vec![Diagnostic {
            phase,
            summary: data.summary,
            detail: data.detail,
            range: Some(lines.range(data.span)),
        }]
    }
}

/// The parse phase of every entry point: the length and byte order mark
/// checks, then the parser.
///
/// "UTF-8 encoded Unicode byte order marks are not permitted": a leading
/// U+FEFF is a parse error. (A `&str` is valid UTF-8, so "Invalid or
/// non-normalized UTF-8 encoding" cannot occur.)
/// SPEC-GAP(spec-notes/gaps/lexical-byte-order-mark.md)
///
/// Spec: hclsyntax-spec.md § Source Code Representation
fn parse_phase<T>(
    source: &str,
    depth_limit: usize,
    parse: fn(&str, usize) -> Result<parser::ParseOutput<T>, Problem>,
) -> Result<parser::ParseOutput<T>, Diagnostics> {
    if source.len() > source::MAX_SOURCE_LEN {
        return Err(vec![Diagnostic::new(
            Phase::Parse,
            "Source too long",
            format!(
                "This implementation reads sources of at most {} bytes.",
                source::MAX_SOURCE_LEN
            ),
        )]);
    }
    if source.starts_with('\u{FEFF}') {
        let problem = Problem::new(
            Span::new(0, '\u{FEFF}'.len_utf8()),
            "Byte order mark",
            "UTF-8 encoded Unicode byte order marks are not permitted.",
        );
        return Err(problem.into_diagnostics(source, Phase::Parse));
    }
    parse(source, depth_limit).map_err(|p| p.into_diagnostics(source, Phase::Parse))
}

fn parse_only<T: Send + 'static>(
    source: &str,
    parse: fn(&str, usize) -> Result<parser::ParseOutput<T>, Problem>,
) -> Result<Parsed<T>, Diagnostics> {
    let output = on_large_stack(|depth_limit| parse_phase(source, depth_limit, parse))?;
    Ok(Parsed {
        tree: Some(output.tree),
        arena: output.arena,
        depth: output.depth,
        lines: LineIndex::new(source),
    })
}

/// Runs `work` on a [`STACK_SIZE`] stack (see [`crate::large_stack`]),
/// giving it the nesting limit that stack allows, and returns its result.
///
/// Should the system refuse so large a stack, smaller ones are tried with
/// proportionally smaller limits. A failure to get any stack, or a panic in
/// the work (a bug), is reported as a diagnostic rather than propagated.
fn on_large_stack<T>(work: impl Fn(usize) -> Result<T, Diagnostics>) -> Result<T, Diagnostics> {
    let mut failure = Failure::Refused;
    for divisor in [1, 8, 64] {
        match large_stack::run(STACK_SIZE / divisor, || work(MAX_NESTING_DEPTH / divisor)) {
            Ok(result) => return result,
            Err(Failure::Refused) => {}
            Err(panicked) => {
                failure = panicked;
                break;
            }
        }
    }
    Err(failure.diagnostic("native"))
}

#[cfg(test)]
mod tests;
