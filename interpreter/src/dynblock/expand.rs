//! One `dynamic` block: its parts, and the blocks it generates.
//!
//! Spec: ext-dynblock-README.md § HCL Dynamic Blocks Extension
//!
//! Spec: 003_ffa21bbb6e176447.txt § `dynamic` blocks
//!
//! ```hcl
//! dynamic "NAME" {
//!   for_each = COLLECTION
//!   iterator = IDENTIFIER    # optional, NAME by default
//!   labels   = [LABEL, ...]  # optional, no labels by default
//!   content {
//!     BODY
//!   }
//! }
//! ```

use super::DynamicBody;
use crate::bodies::{
    AttributeSchema, BlockHeaderSchema, BodySchema, FoundBlock, PhysicalBody, SchemaIndex,
};
use crate::budget::{text_bytes, tree_bytes, Budget, BudgetExceeded};
use crate::convert::convert;
use crate::diagnostic::quoted;
use crate::diagnostic::{Diagnostic, Phase};
use crate::eval_context::EvalScope;
use crate::number::Number;
use crate::source::Span;
use crate::static_analysis::StaticExpression;
use crate::types::Type;
use crate::value::Value;

/// The parts of a `dynamic` block.
///
/// Spec: 003_ffa21bbb6e176447.txt § `dynamic` blocks
struct DynamicBlock<B: PhysicalBody> {
    /// "The label of the dynamic block [...] specifies what kind of nested
    /// block to generate."
    block_type: String,
    /// Where the type is written.
    type_span: Span,
    /// "The `for_each` argument provides the complex value to iterate
    /// over."
    for_each: B::Expression,
    /// "The `iterator` argument (optional) sets the name of a temporary
    /// variable that represents the current element of the complex value.
    /// If omitted, the name of the variable defaults to the label of the
    /// `dynamic` block".
    iterator: String,
    /// "The `labels` argument (optional) is a list of strings that
    /// specifies the block labels, in order, to use for each generated
    /// block."
    labels: Option<B::Expression>,
    /// "The nested `content` block defines the body of each generated
    /// block."
    content: B,
    /// The `dynamic` block's own body, in which its arguments are
    /// evaluated.
    body: B,
}

/// The blocks a `dynamic` block generates: one for each element of its
/// `for_each` value, in the order the elements are visited. `labels` is the
/// number of labels a schema gives the generated type, if a schema decides.
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
pub(super) fn expand<'a, B: PhysicalBody + Clone>(
    block: FoundBlock<B>,
    labels: Option<usize>,
    around: &DynamicBody<'a, B>,
) -> Result<Vec<FoundBlock<DynamicBody<'a, B>>>, Vec<Diagnostic>> {
    let dynamic = decode(block, labels.is_none())?;
    let error = |span: Span, summary: &str, detail: String| {
        vec![eval_error(&dynamic.body, span, summary, detail)]
    };
    let collection = dynamic
        .body
        .evaluate(&dynamic.for_each, around.scope.as_ref())?;
    let for_each_span = dynamic.for_each.span();
    // The elements are copied into the iterator objects, and each block
    // generated is work of its own: its iterator object (a tree of two
    // attributes and their names), and an expression's worth of work.
    let charge = |work: &dyn Fn(&Budget) -> Result<(), BudgetExceeded>| match &around.scope {
        Some(scope) => work(&scope.context().budget)
            .map_err(|e| error(for_each_span, BudgetExceeded::SUMMARY, e.detail())),
        None => Ok(()),
    };
    charge(&|budget| budget.charge_value(&collection))?;
    let iterator_bytes = Budget::EXPRESSION_BYTES
        + tree_bytes::<Value>(2)
        + text_bytes("key".len())
        + text_bytes("value".len());
    let mut generated = Vec::new();
    for (key, value) in elements(&collection)
        .map_err(|detail| error(for_each_span, "Invalid dynamic for_each value", detail))?
    {
        charge(&|budget| budget.charge(iterator_bytes))?;
        let iterator = Value::object([("key".to_string(), key), ("value".to_string(), value)]);
        let child = around
            .scope
            .as_ref()
            .map(|scope| scope.child(dynamic.iterator.clone(), iterator));
        let (labels_given, label_spans) = match &dynamic.labels {
            Some(expression) => evaluate_labels(&dynamic.body, expression, child.as_ref())?,
            None => (Vec::new(), Vec::new()),
        };
        if let Some(wanted) = labels {
            check_label_count(&dynamic, wanted, labels_given.len(), &label_spans)?;
        }
        generated.push(FoundBlock {
            type_name: dynamic.block_type.clone(),
            labels: labels_given,
            type_span: dynamic.type_span,
            label_spans,
            body: DynamicBody::new(dynamic.content.clone(), child),
        });
    }
    Ok(generated)
}

