//! Shrinking: a disagreement's input made smaller, one step at a time, on
//! the syntax tree (a node replaced by one of its children or by a plain
//! literal, an element, argument, part, item or variable taken out, a
//! text shortened, a value simplified), keeping each step that still
//! disagrees the same way, until no step does.

use super::decide::{trial, Trial};
use super::tree::{self, Item, Json, Key, Node, Part, Step};
use super::{FuzzSettings, Input};
use crate::verdict::CaseRecord;
use hcl_interpreter::{Type, Value};

/// A shrunk disagreement: the smallest input found, its size in tokens,
/// and its verdict.
pub struct Shrunk {
    pub input: Input,
    pub tokens: usize,
    pub record: CaseRecord,
}

/// How big an input is: its tokens, then the length of its text and of
/// its values and types, as the request writes them.
fn size(input: &Input) -> (usize, usize) {
    let request = input.request();
    let written = serde_json::to_string(&request.input).map_or(0, |t| t.len());
    (request.tokens, written)
}

/// Shrinks `input`, which disagrees with the reference as `difference`
/// says, trying at most `settings.shrink_limit` candidates.
pub fn shrink(
    input: Input,
    difference: &str,
    record: CaseRecord,
    settings: &FuzzSettings,
) -> Shrunk {
    let (mut best, mut best_size, mut record) = (pruned(input.clone()), size(&input), record);
    // The pruned input (its unused variables left out) may not disagree.
    if best != input {
        match trial(&best, settings) {
            Trial::Disagreed {
                difference: d,
                record: r,
            } if d == difference => {
                best_size = size(&best);
                record = *r;
            }
            _ => best = input,
        }
    }
    let mut tried = 0;
    'smaller: loop {
        let mut candidates: Vec<((usize, usize), Input)> = candidates(&best)
            .into_iter()
            .map(pruned)
            .map(|c| (size(&c), c))
            .filter(|(s, _)| *s < best_size)
            .collect();
        candidates.sort_by_key(|(s, _)| *s);
        candidates.dedup_by(|a, b| a.1 == b.1);
        for (s, candidate) in candidates {
            if tried >= settings.shrink_limit {
                break 'smaller;
            }
            tried += 1;
            if let Trial::Disagreed {
                difference: d,
                record: r,
            } = trial(&candidate, settings)
            {
                if d == difference {
                    (best, best_size, record) = (candidate, s, *r);
                    continue 'smaller;
                }
            }
        }
        break;
    }
    Shrunk {
        tokens: best_size.0,
        input: best,
        record,
    }
}

/// The input without the variables its source does not name.
fn pruned(mut input: Input) -> Input {
    let mut named = Vec::new();
    match &input {
        Input::Expr { node, .. } => node.variables(&mut named),
        Input::Template { parts, .. } => tree::parts_nodes(parts)
            .iter()
            .for_each(|n| n.variables(&mut named)),
        Input::Config { items, .. } => items
            .iter()
            .flat_map(Item::nodes)
            .for_each(|n| n.variables(&mut named)),
        Input::Json { json, .. } => json
            .templates()
            .into_iter()
            .flat_map(|t| tree::parts_nodes(t))
            .for_each(|n| n.variables(&mut named)),
        _ => {}
    }
    if let Some(variables) = input.variables_mut() {
        variables.retain(|name, _| named.contains(name));
    }
    input
}

