//! Tests the suite cannot make: nesting at and beyond the depth limit,
//! very long templates, and random or mutated input, which must end in a
//! value or a diagnostic, never in a panic or a stack overflow.

use super::*;
use crate::budget::{tree_bytes, Budget};
use crate::number::Number;
use crate::types::Type;
use hcl_random_inputs::{mutate_text, Mutations, Rng};

/// Runs `f` on a thread with a large stack: the deep values these tests
/// build and drop recurse through `Value`'s own code.
fn on_big_stack(f: impl FnOnce() + Send) {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, f)
            .expect("a test thread")
            .join()
            .expect("the test passes");
    });
}

fn context() -> EvalContext {
    let mut ctx = EvalContext::default();
    ctx.variables.insert("s".into(), Value::string("a"));
    ctx.variables
        .insert("n".into(), Value::Number(Number::from_i64(1)));
    ctx.variables.insert(
        "l".into(),
        Value::list(Type::String, vec![Value::string("x"), Value::string("y")]).unwrap(),
    );
    ctx.variables
        .insert("u".into(), Value::Unknown(Type::Dynamic));
    ctx
}

fn number(n: i64) -> Value {
    Value::Number(Number::from_i64(n))
}

#[derive(Clone, Copy, Debug)]
enum Mode {
    Expression,
    Template,
    Config,
}

/// Parses only, returning the nesting depth reached or the first
/// diagnostic.
fn parse_depth(mode: Mode, source: &str) -> Result<usize, Diagnostic> {
    let first = |d: Diagnostics| d.into_iter().next().expect("a diagnostic");
    match mode {
        Mode::Expression => parse_expression(source).map(|p| p.depth).map_err(first),
        Mode::Template => parse_template(source).map(|p| p.depth).map_err(first),
        Mode::Config => parse_config(source).map(|p| p.depth).map_err(first),
    }
}

/// Evaluates in any mode; a configuration's body is reduced to its
/// attribute `a`.
fn evaluate(mode: Mode, source: &str, ctx: &EvalContext) -> Result<Value, Diagnostics> {
    match mode {
        Mode::Expression => eval_expression(source, ctx),
        Mode::Template => eval_template(source, ctx),
        Mode::Config => eval_config(source, ctx).map(|body| {
            body.attributes
                .get("a")
                .cloned()
                .unwrap_or(Value::Null(Type::Dynamic))
        }),
    }
}

fn is_internal_error(diagnostics: &Diagnostics) -> bool {
    diagnostics.iter().any(Diagnostic::is_internal_error)
}

/// A way to nest the source `n` levels deep.
struct Nesting {
    name: &'static str,
    mode: Mode,
    make: fn(usize) -> String,
}

fn wrap(n: usize, open: &str, inner: &str, close: &str) -> String {
    let mut out = String::with_capacity(n * (open.len() + close.len()) + inner.len());
    for _ in 0..n {
        out.push_str(open);
    }
    out.push_str(inner);
    for _ in 0..n {
        out.push_str(close);
    }
    out
}

/// `H(0) = "1"`, `H(k) = "<<EOT\n${" H(k-1) "}\nEOT\n"`.
fn nested_heredocs(n: usize) -> String {
    wrap(n, "<<EOT\n${", "1", "}\nEOT\n")
}

