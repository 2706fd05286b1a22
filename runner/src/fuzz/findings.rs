//! Findings become cases: `--out DIR` writes `DIR/fuzz.json` (the run and
//! its clusters, for scripts) and, for each cluster, `DIR/clusters/NNN-
//! SLUG.yaml`, a case file in the suite's format (suite/README.md): the
//! smallest input, the reference's answer as its expectation, and in its
//! description the implementation's answer and the cluster's size. Each is
//! marked for review: a person checks it against the spec and hashicorp/hcl
//! before it joins the suite, as for every case.

use super::cluster::Cluster;
use super::Input;
use crate::verdict::CaseRecord;
use hcl_conformance_format::kinds;
use hcl_conformance_format::suite::{Case, Expectation, Expected};
use hcl_conformance_format::values::ExpectedValue;
use hcl_interpreter::{Type, Value};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// `DIR/fuzz.json`.
#[derive(Serialize)]
pub struct Report<'a> {
    pub implementation: &'a str,
    pub profile: &'a str,
    pub seed: u64,
    pub cases: u64,
    pub skipped: u64,
    pub disagreements: u64,
    pub seconds: f64,
    pub clusters: Vec<ClusterReport>,
}

/// A cluster in `fuzz.json`.
#[derive(Serialize)]
pub struct ClusterReport {
    pub key: String,
    pub kind: &'static str,
    pub construct: Vec<&'static str>,
    pub difference: String,
    pub size: u64,
    pub tokens: usize,
    /// The smallest input's request, without its id.
    pub input: serde_json::Value,
    /// The first difference, as the run's report says it.
    pub reason: String,
    /// The case file written for it, below DIR.
    pub case: String,
    /// The index of the first case of the run in it.
    pub first_case: u64,
}

/// The spec section a cluster's case cites first: that of its most
/// telling construct.
fn section(cluster: &Cluster) -> &'static str {
    const BY_CONSTRUCT: &[(&str, &str)] = &[
        ("splat", "hclsyntax-spec.md#splat-operators"),
        ("attribute-splat", "hclsyntax-spec.md#splat-operators"),
        ("strip-marker", "hclsyntax-spec.md#template-literals"),
        ("flush-heredoc", "hclsyntax-spec.md#template-expressions"),
        ("heredoc", "hclsyntax-spec.md#template-expressions"),
        ("for-directive", "hclsyntax-spec.md#template-for-directive"),
        ("if-directive", "hclsyntax-spec.md#template-if-directive"),
        ("for-grouping", "hclsyntax-spec.md#for-expressions"),
        ("for-object", "hclsyntax-spec.md#for-expressions"),
        ("for-tuple", "hclsyntax-spec.md#for-expressions"),
        (
            "call-expansion",
            "hclsyntax-spec.md#functions-and-function-calls",
        ),
        ("call", "hclsyntax-spec.md#functions-and-function-calls"),
        ("conditional", "hclsyntax-spec.md#conditional-operator"),
        ("arithmetic", "hclsyntax-spec.md#arithmetic-operators"),
        ("comparison", "hclsyntax-spec.md#comparison-operators"),
        ("equality", "hclsyntax-spec.md#comparison-operators"),
        ("logic", "hclsyntax-spec.md#logic-operators"),
        ("not", "hclsyntax-spec.md#logic-operators"),
        ("negation", "hclsyntax-spec.md#arithmetic-operators"),
        ("index", "hclsyntax-spec.md#index-operator"),
        ("attribute", "hclsyntax-spec.md#attribute-access-operator"),
        ("interpolation", "hclsyntax-spec.md#template-interpolations"),
        ("template-escape", "hclsyntax-spec.md#template-literals"),
        ("duplicate-attribute", "hclsyntax-spec.md#bodies"),
        ("labelled-block", "hclsyntax-spec.md#blocks"),
        ("block", "hclsyntax-spec.md#blocks"),
        ("object", "hclsyntax-spec.md#collection-values"),
        ("tuple", "hclsyntax-spec.md#collection-values"),
        ("quoted-template", "hclsyntax-spec.md#template-literals"),
        ("number", "hclsyntax-spec.md#numeric-literals"),
        (
            "variable",
            "hclsyntax-spec.md#variables-and-variable-expressions",
        ),
    ];
    use super::generate::GenKind;
    match cluster.kind {
        GenKind::Convert => "spec.md#type-conversions-and-unification",
        GenKind::Unify => "spec.md#type-unification",
        GenKind::Operation => "hclsyntax-spec.md#operations",
        GenKind::Json => "json-spec.md#expressions",
        _ => BY_CONSTRUCT
            .iter()
            .find(|(c, _)| cluster.constructs.contains(c))
            .map_or("hclsyntax-spec.md#expressions", |(_, s)| s),
    }
}

