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
//! - `body`: a configuration file's body under body processing
//!   ([`crate::bodies`]): as written, or with a schema;
//! - [`static_analysis`]: § Static Analysis, for the native syntax's
//!   expressions.
//!
//! The public API is [`eval_expression`], [`eval_template`]
//! and [`eval_config`], the parse-only [`parse_expression`],
//! [`parse_template`] and [`parse_config`], and, for
//! code above the syntax, the interfaces of [`crate::bodies`] and
//! [`crate::static_analysis`] ([`with_config_body`], the views of
//! [`ast`]). Parse
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
//! - **Stack**: parsing and evaluation run where they are called, on the
//!   caller's stack, with the nesting limit that what is left of it holds
//!   ([`BYTES_PER_LEVEL`] per level); an input that nests deeper, or a
//!   context whose variables do, runs again on a larger stack of its own,
//!   switched to on the caller's thread, in steps of 16 MiB, 64 MiB, 256
//!   MiB and 1 GiB up to [`STACK_SIZE`], which holds the deepest accepted
//!   input (see [`crate::large_stack`]). A stack is reserved, not
//!   committed: only the pages used are touched. Should the system refuse
//!   a step, the input that needed it is a parse error ("Nesting too deep")
//!   that says so. A value nested 100,000 levels deep, such as the result
//!   of 100,000 nested brackets, is returned to the caller. Dropping it (a
//!   [`Value`], its [`Type`], a [`Body`]) never recurses; comparing,
//!   converting or encoding it does, through [`Value`]'s own code: callers
//!   doing that need a stack that holds it too
//!   ([`crate::large_stack::run_levels`]). A syntax tree ([`Parsed`]) is a
//!   few flat vectors: dropping it never recurses either.
//!
//!   [`Type`]: crate::types::Type
//! - **Size**: a source may be at most [`crate::source::MAX_SOURCE_LEN`] bytes
//!   (2 GiB), since spans hold 32-bit offsets. A source is held in memory
//!   with its syntax tree (tokens are read from the lexer as the parser
//!   needs them), about 5 bytes per byte of a typical configuration; the
//!   tree is kept until [`eval_config`] has evaluated the whole file, so
//!   the tree and the result are both held at the end (the `native`
//!   benchmark's peak memory is about 6 to 9 times its input when parsing,
//!   13 to 16 times when evaluating too; see `interpreter/PERFORMANCE.md`).
//! - **Time**: lexing, parsing and the evaluation of templates and
//!   expressions are linear in the size of the input (apart from the
//!   work the program itself asks for, such as nested `for` expressions).
//!   That work is bounded by the context's evaluation budget
//!   ([`crate::budget::Budget`]): beyond it, evaluation ends in the
//!   eval diagnostic "Evaluation budget exceeded". Variable lookup walks the chain of `for` scopes, so an expression
//!   nested n `for` expressions deep that refers to an outer variable at
//!   every level costs O(n²).

pub mod ast;
mod body;
mod eval;
pub mod lexer;
mod parser;
pub mod static_analysis;

use crate::bodies::{self, BodyContent, ContentBlock, Processing};
use crate::diagnostic::{Diagnostic, Phase, Range};
use crate::eval_context::{EvalContext, EvalScope};
use crate::large_stack;
use crate::source::{self, LineIndex, Span};
use crate::value::Value;
use ast::node;
use lexer::StartMode;

pub use body::{with_config_body, NativeBody};

/// The diagnostics of a rejected input.
pub type Diagnostics = Vec<Diagnostic>;

/// The deepest nesting accepted (see the module documentation).
pub const MAX_NESTING_DEPTH: usize = 200_000;

/// The largest stack of parsing and evaluation, taken only for the
/// deepest inputs: 2 GiB, about 10 KiB per level of [`MAX_NESTING_DEPTH`].
/// The deepest input of every nesting construct fits, in debug builds too
/// (`tests.rs` checks it); release builds use about a sixth to a third of
/// that.
pub const STACK_SIZE: usize = 2 << 30;

