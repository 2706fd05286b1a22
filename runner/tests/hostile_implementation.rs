//! The runner against hostile implementations (issue 26): one that floods
//! its output, one line without end or lines nobody asked for; one whose
//! answers are far too long, or as long as the runner takes with as many
//! values as fit; one whose standard error, answers and name hold terminal
//! escapes. The runner itself runs bounded (`bounded/`: 4 GiB of address
//! space, a time limit): every case ends in a verdict, the runner stays
//! under 500 MB, what it prints is cut to a stated size and escaped, and
//! nothing it started is left running.

mod bounded;
mod fakes;

use bounded::{Bounds, Ended};
use fakes::{is_running, total, totals, Pids};
use hcl_conformance_format::terminal::{thousands, SHOWN_BYTES, SHOWN_LINE_BYTES};
use hcl_conformance_runner::subprocess::{
    MAX_ANSWER_BYTES, MAX_BUFFERED_BYTES, MAX_UNASKED_LINES, STDERR_TAIL_BYTES,
};
use std::path::Path;
use std::time::{Duration, Instant};

/// The most memory the runner may use against any of them, with --jobs 2.
const MAX_RSS: u64 = 500 << 20;

/// Runs the runner with `args`, bounded: 4 GiB of address space and `time`.
fn run_runner(args: &[&str], time: Duration) -> Ended {
    let bounds = Bounds {
        time,
        ..Bounds::ATTACK
    };
    bounded::run(
        Path::new(env!("CARGO_BIN_EXE_hcl-conformance")),
        args,
        Vec::new(),
        bounds,
    )
}

/// Runs `mode` of the fake over the cases whose id holds `filter`, with
/// --jobs 2 and a time limit of `timeout` seconds per case; checks that the
/// run ends in time, with a verdict per case, under [`MAX_RSS`], with
/// nothing left running.
fn attack(mode: &str, filter: &str, timeout: u64, pids: &Pids) -> Ended {
    let seconds = timeout.to_string();
    let args = [
        "--impl",
        &pids.fake(mode),
        "--timeout",
        &seconds,
        "--jobs",
        "2",
        filter,
    ];
    let ended = run_runner(&args, Duration::from_secs(timeout + 60));
    let text = ended.stdout();
    assert_eq!(ended.code, Some(1), "{mode}: {}\n{text}", ended.account());
    let cases = cases_matching(filter);
    assert_eq!(
        totals(&text).values().sum::<usize>(),
        cases,
        "{mode}: {text}"
    );
    assert!(ended.peak_rss < MAX_RSS, "{mode}: {}", ended.account());
    // Two cases at a time: the run ends within seconds of the time limits
    // it waited out (a few seconds with a release build; a debug build on
    // a busy machine gets more).
    let waited = total(&text, "TIMEOUT").div_ceil(2) as u64 * timeout;
    assert!(
        ended.elapsed < Duration::from_secs(waited + 30),
        "{mode}: {}",
        ended.account()
    );
    pids.assert_none_running();
    ended
}

fn cases_matching(filter: &str) -> usize {
    let suite = hcl_conformance_format::suite::load_embedded().expect("the suite loads");
    suite.cases().filter(|c| c.id.contains(filter)).count()
}

/// When the first process the fakes recorded (the one that answers
/// `hello`) stopped running, watched from another thread.
fn watch_first_process(pids: &Pids) -> std::thread::JoinHandle<Option<Instant>> {
    let path = pids.0.clone();
    std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            let recorded = std::fs::read_to_string(&path).unwrap_or_default();
            // Each process records its helper's id, then its own.
            let first = recorded.lines().nth(1).and_then(|l| l.trim().parse().ok());
            if let Some(pid) = first {
                while is_running(pid) && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(5));
                }
                return Some(Instant::now());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    })
}

/// The process that answered `hello` answers one case, then floods; the
/// other case goes to a fresh process, which hangs until its time limit.
/// The flood is stopped as it starts, not when the run ends.
fn flood(mode: &str) {
    let pids = Pids::new(mode);
    let watcher = watch_first_process(&pids);
    let started = Instant::now();
    let ended = attack(mode, "unify-to-number", 4, &pids);
    let text = ended.stdout();
    let flooder_stopped = watcher.join().unwrap().expect("the flooder ran");
    assert_eq!(total(&text, "unsupported"), 1, "{text}");
    if total(&text, "TIMEOUT") == 1 {
        // It flooded while idle, the other case waiting for the hanging
        // process: it was killed long before the run ended.
        let run_ended = started + ended.elapsed;
        assert!(
            flooder_stopped + Duration::from_secs(2) < run_ended,
            "the flooder was stopped {:?} after the run started, which took {:?}",
            flooder_stopped - started,
            ended.elapsed
        );
    } else {
        // Both cases went to it, one after the other: the flood was the
        // second one's answer.
        assert_eq!(total(&text, "failed"), 1, "{text}");
    }
}

