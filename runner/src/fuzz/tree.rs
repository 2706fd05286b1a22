//! The small syntax tree the fuzzer generates (`super::generate`) and
//! shrinks (`super::shrink`): expressions, templates, bodies and JSON
//! values of the two syntaxes (hclsyntax-spec.md, json-spec.md), rendered
//! to source text with a count of the tokens written.
//!
//! The tree is deliberately loose: it can hold what the grammar rejects
//! (a variable named like a keyword, a heredoc whose body holds its own
//! marker), because the reference decides what an input means, and the
//! fuzzer only needs to write it, measure it and take it apart.

/// An expression of the native syntax (hclsyntax-spec.md#expressions).
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// A numeric literal, as written (`1`, `0.5`, `1e400`).
    Number(String),
    Bool(bool),
    Null,
    /// A quoted template (`"a${b}"`).
    Quoted(Vec<Part>),
    /// A heredoc template.
    Heredoc(Heredoc),
    Variable(String),
    Tuple(Vec<Node>),
    Object(Vec<(Key, Node)>),
    /// `-a`, `!a`.
    Unary(&'static str, Box<Node>),
    /// `a + b`, `a == b`, `a && b`...
    Binary(&'static str, Box<Node>, Box<Node>),
    Conditional(Box<[Node; 3]>),
    /// `name(args)`, `name(args...)` when `expand`.
    Call {
        name: String,
        args: Vec<Node>,
        expand: bool,
    },
    For(Box<For>),
    /// `source[*].a[0]` (full) or `source.*.a` (attribute-only).
    Splat {
        source: Box<Node>,
        full: bool,
        steps: Vec<Step>,
    },
    Index(Box<Node>, Box<Node>),
    GetAttr(Box<Node>, String),
    Parenthesized(Box<Node>),
    /// Text no expression is: a stray token, for the syntax errors.
    Invalid(&'static str),
}

/// An object constructor's key.
#[derive(Clone, Debug, PartialEq)]
pub enum Key {
    /// A bare identifier: the name itself.
    Name(String),
    /// Any expression, in parentheses when it is not a template.
    Expr(Node),
}

/// A traversal step after a splat operator.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    Attr(String),
    Index(Node),
}

/// A `for` expression: `[for k, v in c: e if cond]` or
/// `{for k, v in c: ke => ve... if cond}`.
#[derive(Clone, Debug, PartialEq)]
pub struct For {
    pub key_var: Option<String>,
    pub value_var: String,
    pub collection: Node,
    /// `Some` for an object `for`.
    pub key: Option<Node>,
    pub value: Node,
    /// The grouping mode `...` (object `for` only).
    pub group: bool,
    pub condition: Option<Node>,
}

/// A heredoc: `<<EOT` or `<<-EOT` (flush), its body's lines indented by
/// `indent`, its closing marker by `close_indent`.
#[derive(Clone, Debug, PartialEq)]
pub struct Heredoc {
    pub flush: bool,
    pub marker: String,
    /// The indentation written at the start of each body line (a line's
    /// own literal text may add more).
    pub indent: String,
    pub close_indent: String,
    pub parts: Vec<Part>,
}

/// A piece of a template.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// Literal text, as it should read after unescaping; `unicode_escapes`
    /// writes its non-ASCII characters as `\u` escapes where the context
    /// has them (quoted templates).
    Literal { text: String, unicode_escapes: bool },
    /// `${ expr }`, with strip markers before and after.
    Interpolation { expr: Node, strip: [bool; 2] },
    /// `%{ if c }...%{ else }...%{ endif }`; the strip markers of each
    /// directive, in order (the `else` pair used when there is an else).
    If {
        condition: Node,
        then: Vec<Part>,
        otherwise: Option<Vec<Part>>,
        strip: [bool; 6],
    },
    /// `%{ for k, v in c }...%{ endfor }`.
    For {
        key_var: Option<String>,
        value_var: String,
        collection: Node,
        body: Vec<Part>,
        strip: [bool; 4],
    },
}

/// One element of a native body (hclsyntax-spec.md#structural-elements).
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Attribute(String, Node),
    Block {
        kind: String,
        labels: Vec<Label>,
        body: Vec<Item>,
        /// Written on one line: `b { a = 1 }` (one attribute at most).
        one_line: bool,
    },
}

/// A block label.
#[derive(Clone, Debug, PartialEq)]
pub enum Label {
    Name(String),
    Quoted(String),
}

