//! `hcl-conformance fuzz` end to end: against hcl-ref through the protocol
//! a seeded run finds nothing; against an implementation that answers
//! wrongly it finds, shrinks and clusters the disagreements, fails, and
//! writes them as `fuzz.json` and as case files in the suite's format.

use std::path::Path;
use std::process::Command;

const RUNNER: &str = env!("CARGO_BIN_EXE_hcl-conformance");
const HCL_REF: &str = env!("CARGO_BIN_EXE_hcl-ref");

fn fuzz(implementation: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(RUNNER)
        .args(["fuzz", "--impl", implementation])
        .args(args)
        .args(if args.contains(&"--jobs") {
            &[][..]
        } else {
            &["--jobs", "2"][..]
        })
        .output()
        .expect("the runner runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (
        out.status.success(),
        stdout + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn the_reference_through_the_protocol_agrees_with_itself() {
    let (ok, out) = fuzz(HCL_REF, &["--seed", "11", "--cases", "3000"]);
    assert!(ok, "{out}");
    assert!(out.contains("3000 cases"), "{out}");
    assert!(out.contains(", 0 disagreements, 0 clusters"), "{out}");
}

#[test]
fn a_broken_implementation_is_found_shrunk_and_written_as_cases() {
    let dir = tempfile_dir("broken");
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fakes/broken.py");
    let implementation = format!("python3 {} {HCL_REF}", broken.display());
    let out_dir = dir.to_str().unwrap();
    let (ok, out) = fuzz(
        &implementation,
        &[
            "--seed",
            "3",
            "--cases",
            "300",
            "--kinds",
            "expr,convert",
            "--out",
            out_dir,
        ],
    );
    assert!(!ok, "a run that finds clusters fails: {out}");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("fuzz.json")).unwrap()).unwrap();
    let clusters = report["clusters"].as_array().unwrap();
    assert!(!clusters.is_empty(), "{report}");
    let disagreements = report["disagreements"].as_u64().unwrap();
    let sizes: u64 = clusters.iter().map(|c| c["size"].as_u64().unwrap()).sum();
    assert_eq!(sizes, disagreements, "every disagreement is in one cluster");
    for cluster in clusters {
        let case = dir.join(cluster["case"].as_str().unwrap());
        let text = std::fs::read_to_string(&case).unwrap();
        assert!(
            text.starts_with("# REVIEW before this case joins the suite"),
            "{text}"
        );
        assert!(text.contains("kind: "), "{text}");
    }
    // The same seed finds the same clusters, whatever the jobs.
    let (_, again) = fuzz(
        &implementation,
        &[
            "--seed",
            "3",
            "--cases",
            "300",
            "--kinds",
            "expr,convert",
            "--jobs",
            "1",
        ],
    );
    let first = std::fs::read_to_string(dir.join("fuzz.json")).unwrap();
    assert!(!cluster_keys(&again).is_empty());
    for key in cluster_keys(&again) {
        assert!(first.contains(key), "{key} not found by the first run");
    }
}

#[test]
fn expected_clusters_are_named_and_do_not_fail_the_run() {
    let dir = tempfile_dir("expected");
    let broken = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fakes/broken.py");
    let implementation = format!("python3 {} {HCL_REF}", broken.display());
    let args = ["--seed", "5", "--cases", "200", "--kinds", "convert"];
    let (ok, out) = fuzz(&implementation, &args);
    assert!(!ok, "{out}");
    let keys = cluster_keys(&out);
    let list = dir.join("known.txt");
    std::fs::write(
        &list,
        keys.iter()
            .map(|k| format!("{k}  # known\n"))
            .collect::<String>(),
    )
    .unwrap();
    let (ok, out) = fuzz(
        &implementation,
        &[&args[..], &["--expect-clusters", list.to_str().unwrap()]].concat(),
    );
    assert!(ok, "{out}");
    assert!(out.contains("0 unexpected cluster(s)"), "{out}");
}

/// The keys of the clusters a run printed (`cluster N: KEY (...)`).
fn cluster_keys(out: &str) -> Vec<&str> {
    out.lines()
        .filter_map(|l| l.strip_prefix("cluster ")?.split_once(": "))
        .filter_map(|(_, rest)| rest.split(" (").next())
        .collect()
}

fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("hcl-fuzz-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Each list of runner/fuzz-clusters/ reads: `--profile` takes them built
/// in, and a list with a line that is no cluster key would expect nothing.
#[test]
fn the_profiles_cluster_lists_read() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz-clusters");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).expect("runner/fuzz-clusters/ exists") {
        let path = entry.expect("a list").path();
        let text = std::fs::read_to_string(&path).expect("the list reads");
        let name = path.display().to_string();
        if let Err(e) = hcl_conformance_runner::fuzz::cluster::Expected::parse(&name, &text) {
            panic!("{e}");
        }
        read += 1;
    }
    assert!(read > 0, "no list in {}", dir.display());
}
