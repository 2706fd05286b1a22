//! Clusters: disagreements grouped by the kind of input, the constructs
//! of their smallest input and the kind of difference, so that a run
//! that finds thousands of disagreements reports a few clusters, each
//! with its smallest input.
//!
//! A disagreement whose input holds every construct of a cluster's
//! smallest input, and differs in the same way, joins that cluster
//! without being shrunk: shrinking is for what no cluster explains yet.

use super::generate::GenKind;
use super::shrink::Shrunk;
use super::Input;
use crate::verdict::CaseRecord;
use std::collections::BTreeSet;

/// A group of disagreements.
pub struct Cluster {
    pub kind: GenKind,
    /// The constructs of the smallest input.
    pub constructs: BTreeSet<&'static str>,
    pub difference: String,
    /// How many disagreements it holds.
    pub size: u64,
    /// The smallest input, its size in tokens, and its verdict.
    pub input: Input,
    pub tokens: usize,
    pub record: CaseRecord,
    /// The index of the first case of the run that fell in it (with the
    /// seed, enough to generate it again).
    pub first_case: u64,
}

impl Cluster {
    /// `expr: null+splat: value differs`: what names the cluster in
    /// reports and in lists of known clusters.
    pub fn key(&self) -> String {
        key(self.kind, &self.constructs, &self.difference)
    }
}

/// The constructs of expressions, templates and bodies, the most telling
/// first: a cluster is named by the first its smallest input holds, and
/// by the [`MODIFIERS`] it holds.
const PRIMARY: &[&str] = &[
    "syntax-error",
    "splat",
    "attribute-splat",
    "flush-heredoc",
    "heredoc",
    "for-directive",
    "if-directive",
    "for-grouping",
    "for-object",
    "for-tuple",
    "call-expansion",
    "call",
    "conditional",
    "logic",
    "not",
    "comparison",
    "equality",
    "arithmetic",
    "negation",
    "index",
    "attribute",
    "duplicate-attribute",
    "labelled-block",
    "block",
    "template-escape",
    "interpolation",
    "object",
    "tuple",
    "quoted-template",
    "unicode",
    "number",
    "bool",
    "null",
    "variable",
];

/// What changes a construct's meaning: nulls and unknowns, strip markers,
/// the syntax and the schema.
const MODIFIERS: &[&str] = &[
    "null",
    "null-variable",
    "unknown-variable",
    "strip-marker",
    "json",
    "schema",
];