/// A value of the JSON syntax (json-spec.md): its strings are templates
/// (json-spec.md#template-expressions), held as their parts.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Object(Vec<(String, Json)>),
    Array(Vec<Json>),
    String(Vec<Part>),
    Number(String),
    Bool(bool),
    Null,
}

/// What text a template's literals are written in.
#[derive(Clone, Copy, PartialEq)]
enum Context {
    /// A quoted template: `"`, `\` and newlines escaped.
    Quoted,
    /// A heredoc or a template file: only `${` and `%{` escaped.
    Raw,
}

/// Source text being written, with the number of tokens in it (a
/// literal's text counts as one token, as the lexer reads it).
#[derive(Default)]
pub struct Writer {
    pub text: String,
    pub tokens: usize,
}

impl Writer {
    fn token(&mut self, text: &str) {
        self.text.push_str(text);
        self.tokens += 1;
    }

    fn space(&mut self) {
        self.text.push(' ');
    }

    /// Writes an expression.
    pub fn expr(&mut self, node: &Node) {
        match node {
            Node::Number(n) => self.token(n),
            Node::Bool(b) => self.token(if *b { "true" } else { "false" }),
            Node::Null => self.token("null"),
            Node::Quoted(parts) => {
                self.token("\"");
                self.parts(parts, Context::Quoted);
                self.token("\"");
            }
            // A heredoc's closing line ends with a newline, which only a
            // body reads (and a standalone expression's newlines are
            // not tested: suite/README.md): inside an expression it is
            // parenthesized. [`Writer::expr_top`] writes it bare.
            Node::Heredoc(h) => {
                self.token("(");
                self.heredoc(h);
                self.token(")");
            }
            Node::Variable(name) => self.token(name),
            Node::Tuple(elements) => {
                self.token("[");
                for (i, e) in elements.iter().enumerate() {
                    if i > 0 {
                        self.token(", ");
                    }
                    self.expr(e);
                }
                self.token("]");
            }
            Node::Object(entries) => {
                self.token("{");
                for (i, (key, value)) in entries.iter().enumerate() {
                    if i > 0 {
                        self.token(", ");
                    }
                    match key {
                        Key::Name(name) => self.token(name),
                        Key::Expr(e @ (Node::Quoted(_) | Node::Parenthesized(_))) => self.expr(e),
                        Key::Expr(e) => {
                            self.token("(");
                            self.expr(e);
                            self.token(")");
                        }
                    }
                    self.token(" = ");
                    self.expr(value);
                }
                self.token("}");
            }
            Node::Unary(op, operand) => {
                self.token(op);
                self.expr(operand);
            }
            Node::Binary(op, a, b) => {
                self.expr(a);
                self.space();
                self.token(op);
                self.space();
                self.expr(b);
            }
            Node::Conditional(parts) => {
                let [c, a, b] = &**parts;
                self.expr(c);
                self.token(" ? ");
                self.expr(a);
                self.token(" : ");
                self.expr(b);
            }
            Node::Call { name, args, expand } => {
                self.token(name);
                self.token("(");
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        self.token(", ");
                    }
                    self.expr(a);
                }
                if *expand {
                    self.token("...");
                }
                self.token(")");
            }
            Node::For(f) => self.for_expr(f),
            Node::Splat {
                source,
                full,
                steps,
            } => {
                self.expr(source);
                self.token(if *full { "[*]" } else { ".*" });
                for step in steps {
                    match step {
                        Step::Attr(name) => {
                            self.token(".");
                            self.token(name);
                        }
                        Step::Index(key) => {
                            self.token("[");
                            self.expr(key);
                            self.token("]");
                        }
                    }
                }
            }
            Node::Index(collection, key) => {
                self.expr(collection);
                self.token("[");
                self.expr(key);
                self.token("]");
            }
            Node::GetAttr(object, name) => {
                self.expr(object);
                self.token(".");
                self.token(name);
            }
            Node::Parenthesized(inner) => {
                self.token("(");
                self.expr(inner);
                self.token(")");
            }
            Node::Invalid(text) => self.token(text),
        }
    }

    /// Writes an expression that is a whole input or attribute value: a
    /// heredoc bare, as configurations write them.
    pub fn expr_top(&mut self, node: &Node) {
        match node {
            Node::Heredoc(h) => self.heredoc(h),
            other => self.expr(other),
        }
    }

    fn for_expr(&mut self, f: &For) {
        let object = f.key.is_some();
        self.token(if object { "{" } else { "[" });
        self.token("for ");
        if let Some(k) = &f.key_var {
            self.token(k);
            self.token(", ");
        }
        self.token(&f.value_var);
        self.token(" in ");
        self.expr(&f.collection);
        self.token(": ");
        if let Some(key) = &f.key {
            self.expr(key);
            self.token(" => ");
        }
        self.expr(&f.value);
        if f.group {
            self.token("...");
        }
        if let Some(c) = &f.condition {
            self.token(" if ");
            self.expr(c);
        }
        self.token(if object { "}" } else { "]" });
    }

    fn heredoc(&mut self, h: &Heredoc) {
        self.token(if h.flush { "<<-" } else { "<<" });
        self.token(&h.marker);
        self.text.push('\n');
        let start = self.text.len();
        self.parts(&h.parts, Context::Raw);
        // Every body line starts with the heredoc's indentation.
        if !h.indent.is_empty() {
            let body = self.text.split_off(start);
            for (i, line) in body.split_inclusive('\n').enumerate() {
                let _ = i;
                self.text.push_str(&h.indent);
                self.text.push_str(line);
            }
        }
        if !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        self.text.push_str(&h.close_indent);
        self.token(&h.marker);
        // The closing marker ends its line (hclsyntax-spec.md#template-expressions).
        self.text.push('\n');
    }

    fn strip(&mut self, open: &str, strip: bool) {
        self.token(open);
        if strip {
            self.token("~");
        }
        self.space();
    }

    fn close(&mut self, strip: bool) {
        self.space();
        if strip {
            self.token("~");
        }
        self.token("}");
    }

    fn parts(&mut self, parts: &[Part], context: Context) {
        let mut i = 0;
        while let Some(part) = parts.get(i) {
            i += 1;
            match part {
                Part::Literal {
                    text,
                    unicode_escapes,
                } => {
                    // Literals in a row are one text: `$` ending one and
                    // `{` starting the next are escaped together.
                    let mut text = text.clone();
                    while let Some(Part::Literal { text: next, .. }) = parts.get(i) {
                        text.push_str(next);
                        i += 1;
                    }
                    // A `$` or `%` just before `${` or `%{` (this list's
                    // next part, or the directive that closes it) would
                    // escape it: no text can say that, so it is left out.
                    while text.ends_with(['$', '%']) {
                        text.pop();
                    }
                    let escaped = escape_literal(&text, context, *unicode_escapes);
                    if !escaped.is_empty() {
                        self.token(&escaped);
                    }
                }
                Part::Interpolation { expr, strip } => {
                    self.strip("${", strip[0]);
                    self.expr(expr);
                    self.close(strip[1]);
                }
                Part::If {
                    condition,
                    then,
                    otherwise,
                    strip,
                } => {
                    self.strip("%{", strip[0]);
                    self.token("if ");
                    self.expr(condition);
                    self.close(strip[1]);
                    self.parts(then, context);
                    if let Some(otherwise) = otherwise {
                        self.strip("%{", strip[2]);
                        self.token("else");
                        self.close(strip[3]);
                        self.parts(otherwise, context);
                    }
                    self.strip("%{", strip[4]);
                    self.token("endif");
                    self.close(strip[5]);
                }
                Part::For {
                    key_var,
                    value_var,
                    collection,
                    body,
                    strip,
                } => {
                    self.strip("%{", strip[0]);
                    self.token("for ");
                    if let Some(k) = key_var {
                        self.token(k);
                        self.token(", ");
                    }
                    self.token(value_var);
                    self.token(" in ");
                    self.expr(collection);
                    self.close(strip[1]);
                    self.parts(body, context);
                    self.strip("%{", strip[2]);
                    self.token("endfor");
                    self.close(strip[3]);
                }
            }
        }
    }

    /// Writes a template in template file mode (hclsyntax-spec.md#template-files).
    pub fn template(&mut self, parts: &[Part]) {
        self.parts(parts, Context::Raw);
    }

    /// Writes a native body, each nested body indented by two spaces.
    pub fn body(&mut self, items: &[Item], depth: usize) {
        for item in items {
            self.text.push_str(&"  ".repeat(depth));
            match item {
                Item::Attribute(name, value) => {
                    self.token(name);
                    self.token(" = ");
                    self.expr_top(value);
                }
                Item::Block {
                    kind,
                    labels,
                    body,
                    one_line,
                } => {
                    self.token(kind);
                    for label in labels {
                        self.space();
                        match label {
                            Label::Name(name) => self.token(name),
                            Label::Quoted(text) => {
                                self.token(&format!("\"{}\"", escape_quoted(text)))
                            }
                        }
                    }
                    self.token(" {");
                    match (one_line, body.as_slice()) {
                        (true, []) => {}
                        (true, [Item::Attribute(name, value)]) => {
                            self.space();
                            self.token(name);
                            self.token(" = ");
                            self.expr(value);
                            self.space();
                        }
                        _ => {
                            self.text.push('\n');
                            self.body(body, depth + 1);
                            self.text.push_str(&"  ".repeat(depth));
                        }
                    }
                    self.token("}");
                }
            }
            self.text.push('\n');
        }
    }

    /// Writes a JSON value; its strings hold their templates' source.
    pub fn json(&mut self, json: &Json) {
        match json {
            Json::Object(members) => {
                self.token("{");
                for (i, (name, value)) in members.iter().enumerate() {
                    if i > 0 {
                        self.token(", ");
                    }
                    self.token(&json_string(name));
                    self.token(": ");
                    self.json(value);
                }
                self.token("}");
            }
            Json::Array(elements) => {
                self.token("[");
                for (i, e) in elements.iter().enumerate() {
                    if i > 0 {
                        self.token(", ");
                    }
                    self.json(e);
                }
                self.token("]");
            }
            Json::String(parts) => {
                let mut inner = Writer::default();
                inner.parts(parts, Context::Raw);
                self.text.push_str(&json_string(&inner.text));
                self.tokens += inner.tokens.max(1);
            }
            Json::Number(n) => self.token(n),
            Json::Bool(b) => self.token(if *b { "true" } else { "false" }),
            Json::Null => self.token("null"),
        }
    }
}

