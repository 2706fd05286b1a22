//! The runner survives misbehaving implementations: each costs only the
//! affected case, with a clear reason, and every case gets a verdict.

use hcl_conformance::outcome::Outcome;
use hcl_conformance::subprocess::{ImplementationCommand, Pool};
use hcl_conformance::suite::Input;
use hcl_interpreter::Type;
use std::process::Command;
use std::time::Duration;

const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fakes/misbehave.py");

fn pool(mode: &str, timeout: Duration) -> Pool {
    Pool::start(ImplementationCommand {
        program: "python3".into(),
        args: vec![FAKE.into(), mode.into()],
        timeout,
    })
    .expect("the fake answers hello")
}

fn unify() -> Input {
    Input::Unify {
        types: vec![Type::Number, Type::String],
    }
}

/// Runs three cases and returns their outcomes.
fn outcomes(mode: &str, timeout: Duration) -> Vec<Outcome> {
    let pool = pool(mode, timeout);
    (0..3).map(|_| pool.run(&unify())).collect()
}

fn assert_all(mode: &str, timeout: Duration, test: impl Fn(&Outcome) -> bool) {
    for outcome in outcomes(mode, timeout) {
        assert!(test(&outcome), "{mode}: {outcome:?}");
    }
}

#[test]
fn a_hanging_implementation_times_out_per_case() {
    assert_all(
        "hang",
        Duration::from_millis(300),
        |o| matches!(o, Outcome::TimedOut(why) if why.contains("killed")),
    );
}

#[test]
fn a_crashing_implementation_is_restarted_and_its_stderr_shown() {
    assert_all(
        "crash",
        Duration::from_secs(10),
        |o| matches!(o, Outcome::Crashed(why) if why.contains("exit status: 3") && why.contains("something went very wrong")),
    );
}

#[test]
fn crashes_cost_only_their_own_case() {
    let pool = pool("crash-every-other", Duration::from_secs(10));
    let outcomes: Vec<Outcome> = (0..4).map(|_| pool.run(&unify())).collect();
    assert!(
        matches!(outcomes[0], Outcome::Unsupported(_)),
        "{outcomes:?}"
    );
    assert!(matches!(outcomes[1], Outcome::Crashed(_)), "{outcomes:?}");
    // A fresh process, whose first case is answered again.
    assert!(
        matches!(outcomes[2], Outcome::Unsupported(_)),
        "{outcomes:?}"
    );
    assert!(matches!(outcomes[3], Outcome::Crashed(_)), "{outcomes:?}");
}

#[test]
fn garbage_is_a_broken_answer() {
    assert_all(
        "garbage",
        Duration::from_secs(10),
        |o| matches!(o, Outcome::Broken(why) if why.contains("not JSON")),
    );
}

#[test]
fn non_utf8_is_a_broken_answer() {
    assert_all(
        "non-utf8",
        Duration::from_secs(10),
        |o| matches!(o, Outcome::Broken(why) if why.contains("not UTF-8")),
    );
}

#[test]
fn a_huge_answer_is_refused() {
    assert_all(
        "huge",
        Duration::from_secs(30),
        |o| matches!(o, Outcome::Broken(why) if why.contains("longer than")),
    );
}

#[test]
fn an_answer_to_another_request_is_refused() {
    assert_all(
        "wrong-id",
        Duration::from_secs(10),
        |o| matches!(o, Outcome::Broken(why) if why.contains("not to")),
    );
}

#[test]
fn exiting_without_an_answer_is_a_crash() {
    assert_all("exit-early", Duration::from_secs(10), |o| {
        matches!(o, Outcome::Crashed(_))
    });
}

#[test]
fn a_one_shot_implementation_is_started_again_for_each_case() {
    let pool = Pool::start(ImplementationCommand {
        program: env!("CARGO_BIN_EXE_hcl-ref").into(),
        args: vec!["--one-shot".into()],
        timeout: Duration::from_secs(10),
    })
    .unwrap();
    for _ in 0..5 {
        assert_eq!(pool.run(&unify()), Outcome::Type(Type::String));
    }
}

/// Runs the runner binary on a part of the suite against a fake.
fn run_cli(args: &[&str]) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_hcl-conformance"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).to_string()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), text)
}

fn total_line(text: &str) -> Vec<usize> {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("total "))
        .unwrap_or_else(|| panic!("no summary in:\n{text}"));
    line.split_whitespace()
        .skip(1)
        .map(|n| n.parse().unwrap())
        .collect()
}

