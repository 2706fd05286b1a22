//! `hcl-conformance`: runs the HCL conformance suite.
//!
//! See `USAGE` below, `README.md` and `runner/PROTOCOL.md`.

use hcl_conformance::matrix;
use hcl_conformance::report::{self, RunInfo};
use hcl_conformance::requirements::{
    check_finished, coverage, finished_areas, ids_settled_by_notes, render_coverage,
};
use hcl_conformance::run::{
    default_report_path, failure_list, trials, FailureFile, Implementation, KnownFailures,
    RunSettings, Summary,
};
use hcl_conformance::subprocess::{self, ImplementationCommand, Pool};
use hcl_conformance::suite::{find_suite_dir, load_suite, Suite, KNOWN_PROFILES, SPEC_PROFILE};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

const USAGE: &str = "usage:
  hcl-conformance [OPTIONS] [LIBTEST OPTIONS] [FILTER]
      Runs the suite: against the reference interpreter in-process, or
      against an implementation behind the protocol (runner/PROTOCOL.md).
      Every case is one libtest trial named FILE::CASE, so FILTER, --exact,
      --skip, --list and --test-threads work per case.
  hcl-conformance coverage [--check] [--suite DIR]
      Covered/testable requirements per spec section; with --check, fails
      when a finished area (suite/finished-areas.txt) is incomplete.
  hcl-conformance matrix --config FILE [--out DIR] [--jobs N] [--suite DIR]
      Runs the reference interpreter and every implementation FILE lists
      over the whole suite; writes DIR/matrix.md (passed / failed /
      unsupported by area), DIR/matrix-details.json and, per implementation,
      DIR/known-failures/NAME.txt (its list as its results would have it).
      Fails when any implementation's failures differ from its list.
      DIR defaults to matrix-out. The format of FILE: runner/PROTOCOL.md.

options:
  --impl 'CMD [ARGS]'       run against this implementation (split like a shell
                            command line) instead of the reference interpreter
  --timeout SECONDS         per-case time limit for --impl (default 10; the
                            hello handshake gets at least 30)
  --jobs N                  parallel workers (default: the number of CPUs)
  --profile NAME            expectations to check: spec (default) or hcl-v2.14
  --expect-failures FILE    cases that may fail: one `FILE::CASE reason` a line;
                            a listed case that passes fails the run
  --write-failures FILE     after the run, write the list of the cases that
                            failed (sorted, `ID reason`), keeping the reasons
                            FILE or the --expect-failures lists give
  --expect-differences P    cases that record a different result for profile P
                            may fail (and must: one that passes fails the run)
  --report FORMAT[=PATH]    write a report: json, junit or markdown (repeatable;
                            default path hcl-conformance-report.EXT)
  --suite DIR               the suite folder (default: ./suite, found upwards)";

/// Our own options, taken out of the arguments before libtest-mimic reads
/// the rest.
#[derive(Default)]
struct Options {
    implementation: Option<Vec<String>>,
    timeout: Option<Duration>,
    jobs: Option<usize>,
    profile: Option<String>,
    expect_failures: Vec<PathBuf>,
    write_failures: Option<PathBuf>,
    config: Option<PathBuf>,
    out: Option<PathBuf>,
    expect_differences: Option<String>,
    reports: Vec<(String, PathBuf)>,
    suite: Option<PathBuf>,
    rest: Vec<String>,
}

fn split_command(text: &str) -> Result<Vec<String>, String> {
    hcl_conformance::matrix::split_command(text).map_err(|e| format!("--impl needs a command: {e}"))
}

