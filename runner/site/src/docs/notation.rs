//! Types, values, inputs and expectations written as a reader of HCL
//! writes them: values in HCL notation (`["a", 1]`, `{ name = "web" }`),
//! types in type syntax, bodies as configuration text. One rendering, as
//! styled text, that the site turns into HTML and `show` into plain text.
//!
//! Spec: hclsyntax-spec.md § Expressions (the notation of values);
//! ext-typeexpr-README.md § Type Expression Syntax (the notation of types).

use hcl_conformance_format::kinds::{Body, Input, StaticShape};
use hcl_conformance_format::suite::{CaseInput, Expectation, Expected};
use hcl_conformance_format::values::ExpectedValue;
use hcl_conformance_format::wire::{Attribute, Outcome};
use hcl_interpreter::native::lexer::{is_id_continue, is_id_start};
use hcl_interpreter::{Type, Value};
use std::collections::BTreeMap;

/// The style of a run of text: a CSS class on the site, nothing in a
/// terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Plain,
    /// A string.
    Str,
    /// A number.
    Num,
    /// `true`, `false`, `null`.
    Keyword,
    /// An unknown value, an approximate number's mark.
    Unknown,
    /// A type.
    Type,
    /// A comment, a note beside a value.
    Comment,
    /// A name: an attribute, a variable, a block type.
    Name,
}

impl Style {
    /// The CSS class of the style (`style.css`).
    pub fn class(self) -> &'static str {
        match self {
            Style::Plain => "",
            Style::Str => "s",
            Style::Num => "n",
            Style::Keyword => "k",
            Style::Unknown => "u",
            Style::Type => "t",
            Style::Comment => "c",
            Style::Name => "a",
        }
    }
}

/// Styled text: runs of text, each with its style.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Styled(pub Vec<(Style, String)>);

impl Styled {
    pub fn plain(text: impl Into<String>) -> Styled {
        Styled(vec![(Style::Plain, text.into())])
    }

    pub fn push(&mut self, style: Style, text: impl Into<String>) {
        let text = text.into();
        match self.0.last_mut() {
            Some((last, run)) if *last == style => run.push_str(&text),
            _ => self.0.push((style, text)),
        }
    }

    pub fn append(&mut self, other: Styled) {
        for (style, text) in other.0 {
            self.push(style, text);
        }
    }

    /// The text without styles.
    pub fn text(&self) -> String {
        self.0.iter().map(|(_, t)| t.as_str()).collect()
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|(_, t)| t.chars().count()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|(_, t)| t.is_empty())
    }
}

/// Values longer than this on one line are written one element a line.
const LINE: usize = 72;

