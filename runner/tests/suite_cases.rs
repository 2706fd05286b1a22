//! `cargo test` over the suite, one test per case (libtest-mimic), with the
//! summary per area: the same run as `hcl-conformance` with no arguments.
//! Also checks that the coverage of the finished areas is complete.

use hcl_conformance::outcome::Outcome;
use hcl_conformance::reference;
use hcl_conformance::requirements::{
    check_finished, coverage, finished_areas, ids_settled_by_notes,
};
use hcl_conformance::run::{trials, Implementation, KnownFailures, RunSettings, Summary};
use hcl_conformance::suite::{load_suite, SPEC_PROFILE};
use hcl_interpreter::Diagnostic;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;

fn main() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite"));
    let suite = match load_suite(dir) {
        Ok(suite) => suite,
        Err(errors) => {
            for error in errors {
                eprintln!("suite bug: {error}");
            }
            std::process::exit(101);
        }
    };
    let args = libtest_mimic::Arguments::from_args();
    let summary = Arc::new(Summary::default());
    // An internal error of the reference interpreter (a panic it caught)
    // is a crash, never an error a case may expect.
    let implementation: Implementation = Arc::new(|input| match reference::run(input) {
        Outcome::Error { diagnostics, .. }
            if diagnostics.iter().any(Diagnostic::is_internal_error) =>
        {
            Outcome::Crashed(format!("{diagnostics:?}"))
        }
        outcome => outcome,
    });
    let settings = RunSettings {
        implementation,
        capabilities: None,
        profile: SPEC_PROFILE.to_string(),
        known_failures: Arc::new(KnownFailures::default()),
        summary: Arc::clone(&summary),
    };
    let mut all = trials(&suite, &settings, &args);

    let covered: BTreeSet<String> = suite
        .cases()
        .flat_map(|c| c.covers.iter().cloned())
        .collect();
    let settled = ids_settled_by_notes(&dir.join("../spec-notes"));
    let sections = coverage(&suite.requirements, &covered, &settled);
    all.push(libtest_mimic::Trial::test(
        "coverage::finished-areas-stay-complete",
        move || {
            let finished = finished_areas(dir)?;
            let problems = check_finished(&sections, &finished);
            if problems.is_empty() {
                Ok(())
            } else {
                Err(problems.join("\n").into())
            }
        },
    ));

    let listing = args.list;
    let conclusion = libtest_mimic::run(&args, all);
    if !listing {
        print!(
            "{}",
            summary.render("reference interpreter (in-process)", SPEC_PROFILE)
        );
    }
    conclusion.exit();
}
