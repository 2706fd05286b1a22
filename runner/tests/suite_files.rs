//! `cargo test` over the suite, one test per case file (datatest-stable), so
//! `cargo test -- conversion` filters by path. Every case of a file runs, and
//! every failing case is reported with its own diff.

use hcl_conformance_format::profiles::SPEC_PROFILE;
use hcl_conformance_format::requirements::Requirements;
use hcl_conformance_format::suite::load_file;
use hcl_conformance_runner::reference;
use hcl_conformance_runner::verdict::{judge, Status};
use std::path::Path;

fn suite_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../suite"))
}

fn run_case_file(path: &Path) -> datatest_stable::Result<()> {
    let requirements = Requirements::load(suite_dir())?;
    let file = load_file(path, suite_dir(), &requirements).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(|e| format!("suite bug: {e}")).collect();
        lines.join("\n")
    })?;
    let failures: Vec<String> = file
        .cases
        .iter()
        .map(|case| judge(case, &reference::run(&case.input), SPEC_PROFILE, None))
        .filter(|record| record.status != Status::Passed)
        .map(|record| record.message)
        .collect();
    if failures.is_empty() {
        Ok(())
    } else {
        let n = file.cases.len();
        Err(format!(
            "{} of {n} cases failed:\n\n{}",
            failures.len(),
            failures.join("\n\n")
        )
        .into())
    }
}

datatest_stable::harness! {
    { test = run_case_file, root = "../suite", pattern = r"\.ya?ml$" },
}