/// A string literal in HCL notation: quoted, with the escapes of a quoted
/// template (hclsyntax-spec.md § Template Literals), `${` and `%{` doubled.
pub fn string_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() || c == '\u{feff}' => {
                let code = c as u32;
                if code > 0xffff {
                    out.push_str(&format!("\\U{code:08X}"));
                } else {
                    out.push_str(&format!("\\u{code:04X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An object key or attribute name: bare when it is an identifier that is
/// no keyword, else quoted.
pub fn key(name: &str) -> String {
    let mut chars = name.chars();
    let identifier = chars.next().is_some_and(is_id_start) && chars.all(is_id_continue);
    if identifier && !matches!(name, "true" | "false" | "null") {
        name.to_string()
    } else {
        string_literal(name)
    }
}

/// A type, in type syntax.
pub fn ty(t: &Type) -> Styled {
    Styled(vec![(Style::Type, t.to_string())])
}

/// A value written by its expectation, in HCL notation; `ty` decides how a
/// sequence or mapping is bracketed and an element's type.
pub fn value(v: &ExpectedValue, t: &Type) -> Styled {
    let mut out = Styled::default();
    write_value(&mut out, v, t, 0);
    out
}

/// A value of the interpreter, in HCL notation.
pub fn actual_value(v: &Value) -> Styled {
    value(&ExpectedValue::from(v), &v.ty())
}

fn element_type(t: &Type, index: usize, key: Option<&str>) -> Type {
    match t {
        Type::List(e) | Type::Set(e) | Type::Map(e) => (**e).clone(),
        Type::Tuple(types) => types.get(index).cloned().unwrap_or(Type::Dynamic),
        Type::Object(attributes) => key
            .and_then(|k| attributes.get(k))
            .cloned()
            .unwrap_or(Type::Dynamic),
        _ => Type::Dynamic,
    }
}

fn write_value(out: &mut Styled, v: &ExpectedValue, t: &Type, indent: usize) {
    match v {
        ExpectedValue::Null => out.push(Style::Keyword, "null"),
        ExpectedValue::Unknown => out.push(Style::Unknown, "(unknown)"),
        ExpectedValue::String(s) => out.push(Style::Str, string_literal(s)),
        ExpectedValue::Number(n) => out.push(Style::Num, n.to_string()),
        ExpectedValue::Approx { text, .. } => {
            out.push(Style::Unknown, "≈");
            out.push(Style::Num, text.clone());
        }
        ExpectedValue::Bool(b) => out.push(Style::Keyword, b.to_string()),
        ExpectedValue::Sequence(items) => {
            let items: Vec<Styled> = items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    let mut s = Styled::default();
                    write_value(&mut s, item, &element_type(t, i, None), indent + 1);
                    s
                })
                .collect();
            bracket(out, "[", "]", items, indent);
        }
        ExpectedValue::Mapping(entries) => {
            let items: Vec<Styled> = entries
                .iter()
                .map(|(k, item)| {
                    let mut s = Styled::default();
                    s.push(Style::Name, key(k));
                    s.push(Style::Plain, " = ");
                    write_value(&mut s, item, &element_type(t, 0, Some(k)), indent + 1);
                    s
                })
                .collect();
            bracket(out, "{", "}", items, indent);
        }
    }
}

/// `[a, b]` on one line when it fits, else one item a line.
fn bracket(out: &mut Styled, open: &str, close: &str, items: Vec<Styled>, indent: usize) {
    if items.is_empty() {
        out.push(Style::Plain, format!("{open}{close}"));
        return;
    }
    let one_line = items.iter().map(|i| i.len() + 2).sum::<usize>() + indent * 2 <= LINE
        && items.iter().all(|i| !i.text().contains('\n'));
    let padded = open == "{";
    if one_line {
        out.push(Style::Plain, if padded { "{ " } else { open });
        for (n, item) in items.into_iter().enumerate() {
            if n > 0 {
                out.push(Style::Plain, ", ");
            }
            out.append(item);
        }
        out.push(Style::Plain, if padded { " }" } else { close });
        return;
    }
    let inner = "  ".repeat(indent + 1);
    out.push(Style::Plain, format!("{open}\n"));
    for item in items {
        out.push(Style::Plain, inner.clone());
        out.append(item);
        out.push(Style::Plain, if padded { "\n" } else { ",\n" });
    }
    out.push(Style::Plain, format!("{}{close}", "  ".repeat(indent)));
}

/// A value with its type: `VALUE  (TYPE)`.
pub fn typed(v: &ExpectedValue, t: &Type) -> Styled {
    let mut out = value(v, t);
    out.push(Style::Plain, "  ");
    out.push(Style::Comment, "# ");
    out.append(ty(t));
    out
}

/// The symbol of an operation, as the native syntax writes it.
pub fn operator(name: &str) -> &'static str {
    match name {
        "equal" => "==",
        "not-equal" => "!=",
        "add" => "+",
        "subtract" | "negate" => "-",
        "multiply" => "*",
        "divide" => "/",
        "modulo" => "%",
        "less" => "<",
        "less-or-equal" => "<=",
        "greater" => ">",
        "greater-or-equal" => ">=",
        "and" => "&&",
        "or" => "||",
        "not" => "!",
        _ => "?",
    }
}

/// Which syntax a source text is read in, for highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// A native-syntax expression (config file mode).
    Expression,
    /// A standalone template (template file mode).
    Template,
    /// A native-syntax configuration file (config file mode).
    Config,
    /// JSON text.
    Json,
}

/// One row of a case's description: a label, and what it shows.
#[derive(Clone, Debug)]
pub enum Cell {
    Text(Styled),
    /// Source text, shown as such (highlighted on the site).
    Source(String, SourceKind),
}

pub type Rows = Vec<(String, Cell)>;

fn row(rows: &mut Rows, label: &str, text: Styled) {
    rows.push((label.to_string(), Cell::Text(text)));
}

