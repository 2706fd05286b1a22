//! `hcl-conformance`: runs the HCL conformance suite. `--help` describes
//! the command line; `README.md` and `runner/PROTOCOL.md` the rest.

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use hcl_conformance_format::needs::missing_capabilities;
use hcl_conformance_format::profiles::{known_profile, PROFILES};
use hcl_conformance_format::requirements::{
    check_finished, coverage, ids_settled_by, parse_finished_areas,
};
use hcl_conformance_format::suite::{
    decode_text, load_embedded, load_suite, Case, Suite, SPEC_PROFILE,
};
use hcl_conformance_format::terminal::escape_controls;
use hcl_conformance_format::wire::HelloAnswer;
use hcl_conformance_runner::known_failures::{
    failure_list, read_list, write_list, FailureFile, KnownFailures,
};
use hcl_conformance_runner::matrix::{parse_config, run_matrix, split_command};
use hcl_conformance_runner::report::Report;
use hcl_conformance_runner::run::{run_cases, Implementation, RunSettings};
use hcl_conformance_runner::subprocess::{self, ImplementationCommand, Pool, HELLO_TIMEOUT};
use hcl_conformance_runner::verdict::{judge, Status};
use hcl_conformance_site::docs;
use hcl_conformance_site::export::write_export;
use hcl_conformance_site::versions::{
    describe_versions, hashes, manifests, stamp_list, suite_version, version_of_list, Changes,
};
use std::collections::BTreeSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Runs the HCL conformance suite: against the reference interpreter
/// in-process, or with --impl against an implementation behind the
/// protocol (runner/PROTOCOL.md). Without a subcommand, `run`.
#[derive(Parser)]
#[command(name = "hcl-conformance", args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Run the cases (the default)
    Run(RunArgs),
    /// List the case ids, one a line, as known-failure lists write them
    List {
        #[command(flatten)]
        select: Select,
        #[command(flatten)]
        suite: SuiteArg,
    },
    /// Show a case: its input, expectations, requirements and notes, and
    /// its result against the reference interpreter or --impl
    Show {
        /// The case's id, FILE::NAME (as `list` prints it)
        case: String,
        /// Run it against this implementation: a command line, split like a shell's
        #[arg(long = "impl", value_name = "COMMAND", value_parser = |s: &str| split_command(s).map(Words))]
        implementation: Option<Words>,
        /// The expectation to check: spec, or a profile of `profiles`
        #[arg(long, default_value = SPEC_PROFILE, value_parser = known_profile)]
        profile: String,
        #[command(flatten)]
        suite: SuiteArg,
    },
    /// Write the suite as a static website (works from file://)
    ///
    /// Home, the specification's sections with their requirements and the
    /// cases pinning them, a page per case file, coverage, spec-notes and an
    /// offline search; with --matrix, every implementation's results.
    Docs {
        /// Where the site goes
        #[arg(long, value_name = "DIR", default_value = "site")]
        out: PathBuf,
        /// The folder `hcl-conformance matrix --out DIR` wrote (its matrix-details.json)
        #[arg(long, value_name = "DIR")]
        matrix: Option<PathBuf>,
        /// Before writing anything, check that every link of the site resolves and that its pages
        /// hold no HTML but the site's own (no script, frame, event attribute or unsafe URL from the
        /// suite's texts, notes or matrix); write nothing if not
        #[arg(long)]
        check: bool,
        #[command(flatten)]
        suite: SuiteArg,
    },
    /// Covered/testable requirements per area and section of the spec
    Coverage {
        /// Fail when a finished area (suite/finished-areas.txt) is not fully covered
        #[arg(long)]
        check: bool,
        #[command(flatten)]
        suite: SuiteArg,
    },
    /// Write every case as a JSON document, for test harnesses in any language
    ///
    /// Writes DIR/index.json (the versions, the handshake, each case's
    /// document) and DIR/cases/FILE/NAME.json: the request, and per profile
    /// the expected answer, the grading that applies and what the case needs
    /// (README.md § The suite as data; runner/schema/export-*.schema.json).
    /// Replaces an earlier export in DIR; refuses a folder holding anything
    /// else, and symbolic links. The new export is written beside DIR first
    /// and takes its place only when complete: on any error the earlier
    /// export is left whole.
    Export {
        /// Where the export goes
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        #[command(flatten)]
        suite: SuiteArg,
    },
    /// The cases added, changed and removed since a suite version
    ///
    /// Compares the suite with the manifest of an earlier version
    /// (suite/versions/); a known-failure list names the version it was
    /// written against on its `# Suite version` line, as --write-failures
    /// writes it.
    Changes {
        /// A suite version (1.0.0), or a known-failure list naming one
        #[arg(long, value_name = "VERSION|LIST")]
        since: String,
        #[command(flatten)]
        suite: SuiteArg,
    },
    /// The profiles: what each expects, the profile it follows, its oracle
    ///
    /// A case records a profile's result only where it differs from the
    /// profile that one follows. With --oracles, one line per profile that
    /// has an oracle: NAME, a tab, and the command (from the repository's
    /// root) that builds it and prints its adapter's path.
    Profiles {
        /// Only NAME<TAB>ORACLE-COMMAND lines, for scripts
        #[arg(long)]
        oracles: bool,
    },
    /// Run every configured implementation over the whole suite, as one table
    ///
    /// Runs the reference interpreter and every implementation of the
    /// configuration; writes DIR/matrix.md (passed / failed / unsupported by
    /// area), DIR/matrix-details.json and DIR/known-failures/NAME.txt (the list
    /// each one's results call for); fails when an implementation's failures
    /// differ from its list.
    Matrix {
        /// The implementations, in TOML (runner/PROTOCOL.md § The conformance matrix)
        #[arg(long, value_name = "FILE")]
        config: PathBuf,
        /// Where the results go
        #[arg(long, value_name = "DIR", default_value = "matrix-out")]
        out: PathBuf,
        #[command(flatten)]
        jobs: Jobs,
        #[command(flatten)]
        suite: SuiteArg,
    },
}