fn parse_options(args: Vec<String>) -> Result<Options, String> {
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") && f != "--report" => {
                (f.to_string(), Some(v.to_string()))
            }
            _ => (arg.clone(), None),
        };
        let ours = [
            "--impl",
            "--timeout",
            "--jobs",
            "--profile",
            "--expect-failures",
            "--write-failures",
            "--config",
            "--out",
            "--expect-differences",
            "--report",
            "--suite",
        ];
        if !ours.contains(&flag.as_str()) {
            options.rest.push(arg);
            continue;
        }
        let value = inline
            .or_else(|| args.next())
            .ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--impl" => options.implementation = Some(split_command(&value)?),
            "--timeout" => {
                let seconds: f64 = value
                    .parse()
                    .ok()
                    .filter(|s: &f64| *s > 0.0 && s.is_finite())
                    .ok_or_else(|| {
                        format!("--timeout takes a positive number of seconds, not `{value}`")
                    })?;
                options.timeout = Some(Duration::from_secs_f64(seconds));
            }
            "--jobs" => {
                let jobs: usize = value.parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                    format!("--jobs takes a positive whole number, not `{value}`")
                })?;
                options.jobs = Some(jobs);
            }
            "--profile" | "--expect-differences" => {
                if value != SPEC_PROFILE && !KNOWN_PROFILES.contains(&value.as_str()) {
                    return Err(format!(
                        "unknown profile `{value}` for {flag}; the profiles are {SPEC_PROFILE}, {}",
                        KNOWN_PROFILES.join(", ")
                    ));
                }
                if flag == "--profile" {
                    options.profile = Some(value);
                } else {
                    options.expect_differences = Some(value);
                }
            }
            "--expect-failures" => options.expect_failures.push(PathBuf::from(value)),
            "--write-failures" => options.write_failures = Some(PathBuf::from(value)),
            "--config" => options.config = Some(PathBuf::from(value)),
            "--out" => options.out = Some(PathBuf::from(value)),
            "--report" => {
                let (format, path) = match value.split_once('=') {
                    Some((f, p)) => (f.to_string(), PathBuf::from(p)),
                    None => (value.clone(), default_report_path(&value)),
                };
                if !report::FORMATS.contains(&format.as_str()) {
                    return Err(format!(
                        "unknown report format `{format}`; the formats are {}",
                        report::FORMATS.join(", ")
                    ));
                }
                options.reports.push((format, path));
            }
            _ => options.suite = Some(PathBuf::from(value)),
        }
    }
    if options.implementation.is_none() && options.timeout.is_some() {
        return Err("--timeout goes with --impl".into());
    }
    Ok(options)
}

fn load(dir: Option<PathBuf>) -> Result<Suite, ExitCode> {
    let dir = dir.unwrap_or_else(find_suite_dir);
    load_suite(&dir).map_err(|errors| {
        // Not the suite folder at all: not a problem of case files.
        if let [only] = errors.as_slice() {
            if only.path == dir {
                eprintln!("hcl-conformance: {only}");
                return ExitCode::from(2);
            }
        }
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
    let settled = ids_settled_by_notes(&suite.dir.join("../spec-notes"));
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
    eprintln!("hcl-conformance: {message}\n\n{USAGE}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    stop_implementations_on_every_way_out();
    let code = run_command();
    subprocess::stop_all();
    code
}

/// Makes sure no implementation process outlives the runner. A normal end
/// or an error exit drops the pools, which kills their processes, and
/// `main` then stops any still running; this covers the other ways out:
///
/// - SIGINT (Ctrl-C) and SIGTERM stop every implementation, then end the
///   runner as the signal would have. (Each implementation runs in its own
///   process group, out of reach of the terminal's Ctrl-C.) SIGHUP is left
///   alone, so that `nohup` keeps working.
/// - A closed standard output (`hcl-conformance --list | head`) stops every
///   implementation and ends the runner quietly, as SIGPIPE ends other
///   commands (status 141 in a shell), instead of a panic.
/// - Any other panic of the main thread stops every implementation before
///   the panic is reported. (A panic inside one case is that case's
///   failure, and stops nothing.)
fn stop_implementations_on_every_way_out() {
    use signal_hook::consts::{SIGINT, SIGPIPE, SIGTERM};
    use signal_hook::low_level::emulate_default_handler;
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) {
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                subprocess::stop_all();
                let _ = emulate_default_handler(signal);
            }
        });
    }
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        // How std's printing and an unwrapped write to a closed pipe panic.
        if payload.contains("Broken pipe") || payload.contains("BrokenPipe") {
            subprocess::stop_all();
            let _ = emulate_default_handler(SIGPIPE);
            std::process::exit(141);
        }
        if std::thread::current().name() == Some("main") {
            subprocess::stop_all();
        }
        report(info);
    }));
}