fn variables(
    rows: &mut Rows,
    vars: &BTreeMap<hcl_conformance_format::kinds::Text, hcl_conformance_format::suite::TypedValue>,
) {
    for (name, v) in vars {
        let mut s = Styled::default();
        s.push(Style::Name, name.0.clone());
        s.push(Style::Plain, " = ");
        s.append(typed(&ExpectedValue::from(&v.0), &v.0.ty()));
        row(rows, "variable", s);
    }
}

/// The source text of an input and how it is read, if it has one.
pub fn source_of(input: &CaseInput) -> Option<(&str, SourceKind)> {
    let json = |syntax: &hcl_conformance_format::kinds::Named<
        hcl_conformance_format::kinds::Syntax,
    >| syntax.0 == hcl_conformance_format::kinds::Syntax::Json;
    match input {
        Input::Expr(e) => Some((&e.expr, SourceKind::Expression)),
        Input::Template(t) => Some((&t.template, SourceKind::Template)),
        Input::Config(c) if json(&c.syntax) => Some((&c.config, SourceKind::Json)),
        Input::Config(c) => Some((&c.config, SourceKind::Config)),
        Input::Static(s) if json(&s.syntax) => Some((&s.expr, SourceKind::Json)),
        Input::Static(s) => Some((&s.expr, SourceKind::Expression)),
        Input::TypeExpr(t) if json(&t.syntax) => Some((&t.expr, SourceKind::Json)),
        Input::TypeExpr(t) => Some((&t.expr, SourceKind::Expression)),
        _ => None,
    }
}

/// A case's input, as rows: its source text (first, when it has one),
/// its values with their types, its options.
pub fn input(input: &CaseInput) -> Rows {
    let mut rows = Rows::new();
    match input {
        Input::Convert(_) | Input::Unify(_) | Input::Identical(_) | Input::Matches(_) => {
            type_rows(input, &mut rows)
        }
        Input::Operation(_) => operation_rows(input, &mut rows),
        Input::Expr(_)
        | Input::Template(_)
        | Input::Config(_)
        | Input::Static(_)
        | Input::TypeExpr(_) => source_rows(input, &mut rows),
    }
    rows
}

/// The rows of an input about types: a conversion, a unification, two
/// types compared, a type matched against a type specification.
fn type_rows(input: &CaseInput, rows: &mut Rows) {
    match input {
        Input::Convert(c) => {
            row(
                rows,
                "value",
                typed(&ExpectedValue::from(&c.value.0), &c.value.0.ty()),
            );
            row(rows, "convert to", ty(&c.to.0));
        }
        Input::Unify(u) => {
            let mut s = Styled::default();
            for (i, t) in u.types.iter().enumerate() {
                if i > 0 {
                    s.push(Style::Plain, ", ");
                }
                s.append(ty(&t.0));
            }
            row(rows, "unify", s);
        }
        Input::Identical(i) => {
            let mut s = ty(&i.types[0].0);
            s.push(Style::Plain, " and ");
            s.append(ty(&i.types[1].0));
            row(rows, "are identical?", s);
        }
        Input::Matches(m) => {
            row(rows, "type", ty(&m.ty.0));
            row(rows, "matches the spec?", ty(&m.spec.0));
        }
        _ => {}
    }
}

/// The rows of an operation: its shape and name, then each operand.
fn operation_rows(input: &CaseInput, rows: &mut Rows) {
    let Input::Operation(o) = input else {
        return;
    };
    let name = o.op.name();
    let symbol = operator(name);
    let shape = match o.operands.len() {
        1 => format!("{symbol}a"),
        _ => format!("a {symbol} b"),
    };
    row(
        rows,
        "operation",
        Styled(vec![
            (Style::Plain, format!("{shape}  ")),
            (Style::Comment, format!("# {name}")),
        ]),
    );
    for (operand, v) in ["a", "b"].iter().zip(&o.operands) {
        let mut s = Styled::default();
        s.push(Style::Name, *operand);
        s.push(Style::Plain, " = ");
        s.append(typed(&ExpectedValue::from(&v.0), &v.0.ty()));
        row(rows, "operand", s);
    }
}

