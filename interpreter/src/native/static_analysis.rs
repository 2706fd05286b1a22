//! Static analysis of native-syntax expressions: which expressions each of
//! the four analyses applies to, and what it finds in them.
//!
//! Spec: hclsyntax-spec.md § Static Analysis; spec.md § Static Analysis
//!
//! "The HCL static analysis operations are implemented for some expression
//! types in the native syntax": the tuple constructor (static list), the
//! object constructor (static map), the function call (static call), and a
//! variable with attached attribute accesses and constant indexes (static
//! traversal). Each analysis looks at the expression as written, without
//! evaluating anything; an expression of any other form is a diagnostic of
//! [`Phase::Static`] whose range is the whole expression.
//!
//! Parentheses count as written: `([a])` is a parenthesized expression, not
//! a tuple constructor, so none of the analyses applies to it.
//! SPEC-GAP(spec-notes/gaps/static-analysis-parentheses.md)

use super::ast::{
    node, Expression, ExpressionKind, Expressions, FunctionCall, Nodes, ObjectKey, TemplatePart,
};
use super::Parsed;
use crate::diagnostic::{Diagnostic, Phase, Range};
use crate::source::Span;
use crate::static_analysis::{Analysis, StaticResult, Traversal, TraversalStep};
use crate::value::Value;

type ParsedExpression = Parsed<node::Expression>;

/// Parses `source` as a whole native-syntax expression and applies the
/// static `analysis` to it.
///
/// Parse errors are diagnostics of [`Phase::Parse`]; an expression the
/// analysis does not apply to is one diagnostic of [`Phase::Static`] with
/// the expression's range.
/// SPEC-GAP(spec-notes/gaps/static-analysis-error-range.md)
///
/// Spec: spec.md § Static Analysis
pub fn analyze(source: &str, analysis: Analysis) -> Result<StaticResult, Vec<Diagnostic>> {
    let parsed = super::parse_expression(source)?;
    let found = match analysis {
        Analysis::List => static_list(&parsed),
        Analysis::Map => static_map(&parsed),
        Analysis::Call => static_call(&parsed),
        Analysis::Traversal => static_traversal(&parsed),
    };
    found.ok_or_else(|| vec![not_applicable(&parsed, analysis)])
}

/// "The tuple construction syntax can be interpreted as a static list. All
/// of the expression elements given are returned as the static list
/// elements, with no further interpretation."
///
/// ```ebnf
/// tuple = "[" (
///     (Expression ("," Expression)* ","?)?
/// ) "]";
/// ```
///
/// Spec: hclsyntax-spec.md § Static List
fn static_list(parsed: &ParsedExpression) -> Option<StaticResult> {
    let elements = list_elements(parsed.tree())?;
    let elements = elements.iter().map(|e| parsed.range(e.span()));
    Some(StaticResult::List(elements.collect()))
}

