//! `hcl-conformance`: runs the HCL conformance suite.
//!
//! ```text
//! hcl-conformance [--profile NAME] [--suite DIR] [LIBTEST OPTIONS] [FILTER]
//!     runs every case against the reference interpreter, in-process, one
//!     libtest trial per case (so `--list`, `--exact`, `--skip` and name
//!     filters work), then prints a summary per area.
//! hcl-conformance coverage [--check] [--suite DIR]
//!     prints, per document and section, the covered/testable requirements;
//!     with --check, fails if a finished area is incomplete.
//! ```

use hcl_conformance::requirements::{
    check_finished, coverage, finished_areas, ids_settled_by_notes, render_coverage,
};
use hcl_conformance::run::{trials, Implementation, Summary};
use hcl_conformance::suite::{find_suite_dir, load_suite, Suite, KNOWN_PROFILES, SPEC_PROFILE};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

const USAGE: &str = "usage:
  hcl-conformance [--profile spec|hcl-v2.14] [--suite DIR] [LIBTEST OPTIONS] [FILTER]
  hcl-conformance coverage [--check] [--suite DIR]";

/// Our own options, taken out of the arguments before libtest-mimic reads
/// the rest.
struct Options {
    profile: String,
    suite: Option<PathBuf>,
    rest: Vec<String>,
}

fn parse_options(args: Vec<String>) -> Result<Options, String> {
    let mut options = Options {
        profile: SPEC_PROFILE.to_string(),
        suite: None,
        rest: Vec::new(),
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        match flag.as_str() {
            "--profile" | "--suite" => {
                let value = inline
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{flag} needs a value"))?;
                if flag == "--profile" {
                    if value != SPEC_PROFILE && !KNOWN_PROFILES.contains(&value.as_str()) {
                        return Err(format!(
                            "unknown profile `{value}`; the profiles are {SPEC_PROFILE}, {}",
                            KNOWN_PROFILES.join(", ")
                        ));
                    }
                    options.profile = value;
                } else {
                    options.suite = Some(PathBuf::from(value));
                }
            }
            _ => options.rest.push(arg),
        }
    }
    Ok(options)
}

fn load(dir: Option<PathBuf>) -> Result<Suite, ExitCode> {
    let dir = dir.unwrap_or_else(find_suite_dir);
    load_suite(&dir).map_err(|errors| {
        for error in &errors {
            eprintln!("suite bug: {error}");
        }
        eprintln!(
            "\n{} problem(s) in the suite's case files; fix them (suite/README.md describes the format).",
            errors.len()
        );
        ExitCode::from(2)
    })
}

fn run_coverage(args: Vec<String>) -> ExitCode {
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => return usage_error(&e),
    };
    let check = options.rest.iter().any(|a| a == "--check");
    if let Some(other) = options.rest.iter().find(|a| *a != "--check") {
        return usage_error(&format!("unexpected argument `{other}` for coverage"));
    }
    let suite = match load(options.suite) {
        Ok(suite) => suite,
        Err(code) => return code,
    };
    let covered: BTreeSet<String> = suite
        .cases()
        .flat_map(|c| c.covers.iter().cloned())
        .collect();
    let notes_dir = suite.dir.join("../spec-notes");
    let settled = ids_settled_by_notes(&notes_dir);
    let sections = coverage(&suite.requirements, &covered, &settled);
    let finished = match finished_areas(&suite.dir) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    print!("{}", render_coverage(&sections, &finished));
    if check {
        let problems = check_finished(&sections, &finished);
        if !problems.is_empty() {
            eprintln!("\ncoverage of finished areas dropped:");
            for problem in &problems {
                eprintln!("  {problem}");
            }
            return ExitCode::FAILURE;
        }
        println!("\nall {} finished areas are fully covered", finished.len());
    }
    ExitCode::SUCCESS
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("hcl-conformance: {message}\n{USAGE}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().collect();
    let program = args.remove(0);
    if args.first().map(String::as_str) == Some("coverage") {
        return run_coverage(args.split_off(1));
    }
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}\n\nlibtest options:");
    }
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => return usage_error(&e),
    };
    let suite = match load(options.suite) {
        Ok(suite) => suite,
        Err(code) => return code,
    };
    let test_args =
        libtest_mimic::Arguments::from_iter(std::iter::once(program).chain(options.rest));
    let summary = Arc::new(Summary::default());
    let implementation: Implementation = Arc::new(hcl_conformance::reference::run);
    let listing = test_args.list;
    let conclusion = libtest_mimic::run(
        &test_args,
        trials(
            &suite,
            implementation,
            &options.profile,
            Arc::clone(&summary),
        ),
    );
    if !listing {
        print!(
            "{}",
            summary.render("reference interpreter (in-process)", &options.profile)
        );
    }
    conclusion.exit_code()
}