/// A configuration file's body: every attribute evaluated, and its blocks
/// in source order (the body content of [`crate::bodies`], never with a
/// remaining body).
///
/// Spec: hclsyntax-spec.md § Bodies; spec.md § Body Content
pub type Body = BodyContent;

/// A block: its type, its labels and its body.
///
/// Spec: hclsyntax-spec.md § Blocks
pub type Block = ContentBlock;

/// Parses a whole expression, then evaluates it in `ctx`.
///
/// Spec: hclsyntax-spec.md § Expressions; spec.md § Expression Evaluation
pub fn eval_expression(source: &str, ctx: &EvalContext) -> Result<Value, Diagnostics> {
    ctx.budget.allow_source(source.len());
    let scope = EvalScope::global(ctx);
    with_nesting_limit(source, StartMode::ConfigFile, Some(&scope), |depth_limit| {
        let parsed = parse_phase(source, depth_limit, parser::parse_expression_source)?;
        eval::evaluate_expression(parsed.tree.view(&parsed.arena), &scope)
            .map_err(|p| p.into_diagnostics(source, Phase::Eval))
    })
}

/// Parses a template in template file mode, then evaluates it in `ctx`.
///
/// Spec: hclsyntax-spec.md § Templates
pub fn eval_template(source: &str, ctx: &EvalContext) -> Result<Value, Diagnostics> {
    ctx.budget.allow_source(source.len());
    eval_template_in(source, &EvalScope::global(ctx))
}

/// Parses a template in template file mode, then evaluates it in `scope`:
/// how an application that defines variables around an expression (the
/// JSON syntax's strings in a dynamic block's content) evaluates a template.
/// The template is part of a source already read, whose reading raised the
/// evaluation budget (a JSON string of a file evaluated once for each
/// block a dynamic block generates raises it once).
///
/// Spec: hclsyntax-spec.md § Templates
pub fn eval_template_in(source: &str, scope: &EvalScope) -> Result<Value, Diagnostics> {
    with_nesting_limit(
        source,
        StartMode::TemplateFile,
        Some(scope),
        |depth_limit| {
            let parsed = parse_phase(source, depth_limit, parser::parse_template_source)?;
            eval::evaluate_template(parsed.tree.view(&parsed.arena), scope)
                .map_err(|p| p.into_diagnostics(source, Phase::Eval))
        },
    )
}

/// Parses a configuration file, then evaluates every attribute in `ctx`:
/// its body processed as written.
///
/// Spec: hclsyntax-spec.md § Structural Elements
pub fn eval_config(source: &str, ctx: &EvalContext) -> Result<Body, Diagnostics> {
    with_config_body(source, Some(ctx), |body| {
        bodies::process(body, Processing::AsWritten, Some(&EvalScope::global(ctx)))
    })
}

/// Parses a whole expression.
///
/// Spec: hclsyntax-spec.md § Expressions
pub fn parse_expression(source: &str) -> Result<Parsed<node::Expression>, Diagnostics> {
    parse_only(
        source,
        StartMode::ConfigFile,
        parser::parse_expression_source,
    )
}

/// Parses a template in template file mode.
///
/// Spec: hclsyntax-spec.md § Templates
pub fn parse_template(source: &str) -> Result<Parsed<node::Template>, Diagnostics> {
    parse_only(
        source,
        StartMode::TemplateFile,
        parser::parse_template_source,
    )
}

/// Parses a configuration file.
///
/// Spec: hclsyntax-spec.md § Structural Elements
pub fn parse_config(source: &str) -> Result<Parsed<node::ConfigFile>, Diagnostics> {
    parse_only(source, StartMode::ConfigFile, parser::parse_config_file)
}

/// A syntax tree and the source it was read from. The tree is read through
/// its views ([`Parsed::tree`]); dropping it never recurses.
pub struct Parsed<R> {
    tree: R,
    arena: node::Arena,
    /// The deepest nesting of the tree, which the unit tests check.
    #[cfg(test)]
    depth: usize,
    lines: LineIndex,
}

/// The root of a syntax tree: an expression, a template or a
/// configuration file.
pub trait Root {
    /// The root's view.
    type View<'t>
    where
        Self: 't;

