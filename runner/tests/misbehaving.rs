//! The runner survives misbehaving implementations: each costs only the
//! affected case, with a clear reason, and every case gets a verdict.

mod fakes;

use fakes::{run_cli, total, totals, Pids, FAKE};
use hcl_conformance_format::kinds::{self, Input};
use hcl_conformance_format::suite::{CaseInput, TypeText};
use hcl_conformance_format::wire::{Outcome, Ty};
use hcl_conformance_runner::subprocess::{ImplementationCommand, Pool};
use hcl_interpreter::Type;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

fn pool(mode: &str, timeout: Duration) -> Pool {
    Pool::start(ImplementationCommand::new(
        "python3".into(),
        vec![FAKE.into(), mode.into()],
        timeout,
    ))
    .expect("the fake answers hello")
}

fn unify() -> CaseInput {
    Input::Unify(kinds::Unify {
        types: vec![TypeText(Type::Number), TypeText(Type::String)],
    })
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
    let pool = Pool::start(ImplementationCommand::new(
        env!("CARGO_BIN_EXE_hcl-ref").into(),
        vec!["--one-shot".into()],
        Duration::from_secs(10),
    ))
    .unwrap();
    for _ in 0..5 {
        assert_eq!(pool.run(&unify()), Outcome::Type(Ty(Type::String)));
    }
}

#[test]
fn a_run_against_a_hanging_implementation_completes_with_a_verdict_per_case() {
    let (code, text) = run_cli(&[
        "--impl",
        &format!("python3 {FAKE} hang"),
        "--timeout",
        "0.2",
        "--jobs",
        "2",
        "unification/tuples",
    ]);
    let ok = code == Some(0);
    assert!(!ok, "{text}");
    let passed_failed_crashed = ["passed", "failed", "CRASH"].map(|s| total(&text, s));
    assert_eq!(passed_failed_crashed, [0, 0, 0], "{text}");
    assert!(total(&text, "TIMEOUT") >= 10, "{text}");
    assert!(text.contains("TIMEOUT: no answer within"), "{text}");
}

#[test]
fn missing_capabilities_are_unsupported_not_failures() {
    let (code, text) = run_cli(&[
        "--impl",
        &format!("python3 {FAKE} only-unify"),
        "types/type-identity",
    ]);
    let ok = code == Some(0);
    assert!(ok, "{text}");
    assert_eq!(total(&text, "passed") + total(&text, "failed"), 0, "{text}");
    assert!(total(&text, "unsupported") >= 10, "{text}");
}

#[test]
fn bad_flags_are_reported_with_usage() {
    let (code, text) = run_cli(&["--timeout", "soon", "--impl", "x"]);
    let ok = code == Some(0);
    assert!(!ok);
    assert!(
        text.contains("invalid value 'soon' for '--timeout <SECONDS>'"),
        "{text}"
    );
    let (code, text) = run_cli(&["--impl", "/nonexistent/implementation"]);
    let ok = code == Some(0);
    assert!(!ok);
    assert!(text.contains("did not start"), "{text}");
}