const NESTINGS: &[Nesting] = &[
    Nesting {
        name: "brackets",
        mode: Mode::Expression,
        make: |n| wrap(n, "[", "1", "]"),
    },
    Nesting {
        name: "parentheses",
        mode: Mode::Expression,
        make: |n| wrap(n, "(", "1", ")"),
    },
    Nesting {
        name: "quoted templates",
        mode: Mode::Expression,
        make: |n| wrap(n, "\"${", "1", "}\""),
    },
    Nesting {
        name: "heredocs",
        mode: Mode::Expression,
        make: nested_heredocs,
    },
    Nesting {
        name: "objects",
        mode: Mode::Expression,
        make: |n| wrap(n, "{a = ", "1", "}"),
    },
    Nesting {
        name: "function calls",
        mode: Mode::Expression,
        make: |n| wrap(n, "max(", "1", ")"),
    },
    Nesting {
        name: "tuple for expressions",
        mode: Mode::Expression,
        make: |n| wrap(n, "[for x in [1]: ", "x", "]"),
    },
    Nesting {
        name: "object for expressions",
        mode: Mode::Expression,
        make: |n| wrap(n, "{for k, v in {a = 1}: k => ", "v", "}"),
    },
    Nesting {
        name: "conditionals",
        mode: Mode::Expression,
        make: |n| wrap(n, "true ? ", "1", " : 0"),
    },
    Nesting {
        name: "negations",
        mode: Mode::Expression,
        make: |n| wrap(n, "-", "1", ""),
    },
    Nesting {
        name: "binary operator chain",
        mode: Mode::Expression,
        make: |n| wrap(n, "", "1", " + 1"),
    },
    Nesting {
        name: "index chain",
        mode: Mode::Expression,
        make: |n| format!("{}{}", wrap(n / 2, "[", "1", "]"), "[0]".repeat(n / 2)),
    },
    Nesting {
        name: "splat chain",
        mode: Mode::Expression,
        make: |n| format!("[1]{}", "[*]".repeat(n)),
    },
    Nesting {
        name: "attribute chain",
        mode: Mode::Expression,
        make: |n| format!("{}{}", wrap(n / 2, "{a = ", "1", "}"), ".a".repeat(n / 2)),
    },
    Nesting {
        name: "if directives",
        mode: Mode::Template,
        make: |n| wrap(n, "%{ if true }", "x", "%{ endif }"),
    },
    Nesting {
        name: "for directives",
        mode: Mode::Template,
        make: |n| wrap(n, "%{ for x in [1] }", "${x}", "%{ endfor }"),
    },
    Nesting {
        name: "blocks",
        mode: Mode::Config,
        make: |n| wrap(n, "b {\n", "a = 1\n", "}\n"),
    },
];

/// Checks the value a nesting of `n` levels evaluates to, without
/// recursion.
fn check_value(name: &str, n: usize, v: &Value) {
    match name {
        "brackets" => {
            let mut v = v;
            for _ in 0..n {
                match v {
                    Value::Tuple(elements) if elements.len() == 1 => v = &elements[0],
                    other => panic!("brackets: a one-element tuple, not {other:?}"),
                }
            }
            assert_eq!(*v, number(1));
        }
        "parentheses" | "quoted templates" | "function calls" | "conditionals" | "index chain"
        | "attribute chain" => assert_eq!(*v, number(1), "{name}"),
        "heredocs" => assert_eq!(*v, Value::string(&format!("1{}", "\n".repeat(n))), "{name}"),
        "negations" => assert_eq!(*v, number(if n % 2 == 0 { 1 } else { -1 }), "{name}"),
        "binary operator chain" => assert_eq!(*v, number(n as i64 + 1), "{name}"),
        "if directives" | "for directives" => {
            let expected = if name == "if directives" { "x" } else { "1" };
            assert_eq!(*v, Value::string(expected), "{name}")
        }
        "blocks" => assert_eq!(*v, Value::Null(Type::Dynamic), "{name}"),
        _ => {}
    }
}

#[test]
fn hundred_thousand_levels_of_brackets_parentheses_templates_and_heredocs() {
    on_big_stack(|| {
        let ctx = context();
        for nesting in &NESTINGS[..4] {
            let n = 100_000;
            let source = (nesting.make)(n);
            let v = evaluate(nesting.mode, &source, &ctx)
                .unwrap_or_else(|d| panic!("{}: {:?}", nesting.name, d));
            check_value(nesting.name, n, &v);
        }
    });
}

/// Every construct that nests is parsed and evaluated at the deepest
/// nesting the limit accepts, and rejected with a clean parse error one
/// level deeper: the stack holds the deepest accepted input.
#[test]
fn every_nesting_construct_fits_the_stack_up_to_the_depth_limit() {
    on_big_stack(|| {
        let ctx = context();
        for nesting in NESTINGS {
            let depth = |n| {
                parse_depth(nesting.mode, &(nesting.make)(n))
                    .unwrap_or_else(|d| panic!("{} at {n}: {d}", nesting.name))
            };
            // depth(n) = base + slope * n, with a slope of one level per
            // step, or of one level per two steps for the chains.
            let (d100, d200) = (depth(100), depth(200));
            assert!(d200 > d100, "{}", nesting.name);
            let base = 2 * d100 - d200;
            let deepest = (MAX_NESTING_DEPTH - base) * 100 / (d200 - d100);
            let deepest = deepest - deepest % 2;
            let source = (nesting.make)(deepest);
            match evaluate(nesting.mode, &source, &ctx) {
                Ok(v) => check_value(nesting.name, deepest, &v),
                Err(d) => panic!("{} at {deepest}: {d:?}", nesting.name),
            }
            let deeper = (nesting.make)(deepest + 2);
            let error = evaluate(nesting.mode, &deeper, &ctx).expect_err(nesting.name);
            assert_eq!(error[0].phase, Phase::Parse, "{}", nesting.name);
            assert_eq!(error[0].summary, "Nesting too deep", "{}", nesting.name);
        }
    });
}

