//! The generator: seeded, type-directed (ask for a value of a type, get an
//! expression that yields it, or sometimes one that should not), and
//! weighted toward what implementations get wrong: numbers at the edges,
//! escapes and Unicode, templates with directives, strip markers and
//! heredocs of both kinds, `for` expressions, splats over null, unknown
//! and nested values, conditionals over differently shaped branches,
//! operators over every operand type, the conformance function table with
//! expansion, bodies with blocks and duplicates, and the JSON syntax with
//! its templates.

use super::tree::{Heredoc, Item, Json, Key, Label, Node, Part, Step};
use super::Input;
use hcl_conformance_format::kinds::{AttributeEntry, BlockEntry, Schema, SchemaBody, Text};
use hcl_interpreter::number::Number;
use hcl_interpreter::{Type, Value};
use hcl_random_inputs::Rng;
use std::collections::BTreeMap;

/// What the implementation claims to support (its `hello` answer's
/// features), which bounds what is generated.
#[derive(Clone, Copy, Debug)]
pub struct Abilities {
    pub unknown: bool,
    pub exact_types: bool,
    pub big_numbers: bool,
    pub namespaced_functions: bool,
    pub schema: bool,
}

impl Abilities {
    pub const ALL: Abilities = Abilities {
        unknown: true,
        exact_types: true,
        big_numbers: true,
        namespaced_functions: true,
        schema: true,
    };
}

/// The kinds of input the fuzzer generates (`--kinds`).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(serialize_all = "kebab-case")]
pub enum GenKind {
    /// A native-syntax expression with variables (`expr`).
    Expr,
    /// A template file (`template`).
    Template,
    /// A native configuration file (`config`).
    Config,
    /// A JSON configuration file (`config` with `syntax: json`).
    Json,
    /// A value converted to a type (`convert`).
    Convert,
    /// An operator applied to values (`operation`).
    Operation,
    /// Types unified (`unify`).
    Unify,
}

impl GenKind {
    /// The protocol's request kind.
    pub fn request_kind(self) -> &'static str {
        match self {
            GenKind::Json => "config",
            other => other.into(),
        }
    }
}

/// Number literals, by how they trip implementations up; the second list
/// needs arbitrary precision (the `big-numbers` feature).
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "10",
    "42",
    "255",
    "1000",
    "0.5",
    "2.25",
    "1e3",
    "1E2",
    "1e+2",
    "2e-1",
    "0.125",
    "007",
    "9007199254740993",
];
const BIG_NUMBERS: &[&str] = &[
    "0.1",
    "1e400",
    "1e-400",
    "123456789012345678901234567890",
    "3.14159265358979323846264338327950288",
    "1.0000000000000000000000000001",
    "18446744073709551616",
    "0.30000000000000000000000000000000000000001",
];

/// Strings that convert to numbers, or nearly.
const NUMERIC_STRINGS: &[&str] = &[
    "1", "1e3", "-2.5", "0x10", " 1", "1.", ".5", "+1", "1_000", "Inf", "-0", "1E-2",
];

/// Pieces of literal text: every Unicode class the spec names (letters,
/// NFC pairs, combining marks, wide characters), escapes' targets and the
/// template sequences.
const TEXT: &[&str] = &[
    "a", "b", "hello", " ", "  ", "x y", "\"", "\\", "\n", "\t", "é", "e\u{301}", "ñ", "δ", "中文",
    "😀", "\u{200b}", "${", "%{", "$", "%", "}", "~", "EOT", "true", "null", "1",
];

/// Identifiers for variables, attributes and block types, some with
/// non-ASCII letters (hclsyntax-spec.md#identifiers).
const NAMES: &[&str] = &[
    "a", "b", "c", "x", "y", "l", "m", "o", "s", "n", "foo_bar", "a-b", "é", "δx", "ñame",
];

/// Attribute names of the objects generated.
const ATTRS: &[&str] = &["a", "b", "id", "x", "é"];

const ARITHMETIC: &[&str] = &["+", "-", "*", "/", "%"];
const COMPARISON: &[&str] = &["<", "<=", ">", ">="];
const EQUALITY: &[&str] = &["==", "!="];
const LOGIC: &[&str] = &["&&", "||"];