#[test]
fn an_implementation_flooding_one_endless_line_is_stopped_at_once() {
    flood("flood-no-newline");
}

#[test]
fn an_implementation_flooding_lines_nobody_asked_for_is_stopped_at_once() {
    flood("flood-lines");
}

#[test]
fn answers_longer_than_the_cap_are_broken_and_cost_little() {
    let pids = Pids::new("answers-60mib");
    let ended = attack("answers-60mib", "unify-to-number", 10, &pids);
    let text = ended.stdout();
    assert_eq!(total(&text, "failed"), 2, "{text}");
    let cap = format!(
        "broken answer: the answer is longer than {} bytes",
        thousands(MAX_ANSWER_BYTES)
    );
    assert_eq!(text.matches(&cap).count(), 2, "{text}");
    assert!(text.len() < 8 << 10, "{} bytes of output", text.len());
}

#[test]
fn answers_as_long_as_the_cap_with_as_many_values_as_fit_keep_the_runner_small() {
    // A list of zeros, two bytes a value: the most values an answer the
    // runner reads can hold, each a value to decode, compare and render.
    let pids = Pids::new("numbers-of");
    let mode = format!("numbers-of {}", MAX_ANSWER_BYTES - 100);
    let ended = attack(&mode, "e-does-not-convert-to-number", 10, &pids);
    let text = ended.stdout();
    // Read, and failed as a wrong answer, not as a broken one.
    assert_eq!(total(&text, "failed"), 2, "{text}");
    assert!(!text.contains("broken answer"), "{text}");
}

#[test]
fn failure_output_is_cut_with_a_note_of_how_much() {
    // Each answer is a wrong one whose error summary is nearly as long as
    // the runner reads: it would be shown two or three times per case.
    let pids = Pids::new("answers-of");
    let mode = format!("answers-of {}", MAX_ANSWER_BYTES - 100);
    let ended = attack(&mode, "unification/tuples", 10, &pids);
    let text = ended.stdout();
    let cases = cases_matching("unification/tuples");
    assert_eq!(total(&text, "failed"), cases, "{text}");
    assert!(
        text.contains(" more bytes)"),
        "{}",
        bounded::tail(&text, 2000)
    );
    // Each case's message, and the summary.
    let most = cases * (SHOWN_BYTES + SHOWN_LINE_BYTES + 1024) + (4 << 10);
    assert!(text.len() < most, "{} bytes of output", text.len());
    // The reports keep what was shown: a case's reason and message.
    let ended = run_runner(
        &[
            "--impl",
            &pids.fake(&mode),
            "--format",
            "json",
            "--exact",
            "unification/tuples::tuples-unify-element-by-element",
        ],
        Duration::from_secs(30),
    );
    assert_eq!(ended.code, Some(1), "{}", ended.account());
    let report: serde_json::Value = serde_json::from_slice(&ended.stdout).unwrap();
    let case = &report["cases"][0];
    let (reason, message) = (case["reason"].as_str(), case["message"].as_str());
    let (reason, message) = (reason.unwrap_or(""), message.unwrap_or(""));
    assert!(
        reason.len() < SHOWN_LINE_BYTES + 100 && reason.ends_with(" more bytes)"),
        "{reason}"
    );
    assert!(
        message.len() < SHOWN_BYTES + 100 && message.ends_with(" more bytes)"),
        "{}",
        bounded::tail(message, 500)
    );
    pids.assert_none_running();
}

/// The escapes the fake writes, as a terminal would act on them, and
/// escaped.
const RAW: [&str; 4] = ["\x1b", "\x07", "\u{9b}", "\r"];
const ESCAPED: &str = "\\u{1b}[31mred\\u{1b}]0;title\\u{7}\\u{1b}[2J\\u{9b}1m";

fn assert_escaped(text: &str) {
    for raw in RAW {
        assert!(!text.contains(raw), "{raw:?} shown raw in:\n{text}");
    }
}