/// A JSON string literal of `text`.
fn json_string(text: &str) -> String {
    serde_json::Value::String(text.to_string()).to_string()
}

/// The escapes of a quoted string (hclsyntax-spec.md#template-literals).
fn escape_quoted(text: &str) -> String {
    escape_literal(text, Context::Quoted, false)
}

/// A literal's text as the context writes it: template sequences `${`
/// and `%{` doubled, and in a quoted template `"`, `\` and the control
/// characters escaped (and non-ASCII characters, when asked).
fn escape_literal(text: &str, context: Context, unicode_escapes: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if (c == '$' || c == '%') && chars.peek() == Some(&'{') {
            out.push(c);
            out.push(c);
            continue;
        }
        if context == Context::Raw {
            out.push(c);
            continue;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if unicode_escapes && !c.is_ascii() => {
                let n = c as u32;
                if n > 0xFFFF {
                    out.push_str(&format!("\\U{n:08x}"));
                } else {
                    out.push_str(&format!("\\u{n:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

impl Node {
    /// The name of the construct, as clusters name it.
    pub fn construct(&self) -> &'static str {
        match self {
            Node::Number(_) => "number",
            Node::Bool(_) => "bool",
            Node::Null => "null",
            Node::Quoted(_) => "quoted-template",
            Node::Heredoc(h) if h.flush => "flush-heredoc",
            Node::Heredoc(_) => "heredoc",
            Node::Variable(_) => "variable",
            Node::Tuple(_) => "tuple",
            Node::Object(_) => "object",
            Node::Unary(op, _) => unary_name(op),
            Node::Binary(op, _, _) => binary_name(op),
            Node::Conditional(_) => "conditional",
            Node::Call { expand: true, .. } => "call-expansion",
            Node::Call { .. } => "call",
            Node::For(f) if f.group => "for-grouping",
            Node::For(f) if f.key.is_some() => "for-object",
            Node::For(_) => "for-tuple",
            Node::Splat { full: true, .. } => "splat",
            Node::Splat { .. } => "attribute-splat",
            Node::Index(..) => "index",
            Node::GetAttr(..) => "attribute",
            Node::Parenthesized(_) => "parentheses",
            Node::Invalid(_) => "syntax-error",
        }
    }

    /// The expressions directly inside this one, templates' included.
    pub fn children(&self) -> Vec<&Node> {
        let mut out = Vec::new();
        match self {
            Node::Number(_) | Node::Bool(_) | Node::Null | Node::Variable(_) | Node::Invalid(_) => {
            }
            Node::Quoted(parts) | Node::Heredoc(Heredoc { parts, .. }) => {
                part_nodes(parts, &mut out)
            }
            Node::Tuple(elements) => out.extend(elements),
            Node::Object(entries) => {
                for (k, v) in entries {
                    if let Key::Expr(k) = k {
                        out.push(k);
                    }
                    out.push(v);
                }
            }
            Node::Unary(_, a) | Node::Parenthesized(a) | Node::GetAttr(a, _) => out.push(a),
            Node::Binary(_, a, b) | Node::Index(a, b) => out.extend([&**a, &**b]),
            Node::Conditional(parts) => out.extend(parts.iter()),
            Node::Call { args, .. } => out.extend(args),
            Node::For(f) => {
                out.push(&f.collection);
                out.extend(&f.key);
                out.push(&f.value);
                out.extend(&f.condition);
            }
            Node::Splat { source, steps, .. } => {
                out.push(source);
                for s in steps {
                    if let Step::Index(i) = s {
                        out.push(i);
                    }
                }
            }
        }
        out
    }

    /// The same expressions as [`Node::children`], to change.
    pub fn children_mut(&mut self) -> Vec<&mut Node> {
        let mut out = Vec::new();
        match self {
            Node::Number(_) | Node::Bool(_) | Node::Null | Node::Variable(_) | Node::Invalid(_) => {
            }
            Node::Quoted(parts) | Node::Heredoc(Heredoc { parts, .. }) => {
                part_nodes_mut(parts, &mut out)
            }
            Node::Tuple(elements) => out.extend(elements),
            Node::Object(entries) => {
                for (k, v) in entries {
                    if let Key::Expr(k) = k {
                        out.push(k);
                    }
                    out.push(v);
                }
            }
            Node::Unary(_, a) | Node::Parenthesized(a) | Node::GetAttr(a, _) => out.push(a),
            Node::Binary(_, a, b) | Node::Index(a, b) => {
                out.push(a);
                out.push(b);
            }
            Node::Conditional(parts) => out.extend(parts.iter_mut()),
            Node::Call { args, .. } => out.extend(args),
            Node::For(f) => {
                let f = &mut **f;
                out.push(&mut f.collection);
                out.extend(&mut f.key);
                out.push(&mut f.value);
                out.extend(&mut f.condition);
            }
            Node::Splat { source, steps, .. } => {
                out.push(source);
                for s in steps {
                    if let Step::Index(i) = s {
                        out.push(i);
                    }
                }
            }
        }
        out
    }

    /// Every construct in this expression, itself included.
    pub fn constructs(&self, out: &mut Vec<&'static str>) {
        out.push(self.construct());
        if let Node::Quoted(parts) | Node::Heredoc(Heredoc { parts, .. }) = self {
            part_constructs(parts, out);
        }
        for child in self.children() {
            child.constructs(out);
        }
    }

    /// The variables this expression names (a `for`'s own included: the
    /// fuzzer never gives those as variables).
    pub fn variables(&self, out: &mut Vec<String>) {
        if let Node::Variable(name) = self {
            out.push(name.clone());
        }
        for child in self.children() {
            child.variables(out);
        }
    }
}

fn unary_name(op: &str) -> &'static str {
    if op == "-" {
        "negation"
    } else {
        "not"
    }
}

fn binary_name(op: &str) -> &'static str {
    match op {
        "+" | "-" | "*" | "/" | "%" => "arithmetic",
        "==" | "!=" => "equality",
        "<" | "<=" | ">" | ">=" => "comparison",
        _ => "logic",
    }
}

fn part_nodes<'a>(parts: &'a [Part], out: &mut Vec<&'a Node>) {
    for part in parts {
        match part {
            Part::Literal { .. } => {}
            Part::Interpolation { expr, .. } => out.push(expr),
            Part::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                out.push(condition);
                part_nodes(then, out);
                if let Some(o) = otherwise {
                    part_nodes(o, out);
                }
            }
            Part::For {
                collection, body, ..
            } => {
                out.push(collection);
                part_nodes(body, out);
            }
        }
    }
}

fn part_nodes_mut<'a>(parts: &'a mut [Part], out: &mut Vec<&'a mut Node>) {
    for part in parts {
        match part {
            Part::Literal { .. } => {}
            Part::Interpolation { expr, .. } => out.push(expr),
            Part::If {
                condition,
                then,
                otherwise,
                ..
            } => {
                out.push(condition);
                part_nodes_mut(then, out);
                if let Some(o) = otherwise {
                    part_nodes_mut(o, out);
                }
            }
            Part::For {
                collection, body, ..
            } => {
                out.push(collection);
                part_nodes_mut(body, out);
            }
        }
    }
}