/// The rows of an input with source text: the text, then its variables
/// and options.
fn source_rows(input: &CaseInput, rows: &mut Rows) {
    let source = |rows: &mut Rows, label: &str| {
        if let Some((text, kind)) = source_of(input) {
            rows.push((label.to_string(), Cell::Source(text.to_string(), kind)));
        }
    };
    let words = |items: &[hcl_conformance_format::kinds::Text]| {
        items
            .iter()
            .map(|t| t.0.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match input {
        Input::Expr(e) => {
            source(rows, "expression");
            variables(rows, &e.variables);
            if !e.extensions.is_empty() {
                row(rows, "extensions", Styled::plain(words(&e.extensions)));
            }
        }
        Input::Template(t) => {
            source(rows, "template");
            variables(rows, &t.variables);
        }
        Input::Config(c) => {
            let label = match c.syntax.0 {
                hcl_conformance_format::kinds::Syntax::Json => "JSON configuration",
                hcl_conformance_format::kinds::Syntax::Native => "configuration",
            };
            source(rows, label);
            variables(rows, &c.variables);
            if let Some(schema) = &c.schema {
                row(rows, "schema", schema_text(schema));
            }
            if c.literal_only {
                row(rows, "mode", Styled::plain("literal-only"));
            }
            if !c.extensions.is_empty() {
                row(rows, "extensions", Styled::plain(words(&c.extensions)));
            }
        }
        Input::Static(s) => {
            source(rows, "expression");
            row(rows, "static analysis", Styled::plain(s.analysis.name()));
        }
        Input::TypeExpr(t) => {
            source(rows, "type expression");
            let read = if t.constraint {
                "a type constraint (any allowed)"
            } else {
                "an exact type"
            };
            row(rows, "read as", Styled::plain(read));
        }
        _ => {}
    }
}

/// A body schema, as the case file writes it (YAML flow style).
fn schema_text(schema: &hcl_conformance_format::kinds::Schema) -> Styled {
    let json = serde_json::to_value(schema).unwrap_or_default();
    let yaml = serde_norway::to_string(&json).unwrap_or_default();
    Styled::plain(yaml.trim_end().to_string())
}

/// An expected body, as configuration text with each attribute's type in
/// a comment.
fn body<A>(out: &mut Styled, b: &Body<A>, attribute: &dyn Fn(&A) -> Styled, indent: usize) {
    let pad = "  ".repeat(indent);
    for (name, a) in &b.attributes {
        out.push(Style::Plain, pad.clone());
        out.push(Style::Name, key(name));
        out.push(Style::Plain, " = ");
        out.append(attribute(a));
        out.push(Style::Plain, "\n");
    }
    for block in &b.blocks {
        out.push(Style::Plain, pad.clone());
        out.push(Style::Name, block.type_name.0.clone());
        for label in &block.labels {
            out.push(Style::Plain, " ");
            out.push(Style::Str, string_literal(label));
        }
        out.push(Style::Plain, " {\n");
        body(out, &block.body, attribute, indent + 1);
        out.push(Style::Plain, format!("{pad}}}\n"));
    }
    if let Some(remain) = &b.remain {
        out.push(Style::Comment, format!("{pad}# the remaining body:\n"));
        body(out, remain, attribute, indent + 1);
    }
}

fn body_text<A>(b: &Body<A>, attribute: &dyn Fn(&A) -> Styled) -> Styled {
    let mut out = Styled::default();
    body(&mut out, b, attribute, 0);
    if out.is_empty() {
        out.push(Style::Comment, "# an empty body");
    }
    let mut runs = out.0;
    if let Some((_, last)) = runs.last_mut() {
        if last.ends_with('\n') {
            last.pop();
        }
    }
    Styled(runs)
}

fn static_shape(shape: &StaticShape) -> (String, Styled) {
    let code = |t: &hcl_conformance_format::kinds::Text| Styled(vec![(Style::Plain, t.0.clone())]);
    let join = |items: Vec<Styled>, separator: &str| {
        let mut s = Styled::default();
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                s.push(Style::Comment, separator);
            }
            s.append(item);
        }
        s
    };
    match shape {
        StaticShape::List(items) => (
            "list of expressions".into(),
            join(items.iter().map(code).collect(), "  ·  "),
        ),
        StaticShape::Map(pairs) => (
            "key/value pairs".into(),
            join(
                pairs
                    .iter()
                    .map(|p| {
                        let mut s = code(&p.key);
                        s.push(Style::Comment, " ⇒ ");
                        s.append(code(&p.value));
                        s
                    })
                    .collect(),
                "  ·  ",
            ),
        ),
        StaticShape::Call(call) => {
            let mut s = Styled::default();
            s.push(Style::Name, call.name.0.clone());
            s.push(Style::Comment, " with arguments ");
            s.append(join(call.arguments.iter().map(code).collect(), "  ·  "));
            ("function call".into(), s)
        }
        StaticShape::Traversal(steps) => (
            "traversal".into(),
            join(steps.iter().map(code).collect(), " "),
        ),
    }
}