/// Every input one step smaller than `input`.
fn candidates(input: &Input) -> Vec<Input> {
    let mut out = Vec::new();
    match input {
        Input::Expr { node, variables } => {
            out.extend(node_shrinks(node).into_iter().map(|node| Input::Expr {
                node,
                variables: variables.clone(),
            }));
        }
        Input::Template { parts, variables } => {
            for parts in parts_shrinks(parts) {
                out.push(Input::Template {
                    parts,
                    variables: variables.clone(),
                });
            }
        }
        Input::Config {
            items,
            variables,
            schema,
        } => {
            for items in items_shrinks(items) {
                out.push(Input::Config {
                    items,
                    variables: variables.clone(),
                    schema: schema.clone(),
                });
            }
        }
        Input::Json {
            json,
            variables,
            schema,
        } => {
            for json in json_shrinks(json) {
                out.push(Input::Json {
                    json,
                    variables: variables.clone(),
                    schema: schema.clone(),
                });
            }
        }
        Input::Convert { value, to } => {
            out.extend(
                value_shrinks(value)
                    .into_iter()
                    .map(|value| Input::Convert {
                        value,
                        to: to.clone(),
                    }),
            );
            out.extend(type_shrinks(to).into_iter().map(|to| Input::Convert {
                value: value.clone(),
                to,
            }));
        }
        Input::Operation { op, operands } => {
            for (i, operand) in operands.iter().enumerate() {
                for s in value_shrinks(operand) {
                    let mut operands = operands.clone();
                    operands[i] = s;
                    out.push(Input::Operation { op, operands });
                }
            }
        }
        Input::Unify { types } => {
            for i in 0..types.len() {
                if types.len() > 1 {
                    let mut fewer = types.clone();
                    fewer.remove(i);
                    out.push(Input::Unify { types: fewer });
                }
                for s in type_shrinks(&types[i]) {
                    let mut types = types.clone();
                    types[i] = s;
                    out.push(Input::Unify { types });
                }
            }
        }
    }
    // The variables' values, simpler.
    if let Some(variables) = input.variables() {
        for (name, value) in variables {
            for s in value_shrinks(value) {
                let mut simpler = input.clone();
                if let Some(v) = simpler.variables_mut() {
                    v.insert(name.clone(), s);
                }
                out.push(simpler);
            }
        }
    }
    out
}

/// The plain literals a node may become.
fn literals() -> [Node; 5] {
    [
        Node::Null,
        Node::Number("0".into()),
        Node::Bool(true),
        Node::Quoted(Vec::new()),
        Node::Tuple(Vec::new()),
    ]
}

/// Every node one step smaller than `node`.
fn node_shrinks(node: &Node) -> Vec<Node> {
    let mut out: Vec<Node> = node.children().into_iter().cloned().collect();
    out.extend(literals().into_iter().filter(|l| l != node));
    let without = |items: &Vec<Node>, i: usize| {
        let mut fewer = items.clone();
        fewer.remove(i);
        fewer
    };
    match node {
        Node::Number(n) if n.len() > 1 => out.push(Node::Number("1".into())),
        Node::Tuple(elements) => {
            out.extend((0..elements.len()).map(|i| Node::Tuple(without(elements, i))))
        }
        Node::Object(entries) => {
            for i in 0..entries.len() {
                let mut fewer = entries.clone();
                fewer.remove(i);
                out.push(Node::Object(fewer));
                if let (Key::Expr(_), value) = &entries[i] {
                    let mut named = entries.clone();
                    named[i] = (Key::Name("a".into()), value.clone());
                    out.push(Node::Object(named));
                }
            }
        }
        Node::Call { name, args, expand } => {
            for i in 0..args.len() {
                out.push(Node::Call {
                    name: name.clone(),
                    args: without(args, i),
                    expand: *expand,
                });
            }
            if *expand {
                out.push(Node::Call {
                    name: name.clone(),
                    args: args.clone(),
                    expand: false,
                });
            }
            if let Some((_, plain)) = name.rsplit_once("::") {
                out.push(Node::Call {
                    name: plain.into(),
                    args: args.clone(),
                    expand: *expand,
                });
            }
        }
        Node::For(f) => {
            let mut simpler = |change: &dyn Fn(&mut tree::For)| {
                let mut g = f.clone();
                change(&mut g);
                if g != *f {
                    out.push(Node::For(g));
                }
            };
            simpler(&|g| g.condition = None);
            simpler(&|g| g.key_var = None);
            simpler(&|g| g.group = false);
        }
        Node::Splat {
            source,
            full,
            steps,
        } => {
            for i in 0..steps.len() {
                let mut fewer = steps.clone();
                fewer.remove(i);
                out.push(Node::Splat {
                    source: source.clone(),
                    full: *full,
                    steps: fewer,
                });
            }
            if steps.iter().any(|s| matches!(s, Step::Index(_))) && !*full {
                out.push(Node::Splat {
                    source: source.clone(),
                    full: true,
                    steps: steps.clone(),
                });
            }
        }
        Node::Quoted(parts) => out.extend(parts_shrinks(parts).into_iter().map(Node::Quoted)),
        Node::Heredoc(h) => {
            for parts in parts_shrinks(&h.parts) {
                out.push(Node::Heredoc(tree::Heredoc { parts, ..h.clone() }));
            }
            if !h.indent.is_empty() {
                out.push(Node::Heredoc(tree::Heredoc {
                    indent: String::new(),
                    ..h.clone()
                }));
            }
            if !h.close_indent.is_empty() {
                out.push(Node::Heredoc(tree::Heredoc {
                    close_indent: String::new(),
                    ..h.clone()
                }));
            }
            out.push(Node::Quoted(h.parts.clone()));
        }
        _ => {}
    }
    // Each child, one step smaller, in place.
    for (i, child) in node.children().into_iter().enumerate() {
        for s in node_shrinks(child) {
            let mut copy = node.clone();
            if let Some(slot) = copy.children_mut().into_iter().nth(i) {
                *slot = s;
            }
            out.push(copy);
        }
    }
    out
}