#[test]
fn reports_are_written_in_every_format() {
    let dir = std::env::temp_dir().join(format!("hcl-conformance-reports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = |ext: &str| dir.join(format!("report.{ext}")).display().to_string();
    let (code, text) = run_cli(&[
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
    let ok = code == Some(0);
    assert!(!ok, "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path("json")).unwrap()).unwrap();
    let suite_dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite"));
    let suite = hcl_conformance_format::suite::load_suite(suite_dir).expect("the suite loads");
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
    assert!(xml.contains("type=\"CRASH\""), "{xml}");
    assert!(xml.contains("<skipped"), "{xml}");
    let md = std::fs::read_to_string(path("md")).unwrap();
    assert!(md.contains("\n| unification "), "{md}");
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
    let (code, text) = run_cli(&[
        "--impl",
        env!("CARGO_BIN_EXE_hcl-ref"),
        "--expect-failures",
        &list,
        "unification/tuples",
    ]);
    let ok = code == Some(0);
    assert!(!ok, "{text}");
    assert!(text.contains("remove it from the list"), "{text}");
    assert_eq!(total(&text, "unexpected pass"), 1, "{text}");
    // Against an implementation that crashes on it, the failure is expected.
    let (_, text) = run_cli(&[
        "--impl",
        &format!("python3 {FAKE} crash"),
        "--expect-failures",
        &list,
        "--exact",
        case,
    ]);
    assert_eq!(total(&text, "expected failure"), 1, "{text}");
    // A list naming a case that does not exist is refused.
    std::fs::write(dir.join("bad.txt"), "no/such::case because\n").unwrap();
    let (code, text) = run_cli(&[
        "--expect-failures",
        &dir.join("bad.txt").display().to_string(),
    ]);
    let ok = code == Some(0);
    assert!(
        !ok && text.contains("bad.txt:1: `no/such::case` is not a case of the suite"),
        "{text}"
    );
}

// The runner never hangs and leaves nothing running, whatever the
// implementation does. The fakes record the ids of their processes, and of
// a helper each starts in the background, in a file given after the mode;
// every one must be gone once the runner is.

/// Runs the runner binary with the fakes recording into `pids`; a runner
/// still running after two minutes hangs, and fails the test.
fn run_watched(args: &[&str], pids: &Pids) -> (ExitStatus, String) {
    let output = |ext: &str| pids.0.with_extension(ext);
    let mut child = Command::new(env!("CARGO_BIN_EXE_hcl-conformance"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(output("out")).unwrap())
        .stderr(std::fs::File::create(output("err")).unwrap())
        .spawn()
        .unwrap();
    let status = wait_at_most(&mut child, Duration::from_secs(120));
    let text = std::fs::read_to_string(output("out")).unwrap_or_default()
        + &std::fs::read_to_string(output("err")).unwrap_or_default();
    let _ = std::fs::remove_file(output("out"));
    let _ = std::fs::remove_file(output("err"));
    match status {
        Some(status) => (status, text),
        None => panic!("the runner hangs: still running after two minutes\n{text}"),
    }
}

/// Waits for the child to exit; kills it after `limit`.
fn wait_at_most(child: &mut std::process::Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How many cases of the suite have `filter` in their id.
fn cases_matching(suite_dir: &Path, filter: &str) -> usize {
    let suite = hcl_conformance_format::suite::load_suite(suite_dir).expect("the suite loads");
    suite.cases().filter(|c| c.id.contains(filter)).count()
}

/// The cases of `unification/tuples`.
fn tuples() -> usize {
    cases_matching(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite")),
        "unification/tuples",
    )
}

/// The cases of `unification/tuples` against a fake, with a time limit
/// of `timeout` seconds: every one gets a verdict, and the verdicts are
/// `(passed, failed, crash, timeout, unsupported)`.
fn run_tuples(impl_command: &str, timeout: &str, pids: &Pids) -> ([usize; 5], String) {
    let (status, text) = run_watched(
        &[
            "--impl",
            impl_command,
            "--timeout",
            timeout,
            "--jobs",
            "2",
            "unification/tuples",
        ],
        pids,
    );
    assert_eq!(status.code(), Some(1), "{text}");
    assert_eq!(totals(&text).values().sum::<usize>(), tuples(), "{text}");
    let counts = ["passed", "failed", "CRASH", "TIMEOUT", "unsupported"];
    (counts.map(|s| total(&text, s)), text)
}

#[test]
fn an_implementation_that_closes_its_output_before_hello_is_reported_and_stopped() {
    let pids = Pids::new("close-before-hello");
    let (status, text) = run_watched(
        &[
            "--impl",
            &pids.fake("close-before-hello"),
            "unification/tuples",
        ],
        &pids,
    );
    assert_eq!(status.code(), Some(2), "{text}");
    assert!(
        text.contains("it closed its output without answering `hello`, and was killed"),
        "{text}"
    );
    pids.assert_none_running();
}

#[test]
fn an_implementation_that_closes_its_output_after_hello_crashes_each_case() {
    let pids = Pids::new("close-after-hello");
    let (counts, text) = run_tuples(&pids.fake("close-after-hello"), "10", &pids);
    assert_eq!(counts, [0, 0, tuples(), 0, 0], "{text}");
    assert!(
        text.contains("it closed its output without answering, and was killed"),
        "{text}"
    );
    pids.assert_none_running();
}

#[test]
fn an_implementation_that_stops_reading_its_input_times_out_on_each_case() {
    let pids = Pids::new("deaf");
    let (counts, text) = run_tuples(&pids.fake("deaf"), "0.5", &pids);
    assert_eq!(counts, [0, 0, 0, tuples(), 0], "{text}");
    pids.assert_none_running();
}

#[test]
fn a_request_the_implementation_does_not_read_does_not_block_the_runner() {
    // A request larger than a pipe holds: writing it blocks until the
    // process reads, which it never does.
    let pids = Pids::new("deaf-large");
    let mut command = ImplementationCommand::new(
        "python3".into(),
        vec![FAKE.into(), "deaf".into(), pids.0.display().to_string()],
        Duration::from_millis(500),
    );
    command.hello_timeout = Duration::from_secs(60);
    let pool = Pool::start(command).expect("the fake answers hello");
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let large: CaseInput = Input::Expr(kinds::Expr {
            expr: kinds::Text("1 + ".repeat(1 << 20) + "1"),
            variables: Default::default(),
            extensions: Vec::new(),
        });
        let _ = sender.send(pool.run(&large));
    });
    let outcome = receiver
        .recv_timeout(Duration::from_secs(120))
        .expect("the runner blocks writing a request the implementation does not read");
    assert!(matches!(outcome, Outcome::TimedOut(_)), "{outcome:?}");
    pids.assert_none_running();
}

#[test]
fn an_implementation_hanging_in_a_grandchild_is_stopped_whole() {
    // The shell is the runner's child; the Python process that hangs is the
    // shell's.
    let pids = Pids::new("grandchild");
    let (counts, text) = run_tuples(
        &format!("sh -c '{}; true'", pids.fake("hang")),
        "0.5",
        &pids,
    );
    assert_eq!(counts, [0, 0, 0, tuples(), 0], "{text}");
    pids.assert_none_running();
}

#[test]
fn an_implementation_that_exits_mid_run_leaves_nothing_running() {
    // Each process answers one case and exits on the next, leaving its
    // helper behind.
    let pids = Pids::new("exit-mid-run");
    let (counts, text) = run_tuples(&pids.fake("crash-every-other"), "10", &pids);
    assert!(counts[2] >= 1 && counts[4] >= 1, "{counts:?}\n{text}");
    pids.assert_none_running();
}

#[test]
fn a_hello_time_out_names_its_limit_and_stops_the_implementation() {
    let pids = Pids::new("mute");
    let mut command = ImplementationCommand::new(
        "python3".into(),
        vec![FAKE.into(), "mute".into(), pids.0.display().to_string()],
        Duration::from_secs(10),
    );
    command.hello_timeout = Duration::from_secs(2);
    let Err(why) = Pool::start(command) else {
        panic!("a mute implementation started")
    };
    assert!(
        why.contains("did not answer `hello` within 2s") && why.contains("killed"),
        "{why}"
    );
    pids.assert_none_running();
}

#[test]
fn the_matrix_leaves_no_implementation_running() {
    let pids = Pids::new("matrix");
    let dir = std::env::temp_dir().join(format!(
        "hcl-conformance-matrix-procs-{}",
        std::process::id()
    ));
    let suite = dir.join("suite");
    std::fs::create_dir_all(suite.join("conversion")).unwrap();
    let real = concat!(env!("CARGO_MANIFEST_DIR"), "/../suite");
    for file in ["requirements.jsonl", "conversion/bool-and-number.yaml"] {
        std::fs::copy(Path::new(real).join(file), suite.join(file)).unwrap();
    }
    let config = dir.join("matrix.toml");
    std::fs::write(
        &config,
        format!(
            "[deaf]\ncommand = \"{}\"\ntimeout = 0.5\n\n\
             [exits]\ncommand = \"{}\"\n\n\
             [grandchild]\ncommand = \"sh -c '{}; true'\"\ntimeout = 0.5\n",
            pids.fake("deaf"),
            pids.fake("crash-every-other"),
            pids.fake("hang")
        ),
    )
    .unwrap();
    let (status, text) = run_watched(
        &[
            "matrix",
            "--config",
            &config.display().to_string(),
            "--suite",
            &suite.display().to_string(),
            "--out",
            &dir.join("out").display().to_string(),
        ],
        &pids,
    );
    // Failures no list names fail the matrix.
    assert_eq!(status.code(), Some(1), "{text}");
    let n = cases_matching(&suite, "");
    assert!(
        text.contains(&format!(
            "| **total** | **{n}** | **{n} / 0 / 0** | **0 / {n} / 0** |"
        )),
        "{text}"
    );
    pids.assert_none_running();
}

#[test]
fn a_terminated_runner_stops_its_implementations() {
    for signal in ["TERM", "INT"] {
        let pids = Pids::new(&format!("signal-{signal}"));
        let mut runner = Command::new(env!("CARGO_BIN_EXE_hcl-conformance"))
            .args([
                "--impl",
                &pids.fake("hang"),
                "--timeout",
                "600",
                "unification/tuples",
            ])
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Once a case hangs (the process of `hello` and its helper, and one
        // more process with its helper), the runner is told to stop.
        let deadline = Instant::now() + Duration::from_secs(60);
        while pids.recorded().len() < 4 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(pids.recorded().len() >= 4, "{:?}", pids.recorded());
        Command::new("kill")
            .args([&format!("-{signal}"), &runner.id().to_string()])
            .status()
            .unwrap();
        let status = wait_at_most(&mut runner, Duration::from_secs(60))
            .unwrap_or_else(|| panic!("the runner did not stop on SIG{signal}"));
        let number = if signal == "TERM" { 15 } else { 2 };
        assert_eq!(status.signal(), Some(number), "{status:?}");
        pids.assert_none_running();
    }
}

#[test]
fn a_closed_standard_output_ends_the_runner_quietly() {
    let pids = Pids::new("closed-stdout");
    // Each way the runner writes: a list, a table, a case, and a run's text
    // (with an implementation to stop).
    for args in [
        vec!["list".to_string()],
        vec!["coverage".to_string()],
        vec![
            "show".to_string(),
            "unification/tuples::identical-tuple-types-unify-to-themselves".to_string(),
        ],
        vec![
            "--impl".to_string(),
            pids.fake("unsupported"),
            "unification/tuples".to_string(),
        ],
    ] {
        let mut runner = Command::new(env!("CARGO_BIN_EXE_hcl-conformance"))
            .args(&args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Nobody reads standard output: the runner's first write fails.
        drop(runner.stdout.take());
        let output = runner.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.signal(), Some(13), "{args:?}: {stderr}");
        assert!(stderr.trim().is_empty(), "{args:?}: {stderr}");
    }
    pids.assert_none_running();
}