/// The elements of an expression that can be interpreted as a static list:
/// a tuple constructor's, as written. For callers that analyse the elements
/// in turn (the type expression extension's `tuple([...])`).
///
/// Spec: hclsyntax-spec.md § Static List
pub(crate) fn list_elements(expression: Expression<'_>) -> Option<Expressions<'_>> {
    match expression.kind() {
        ExpressionKind::Tuple(tuple) => Some(tuple.elements),
        _ => None,
    }
}

/// "The object construction syntax can be interpreted as a static map. All
/// of the key/value pairs given are returned as the static pairs, with no
/// further interpretation."
///
/// "The usual requirement that an attribute name be interpretable as a
/// string does not apply to this static analysis": a key is returned as
/// written, a lone identifier, a string, a parenthesized expression or any
/// other expression alike, and so are duplicate keys.
///
/// ```ebnf
/// object = "{" (
///     (objectelem ("," objectelem)* ","?)?
/// ) "}";
/// objectelem = (Identifier | Expression) ("=" | ":") Expression;
/// ```
///
/// Spec: hclsyntax-spec.md § Static Map
fn static_map(parsed: &ParsedExpression) -> Option<StaticResult> {
    let pairs = map_items(parsed.tree())?.iter().map(|item| {
        (
            parsed.range(item.key.span()),
            parsed.range(item.value.span()),
        )
    });
    Some(StaticResult::Map(pairs.collect()))
}

/// The key/value pairs of an expression that can be interpreted as a static
/// map: an object constructor's elements, as written, duplicates included.
///
/// Spec: hclsyntax-spec.md § Static Map
pub(crate) fn map_items(expression: Expression<'_>) -> Option<Nodes<'_, node::ObjectItem>> {
    match expression.kind() {
        ExpressionKind::Object(object) => Some(object.items),
        _ => None,
    }
}

/// "The function call syntax can be interpreted as a static call. The
/// called function name is returned verbatim and the given argument
/// expressions are returned as the static arguments, with no further
/// interpretation."
///
/// The name is the identifier's source text. A final argument expanded
/// with `...` is returned as its expression, without the `...`, which is
/// no part of it; the result does not say that it was expanded.
/// SPEC-GAP(spec-notes/gaps/static-call-argument-expansion.md)
///
/// ```ebnf
/// FunctionCall = Identifier "(" arguments ")";
/// Arguments = (
///     () ||
///     (Expression ("," Expression)* ("," | "...")?)
/// );
/// ```
///
/// Spec: hclsyntax-spec.md § Static Call
fn static_call(parsed: &ParsedExpression) -> Option<StaticResult> {
    let call = call_parts(parsed.tree())?;
    let arguments = call.arguments.iter().map(|e| parsed.range(e.span()));
    Some(StaticResult::Call {
        name: source_text(parsed, call.name_span).to_string(),
        arguments: arguments.collect(),
    })
}

/// The function call an expression can be interpreted as a static call, if
/// any: its name, its arguments (an expanded final argument without its
/// `...`) and their parentheses.
///
/// Spec: hclsyntax-spec.md § Static Call
pub(crate) fn call_parts(expression: Expression<'_>) -> Option<FunctionCall<'_>> {
    match expression.kind() {
        ExpressionKind::FunctionCall(call) => Some(call),
        _ => None,
    }
}

/// The name of an expression that can be interpreted as a static traversal
/// of a single root name and no steps (hashicorp/hcl's "keyword"): a
/// variable, or one of the keywords `true`, `false` and `null`, which
/// "behav[e] as if they were references to variables of those names".
/// A literal keyword is recognised by its value, which only those three
/// keywords give a literal (a numeric literal is a number).
///
/// Spec: hclsyntax-spec.md § Static Traversal
pub(crate) fn keyword(expression: Expression<'_>) -> Option<&str> {
    match expression.kind() {
        ExpressionKind::Variable(name) => Some(name),
        ExpressionKind::Literal(literal) => match *literal {
            Value::Bool(true) => Some("true"),
            Value::Bool(false) => Some("false"),
            Value::Null(_) => Some("null"),
            _ => None,
        },
        _ => None,
    }
}

/// The name of an object constructor key that is a static traversal of a
/// single root name: a bare identifier (which the object constructor takes
/// as a literal attribute name), or a key expression that is one.
/// A parenthesized key, a quoted string or any other expression is none.
///
/// Spec: hclsyntax-spec.md § Static Traversal, § Static Map
pub(crate) fn key_keyword(key: ObjectKey<'_>) -> Option<&str> {
    match key {
        ObjectKey::Name { name, .. } => Some(name),
        ObjectKey::Expression(expression) => keyword(expression),
    }
}

/// "A variable expression and any attached attribute access operations and
/// constant index operations can be interpreted as a static traversal."
///
/// ```ebnf
/// VariableExpr = Identifier;
/// GetAttr = "." Identifier;
/// Index = "[" Expression "]";
/// LegacyIndex = '.' digit+
/// ```
///
/// The chain is walked from the outermost operation inwards (a loop, not
/// recursion, since it may be as long as the nesting limit allows), then
/// reversed. The legacy index `a.0` is an index operation with the key 0.
///
/// Spec: hclsyntax-spec.md § Static Traversal
fn static_traversal(parsed: &ParsedExpression) -> Option<StaticResult> {
    let mut steps = Vec::new();
    let mut current = parsed.tree();
    let root = loop {
        match current.kind() {
            ExpressionKind::Variable(name) => break name.to_string(),
            ExpressionKind::Literal(_) => break keyword_root(parsed, current.span())?,
            ExpressionKind::GetAttr(get_attr) => {
                steps.push(TraversalStep::Attribute(get_attr.name.to_string()));
                current = get_attr.object;
            }
            ExpressionKind::Index(index) => {
                steps.push(TraversalStep::Index(constant_index_key(index.key)?));
                current = index.collection;
            }
            _ => return None,
        }
    };
    steps.reverse();
    Some(StaticResult::Traversal(Traversal { root, steps }))
}

/// "The keywords `true`, `false` and `null` can also be interpreted as
/// static traversals, behaving as if they were references to variables of
/// those names": a keyword is a traversal root, and operations attached to
/// it are steps, as they would be after a variable. A numeric literal is
/// no traversal.
///
/// Spec: hclsyntax-spec.md § Static Traversal
fn keyword_root(parsed: &ParsedExpression, span: Span) -> Option<String> {
    let text = source_text(parsed, span);
    ["true", "false", "null"]
        .contains(&text)
        .then(|| text.to_string())
}

/// The key of a constant index operation: a literal value (a number, or
/// the keywords `true`, `false`, `null`), or a quoted or heredoc string
/// with literal text only (its escapes decoded). Any other key, an
/// operation such as `-1`, a parenthesized literal or a template with an
/// interpolation included, is not constant: static analysis reads the
/// physical structure and does not evaluate.
/// SPEC-GAP(spec-notes/gaps/static-traversal-constant-keys.md)
///
/// Spec: hclsyntax-spec.md § Static Traversal
pub(crate) fn constant_index_key(key: Expression<'_>) -> Option<Value> {
    match key.kind() {
        ExpressionKind::Literal(literal) => Some(literal.into_owned()),
        ExpressionKind::Template(template) => {
            let mut text = String::new();
            for part in template.parts {
                match part {
                    TemplatePart::Literal { text: literal, .. } => text.push_str(literal),
                    _ => return None,
                }
            }
            Some(Value::string(&text))
        }
        _ => None,
    }
}

/// The diagnostic of an analysis that does not apply to the expression.
fn not_applicable(parsed: &ParsedExpression, analysis: Analysis) -> Diagnostic {
    let detail = match analysis {
        Analysis::List => "A static list is required: a tuple constructor, like [a, b].",
        Analysis::Map => "A static map is required: an object constructor, like {a = b}.",
        Analysis::Call => "A static call is required: a function call, like f(a, b).",
        Analysis::Traversal => {
            "A static traversal is required: a variable with attribute accesses and indexes with constant keys only, like a.b[0][\"c\"]."
        }
    };
    Diagnostic {
        phase: Phase::Static,
        summary: "Invalid expression".into(),
        detail: detail.into(),
        range: Some(whole_range(parsed)),
    }
}

fn whole_range(parsed: &ParsedExpression) -> Range {
    parsed.range(parsed.tree().span())
}

fn source_text(parsed: &ParsedExpression, span: Span) -> &str {
    &parsed.source()[span.range()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::number::Number;

    /// The source text of each range.
    fn texts(source: &str, ranges: &[Range]) -> Vec<String> {
        ranges
            .iter()
            .map(|r| source[r.start.byte..r.end.byte].to_string())
            .collect()
    }

    fn list(source: &str) -> Vec<String> {
        match analyze(source, Analysis::List) {
            Ok(StaticResult::List(elements)) => texts(source, &elements),
            other => panic!("{source}: {other:?}"),
        }
    }

    fn traversal(source: &str) -> Traversal {
        match analyze(source, Analysis::Traversal) {
            Ok(StaticResult::Traversal(traversal)) => traversal,
            other => panic!("{source}: {other:?}"),
        }
    }

    /// The phase and the `L:C-L:C` range of the single diagnostic.
    fn error(source: &str, analysis: Analysis) -> (Phase, String) {
        let diagnostics = analyze(source, analysis).expect_err(source);
        assert_eq!(diagnostics.len(), 1, "{source}");
        let r = diagnostics[0].range.expect("a range");
        let range = format!(
            "{}:{}-{}:{}",
            r.start.line, r.start.column, r.end.line, r.end.column
        );
        (diagnostics[0].phase, range)
    }

    fn attribute(name: &str) -> TraversalStep {
        TraversalStep::Attribute(name.into())
    }

    fn index(n: i64) -> TraversalStep {
        TraversalStep::Index(Value::Number(Number::from_i64(n)))
    }

    #[test]
    fn list_returns_the_elements_as_written() {
        assert_eq!(list(r#"[a, b.c, "x"]"#), ["a", "b.c", r#""x""#]);
        assert_eq!(list("[\n  1 + 2,\n  [3],\n]"), ["1 + 2", "[3]"]);
        assert!(list("[]").is_empty());
    }

    #[test]
    fn list_requires_a_tuple_constructor() {
        assert_eq!(
            error("a", Analysis::List),
            (Phase::Static, "1:1-1:2".into())
        );
        assert_eq!(
            error("([a])", Analysis::List),
            (Phase::Static, "1:1-1:6".into())
        );
        assert_eq!(error("[for x in y: x]", Analysis::List).0, Phase::Static);
        assert_eq!(error("[a,", Analysis::List).0, Phase::Parse);
    }

    #[test]
    fn map_returns_keys_and_values_as_written() {
        let source = r#"{a = 1, "b" = c, (d) = [2], 1 + 2: e, a = 3}"#;
        let Ok(StaticResult::Map(pairs)) = analyze(source, Analysis::Map) else {
            panic!("not a map");
        };
        let keys: Vec<Range> = pairs.iter().map(|p| p.0).collect();
        let values: Vec<Range> = pairs.iter().map(|p| p.1).collect();
        assert_eq!(texts(source, &keys), ["a", r#""b""#, "(d)", "1 + 2", "a"]);
        assert_eq!(texts(source, &values), ["1", "c", "[2]", "e", "3"]);
        assert_eq!(error("[a]", Analysis::Map).0, Phase::Static);
    }

    #[test]
    fn call_returns_the_name_and_the_arguments() {
        let source = r#"upper(x, "y", f(z)...)"#;
        let Ok(StaticResult::Call { name, arguments }) = analyze(source, Analysis::Call) else {
            panic!("not a call");
        };
        assert_eq!(name, "upper");
        assert_eq!(texts(source, &arguments), ["x", r#""y""#, "f(z)"]);
        assert_eq!(
            error("f(x).y", Analysis::Call),
            (Phase::Static, "1:1-1:7".into())
        );
    }

    #[test]
    fn traversal_has_a_root_and_constant_steps() {
        let found = traversal(r#"aws_instance.web[0]["k"].l.1"#);
        assert_eq!(found.root, "aws_instance");
        assert_eq!(
            found.steps,
            [
                attribute("web"),
                index(0),
                TraversalStep::Index(Value::string("k")),
                attribute("l"),
                index(1),
            ]
        );
        assert_eq!(traversal("a").steps, []);
    }

    #[test]
    fn keywords_are_traversal_roots() {
        for keyword in ["true", "false", "null"] {
            assert_eq!(traversal(keyword).root, keyword);
        }
        assert_eq!(traversal("null.a").steps, [attribute("a")]);
        assert_eq!(error("1", Analysis::Traversal).0, Phase::Static);
    }

    #[test]
    fn traversal_keys_must_be_literals() {
        assert_eq!(
            traversal(r#"a[true][""]"#).steps,
            [
                TraversalStep::Index(Value::Bool(true)),
                TraversalStep::Index(Value::string("")),
            ]
        );
        for source in [
            "a[b]",
            "a[-1]",
            "a[(0)]",
            r#"a["${b}"]"#,
            "a[*]",
            "a.*.b",
            "(a).b",
        ] {
            let range = format!("1:1-1:{}", source.chars().count() + 1);
            assert_eq!(error(source, Analysis::Traversal), (Phase::Static, range));
        }
    }

    #[test]
    fn a_long_chain_does_not_recurse() {
        let source = format!("a{}", ".b".repeat(100_000));
        assert_eq!(traversal(&source).steps.len(), 100_000);
    }
}
