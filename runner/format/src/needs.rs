//! What a case needs of an implementation: its kind, and the optional
//! features (`runner/PROTOCOL.md` § Features) without which its expectation
//! cannot be checked.
//!
//! A case whose needs an implementation lacks is *unsupported*, with every
//! missing capability named; it is counted, never dropped.

use crate::kinds::{Input, Keyword, Syntax};
use crate::suite::{Case, CaseInput};
use crate::values::ExpectedValue;
use crate::wire::{Capabilities, PARSED_KINDS};
use bigdecimal::BigDecimal;
use hcl_interpreter::native::lexer::{Lexer, StartMode, TokenKind};
use hcl_interpreter::number::Number;
use hcl_interpreter::{Type, Value};
use std::str::FromStr;

/// Unknown values in requests and answers.
pub const UNKNOWN: &str = "unknown";
/// Conversion answers say whether the conversion was safe.
pub const SAFETY: &str = "safety";
/// Diagnostics carry source ranges.
pub const RANGES: &str = "ranges";
/// Exact cty types: list, set and map apart from tuple and object, typed
/// nulls, typed empty collections.
pub const EXACT_TYPES: &str = "exact-types";
/// Arbitrary-precision numbers.
pub const BIG_NUMBERS: &str = "big-numbers";
/// Only parses: `expr`, `template` and `config` requests are answered
/// `parsed: true` or with a `parse` error.
pub const PARSE_ONLY: &str = "parse-only";
/// `config` answers may hold `{"unevaluated": REASON}` attribute values.
pub const UNEVALUATED_VALUES: &str = "unevaluated-values";
/// `config` requests may carry a body schema and ask for literal-only mode.
pub const SCHEMA: &str = "schema";
/// Namespaced function calls, `core::upper("a")`, parsed and evaluated as
/// hashicorp/hcl v2.20.1 and later do.
pub const NAMESPACED_FUNCTIONS: &str = "namespaced-functions";

/// Whether an implementation with `capabilities` grades the case by
/// parsing only.
pub fn parse_only(case: &Case, capabilities: &Capabilities) -> bool {
    capabilities.features.contains(PARSE_ONLY) && PARSED_KINDS.contains(&case.input.kind())
}

/// Everything the case needs that the implementation lacks, each named as
/// a reader would look for it: `kind convert`, `exact-types`, `dynblock`...
/// Empty when the implementation can run the case.
pub fn missing_capabilities(
    case: &Case,
    profile: &str,
    capabilities: &Capabilities,
) -> Vec<String> {
    let mut missing = Vec::new();
    let kind = case.input.kind().name();
    if !capabilities.kinds.contains(kind) {
        missing.push(format!("kind {kind}"));
    }
    // An implementation that declares its syntaxes reads only those.
    if let (Some(syntax), Some(declared)) = (case_syntax(&case.input), &capabilities.syntaxes) {
        let name: &str = syntax.into();
        if !declared.contains(name) {
            missing.push(format!("syntax {name}"));
        }
    }
    // A parse-only implementation is asked only whether the source parses:
    // values, and with them every value feature, play no part. Syntax the
    // specification does not have still needs its feature: a parser of the
    // v2.14.1 language is not failed for rejecting a namespaced call.
    if parse_only(case, capabilities) {
        if source_has_namespace_separator(&case.input)
            && !capabilities.features.contains(NAMESPACED_FUNCTIONS)
        {
            missing.push(NAMESPACED_FUNCTIONS.to_string());
        }
        return missing;
    }
    let features = case_features(case, profile);
    missing.extend(
        features
            .into_iter()
            .filter(|f| !capabilities.features.contains(f)),
    );
    missing
}

/// The syntax of the case's source text, which an implementation must
/// read (`syntaxes` in its `hello` answer): native for `expr` and
/// `template`, the request's `syntax` for `config`, `static` and
/// `typeexpr`; none for the kinds without source text.
pub fn case_syntax(input: &CaseInput) -> Option<Syntax> {
    match input {
        Input::Expr(_) | Input::Template(_) => Some(Syntax::Native),
        Input::Config(c) => Some(*c.syntax),
        Input::Static(s) => Some(*s.syntax),
        Input::TypeExpr(t) => Some(*t.syntax),
        _ => None,
    }
}