#[derive(Args)]
struct SuiteArg {
    /// Read the suite from this folder [default: the suite built into the runner]
    #[arg(long, value_name = "DIR")]
    suite: Option<PathBuf>,
}

#[derive(Args)]
struct Jobs {
    /// Cases run in parallel [default: the number of CPUs]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
}

/// Which cases: libtest's selection, by case id.
#[derive(Args)]
struct Select {
    /// Only the cases whose id (FILE::NAME) contains FILTER
    filter: Option<String>,
    /// FILTER and --skip match whole ids
    #[arg(long)]
    exact: bool,
    /// Leave out the cases whose id contains SKIP (repeatable)
    #[arg(long, value_name = "SKIP")]
    skip: Vec<String>,
}

#[derive(Args)]
struct RunArgs {
    #[command(flatten)]
    select: Select,
    /// Run against this implementation: a command line, split like a shell's
    #[arg(long = "impl", value_name = "COMMAND", value_parser = |s: &str| split_command(s).map(Words))]
    implementation: Option<Words>,
    /// The time limit of a case with --impl, in seconds [default: 10; `hello`
    /// gets at least 30]
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, requires = "implementation")]
    timeout: Option<Duration>,
    #[command(flatten)]
    jobs: Jobs,
    /// The expectations to check: spec, or a version of hashicorp/hcl
    /// (hcl-v2.14, hcl-v2.25: `hcl-conformance profiles` lists them)
    #[arg(long, default_value = SPEC_PROFILE, value_parser = known_profile)]
    profile: String,
    /// Cases that may fail: a known-failure list, `FILE::NAME reason` a line;
    /// a listed case that passes fails the run (repeatable)
    #[arg(long, value_name = "FILE")]
    expect_failures: Vec<PathBuf>,
    /// Write the list of the cases that failed, keeping the reasons FILE and
    /// the --expect-failures lists give
    #[arg(long, value_name = "FILE")]
    write_failures: Option<PathBuf>,
    /// Expect exactly the cases whose PROFILE expectation differs from the spec's to fail
    #[arg(long, value_name = "PROFILE", value_parser = known_profile)]
    expect_differences: Option<String>,
    /// Write a report: json, junit or markdown, to PATH [default:
    /// hcl-conformance-report.EXT] (repeatable)
    #[arg(long, value_name = "FORMAT[=PATH]", value_parser = parse_report)]
    report: Vec<(Format, PathBuf)>,
    /// What standard output gets: text (progress on a terminal, each failure,
    /// the summary), or a report, nothing else (then the text goes to
    /// standard error)
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print every case's verdict, not only the failures
    #[arg(long, short)]
    verbose: bool,
    #[command(flatten)]
    suite: SuiteArg,
}