/// Generates one input of `kind`.
pub fn generate(rng: &mut Rng, kind: GenKind, abilities: Abilities) -> Input {
    let mut g = Gen {
        rng,
        abilities,
        variables: BTreeMap::new(),
        bound: Vec::new(),
    };
    match kind {
        GenKind::Expr => {
            let ty = g.any_type(2);
            let depth = 1 + g.rng.below(4);
            let node = g.expr(&ty, depth);
            Input::Expr {
                node,
                variables: g.variables,
            }
        }
        GenKind::Template => {
            let parts = g.parts(3, true);
            Input::Template {
                parts,
                variables: g.variables,
            }
        }
        GenKind::Config => {
            let items = g.body(2);
            let schema =
                (g.abilities.schema && g.rng.chance(3)).then(|| g.schema_of_items(&items, 2));
            Input::Config {
                items,
                variables: g.variables,
                schema,
            }
        }
        GenKind::Json => {
            let members: Vec<(String, Json)> = (0..1 + g.rng.below(3))
                .map(|_| (g.name().to_string(), g.json(2)))
                .collect();
            let schema =
                (g.abilities.schema && g.rng.chance(3)).then(|| g.schema_of_members(&members));
            Input::Json {
                json: Json::Object(members),
                variables: g.variables,
                schema,
            }
        }
        GenKind::Convert => {
            let ty = g.any_type(2);
            let value = g.value(&ty, 2);
            let mut to = if g.rng.chance(3) {
                g.any_type(2)
            } else {
                g.related_type(&ty)
            };
            // The type of a null or unknown value converted to a type with
            // `any` in it is the implementation's (conversion/nested-and-
            // unknown-collections::null-tuple-to-list-of-any-is-a-null-list).
            if matches!(value, Value::Null(_) | Value::Unknown(_)) {
                to = without_dynamic(&to);
            }
            Input::Convert { value, to }
        }
        GenKind::Operation => {
            let (op, arity) = *g.rng.pick(&[
                ("add", 2),
                ("subtract", 2),
                ("multiply", 2),
                ("divide", 2),
                ("modulo", 2),
                ("negate", 1),
                ("equal", 2),
                ("not-equal", 2),
                ("less", 2),
                ("less-or-equal", 2),
                ("greater", 2),
                ("greater-or-equal", 2),
                ("and", 2),
                ("or", 2),
                ("not", 1),
            ]);
            let operands = (0..arity)
                .map(|_| {
                    let ty = g.operand_type();
                    g.value(&ty, 1)
                })
                .collect();
            Input::Operation { op, operands }
        }
        GenKind::Unify => {
            let types = (0..1 + g.rng.below(3)).map(|_| g.any_type(2)).collect();
            Input::Unify { types }
        }
    }
}

/// `ty` with `string` for every `any` in it.
fn without_dynamic(ty: &Type) -> Type {
    match ty {
        Type::Dynamic => Type::String,
        Type::List(e) => Type::list(without_dynamic(e)),
        Type::Set(e) => Type::set(without_dynamic(e)),
        Type::Map(e) => Type::map(without_dynamic(e)),
        Type::Tuple(e) => Type::Tuple(e.iter().map(without_dynamic).collect()),
        Type::Object(a) => Type::object(a.iter().map(|(k, t)| (k.clone(), without_dynamic(t)))),
        other => other.clone(),
    }
}

struct Gen<'r> {
    rng: &'r mut Rng,
    abilities: Abilities,
    variables: BTreeMap<String, Value>,
    /// The names a `for` binds around the expression being generated,
    /// with their types.
    bound: Vec<(String, Type)>,
}