#[test]
fn a_run_against_a_hanging_implementation_completes_with_a_verdict_per_case() {
    let (ok, text) = run_cli(&[
        "--impl",
        &format!("python3 {FAKE} hang"),
        "--timeout",
        "0.2",
        "--jobs",
        "2",
        "unification/tuples",
    ]);
    assert!(!ok, "{text}");
    let counts = total_line(&text);
    // passed, failed, CRASH, TIMEOUT, unsupported, expected, unexpected
    assert_eq!(counts[0] + counts[1] + counts[2], 0, "{text}");
    assert!(counts[3] >= 10, "{text}");
    assert!(text.contains("TIMEOUT: no answer within"), "{text}");
}

#[test]
fn missing_capabilities_are_unsupported_not_failures() {
    let (ok, text) = run_cli(&[
        "--impl",
        &format!("python3 {FAKE} only-unify"),
        "types/type-identity",
    ]);
    assert!(ok, "{text}");
    let counts = total_line(&text);
    assert_eq!(counts[0] + counts[1], 0, "{text}");
    assert!(counts[4] >= 10, "{text}");
}

#[test]
fn bad_flags_are_reported_with_usage() {
    let (ok, text) = run_cli(&["--timeout", "soon", "--impl", "x"]);
    assert!(!ok);
    assert!(
        text.contains("--timeout takes a positive number of seconds, not `soon`"),
        "{text}"
    );
    let (ok, text) = run_cli(&["--impl", "/nonexistent/implementation"]);
    assert!(!ok);
    assert!(text.contains("did not start"), "{text}");
}

#[test]
fn reports_are_written_in_every_format() {
    let dir = std::env::temp_dir().join(format!("hcl-conformance-reports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |ext: &str| dir.join(format!("report.{ext}")).display().to_string();
    let (ok, text) = run_cli(&[
        "--impl",
        &format!("python3 {FAKE} crash-every-other"),
        "--report",
        &format!("json={}", path("json")),
        "--report",
        &format!("junit={}", path("xml")),
        "--report",
        &format!("markdown={}", path("md")),
        "unification/tuples",
    ]);
    assert!(!ok, "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path("json")).unwrap()).unwrap();
    let suite_dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite"));
    let suite = hcl_conformance::suite::load_suite(suite_dir).expect("the suite loads");
    let in_file = suite
        .cases()
        .filter(|c| c.id.starts_with("unification/tuples::"))
        .count();
    assert!(in_file > 2, "{in_file} cases in unification/tuples");
    let cases = json["cases"].as_array().unwrap();
    assert_eq!(cases.len(), in_file);
    assert!(cases.iter().any(|c| c["status"] == "crash"), "{json}");
    assert!(cases.iter().any(|c| c["status"] == "unsupported"), "{json}");
    let xml = std::fs::read_to_string(path("xml")).unwrap();
    assert!(
        xml.contains(&format!(
            "<testsuite name=\"unification\" tests=\"{in_file}\""
        )),
        "{xml}"
    );
    assert!(xml.contains("<failure type=\"CRASH\""), "{xml}");
    assert!(xml.contains("<skipped"), "{xml}");
    let md = std::fs::read_to_string(path("md")).unwrap();
    assert!(md.contains("| unification |"), "{md}");
    assert!(md.contains("## Failing cases"), "{md}");
}

#[test]
fn known_failure_lists_only_shrink() {
    let dir = std::env::temp_dir().join(format!("hcl-conformance-known-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let list = dir.join("known-failures.txt");
    let case = "unification/tuples::tuples-unify-element-by-element";
    std::fs::write(&list, format!("# a list\n{case} thought to fail\n")).unwrap();
    let list = list.display().to_string();
    // Against the reference interpreter the listed case passes: the run fails.
    let (ok, text) = run_cli(&[
        "--impl",
        env!("CARGO_BIN_EXE_hcl-ref"),
        "--expect-failures",
        &list,
        "unification/tuples",
    ]);
    assert!(!ok, "{text}");
    assert!(text.contains("remove it from the list"), "{text}");
    assert_eq!(total_line(&text)[6], 1, "{text}");
    // Against an implementation that crashes on it, the failure is expected.
    let (_, text) = run_cli(&[
        "--impl",
        &format!("python3 {FAKE} crash"),
        "--expect-failures",
        &list,
        "--exact",
        case,
    ]);
    assert_eq!(total_line(&text)[5], 1, "{text}");
    // A list naming a case that does not exist is refused.
    std::fs::write(dir.join("bad.txt"), "no/such::case because\n").unwrap();
    let (ok, text) = run_cli(&[
        "--expect-failures",
        &dir.join("bad.txt").display().to_string(),
    ]);
    assert!(
        !ok && text.contains("bad.txt:1: `no/such::case` is not a case of the suite"),
        "{text}"
    );
}