/// A YAML double-quoted scalar (JSON's escapes are YAML's).
fn quoted(text: &str) -> String {
    serde_json::Value::String(text.to_string()).to_string()
}

fn yaml_value(value: &Value, out: &mut String) {
    yaml_expected(&ExpectedValue::from(value), out)
}

fn yaml_expected(value: &ExpectedValue, out: &mut String) {
    match value {
        ExpectedValue::Null => out.push_str("null"),
        ExpectedValue::Unknown => out.push_str("!unknown"),
        ExpectedValue::String(s) => out.push_str(&quoted(s)),
        ExpectedValue::Number(n) => out.push_str(&quoted(&n.to_decimal_string())),
        ExpectedValue::Approx { text, .. } => {
            let _ = write!(out, "!approx {}", quoted(text));
        }
        ExpectedValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ExpectedValue::Sequence(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                yaml_expected(item, out);
            }
            out.push(']');
        }
        ExpectedValue::Mapping(entries) => {
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "{}: ", quoted(k));
                yaml_expected(v, out);
            }
            out.push('}');
        }
    }
}

fn yaml_type(ty: &Type) -> String {
    quoted(&ty.to_string())
}

/// `{ type: T, value: V }`.
fn typed(ty: &Type, value: impl FnOnce(&mut String)) -> String {
    let mut out = format!("{{ type: {}, value: ", yaml_type(ty));
    value(&mut out);
    out.push_str(" }");
    out
}

fn yaml_body(body: &kinds::Body<Expected>, indent: &str, out: &mut String) {
    let _ = writeln!(out, "{indent}attributes:");
    for (name, e) in &body.attributes {
        let _ = writeln!(
            out,
            "{indent}  {}: {}",
            quoted(name),
            typed(&e.ty, |o| yaml_expected(&e.value, o))
        );
    }
    let _ = writeln!(out, "{indent}blocks:");
    for block in &body.blocks {
        let labels: Vec<String> = block.labels.iter().map(|l| quoted(l)).collect();
        let _ = writeln!(out, "{indent}  - type: {}", quoted(&block.type_name));
        let _ = writeln!(out, "{indent}    labels: [{}]", labels.join(", "));
        let _ = writeln!(out, "{indent}    body:");
        yaml_body(&block.body, &format!("{indent}      "), out);
    }
}

/// The `expect:` of a case, at four spaces.
fn yaml_expectation(expect: &Expectation, out: &mut String) {
    match expect {
        Expectation::Value {
            ty, value, safety, ..
        } => {
            let mut line = typed(ty, |o| yaml_expected(value, o));
            if let Some(s) = safety {
                line.truncate(line.len() - 2);
                let _ = write!(line, ", safety: {} }}", s.name());
            }
            let _ = writeln!(out, "    expect: {line}");
        }
        Expectation::Type(ty) => {
            let _ = writeln!(out, "    expect: {{ type: {} }}", yaml_type(ty));
        }
        Expectation::Result(b) => {
            let _ = writeln!(out, "    expect: {{ result: {b} }}");
        }
        Expectation::Error { phase, range } => {
            let range = range
                .as_ref()
                .map(|r| format!(", range: {}", quoted(r)))
                .unwrap_or_default();
            let _ = writeln!(out, "    expect: {{ error: {}{range} }}", phase.name());
        }
        Expectation::Body(body) => {
            out.push_str("    expect:\n      body:\n");
            yaml_body(body, "        ", out);
        }
        // The reference answers one way: no other expectation is made.
        Expectation::Static(_) | Expectation::OneOf(_) => {}
    }
}

fn yaml_variables(variables: &BTreeMap<String, Value>, out: &mut String) {
    if variables.is_empty() {
        return;
    }
    out.push_str("    variables:\n");
    for (name, value) in variables {
        let _ = writeln!(
            out,
            "      {}: {}",
            quoted(name),
            typed(&value.ty(), |o| yaml_value(value, o))
        );
    }
}

