//! The results of implementations: `matrix-details.json`, as
//! `hcl-conformance matrix` writes it (`crate::matrix::render_details`).

use hcl_conformance_format::suite::Suite;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One implementation of the matrix.
#[derive(Clone, Debug, Deserialize)]
pub struct Implementation {
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub profile: String,
    #[serde(default)]
    pub kinds: Option<Vec<String>>,
    #[serde(default)]
    pub features: Option<Vec<String>>,
    #[serde(default)]
    pub known_failures: Option<String>,
    pub totals: Totals,
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub struct Totals {
    pub passed: usize,
    pub failed: usize,
    pub unsupported: usize,
}

/// One implementation's verdict on one case.
#[derive(Clone, Debug, Deserialize)]
pub struct Verdict {
    /// `passed`, `failed`, `crash`, `timeout`, `unsupported`.
    pub status: String,
    /// The first difference of a failure, what an unsupported case needs.
    #[serde(default)]
    pub reason: String,
    /// Whether the implementation's known-failure list names the case.
    #[serde(default)]
    pub listed: bool,
}

impl Verdict {
    /// `p`, `f` or `u`: the class of the verdict on the site.
    pub fn class(&self) -> &'static str {
        match self.status.as_str() {
            "passed" => "p",
            "unsupported" => "u",
            _ => "f",
        }
    }
}

#[derive(Deserialize)]
struct CaseResults {
    id: String,
    results: BTreeMap<String, Verdict>,
}

#[derive(Deserialize)]
struct Details {
    implementations: Vec<Implementation>,
    cases: Vec<CaseResults>,
}

/// The results of a matrix run.
#[derive(Clone, Debug, Default)]
pub struct Results {
    /// In the matrix's column order.
    pub implementations: Vec<Implementation>,
    /// Per case id, the verdicts in the order of `implementations` (`None`
    /// where a column has no verdict for the case).
    pub cases: BTreeMap<String, Vec<Option<Verdict>>>,
}

impl Results {
    /// Reads `DIR/matrix-details.json`.
    pub fn load(dir: &Path) -> Result<Results, String> {
        let path = dir.join("matrix-details.json");
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "cannot read {}: {e}\n--matrix names the folder `hcl-conformance matrix --out DIR` wrote (scripts/matrix: ${{CARGO_TARGET_DIR:-target}}/matrix)",
                path.display()
            )
        })?;
        let details: Details = serde_json::from_str(&text).map_err(|e| {
            format!(
                "{}: not the matrix's details ({e}); run `hcl-conformance matrix` again",
                path.display()
            )
        })?;
        let names: Vec<String> = details
            .implementations
            .iter()
            .map(|i| i.name.clone())
            .collect();
        let cases = details
            .cases
            .into_iter()
            .map(|mut c| {
                let verdicts = names.iter().map(|n| c.results.remove(n)).collect();
                (c.id, verdicts)
            })
            .collect();
        Ok(Results {
            implementations: details.implementations,
            cases,
        })
    }
}

impl Results {
    /// `assets/verdicts.js`, which the site's script shows on each case:
    /// the implementations' names, each distinct verdict once as `[status,
    /// reason, listed]`, each distinct row of verdicts once (the index of
    /// each implementation's verdict, `-1` for none), and per suite file
    /// the row of each of its cases, in the order of the file (and of its
    /// page), `-1` for a case the run did not see.
    pub fn script(&self, suite: &Suite) -> String {
        let mut distinct: Vec<&Verdict> = Vec::new();
        let mut rows: Vec<Vec<i64>> = Vec::new();
        let mut files: serde_json::Map<String, serde_json::Value> = serde_json::Map::new();
        for file in &suite.files {
            let mut of_file: Vec<i64> = Vec::with_capacity(file.cases.len());
            for case in &file.cases {
                let Some(verdicts) = self.cases.get(&case.id) else {
                    of_file.push(-1);
                    continue;
                };
                let row: Vec<i64> = verdicts
                    .iter()
                    .map(|v| match v {
                        None => -1,
                        Some(v) => {
                            let same = |w: &&Verdict| {
                                w.status == v.status && w.reason == v.reason && w.listed == v.listed
                            };
                            let at = distinct.iter().position(same).unwrap_or_else(|| {
                                distinct.push(v);
                                distinct.len() - 1
                            });
                            at as i64
                        }
                    })
                    .collect();
                let at = rows.iter().position(|r| *r == row).unwrap_or_else(|| {
                    rows.push(row);
                    rows.len() - 1
                });
                of_file.push(at as i64);
            }
            files.insert(file.id.clone(), of_file.into());
        }
        let data = serde_json::json!({
            "implementations": self.implementations.iter().map(|i| &i.name).collect::<Vec<_>>(),
            "verdicts": distinct.iter().map(|v| serde_json::json!([v.status, v.reason, v.listed])).collect::<Vec<_>>(),
            "rows": rows,
            "files": files,
        });
        format!("// Generated by hcl-conformance docs from matrix-details.json.\nwindow.HCL_VERDICTS = {data};\n")
    }
}
