//! Generative conformance (`hcl-conformance fuzz`): inputs nobody wrote,
//! generated from a small syntax tree ([`tree`], [`generate`]), answered
//! by the reference and judged by the suite's grading ([`decide`]); every
//! disagreement shrunk to a minimal input that still disagrees the same
//! way ([`shrink`]) and grouped with those of the same construct and kind
//! of difference ([`cluster`]); each cluster written as a suite case marked
//! for review ([`findings`]).

pub mod cluster;
pub mod decide;
pub mod findings;
pub mod generate;
pub mod shrink;
pub mod tree;

use crate::run::Implementation;
use cluster::{Cluster, Clusters};
use decide::Trial;
use generate::{Abilities, GenKind};
use hcl_conformance_format::kinds::{self, Named, Schema, Syntax, Text};
use hcl_conformance_format::suite::yaml::{TypeText, TypedValue};
use hcl_conformance_format::suite::CaseInput;
use hcl_conformance_format::wire::Capabilities;
use hcl_interpreter::operations::Operation;
use hcl_interpreter::{Type, Value};
use hcl_random_inputs::Rng;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tree::{Item, Json, Node, Part, Writer};

/// A generated input, as a tree: what the fuzzer shrinks.
#[derive(Clone, Debug, PartialEq)]
pub enum Input {
    Expr {
        node: Node,
        variables: BTreeMap<String, Value>,
    },
    Template {
        parts: Vec<Part>,
        variables: BTreeMap<String, Value>,
    },
    Config {
        items: Vec<Item>,
        variables: BTreeMap<String, Value>,
        schema: Option<Schema>,
    },
    Json {
        json: Json,
        variables: BTreeMap<String, Value>,
        schema: Option<Schema>,
    },
    Convert {
        value: Value,
        to: Type,
    },
    Operation {
        op: &'static str,
        operands: Vec<Value>,
    },
    Unify {
        types: Vec<Type>,
    },
}

/// A generated input as a request: the case input, and the number of
/// tokens of its source (for values and types, of their JSON encoding's
/// scalars and brackets).
pub struct Request {
    pub input: CaseInput,
    pub tokens: usize,
}

impl Request {
    /// The source text of the request ("" for kinds without one).
    pub fn text(&self) -> &str {
        match &self.input {
            kinds::Input::Expr(e) => &e.expr.0,
            kinds::Input::Template(t) => &t.template.0,
            kinds::Input::Config(c) => &c.config.0,
            _ => "",
        }
    }
}

fn typed(variables: &BTreeMap<String, Value>) -> BTreeMap<Text, TypedValue> {
    variables
        .iter()
        .map(|(k, v)| (Text(k.clone()), TypedValue(v.clone())))
        .collect()
}

/// Tokens of a value: one a scalar, two a collection's brackets.
fn value_tokens(value: &Value) -> usize {
    match value {
        Value::List(_, e) | Value::Set(_, e) | Value::Tuple(e) => {
            2 + e.iter().map(value_tokens).sum::<usize>()
        }
        Value::Map(_, e) | Value::Object(e) => {
            2 + e.values().map(|v| 1 + value_tokens(v)).sum::<usize>()
        }
        _ => 1,
    }
}

fn type_tokens(ty: &Type) -> usize {
    match ty {
        Type::List(e) | Type::Set(e) | Type::Map(e) => 1 + type_tokens(e),
        Type::Tuple(e) => 1 + e.iter().map(type_tokens).sum::<usize>(),
        Type::Object(a) => 1 + a.values().map(|t| 1 + type_tokens(t)).sum::<usize>(),
        _ => 1,
    }
}

impl Input {
    pub fn kind(&self) -> GenKind {
        match self {
            Input::Expr { .. } => GenKind::Expr,
            Input::Template { .. } => GenKind::Template,
            Input::Config { .. } => GenKind::Config,
            Input::Json { .. } => GenKind::Json,
            Input::Convert { .. } => GenKind::Convert,
            Input::Operation { .. } => GenKind::Operation,
            Input::Unify { .. } => GenKind::Unify,
        }
    }