/// An evaluation error at a span of `body`'s source.
fn eval_error<B: PhysicalBody>(body: &B, span: Span, summary: &str, detail: String) -> Diagnostic {
    let range = body.range(span);
    #[cfg(feature = "planted-bugs")]
    let range = crate::planted::range_off_by_one(Phase::Eval, range);
    Diagnostic {
        phase: Phase::Eval,
        summary: summary.into(),
        detail,
        range: Some(range),
    }
}

/// The schema of a `dynamic` block's body.
fn dynamic_block_schema() -> BodySchema {
    let argument = |name: &str| AttributeSchema {
        name: name.into(),
        required: false,
    };
    BodySchema {
        attributes: vec![
            argument("for_each"),
            argument("iterator"),
            argument("labels"),
        ],
        blocks: vec![BlockHeaderSchema {
            type_name: "content".into(),
            label_names: Vec::new(),
        }],
    }
}

/// Reads the parts of a `dynamic` block, which must be exactly these: one
/// label (checked here when `check_label` is set; a schema checks it
/// otherwise), the arguments `for_each` (required), `iterator` and
/// `labels`, and one `content` block without labels. Anything else is an
/// error, at the offending item, or at the block's header for a missing
/// one. SPEC-GAP(spec-notes/gaps/dynblock-structure.md)
///
/// Spec: 003_ffa21bbb6e176447.txt § `dynamic` blocks
fn decode<B: PhysicalBody>(
    block: FoundBlock<B>,
    check_label: bool,
) -> Result<DynamicBlock<B>, Vec<Diagnostic>> {
    let (block_type, label_span) = generated_type(&block, check_label)?;
    let header = block.type_span.to(label_span);
    let parts = read_parts(&block.body)?;
    let for_each = parts.for_each.ok_or_else(|| {
        errors(
            &block.body,
            header,
            "Missing required argument",
            "A dynamic block needs a for_each argument: the collection to iterate over.",
        )
    })?;
    let content = parts.content.ok_or_else(|| {
        errors(
            &block.body,
            header,
            "Missing dynamic content block",
            "A dynamic block needs a content block: the body of each generated block.",
        )
    })?;
    let iterator = match parts.iterator {
        None => block_type.clone(),
        Some(expression) => iterator_name(&block.body, &expression)?,
    };
    Ok(DynamicBlock {
        block_type,
        type_span: label_span,
        for_each,
        iterator,
        labels: parts.labels,
        content: content.body,
        body: block.body,
    })
}

/// The one label of a `dynamic` block, the type of the blocks it
/// generates, and where it is written. Extra labels are an error only
/// when `check_label` is set.
fn generated_type<B: PhysicalBody>(
    block: &FoundBlock<B>,
    check_label: bool,
) -> Result<(String, Span), Vec<Diagnostic>> {
    let detail = "A dynamic block has one label: the type of the blocks it generates.";
    match (block.labels.first(), block.label_spans.first()) {
        (Some(label), Some(span)) if block.labels.len() == 1 || !check_label => {
            Ok((label.clone(), *span))
        }
        (Some(_), _) => {
            let extra = block.label_spans.get(1).copied().unwrap_or(block.type_span);
            Err(errors(
                &block.body,
                extra,
                "Extraneous label for dynamic",
                detail,
            ))
        }
        (None, _) => Err(errors(
            &block.body,
            block.type_span,
            "Missing type for dynamic",
            detail,
        )),
    }
}

/// The arguments and the `content` block of a `dynamic` block's body, as
/// far as they are given.
struct Parts<B: PhysicalBody> {
    for_each: Option<B::Expression>,
    iterator: Option<B::Expression>,
    labels: Option<B::Expression>,
    content: Option<FoundBlock<B>>,
}

/// Reads a `dynamic` block's body by its schema: anything the schema does
/// not name, and a second `content` block, is an error. (The body's own
/// errors are the extension's, so evaluation errors.)
fn read_parts<B: PhysicalBody>(body: &B) -> Result<Parts<B>, Vec<Diagnostic>> {
    let as_eval = |mut diagnostics: Vec<Diagnostic>| {
        for d in &mut diagnostics {
            d.phase = Phase::Eval;
        }
        diagnostics
    };
    let schema = dynamic_block_schema();
    let index = SchemaIndex::new(&schema);
    let (content, rest) = body.partial_content(&index).map_err(as_eval)?;
    if let Some(unexpected) = rest.extraneous(&index) {
        return Err(as_eval(vec![unexpected]));
    }
    let (mut for_each, mut iterator, mut labels) = (None, None, None);
    for attribute in content.attributes {
        match attribute.name.as_str() {
            "for_each" => for_each = Some(attribute.expression),
            "iterator" => iterator = Some(attribute.expression),
            _ => labels = Some(attribute.expression),
        }
    }
    let mut contents = content.blocks.into_iter();
    let first = contents.next();
    if let Some(second) = contents.next() {
        return Err(errors(
            body,
            second.type_span,
            "Extraneous dynamic content block",
            "A dynamic block has only one content block.",
        ));
    }
    Ok(Parts {
        for_each,
        iterator,
        labels,
        content: first,
    })
}