#[test]
fn deep_syntax_trees_drop_without_recursion() {
    // Parsed on a large stack, and dropped here, on this thread's small one.
    let parsed = parse_expression(&wrap(150_000, "[", "1", "]")).expect("parses");
    assert_eq!(parsed.depth, 150_001);
    drop(parsed);
    let parsed = parse_config(&wrap(150_000, "b {\n", "", "}\n")).expect("parses");
    drop(parsed);
}

/// The time this takes is measured by the `native` benchmark
/// (`interpolations` lines), not here.
#[test]
fn hundred_thousand_interpolations_evaluate() {
    let n = 100_000;
    let source = "${s}-".repeat(n);
    let v = eval_template(&source, &context()).expect("evaluates");
    assert_eq!(v, Value::string(&"a-".repeat(n)));
}

#[test]
fn a_leading_byte_order_mark_is_a_parse_error() {
    for result in [
        eval_expression("\u{FEFF}1", &context()).map(|_| ()),
        eval_template("\u{FEFF}a", &context()).map(|_| ()),
        eval_config("\u{FEFF}a = 1", &context()).map(|_| ()),
    ] {
        let error = result.expect_err("rejected");
        assert_eq!(error[0].phase, Phase::Parse);
        let range = error[0].range.expect("a range");
        assert_eq!((range.start.byte, range.end.byte), (0, 3));
        assert_eq!((range.start.column, range.end.column), (1, 2));
    }
}

#[test]
fn a_redefined_attribute_is_found_in_bodies_of_any_size() {
    // Small bodies are scanned, larger ones hashed: both ways must agree.
    for count in [1, 15, 16, 17, 40] {
        let mut source: String = (0..count).map(|i| format!("a{i} = {i}\n")).collect();
        assert!(parse_config(&source).is_ok(), "{count} distinct attributes");
        for again in [0, count - 1] {
            source.push_str(&format!("a{again} = 0\n"));
            let error = parse_config(&source).expect_err("a redefinition");
            assert_eq!(error[0].phase, Phase::Parse, "{count} attributes");
            source.truncate(source.rfind("a").expect("the last line"));
        }
    }
}

/// Pieces of the native syntax the generator strings together.
const PIECES: &[&str] = &[
    "${", "${~", "}", "~}", "%{", "%{~", "if ", "else", "endif", "for ", " in ", "endfor", "{",
    "[", "(", ")", "]", "\"", "<<EOT\n", "<<-EOT\n", "\nEOT\n", "  EOT\n", "\n", "...", "[*]",
    ".*", ".0", ".a", "?", ":", "=>", "==", "!", "&&", "||", "-", "+", "*", "/", "%", "<", ">=",
    ",", "=", "1", "1.5e3", "1e99999", "null", "true", "s", "n", "l", "u", "a", "max(", "upper(",
    "length(", "#", "//", "/*", "*/", "\\", "\\u00", "\\n", "$${", "%%{", "é", "\u{feff}", "\r",
    "\t", " ", "_", "x-y", "b {", "a = ", "::", "core::",
];

const SEEDS: &[&str] = &[
    "a = [for i, v in l: \"${i}:${upper(v)}\" if i < 2]\nb \"x\" { c = {k = 1, \"m\" = l[*]} }\n",
    "x = <<-EOT\n  %{ for v in l ~}\n  ${v}\n  %{ endfor ~}\n  EOT\n",
    "{for k, v in {a = 1, b = 2}: v => k...}",
    "n > 0 ? l[0] : s.*.x",
    "%{ if u }${s}%{ else }${n + 1}%{ endif }",
    "max(l...) + length({a = [1, 2]}) - -n * 2 / 3 % 4",
    "core::upper(provider::conformance::join(s, l...))",
];

fn random_source(rng: &mut Rng) -> String {
    let mut out = String::new();
    for _ in 0..rng.below(40) {
        out.push_str(PIECES[rng.below(PIECES.len())]);
    }
    out
}

fn mutate(source: &str, rng: &mut Rng) -> String {
    let how = Mutations {
        pieces: PIECES,
        hostile: &[],
        chars_below: 0x3000,
    };
    mutate_text(source, rng, &how)
}