#[test]
fn terminal_escapes_of_an_implementation_are_shown_escaped() {
    let pids = Pids::new("escapes");
    let ended = attack("escapes", "unification/tuples", 10, &pids);
    let text = ended.stdout() + &ended.stderr();
    assert_escaped(&text);
    // In an answer's error summary (a wrong answer), in the end of
    // standard error (a crash), in its name (the summary).
    assert!(text.contains(&format!("(summary {ESCAPED})")), "{text}");
    assert!(text.contains(&format!("stderr {ESCAPED}")), "{text}");
    assert!(
        text.contains("summary: fake-escapes\\u{1b}]0;pwned\\u{7} 0"),
        "{text}"
    );
    // `show` against it, and `--format markdown`.
    let case = "unification/tuples::tuples-unify-element-by-element";
    for args in [
        vec!["show", case, "--impl"],
        vec!["--format", "markdown", "--exact", case, "--impl"],
    ] {
        let fake = pids.fake("escapes");
        let args: Vec<&str> = args.into_iter().chain([fake.as_str()]).collect();
        let ended = run_runner(&args, Duration::from_secs(30));
        let text = ended.stdout() + &ended.stderr();
        assert_eq!(ended.code, Some(1), "{args:?}: {}\n{text}", ended.account());
        assert_escaped(&text);
        assert!(text.contains(ESCAPED), "{args:?}: {text}");
    }
    pids.assert_none_running();
}

#[test]
fn terminal_escapes_of_the_suite_are_shown_escaped_by_show() {
    // A suite of one case, whose description has escapes (YAML writes
    // ESC `\e` and BEL `\a` in a double-quoted string).
    let dir = std::env::temp_dir().join(format!("hcl-conformance-escapes-{}", std::process::id()));
    let suite = dir.join("suite");
    std::fs::create_dir_all(suite.join("unification")).unwrap();
    let real = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite"));
    std::fs::copy(
        real.join("requirements.jsonl"),
        suite.join("requirements.jsonl"),
    )
    .unwrap();
    let file = r#"spec: spec.md#type-unification
summary: |
  Number and number unify to number.
kind: unify
cases:
  - name: escapes
    description: "The result \e[31mis\a neither\e]0;title\a input type."
    covers: [hcl.type-unification.003]
    types: ["number", "number"]
    expect: { type: "number" }
"#;
    std::fs::write(suite.join("unification/escapes.yaml"), file).unwrap();
    let ended = run_runner(
        &[
            "show",
            "unification/escapes::escapes",
            "--suite",
            &suite.display().to_string(),
        ],
        Duration::from_secs(30),
    );
    let _ = std::fs::remove_dir_all(&dir);
    let text = ended.stdout() + &ended.stderr();
    assert_eq!(ended.code, Some(0), "{}\n{text}", ended.account());
    assert_escaped(&text);
    assert!(
        text.contains("The result \\u{1b}[31mis\\u{7} neither\\u{1b}]0;title\\u{7} input type."),
        "{text}"
    );
}

#[test]
fn the_limits_are_the_numbers_protocol_md_states() {
    let protocol = include_str!("../PROTOCOL.md");
    // `512 KiB (524,288 bytes)`, `1 MiB (1,048,576 bytes)`.
    let size = |bytes: usize| match bytes {
        b if b % (1 << 20) == 0 => format!("{} MiB ({} bytes)", b >> 20, thousands(b)),
        b => format!("{} KiB ({} bytes)", b >> 10, thousands(b)),
    };
    let rows = [
        ("| an answer line |", size(MAX_ANSWER_BYTES)),
        (
            "| output held that no case has taken yet",
            size(MAX_BUFFERED_BYTES),
        ),
        (
            "| lines written beyond the requests sent",
            format!("| {MAX_UNASKED_LINES} |"),
        ),
        ("| the end of standard error kept", size(STDERR_TAIL_BYTES)),
        ("| a failing case's message", size(SHOWN_BYTES)),
        ("| a failing case's one-line reason", size(SHOWN_LINE_BYTES)),
    ];
    for (row, limit) in rows {
        let line = protocol.lines().find(|l| l.starts_with(row));
        let line = line.unwrap_or_else(|| panic!("PROTOCOL.md has no row {row}"));
        assert!(line.contains(&limit), "{row} does not say {limit}: {line}");
    }
    let cap = format!("longer than {} bytes`", thousands(MAX_ANSWER_BYTES));
    assert!(protocol.contains(&cap), "PROTOCOL.md does not quote {cap}");
}