/// The case file of a cluster: its smallest input with the reference's
/// answer, marked for review.
pub fn case_file(
    cluster: &Cluster,
    case: &Case,
    number: usize,
    implementation: &str,
    command: &str,
) -> String {
    let mut out = String::new();
    let review = format!(
        "REVIEW before this case joins the suite: check the expectation (the reference's answer) against \
         the spec and both hashicorp/hcl versions, give it requirement ids under `covers`, name it, \
         and move it into the topic file it belongs to. Found by `{command}`: cluster {number} \
         ({key}), {size} disagreement(s); its smallest input, {tokens} tokens. {implementation} \
         answered: {reason}",
        key = cluster.key(),
        size = cluster.size,
        tokens = cluster.tokens,
        reason = cluster.record.reason,
    );
    for line in review.split_inclusive(". ") {
        let _ = writeln!(out, "# {}", line.trim_end());
    }
    let _ = writeln!(out, "spec: [{}]", section(cluster));
    let _ = writeln!(
        out,
        "summary: {}",
        quoted(&format!("Found by the fuzzer: {}", cluster.key()))
    );
    let _ = writeln!(out, "kind: {}", cluster.kind.request_kind());
    out.push_str("cases:\n");
    let _ = writeln!(out, "  - name: fuzz-cluster-{number:03}");
    let _ = writeln!(
        out,
        "    description: {}",
        quoted(&format!("REVIEW: {}", cluster.record.reason))
    );
    out.push_str("    covers: []\n");
    match &cluster.input {
        Input::Expr { variables, .. }
        | Input::Template { variables, .. }
        | Input::Config { variables, .. }
        | Input::Json { variables, .. } => {
            let request = cluster.input.request();
            let field = match cluster.kind.request_kind() {
                "expr" => "expr",
                "template" => "template",
                _ => "config",
            };
            if matches!(cluster.input, Input::Json { .. }) {
                out.push_str("    syntax: json\n");
            }
            let _ = writeln!(out, "    {field}: {}", quoted(request.text()));
            yaml_variables(variables, &mut out);
            if let kinds::Input::Config(kinds::Config {
                schema: Some(schema),
                ..
            }) = &request.input
            {
                let _ = writeln!(
                    out,
                    "    schema: {}",
                    serde_json::to_string(schema).unwrap_or_default()
                );
            }
        }
        Input::Convert { value, to } => {
            let _ = writeln!(
                out,
                "    value: {}",
                typed(&value.ty(), |o| yaml_value(value, o))
            );
            let _ = writeln!(out, "    to: {}", yaml_type(to));
        }
        Input::Operation { op, operands } => {
            let _ = writeln!(out, "    op: {op}");
            let operands: Vec<String> = operands
                .iter()
                .map(|v| typed(&v.ty(), |o| yaml_value(v, o)))
                .collect();
            let _ = writeln!(out, "    operands: [{}]", operands.join(", "));
        }
        Input::Unify { types } => {
            let types: Vec<String> = types.iter().map(yaml_type).collect();
            let _ = writeln!(out, "    types: [{}]", types.join(", "));
        }
    }
    yaml_expectation(&case.expect, &mut out);
    out
}

/// A file name's part from a cluster's key.
fn slug(cluster: &Cluster) -> String {
    let key = cluster.key();
    let mut slug: String = key
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while slug.contains("--") {
        slug = slug.replace("--", "-");
    }
    slug.trim_matches('-').chars().take(60).collect()
}

/// The request of an input, as `fuzz.json` shows it.
fn request_json(input: &Input) -> serde_json::Value {
    let request = input.request();
    let mut json = serde_json::to_value(&request.input).unwrap_or_default();
    if let serde_json::Value::Object(o) = &mut json {
        o.insert("kind".into(), input.kind().request_kind().into());
    }
    json
}

/// Writes `fuzz.json` and the clusters' case files into `dir` (the
/// clusters' folder replaced).
pub fn write(
    dir: &Path,
    report: Report<'_>,
    clusters: &[Cluster],
    cases: &[Case],
    command: &str,
) -> std::io::Result<()> {
    let folder = dir.join("clusters");
    if folder.exists() {
        std::fs::remove_dir_all(&folder)?;
    }
    std::fs::create_dir_all(&folder)?;
    let mut report = report;
    for (i, (cluster, case)) in clusters.iter().zip(cases).enumerate() {
        let name = format!("clusters/{:03}-{}.yaml", i + 1, slug(cluster));
        std::fs::write(
            dir.join(&name),
            case_file(cluster, case, i + 1, report.implementation, command),
        )?;
        report.clusters.push(ClusterReport {
            key: cluster.key(),
            kind: cluster.kind.request_kind(),
            construct: cluster.constructs.iter().copied().collect(),
            difference: cluster.difference.clone(),
            size: cluster.size,
            tokens: cluster.tokens,
            input: request_json(&cluster.input),
            reason: cluster.record.reason.clone(),
            case: name,
            first_case: cluster.first_case,
        });
    }
    let text = serde_json::to_string_pretty(&report).map_err(std::io::Error::other)?;
    std::fs::write(dir.join("fuzz.json"), text + "\n")
}

/// One cluster as the terminal shows it (escaped by the caller).
pub fn describe(number: usize, cluster: &Cluster) -> String {
    let request = cluster.input.request();
    let record: &CaseRecord = &cluster.record;
    let text = match request.text() {
        "" => serde_json::to_string(&request.input).unwrap_or_default(),
        text => text.to_string(),
    };
    format!(
        "cluster {number}: {key} ({size} disagreement(s), smallest input {tokens} tokens)\n    input: {text}\n    {reason}",
        key = cluster.key(),
        size = cluster.size,
        tokens = cluster.tokens,
        reason = record.reason,
    )
}