#[test]
fn random_and_mutated_inputs_end_in_a_value_or_a_diagnostic() {
    let ctx = context();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let modes = [Mode::Expression, Mode::Template, Mode::Config];
    for round in 0..3_000 {
        let source = if round % 2 == 0 {
            random_source(&mut rng)
        } else {
            mutate(SEEDS[rng.below(SEEDS.len())], &mut rng)
        };
        let mode = modes[rng.below(modes.len())];
        if let Err(diagnostics) = evaluate(mode, &source, &ctx) {
            assert!(
                !is_internal_error(&diagnostics),
                "{mode:?} {source:?}: {diagnostics:?}"
            );
            for d in &diagnostics {
                let range = d.range.expect("every diagnostic has a range");
                assert!(range.start.byte <= range.end.byte && range.end.byte <= source.len());
            }
        }
    }
}

#[test]
fn a_deep_evaluated_body_can_be_dropped_by_the_caller() {
    // Built and dropped on the test's ordinary thread stack (2 MiB): the
    // body's drop must not recurse.
    let depth = 150_000;
    let source = "b {\n".repeat(depth) + &"}\n".repeat(depth);
    let body = eval_config(&source, &EvalContext::default()).expect("deep blocks evaluate");
    drop(body);
}

#[test]
fn a_deep_type_can_be_dropped_by_the_caller() {
    let mut ty = Type::Dynamic;
    for i in 0..1_000_000 {
        ty = if i % 2 == 0 {
            Type::list(ty)
        } else {
            Type::Tuple(vec![Type::String, ty])
        };
    }
    drop(ty);
}

/// The diagnostic's summary, when evaluation ran out of budget.
fn budget_exceeded(result: Result<impl std::fmt::Debug, Diagnostics>) -> bool {
    matches!(&result, Err(d) if d[0].summary == "Evaluation budget exceeded" && d[0].phase == Phase::Eval)
}

fn with_budget(limit: u64) -> EvalContext {
    EvalContext {
        budget: Budget::new(limit),
        ..context()
    }
}

/// The bytes an evaluation of `source` spends, with an unlimited budget.
fn spent_by(source: &str, mut ctx: EvalContext) -> u64 {
    ctx.budget = Budget::new(u64::MAX);
    eval_expression(source, &ctx).expect("the expression evaluates");
    ctx.budget.spent()
}

#[test]
fn a_for_product_beyond_the_budget_ends_in_a_diagnostic() {
    // 100 x 100 x 100 elements: a million values, and ten thousand tuples
    // of a hundred.
    let l: String = format!("[{}]", vec!["1"; 100].join(","));
    let source = format!("[for a in {l}: [for b in {l}: [for c in {l}: 1]]]");
    assert!(budget_exceeded(eval_expression(
        &source,
        &with_budget(10_000_000)
    )));
    let shallow = format!("[for a in {l}: [for b in {l}: 1]]");
    assert!(eval_expression(&shallow, &with_budget(10_000_000)).is_ok());
}

#[test]
fn objects_are_paid_for_at_the_size_of_their_tree() {
    // 10,000 one-attribute objects each take a node of eleven entries:
    // their product costs far more than the same product of numbers.
    let l: String = format!("[{}]", vec!["1"; 100].join(","));
    let numbers = spent_by(&format!("[for a in {l}: [for b in {l}: b]]"), context());
    let objects = spent_by(
        &format!("[for a in {l}: [for b in {l}: {{x = b}}]]"),
        context(),
    );
    let node = tree_bytes::<Value>(1);
    assert!(node > 11 * 64, "{node}");
    assert!(objects >= numbers + 10_000 * node, "{objects} vs {numbers}");
}

#[test]
fn large_numbers_are_paid_for_by_their_digits() {
    // Each sum holds 4,000 digits (about 1.7 KB): a hundred of them cost
    // more than 160 KB, while the same sums of small numbers cost little.
    let l: String = format!("[{}]", vec!["1"; 100].join(","));
    let big = spent_by(&format!("[for a in {l}: 1e3999 + a]"), context());
    let small = spent_by(&format!("[for a in {l}: 1000 + a]"), context());
    assert!(big >= small + 100 * 1_600, "{big} vs {small}");
    // A product of two large numbers pays for its work before it is done.
    let ctx = with_budget(1_000_000);
    let product = "[for a in [1, 2, 3]: (1e19999 + a) * (1e19999 + a)]";
    assert!(budget_exceeded(eval_expression(product, &ctx)));
}

