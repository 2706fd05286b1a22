//! The JSON Schemas published in `runner/schema/` (the protocol's requests
//! and answers, the JSON report) are the ones the declarations give, and
//! the real traffic of a whole suite run against `hcl-ref`, and its report,
//! follow them. `HCL_CONFORMANCE_WRITE_SCHEMAS=1 cargo test --test schemas`
//! writes them anew.

use hcl_conformance_runner::schemas::schemas;
use serde_json::Value as Json;
use std::path::Path;
use std::process::Command;

fn folder() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/schema"))
}

fn published(name: &str) -> Json {
    let text = std::fs::read_to_string(folder().join(name)).expect("the schema is published");
    serde_json::from_str(&text).expect("the schema is JSON")
}

#[test]
fn the_published_schemas_are_the_declarations() {
    for (name, schema) in schemas() {
        let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        if std::env::var_os("HCL_CONFORMANCE_WRITE_SCHEMAS").is_some() {
            std::fs::write(folder().join(name), &text).unwrap();
        }
        let file = std::fs::read_to_string(folder().join(name)).unwrap_or_default();
        assert!(
            file == text,
            "runner/schema/{name} is not the schema the declarations give; \
             write it with HCL_CONFORMANCE_WRITE_SCHEMAS=1 cargo test --test schemas"
        );
    }
}

/// Checks each JSON line of `lines` against the schema `name`.
fn check_lines(name: &str, lines: &str) -> usize {
    let validator = jsonschema::validator_for(&published(name)).expect("a valid schema");
    let mut checked = 0;
    for line in lines.lines() {
        let instance: Json = serde_json::from_str(line).expect("a JSON line");
        let errors: Vec<String> = validator
            .iter_errors(&instance)
            .map(|e| e.to_string())
            .collect();
        let shown: String = line.chars().take(300).collect();
        assert!(errors.is_empty(), "{name}: {shown}\n{}", errors.join("\n"));
        checked += 1;
    }
    checked
}

#[test]
fn the_traffic_and_report_of_a_whole_suite_run_follow_the_schemas() {
    let dir = std::env::temp_dir().join(format!("hcl-conformance-traffic-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (requests, answers) = (dir.join("requests.jsonl"), dir.join("answers.jsonl"));
    let recorder = format!(
        "sh -c 'tee {} | {} | tee {}'",
        requests.display(),
        env!("CARGO_BIN_EXE_hcl-ref"),
        answers.display()
    );
    let output = Command::new(env!("CARGO_BIN_EXE_hcl-conformance"))
        .args(["--impl", &recorder, "--jobs", "1", "--format", "json"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Json =
        serde_json::from_slice(&output.stdout).expect("only JSON on standard output");
    let cases = report["cases"].as_array().expect("cases").len();
    let requests = std::fs::read_to_string(requests).unwrap();
    let answers = std::fs::read_to_string(answers).unwrap();
    // `hello`, then a request a case.
    assert_eq!(check_lines("request.schema.json", &requests), cases + 1);
    assert_eq!(check_lines("answer.schema.json", &answers), cases + 1);
    check_lines("report.schema.json", &report.to_string());
}
