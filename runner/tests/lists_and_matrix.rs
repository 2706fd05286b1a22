//! Known-failure lists (checked both ways, written from a run) and
//! `hcl-conformance matrix` (its configuration file, its table, its exit
//! status).

use hcl_conformance_format::areas::{area_of, OTHER};
use hcl_conformance_format::suite::load_suite;
use hcl_conformance_runner::matrix::parse_config;
use std::path::{Path, PathBuf};
use std::process::Command;

const MISBEHAVE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fakes/misbehave.py");
const HCL_REF: &str = env!("CARGO_BIN_EXE_hcl-ref");

/// Runs the runner binary from the project's root.
fn run_cli(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_hcl-conformance"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).to_string(),
        String::from_utf8_lossy(&output.stderr).to_string(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hcl-conformance-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn suite_dir() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite")).to_path_buf()
}

/// The number of cases of a suite file.
fn cases_in(file: &str) -> usize {
    let suite = load_suite(&suite_dir()).unwrap_or_else(|_| panic!("the suite loads"));
    let prefix = format!("{file}::");
    suite.cases().filter(|c| c.id.starts_with(&prefix)).count()
}

fn first_case_of(file: &str) -> String {
    let suite = load_suite(&suite_dir()).unwrap_or_else(|_| panic!("the suite loads"));
    let id = suite
        .cases()
        .find(|c| c.id.starts_with(&format!("{file}::")))
        .unwrap_or_else(|| panic!("no case in {file}"))
        .id
        .clone();
    id
}

#[test]
fn every_bad_line_of_a_known_failure_list_is_reported_with_its_place() {
    let dir = scratch("bad-list");
    let list = dir.join("list.txt");
    let real = first_case_of("unification/tuples");
    std::fs::write(
        &list,
        format!("# header\nno/such::case because\n{real}\n\n{real} a reason\n{real} again\n"),
    )
    .unwrap();
    let list = list.display().to_string();
    let (code, out, err) = run_cli(&["--expect-failures", &list, "unification/tuples"]);
    let text = out + &err;
    assert_eq!(code, Some(2), "{text}");
    assert!(
        text.contains(&format!(
            "{list}:2: `no/such::case` is not a case of the suite"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{list}:3: say why `{real}` is expected to fail")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{list}:6: `{real}` is listed twice (first at {list}:5)"
        )),
        "{text}"
    );
}

#[test]
fn a_listed_case_the_implementation_cannot_run_must_leave_the_list() {
    let dir = scratch("unsupported-listed");
    let list = dir.join("list.txt");
    let listed = first_case_of("conversion/string-and-number");
    std::fs::write(&list, format!("{listed} no conversions yet\n")).unwrap();
    let (code, out, err) = run_cli(&[
        "--impl",
        &format!("python3 {MISBEHAVE} only-unify"),
        "--expect-failures",
        &list.display().to_string(),
        "conversion/string-and-number",
    ]);
    let text = out + &err;
    assert_ne!(code, Some(0), "{text}");
    assert!(
        text.contains("is unsupported (needs kind convert), but")
            && text.contains("remove it from the list"),
        "{text}"
    );
    // Unlisted, the same case is merely unsupported, and the run passes.
    let (code, out, err) = run_cli(&[
        "--impl",
        &format!("python3 {MISBEHAVE} only-unify"),
        "conversion/string-and-number",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
}

fn list_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_list_is_written_from_a_run_keeping_the_reasons_written_by_hand() {
    let dir = scratch("write-list");
    let list = dir.join("list.txt");
    let list_arg = list.display().to_string();
    let crash = format!("python3 {MISBEHAVE} crash");
    // Every case crashes: all are listed, sorted, with the crash as reason.
    let (code, out, err) = run_cli(&[
        "--impl",
        &crash,
        "--write-failures",
        &list_arg,
        "unification/tuples",
    ]);
    assert_ne!(code, Some(0), "{out}{err}");
    let cases = cases_in("unification/tuples");
    assert!(cases > 2, "{cases} cases in unification/tuples");
    let lines = list_lines(&list);
    assert_eq!(lines.len(), cases, "{lines:?}");
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(
        lines.iter().all(|l| l.contains(" CRASH: it exited")),
        "{lines:?}"
    );
    // A reason edited by hand, and a case outside this run's filter.
    let (first_id, _) = lines[0].split_once(' ').unwrap();
    let elsewhere = first_case_of("types/equality");
    let mut text = std::fs::read_to_string(&list).unwrap();
    text = text.replacen(&lines[0], &format!("{first_id} my own words"), 1);
    text.push_str(&format!("{elsewhere} fails elsewhere\n"));
    std::fs::write(&list, text).unwrap();
    // The listed crashes are expected now: the run passes, the list stays.
    let (code, out, err) = run_cli(&[
        "--impl",
        &crash,
        "--expect-failures",
        &list_arg,
        "--write-failures",
        &list_arg,
        "unification/tuples",
    ]);
    assert_eq!(code, Some(0), "{out}{err}");
    let lines = list_lines(&list);
    assert_eq!(lines.len(), cases + 1, "{lines:?}");
    assert!(
        lines.contains(&format!("{first_id} my own words")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&format!("{elsewhere} fails elsewhere")),
        "{lines:?}"
    );
    // Against the reference interpreter nothing in the filter fails: the
    // run fails (unexpected passes), and the list shrinks to the case the
    // run did not select.
    let (code, out, err) = run_cli(&[
        "--impl",
        HCL_REF,
        "--expect-failures",
        &list_arg,
        "--write-failures",
        &list_arg,
        "unification/tuples",
    ]);
    assert_ne!(code, Some(0), "{out}{err}");
    assert_eq!(list_lines(&list), [format!("{elsewhere} fails elsewhere")]);
}

#[test]
fn every_case_file_and_requirement_falls_in_a_named_area() {
    let suite = load_suite(&suite_dir()).unwrap_or_else(|_| panic!("the suite loads"));
    for file in &suite.files {
        assert_ne!(
            area_of(&file.spec[0]),
            OTHER,
            "{}: add its first section (or its document) to hcl_conformance_format::areas::AREAS",
            file.id
        );
    }
    for r in suite.requirements.iter() {
        let section = format!("{}#{}", r.doc, r.anchor);
        assert_ne!(area_of(&section), OTHER, "{section}: add it to an area");
    }
    assert_eq!(area_of("hclsyntax-spec.md#keywords"), "lexical");
    assert_eq!(area_of("hclsyntax-spec.md#template-literals"), "templates");
    assert_eq!(area_of("hclsyntax-spec.md#logic-operators"), "expressions");
    assert_eq!(
        area_of("hclsyntax-spec.md#static-analysis"),
        "static analysis"
    );
    assert_eq!(area_of("spec.md#static-analysis"), "static analysis");
    assert_eq!(area_of("spec.md#schema-driven-processing"), "bodies");
    assert_eq!(area_of("json-spec.md#static-analysis"), "JSON syntax");
    assert_eq!(area_of("new-document.md#x"), OTHER);
}

#[test]
fn a_matrix_configuration_is_read_and_its_mistakes_named_by_line() {
    let path = Path::new("/conf/matrix.toml");
    std::env::set_var("HCL_CONFORMANCE_TEST_ADAPTERS", "/built");
    let entries = parse_config(
        path,
        "# implementations\n[one]\ncommand = \"${HCL_CONFORMANCE_TEST_ADAPTERS}/one --fast\"  # comment\n\
         profile = \"hcl-v2.14\"\nknown-failures = \"lists/one.txt\"\ntimeout = 2.5\n\n\
         [two]\ncommand = \"'python3' adapters/two.py\"\n",
    )
    .unwrap();
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0].name, "one");
    assert_eq!(entries[0].command, ["/built/one", "--fast"]);
    assert_eq!(entries[0].profile, "hcl-v2.14");
    assert_eq!(
        entries[0].known_failures.as_deref(),
        Some(Path::new("/conf/lists/one.txt"))
    );
    assert_eq!(entries[0].timeout.as_millis(), 2500);
    assert_eq!(entries[0].place, "/conf/matrix.toml:2");
    assert_eq!(entries[1].command, ["python3", "adapters/two.py"]);
    assert_eq!(entries[1].profile, "spec");

    // Each mistake, alone in a file, is named with its line.
    let mistakes = [
        ("command = \"x\"\n", "/conf/matrix.toml:1: invalid type"),
        ("[one]\ncommand = \"x\"\nprofile = \"nope\"\n", "/conf/matrix.toml:1: [one]: unknown profile `nope`"),
        ("\n[one]\ncommand = \"x\"\ntimeout = -1\n", "/conf/matrix.toml:2: [one]: timeout is a positive number of seconds"),
        ("[one]\ncommand = \"x\"\ncolour = \"red\"\n", "/conf/matrix.toml:3: unknown field `colour`"),
        ("[one]\ncommand = \"${HCL_CONFORMANCE_TEST_MISSING}/x\"\n", "/conf/matrix.toml:1: [one]: the environment variable HCL_CONFORMANCE_TEST_MISSING is not set"),
        ("[one]\nprofile = \"spec\"\n", "/conf/matrix.toml:1: missing field `command`"),
        ("[one]\ncommand = \"x\"\n[one]\ncommand = \"y\"\n", "/conf/matrix.toml:3: duplicate key"),
        ("[reference]\ncommand = \"z\"\n", "/conf/matrix.toml:1: [reference]: not a usable name"),
        ("[\"a b\"]\ncommand = \"z\"\n", "/conf/matrix.toml:1: [a b]: not a usable name"),
        ("[one]\ncommand = \"\"\n", "/conf/matrix.toml:1: [one]: the command is empty"),
        ("just words\n", "/conf/matrix.toml:1: "),
    ];
    for (text, expected) in mistakes {
        let error = parse_config(path, text).unwrap_err();
        assert!(
            error.starts_with(expected),
            "{text:?}: `{error}` is not `{expected}...`"
        );
    }
}

#[test]
fn the_matrix_counts_every_case_and_fails_when_a_list_does_not_match() {
    let dir = scratch("matrix");
    let listed = first_case_of("unification/tuples");
    std::fs::write(dir.join("ref.txt"), format!("{listed} thought to fail\n")).unwrap();
    let config = dir.join("matrix.toml");
    std::fs::write(
        &config,
        format!(
            "[hcl-ref]\ncommand = \"{HCL_REF}\"\nknown-failures = \"ref.txt\"\n\n\
             [only-unify]\ncommand = \"python3 {MISBEHAVE} only-unify\"\n"
        ),
    )
    .unwrap();
    let out = dir.join("out");
    let (config, shown_out) = (config.display().to_string(), out.display().to_string());
    let run_matrix = || run_cli(&["matrix", "--config", &config, "--out", &shown_out]);
    let (code, stdout, stderr) = run_matrix();
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!("listed, did not fail: {listed}")),
        "{stderr}"
    );
    let suite = load_suite(&suite_dir()).unwrap_or_else(|_| panic!("the suite loads"));
    let total = suite.cases().count();
    let markdown = std::fs::read_to_string(out.join("matrix.md")).unwrap();
    // Every column adds up to the whole suite: the reference passes all,
    // hcl-ref through the protocol too, the fake supports nothing.
    let total_row = markdown
        .lines()
        .find(|l| l.starts_with("| **total**"))
        .unwrap_or_else(|| panic!("{markdown}"));
    assert_eq!(
        total_row,
        format!(
            "| **total** | **{total}** | **{total} / 0 / 0** | **{total} / 0 / 0** | **0 / 0 / {total}** |"
        )
    );
    for area in [
        "lexical",
        "expressions",
        "templates",
        "conversion",
        "JSON syntax",
    ] {
        assert!(markdown.contains(&format!("\n| {area} | ")), "{markdown}");
    }
    assert!(markdown.contains("| hcl-ref | "), "{markdown}");
    let details: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("matrix-details.json")).unwrap())
            .unwrap();
    let cases = details["cases"].as_array().unwrap();
    assert_eq!(cases.len(), total);
    let listed_case = cases.iter().find(|c| c["id"] == listed.as_str()).unwrap();
    assert_eq!(listed_case["results"]["hcl-ref"]["listed"], true);
    assert_eq!(
        listed_case["results"]["only-unify"]["status"],
        "unsupported"
    );
    // The list the results call for is empty.
    let regenerated = std::fs::read_to_string(out.join("known-failures/hcl-ref.txt")).unwrap();
    assert!(
        regenerated.lines().all(|l| l.starts_with('#')),
        "{regenerated}"
    );
    // With the list right, the matrix passes.
    std::fs::write(dir.join("ref.txt"), "# nothing fails\n").unwrap();
    let (code, stdout, stderr) = run_matrix();
    assert_eq!(code, Some(0), "{stdout}{stderr}");
}

#[test]
fn the_matrix_fails_loudly_when_an_implementation_does_not_start() {
    let dir = scratch("matrix-missing");
    let config = dir.join("matrix.toml");
    std::fs::write(&config, "[gone]\ncommand = \"./no-such-adapter\"\n").unwrap();
    let (code, stdout, stderr) = run_cli(&["matrix", "--config", &config.display().to_string()]);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}:1: the implementation [gone]",
            config.display()
        )) && stderr.contains("did not start"),
        "{stderr}"
    );
}
