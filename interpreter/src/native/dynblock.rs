//! The dynamic blocks extension: `dynamic` blocks expanded into the blocks
//! they generate.
//!
//! Spec: ext-dynblock-README.md § HCL Dynamic Blocks Extension
//!
//! Spec: 003_ffa21bbb6e176447.txt § `dynamic` blocks
//!
//! > This HCL extension implements a special block type named "dynamic"
//! > that can be used to dynamically generate blocks of other types by
//! > iterating over collection values.
//!
//! A configuration file is evaluated as `config` does it, except that in
//! every body, at every depth, each `dynamic "NAME"` block is replaced, at
//! its place among the blocks, by the blocks it generates: one for each
//! element of its `for_each` value, of type NAME, labelled by its `labels`
//! and with its `content` block's body, both evaluated with the iterator
//! variable in scope. "Dynamic block processing is also automatically
//! propagated into any nested blocks", so a `content` body and the body
//! of an ordinary block are expanded in turn, with every enclosing
//! iterator in scope. The blocks a `dynamic` block generates are results:
//! they are not expanded again, even when NAME is `dynamic`.
//!
//! Where the documents leave the rules open, the decisions are those of
//! `spec-notes/gaps/dynblock-*.md`; every error of the expansion is an
//! evaluation error.

use super::ast::{self, Expression, ExpressionKind};
use super::config::evaluate_attributes;
use super::eval::{eval, Scope};
use super::{Block, Body, Problem};
use crate::convert::convert;
use crate::eval_context::EvalContext;
use crate::number::Number;
use crate::source::Span;
use crate::types::Type;
use crate::value::Value;

/// The block type that the extension gives a meaning to.
const DYNAMIC: &str = "dynamic";

/// Evaluates every attribute of a configuration file and expands its
/// `dynamic` blocks.
///
/// Spec: ext-dynblock-README.md § Usage
pub(crate) fn evaluate_config_file(
    file: ast::ConfigFile<'_>,
    ctx: &EvalContext,
) -> Result<Body, Problem> {
    expand_body(file.body, &Scope::global(ctx))
}

/// Evaluates a body's attributes in `scope`, and its blocks with every
/// `dynamic` block replaced, in place, by the blocks it generates.
///
/// "Dynamic block processing is also automatically propagated into any
/// nested blocks that are returned, allowing users to nest dynamic blocks
/// inside one another and to nest dynamic blocks inside other static
/// blocks."
///
/// Spec: ext-dynblock-README.md § Usage
fn expand_body<'a>(body: ast::Body<'a>, scope: &Scope<'a>) -> Result<Body, Problem> {
    let mut result = Body {
        attributes: evaluate_attributes(body, scope)?,
        blocks: Vec::new(),
    };
    for block in body.blocks {
        if block.type_name == DYNAMIC {
            let dynamic = decode_dynamic_block(block)?;
            expand_dynamic_block(&dynamic, scope, &mut result.blocks)?;
        } else {
            result.blocks.push(Block {
                type_name: block.type_name.to_string(),
                labels: block.labels.iter().map(|l| l.value.to_string()).collect(),
                body: expand_body(block.body, scope)?,
            });
        }
    }
    Ok(result)
}

/// The parts of a `dynamic` block.
///
/// ```hcl
/// dynamic "NAME" {
///   for_each = COLLECTION
///   iterator = IDENTIFIER    # optional, NAME by default
///   labels   = [LABEL, ...]  # optional, no labels by default
///   content {
///     BODY
///   }
/// }
/// ```
///
/// Spec: 003_ffa21bbb6e176447.txt § `dynamic` blocks
struct DynamicBlock<'a> {
    /// "The label of the dynamic block [...] specifies what kind of nested
    /// block to generate."
    block_type: &'a str,
    /// "The `for_each` argument provides the complex value to iterate
    /// over."
    for_each: Expression<'a>,
    /// "The `iterator` argument (optional) sets the name of a temporary
    /// variable that represents the current element of the complex value.
    /// If omitted, the name of the variable defaults to the label of the
    /// `dynamic` block".
    iterator: &'a str,
    /// "The `labels` argument (optional) is a list of strings that
    /// specifies the block labels, in order, to use for each generated
    /// block."
    labels: Option<Expression<'a>>,
    /// "The nested `content` block defines the body of each generated
    /// block."
    content: ast::Body<'a>,
}