#[test]
fn copies_of_large_values_are_paid_for() {
    // Each of the 100 iterations copies the 100,000-byte string: 10 MB
    // built from an expression of a few bytes.
    let mut ctx = with_budget(1_000_000);
    ctx.variables
        .insert("big".into(), Value::string(&"x".repeat(100_000)));
    let l: String = format!("[{}]", vec!["1"; 100].join(","));
    let tuple = format!("[for a in {l}: big]");
    assert!(budget_exceeded(eval_expression(&tuple, &ctx)));
    let template = format!("%{{for a in {l}}}${{big}}%{{endfor}}");
    ctx.budget = Budget::new(1_000_000);
    assert!(budget_exceeded(eval_template(&template, &ctx)));
    // Comparing it, as copying it, goes through its bytes.
    let comparisons = format!("[for a in {l}: big == big]");
    ctx.budget = Budget::new(1_000_000);
    assert!(budget_exceeded(eval_expression(&comparisons, &ctx)));
    // One copy is within the budget.
    ctx.budget = Budget::new(1_000_000);
    assert!(eval_expression("[big]", &ctx).is_ok());
}

#[test]
fn the_attributes_of_a_file_share_one_budget() {
    let l: String = format!("[{}]", vec!["1"; 100].join(","));
    let one = format!("a = [for a in {l}: [for b in {l}: 1]]\n");
    let spent = spent_by(&format!("[for a in {l}: [for b in {l}: 1]]"), context());
    assert!(eval_config(&one, &with_budget(spent + spent / 2)).is_ok());
    let three = one.replace("a =", "b =") + &one + &one.replace("a =", "c =");
    assert!(budget_exceeded(eval_config(
        &three,
        &with_budget(spent + spent / 2)
    )));
}

#[test]
fn work_in_proportion_to_the_source_is_always_allowed() {
    // 20,000 elements need more than a budget of 1,000 bytes, but the
    // source's own length, times the allowance, is added to the limit.
    let source = format!("[{}]", vec!["[1]"; 20_000].join(","));
    let ctx = with_budget(1_000);
    assert!(eval_expression(&source, &ctx).is_ok());
    assert!(ctx.budget.limit() >= source.len() as u64 * Budget::SOURCE_ALLOWANCE);
    assert!(ctx.budget.spent() > 1_000);
}

/// Runs `f` on a thread with a stack of `size` bytes.
fn on_stack_of(size: usize, f: impl FnOnce() + Send) {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(size)
            .spawn_scoped(scope, f)
            .expect("a test thread")
            .join()
            .expect("the test passes");
    });
}

/// Work runs on the caller's stack as deep as what is left of it holds,
/// and an input nested deeper than that runs again on a large stack: the
/// result is the same either way.
#[test]
fn input_deeper_than_the_callers_stack_holds_runs_on_a_large_stack() {
    on_stack_of(8 << 20, || {
        let here = crate::large_stack::levels_left(BYTES_PER_LEVEL);
        assert!(
            here > crate::large_stack::MIN_LEVELS_HERE && here < 1_000,
            "{here} levels here"
        );
        let ctx = context();
        for n in [10, here / 2, here * 4, 20_000] {
            let v = eval_expression(&wrap(n, "[", "1", "]"), &ctx).expect("evaluates");
            check_value("brackets", n, &v);
        }
        let shallow = parse_config(&wrap(10, "b {\n", "", "}\n")).expect("parses");
        assert_eq!(shallow.depth, 11);
        let deep = parse_config(&wrap(here * 2, "b {\n", "", "}\n")).expect("parses");
        assert!(deep.depth > here);
    });
}

/// The evaluation recurses through the values of the variables too: a
/// variable nested deeper than the caller's stack holds sends the work to
/// a large stack however shallow the expression.
#[test]
fn variables_deeper_than_the_callers_stack_holds_run_on_a_large_stack() {
    on_stack_of(8 << 20, || {
        // Far deeper than the 8 MiB stack holds, for copying and typing it.
        let mut deep = number(1);
        for _ in 0..100_000 {
            deep = Value::Tuple(vec![deep]);
        }
        let mut ctx = context();
        ctx.variables.insert("deep".into(), deep);
        assert_eq!(
            eval_template("n=${length(deep)}", &ctx).expect("counts"),
            Value::string("n=1")
        );
    });
}