/// The constructs that name a cluster of an input holding `all`: for
/// expressions, templates and bodies the most telling one and the
/// modifiers; for conversions, operations and unifications (whose
/// constructs are few: the operation and its operands' classes) all.
pub fn naming(kind: GenKind, all: &BTreeSet<&'static str>) -> BTreeSet<&'static str> {
    if matches!(kind, GenKind::Convert | GenKind::Operation | GenKind::Unify) {
        return all.clone();
    }
    let primary = PRIMARY.iter().find(|c| all.contains(*c)).copied();
    let modifiers = MODIFIERS.iter().filter(|c| all.contains(*c)).copied();
    let named: BTreeSet<&'static str> = primary.into_iter().chain(modifiers).collect();
    if named.is_empty() {
        ["literal"].into()
    } else {
        named
    }
}

/// The key of a cluster.
pub fn key(kind: GenKind, constructs: &BTreeSet<&str>, difference: &str) -> String {
    let kind: &str = kind.into();
    let constructs: Vec<&str> = constructs.iter().copied().collect();
    format!("{kind}: {}: {difference}", constructs.join("+"))
}

/// The clusters of a run.
#[derive(Default)]
pub struct Clusters(Vec<Cluster>);

impl Clusters {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Counts a disagreement in the cluster that explains it, if one does:
    /// same kind of input and difference, and every construct of the
    /// cluster's smallest input in this one.
    pub fn assign(&mut self, input: &Input, difference: &str) -> bool {
        let constructs = input.constructs();
        let kind = input.kind();
        let explained = self.0.iter_mut().find(|c| {
            c.kind == kind && c.difference == difference && c.constructs.is_subset(&constructs)
        });
        explained.map(|c| c.size += 1).is_some()
    }

    /// Adds a shrunk disagreement: to the cluster of the same key (keeping
    /// the smaller input), or as a new cluster.
    pub fn add(&mut self, shrunk: Shrunk, difference: String, index: u64) {
        let kind = shrunk.input.kind();
        let constructs = naming(kind, &shrunk.input.constructs());
        let this = key(kind, &constructs, &difference);
        if let Some(c) = self.0.iter_mut().find(|c| c.key() == this) {
            c.size += 1;
            if shrunk.tokens < c.tokens {
                (c.input, c.tokens, c.record) = (shrunk.input, shrunk.tokens, shrunk.record);
            }
            return;
        }
        self.0.push(Cluster {
            kind,
            constructs,
            difference,
            size: 1,
            input: shrunk.input,
            tokens: shrunk.tokens,
            record: shrunk.record,
            first_case: index,
        });
    }

    /// The clusters, the largest first (then by key).
    pub fn into_sorted(mut self) -> Vec<Cluster> {
        self.0
            .sort_by(|a, b| b.size.cmp(&a.size).then_with(|| a.key().cmp(&b.key())));
        self.0
    }
}

/// The clusters each profile expects, by profile name: its departures
/// from the spec that the fuzzer finds (runner/fuzz-clusters/).
const PROFILE_LISTS: &[(&str, &str)] = &[
    (
        "hcl-v2.14",
        include_str!("../../fuzz-clusters/hcl-v2.14.txt"),
    ),
    (
        "hcl-v2.25",
        include_str!("../../fuzz-clusters/hcl-v2.25.txt"),
    ),
];

/// The lists `profile` expects: its own and those of the profiles it
/// follows.
pub fn profile_lists(profile: &str) -> Vec<Expected> {
    hcl_conformance_format::profiles::lineage(profile)
        .into_iter()
        .filter_map(|name| PROFILE_LISTS.iter().find(|(p, _)| *p == name))
        .map(|(name, text)| {
            Expected::parse(&format!("runner/fuzz-clusters/{name}.txt"), text).unwrap_or(Expected {
                entries: Vec::new(),
            })
        })
        .collect()
}

/// A list of expected clusters (`--expect-clusters FILE`): a cluster's key
/// a line, as runs print them, optionally followed by `  # why`; `#`
/// starts a comment line. A line stands for every cluster of the same
/// kind of input and difference whose constructs include its own, so
/// that a known bug found again with one more construct is still known.
pub struct Expected {
    entries: Vec<(String, BTreeSet<String>, String, String)>,
}

impl Expected {
    /// Reads a list; an error names the line.
    pub fn parse(file: &str, text: &str) -> Result<Expected, String> {
        let mut entries = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split_once("  #").map_or(line, |(key, _)| key).trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut fields = line.splitn(3, ": ");
            let (Some(kind), Some(constructs), Some(difference)) =
                (fields.next(), fields.next(), fields.next())
            else {
                return Err(format!("{file}:{}: not a cluster key (KIND: CONSTRUCT+CONSTRUCT: DIFFERENCE): `{line}`", n + 1));
            };
            let constructs = constructs.split('+').map(str::to_string).collect();
            entries.push((
                kind.to_string(),
                constructs,
                difference.to_string(),
                line.to_string(),
            ));
        }
        Ok(Expected { entries })
    }

    /// The line that expects `cluster`, if one does.
    pub fn line_for(&self, cluster: &Cluster) -> Option<&str> {
        let kind: &str = cluster.kind.into();
        let constructs: BTreeSet<String> =
            cluster.constructs.iter().map(|c| c.to_string()).collect();
        self.entries
            .iter()
            .find(|(k, c, d, _)| k == kind && *d == cluster.difference && c.is_subset(&constructs))
            .map(|(.., line)| line.as_str())
    }
}