/// Every list of template parts one step smaller than `parts`, the
/// expressions inside them included.
fn parts_shrinks(parts: &[Part]) -> Vec<Vec<Part>> {
    let mut out = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let replaced = |with: Vec<Part>| {
            let mut copy = parts[..i].to_vec();
            copy.extend(with);
            copy.extend_from_slice(&parts[i + 1..]);
            copy
        };
        // The part with one of its fields changed, in place.
        let changed = |change: &dyn Fn(&mut Part)| {
            let mut copy = part.clone();
            change(&mut copy);
            replaced(vec![copy])
        };
        out.push(replaced(Vec::new()));
        match part {
            Part::Literal {
                text,
                unicode_escapes,
            } => {
                let chars: Vec<char> = text.chars().collect();
                let pieces = [
                    chars.get(1..).unwrap_or_default(),
                    chars
                        .get(..chars.len().saturating_sub(1))
                        .unwrap_or_default(),
                    &chars[..chars.len() / 2],
                    &chars[chars.len() / 2..],
                ];
                for piece in pieces {
                    if !piece.is_empty() && piece.len() < chars.len() {
                        out.push(replaced(vec![Part::Literal {
                            text: piece.iter().collect(),
                            unicode_escapes: *unicode_escapes,
                        }]));
                    }
                }
                if *unicode_escapes {
                    out.push(replaced(vec![Part::Literal {
                        text: text.clone(),
                        unicode_escapes: false,
                    }]));
                }
            }
            Part::Interpolation { expr, strip } => {
                if strip.contains(&true) {
                    out.push(replaced(vec![Part::Interpolation {
                        expr: expr.clone(),
                        strip: [false; 2],
                    }]));
                }
            }
            Part::If {
                then, otherwise, ..
            } => {
                out.push(replaced(then.clone()));
                if let Some(o) = otherwise {
                    out.push(replaced(o.clone()));
                    out.push(changed(&|p| {
                        if let Part::If { otherwise, .. } = p {
                            *otherwise = None;
                        }
                    }));
                }
                for t in parts_shrinks(then) {
                    out.push(changed(&|p| {
                        if let Part::If { then, .. } = p {
                            *then = t.clone();
                        }
                    }));
                }
                for o in otherwise.iter().flat_map(|o| parts_shrinks(o)) {
                    out.push(changed(&|p| {
                        if let Part::If { otherwise, .. } = p {
                            *otherwise = Some(o.clone());
                        }
                    }));
                }
                out.extend(
                    fewer_strip_markers(part)
                        .into_iter()
                        .map(|p| replaced(vec![p])),
                );
            }
            Part::For { body, .. } => {
                out.push(replaced(body.clone()));
                for b in parts_shrinks(body) {
                    out.push(changed(&|p| {
                        if let Part::For { body, .. } = p {
                            *body = b.clone();
                        }
                    }));
                }
                out.extend(
                    fewer_strip_markers(part)
                        .into_iter()
                        .map(|p| replaced(vec![p])),
                );
            }
        }
    }
    // The expressions inside, one step smaller.
    for (i, node) in tree::parts_nodes(parts).into_iter().enumerate() {
        for s in node_shrinks(node) {
            let mut copy = parts.to_vec();
            if let Some(slot) = tree::parts_nodes_mut(&mut copy).into_iter().nth(i) {
                *slot = s;
            }
            out.push(copy);
        }
    }
    out
}