    /// The view of the root of a tree of `arena`.
    fn view<'t>(&'t self, arena: &'t node::Arena) -> Self::View<'t>;
}

impl Root for node::Expression {
    type View<'t> = ast::Expression<'t>;

    fn view<'t>(&'t self, arena: &'t node::Arena) -> ast::Expression<'t> {
        ast::Expression::new(arena, self)
    }
}

impl Root for node::Template {
    type View<'t> = ast::Template<'t>;

    fn view<'t>(&'t self, arena: &'t node::Arena) -> ast::Template<'t> {
        ast::Template::new(arena, self)
    }
}

impl Root for node::ConfigFile {
    type View<'t> = ast::ConfigFile<'t>;

    fn view<'t>(&'t self, arena: &'t node::Arena) -> ast::ConfigFile<'t> {
        ast::ConfigFile::new(arena, self)
    }
}

impl<R: Root> Parsed<R> {
    /// The root of the tree.
    pub fn tree(&self) -> R::View<'_> {
        self.tree.view(&self.arena)
    }

    /// The source range of a span of the tree.
    pub fn range(&self, span: Span) -> Range {
        self.lines.range(span)
    }
}

impl<R: Root> std::fmt::Debug for Parsed<R>
where
    for<'t> R::View<'t>: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.tree().fmt(f)
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
        let range = lines.range(data.span);
        #[cfg(feature = "planted-bugs")]
        let range = crate::planted::range_off_by_one(phase, range);
        vec![Diagnostic {
            phase,
            summary: data.summary,
            detail: data.detail,
            range: Some(range),
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

fn parse_only<T>(
    source: &str,
    start: StartMode,
    parse: fn(&str, usize) -> Result<parser::ParseOutput<T>, Problem>,
) -> Result<Parsed<T>, Diagnostics> {
    let output = with_nesting_limit(source, start, None, |depth_limit| {
        parse_phase(source, depth_limit, parse)
    })?;
    Ok(Parsed {
        tree: output.tree,
        arena: output.arena,
        #[cfg(test)]
        depth: output.depth,
        lines: LineIndex::new(source),
    })
}

/// The stack one level of nesting may take, parsing and evaluation
/// together: the deepest accepted input of every nesting construct fits
/// [`STACK_SIZE`] (`tests.rs` checks it).
pub const BYTES_PER_LEVEL: usize = STACK_SIZE / MAX_NESTING_DEPTH;

/// The summary of the parse error of an input nested deeper than the
/// limit.
pub(crate) const NESTING_TOO_DEEP: &str = large_stack::NESTING_TOO_DEEP;

/// The nesting of the native syntax's deep work.
const NESTING: large_stack::Nesting = large_stack::Nesting {
    syntax: "native",
    max_levels: MAX_NESTING_DEPTH,
    bytes_per_level: BYTES_PER_LEVEL,
};

/// Runs `work`, which parses a source (and evaluates it in `scope`, if
/// given) and recurses as deep as it nests, giving it the nesting limit it
/// must keep to: here, on the caller's stack, with the limit what is left
/// of it holds, and then, for an input that nests deeper, on larger stacks
/// in steps up to one of [`STACK_SIZE`] with the full limit,
/// [`MAX_NESTING_DEPTH`] (see [`large_stack::with_nesting_limit`]), the
/// first one tried the one that holds the nesting of the source's
/// delimiters (read from `start` by the lexer alone). (The
/// evaluation also recurses through the values of the scope's variables,
/// which the caller may have nested deeper than a limit: then the work
/// goes to a stack that holds them at once.)
///
/// A stack the system refuses, or a panic in the work (a bug), is reported
/// as a diagnostic rather than propagated.
fn with_nesting_limit<T>(
    source: &str,
    start: lexer::StartMode,
    scope: Option<&EvalScope>,
    work: impl Fn(usize) -> Result<T, Diagnostics>,
) -> Result<T, Diagnostics> {
    large_stack::with_nesting_limit(
        &NESTING,
        || lexer::delimiter_nesting(source, start),
        |levels| scope.is_some_and(|s| s.nests_deeper_than(levels)),
        work,
    )
}

#[cfg(test)]
mod tests;