/// The name the `iterator` argument gives: it "sets the name of a
/// temporary variable", a static traversal of one name, and no more.
fn iterator_name<B: PhysicalBody>(
    body: &B,
    expression: &B::Expression,
) -> Result<String, Vec<Diagnostic>> {
    let name: Option<String> = (expression as &dyn StaticExpression).keyword();
    name.ok_or_else(|| {
        errors(
            body,
            expression.span(),
            "Invalid dynamic iterator name",
            "The iterator is named by a single identifier.",
        )
    })
}

/// The one evaluation error of a `dynamic` block at a span of its body's
/// source.
fn errors<B: PhysicalBody>(body: &B, span: Span, summary: &str, detail: &str) -> Vec<Diagnostic> {
    vec![eval_error(body, span, summary, detail.into())]
}

/// The key and value of each element of a `for_each` value, in visit
/// order; or why there are none.
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
fn elements(collection: &Value) -> Result<Vec<(Value, Value)>, String> {
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
        Value::Null(_) => return Err("A null value cannot be used in for_each.".into()),
        _ => {
            return Err(format!(
                "A value of type {} cannot be used in for_each: a collection or structural value is required.",
                collection.ty()
            ))
        }
    })
}

/// The labels of one generated block, and where each is written: the
/// `labels` value, a list or tuple of known strings, or of values that
/// convert to strings. Anything else is an error at the offending element,
/// or at the whole expression when it is not a static list of as many
/// elements. SPEC-GAP(spec-notes/gaps/dynblock-labels.md)
///
/// "The `labels` argument (optional) is a list of strings that specifies
/// the block labels, in order, to use for each generated block. You can
/// use the temporary iterator variable in this value."
///
/// Spec: 003_ffa21bbb6e176447.txt § `dynamic` blocks
fn evaluate_labels<B: PhysicalBody>(
    body: &B,
    labels: &B::Expression,
    scope: Option<&EvalScope>,
) -> Result<(Vec<String>, Vec<Span>), Vec<Diagnostic>> {
    let list = body.evaluate(labels, scope)?;
    let invalid = |span: Span, detail: String| {
        vec![eval_error(
            body,
            span,
            "Invalid dynamic block labels",
            detail,
        )]
    };
    let elements = match &list {
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
    let written = labels
        .static_list()
        .filter(|written| written.len() == elements.len());
    let spans: Vec<Span> = match written {
        Some(written) => written.iter().map(|e| e.span()).collect(),
        None => vec![labels.span(); elements.len()],
    };
    // Labels are converted with the evaluation's budget (literal-only
    // mode, which has none, with a budget of their own).
    let own_budget = Budget::default();
    let budget = scope.map_or(&own_budget, |scope| &scope.context().budget);
    let mut strings = Vec::with_capacity(elements.len());
    for (element, &span) in elements.iter().zip(&spans) {
        let label = convert(element, &Type::String, budget).map_err(|_| {
            invalid(
                span,
                format!("A value of type {} cannot be a block label.", element.ty()),
            )
        })?;
        match &label.value {
            Value::String(text) => strings.push(text.clone()),
            Value::Null(_) => {
                return Err(invalid(
                    span,
                    "A null value cannot be a block label.".into(),
                ))
            }
            _ => {
                return Err(invalid(
                    span,
                    "This label is not yet known; block labels must be known values.".into(),
                ))
            }
        }
    }
    Ok((strings, spans))
}

/// With a schema, the generated blocks have the labels their type's block
/// header schema names, as any block has: more or fewer are an error of
/// the schema, at the first extra label, or at the `labels` argument (or,
/// without one, the `dynamic` block's header) for missing ones, as
/// hashicorp/hcl reports them.
/// SPEC-GAP(spec-notes/gaps/bodies-label-count.md)
///
/// Spec: spec.md § Schema-driven Processing
fn check_label_count<B: PhysicalBody>(
    dynamic: &DynamicBlock<B>,
    wanted: usize,
    given: usize,
    label_spans: &[Span],
) -> Result<(), Vec<Diagnostic>> {
    let error = |span: Span, summary: &str| {
        vec![crate::bodies::schema_error(
            dynamic.body.range(span),
            summary,
            format!(
                "Blocks of type {} have {wanted} label(s), not {given}.",
                quoted(&dynamic.block_type)
            ),
        )]
    };
    if given > wanted {
        let extra = label_spans
            .get(wanted)
            .copied()
            .unwrap_or(dynamic.type_span);
        return Err(error(extra, "Extraneous dynamic block label"));
    }
    if given < wanted {
        let span = dynamic
            .labels
            .as_ref()
            .map_or(dynamic.type_span, |labels| labels.span());
        return Err(error(span, "Insufficient dynamic block labels"));
    }
    Ok(())
}