/// Reads the parts of a `dynamic` block, which must be exactly these: one
/// label, the arguments `for_each` (required), `iterator` and `labels`, and
/// one `content` block without labels. Anything else is an error, at the
/// offending item, or at the block's header for a missing one.
/// SPEC-GAP(spec-notes/gaps/dynblock-structure.md)
///
/// Spec: 003_ffa21bbb6e176447.txt § `dynamic` blocks
fn decode_dynamic_block(block: ast::Block<'_>) -> Result<DynamicBlock<'_>, Problem> {
    let block_type = match (block.labels.first(), block.labels.get(1)) {
        (Some(label), None) => label,
        (None, _) => {
            return Err(Problem::new(
                block.type_span,
                "Missing type for dynamic",
                "A dynamic block has one label: the type of the blocks it generates.",
            ))
        }
        (Some(_), Some(extra)) => {
            return Err(Problem::new(
                extra.span,
                "Extraneous label for dynamic",
                "A dynamic block has one label: the type of the blocks it generates.",
            ))
        }
    };
    let header = block.type_span.to(block_type.span);

    let (mut for_each, mut iterator, mut labels) = (None, None, None);
    for attribute in block.body.attributes {
        let slot = match attribute.name {
            "for_each" => &mut for_each,
            "iterator" => &mut iterator,
            "labels" => &mut labels,
            _ => {
                return Err(Problem::new(
                    attribute.name_span,
                    "Unsupported argument",
                    format!(
                        "A dynamic block has only the arguments for_each, iterator and labels, not {:?}.",
                        attribute.name
                    ),
                ))
            }
        };
        *slot = Some(attribute.expression);
    }

    let mut content = None;
    for inner in block.body.blocks {
        if inner.type_name != "content" {
            return Err(Problem::new(
                inner.type_span,
                "Unsupported block type",
                format!(
                    "A dynamic block holds only a content block, not a block of type {:?}.",
                    inner.type_name
                ),
            ));
        }
        if let Some(label) = inner.labels.first() {
            return Err(Problem::new(
                label.span,
                "Extraneous label for content",
                "A content block has no labels.",
            ));
        }
        if content.is_some() {
            return Err(Problem::new(
                inner.type_span,
                "Extraneous dynamic content block",
                "A dynamic block has only one content block.",
            ));
        }
        content = Some(inner.body);
    }

    let for_each = for_each.ok_or_else(|| {
        Problem::new(
            header,
            "Missing required argument",
            "A dynamic block needs a for_each argument: the collection to iterate over.",
        )
    })?;
    let content = content.ok_or_else(|| {
        Problem::new(
            header,
            "Missing dynamic content block",
            "A dynamic block needs a content block: the body of each generated block.",
        )
    })?;
    let iterator = match iterator.map(|e| (e, e.kind())) {
        None => block_type.value,
        Some((_, ExpressionKind::Variable(name))) => name,
        Some((other, _)) => {
            return Err(Problem::new(
                other.span(),
                "Invalid dynamic iterator name",
                "The iterator is named by a single identifier.",
            ))
        }
    };
    Ok(DynamicBlock {
        block_type: block_type.value,
        for_each,
        iterator,
        labels,
        content,
    })
}

/// Appends the blocks a `dynamic` block generates: one for each element of
/// its `for_each` value, in the order the elements are visited.
///
/// "It iterates over a given complex value, and generates a nested block
/// for each element of that complex value." `for_each` is evaluated in the
/// scope around the `dynamic` block; `labels` and the `content` body in
/// the child scope that adds the iterator object: "The iterator object
/// [...] has two attributes: `key` is the map key or list element index
/// for the current element. [...] `value` is the value of the current
/// element."
///
/// Spec: 003_ffa21bbb6e176447.txt § `dynamic` blocks
fn expand_dynamic_block<'a>(
    dynamic: &DynamicBlock<'a>,
    scope: &Scope<'a>,
    blocks: &mut Vec<Block>,
) -> Result<(), Problem> {
    let collection = eval(dynamic.for_each, scope)?;
    // The elements are copied into the iterator objects, and each block
    // generated is work of its own.
    scope.charge_copy(&collection, dynamic.for_each.span())?;
    for (key, value) in elements(&collection, dynamic.for_each.span())? {
        scope.charge(1, dynamic.for_each.span())?;
        let iterator = Value::object([("key".to_string(), key), ("value".to_string(), value)]);
        let child = scope.iteration(None, (dynamic.iterator, &iterator));
        let labels = match dynamic.labels {
            Some(labels) => evaluate_labels(labels, &child)?,
            None => Vec::new(),
        };
        blocks.push(Block {
            type_name: dynamic.block_type.to_string(),
            labels,
            body: expand_body(dynamic.content, &child)?,
        });
    }
    Ok(())
}