    /// The request this input makes.
    pub fn request(&self) -> Request {
        let mut w = Writer::default();
        let var_tokens = |v: &BTreeMap<String, Value>| v.values().map(value_tokens).sum::<usize>();
        let (input, extra) = match self {
            Input::Expr { node, variables } => {
                w.expr_top(node);
                let expr = kinds::Expr {
                    expr: Text(w.text.clone()),
                    variables: typed(variables),
                    extensions: Vec::new(),
                };
                (kinds::Input::Expr(expr), var_tokens(variables))
            }
            Input::Template { parts, variables } => {
                w.template(parts);
                let t = kinds::Template {
                    template: Text(w.text.clone()),
                    variables: typed(variables),
                };
                (kinds::Input::Template(t), var_tokens(variables))
            }
            Input::Config {
                items,
                variables,
                schema,
            } => {
                w.body(items, 0);
                (
                    config(Syntax::Native, &w.text, variables, schema),
                    var_tokens(variables),
                )
            }
            Input::Json {
                json,
                variables,
                schema,
            } => {
                w.json(json);
                (
                    config(Syntax::Json, &w.text, variables, schema),
                    var_tokens(variables),
                )
            }
            Input::Convert { value, to } => {
                let c = kinds::Convert {
                    value: TypedValue(value.clone()),
                    to: TypeText(to.clone()),
                };
                (
                    kinds::Input::Convert(c),
                    value_tokens(value) + type_tokens(to),
                )
            }
            Input::Operation { op, operands } => {
                let op = Operation::ALL
                    .iter()
                    .find(|o| o.name() == *op)
                    .copied()
                    .unwrap_or(Operation::ALL[0]);
                let o = kinds::Operation {
                    op: Named(op),
                    operands: operands.iter().cloned().map(TypedValue).collect(),
                };
                (
                    kinds::Input::Operation(o),
                    1 + operands.iter().map(value_tokens).sum::<usize>(),
                )
            }
            Input::Unify { types } => {
                let u = kinds::Unify {
                    types: types.iter().cloned().map(TypeText).collect(),
                };
                (kinds::Input::Unify(u), types.iter().map(type_tokens).sum())
            }
        };
        Request {
            input,
            tokens: w.tokens + extra,
        }
    }