/// The features the case needs to be checked fully: `unknown`,
/// `exact-types`, `big-numbers`, `namespaced-functions`, `schema` in that
/// order, then the extensions it asks for (each extension is a feature of
/// the same name).
pub fn case_features(case: &Case, profile: &str) -> Vec<String> {
    let expected = case.expectation_for(profile).values();
    let expected_values: Vec<&ExpectedValue> = expected.iter().flat_map(|(_, v)| v.all()).collect();
    let values: Vec<&Value> = input_values(&case.input)
        .into_iter()
        .flat_map(all_values)
        .collect();
    let mut needs = Vec::new();
    if values.iter().any(|v| matches!(v, Value::Unknown(_)))
        || expected_values
            .iter()
            .any(|v| **v == ExpectedValue::Unknown)
    {
        needs.push(UNKNOWN.to_string());
    }
    let about_types = matches!(
        case.input,
        Input::Convert(_)
            | Input::Unify(_)
            | Input::Identical(_)
            | Input::Matches(_)
            | Input::TypeExpr(_)
    );
    if about_types
        || values.iter().any(|v| value_needs_exact_types(v))
        || expected
            .iter()
            .any(|(ty, v)| expected_needs_exact_types(ty, v))
    {
        needs.push(EXACT_TYPES.to_string());
    }
    let big_expected = expected_values.iter().any(|v| match v {
        ExpectedValue::Number(n) | ExpectedValue::Approx { value: n, .. } => is_big(n),
        _ => false,
    });
    let big_value = values
        .iter()
        .any(|v| matches!(v, Value::Number(n) if is_big(n)));
    if big_value || big_expected || source_has_big_literal(&case.input) {
        needs.push(BIG_NUMBERS.to_string());
    }
    if source_has_namespace_separator(&case.input) {
        needs.push(NAMESPACED_FUNCTIONS.to_string());
    }
    match &case.input {
        Input::Config(c) => {
            // Body schemas and literal-only mode: feature `schema`.
            if c.schema.is_some() || c.literal_only {
                needs.push(SCHEMA.to_string());
            }
            needs.extend(c.extensions.iter().map(|e| e.0.clone()));
        }
        Input::Expr(e) => needs.extend(e.extensions.iter().map(|e| e.0.clone())),
        _ => {}
    }
    needs
}

/// The values a case's input carries: a conversion's value, operands,
/// variables.
fn input_values(input: &CaseInput) -> Vec<&Value> {
    match input {
        Input::Convert(c) => vec![&c.value],
        Input::Operation(o) => o.operands.iter().map(|v| &**v).collect(),
        Input::Expr(e) => e.variables.values().map(|v| &**v).collect(),
        Input::Template(t) => t.variables.values().map(|v| &**v).collect(),
        Input::Config(c) => c.variables.values().map(|v| &**v).collect(),
        _ => Vec::new(),
    }
}

/// A value and every value it holds.
fn all_values(v: &Value) -> Vec<&Value> {
    let mut all = Vec::new();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        all.push(v);
        stack.extend(v.children());
    }
    all
}

/// Whether a type is or holds a list, set or map type.
fn has_collection_type(ty: &Type) -> bool {
    let mut stack = vec![ty];
    while let Some(ty) = stack.pop() {
        match ty {
            Type::List(_) | Type::Set(_) | Type::Map(_) => return true,
            Type::Object(attributes) => stack.extend(attributes.values()),
            Type::Tuple(elements) => stack.extend(elements),
            _ => {}
        }
    }
    false
}

/// Whether a value is a collection, or a null of a type other than the
/// dynamic pseudo-type, or an unknown whose type holds a collection type.
fn value_needs_exact_types(v: &Value) -> bool {
    match v {
        Value::List(..) | Value::Set(..) | Value::Map(..) => true,
        Value::Null(ty) => *ty != Type::Dynamic,
        Value::Unknown(ty) => has_collection_type(ty),
        _ => false,
    }
}

/// Whether an expected value of `ty` is or holds a collection or a typed
/// null.
fn expected_needs_exact_types(ty: &Type, v: &ExpectedValue) -> bool {
    if has_collection_type(ty) {
        return true;
    }
    let mut stack = vec![(ty, v)];
    while let Some((ty, v)) = stack.pop() {
        match (ty, v) {
            (Type::Dynamic, _) => {}
            (_, ExpectedValue::Null) => return true,
            (Type::Object(types), ExpectedValue::Mapping(entries)) => {
                stack.extend(entries.iter().filter_map(|(k, v)| Some((types.get(k)?, v))));
            }
            (Type::Tuple(types), ExpectedValue::Sequence(items)) => {
                stack.extend(types.iter().zip(items));
            }
            _ => {}
        }
    }
    false
}