/// An expectation, as rows: `value`, `type`, `error`...
pub fn expectation(expect: &Expectation) -> Rows {
    let mut rows = Rows::new();
    match expect {
        Expectation::Value {
            ty: t,
            value: v,
            safety,
            order_any,
        } => {
            row(&mut rows, "value", value(v, t));
            row(&mut rows, "type", ty(t));
            if let Some(safety) = safety {
                row(&mut rows, "conversion", Styled::plain(safety.name()));
            }
            if *order_any {
                row(
                    &mut rows,
                    "order",
                    Styled::plain("any (the elements in any order)"),
                );
            }
        }
        Expectation::Type(t) => row(&mut rows, "type", ty(t)),
        Expectation::Body(b) => {
            let attribute = |e: &Expected| typed(&e.value, &e.ty);
            row(&mut rows, "body", body_text(b, &attribute));
        }
        Expectation::Static(shape) => {
            let (label, s) = static_shape(shape);
            row(&mut rows, &label, s);
        }
        Expectation::Result(b) => row(
            &mut rows,
            "answer",
            Styled(vec![(Style::Keyword, if *b { "yes" } else { "no" }.into())]),
        ),
        Expectation::Error { phase, range } => row(
            &mut rows,
            "error",
            error_text(phase.name(), range.as_deref()),
        ),
        Expectation::OneOf(options) => {
            for (i, option) in options.iter().enumerate() {
                let label = if i == 0 { "either" } else { "or" };
                let inner = expectation(option);
                let mut s = Styled::default();
                for (j, (l, cell)) in inner.into_iter().enumerate() {
                    if j > 0 {
                        s.push(Style::Plain, "\n");
                    }
                    s.push(Style::Comment, format!("{l}: "));
                    if let Cell::Text(t) = cell {
                        s.append(t);
                    }
                }
                row(&mut rows, label, s);
            }
        }
    }
    rows
}

fn error_text(phase: &str, range: Option<&str>) -> Styled {
    let mut s = Styled::default();
    s.push(Style::Plain, format!("rejected in phase {phase}"));
    if let Some(range) = range {
        s.push(Style::Plain, format!(", at {range}"));
    }
    s
}

/// What an implementation answered, as rows.
pub fn outcome(outcome: &Outcome) -> Rows {
    let mut rows = Rows::new();
    match outcome {
        Outcome::Value { value: v, safety } => {
            row(&mut rows, "value", actual_value(&v.0));
            row(&mut rows, "type", ty(&v.0.ty()));
            if let Some(safety) = safety {
                row(&mut rows, "conversion", Styled::plain(safety.name()));
            }
        }
        Outcome::Type(t) => row(&mut rows, "type", ty(&t.0)),
        Outcome::Body(b) => {
            let attribute = |a: &Attribute| match a {
                Attribute::Value(v) => typed(&ExpectedValue::from(&v.0), &v.0.ty()),
                Attribute::Unevaluated { unevaluated } => Styled(vec![(
                    Style::Comment,
                    format!("(not evaluated: {unevaluated})"),
                )]),
            };
            row(&mut rows, "body", body_text(b, &attribute));
        }
        Outcome::Result(b) => row(
            &mut rows,
            "answer",
            Styled(vec![(Style::Keyword, if *b { "yes" } else { "no" }.into())]),
        ),
        Outcome::Parsed(b) => row(
            &mut rows,
            "parsed",
            Styled::plain(if *b { "yes" } else { "no" }),
        ),
        Outcome::Error(e) => {
            let ranges = e.ranges();
            row(
                &mut rows,
                "error",
                error_text(e.phase.name(), ranges.first().map(String::as_str)),
            );
            for d in &e.diagnostics {
                let text = format!("{}: {} {}", d.severity, d.summary, d.detail);
                row(
                    &mut rows,
                    "diagnostic",
                    Styled(vec![(Style::Comment, text.trim_end().to_string())]),
                );
            }
        }
        Outcome::Static(shape) => {
            let (label, s) = static_shape(shape);
            row(&mut rows, &label, s);
        }
        Outcome::Unsupported(why) => row(&mut rows, "unsupported", Styled::plain(why.clone())),
        Outcome::Malformed(why) => row(&mut rows, "malformed request", Styled::plain(why.clone())),
        Outcome::Crashed(why) => row(&mut rows, "crashed", Styled::plain(why.clone())),
        Outcome::TimedOut(why) => row(&mut rows, "timed out", Styled::plain(why.clone())),
        Outcome::Broken(why) => row(&mut rows, "broken answer", Styled::plain(why.clone())),
    }
    rows
}