    /// The constructs the input holds, by name: what clusters group by.
    pub fn constructs(&self) -> BTreeSet<&'static str> {
        let mut out = Vec::new();
        let nodes: Vec<&Node> = match self {
            Input::Expr { node, .. } => vec![node],
            Input::Template { parts, .. } => {
                tree::part_constructs(parts, &mut out);
                tree::parts_nodes(parts)
            }
            Input::Config { items, schema, .. } => {
                if schema.is_some() {
                    out.push("schema");
                }
                for item in items {
                    if let Item::Block { labels, .. } = item {
                        out.push(if labels.is_empty() {
                            "block"
                        } else {
                            "labelled-block"
                        });
                    }
                }
                if has_duplicates(items) {
                    out.push("duplicate-attribute");
                }
                items.iter().flat_map(Item::nodes).collect()
            }
            Input::Json { json, schema, .. } => {
                out.push("json");
                if schema.is_some() {
                    out.push("schema");
                }
                let templates = json.templates();
                for t in &templates {
                    tree::part_constructs(t, &mut out);
                }
                templates
                    .into_iter()
                    .flat_map(|t| tree::parts_nodes(t))
                    .collect()
            }
            Input::Convert { value, to } => {
                out.push("convert");
                out.push(FROM[class(&value.ty())]);
                out.push(TO[class(to)]);
                out.extend(value_state(value));
                Vec::new()
            }
            Input::Operation { op, operands } => {
                out.push(op);
                for o in operands {
                    out.push(CLASSES[class(&o.ty())]);
                    out.extend(value_state(o));
                }
                Vec::new()
            }
            Input::Unify { types } => {
                out.push("unify");
                out.extend(types.iter().map(|t| CLASSES[class(t)]));
                Vec::new()
            }
        };
        for node in nodes {
            node.constructs(&mut out);
        }
        if let Some(variables) = self.variables() {
            for v in variables.values() {
                match v {
                    Value::Null(_) => out.push("null-variable"),
                    Value::Unknown(_) => out.push("unknown-variable"),
                    _ => {}
                }
            }
        }
        out.into_iter().collect()
    }

    /// Whether the input holds a `/` or `%` (or is a `divide` or `modulo`
    /// operation).
    pub fn has_division(&self) -> bool {
        match self {
            Input::Operation { op, .. } => matches!(*op, "divide" | "modulo"),
            _ => {
                let mut found = false;
                self.each_node(&mut |n| found |= matches!(n, Node::Binary("/" | "%", ..)));
                found
            }
        }
    }

    /// Calls `f` with every expression of the input.
    fn each_node(&self, f: &mut dyn FnMut(&Node)) {
        fn walk(n: &Node, f: &mut dyn FnMut(&Node)) {
            f(n);
            n.children().into_iter().for_each(|c| walk(c, f));
        }
        let nodes: Vec<&Node> = match self {
            Input::Expr { node, .. } => vec![node],
            Input::Template { parts, .. } => tree::parts_nodes(parts),
            Input::Config { items, .. } => items.iter().flat_map(Item::nodes).collect(),
            Input::Json { json, .. } => json
                .templates()
                .into_iter()
                .flat_map(|t| tree::parts_nodes(t))
                .collect(),
            _ => Vec::new(),
        };
        nodes.into_iter().for_each(|n| walk(n, f));
    }

    /// Whether the input holds a `&&` or `||` (or is an `and` or `or`
    /// operation).
    pub fn has_logic(&self) -> bool {
        match self {
            Input::Operation { op, .. } => matches!(*op, "and" | "or"),
            _ => self.constructs().contains("logic"),
        }
    }

    /// The input with every `&&` and `||` evaluating only the operand
    /// that decides, when the other does (`a && b` as `a ? b : false`,
    /// `a || b` as `a ? true : b`); for an `and` or `or` operation whose
    /// one operand decides, that operand alone. `None` when nothing
    /// changes.
    pub fn short_circuited(&self) -> Option<Input> {
        let mut copy = self.clone();
        let changed = match &mut copy {
            Input::Expr { node, .. } => short_circuit(node),
            Input::Template { parts, .. } => tree::parts_nodes_mut(parts)
                .into_iter()
                .fold(false, |c, n| short_circuit(n) | c),
            Input::Config { items, .. } => items
                .iter_mut()
                .flat_map(Item::nodes_mut)
                .fold(false, |c, n| short_circuit(n) | c),
            Input::Json { json, .. } => json
                .templates_mut()
                .into_iter()
                .flat_map(|t| tree::parts_nodes_mut(t))
                .fold(false, |c, n| short_circuit(n) | c),
            Input::Operation { op, operands } => {
                let decides = Value::Bool(*op == "or");
                match operands.iter().position(|o| *o == decides) {
                    Some(i) if matches!(*op, "and" | "or") => {
                        let decided = operands[i].clone();
                        copy = Input::Operation {
                            op: if *op == "or" { "or" } else { "and" },
                            operands: vec![decided.clone(), decided],
                        };
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        };
        changed.then_some(copy)
    }

    pub fn variables(&self) -> Option<&BTreeMap<String, Value>> {
        match self {
            Input::Expr { variables, .. }
            | Input::Template { variables, .. }
            | Input::Config { variables, .. }
            | Input::Json { variables, .. } => Some(variables),
            _ => None,
        }
    }

    pub fn variables_mut(&mut self) -> Option<&mut BTreeMap<String, Value>> {
        match self {
            Input::Expr { variables, .. }
            | Input::Template { variables, .. }
            | Input::Config { variables, .. }
            | Input::Json { variables, .. } => Some(variables),
            _ => None,
        }
    }

    /// Whether a number of the input has a fraction (in its source or its
    /// values): then results are not pinned exactly ([`decide`]).
    pub fn has_inexact_numbers(&self) -> bool {
        let request = self.request();
        let text = request.text();
        let in_text = text
            .as_bytes()
            .windows(2)
            .any(|w| w[0].is_ascii_digit() && matches!(w[1], b'.' | b'e' | b'E'));
        in_text
            || match self {
                Input::Convert { value, .. } => has_fraction(value),
                Input::Operation { operands, .. } => operands.iter().any(has_fraction),
                _ => self
                    .variables()
                    .is_some_and(|v| v.values().any(has_fraction)),
            }
    }
}

/// Rewrites every `&&` and `||` in `node` to evaluate only the operand
/// that decides; whether anything changed.
fn short_circuit(node: &mut Node) -> bool {
    let mut changed = false;
    for child in node.children_mut() {
        changed |= short_circuit(child);
    }
    if let Node::Binary(op @ ("&&" | "||"), a, b) = node {
        let (a, b) = (
            std::mem::replace(&mut **a, Node::Null),
            std::mem::replace(&mut **b, Node::Null),
        );
        let paren = |n: Node| Node::Parenthesized(Box::new(n));
        *node = paren(Node::Conditional(Box::new(if *op == "&&" {
            [paren(a), paren(b), Node::Bool(false)]
        } else {
            [paren(a), Node::Bool(true), paren(b)]
        })));
        changed = true;
    }
    changed
}

fn has_fraction(value: &Value) -> bool {
    match value {
        Value::Number(n) => !n.is_integer(),
        // A string may become a number.
        Value::String(s) => s.contains(['.', 'e', 'E']),
        Value::List(_, e) | Value::Set(_, e) | Value::Tuple(e) => e.iter().any(has_fraction),
        Value::Map(_, e) | Value::Object(e) => e.values().any(has_fraction),
        _ => false,
    }
}

/// The classes of types that clusters of conversions, operations and
/// unifications tell apart, by [`class`].
const CLASSES: [&str; 4] = ["primitive", "dynamic", "collection", "structural"];
const FROM: [&str; 4] = [
    "from-primitive",
    "from-dynamic",
    "from-collection",
    "from-structural",
];
const TO: [&str; 4] = [
    "to-primitive",
    "to-dynamic",
    "to-collection",
    "to-structural",
];

/// A type's class: an index of [`CLASSES`].
fn class(ty: &Type) -> usize {
    match ty {
        Type::String | Type::Number | Type::Bool => 0,
        Type::Dynamic => 1,
        Type::List(_) | Type::Set(_) | Type::Map(_) => 2,
        Type::Tuple(_) | Type::Object(_) => 3,
    }
}

/// `null-value` or `unknown-value` for a null or unknown value, or one
/// holding such.
fn value_state(value: &Value) -> Option<&'static str> {
    fn holds(v: &Value, null: bool) -> bool {
        match v {
            Value::Null(_) => null,
            Value::Unknown(_) => !null,
            Value::List(_, e) | Value::Set(_, e) | Value::Tuple(e) => {
                e.iter().any(|v| holds(v, null))
            }
            Value::Map(_, e) | Value::Object(e) => e.values().any(|v| holds(v, null)),
            _ => false,
        }
    }
    if holds(value, false) {
        Some("unknown-value")
    } else if holds(value, true) {
        Some("null-value")
    } else {
        None
    }
}

fn has_duplicates(items: &[Item]) -> bool {
    let mut seen = BTreeSet::new();
    items
        .iter()
        .any(|i| matches!(i, Item::Attribute(name, _) if !seen.insert(name)))
        || items
            .iter()
            .any(|i| matches!(i, Item::Block { body, .. } if has_duplicates(body)))
}

fn config(
    syntax: Syntax,
    text: &str,
    variables: &BTreeMap<String, Value>,
    schema: &Option<Schema>,
) -> CaseInput {
    kinds::Input::Config(kinds::Config {
        syntax: Named(syntax),
        config: Text(text.to_string()),
        variables: typed(variables),
        extensions: Vec::new(),
        schema: schema.clone(),
        literal_only: false,
    })
}

/// What a fuzz run needs.
pub struct FuzzSettings {
    pub implementation: Implementation,
    /// `None` for the reference interpreter in-process.
    pub capabilities: Option<Capabilities>,
    pub profile: String,
    pub seed: u64,
    pub cases: Option<u64>,
    pub time: Option<Duration>,
    pub kinds: Vec<GenKind>,
    pub jobs: usize,
    /// Candidates tried when shrinking one disagreement, at most.
    pub shrink_limit: usize,
    /// Pin an error's source range to the reference's (`--ranges`).
    pub ranges: bool,
}

impl FuzzSettings {
    /// What the implementation claims to support, as the generator reads
    /// it; and the kinds it answers among those asked for.
    pub fn abilities(&self) -> Abilities {
        let Some(c) = &self.capabilities else {
            return Abilities::ALL;
        };
        let has = |f: &str| c.features.contains(f);
        use hcl_conformance_format::needs;
        Abilities {
            unknown: has(needs::UNKNOWN),
            exact_types: has(needs::EXACT_TYPES),
            big_numbers: has(needs::BIG_NUMBERS),
            namespaced_functions: has(needs::NAMESPACED_FUNCTIONS),
            schema: has(needs::SCHEMA),
        }
    }

    /// The kinds asked for that the implementation answers (and, for
    /// JSON, reads).
    pub fn supported_kinds(&self) -> Vec<GenKind> {
        let Some(c) = &self.capabilities else {
            return self.kinds.clone();
        };
        let json = c.syntaxes.as_ref().is_none_or(|s| s.contains("json"));
        let native = c.syntaxes.as_ref().is_none_or(|s| s.contains("native"));
        self.kinds
            .iter()
            .copied()
            .filter(|k| c.kinds.contains(k.request_kind()))
            .filter(|k| match k {
                GenKind::Json => json,
                GenKind::Config => native,
                _ => true,
            })
            .collect()
    }
}

/// The random generator of case `index` of a run seeded `seed`: the same
/// whatever the number of jobs (splitmix64 of both, never 0).
pub fn case_rng(seed: u64, index: u64) -> Rng {
    let mut z = seed.wrapping_add(index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    Rng((z ^ (z >> 31)) | 1)
}

/// The progress of a run, as the progress line shows it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    pub cases: u64,
    pub skipped: u64,
    pub disagreements: u64,
    pub clusters: usize,
    pub seconds: f64,
}

impl Progress {
    pub fn line(&self) -> String {
        let rate = self.cases as f64 / self.seconds.max(1e-9);
        format!(
            "{} cases ({} skipped), {} disagreements, {} clusters, {rate:.0} cases/s",
            self.cases, self.skipped, self.disagreements, self.clusters
        )
    }
}

/// What a run found.
pub struct Outcome {
    pub progress: Progress,
    pub clusters: Vec<Cluster>,
}

/// Runs the fuzzer: case after case on `jobs` threads until `cases` or
/// `time` is reached, each disagreement shrunk and clustered; `each`
/// sees the progress now and then.
pub fn run(settings: &FuzzSettings, each: &(dyn Fn(&Progress) + Sync)) -> Outcome {
    let kinds = settings.supported_kinds();
    let abilities = settings.abilities();
    let started = Instant::now();
    let (next, skipped, disagreements) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let done = AtomicBool::new(kinds.is_empty());
    let clusters = Mutex::new(Clusters::default());
    let last_shown = Mutex::new(Instant::now());
    let progress = |clusters: usize| Progress {
        cases: next
            .load(Ordering::Relaxed)
            .min(settings.cases.unwrap_or(u64::MAX)),
        skipped: skipped.load(Ordering::Relaxed),
        disagreements: disagreements.load(Ordering::Relaxed),
        clusters,
        seconds: started.elapsed().as_secs_f64(),
    };
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.max(1) {
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let out_of_time = settings.time.is_some_and(|t| started.elapsed() >= t);
                    if settings.cases.is_some_and(|n| index >= n) || out_of_time {
                        done.store(true, Ordering::Relaxed);
                        break;
                    }
                    let mut rng = case_rng(settings.seed, index);
                    let kind = *rng.pick(&kinds);
                    let input = generate::generate(&mut rng, kind, abilities);
                    match decide::trial(&input, settings) {
                        Trial::Agreed => {}
                        Trial::Skipped => {
                            skipped.fetch_add(1, Ordering::Relaxed);
                        }
                        Trial::Disagreed { difference, record } => {
                            disagreements.fetch_add(1, Ordering::Relaxed);
                            let lock = || clusters.lock().unwrap_or_else(|e| e.into_inner());
                            let known = lock().assign(&input, &difference);
                            if !known {
                                let shrunk = shrink::shrink(input, &difference, *record, settings);
                                lock().add(shrunk, difference, index);
                            }
                        }
                    }
                    let mut shown = last_shown.lock().unwrap_or_else(|e| e.into_inner());
                    if shown.elapsed() >= Duration::from_millis(500) {
                        *shown = Instant::now();
                        let n = clusters.lock().unwrap_or_else(|e| e.into_inner()).len();
                        each(&progress(n));
                    }
                }
            });
        }
    });
    let clusters = clusters
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_sorted();
    Outcome {
        progress: progress(clusters.len()),
        clusters,
    }
}