/// Whether a number needs arbitrary precision: it is neither an integer
/// that fits an `i64` or a `u64` nor exactly a finite `f64`.
pub fn is_big(n: &Number) -> bool {
    if n.is_infinite() {
        return true;
    }
    let text = n.to_decimal_string();
    if n.is_integer() && (n.to_i64().is_some() || text.parse::<u64>().is_ok()) {
        return false;
    }
    // The nearest double, which is the number itself when it is one.
    let double: f64 = text.parse().unwrap_or(f64::INFINITY);
    let exact = BigDecimal::from_str(&text).ok();
    !(double.is_finite() && BigDecimal::try_from(double).ok() == exact)
}

/// Whether the source text of an `expr`, `template` or `config` case holds
/// a number literal that [`is_big`], as the native syntax's lexer finds
/// them (a JSON configuration is lexed the same way: its numbers are
/// number literals there too).
fn source_has_big_literal(input: &CaseInput) -> bool {
    let (text, start) = match input {
        Input::Expr(e) => (&*e.expr, StartMode::ConfigFile),
        Input::Template(t) => (&*t.template, StartMode::TemplateFile),
        Input::Config(c) => (&*c.config, StartMode::ConfigFile),
        _ => return false,
    };
    // `1.e3` is 1000, as the parser reads it.
    // SPEC-GAP(spec-notes/gaps/lexical-number-fraction-digits.md)
    let value = |literal: &str| literal.replacen(".e", "e", 1).replacen(".E", "E", 1);
    number_literals(text, start)
        .iter()
        .any(|literal| Number::parse_decimal(&value(literal), true).map_or(true, |n| is_big(&n)))
}

/// The number literals of a source text, but those after a `.` (the legacy
/// index `a.0` is a step, not a number).
pub fn number_literals(text: &str, start: StartMode) -> Vec<&str> {
    let mut lexer = Lexer::new(text, start);
    let mut literals = Vec::new();
    let mut after_dot = false;
    loop {
        let token = lexer.next_token();
        match token.kind {
            TokenKind::Eof => return literals,
            TokenKind::NumberLit if !after_dot => {
                literals.push(&text[token.span.start as usize..token.span.end as usize])
            }
            _ => {}
        }
        after_dot = token.kind == TokenKind::Dot;
    }
}

/// Whether the source text of a case holds `::` where the syntax reads it
/// as a token: the separator of a namespaced function name, which only
/// implementations with the `namespaced-functions` feature read (no
/// production of the specification has it).
///
/// The native syntax's source (`expr`, `template`, and the native `config`,
/// `static` and `typeexpr` requests) is lexed as it is parsed, so a `::`
/// in a quoted string, a comment or a heredoc's text is not one (nor, in a
/// template, one outside `${ }` and `%{ }`). In the JSON syntax every
/// string's content is lexed as the native syntax reads it there: a
/// template in a `config` request, an expression in a `static` or
/// `typeexpr` one. A JSON text that does not parse needs the feature when
/// it holds `::` anywhere.
pub fn source_has_namespace_separator(input: &CaseInput) -> bool {
    // The text, its syntax, and the mode its native source starts in.
    let (text, syntax, start) = match input {
        Input::Expr(e) => (&*e.expr, Syntax::Native, StartMode::ConfigFile),
        Input::Template(t) => (&*t.template, Syntax::Native, StartMode::TemplateFile),
        Input::Config(c) => (&*c.config, *c.syntax, StartMode::ConfigFile),
        Input::Static(s) => (&*s.expr, *s.syntax, StartMode::ConfigFile),
        Input::TypeExpr(t) => (&*t.expr, *t.syntax, StartMode::ConfigFile),
        _ => return false,
    };
    if syntax == Syntax::Native {
        return has_double_colon(text, start);
    }
    // A JSON configuration's strings are templates; a `static` or
    // `typeexpr` request's strings hold expressions.
    let content = match input {
        Input::Config(_) => StartMode::TemplateFile,
        _ => StartMode::ConfigFile,
    };
    match hcl_interpreter::json::parse(text) {
        Ok(root) => json_strings(&root)
            .into_iter()
            .any(|string| has_double_colon(string, content)),
        Err(_) => text.contains("::"),
    }
}

