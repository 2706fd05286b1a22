//! Static analysis of native-syntax expressions: which expressions each of
//! the four analyses applies to, and what it finds in them
//! ([`StaticExpression`] for the native syntax's expression views).
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

use super::ast::{node, Expression, ExpressionKind, ObjectKey, TemplatePart};
use super::Parsed;
use crate::diagnostic::{Diagnostic, Phase};
use crate::source::Span;
use crate::static_analysis::{
    apply, Analysis, StaticCall, StaticExpression, StaticPair, StaticResult, Traversal,
    TraversalStep,
};
use crate::value::Value;

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
    let found = apply(&parsed.tree(), analysis, |span| parsed.range(span));
    found.ok_or_else(|| vec![not_applicable(&parsed, analysis)])
}

fn boxed<'t>(expression: Expression<'t>) -> Box<dyn StaticExpression + 't> {
    Box::new(expression)
}

impl StaticExpression for Expression<'_> {
    fn span(&self) -> Span {
        Expression::span(*self)
    }

    /// "The tuple construction syntax can be interpreted as a static list.
    /// All of the expression elements given are returned as the static
    /// list elements, with no further interpretation."
    ///
    /// ```ebnf
    /// tuple = "[" (
    ///     (Expression ("," Expression)* ","?)?
    /// ) "]";
    /// ```
    ///
    /// Parentheses count as written: `([a])` is a parenthesized expression,
    /// not a tuple constructor, so none of the analyses applies to it.
    /// SPEC-GAP(spec-notes/gaps/static-analysis-parentheses.md)
    ///
    /// Spec: hclsyntax-spec.md § Static List
    fn static_list(&self) -> Option<Vec<Box<dyn StaticExpression + '_>>> {
        match self.kind() {
            ExpressionKind::Tuple(tuple) => Some(tuple.elements.iter().map(boxed).collect()),
            _ => None,
        }
    }

    /// "The object construction syntax can be interpreted as a static map.
    /// All of the key/value pairs given are returned as the static pairs,
    /// with no further interpretation."
    ///
    /// "The usual requirement that an attribute name be interpretable as a
    /// string does not apply to this static analysis": a key is returned as
    /// written, a lone identifier, a string, a parenthesized expression or
    /// any other expression alike, and so are duplicate keys.
    ///
    /// ```ebnf
    /// object = "{" (
    ///     (objectelem ("," objectelem)* ","?)?
    /// ) "}";
    /// objectelem = (Identifier | Expression) ("=" | ":") Expression;
    /// ```
    ///
    /// Spec: hclsyntax-spec.md § Static Map
    fn static_map(&self) -> Option<Vec<StaticPair<'_>>> {
        match self.kind() {
            ExpressionKind::Object(object) => Some(
                object
                    .items
                    .iter()
                    .map(|item| -> StaticPair<'_> { (Box::new(item.key), boxed(item.value)) })
                    .collect(),
            ),
            _ => None,
        }
    }

    /// "The function call syntax can be interpreted as a static call. The
    /// called function name is returned verbatim and the given argument
    /// expressions are returned as the static arguments, with no further
    /// interpretation."
    ///
    /// A final argument expanded with `...` is returned as its expression,
    /// without the `...`, which is no part of it; the result does not say
    /// that it was expanded.
    /// SPEC-GAP(spec-notes/gaps/static-call-argument-expansion.md)
    ///
    /// A namespaced name (hashicorp/hcl v2.20.1 and later) is returned as
    /// the call names its function, its identifiers joined by `::`
    /// (`core::upper`), without the whitespace the source may have around
    /// a `::`. SPEC-GAP(spec-notes/gaps/expr-namespaced-function-calls.md)
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
    fn static_call(&self) -> Option<StaticCall<'_>> {
        let ExpressionKind::FunctionCall(call) = self.kind() else {
            return None;
        };
        // The opening parenthesis ends the span from the name to it.
        let open = call
            .open_span
            .end
            .saturating_sub(1)
            .max(call.open_span.start);
        Some(StaticCall {
            name: call.name.to_string(),
            arguments: call.arguments.iter().map(boxed).collect(),
            arguments_span: Span {
                start: open,
                end: call.close_paren_span.end,
            },
        })
    }

    /// "A variable expression and any attached attribute access operations
    /// and constant index operations can be interpreted as a static
    /// traversal."
    ///
    /// ```ebnf
    /// VariableExpr = Identifier;
    /// GetAttr = "." Identifier;
    /// Index = "[" Expression "]";
    /// LegacyIndex = '.' digit+
    /// ```
    ///
    /// "The keywords `true`, `false` and `null` can also be interpreted as
    /// static traversals, behaving as if they were references to variables
    /// of those names": a keyword is a traversal root, and operations
    /// attached to it are steps, as they would be after a variable. A
    /// numeric literal is no traversal.
    ///
    /// The chain is walked from the outermost operation inwards (a loop,
    /// not recursion, since it may be as long as the nesting limit allows),
    /// then reversed. The legacy index `a.0` is an index operation with the
    /// key 0.
    ///
    /// Spec: hclsyntax-spec.md § Static Traversal
    fn static_traversal(&self) -> Option<Traversal> {
        let mut steps = Vec::new();
        let mut current = *self;
        let root = loop {
            match current.kind() {
                ExpressionKind::Variable(name) => break name.to_string(),
                ExpressionKind::Literal(literal) => break keyword_name(&literal)?.to_string(),
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
        Some(Traversal { root, steps })
    }

    fn literal_value(&self) -> Option<Value> {
        constant_index_key(*self)
    }
}

/// The key of an object constructor element, as an expression: a bare
/// identifier (which the object constructor takes as a literal attribute
/// name) is a static traversal of that single root name, whose value in
/// literal-only mode is the name; any other key is the expression it is.
///
/// Spec: hclsyntax-spec.md § Static Traversal, § Static Map
impl StaticExpression for ObjectKey<'_> {
    fn span(&self) -> Span {
        ObjectKey::span(*self)
    }

    fn static_list(&self) -> Option<Vec<Box<dyn StaticExpression + '_>>> {
        match self {
            ObjectKey::Name { .. } => None,
            ObjectKey::Expression(key) => key.static_list(),
        }
    }

    fn static_map(&self) -> Option<Vec<StaticPair<'_>>> {
        match self {
            ObjectKey::Name { .. } => None,
            ObjectKey::Expression(key) => key.static_map(),
        }
    }

    fn static_call(&self) -> Option<StaticCall<'_>> {
        match self {
            ObjectKey::Name { .. } => None,
            ObjectKey::Expression(key) => key.static_call(),
        }
    }

    fn static_traversal(&self) -> Option<Traversal> {
        match self {
            ObjectKey::Name { name, .. } => Some(Traversal {
                root: name.to_string(),
                steps: Vec::new(),
            }),
            ObjectKey::Expression(key) => key.static_traversal(),
        }
    }

    fn literal_value(&self) -> Option<Value> {
        match self {
            ObjectKey::Name { name, .. } => Some(Value::string(name)),
            ObjectKey::Expression(key) => key.literal_value(),
        }
    }
}