/// A directive with one of its strip markers taken out, for each it has.
fn fewer_strip_markers(part: &Part) -> Vec<Part> {
    fn markers(p: &mut Part) -> Option<&mut [bool]> {
        match p {
            Part::If { strip, .. } => Some(strip),
            Part::For { strip, .. } => Some(strip),
            _ => None,
        }
    }
    let count = markers(&mut part.clone()).map_or(0, |m| m.len());
    (0..count)
        .filter_map(|k| {
            let mut copy = part.clone();
            let marker = markers(&mut copy)?.get_mut(k)?;
            std::mem::replace(marker, false).then_some(copy)
        })
        .collect()
}

/// Every body one step smaller than `items`.
fn items_shrinks(items: &[Item]) -> Vec<Vec<Item>> {
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let replaced = |with: Vec<Item>| {
            let mut copy = items[..i].to_vec();
            copy.extend(with);
            copy.extend_from_slice(&items[i + 1..]);
            copy
        };
        out.push(replaced(Vec::new()));
        match item {
            Item::Attribute(name, value) => {
                for s in node_shrinks(value) {
                    out.push(replaced(vec![Item::Attribute(name.clone(), s)]));
                }
            }
            Item::Block {
                kind,
                labels,
                body,
                one_line,
            } => {
                out.push(replaced(body.clone()));
                for k in 0..labels.len() {
                    let mut fewer = labels.clone();
                    fewer.remove(k);
                    out.push(replaced(vec![Item::Block {
                        kind: kind.clone(),
                        labels: fewer,
                        body: body.clone(),
                        one_line: *one_line,
                    }]));
                }
                if *one_line {
                    out.push(replaced(vec![Item::Block {
                        kind: kind.clone(),
                        labels: labels.clone(),
                        body: body.clone(),
                        one_line: false,
                    }]));
                }
                for b in items_shrinks(body) {
                    out.push(replaced(vec![Item::Block {
                        kind: kind.clone(),
                        labels: labels.clone(),
                        body: b,
                        one_line: *one_line,
                    }]));
                }
            }
        }
    }
    out
}

/// Every JSON value one step smaller than `json`.
fn json_shrinks(json: &Json) -> Vec<Json> {
    let mut out = Vec::new();
    if *json != Json::Null {
        out.push(Json::Null);
    }
    match json {
        Json::Object(members) => {
            for (i, (name, value)) in members.iter().enumerate() {
                let mut fewer = members.clone();
                fewer.remove(i);
                out.push(Json::Object(fewer));
                out.push(value.clone());
                for s in json_shrinks(value) {
                    let mut copy = members.clone();
                    copy[i] = (name.clone(), s);
                    out.push(Json::Object(copy));
                }
            }
        }
        Json::Array(elements) => {
            for (i, e) in elements.iter().enumerate() {
                let mut fewer = elements.clone();
                fewer.remove(i);
                out.push(Json::Array(fewer));
                out.push(e.clone());
                for s in json_shrinks(e) {
                    let mut copy = elements.clone();
                    copy[i] = s;
                    out.push(Json::Array(copy));
                }
            }
        }
        Json::String(parts) => out.extend(parts_shrinks(parts).into_iter().map(Json::String)),
        _ => {}
    }
    out
}