/// A command line, split.
#[derive(Clone)]
struct Words(Vec<String>);

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
    Junit,
    Markdown,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let limit = text
        .parse()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok());
    limit
        .filter(|d| !d.is_zero())
        .ok_or_else(|| "a time limit is a positive number of seconds".into())
}

fn parse_report(text: &str) -> Result<(Format, PathBuf), String> {
    let (name, path) = text.split_once('=').unwrap_or((text, ""));
    let format = match Format::from_str(name, false) {
        Ok(Format::Text) | Err(_) => {
            return Err(format!(
                "the formats are json, junit and markdown, not `{name}`"
            ))
        }
        Ok(format) => format,
    };
    let extension = ["", "json", "xml", "md"][format as usize];
    let default = format!("hcl-conformance-report.{extension}");
    Ok((
        format,
        PathBuf::from(if path.is_empty() { &default } else { path }),
    ))
}

impl Select {
    /// The selected cases; none is a usage error.
    fn cases<'s>(&self, suite: &'s Suite) -> Vec<&'s Case> {
        let matches = |id: &str, filter: &str| {
            if self.exact {
                id == filter
            } else {
                id.contains(filter)
            }
        };
        let selected = |id: &str| {
            self.filter.as_deref().is_none_or(|f| matches(id, f))
                && !self.skip.iter().any(|s| matches(id, s))
        };
        let cases: Vec<&Case> = suite.cases().filter(|c| selected(&c.id)).collect();
        if cases.is_empty() {
            let how = if self.exact { "is" } else { "contains" };
            let filter = self.filter.as_deref().unwrap_or("");
            let skip = if self.skip.is_empty() {
                ""
            } else {
                " (after --skip)"
            };
            usage_error(&format!(
                "no case id {how} `{filter}`{skip}; `hcl-conformance list` shows the ids"
            ));
        }
        cases
    }
}

/// Ends the runner with the command line's usage, as clap does (status 2).
fn usage_error(message: &str) -> ! {
    Cli::command()
        .error(clap::error::ErrorKind::InvalidValue, message)
        .exit()
}

/// A problem of the command's inputs: a message, and status 2. (It may
/// quote an implementation's answer or standard error: escaped.)
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("hcl-conformance: {}", escape_controls(&message.to_string()));
    ExitCode::from(2)
}

fn load(suite: &SuiteArg) -> Result<Suite, ExitCode> {
    let loaded = match &suite.suite {
        Some(dir) => load_suite(dir),
        None => load_embedded(),
    };
    loaded.map_err(|errors| match errors.as_slice() {
        // Not the suite folder at all: not a problem of case files.
        [only] if Some(&only.path) == suite.suite.as_ref() => fail(only),
        _ => {
            errors
                .iter()
                .for_each(|e| eprintln!("suite bug: {}", escape_controls(&e.to_string())));
            let n = errors.len();
            fail(format!("{n} problem(s) in the suite's case files; fix them (suite/README.md describes the format)"))
        }
    })
}