/// The key and value of each element of a `for_each` value, in visit order.
///
/// "Since the `for_each` argument accepts any collection or structural
/// value": lists and tuples are visited in index order with the index as
/// key, maps and objects in key order (as `for` expressions visit them,
/// SPEC-GAP(spec-notes/gaps/for-key-order.md)), sets in the set's order
/// with "`key` [...] identical to `value`". A null value, and a value of
/// any other type, is an error at the `for_each` expression
/// (SPEC-GAP(spec-notes/gaps/dynblock-for-each.md)).
///
/// An unknown value: "If the length of the collection cannot be statically
/// recognized (because it is an unknown value of list, map, or set type)
/// then the `dynamic` construct will generate a _single_ dynamic block
/// whose iterator key and value are both unknown values of the dynamic
/// pseudo-type" (so does the unknown value of the dynamic pseudo-type).
/// The length of an unknown tuple or object is recognized from its type:
/// one element per element type, the key known, the value unknown.
/// SPEC-GAP(spec-notes/gaps/dynblock-unknown-for-each.md)
///
/// Spec: ext-dynblock-README.md § HCL Dynamic Blocks Extension;
/// 003_ffa21bbb6e176447.txt § `dynamic` blocks
fn elements(collection: &Value, span: Span) -> Result<Vec<(Value, Value)>, Problem> {
    let index = |i: usize| Value::Number(Number::from_i64(i as i64));
    Ok(match collection {
        Value::List(_, items) | Value::Tuple(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (index(i), v.clone()))
            .collect(),
        Value::Map(_, entries) | Value::Object(entries) => entries
            .iter()
            .map(|(k, v)| (Value::String(k.clone()), v.clone()))
            .collect(),
        Value::Set(_, items) => items.iter().map(|v| (v.clone(), v.clone())).collect(),
        Value::Unknown(Type::Tuple(types)) => types
            .iter()
            .enumerate()
            .map(|(i, ty)| (index(i), Value::Unknown(ty.clone())))
            .collect(),
        Value::Unknown(Type::Object(types)) => types
            .iter()
            .map(|(k, ty)| (Value::String(k.clone()), Value::Unknown(ty.clone())))
            .collect(),
        Value::Unknown(Type::List(_) | Type::Map(_) | Type::Set(_) | Type::Dynamic) => {
            let unknown = Value::Unknown(Type::Dynamic);
            vec![(unknown.clone(), unknown)]
        }
        Value::Null(_) => {
            return Err(Problem::new(
                span,
                "Invalid dynamic for_each value",
                "A null value cannot be used in for_each.",
            ))
        }
        _ => {
            return Err(Problem::new(
                span,
                "Invalid dynamic for_each value",
                format!(
                    "A value of type {} cannot be used in for_each: a collection or structural value is required.",
                    collection.ty()
                ),
            ))
        }
    })
}