fn run_command() -> ExitCode {
    let mut args: Vec<String> = std::env::args().collect();
    let program = args.remove(0);
    if args.first().map(String::as_str) == Some("coverage") {
        return run_coverage(args.split_off(1));
    }
    if args.first().map(String::as_str) == Some("matrix") {
        return run_matrix(args.split_off(1));
    }
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => return usage_error(&e),
    };
    let suite = match load(options.suite.clone()) {
        Ok(suite) => suite,
        Err(code) => return code,
    };
    // libtest-mimic reports its own bad flags and exits.
    let mut test_args =
        libtest_mimic::Arguments::from_iter(std::iter::once(program).chain(options.rest.clone()));
    if let Some(jobs) = options.jobs {
        test_args.test_threads = Some(jobs);
    }
    let profile = options
        .profile
        .clone()
        .unwrap_or_else(|| SPEC_PROFILE.to_string());

    if options.config.is_some() || options.out.is_some() {
        return usage_error("--config and --out go with `hcl-conformance matrix`");
    }
    let mut known_failures = KnownFailures::default();
    for path in &options.expect_failures {
        match KnownFailures::load(path, &suite) {
            Ok(list) => known_failures.merge(list),
            Err(e) => {
                eprintln!(
                    "{e}\nhcl-conformance: fix the known-failure list {}",
                    path.display()
                );
                return ExitCode::from(2);
            }
        }
    }
    if let Some(other) = &options.expect_differences {
        known_failures.merge(KnownFailures::from_profile(&suite, other));
    }

    let (implementation, capabilities, name): (Implementation, _, String) = match &options
        .implementation
    {
        None => (
            Arc::new(hcl_conformance::reference::run),
            None,
            "reference interpreter (in-process)".to_string(),
        ),
        Some(words) => {
            let command = ImplementationCommand::new(
                words[0].clone(),
                words[1..].to_vec(),
                options.timeout.unwrap_or(Duration::from_secs(10)),
            );
            let pool = match Pool::start(command) {
                Ok(pool) => Arc::new(pool),
                Err(e) => {
                    eprintln!(
                        "hcl-conformance: the implementation `{}` did not start: {e}\n\
                         Check the command, and that it answers the `hello` request of runner/PROTOCOL.md \
                         (within --timeout or {} s, whichever is longer).",
                        words.join(" "),
                        subprocess::HELLO_TIMEOUT.as_secs()
                    );
                    return ExitCode::from(2);
                }
            };
            let capabilities = pool.capabilities().clone();
            let name = format!("{} {}", capabilities.name, capabilities.version)
                .trim()
                .to_string();
            let runner = Arc::clone(&pool);
            (
                Arc::new(move |input: &_| runner.run(input)),
                Some(capabilities),
                name,
            )
        }
    };
    let summary = Arc::new(Summary::default());
    let settings = RunSettings {
        implementation,
        capabilities,
        profile: profile.clone(),
        known_failures: Arc::new(known_failures),
        summary: Arc::clone(&summary),
    };
    let started = Instant::now();
    let all = trials(&suite, &settings, &test_args);
    let listing = test_args.list;
    let conclusion = libtest_mimic::run(&test_args, all);
    if listing {
        return conclusion.exit_code();
    }
    let elapsed = started.elapsed().as_secs_f64();
    print!("{}", summary.render(&name, &profile));
    let ran = summary.records().len();
    println!(
        "  {ran} cases in {elapsed:.2}s ({:.0} cases/s)",
        ran as f64 / elapsed.max(1e-9)
    );
    let info = RunInfo {
        implementation: &name,
        profile: &profile,
    };
    if let Some(path) = &options.write_failures {
        // Reasons already written, in the lists read and in the file itself
        // (which wins), are kept.
        let mut previous = FailureFile::default();
        for list in options.expect_failures.iter().chain([path]) {
            if let Ok(text) = std::fs::read_to_string(list) {
                let file = FailureFile::parse(&text);
                if list == path {
                    previous.header = file.header;
                }
                previous.entries.extend(file.entries);
            }
        }
        let mut reasons = BTreeMap::new();
        for (id, reason, line) in previous.entries {
            if !reason.is_empty() {
                reasons.insert(id, (reason, line));
            }
        }
        previous.entries = reasons
            .into_iter()
            .map(|(id, (reason, line))| (id, reason, line))
            .collect();
        let header = vec![
            format!("# Known failures of {name}, profile {profile}: one case id a line, then why."),
            "# Written by hcl-conformance --write-failures; edit the reasons, they are kept."
                .to_string(),
        ];
        let text = failure_list(&summary.records(), &previous, &suite, &header);
        if let Err(e) = std::fs::write(path, &text) {
            eprintln!(
                "hcl-conformance: cannot write the known-failure list {}: {e}",
                path.display()
            );
            return ExitCode::from(2);
        }
        let listed = text.lines().filter(|l| !l.starts_with('#')).count();
        println!("  known-failure list ({listed} cases): {}", path.display());
    }
    for (format, path) in &options.reports {
        let text = report::render(format, &info, &summary).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text) {
            eprintln!(
                "hcl-conformance: cannot write the {format} report to {}: {e}",
                path.display()
            );
            return ExitCode::from(2);
        }
        println!("  {format} report: {}", path.display());
    }
    conclusion.exit_code()
}

