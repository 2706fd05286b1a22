//! The adapter as the runner sees it: a process that answers one line per
//! request, and that exits without an answer when hcl-rs panics.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the adapter with `input` on standard input; its exit code and
/// standard output.
fn run(input: &str) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hcl-rs-adapter"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the adapter starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("the requests are written");
    let output = child.wait_with_output().expect("the adapter ends");
    (
        output.status.code(),
        String::from_utf8(output.stdout).expect("UTF-8 answers"),
    )
}

#[test]
fn answers_each_request_on_its_own_line_with_its_id() {
    let (code, out) = run(concat!(
        r#"{"id": "0", "kind": "hello", "protocol": 1}"#,
        "\n",
        r#"{"id": "a", "kind": "expr", "expr": "1 + 2", "variables": {}}"#,
        "\n",
        r#"{"id": "b", "kind": "static", "syntax": "native", "expr": "x", "analysis": "list"}"#,
        "\n",
    ));
    assert_eq!(code, Some(0));
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["id"], "0");
    assert_eq!(lines[1]["id"], "a");
    assert_eq!(lines[1]["value"]["value"], 3);
    assert_eq!(lines[2]["id"], "b");
    assert!(lines[2]["unsupported"].is_string());
}

#[test]
fn a_panic_in_hcl_rs_ends_the_process_without_an_answer() {
    // hcl-primitives computes an integer remainder by zero with `%`.
    let (code, out) = run(concat!(
        r#"{"id": "a", "kind": "expr", "expr": "1", "variables": {}}"#,
        "\n",
        r#"{"id": "b", "kind": "expr", "expr": "5 % 0", "variables": {}}"#,
        "\n",
        r#"{"id": "c", "kind": "expr", "expr": "2", "variables": {}}"#,
        "\n",
    ));
    assert_eq!(code, Some(101));
    assert_eq!(
        out.lines().count(),
        1,
        "only the first request is answered: {out}"
    );
}