/// The template constructs of `parts` (their expressions are counted by
/// the expression that holds them).
pub fn part_constructs(parts: &[Part], out: &mut Vec<&'static str>) {
    for part in parts {
        match part {
            Part::Literal { text, .. } => {
                if text.contains(['$', '%']) {
                    out.push("template-escape");
                }
                if !text.is_ascii() {
                    out.push("unicode");
                }
            }
            Part::Interpolation { strip, .. } => {
                out.push("interpolation");
                if strip.contains(&true) {
                    out.push("strip-marker");
                }
            }
            Part::If {
                then,
                otherwise,
                strip,
                ..
            } => {
                out.push("if-directive");
                if strip.contains(&true) {
                    out.push("strip-marker");
                }
                part_constructs(then, out);
                if let Some(o) = otherwise {
                    part_constructs(o, out);
                }
            }
            Part::For { body, strip, .. } => {
                out.push("for-directive");
                if strip.contains(&true) {
                    out.push("strip-marker");
                }
                part_constructs(body, out);
            }
        }
    }
}

/// The expressions of template parts, outside any expression.
pub fn parts_nodes(parts: &[Part]) -> Vec<&Node> {
    let mut out = Vec::new();
    part_nodes(parts, &mut out);
    out
}

/// The same, to change.
pub fn parts_nodes_mut(parts: &mut [Part]) -> Vec<&mut Node> {
    let mut out = Vec::new();
    part_nodes_mut(parts, &mut out);
    out
}