/// `hcl-conformance matrix`: see `USAGE` and `hcl_conformance::matrix`.
fn run_matrix(args: Vec<String>) -> ExitCode {
    let options = match parse_options(args) {
        Ok(o) => o,
        Err(e) => return usage_error(&e),
    };
    if let Some(other) = options.rest.first() {
        return usage_error(&format!("unexpected argument `{other}` for matrix"));
    }
    let Some(config) = options.config else {
        return usage_error("matrix needs --config FILE");
    };
    let text = match std::fs::read_to_string(&config) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("hcl-conformance: cannot read {}: {e}", config.display());
            return ExitCode::from(2);
        }
    };
    let entries = match matrix::parse_config(&config, &text, &|name| std::env::var(name).ok()) {
        Ok(entries) => entries,
        Err(errors) => {
            for e in &errors {
                eprintln!("{e}");
            }
            eprintln!(
                "hcl-conformance: {} problem(s) in the matrix configuration (runner/PROTOCOL.md describes it)",
                errors.len()
            );
            return ExitCode::from(2);
        }
    };
    let suite = match load(options.suite) {
        Ok(suite) => suite,
        Err(code) => return code,
    };
    let jobs = options.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let out = options.out.unwrap_or_else(|| PathBuf::from("matrix-out"));
    let mut started = Vec::new();
    for entry in &entries {
        match matrix::start_entry(&suite, entry) {
            Ok(s) => started.push(s),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        }
    }
    let mut columns = vec![matrix::reference_column(&suite, jobs)];
    for s in started {
        columns.push(matrix::entry_column(&suite, s, jobs));
    }
    let write = |name: &str, text: String| -> Result<(), ExitCode> {
        let path = out.join(name);
        let written = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&path, text));
        written.map_err(|e| {
            eprintln!("hcl-conformance: cannot write {}: {e}", path.display());
            ExitCode::from(2)
        })
    };
    let markdown = matrix::render_markdown(&suite, &columns);
    let written = write("matrix.md", markdown.clone())
        .and_then(|()| {
            write(
                "matrix-details.json",
                matrix::render_details(&suite, &columns),
            )
        })
        .and_then(|()| {
            columns.iter().skip(1).try_for_each(|c| {
                write(
                    &format!("known-failures/{}.txt", c.name),
                    matrix::regenerated_list(&suite, c),
                )
            })
        });
    if let Err(code) = written {
        return code;
    }
    print!("{markdown}");
    println!(
        "\n  written: {}/matrix.md, matrix-details.json, known-failures/",
        out.display()
    );
    let mut differ = false;
    for column in &columns {
        let accounting = column.accounting();
        if accounting.matches() {
            continue;
        }
        differ = true;
        let list = column
            .list_path
            .as_ref()
            .map_or("no known-failure list".to_string(), |p| {
                p.display().to_string()
            });
        eprintln!("\n{}: the results differ from {list}:", column.name);
        for (what, ids) in [
            ("failed, not listed", &accounting.unexpected_failures),
            ("listed, did not fail", &accounting.unexpected_passes),
        ] {
            for id in ids.iter().take(20) {
                eprintln!("  {what}: {id}");
            }
            if ids.len() > 20 {
                eprintln!(
                    "  ... and {} more {what} (see matrix-details.json)",
                    ids.len() - 20
                );
            }
        }
        eprintln!(
            "  {}/known-failures/{}.txt is the list these results call for; review it and copy it over.",
            out.display(),
            column.name
        );
    }
    if differ {
        eprintln!("\nhcl-conformance matrix: results differ from the known-failure lists");
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
