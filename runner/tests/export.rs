//! The suite as data (`hcl-conformance export`): every case document and
//! the index follow the published schemas, and the example consumer
//! (`scripts/export-consumer.py`), which runs the export without the
//! runner, reaches the runner's verdict on every case, against `hcl-ref`
//! and against a broken variant of it (`tests/fakes/broken.py`).

use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const HCL_REF: &str = env!("CARGO_BIN_EXE_hcl-ref");
const RUNNER: &str = env!("CARGO_BIN_EXE_hcl-conformance");

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// The export of the built-in suite, written from `/`.
fn export(name: &str) -> PathBuf {
    let out = std::env::temp_dir().join(format!(
        "hcl-conformance-export-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&out);
    let status = Command::new(RUNNER)
        .args(["export", "--out"])
        .arg(&out)
        .current_dir("/")
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    out
}

fn json_file(path: &Path) -> Json {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_document_of_the_export_follows_its_schema() {
    let out = export("schema");
    let schema = |name: &str| json_file(&repo().join("runner/schema").join(name));
    let index = json_file(&out.join("index.json"));
    let validator = jsonschema::validator_for(&schema("export-index.schema.json")).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&index)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "index.json: {}", errors.join("\n"));
    let validator = jsonschema::validator_for(&schema("export-case.schema.json")).unwrap();
    let entries = index["cases"].as_array().unwrap();
    let listed = Command::new(RUNNER).arg("list").output().unwrap();
    assert_eq!(
        entries.len(),
        String::from_utf8_lossy(&listed.stdout).lines().count()
    );
    for entry in entries {
        let document = json_file(&out.join(entry["path"].as_str().unwrap()));
        assert_eq!(document["id"], entry["id"]);
        let errors: Vec<String> = validator
            .iter_errors(&document)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {}", entry["id"], errors.join("\n"));
    }
    // A second export replaces the first; a folder holding anything else is
    // refused.
    let again = Command::new(RUNNER)
        .args(["export", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(again.status.success());
    let other = out.join("cases");
    let refused = Command::new(RUNNER)
        .args(["export", "--out"])
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("holds files but no export"));
    let _ = std::fs::remove_dir_all(&out);
}

/// The runner's verdicts, by case id: passed, failed or unsupported.
fn runner_verdicts(implementation: &str) -> BTreeMap<String, String> {
    let output = Command::new(RUNNER)
        .args(["--impl", implementation, "--format", "json"])
        .current_dir("/")
        .output()
        .unwrap();
    let report: Json = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&output.stderr));
    });
    let cases = report["cases"].as_array().unwrap().iter();
    cases
        .map(|c| {
            let status = match c["status"].as_str().unwrap() {
                "crashed" | "timed-out" => "failed",
                other => other,
            };
            (c["id"].as_str().unwrap().to_string(), status.to_string())
        })
        .collect()
}

/// The consumer's verdicts, by case id.
fn consumer_verdicts(out: &Path, implementation: &str) -> BTreeMap<String, String> {
    let output = Command::new("python3")
        .arg(repo().join("scripts/export-consumer.py"))
        .arg(out)
        .args(["--impl", implementation, "--json"])
        .output()
        .unwrap();
    let verdicts: BTreeMap<String, Json> = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    let failed = verdicts.values().any(|v| v["status"] == "failed");
    assert_eq!(output.status.code(), Some(i32::from(failed)));
    verdicts
        .into_iter()
        .map(|(id, v)| (id, v["status"].as_str().unwrap().to_string()))
        .collect()
}

fn count(verdicts: &BTreeMap<String, String>, status: &str) -> usize {
    verdicts.values().filter(|s| *s == status).count()
}

#[test]
fn the_python_consumer_reaches_the_runners_verdict_on_every_case() {
    let out = export("consumer");
    let broken = format!(
        "python3 {}/tests/fakes/broken.py {HCL_REF}",
        env!("CARGO_MANIFEST_DIR")
    );
    for implementation in [HCL_REF, broken.as_str()] {
        let runner = runner_verdicts(implementation);
        let consumer = consumer_verdicts(&out, implementation);
        assert_eq!(runner.len(), consumer.len());
        let disagreements: Vec<String> = runner
            .iter()
            .filter(|(id, status)| consumer.get(*id) != Some(*status))
            .map(|(id, status)| format!("{id}: runner {status}, consumer {:?}", consumer.get(id)))
            .collect();
        assert!(
            disagreements.is_empty(),
            "{implementation}: {} disagreements: {}",
            disagreements.len(),
            disagreements[..disagreements.len().min(10)].join("\n")
        );
        if implementation == HCL_REF {
            assert_eq!(count(&runner, "passed"), runner.len());
        } else {
            // The broken variant fails and declines enough cases for the
            // agreement to mean something.
            assert!(
                count(&runner, "failed") > 500,
                "{}",
                count(&runner, "failed")
            );
            assert!(count(&runner, "unsupported") > 100);
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}