impl Item {
    /// The expressions of this body element, nested blocks' included.
    pub fn nodes(&self) -> Vec<&Node> {
        match self {
            Item::Attribute(_, value) => vec![value],
            Item::Block { body, .. } => body.iter().flat_map(Item::nodes).collect(),
        }
    }

    pub fn nodes_mut(&mut self) -> Vec<&mut Node> {
        match self {
            Item::Attribute(_, value) => vec![value],
            Item::Block { body, .. } => body.iter_mut().flat_map(Item::nodes_mut).collect(),
        }
    }
}

impl Json {
    /// The template parts of every string in this value.
    pub fn templates(&self) -> Vec<&Vec<Part>> {
        match self {
            Json::Object(members) => members.iter().flat_map(|(_, v)| v.templates()).collect(),
            Json::Array(elements) => elements.iter().flat_map(Json::templates).collect(),
            Json::String(parts) => vec![parts],
            _ => Vec::new(),
        }
    }

    pub fn templates_mut(&mut self) -> Vec<&mut Vec<Part>> {
        match self {
            Json::Object(members) => members
                .iter_mut()
                .flat_map(|(_, v)| v.templates_mut())
                .collect(),
            Json::Array(elements) => elements.iter_mut().flat_map(Json::templates_mut).collect(),
            Json::String(parts) => vec![parts],
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(node: &Node) -> (String, usize) {
        let mut w = Writer::default();
        w.expr(node);
        (w.text, w.tokens)
    }

    #[test]
    fn quoted_templates_escape_what_the_syntax_reads() {
        let node = Node::Quoted(vec![Part::Literal {
            text: "a\"b\\${x}\né".into(),
            unicode_escapes: true,
        }]);
        assert_eq!(written(&node).0, r#""a\"b\\$${x}\n\u00e9""#);
    }

    #[test]
    fn heredocs_indent_every_body_line_and_count_tokens() {
        let node = Node::Heredoc(Heredoc {
            flush: true,
            marker: "EOT".into(),
            indent: "  ".into(),
            close_indent: " ".into(),
            parts: vec![
                Part::Literal {
                    text: "a\n b\n".into(),
                    unicode_escapes: false,
                },
                Part::Interpolation {
                    expr: Node::Variable("x".into()),
                    strip: [false, true],
                },
            ],
        });
        let (text, tokens) = written(&node);
        assert_eq!(text, "<<-EOT\n  a\n   b\n  ${ x ~}\n EOT\n");
        // <<-, EOT, the literal, ${, x, ~, }, EOT
        assert_eq!(tokens, 8);
    }

    #[test]
    fn object_keys_that_are_expressions_are_parenthesized() {
        let node = Node::Object(vec![
            (Key::Name("a".into()), Node::Number("1".into())),
            (Key::Expr(Node::Variable("k".into())), Node::Null),
        ]);
        assert_eq!(written(&node).0, "{a = 1, (k) = null}");
    }
}
