//! The fake implementations of the runner's robustness tests
//! (`misbehave.py`, one misbehaviour per mode), and what the tests share to
//! run them: the record of the processes they start, and the verdicts of a
//! run's summary.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// The fake that misbehaves in the way its first argument names.
pub const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fakes/misbehave.py");

// Given a file after the mode, a fake records the id of its process, and
// of a helper it starts in the background, in it; the tests check that
// every one is gone once the runner is.

/// The fakes' record of their process ids. Dropping it kills whatever is
/// still running, so that a failing test leaves nothing behind either.
pub struct Pids(pub PathBuf);

impl Pids {
    pub fn new(name: &str) -> Pids {
        let path = std::env::temp_dir().join(format!(
            "hcl-conformance-pids-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&path);
        Pids(path)
    }

    /// The command of a fake that records into this file.
    pub fn fake(&self, mode: &str) -> String {
        format!("python3 {FAKE} {mode} {}", self.0.display())
    }

    pub fn recorded(&self) -> Vec<i32> {
        std::fs::read_to_string(&self.0)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// Every recorded process has ended. (A killed process may stay a
    /// zombie until whoever inherited it reaps it: it no longer runs. The
    /// kill itself takes effect asynchronously, hence the short wait.)
    pub fn assert_none_running(&self) {
        let pids = self.recorded();
        assert!(
            pids.len() >= 2,
            "the fakes recorded no process and helper: {pids:?}"
        );
        for pid in pids {
            let deadline = Instant::now() + Duration::from_secs(5);
            while is_running(pid) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            assert!(!is_running(pid), "process {pid} is still running");
        }
    }
}

impl Drop for Pids {
    fn drop(&mut self) {
        for pid in self.recorded() {
            if is_running(pid) {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            }
        }
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Whether the process exists and is not a zombie.
pub fn is_running(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // `PID (COMMAND) STATE ...`; the command may hold parentheses.
    let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
    !matches!(state.and_then(|s| s.chars().next()), Some('Z' | 'X') | None)
}

/// The verdicts of the summary's total row, by the names of its columns
/// (a status no case got has no column: 0).
pub fn totals(text: &str) -> BTreeMap<String, usize> {
    let row = |first: &str| {
        let line = text.lines().find(|l| l.starts_with(first));
        let line = line.unwrap_or_else(|| panic!("no summary in:\n{text}"));
        let cells = line.split('|').map(str::trim).filter(|c| !c.is_empty());
        cells.skip(1).map(str::to_string).collect::<Vec<_>>()
    };
    let totals = row("| total ").into_iter().map(|n| n.parse().unwrap());
    row("| area ").into_iter().zip(totals).collect()
}

pub fn total(text: &str, status: &str) -> usize {
    totals(text).get(status).copied().unwrap_or(0)
}

/// Runs the runner from the project's root: its exit code (`None` when a
/// signal ended it), and its standard output and error together.
pub fn run_cli(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_hcl-conformance"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stdout).to_string()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.code(), text)
}