/// The labels of one generated block: the `labels` value, a list or tuple
/// of known strings, or of values that convert to strings. Anything else
/// is an error at the offending element, or at the whole expression when
/// it is not a tuple constructor. SPEC-GAP(spec-notes/gaps/dynblock-labels.md)
///
/// "The `labels` argument (optional) is a list of strings that specifies
/// the block labels, in order, to use for each generated block. You can
/// use the temporary iterator variable in this value."
///
/// Spec: 003_ffa21bbb6e176447.txt § `dynamic` blocks
fn evaluate_labels<'a>(labels: Expression<'a>, scope: &Scope<'a>) -> Result<Vec<String>, Problem> {
    let list = eval(labels, scope)?;
    let invalid =
        |span: Span, detail: String| Problem::new(span, "Invalid dynamic block labels", detail);
    let elements = match &*list {
        Value::List(_, elements) | Value::Tuple(elements) => elements,
        Value::Null(_) => {
            return Err(invalid(
                labels.span(),
                "The labels are a list of strings, not null.".into(),
            ))
        }
        Value::Unknown(_) => {
            return Err(invalid(
                labels.span(),
                "The labels are not yet known; block labels must be known values.".into(),
            ))
        }
        other => {
            return Err(invalid(
                labels.span(),
                format!("The labels are a list of strings, not a {}.", other.ty()),
            ))
        }
    };
    let element_span = |i: usize| match labels.kind() {
        ExpressionKind::Tuple(tuple) if tuple.elements.len() == elements.len() => tuple
            .elements
            .get(i)
            .map_or(labels.span(), |element| element.span()),
        _ => labels.span(),
    };
    let mut strings = Vec::with_capacity(elements.len());
    for (i, element) in elements.iter().enumerate() {
        let label = convert(element, &Type::String).map_err(|_| {
            invalid(
                element_span(i),
                format!("A value of type {} cannot be a block label.", element.ty()),
            )
        })?;
        match &label.value {
            Value::String(text) => strings.push(text.clone()),
            Value::Null(_) => {
                return Err(invalid(
                    element_span(i),
                    "A null value cannot be a block label.".into(),
                ))
            }
            _ => {
                return Err(invalid(
                    element_span(i),
                    "This label is not yet known; block labels must be known values.".into(),
                ))
            }
        }
    }
    Ok(strings)
}

/// What the suite cannot show: that the extension is exactly `config`
/// without `dynamic` blocks, the wording and range of every error (the
/// suite compares phases and ranges only, and leaves some ranges open),
/// and nesting deeper than a case would.
#[cfg(test)]
mod tests {
    use crate::native::{eval_config, eval_config_with_extensions, Body, STACK_SIZE};
    use crate::{EvalContext, Phase, Value};

    fn expand(source: &str) -> Result<Body, String> {
        eval_config_with_extensions(source, &EvalContext::default(), true).map_err(|diagnostics| {
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
        assert_eq!(
            eval_config_with_extensions(source, &ctx, false).unwrap(),
            plain
        );
        assert_eq!(plain.blocks[0].type_name, "dynamic");
        let expanded = eval_config_with_extensions(source, &ctx, true).unwrap();
        assert_eq!(expanded.attributes, plain.attributes);
        assert_eq!(expanded.blocks[0].type_name, "b");
    }

    #[test]
    fn a_config_without_dynamic_blocks_is_unchanged() {
        let source = "a = 1\nb \"l\" {\n  c {\n    d = [1, \"x\"][1]\n  }\n}\n";
        let ctx = EvalContext::default();
        assert_eq!(
            eval_config_with_extensions(source, &ctx, true).unwrap(),
            eval_config(source, &ctx).unwrap()
        );
    }

    #[test]
    fn errors_are_evaluation_errors_with_a_range_and_a_summary() {
        let cases = [
            ("dynamic {\n  for_each = []\n  content {}\n}\n", "1:1-1:8 Missing type for dynamic"),
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
                "3:11-3:14 Extraneous label for content",
            ),
            (
                "dynamic \"a\" {\n  for_each = []\n  content {}\n  content {}\n}\n",
                "4:3-4:10 Extraneous dynamic content block",
            ),
            ("dynamic \"a\" {\n  content {}\n}\n", "1:1-1:12 Missing required argument"),
            ("dynamic \"a\" {\n  for_each = []\n}\n", "1:1-1:12 Missing dynamic content block"),
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
        let body =
            expand("dynamic \"a\" {\n  for_each = [[]]\n  labels = a.value\n  content {}\n}\n")
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
}