/// The name of a keyword literal, `true`, `false` or `null`: the only
/// keywords that give a literal (a numeric literal is a number).
fn keyword_name(literal: &Value) -> Option<&'static str> {
    match literal {
        Value::Bool(true) => Some("true"),
        Value::Bool(false) => Some("false"),
        Value::Null(_) => Some("null"),
        _ => None,
    }
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
fn not_applicable(parsed: &Parsed<node::Expression>, analysis: Analysis) -> Diagnostic {
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
        range: Some(parsed.range(parsed.tree().span())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Range;
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

    /// The parts an analysis returns are expressions too, and a caller may
    /// analyse them again: an object constructor's key that is a tuple
    /// constructor is a static list, as is a value.
    #[test]
    fn keys_and_values_of_a_static_map_are_analysed_again() {
        let source = "{[a, b] = [c], k = f(x), g(y) = 1, {p = q} = 2}";
        let parsed = crate::native::parse_expression(source).unwrap();
        let tree = parsed.tree();
        let pairs = tree.static_map().expect("a static map");
        let text = |e: &dyn StaticExpression| source[e.span().range()].to_string();
        let key = pairs[0].0.static_list().expect("the key is a static list");
        let key: Vec<String> = key.iter().map(|e| text(e.as_ref())).collect();
        assert_eq!(key, ["a", "b"]);
        let value = pairs[0]
            .1
            .static_list()
            .expect("the value is a static list");
        assert_eq!(value.len(), 1);
        assert!(pairs[1].0.static_list().is_none());
        assert!(pairs[1].0.static_map().is_none() && pairs[1].0.static_call().is_none());
        assert_eq!(pairs[1].1.static_call().expect("a call").name, "f");
        let key = pairs[2].0.static_call().expect("the key is a call");
        assert_eq!((key.name.as_str(), key.arguments.len()), ("g", 1));
        let key = pairs[3].0.static_map().expect("the key is a static map");
        assert_eq!(text(key[0].1.as_ref()), "q");
    }
}