impl Gen<'_> {
    fn name(&mut self) -> &'static str {
        let names: &[&'static str] = NAMES;
        names[self.rng.below(names.len())]
    }

    fn primitive_type(&mut self) -> Type {
        self.rng
            .pick(&[Type::String, Type::Number, Type::Bool])
            .clone()
    }

    fn operand_type(&mut self) -> Type {
        if self.rng.chance(6) {
            Type::Dynamic
        } else {
            self.primitive_type()
        }
    }

    /// A type, nesting at most `depth` levels.
    fn any_type(&mut self, depth: usize) -> Type {
        if depth == 0 || self.rng.chance(2) {
            return match self.rng.below(8) {
                0 => Type::Dynamic,
                1 | 2 => Type::String,
                3 | 4 => Type::Number,
                _ => Type::Bool,
            };
        }
        let element = |g: &mut Self| g.any_type(depth - 1);
        let exact = self.abilities.exact_types;
        match self.rng.below(5) {
            0 if exact => Type::list(element(self)),
            1 if exact => Type::set(self.primitive_type()),
            2 if exact => Type::map(element(self)),
            0 | 1 | 3 => Type::Tuple((0..self.rng.below(3)).map(|_| element(self)).collect()),
            _ => {
                let n = self.rng.below(3);
                Type::object((0..n).map(|_| (self.rng.pick(ATTRS).to_string(), element(self))))
            }
        }
    }

    /// A type near `ty`: its structure kept, with a primitive or a
    /// collection kind changed, for conversions that are close calls.
    fn related_type(&mut self, ty: &Type) -> Type {
        match ty {
            Type::List(e) | Type::Set(e) | Type::Map(e) => match self.rng.below(4) {
                0 => Type::list(self.related_type(e)),
                1 => Type::set(self.related_type(e)),
                2 => Type::map(self.related_type(e)),
                _ => Type::list(Type::Dynamic),
            },
            Type::Tuple(elements) => match self.rng.below(3) {
                0 => Type::list(
                    elements
                        .first()
                        .map_or(Type::String, |e| self.related_type(e)),
                ),
                1 => Type::set(Type::String),
                _ => Type::Tuple(elements.iter().map(|e| self.related_type(e)).collect()),
            },
            Type::Object(attributes) => match self.rng.below(3) {
                0 => Type::map(Type::String),
                _ => {
                    let mut kept = Vec::new();
                    for (k, t) in attributes {
                        if !self.rng.chance(4) {
                            kept.push((k.clone(), self.related_type(t)));
                        }
                    }
                    Type::object(kept)
                }
            },
            _ => self.primitive_type(),
        }
    }

    /// A value of type `ty`; nulls and unknowns at some positions.
    fn value(&mut self, ty: &Type, depth: usize) -> Value {
        if self.rng.chance(9) && (self.abilities.exact_types || *ty == Type::Dynamic) {
            return Value::Null(ty.clone());
        }
        if self.abilities.unknown && self.rng.chance(12) {
            return Value::Unknown(ty.clone());
        }
        let depth = depth.saturating_sub(1);
        match ty {
            Type::String => Value::string_owned(self.text(2)),
            Type::Number => Value::Number(self.number_value()),
            Type::Bool => Value::Bool(self.rng.chance(2)),
            Type::Dynamic => {
                let ty = if depth == 0 {
                    self.primitive_type()
                } else {
                    self.any_type(1)
                };
                self.value(&ty, depth)
            }
            Type::List(e) => {
                let elements = (0..self.rng.below(3))
                    .map(|_| self.value(e, depth))
                    .collect();
                Value::list((**e).clone(), elements).unwrap_or(Value::Null(ty.clone()))
            }
            Type::Set(e) => {
                // At most one element: the order of a set's elements is
                // the implementation's, and a set of one has one order.
                let elements = (0..self.rng.below(2))
                    .map(|_| self.value(e, depth))
                    .collect();
                Value::set((**e).clone(), elements).unwrap_or(Value::Null(ty.clone()))
            }
            Type::Map(e) => {
                let entries: Vec<(String, Value)> = (0..self.rng.below(3))
                    .map(|_| (self.rng.pick(ATTRS).to_string(), self.value(e, depth)))
                    .collect();
                Value::map((**e).clone(), entries).unwrap_or(Value::Null(ty.clone()))
            }
            Type::Tuple(elements) => {
                Value::Tuple(elements.iter().map(|e| self.value(e, depth)).collect())
            }
            Type::Object(attributes) => Value::object(
                attributes
                    .iter()
                    .map(|(k, t)| (k.clone(), self.value(t, depth)))
                    .collect::<Vec<_>>(),
            ),
        }
    }

    fn number_literal(&mut self) -> String {
        if self.abilities.big_numbers && self.rng.chance(5) {
            self.rng.pick(BIG_NUMBERS).to_string()
        } else {
            self.rng.pick(NUMBERS).to_string()
        }
    }

    fn number_value(&mut self) -> Number {
        let text = self.number_literal();
        let n = Number::parse_decimal(&text, true).unwrap_or_else(|_| Number::zero());
        if self.rng.chance(4) {
            n.negate()
        } else {
            n
        }
    }

    /// Literal text of up to `pieces` pieces.
    fn text(&mut self, pieces: usize) -> String {
        (0..self.rng.below(pieces + 1))
            .map(|_| *self.rng.pick(TEXT))
            .collect()
    }

    /// A variable of type `ty`, with a value (null, unknown or known).
    fn variable(&mut self, ty: &Type) -> Node {
        // A name a `for` binds here of the right type, sometimes.
        let bound: Vec<&String> = self
            .bound
            .iter()
            .filter(|(_, t)| t == ty || *t == Type::Dynamic)
            .map(|(n, _)| n)
            .collect();
        if !bound.is_empty() && self.rng.chance(2) {
            return Node::Variable((*self.rng.pick(&bound)).clone());
        }
        let name = self.name().to_string();
        if self.bound.iter().any(|(n, _)| *n == name) {
            return Node::Variable(name);
        }
        if let Some(v) = self.variables.get(&name) {
            // Already declared: reuse it whatever its type (a type error
            // is an input too).
            let _ = v;
            return Node::Variable(name);
        }
        let value = self.value(ty, 3);
        self.variables.insert(name.clone(), value);
        Node::Variable(name)
    }

    /// An expression yielding a value of type `ty` (the dynamic type: any
    /// value), `depth` levels deep at most; once in a while one of another
    /// type, for the errors and conversions that follow.
    fn expr(&mut self, ty: &Type, depth: usize) -> Node {
        if self.rng.chance(25) {
            let other = self.any_type(1);
            return self.leaf(&other);
        }
        if depth == 0 || self.rng.chance(5) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        // Constructs that yield any type.
        match self.rng.below(14) {
            0 => {
                return Node::Conditional(Box::new([
                    self.expr(&Type::Bool, d),
                    self.expr(ty, d),
                    self.branch(ty, d),
                ]))
            }
            1 => return Node::Parenthesized(Box::new(self.expr(ty, d))),
            2 => return self.index_into(ty, d),
            3 => return self.splat(ty, d),
            4 if self.abilities.exact_types
                || !matches!(ty, Type::List(_) | Type::Set(_) | Type::Map(_)) =>
            {
                let mut args: Vec<Node> = (0..1 + self.rng.below(2))
                    .map(|_| self.expr(ty, d))
                    .collect();
                if self.rng.chance(3) {
                    args.insert(0, Node::Null);
                }
                return self.call("coalesce", args, false);
            }
            _ => {}
        }
        match ty {
            Type::Number => self.number_expr(d),
            Type::Bool => self.bool_expr(d),
            Type::String => self.string_expr(d),
            Type::Tuple(elements) => {
                if self.rng.chance(3) {
                    self.tuple_producer(d)
                } else {
                    Node::Tuple(elements.iter().map(|e| self.expr(e, d)).collect())
                }
            }
            Type::Object(attributes) => {
                if self.rng.chance(3) {
                    self.object_for(d)
                } else {
                    Node::Object(
                        attributes
                            .iter()
                            .map(|(k, t)| (self.key(k), self.expr(t, d)))
                            .collect(),
                    )
                }
            }
            Type::List(_) | Type::Set(_) | Type::Map(_) => self.leaf(ty),
            Type::Dynamic => {
                let ty = self.any_type(2);
                self.expr(&ty, d)
            }
        }
    }

    /// The other branch of a conditional: the same type, or a differently
    /// shaped one that unifies (or does not).
    fn branch(&mut self, ty: &Type, depth: usize) -> Node {
        if self.rng.chance(3) {
            let other = self.any_type(1);
            self.expr(&other, depth)
        } else {
            self.expr(ty, depth)
        }
    }

    fn key(&mut self, name: &str) -> Key {
        match self.rng.below(4) {
            0 => Key::Expr(Node::Quoted(vec![Part::Literal {
                text: name.into(),
                unicode_escapes: false,
            }])),
            1 if self.rng.chance(3) => Key::Expr(self.expr(&Type::String, 1)),
            _ => Key::Name(name.into()),
        }
    }

    fn leaf(&mut self, ty: &Type) -> Node {
        if self.rng.chance(80) {
            const STRAY: &[&str] = &[
                "+", ")", "[", "${", "?", "..", "=>", "%{", "\"", "1e", "0x1", "!", "{a}", "a.",
                "::", "[*", "<<", "#",
            ];
            return Node::Invalid(STRAY[self.rng.below(STRAY.len())]);
        }
        match ty {
            _ if self.rng.chance(3) => self.variable(ty),
            Type::Number => {
                if self.rng.chance(8) {
                    let text = self.rng.pick(NUMERIC_STRINGS).to_string();
                    Node::Quoted(vec![Part::Literal {
                        text,
                        unicode_escapes: false,
                    }])
                } else {
                    Node::Number(self.number_literal())
                }
            }
            Type::Bool => Node::Bool(self.rng.chance(2)),
            Type::String => {
                let text = self.text(3);
                let unicode_escapes = self.rng.chance(4);
                Node::Quoted(vec![Part::Literal {
                    text,
                    unicode_escapes,
                }])
            }
            Type::Tuple(elements) => Node::Tuple(elements.iter().map(|e| self.leaf(e)).collect()),
            Type::Object(attributes) => Node::Object(
                attributes
                    .iter()
                    .map(|(k, t)| (Key::Name(k.clone()), self.leaf(t)))
                    .collect(),
            ),
            _ if self.rng.chance(6) => Node::Null,
            _ => self.variable(ty),
        }
    }

    fn call(&mut self, name: &str, args: Vec<Node>, expand: bool) -> Node {
        let name = if self.abilities.namespaced_functions && self.rng.chance(8) {
            let namespace =
                self.rng
                    .pick(&["core::", "provider::conformance::", "core::", "other::"]);
            format!("{namespace}{name}")
        } else {
            name.to_string()
        };
        Node::Call { name, args, expand }
    }

    fn number_expr(&mut self, d: usize) -> Node {
        match self.rng.below(8) {
            0 | 1 => {
                let op = *self.rng.pick(ARITHMETIC);
                let a = self.expr(&Type::Number, d);
                Node::Binary(op, Box::new(a), Box::new(self.expr(&Type::Number, d)))
            }
            2 => Node::Unary("-", Box::new(self.expr(&Type::Number, d))),
            3 => {
                let arg = self.expr(&Type::Number, d);
                self.call("abs", vec![arg], false)
            }
            4 => {
                let name = *self.rng.pick(&["min", "max"]);
                if self.rng.chance(3) {
                    let n = self.rng.below(3);
                    let list = self.expr(&Type::Tuple(vec![Type::Number; n]), d);
                    self.call(name, vec![list], true)
                } else {
                    let args = (0..self.rng.below(3))
                        .map(|_| self.expr(&Type::Number, d))
                        .collect();
                    self.call(name, args, false)
                }
            }
            5 => {
                let ty = self.any_type(2);
                let arg = self.expr(&ty, d);
                self.call("length", vec![arg], false)
            }
            _ => self.leaf(&Type::Number),
        }
    }

    fn bool_expr(&mut self, d: usize) -> Node {
        match self.rng.below(5) {
            0 => {
                let op = *self.rng.pick(COMPARISON);
                Node::Binary(
                    op,
                    Box::new(self.expr(&Type::Number, d)),
                    Box::new(self.expr(&Type::Number, d)),
                )
            }
            1 => {
                let op = *self.rng.pick(EQUALITY);
                let (a, b) = (self.any_type(1), self.any_type(1));
                let a = self.expr(&a, d);
                Node::Binary(op, Box::new(a), Box::new(self.expr(&b, d)))
            }
            2 => {
                let op = *self.rng.pick(LOGIC);
                Node::Binary(
                    op,
                    Box::new(self.expr(&Type::Bool, d)),
                    Box::new(self.expr(&Type::Bool, d)),
                )
            }
            3 => Node::Unary("!", Box::new(self.expr(&Type::Bool, d))),
            _ => self.leaf(&Type::Bool),
        }
    }

    fn string_expr(&mut self, d: usize) -> Node {
        match self.rng.below(6) {
            0 | 1 => Node::Quoted(self.parts(d, false)),
            2 => {
                let parts = self.parts(d, true);
                self.heredoc(parts)
            }
            3 => {
                let name = *self.rng.pick(&["upper", "lower"]);
                let arg = self.expr(&Type::String, d);
                self.call(name, vec![arg], false)
            }
            4 => {
                let separator = self.expr(&Type::String, d);
                let lists = (0..1 + self.rng.below(2))
                    .map(|_| {
                        let ty = if self.abilities.exact_types {
                            Type::list(Type::String)
                        } else {
                            Type::Tuple(vec![Type::String; 2])
                        };
                        self.expr(&ty, d)
                    })
                    .collect::<Vec<_>>();
                let expand = self.rng.chance(4);
                let lists = if expand {
                    vec![Node::Tuple(lists)]
                } else {
                    lists
                };
                let mut args = vec![separator];
                args.extend(lists);
                self.call("join", args, expand)
            }
            _ => self.leaf(&Type::String),
        }
    }

    fn heredoc(&mut self, parts: Vec<Part>) -> Node {
        let indent = self.rng.pick(&["", "  ", "    ", "\t", " \t"]).to_string();
        let close_indent = if self.rng.chance(2) {
            indent.clone()
        } else {
            self.rng.pick(&["", " ", "      "]).to_string()
        };
        Node::Heredoc(Heredoc {
            flush: self.rng.chance(2),
            marker: self.rng.pick(&["EOT", "END", "X_1"]).to_string(),
            indent,
            close_indent,
            parts,
        })
    }

    /// Template parts; with `lines`, literals with newlines and their own
    /// indentation (heredocs, template files).
    fn parts(&mut self, depth: usize, lines: bool) -> Vec<Part> {
        let n = 1 + self.rng.below(4);
        (0..n).map(|_| self.part(depth, lines)).collect()
    }

    fn part(&mut self, depth: usize, lines: bool) -> Part {
        let d = depth.saturating_sub(1);
        let strip = |g: &mut Self| g.rng.chance(3);
        match self.rng.below(if depth == 0 { 2 } else { 6 }) {
            0 => {
                let mut text = self.text(3);
                if lines && self.rng.chance(2) {
                    let indent = *self.rng.pick(&["", " ", "  ", "\t", "    "]);
                    text = format!("{text}\n{indent}{}", self.text(2));
                }
                Part::Literal {
                    text,
                    unicode_escapes: self.rng.chance(5),
                }
            }
            1 | 2 => {
                let ty = self.primitive_type();
                Part::Interpolation {
                    expr: self.expr(&ty, d),
                    strip: [strip(self), strip(self)],
                }
            }
            3 => {
                let then = self.parts(d, lines);
                let otherwise = self.rng.chance(2).then(|| self.parts(d, lines));
                Part::If {
                    condition: self.expr(&Type::Bool, d),
                    then,
                    otherwise,
                    strip: std::array::from_fn(|_| strip(self)),
                }
            }
            _ => {
                let element = self.primitive_type();
                let collection = self.collection_of(&element, d);
                let key_var = self.rng.chance(3).then(|| "k".to_string());
                self.bound.push(("v".into(), element));
                let body = self.parts(d, lines);
                self.bound.pop();
                Part::For {
                    key_var,
                    value_var: "v".into(),
                    collection,
                    body,
                    strip: std::array::from_fn(|_| strip(self)),
                }
            }
        }
    }

    /// An expression yielding a collection of elements of type `element`.
    fn collection_of(&mut self, element: &Type, d: usize) -> Node {
        let n = self.rng.below(3);
        match self.rng.below(3) {
            0 if self.abilities.exact_types => self.variable(&Type::list(element.clone())),
            1 => self.variable(&Type::Tuple(vec![element.clone(); n])),
            _ => Node::Tuple((0..n).map(|_| self.expr(element, d)).collect()),
        }
    }

    /// `collection[key]` or `object.attr` yielding `ty`.
    fn index_into(&mut self, ty: &Type, d: usize) -> Node {
        match self.rng.below(3) {
            0 => {
                let object = self.expr(&Type::object([("a", ty.clone())]), d);
                Node::GetAttr(Box::new(object), "a".into())
            }
            1 => {
                let other = self.any_type(1);
                let tuple = self.expr(&Type::Tuple(vec![ty.clone(), other]), d);
                let key = if self.rng.chance(4) {
                    Node::Quoted(vec![Part::Literal {
                        text: "0".into(),
                        unicode_escapes: false,
                    }])
                } else {
                    Node::Number(self.rng.pick(&["0", "1", "2", "0.5"]).to_string())
                };
                Node::Index(Box::new(tuple), Box::new(key))
            }
            _ => {
                let ty = if self.abilities.exact_types {
                    Type::map(ty.clone())
                } else {
                    Type::object([("b", ty.clone())])
                };
                let map = self.variable(&ty);
                Node::Index(Box::new(map), Box::new(self.expr(&Type::String, d)))
            }
        }
    }

    /// A splat: over a collection of objects, a single object, null or an
    /// unknown; sometimes nested in another splat.
    fn splat(&mut self, ty: &Type, d: usize) -> Node {
        let inner = Type::object([("a", ty.clone())]);
        let source = match self.rng.below(5) {
            0 => Node::Null,
            1 => self.variable(&inner),
            2 if self.abilities.exact_types => self.variable(&Type::list(inner)),
            _ => {
                let n = self.rng.below(3);
                self.variable(&Type::Tuple(vec![inner; n]))
            }
        };
        let full = !self.rng.chance(4);
        let mut steps = vec![Step::Attr("a".into())];
        if full && self.rng.chance(4) {
            steps.push(Step::Index(Node::Number("0".into())));
        }
        let splat = Node::Splat {
            source: Box::new(source),
            full,
            steps,
        };
        if d > 0 && self.rng.chance(3) {
            // Nested: the result's elements splatted again.
            Node::Splat {
                source: Box::new(splat),
                full: true,
                steps: vec![Step::Attr("a".into())],
            }
        } else {
            splat
        }
    }

    /// A tuple-yielding construct: a `for`, a splat, `concat`, `keys`.
    fn tuple_producer(&mut self, d: usize) -> Node {
        match self.rng.below(4) {
            0 => {
                let element = self.primitive_type();
                let collection = self.collection_of(&element, d);
                let key_var = self.rng.chance(3).then(|| "i".to_string());
                self.bound.push(("v".into(), element.clone()));
                let ty = self.any_type(1);
                let value = self.expr(&ty, d);
                let condition = self.rng.chance(3).then(|| self.expr(&Type::Bool, d));
                self.bound.pop();
                Node::For(Box::new(super::tree::For {
                    key_var,
                    value_var: "v".into(),
                    collection,
                    key: None,
                    value,
                    group: false,
                    condition,
                }))
            }
            1 => {
                let ty = self.primitive_type();
                self.splat(&ty, d)
            }
            2 => {
                let args = (0..self.rng.below(3))
                    .map(|_| self.expr(&Type::Tuple(vec![Type::Number; 2]), d))
                    .collect();
                self.call("concat", args, false)
            }
            _ => {
                let ty = self.any_type(2);
                let arg = self.expr(&ty, d);
                self.call("keys", vec![arg], false)
            }
        }
    }

    /// An object `for`, sometimes grouping, sometimes with duplicate keys.
    fn object_for(&mut self, d: usize) -> Node {
        let element = self.primitive_type();
        let collection = self.collection_of(&element, d);
        self.bound.push(("v".into(), element));
        let key = if self.rng.chance(2) {
            Node::Variable("v".into())
        } else {
            self.expr(&Type::String, d)
        };
        let ty = self.any_type(1);
        let value = self.expr(&ty, d);
        let condition = self.rng.chance(3).then(|| self.expr(&Type::Bool, d));
        self.bound.pop();
        Node::For(Box::new(super::tree::For {
            key_var: self.rng.chance(3).then(|| "k".to_string()),
            value_var: "v".into(),
            collection,
            key: Some(key),
            value,
            group: self.rng.chance(3),
            condition,
        }))
    }

    /// A native body: attributes (a name sometimes twice) and blocks with
    /// labels, `depth` levels of blocks at most.
    fn body(&mut self, depth: usize) -> Vec<Item> {
        (0..self.rng.below(4))
            .map(|_| {
                if depth > 0 && self.rng.chance(3) {
                    let labels = (0..self.rng.below(3))
                        .map(|_| {
                            if self.rng.chance(2) {
                                Label::Quoted(self.text(2))
                            } else {
                                Label::Name(self.name().into())
                            }
                        })
                        .collect();
                    let body = self.body(depth - 1);
                    let one_line = body.len() <= 1
                        && matches!(body.as_slice(), [] | [Item::Attribute(..)])
                        && self.rng.chance(2);
                    Item::Block {
                        kind: self.name().into(),
                        labels,
                        body,
                        one_line,
                    }
                } else {
                    let ty = self.any_type(1);
                    let depth = 1 + self.rng.below(3);
                    Item::Attribute(self.name().into(), self.expr(&ty, depth))
                }
            })
            .collect()
    }

    /// A body schema that fits `items`, or nearly: an attribute sometimes
    /// left out or required though absent, a block's labels miscounted, a
    /// remaining body sometimes (spec.md#schema-driven-processing).
    fn schema_of_items(&mut self, items: &[Item], depth: usize) -> Schema {
        if depth == 0 || self.rng.chance(5) {
            return Schema::Mode("attributes".into());
        }
        let mut body = SchemaBody {
            attributes: Vec::new(),
            blocks: Vec::new(),
            remain: None,
        };
        for item in items {
            if self.rng.chance(8) {
                continue;
            }
            match item {
                Item::Attribute(name, _) => {
                    if !body.attributes.iter().any(|a| a.name.0 == *name) {
                        body.attributes.push(AttributeEntry {
                            name: Text(name.clone()),
                            required: self.rng.chance(2),
                        });
                    }
                }
                Item::Block {
                    kind,
                    labels,
                    body: inner,
                    ..
                } => {
                    if body.blocks.iter().any(|b| b.type_name.0 == *kind) {
                        continue;
                    }
                    let count = match self.rng.below(8) {
                        0 => labels.len() + 1,
                        1 => labels.len().saturating_sub(1),
                        _ => labels.len(),
                    };
                    let labels = (0..count).map(|i| Text(format!("label{i}"))).collect();
                    let inner = self.schema_of_items(inner, depth - 1);
                    body.blocks.push(BlockEntry {
                        type_name: Text(kind.clone()),
                        labels,
                        body: Box::new(inner),
                    });
                }
            }
        }
        if self.rng.chance(6) {
            body.attributes.push(AttributeEntry {
                name: Text(self.name().into()),
                required: true,
            });
        }
        if self.rng.chance(4) {
            body.remain = Some(Box::new(Schema::Mode("attributes".into())));
        }
        Schema::Body(body)
    }

    /// A schema for a JSON body: some members read as blocks (json-spec.md#blocks).
    fn schema_of_members(&mut self, members: &[(String, Json)]) -> Schema {
        let mut body = SchemaBody {
            attributes: Vec::new(),
            blocks: Vec::new(),
            remain: None,
        };
        for (name, value) in members {
            if body.attributes.iter().any(|a| a.name.0 == *name)
                || body.blocks.iter().any(|b| b.type_name.0 == *name)
            {
                continue;
            }
            if matches!(value, Json::Object(_) | Json::Array(_)) && self.rng.chance(2) {
                let labels = (0..self.rng.below(2))
                    .map(|i| Text(format!("label{i}")))
                    .collect();
                body.blocks.push(BlockEntry {
                    type_name: Text(name.clone()),
                    labels,
                    body: Box::new(Schema::Mode("attributes".into())),
                });
            } else if !self.rng.chance(8) {
                body.attributes.push(AttributeEntry {
                    name: Text(name.clone()),
                    required: self.rng.chance(2),
                });
            }
        }
        if self.rng.chance(4) {
            body.remain = Some(Box::new(Schema::Mode("attributes".into())));
        }
        Schema::Body(body)
    }

    /// A JSON value whose strings are templates.
    fn json(&mut self, depth: usize) -> Json {
        match self.rng.below(if depth == 0 { 4 } else { 6 }) {
            0 => Json::String(self.parts(1, true)),
            1 => Json::Number(self.number_literal()),
            2 => Json::Bool(self.rng.chance(2)),
            3 => Json::Null,
            4 => Json::Array(
                (0..self.rng.below(3))
                    .map(|_| self.json(depth - 1))
                    .collect(),
            ),
            _ => Json::Object(
                (0..self.rng.below(3))
                    .map(|_| {
                        let name = if self.rng.chance(4) {
                            "${a}".to_string()
                        } else {
                            self.name().to_string()
                        };
                        (name, self.json(depth - 1))
                    })
                    .collect(),
            ),
        }
    }
}
