//! What the suite cannot show: that the extension is exactly `config`
//! without `dynamic` blocks, the wording and range of every error (the
//! suite compares phases and ranges only, and leaves some ranges open),
//! and nesting deeper than a case would.

use crate::bodies::BodyContent;
use crate::config::{process_config, Syntax};
use crate::native::{eval_config, STACK_SIZE};
use crate::{EvalContext, Phase, Value};

fn with_extension(
    source: &str,
    ctx: &EvalContext,
    dynamic_blocks: bool,
) -> Result<BodyContent, Vec<crate::Diagnostic>> {
    process_config(Syntax::Native, source, None, Some(ctx), dynamic_blocks)
}

fn expand(source: &str) -> Result<BodyContent, String> {
    with_extension(source, &EvalContext::default(), true).map_err(|diagnostics| {
        let [d] = diagnostics.as_slice() else {
            panic!("one diagnostic, not {diagnostics:?}");
        };
        assert_eq!(d.phase, Phase::Eval, "{d}");
        let range = d.range.expect("every diagnostic has a range");
        format!(
            "{}:{}-{}:{} {}",
            range.start.line, range.start.column, range.end.line, range.end.column, d.summary
        )
    })
}

#[test]
fn without_the_extension_a_config_is_evaluated_as_by_eval_config() {
    let ctx = EvalContext::default();
    let source = "a = 1\ndynamic \"b\" {\n  for_each = [1]\n  content { c = 2 }\n}\n";
    let plain = eval_config(source, &ctx).unwrap();
    assert_eq!(with_extension(source, &ctx, false).unwrap(), plain);
    assert_eq!(plain.blocks[0].type_name, "dynamic");
    let expanded = with_extension(source, &ctx, true).unwrap();
    assert_eq!(expanded.attributes, plain.attributes);
    assert_eq!(expanded.blocks[0].type_name, "b");
}

#[test]
fn a_config_without_dynamic_blocks_is_unchanged() {
    let source = "a = 1\nb \"l\" {\n  c {\n    d = [1, \"x\"][1]\n  }\n}\n";
    let ctx = EvalContext::default();
    assert_eq!(
        with_extension(source, &ctx, true).unwrap(),
        eval_config(source, &ctx).unwrap()
    );
}

#[test]
fn errors_are_evaluation_errors_with_a_range_and_a_summary() {
    let cases = [
        (
            "dynamic {\n  for_each = []\n  content {}\n}\n",
            "1:1-1:8 Missing type for dynamic",
        ),
        (
            "dynamic \"a\" \"b\" {\n  for_each = []\n  content {}\n}\n",
            "1:13-1:16 Extraneous label for dynamic",
        ),
        (
            "dynamic \"a\" {\n  for_each = []\n  count = 1\n  content {}\n}\n",
            "3:3-3:8 Unsupported argument",
        ),
        (
            "dynamic \"a\" {\n  for_each = []\n  b {}\n  content {}\n}\n",
            "3:3-3:4 Unsupported block type",
        ),
        (
            "dynamic \"a\" {\n  for_each = []\n  content \"x\" {}\n}\n",
            "3:11-3:14 Extraneous label",
        ),
        (
            "dynamic \"a\" {\n  for_each = []\n  content {}\n  content {}\n}\n",
            "4:3-4:10 Extraneous dynamic content block",
        ),
        (
            "dynamic \"a\" {\n  content {}\n}\n",
            "1:1-1:12 Missing required argument",
        ),
        (
            "dynamic \"a\" {\n  for_each = []\n}\n",
            "1:1-1:12 Missing dynamic content block",
        ),
        (
            "dynamic \"a\" {\n  for_each = []\n  iterator = x[0]\n  content {}\n}\n",
            "3:14-3:18 Invalid dynamic iterator name",
        ),
        (
            "dynamic \"a\" {\n  for_each = null\n  content {}\n}\n",
            "2:14-2:18 Invalid dynamic for_each value",
        ),
        (
            "dynamic \"a\" {\n  for_each = true\n  content {}\n}\n",
            "2:14-2:18 Invalid dynamic for_each value",
        ),
        (
            "dynamic \"a\" {\n  for_each = [1]\n  labels = null\n  content {}\n}\n",
            "3:12-3:16 Invalid dynamic block labels",
        ),
        (
            "dynamic \"a\" {\n  for_each = [1]\n  labels = {}\n  content {}\n}\n",
            "3:12-3:14 Invalid dynamic block labels",
        ),
        (
            "dynamic \"a\" {\n  for_each = [\"s\"]\n  labels = a.value\n  content {}\n}\n",
            "3:12-3:19 Invalid dynamic block labels",
        ),
        (
            "dynamic \"a\" {\n  for_each = [[\"x\", []]]\n  labels = a.value\n  content {}\n}\n",
            "3:12-3:19 Invalid dynamic block labels",
        ),
        (
            "dynamic \"a\" {\n  for_each = [1]\n  labels = [\"x\", []]\n  content {}\n}\n",
            "3:18-3:20 Invalid dynamic block labels",
        ),
    ];
    for (source, expected) in cases {
        assert_eq!(expand(source).unwrap_err(), expected, "{source}");
    }
}

#[test]
fn labels_of_an_empty_list_value_are_no_labels() {
    let body = expand("dynamic \"a\" {\n  for_each = [[]]\n  labels = a.value\n  content {}\n}\n")
        .unwrap();
    assert_eq!(body.blocks[0].labels, Vec::<String>::new());
}

#[test]
fn deeply_nested_dynamic_blocks_expand_with_every_iterator_in_scope() {
    let depth = 2_000;
    let mut source = String::new();
    for level in 0..depth {
        source += &format!(
            "dynamic \"b\" {{\n  for_each = [{level}]\n  iterator = i{level}\n  content {{\n"
        );
    }
    source += "    first = i0.value\n    last = i1999.value\n";
    source += &"  }\n}\n".repeat(depth);
    // The result nests as deep as the source: build, check and drop it
    // on a large stack.
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, || {
                let mut body = &expand(&source).unwrap();
                for _ in 0..depth {
                    assert_eq!(body.blocks.len(), 1);
                    body = &body.blocks[0].body;
                }
                let number = |n| Value::Number(crate::Number::from_i64(n));
                assert_eq!(body.attributes["first"], number(0));
                assert_eq!(body.attributes["last"], number(1999));
            })
            .unwrap()
            .join()
            .unwrap();
    });
}
