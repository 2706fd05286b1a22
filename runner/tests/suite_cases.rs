//! `cargo test` over the suite, one test per case (libtest-mimic), with the
//! summary per area: the same run as `hcl-conformance` with no arguments.
//! Also checks that the coverage of the finished areas is complete.

use hcl_conformance_format::kinds::Keyword;
use hcl_conformance_format::profiles::SPEC_PROFILE;
use hcl_conformance_format::requirements::{
    check_finished, coverage, finished_areas, ids_settled_by_notes,
};
use hcl_conformance_format::suite::load_suite;
use hcl_conformance_format::wire::Outcome;
use hcl_conformance_runner::known_failures::KnownFailures;
use hcl_conformance_runner::reference;
use hcl_conformance_runner::report::Report;
use hcl_conformance_runner::run::{run_case, RunSettings};
use hcl_conformance_runner::verdict::CaseRecord;
use hcl_interpreter::Diagnostic;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, Mutex};

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
    let settings = Arc::new(RunSettings {
        // An internal error of the reference interpreter (a panic it
        // caught) is a crash, never an error a case may expect.
        implementation: Arc::new(|input: &_| match reference::run(input) {
            Outcome::Error(answer)
                if answer
                    .diagnostics
                    .iter()
                    .any(|d| d.summary == Diagnostic::INTERNAL_ERROR) =>
            {
                Outcome::Crashed(format!("{:?}", answer.diagnostics))
            }
            outcome => outcome,
        }),
        capabilities: None,
        profile: SPEC_PROFILE.to_string(),
        known_failures: KnownFailures::default(),
    });
    let records: Arc<Mutex<Vec<CaseRecord>>> = Arc::default();
    // One trial per case, named by its id, so that name filters work per
    // case; each records its verdict for the summary.
    let mut all: Vec<libtest_mimic::Trial> = suite
        .cases()
        .map(|case| {
            let kind = case.input.kind().name();
            let (case, settings, records) = (case.clone(), settings.clone(), records.clone());
            libtest_mimic::Trial::test(case.id.clone(), move || {
                let record = run_case(&case, &settings);
                let failed = record.status.fails_run().then(|| record.message.clone());
                records.lock().unwrap().push(record);
                failed.map_or(Ok(()), |message| Err(message.into()))
            })
            .with_kind(kind)
        })
        .collect();

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
        let mut records = std::mem::take(&mut *records.lock().unwrap());
        records.sort_by(|a, b| a.id.cmp(&b.id));
        let name = "reference interpreter (in-process)".to_string();
        print!(
            "{}",
            Report::new(name, None, SPEC_PROFILE, &suite, records).summary()
        );
    }
    conclusion.exit();
}