/// The source range `L:C-L:C` (1-based, columns in characters, the end
/// exclusive) as byte offsets into `source`, clamped to it.
pub fn range_offsets(source: &str, range: &str) -> Option<(usize, usize)> {
    let (start, end) = range.split_once('-')?;
    let offset = |pos: &str| -> Option<usize> {
        let (line, column) = pos.split_once(':')?;
        let (line, column): (usize, usize) = (line.parse().ok()?, column.parse().ok()?);
        let mut at = 0;
        for _ in 1..line {
            at += source[at..].find('\n')? + 1;
        }
        let rest = &source[at..];
        let mut chars = rest.char_indices();
        for _ in 1..column {
            match chars.next() {
                Some((_, '\n')) | None => return Some(at + rest.find('\n').unwrap_or(rest.len())),
                Some(_) => {}
            }
        }
        Some(at + chars.next().map_or(rest.len(), |(i, _)| i))
    };
    let (start, end) = (offset(start)?, offset(end)?);
    Some((start, end.max(start)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use hcl_interpreter::typeexpr::parse_type;

    fn t(text: &str) -> Type {
        parse_type(text).unwrap()
    }

    #[test]
    fn strings_are_quoted_with_escapes() {
        assert_eq!(
            string_literal("a\"b\\c\n${x}%{y}"),
            r#""a\"b\\c\n$${x}%%{y}""#
        );
        assert_eq!(string_literal("\u{feff}"), r#""\uFEFF""#);
    }

    #[test]
    fn keys_are_bare_when_identifiers() {
        assert_eq!(key("name"), "name");
        assert_eq!(key("other name"), "\"other name\"");
        assert_eq!(key("null"), "\"null\"");
        assert_eq!(key("1a"), "\"1a\"");
    }

    #[test]
    fn values_are_written_in_hcl_notation() {
        let v = ExpectedValue::Mapping(
            [
                (
                    "a".to_string(),
                    ExpectedValue::Sequence(vec![ExpectedValue::Bool(true), ExpectedValue::Null]),
                ),
                ("b c".to_string(), ExpectedValue::Unknown),
            ]
            .into(),
        );
        let ty = t("object({a = tuple([bool, string]), \"b c\" = number})");
        assert_eq!(
            value(&v, &ty).text(),
            "{ a = [true, null], \"b c\" = (unknown) }"
        );
        let long = ExpectedValue::Sequence(vec![ExpectedValue::String("x".repeat(40)); 2]);
        assert_eq!(
            value(&long, &t("list(string)")).text(),
            format!("[\n  \"{0}\",\n  \"{0}\",\n]", "x".repeat(40))
        );
    }

    #[test]
    fn ranges_become_byte_offsets() {
        let source = "a = 1\nbé = c\n";
        assert_eq!(range_offsets(source, "2:6-2:7"), Some((12, 13)));
        assert_eq!(&source[12..13], "c");
        assert_eq!(range_offsets(source, "1:1-1:2"), Some((0, 1)));
        // Beyond the line's end: clamped to it.
        assert_eq!(range_offsets(source, "1:9-1:12"), Some((5, 5)));
        assert_eq!(range_offsets(source, "3:1-3:1"), Some((14, 14)));
        assert_eq!(range_offsets(source, "x"), None);
    }
}