/// Every value one step simpler than `value`, of the same type or of a
/// smaller one.
fn value_shrinks(value: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let ty = value.ty();
    if !matches!(value, Value::Null(_)) {
        out.push(Value::Null(ty.clone()));
    }
    match value {
        Value::String(s) if !s.is_empty() => {
            out.push(Value::String(String::new()));
            let chars: Vec<char> = s.chars().collect();
            if chars.len() > 1 {
                out.push(Value::string_owned(
                    chars[..chars.len() / 2].iter().collect(),
                ));
                out.push(Value::string_owned(
                    chars[chars.len() / 2..].iter().collect(),
                ));
            }
        }
        Value::Number(n) if n.to_i64() != Some(0) => {
            out.push(Value::Number(hcl_interpreter::number::Number::zero()))
        }
        Value::List(t, e) | Value::Set(t, e) => {
            for i in 0..e.len() {
                let mut fewer = e.clone();
                fewer.remove(i);
                out.push(if matches!(value, Value::List(..)) {
                    Value::List(t.clone(), fewer)
                } else {
                    Value::Set(t.clone(), fewer)
                });
                for s in value_shrinks(&e[i]).into_iter().filter(|s| s.ty() == *t) {
                    let mut copy = e.clone();
                    copy[i] = s;
                    out.extend(if matches!(value, Value::List(..)) {
                        Value::list(t.clone(), copy).ok()
                    } else {
                        Value::set(t.clone(), copy).ok()
                    });
                }
            }
        }
        Value::Tuple(e) => {
            for i in 0..e.len() {
                let mut fewer = e.clone();
                fewer.remove(i);
                out.push(Value::Tuple(fewer));
                for s in value_shrinks(&e[i]) {
                    let mut copy = e.clone();
                    copy[i] = s;
                    out.push(Value::Tuple(copy));
                }
            }
        }
        Value::Map(t, e) => {
            for (k, v) in e {
                let mut fewer = e.clone();
                fewer.remove(k);
                out.push(Value::Map(t.clone(), fewer));
                for s in value_shrinks(v).into_iter().filter(|s| s.ty() == *t) {
                    let mut copy = e.clone();
                    copy.insert(k.clone(), s);
                    out.push(Value::Map(t.clone(), copy));
                }
            }
        }
        Value::Object(e) => {
            for (k, v) in e {
                let mut fewer = e.clone();
                fewer.remove(k);
                out.push(Value::Object(fewer));
                for s in value_shrinks(v) {
                    let mut copy = e.clone();
                    copy.insert(k.clone(), s);
                    out.push(Value::Object(copy));
                }
            }
        }
        _ => {}
    }
    out
}

/// Every type one step simpler than `ty`.
fn type_shrinks(ty: &Type) -> Vec<Type> {
    let mut out = Vec::new();
    match ty {
        Type::String => {}
        Type::List(e) | Type::Set(e) | Type::Map(e) => {
            out.push((**e).clone());
            out.push(Type::String);
        }
        Type::Tuple(e) => {
            out.push(Type::String);
            for i in 0..e.len() {
                let mut fewer = e.clone();
                fewer.remove(i);
                out.push(Type::Tuple(fewer));
            }
        }
        Type::Object(a) => {
            out.push(Type::String);
            for k in a.keys() {
                let mut fewer = a.clone();
                fewer.remove(k);
                out.push(Type::Object(fewer));
            }
        }
        _ => out.push(Type::String),
    }
    out
}