/// Whether lexing `text` from `start` gives a `::` token.
fn has_double_colon(text: &str, start: StartMode) -> bool {
    let mut lexer = Lexer::new(text, start);
    loop {
        match lexer.next_token().kind {
            TokenKind::Eof => return false,
            TokenKind::DoubleColon => return true,
            _ => {}
        }
    }
}

/// The content of every string of a JSON value, property names included.
fn json_strings(root: &hcl_interpreter::json::Node) -> Vec<&str> {
    use hcl_interpreter::json::NodeKind;
    let mut strings = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match &node.kind {
            NodeKind::String(content) => strings.push(content.as_str()),
            NodeKind::Array(elements) => stack.extend(elements),
            NodeKind::Object(properties) => {
                for property in properties {
                    strings.push(property.name.as_str());
                    stack.push(&property.value);
                }
            }
            _ => {}
        }
    }
    strings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{self, Named, Schema, Text};
    use crate::suite::{Expectation, TypeText, TypedValue};
    use hcl_interpreter::operations::Operation as Op;
    use std::collections::BTreeMap;

    fn case(input: CaseInput, expect: Expectation) -> Case {
        Case {
            id: "needs/test::case".into(),
            name: "case".into(),
            description: None,
            covers: Vec::new(),
            input,
            expect,
            implementation_defined: None,
            profiles: BTreeMap::new(),
            area: "expressions",
            line: 1,
        }
    }

    fn expr(text: &str, variables: Vec<(&str, Value)>) -> CaseInput {
        Input::Expr(kinds::Expr {
            expr: text.into(),
            variables: variables
                .into_iter()
                .map(|(k, v)| (Text::from(k), TypedValue(v)))
                .collect(),
            extensions: Vec::new(),
        })
    }

    /// The native configuration `a = 1`, with no variables, extensions or
    /// schema: the fields a test changes, it names (`..plain_config()`).
    fn plain_config() -> kinds::Config<TypedValue> {
        kinds::Config {
            syntax: Named(Syntax::Native),
            config: "a = 1\n".into(),
            variables: BTreeMap::new(),
            extensions: Vec::new(),
            schema: None,
            literal_only: false,
        }
    }

    fn config(schema: Option<Schema>, literal_only: bool) -> CaseInput {
        Input::Config(kinds::Config {
            schema,
            literal_only,
            ..plain_config()
        })
    }

    fn template(text: &str, variables: BTreeMap<Text, TypedValue>) -> CaseInput {
        Input::Template(kinds::Template {
            template: text.into(),
            variables,
        })
    }

    fn number(text: &str) -> Number {
        Number::parse_decimal(text, true).unwrap()
    }

    fn value(ty: Type, value: ExpectedValue) -> Expectation {
        Expectation::Value {
            ty,
            value,
            safety: None,
            order_any: false,
        }
    }

    fn one() -> ExpectedValue {
        ExpectedValue::Number(number("1"))
    }

    /// The features `case_features` finds for a case.
    fn needs(input: CaseInput, expect: Expectation) -> Vec<String> {
        case_features(&case(input, expect), "spec")
    }

    /// Expressions and templates are native syntax; the other kinds with
    /// source text are in the syntax their request names. An
    /// implementation that declares its syntaxes lacks the others.
    #[test]
    fn each_kind_with_source_text_needs_its_syntax() {
        use hcl_interpreter::static_analysis::Analysis;
        let template = template("a", BTreeMap::new());
        let static_json = Input::Static(kinds::Static {
            syntax: Named(Syntax::Json),
            expr: "[]".into(),
            analysis: Named(Analysis::List),
        });
        let type_json = Input::TypeExpr(kinds::TypeExpr {
            syntax: Named(Syntax::Json),
            expr: "\"string\"".into(),
            constraint: false,
        });
        let declaring = |syntax: &str| Capabilities {
            kinds: ["expr", "template", "static", "typeexpr"]
                .map(String::from)
                .into(),
            features: [EXACT_TYPES.to_string()].into(),
            syntaxes: Some([syntax.to_string()].into()),
        };
        let inputs = [
            (expr("1", vec![]), Syntax::Native, "json"),
            (template, Syntax::Native, "json"),
            (static_json, Syntax::Json, "native"),
            (type_json, Syntax::Json, "native"),
        ];
        for (input, syntax, other) in inputs {
            let case = case(input, Expectation::Result(true));
            assert_eq!(case_syntax(&case.input), Some(syntax));
            let name: &str = syntax.into();
            let missing = missing_capabilities(&case, "spec", &declaring(other));
            assert_eq!(missing, [format!("syntax {name}")]);
        }
    }

    #[test]
    fn each_source_of_a_feature_needs_it_alone() {
        let list_of_one = Value::list(Type::Number, vec![Value::Number(number("1"))]).unwrap();
        let tenth = || Value::Number(number("0.1"));
        let bool_true = || value(Type::Bool, ExpectedValue::Bool(true));
        let cases = [
            (
                "an unknown variable, with a known result",
                expr("length([a])", vec![("a", Value::Unknown(Type::Number))]),
                value(Type::Number, one()),
                vec![UNKNOWN],
            ),
            (
                "a kind about types",
                Input::Unify(kinds::Unify {
                    types: vec![TypeText(Type::Number)],
                }),
                Expectation::Type(Type::Number),
                vec![EXACT_TYPES],
            ),
            (
                "a list variable",
                expr("length(a)", vec![("a", list_of_one)]),
                value(Type::Number, one()),
                vec![EXACT_TYPES],
            ),
            (
                "an expected list",
                expr("tolist([1])", vec![]),
                value(
                    Type::list(Type::Number),
                    ExpectedValue::Sequence(vec![one()]),
                ),
                vec![EXACT_TYPES],
            ),
            (
                "a big variable",
                expr("a > 0", vec![("a", tenth())]),
                bool_true(),
                vec![BIG_NUMBERS],
            ),
            (
                "a big expected number",
                expr("a / 10", vec![("a", Value::Number(number("1")))]),
                value(Type::Number, ExpectedValue::Number(number("0.1"))),
                vec![BIG_NUMBERS],
            ),
            (
                "a big literal",
                expr("0.1 > 0", vec![]),
                bool_true(),
                vec![BIG_NUMBERS],
            ),
            (
                "a body schema",
                config(Some(Schema::Mode("attributes".into())), false),
                Expectation::Body(Default::default()),
                vec![SCHEMA],
            ),
            (
                "literal-only mode",
                config(None, true),
                Expectation::Body(Default::default()),
                vec![SCHEMA],
            ),
            (
                "an extension an expression asks for",
                match expr("convert(1, string)", vec![]) {
                    Input::Expr(e) => Input::Expr(kinds::Expr {
                        extensions: vec![Text::from("typeexpr")],
                        ..e
                    }),
                    _ => unreachable!(),
                },
                value(Type::String, ExpectedValue::String("1".into())),
                vec!["typeexpr"],
            ),
            (
                "an extension a configuration asks for",
                Input::Config(kinds::Config {
                    extensions: vec![Text::from("dynblock")],
                    ..plain_config()
                }),
                Expectation::Body(Default::default()),
                vec!["dynblock"],
            ),
        ];
        // Every kind's values count: operands, template and configuration
        // variables.
        let two_tenths = || vec![TypedValue(tenth()), TypedValue(tenth())];
        let variable = || BTreeMap::from([(Text::from("a"), TypedValue(tenth()))]);
        let carrying_values = [
            (
                "a big operand",
                Input::Operation(kinds::Operation {
                    op: Named(Op::Equal),
                    operands: two_tenths(),
                }),
                bool_true(),
            ),
            (
                "a big template variable",
                template("${a}", variable()),
                value(Type::String, ExpectedValue::String("0.1".into())),
            ),
            (
                "a big configuration variable",
                Input::Config(kinds::Config {
                    variables: variable(),
                    ..plain_config()
                }),
                Expectation::Body(Default::default()),
            ),
        ];
        let cases = cases.into_iter().chain(
            carrying_values
                .into_iter()
                .map(|(what, input, expect)| (what, input, expect, vec![BIG_NUMBERS])),
        );
        for (what, input, expect, expected) in cases {
            assert_eq!(needs(input, expect), expected, "{what}");
        }
    }

    /// A parse-only implementation needs no value feature, but a namespaced
    /// name is syntax: parsing it is the feature.
    #[test]
    fn a_parse_only_implementation_still_needs_namespaced_functions() {
        let parser = |features: &[&str]| Capabilities {
            kinds: ["expr"].map(String::from).into(),
            features: features.iter().map(|f| f.to_string()).collect(),
            syntaxes: None,
        };
        let expect = Expectation::Error {
            phase: hcl_interpreter::Phase::Parse,
            range: None,
        };
        let namespaced = case(expr("core::upper(x)", vec![]), expect.clone());
        let plain = case(expr("upper(x) + 1e400", vec![]), expect);
        assert_eq!(
            missing_capabilities(&namespaced, "spec", &parser(&[PARSE_ONLY])),
            [NAMESPACED_FUNCTIONS]
        );
        let both = parser(&[PARSE_ONLY, NAMESPACED_FUNCTIONS]);
        assert!(missing_capabilities(&namespaced, "spec", &both).is_empty());
        assert!(missing_capabilities(&plain, "spec", &parser(&[PARSE_ONLY])).is_empty());
    }

    /// A `::` needs `namespaced-functions` where the syntax reads it as a
    /// token, in every kind with source text; in text, comments and
    /// strings it does not.
    #[test]
    fn a_namespace_separator_in_source_needs_namespaced_functions() {
        use hcl_interpreter::static_analysis::Analysis;
        let config = |syntax, text: &str| {
            Input::Config(kinds::Config {
                syntax: Named(syntax),
                config: text.into(),
                ..plain_config()
            })
        };
        let analysed = |syntax, text: &str| {
            Input::Static(kinds::Static {
                syntax: Named(syntax),
                expr: text.into(),
                analysis: Named(Analysis::Call),
            })
        };
        let type_expression = |syntax, text: &str| {
            Input::TypeExpr(kinds::TypeExpr {
                syntax: Named(syntax),
                expr: text.into(),
                constraint: false,
            })
        };
        let (native, json) = (Syntax::Native, Syntax::Json);
        let needing = [
            expr("core::upper(\"a\")", vec![]),
            expr("a :: b", vec![]),
            expr("[\"::\", a::]", vec![]),
            template("${core::upper(\"a\")}", BTreeMap::new()),
            template("%{ if a::b() }%{ endif }", BTreeMap::new()),
            config(native, "a = core::upper(\"a\")\n"),
            config(native, "a = <<EOT\n${x::y()}\nEOT\n"),
            config(json, r#"{"a": "${core::upper(\"a\")}"}"#),
            config(json, r#"{"a": [{"${a::b()}": 1}]}"#),
            config(json, r#"{"a": "${a::b()}""#),
            analysed(native, "core::upper(x)"),
            analysed(json, r#""core::upper(x)""#),
            type_expression(native, "core::list(string)"),
            type_expression(json, r#""core::string""#),
        ];
        let not_needing = [
            expr("\"core::upper\"", vec![]),
            expr("a # ::\n", vec![]),
            expr("a /* :: */", vec![]),
            expr("<<EOT\na::b()\nEOT\n", vec![]),
            expr("a ? b : :c", vec![]),
            template("core::upper(a)", BTreeMap::new()),
            config(native, "a = \"x::y\"\n# ::\n"),
            config(json, r#"{"a": "core::upper(x)", "b": "::"}"#),
            analysed(json, r#""\"a::b\"""#),
            type_expression(json, r#"{"a": "string"}"#),
        ];
        // (A type expression needs `exact-types` too.)
        let needs_it = |input: CaseInput| {
            let expect = value(Type::Bool, ExpectedValue::Bool(true));
            needs(input, expect).contains(&NAMESPACED_FUNCTIONS.to_string())
        };
        for input in needing {
            let what = format!("{input:?}");
            assert!(needs_it(input), "{what}");
        }
        for input in not_needing {
            let what = format!("{input:?}");
            assert!(!needs_it(input), "{what}");
        }
        assert_eq!(
            needs(
                expr("core::upper(\"a\")", vec![]),
                value(Type::Bool, ExpectedValue::Bool(true))
            ),
            [NAMESPACED_FUNCTIONS]
        );
    }

    #[test]
    fn a_conversions_value_is_among_the_values_the_case_carries() {
        // A big number converted to a string: the result is no number.
        let convert = Input::Convert(kinds::Convert {
            value: TypedValue(Value::Number(number("0.1"))),
            to: TypeText(Type::String),
        });
        let string = value(Type::String, ExpectedValue::String("0.1".into()));
        assert_eq!(needs(convert, string), vec![EXACT_TYPES, BIG_NUMBERS]);
    }

    #[test]
    fn a_collection_type_inside_an_object_type_needs_exact_types() {
        let object = |inner: Type| Type::Object(BTreeMap::from([("a".into(), inner)]));
        let expected = |inner: Type, element: ExpectedValue| {
            value(
                object(inner),
                ExpectedValue::Mapping(BTreeMap::from([("a".into(), element)])),
            )
        };
        let list = Type::list(Type::Number);
        assert_eq!(
            needs(
                expr("{a = tolist([1])}", vec![]),
                expected(list, ExpectedValue::Sequence(vec![one()]))
            ),
            vec![EXACT_TYPES]
        );
        // An unknown variable of that type too.
        let unknown = Value::Unknown(object(Type::list(Type::Number)));
        assert_eq!(
            needs(
                expr("length(a.a) > 0", vec![("a", unknown)]),
                value(Type::Bool, ExpectedValue::Unknown)
            ),
            vec![UNKNOWN, EXACT_TYPES]
        );
        // And one whose type holds a list inside a tuple.
        let unknown = Value::Unknown(Type::Tuple(vec![Type::list(Type::Number)]));
        assert_eq!(
            needs(
                expr("length(a[0]) > 0", vec![("a", unknown)]),
                value(Type::Bool, ExpectedValue::Unknown)
            ),
            vec![UNKNOWN, EXACT_TYPES]
        );
        // A tuple in an object is no collection.
        let tuple = Type::Tuple(vec![Type::Number]);
        assert_eq!(
            needs(
                expr("{a = [1]}", vec![]),
                expected(tuple, ExpectedValue::Sequence(vec![one()]))
            ),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_typed_null_needs_exact_types_and_an_untyped_one_does_not() {
        let typed = value(Type::String, ExpectedValue::Null);
        assert_eq!(
            needs(expr("tostring(null)", vec![]), typed),
            vec![EXACT_TYPES]
        );
        let untyped = value(Type::Dynamic, ExpectedValue::Null);
        assert_eq!(needs(expr("null", vec![]), untyped), Vec::<String>::new());
        // A null variable, likewise.
        let is_null = || value(Type::Bool, ExpectedValue::Bool(true));
        let variable = |ty| vec![("a", Value::Null(ty))];
        assert_eq!(
            needs(expr("a == null", variable(Type::String)), is_null()),
            vec![EXACT_TYPES]
        );
        assert_eq!(
            needs(expr("a == null", variable(Type::Dynamic)), is_null()),
            Vec::<String>::new()
        );
        // A typed null inside an object or a tuple, likewise.
        let in_object = value(
            Type::Object(BTreeMap::from([("a".into(), Type::String)])),
            ExpectedValue::Mapping(BTreeMap::from([("a".into(), ExpectedValue::Null)])),
        );
        let in_tuple = value(
            Type::Tuple(vec![Type::String]),
            ExpectedValue::Sequence(vec![ExpectedValue::Null]),
        );
        for (source, expected) in [
            ("{a = tostring(null)}", in_object),
            ("[tostring(null)]", in_tuple),
        ] {
            assert_eq!(
                needs(expr(source, vec![]), expected),
                vec![EXACT_TYPES],
                "{source}"
            );
        }
    }

    /// Integers that fit 64 bits and numbers that are exactly a double are
    /// not big; every other number is.
    #[test]
    fn a_number_is_big_unless_a_64_bit_integer_or_exactly_a_double() {
        for small in ["-9007199254740993", "18446744073709551615", "0.5", "1e22"] {
            assert!(!is_big(&number(small)), "{small}");
        }
        for big in [
            "18446744073709551617",
            "0.1",
            "-9223372036854775809",
            "1e300",
        ] {
            assert!(is_big(&number(big)), "{big}");
        }
    }

    /// The literals of every kind with source text count, but not a legacy
    /// index's step (`a.5`), which is no number.
    #[test]
    fn big_literals_are_found_in_templates_and_configurations_and_not_after_a_dot() {
        assert_eq!(
            number_literals("a.5 + 0.25", StartMode::ConfigFile),
            ["0.25"]
        );
        let template = template("${0.1}", BTreeMap::new());
        let config = Input::Config(kinds::Config {
            config: "a = 0.1\n".into(),
            ..plain_config()
        });
        for input in [template, config] {
            assert!(source_has_big_literal(&input), "{input:?}");
        }
    }
}