fn main() -> ExitCode {
    subprocess::stop_on_every_way_out();
    let matches = Cli::command().version(describe_versions()).get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let command = cli.command.unwrap_or(Command::Run(cli.run));
    let code = match command {
        Command::Run(args) => {
            load(&args.suite).map_or_else(|code| code, |suite| run(&args, &suite))
        }
        Command::List { select, suite } => load(&suite).map_or_else(
            |code| code,
            |suite| {
                let mut out = std::io::stdout().lock();
                for case in select.cases(&suite) {
                    writeln!(out, "{}", case.id).expect("Broken pipe");
                }
                ExitCode::SUCCESS
            },
        ),
        Command::Show {
            case,
            implementation,
            profile,
            suite,
        } => load(&suite).map_or_else(
            |code| code,
            |suite| show(&case, implementation.as_ref(), &profile, &suite),
        ),
        Command::Docs {
            out,
            matrix,
            check,
            suite,
        } => load(&suite).map_or_else(
            |code| code,
            |suite| docs(&out, matrix.as_deref(), check, &suite),
        ),
        Command::Coverage { check, suite } => {
            load(&suite).map_or_else(|c| c, |suite| run_coverage(check, &suite))
        }
        Command::Matrix {
            config,
            out,
            jobs,
            suite,
        } => matrix(&config, &out, jobs.count(), &suite),
        Command::Export { out, suite } => {
            load(&suite).map_or_else(|code| code, |suite| export(&out, &suite))
        }
        Command::Profiles { oracles } => print_profiles(oracles),
        Command::Changes { since, suite } => {
            load(&suite).map_or_else(|code| code, |suite| changes(&since, &suite))
        }
    };
    subprocess::stop_all();
    code
}

impl Jobs {
    fn count(&self) -> usize {
        let cpus = || std::thread::available_parallelism().map_or(1, |n| n.get());
        self.jobs.map_or_else(cpus, |n| n as usize)
    }
}

