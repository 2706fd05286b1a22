//! The results of implementations: `matrix-details.json`, as
//! `hcl-conformance matrix` writes it (`crate::matrix::render_details`).

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
