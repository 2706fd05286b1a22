//! Unification of many types: many objects of one attribute each, objects
//! of such objects, `coalesce` over objects made by a `for` expression, and
//! two deeply nested tuples. Each figure the median of several runs, in
//! milliseconds. A benchmark, not a test: it reports and asserts nothing.
//!
//! `cargo bench -p hcl-interpreter --bench unify`

use hcl_interpreter::native::eval_expression;
use hcl_interpreter::unify::unify;
use hcl_interpreter::{large_stack, EvalContext, Number, Type, Value};
use std::hint::black_box;
use std::time::Instant;

/// `n` objects of one attribute each, `k0` to `k{n-1}`, of `ty`.
fn one_attribute_objects(n: usize, ty: &Type) -> Vec<Type> {
    (0..n)
        .map(|i| Type::object([(format!("k{i}"), ty.clone())]))
        .collect()
}

/// Two tuples nested `depth` deep, of a number and of a string.
fn nested_tuples(depth: usize) -> Vec<Type> {
    let nested = |leaf: Type| (0..depth).fold(leaf, |ty, _| Type::Tuple(vec![ty]));
    vec![nested(Type::Number), nested(Type::String)]
}

fn main() {
    let runs: usize = std::env::var("HCL_BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&r| r > 0)
        .unwrap_or(5);
    let objects_10k = one_attribute_objects(10_000, &Type::Number);
    let objects_20k = one_attribute_objects(20_000, &Type::Number);
    let objects_of_objects: Vec<Type> = objects_20k
        .iter()
        .map(|ty| Type::object([("a", ty.clone())]))
        .collect();
    // A set and tuples of two lengths among the inputs: unification in
    // order (the attribute `a`, which has neither, all at once).
    let mut in_order = objects_of_objects.clone();
    in_order.push(Type::object([("s", Type::set(Type::String))]));
    in_order.push(Type::object([("t", Type::Tuple(vec![]))]));
    in_order.push(Type::object([("t", Type::Tuple(vec![Type::String]))]));
    // The attribute `a` itself holds a set and tuples of two lengths: its
    // types unified in order, attribute by attribute.
    let mut inside = objects_of_objects.clone();
    for (name, ty) in [
        ("s", Type::set(Type::String)),
        ("t", Type::Tuple(vec![])),
        ("t", Type::Tuple(vec![Type::String])),
    ] {
        inside.push(Type::object([("a", Type::object([(name, ty)]))]));
    }
    let mut coalesce = EvalContext::default();
    let numbers = (0..20_000)
        .map(|i| Value::number(Number::from_i64(i)))
        .collect();
    let Ok(list) = Value::list(Type::Number, numbers) else {
        panic!("a list of numbers");
    };
    coalesce.variables.insert("l".into(), list);
    let nested = nested_tuples(20_000);

    let unifications: [(&str, &dyn Fn()); 7] = [
        ("unify 10,000 one-attribute objects", &|| {
            black_box(unify(black_box(&objects_10k))).ok();
        }),
        ("unify 20,000 one-attribute objects", &|| {
            black_box(unify(black_box(&objects_20k))).ok();
        }),
        ("unify 20,000 objects of such objects", &|| {
            black_box(unify(black_box(&objects_of_objects))).ok();
        }),
        ("unify 20,003 objects (of objects), in order", &|| {
            black_box(unify(black_box(&in_order))).ok();
        }),
        ("unify 20,003 objects of objects, in order inside", &|| {
            black_box(unify(black_box(&inside))).ok();
        }),
        (
            "coalesce([for i in l: {\"k${i}\" = i}]...), 20,000",
            &|| {
                let expression = r#"coalesce([for i in l: {"k${i}" = i}]...)"#;
                black_box(eval_expression(black_box(expression), &coalesce)).ok();
            },
        ),
        ("unify two tuples nested 20,000 deep", &|| {
            large_stack::run(1 << 30, || black_box(unify(black_box(&nested))).ok()).ok();
        }),
    ];
    println!(
        "{:<52} {:>10} {:>17}   (median of {runs} runs)",
        "unification", "ms", "range"
    );
    for (name, unification) in unifications {
        let mut millis: Vec<f64> = (0..runs)
            .map(|_| {
                let started = Instant::now();
                unification();
                started.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        millis.sort_by(f64::total_cmp);
        println!(
            "{:<52} {:>10.2} {:>17}",
            name,
            millis[millis.len() / 2],
            format!("{:.2}-{:.2}", millis[0], millis[millis.len() - 1])
        );
    }
}