/// `hcl-conformance profiles`: the table of `hcl_conformance_format::profiles`.
fn print_profiles(oracles: bool) -> ExitCode {
    let mut out = std::io::stdout().lock();
    for p in PROFILES {
        let line = match (oracles, p.oracle) {
            (true, Some(oracle)) => format!("{}\t{oracle}", p.name),
            (true, None) => continue,
            (false, _) => format!(
                "{:<10} {}; follows {}; oracle: {}; notes: {}",
                p.name,
                p.library,
                p.follows.unwrap_or("nothing"),
                p.oracle.unwrap_or("none"),
                p.notes
            ),
        };
        if writeln!(out, "{line}").is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}

/// `hcl-conformance show CASE`: the case as its page shows it, then its
/// result.
fn show(id: &str, implementation: Option<&Words>, profile: &str, suite: &Suite) -> ExitCode {
    let Some(case) = suite.cases().find(|c| c.id == id) else {
        let near: Vec<&str> = suite
            .cases()
            .map(|c| c.id.as_str())
            .filter(|c| c.contains(id))
            .take(5)
            .collect();
        let hint = match near.as_slice() {
            [] => String::new(),
            near => format!(" (ids containing it: {})", near.join(", ")),
        };
        usage_error(&format!(
            "no case has the id `{id}`{hint}; `hcl-conformance list` shows the ids"
        ));
    };
    let context = match docs::Context::new(suite, None) {
        Ok(context) => context,
        Err(e) => return fail(e),
    };
    print!("{}", docs::show::case_text(&context, case));
    let (implementation, hello, name) = match start_implementation(implementation, None) {
        Ok(started) => started,
        Err(code) => return code,
    };
    let capabilities = hello.map(|h| h.capabilities);
    let missing = capabilities
        .as_ref()
        .map(|c| missing_capabilities(case, profile, c))
        .unwrap_or_default();
    if !missing.is_empty() {
        print!(
            "{}",
            docs::show::result_text(
                &name,
                profile,
                None,
                "unsupported",
                &format!("needs {}", missing.join(", "))
            )
        );
        return ExitCode::SUCCESS;
    }
    let outcome = implementation(&case.input);
    let record = judge(case, &outcome, profile, capabilities.as_ref());
    let status = record.status.name();
    print!(
        "{}",
        docs::show::result_text(&name, profile, Some(&outcome), status, &record.message)
    );
    match record.status.is_failure() {
        true => ExitCode::FAILURE,
        false => ExitCode::SUCCESS,
    }
}

/// `hcl-conformance docs`: the site made in memory, checked with
/// `--check` before anything is written, then written.
fn docs(out: &Path, matrix: Option<&Path>, check: bool, suite: &Suite) -> ExitCode {
    let started = Instant::now();
    let results = match matrix.map(docs::results::Results::load).transpose() {
        Ok(results) => results,
        Err(e) => return fail(e),
    };
    let site = match docs::render_site(suite, results.as_ref()) {
        Ok(site) => site,
        Err(e) => return fail(e),
    };
    if check {
        let problems = site.problems();
        if !problems.is_empty() {
            problems.iter().for_each(|p| eprintln!("{p}"));
            eprintln!(
                "{} problems in the site; nothing written to {}",
                problems.len(),
                out.display()
            );
            return ExitCode::FAILURE;
        }
    }
    let built = match site.write(out) {
        Ok(built) => built,
        Err(e) => return fail(e),
    };
    println!(
        "hcl-conformance docs: {} pages, {} files, {:.1} MiB in {} ({:.2}s); open {}",
        built.pages,
        built.files,
        built.bytes as f64 / (1024.0 * 1024.0),
        out.display(),
        started.elapsed().as_secs_f64(),
        out.join("index.html").display()
    );
    if check {
        println!("checked before writing: every link of the site resolves, and its pages hold no HTML but its own");
    }
    ExitCode::SUCCESS
}

/// Starts the implementation of --impl (or takes the reference
/// interpreter): how to run a case, its `hello` answer, its name.
fn start_implementation(
    words: Option<&Words>,
    timeout: Option<Duration>,
) -> Result<(Implementation, Option<HelloAnswer>, String), ExitCode> {
    let Some(Words(words)) = words else {
        let reference = Arc::new(|input: &_| hcl_conformance_runner::reference::run(input));
        return Ok((
            reference,
            None,
            "reference interpreter (in-process)".to_string(),
        ));
    };
    let timeout = timeout.unwrap_or(Duration::from_secs(10));
    let pool = match Pool::start(ImplementationCommand::new(words[0].clone(), words[1..].to_vec(), timeout)) {
        Ok(pool) => Arc::new(pool),
        Err(e) => {
            return Err(fail(format!(
                "the implementation `{}` did not start: {e}\nCheck the command, and that it answers \
                 the `hello` request of runner/PROTOCOL.md (within --timeout or {} s, whichever is longer).",
                words.join(" "),
                HELLO_TIMEOUT.as_secs()
            )))
        }
    };
    let hello = pool.hello().clone();
    let name = format!("{} {}", hello.name, hello.version)
        .trim()
        .to_string();
    Ok((
        Arc::new(move |input: &_| pool.run(input)),
        Some(hello),
        name,
    ))
}

/// `hcl-conformance coverage`.
fn run_coverage(check: bool, suite: &Suite) -> ExitCode {
    let covered: BTreeSet<String> = suite
        .cases()
        .flat_map(|c| c.covers.iter().cloned())
        .collect();
    let settled = ids_settled_by(suite.notes().map(|(_, text)| text));
    let sections = coverage(&suite.requirements, &covered, &settled);
    let finished_text = suite.text("suite/finished-areas.txt").unwrap_or("");
    let finished = match parse_finished_areas(finished_text, &suite.dir.join("finished-areas.txt"))
    {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    print!(
        "{}",
        hcl_conformance_format::requirements::render_coverage(&sections, &finished)
    );
    let problems = check_finished(&sections, &finished);
    if !check {
        return ExitCode::SUCCESS;
    }
    if problems.is_empty() {
        println!("\nall {} finished areas are fully covered", finished.len());
        return ExitCode::SUCCESS;
    }
    eprintln!("\ncoverage of finished areas dropped:");
    problems.iter().for_each(|p| eprintln!("  {p}"));
    ExitCode::FAILURE
}

/// `hcl-conformance export`.
fn export(out: &Path, suite: &Suite) -> ExitCode {
    let version = suite_version(suite).map(|v| v.to_string());
    match write_export(suite, out, version, env!("CARGO_PKG_VERSION")) {
        Ok(count) => {
            println!("{count} cases written to {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// `hcl-conformance changes`.
fn changes(since: &str, suite: &Suite) -> ExitCode {
    let (version, listed) = match semver::Version::parse(since) {
        Ok(version) => (version, BTreeSet::new()),
        Err(_) => {
            let text = match std::fs::metadata(since) {
                Err(e) => {
                    return fail(format!(
                        "--since {since}: neither a version (1.0.0) nor a known-failure list that can be read ({e})"
                    ))
                }
                Ok(_) => match read_list(Path::new(since)) {
                    Ok(text) => text,
                    Err(e) => return fail(e),
                },
            };
            let Some(version) = version_of_list(&text) else {
                return fail(format!(
                    "{since}: the list names no suite version (a `# Suite version X.Y.Z` line in its \
                     header, which --write-failures writes); give the version: --since X.Y.Z"
                ));
            };
            let ids = FailureFile::parse(&text)
                .entries
                .into_iter()
                .map(|(id, ..)| id);
            (version, ids.collect())
        }
    };
    let manifests = match manifests(suite) {
        Ok(manifests) => manifests,
        Err(e) => return fail(e),
    };
    let Some(old) = manifests.iter().find(|m| m.version == version) else {
        let known: Vec<String> = manifests.iter().map(|m| m.version.to_string()).collect();
        return fail(format!(
            "the suite has no version {version}; its versions are {}",
            known.join(", ")
        ));
    };
    let changes = Changes::between(&old.hashes, &hashes(suite));
    let now = suite_version(suite).map_or("unversioned".into(), |v| v.to_string());
    println!(
        "From suite version {version} to this suite ({now}): {}.",
        changes.counts()
    );
    let groups = [
        ("added", &changes.added, ""),
        (
            "changed",
            &changes.changed,
            "listed: its reason may be out of date",
        ),
        (
            "removed",
            &changes.removed,
            "listed: take it out of the list",
        ),
    ];
    for (what, ids, note) in groups {
        if !ids.is_empty() {
            println!("\n{what}:");
        }
        for id in ids {
            match listed.contains(id) && !note.is_empty() {
                true => println!("  {id}  ({note})"),
                false => println!("  {id}"),
            }
        }
    }
    ExitCode::SUCCESS
}

/// `hcl-conformance matrix`.
fn matrix(config: &Path, out: &Path, jobs: usize, suite: &SuiteArg) -> ExitCode {
    let text = match std::fs::read(config) {
        Ok(bytes) => match decode_text(config, bytes) {
            Ok(text) => text,
            Err(e) => {
                return fail(format!(
                    "{e}\n(runner/PROTOCOL.md describes the configuration)"
                ))
            }
        },
        Err(e) => return fail(format!("cannot read {}: {e}", config.display())),
    };
    let entries = match parse_config(config, &text) {
        Ok(entries) => entries,
        Err(e) => {
            return fail(format!(
                "{e}\n(runner/PROTOCOL.md describes the configuration)"
            ))
        }
    };
    let suite = match load(suite) {
        Ok(suite) => suite,
        Err(code) => return code,
    };
    match run_matrix(&suite, &entries, out, jobs) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("\nhcl-conformance matrix: results differ from the known-failure lists");
            ExitCode::FAILURE
        }
        Err(e) => fail(e),
    }
}

/// `hcl-conformance run`.
fn run(args: &RunArgs, suite: &Suite) -> ExitCode {
    let cases = args.select.cases(suite);
    // The lists whose reasons --write-failures keeps: those given, and the
    // file itself (which wins). Read before any case runs, so that a list
    // that cannot be read stops the run at once, and again at the end.
    let lists: Vec<&Path> = args
        .expect_failures
        .iter()
        .chain(&args.write_failures)
        .map(PathBuf::as_path)
        .collect();
    if args.write_failures.is_some() {
        if let Err(e) = FailureFile::read_all(&lists) {
            return fail(format!(
                "{e}\n--write-failures keeps the reasons of the lists it reads: fix the list, then run again"
            ));
        }
    }
    let mut known_failures = KnownFailures::default();
    for path in &args.expect_failures {
        match KnownFailures::load(path, suite) {
            Ok(list) => known_failures.merge(list),
            Err(e) => {
                return fail(format!(
                    "{e}\nfix the known-failure list {}",
                    path.display()
                ))
            }
        }
    }
    if let Some(other) = &args.expect_differences {
        known_failures.merge(KnownFailures::from_profile(suite, other));
    }
    let (implementation, hello, name) =
        match start_implementation(args.implementation.as_ref(), args.timeout) {
            Ok(started) => started,
            Err(code) => return code,
        };
    let capabilities = hello.as_ref().map(|h| h.capabilities.clone());
    let profile = args.profile.clone();
    let settings = RunSettings {
        implementation,
        capabilities,
        profile,
        known_failures,
    };
    let text = args.format == Format::Text;
    // Verdicts and the summary quote the implementation: escaped.
    let say = |line: &str| {
        let line = escape_controls(line);
        if text {
            println!("{line}")
        } else {
            eprintln!("{line}")
        }
    };
    let progress = text && std::io::stdout().is_terminal();
    let (done, failing, printing) = (AtomicUsize::new(0), AtomicUsize::new(0), Mutex::new(()));
    let started = Instant::now();
    let records = run_cases(&cases, &settings, args.jobs.count(), &|record| {
        let done = done.fetch_add(1, Ordering::Relaxed) + 1;
        let failed = record.status.fails_run() as usize;
        let failing = failing.fetch_add(failed, Ordering::Relaxed) + failed;
        let _lock = printing.lock();
        if progress {
            print!("\r\x1b[K");
        }
        if args.verbose {
            say(format!(
                "{:>16}  {}  {}",
                record.status.name(),
                record.id,
                record.reason
            )
            .trim_end());
        }
        if progress {
            print!("{done}/{} cases, {failing} failing", cases.len());
            let _ = std::io::stdout().flush();
        }
    });
    let elapsed = started.elapsed().as_secs_f64();
    if progress {
        print!("\r\x1b[K");
    }
    for record in records.iter().filter(|r| r.status.fails_run()) {
        say(&format!("\n{}", record.message.trim_end()));
    }
    let report = Report::new(name, hello, &args.profile, suite, records);
    say(report.summary().trim_end());
    let n = report.cases.len();
    say(&format!(
        "  {n} cases in {elapsed:.2}s ({:.0} cases/s)",
        n as f64 / elapsed.max(1e-9)
    ));
    let render = |format: Format| match format {
        Format::Junit => report.junit(),
        Format::Markdown => report.markdown(),
        _ => report.json(),
    };
    if !text {
        print!("{}", render(args.format));
    }
    if let Some(path) = &args.write_failures {
        let previous = match FailureFile::read_all(&lists) {
            Ok(previous) => previous,
            Err(e) => {
                return fail(format!(
                    "{e}\nthe list was not written: fix it, then run again"
                ))
            }
        };
        let header = [
            format!(
                "# Known failures of {}, profile {}: one case id a line, then why.",
                report.implementation, report.profile
            ),
            "# Written by hcl-conformance --write-failures; edit the reasons, they are kept."
                .into(),
        ];
        // Failed, crashed or timed out, listed as expected or not.
        let failed = report
            .cases
            .iter()
            .filter(|r| r.status.is_failure() || r.status == Status::ExpectedFailure);
        let ran: BTreeSet<&str> = report.cases.iter().map(|r| r.id.as_str()).collect();
        let failed = failed.map(|r| (r.id.as_str(), r.reason.as_str()));
        let text = failure_list(failed, &ran, &previous, suite, &header);
        let text = match suite_version(suite) {
            Some(version) => stamp_list(&text, &version),
            None => text,
        };
        if let Err(e) = write_list(path, &text) {
            return fail(e);
        }
        let listed = text.lines().filter(|l| !l.starts_with('#')).count();
        say(&format!(
            "  known-failure list ({listed} cases): {}",
            path.display()
        ));
    }
    for (format, path) in &args.report {
        if let Err(e) = std::fs::write(path, render(*format)) {
            return fail(format!("cannot write the report {}: {e}", path.display()));
        }
        say(&format!("  report: {}", path.display()));
    }
    match report.cases.iter().any(|r| r.status.fails_run()) {
        true => ExitCode::FAILURE,
        false => ExitCode::SUCCESS,
    }
}
