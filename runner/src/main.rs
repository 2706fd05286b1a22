//! `hcl-conformance`: runs the HCL conformance suite. `--help` describes
//! the command line; `README.md` and `runner/PROTOCOL.md` the rest.

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use hcl_conformance_format::needs::missing_capabilities;
use hcl_conformance_format::profiles::SPEC_PROFILE;
use hcl_conformance_format::profiles::{known_profile, PROFILES};
use hcl_conformance_format::requirements::{
    check_finished, coverage, ids_settled_by, parse_finished_areas,
};
use hcl_conformance_format::suite::{decode_text, load_embedded, load_suite, Case, Suite};
use hcl_conformance_format::terminal::escape_controls;
use hcl_conformance_format::wire::HelloAnswer;
use hcl_conformance_runner::fuzz::{self, cluster, findings, generate::GenKind, FuzzSettings};
use hcl_conformance_runner::known_failures::{
    failure_list, read_list, write_list, FailureFile, KnownFailures,
};
use hcl_conformance_runner::matrix::{parse_config, run_matrix, split_command};
use hcl_conformance_runner::report::Report;
use hcl_conformance_runner::run::{run_cases, Implementation, RunSettings};
use hcl_conformance_runner::subprocess::{self, ImplementationCommand, Pool, HELLO_TIMEOUT};
use hcl_conformance_runner::verdict::{judge, CaseRecord, Status};
use hcl_conformance_site::docs;
use hcl_conformance_site::export::write_export;
use hcl_conformance_site::versions::{
    describe_versions, hashes, manifests, stamp_list, suite_version, version_of_list, Changes,
};
use std::collections::BTreeSet;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
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
    /// Generative conformance: generated inputs, the reference's answers, the implementation judged
    ///
    /// Generates inputs from a seed (expressions, templates, native and
    /// JSON configurations, conversions, operations, unifications), has
    /// the reference interpreter answer each, and judges the answer of
    /// --impl (without it, of the reference itself) with the suite's
    /// grading, generating only what the implementation's `hello` claims.
    /// Each disagreement is shrunk to a minimal input that disagrees the
    /// same way, and grouped by construct and kind of difference; --out
    /// writes each cluster as a case file marked for review. Exits 1 when a
    /// cluster is found that no --expect-clusters list names.
    Fuzz(FuzzArgs),
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
struct FuzzArgs {
    /// The implementation: a command line, split like a shell's [default: the reference itself]
    #[arg(long = "impl", value_name = "COMMAND", value_parser = |s: &str| split_command(s).map(Words))]
    implementation: Option<Words>,
    /// The time limit of a request with --impl, in seconds [default: 10]
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, requires = "implementation")]
    timeout: Option<Duration>,
    /// The seed: the same seed generates the same inputs, whatever --jobs
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Stop after N generated inputs [default: 10000 without --time]
    #[arg(long, value_name = "N", conflicts_with = "time")]
    cases: Option<u64>,
    /// Stop after this long: 90, 90s, 10m, 1h
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    time: Option<Duration>,
    /// The kinds of input, comma-separated
    #[arg(
        long,
        value_name = "KINDS",
        value_delimiter = ',',
        default_value = "expr,template,config,json,convert,operation,unify"
    )]
    kinds: Vec<GenKind>,
    /// The profile: spec, or a version of hashicorp/hcl (`hcl-conformance profiles`), whose
    /// departures from the spec (runner/fuzz-clusters/) are expected clusters
    #[arg(long, default_value = SPEC_PROFILE, value_parser = known_profile)]
    profile: String,
    #[command(flatten)]
    jobs: Jobs,
    /// Write DIR/fuzz.json and each cluster as DIR/clusters/NNN-NAME.yaml, a case to review
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Clusters known and explained: a cluster key a line, as the run prints them (repeatable)
    #[arg(long, value_name = "FILE")]
    expect_clusters: Vec<PathBuf>,
    /// Candidates tried when shrinking one disagreement, at most
    #[arg(long, value_name = "N", default_value_t = 3000)]
    shrink_limit: usize,
    /// Judge an error's source range too (with the `ranges` feature): the reference's, where the
    /// suite would pin one. Off by default: the suite pins ranges only where hashicorp/hcl's
    /// convention is sound, and the reference is held to it nowhere else
    #[arg(long)]
    ranges: bool,
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

fn parse_duration(text: &str) -> Result<Duration, String> {
    let (number, unit) = match text.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => text.split_at(i),
        None => (text, "s"),
    };
    let scale = match unit {
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        _ => return Err(format!("`{unit}` is no unit: write 90, 90s, 10m or 1h")),
    };
    let seconds: f64 = number
        .parse()
        .map_err(|_| format!("`{text}` is no duration: write 90, 90s, 10m or 1h"))?;
    Duration::try_from_secs_f64(seconds * scale)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| "a duration is positive".into())
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

/// `print!` that gives back the write's error (a closed or full output)
/// instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => { write!(std::io::stdout(), $($arg)*) };
}

/// `println!` that gives back the write's error.
macro_rules! outln {
    ($($arg:tt)*) => { writeln!(std::io::stdout(), $($arg)*) };
}

/// `eprintln!` that gives back the write's error.
macro_rules! errln {
    ($($arg:tt)*) => { writeln!(std::io::stderr(), $($arg)*) };
}

/// Ends the runner with the command line's usage, as clap does (status 2).
fn usage_error(message: &str) -> ! {
    Cli::command()
        .error(clap::error::ErrorKind::InvalidValue, message)
        .exit()
}

/// A problem of the command's inputs: a message, and status 2. (It may
/// quote an implementation's answer or standard error: escaped.) A
/// standard error that cannot be written to loses the message, not the
/// status.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    let _ = errln!("hcl-conformance: {}", escape_controls(&message.to_string()));
    ExitCode::from(2)
}

/// Why a command ended before its end: a problem it has reported (the
/// status it calls for), or a write to standard output or error that
/// failed.
enum Stop {
    Status(ExitCode),
    Write(io::Error),
}

impl From<ExitCode> for Stop {
    fn from(code: ExitCode) -> Stop {
        Stop::Status(code)
    }
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Write(e)
    }
}

/// What a command gives: the status it ends with, or why it stopped.
type Done = Result<ExitCode, Stop>;

/// The status the runner ends with. A closed output (`hcl-conformance
/// list | head -1`) ends it quietly, as SIGPIPE ends other commands
/// ([`subprocess::closed_output`]); another failed write is named, with
/// status 2.
fn finish(done: Done) -> ExitCode {
    match done {
        Ok(code) | Err(Stop::Status(code)) => code,
        Err(Stop::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => subprocess::closed_output(),
        Err(Stop::Write(e)) => fail(format!("cannot write the output: {e}")),
    }
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
            errors.iter().for_each(|e| {
                let _ = errln!("suite bug: {}", escape_controls(&e.to_string()));
            });
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
    let code = finish(dispatch(command));
    subprocess::stop_all();
    code
}

/// Runs a command.
fn dispatch(command: Command) -> Done {
    match command {
        Command::Run(args) => run(&args, &load(&args.suite)?),
        Command::List { select, suite } => list(&select, &load(&suite)?),
        Command::Show {
            case,
            implementation,
            profile,
            suite,
        } => show(&case, implementation.as_ref(), &profile, &load(&suite)?),
        Command::Docs {
            out,
            matrix,
            check,
            suite,
        } => docs(&out, matrix.as_deref(), check, &load(&suite)?),
        Command::Coverage { check, suite } => run_coverage(check, &load(&suite)?),
        Command::Matrix {
            config,
            out,
            jobs,
            suite,
        } => matrix(&config, &out, jobs.count(), &suite),
        Command::Export { out, suite } => export(&out, &load(&suite)?),
        Command::Fuzz(args) => fuzz(&args),
        Command::Profiles { oracles } => Ok(print_profiles(oracles)),
        Command::Changes { since, suite } => changes(&since, &load(&suite)?),
    }
}

impl Jobs {
    fn count(&self) -> usize {
        let cpus = || std::thread::available_parallelism().map_or(1, |n| n.get());
        self.jobs.map_or_else(cpus, |n| n as usize)
    }
}

/// `hcl-conformance list`: the selected case ids, one a line.
fn list(select: &Select, suite: &Suite) -> Done {
    let mut out = std::io::stdout().lock();
    for case in select.cases(suite) {
        writeln!(out, "{}", case.id)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `hcl-conformance profiles`: the table of `hcl_conformance_format::profiles`.
/// (A closed output ends the table, and the command, with success.)
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
fn show(id: &str, implementation: Option<&Words>, profile: &str, suite: &Suite) -> Done {
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
    let context = docs::context::Context::new(suite, None).map_err(fail)?;
    out!("{}", docs::show::case_text(&context, case))?;
    let (implementation, hello, name) = start_implementation(implementation, None)?;
    let capabilities = hello.map(|h| h.capabilities);
    let missing = capabilities
        .as_ref()
        .map(|c| missing_capabilities(case, profile, c))
        .unwrap_or_default();
    if !missing.is_empty() {
        out!(
            "{}",
            docs::show::result_text(
                &name,
                profile,
                None,
                "unsupported",
                &format!("needs {}", missing.join(", "))
            )
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    let outcome = implementation(&case.input);
    let record = judge(case, &outcome, profile, capabilities.as_ref());
    let status = record.status.name();
    out!(
        "{}",
        docs::show::result_text(&name, profile, Some(&outcome), status, &record.message)
    )?;
    Ok(match record.status.is_failure() {
        true => ExitCode::FAILURE,
        false => ExitCode::SUCCESS,
    })
}

/// `hcl-conformance docs`: the site made in memory, checked with
/// `--check` before anything is written, then written.
fn docs(out: &Path, matrix: Option<&Path>, check: bool, suite: &Suite) -> Done {
    let started = Instant::now();
    let results = matrix
        .map(docs::results::Results::load)
        .transpose()
        .map_err(fail)?;
    let site = docs::render_site(suite, results.as_ref()).map_err(fail)?;
    if check {
        let problems = site.problems();
        if !problems.is_empty() {
            for p in &problems {
                errln!("{p}")?;
            }
            errln!(
                "{} problems in the site; nothing written to {}",
                problems.len(),
                out.display()
            )?;
            return Ok(ExitCode::FAILURE);
        }
    }
    let built = site.write(out).map_err(fail)?;
    outln!(
        "hcl-conformance docs: {} pages, {} files, {:.1} MiB in {} ({:.2}s); open {}",
        built.pages,
        built.files,
        built.bytes as f64 / (1024.0 * 1024.0),
        out.display(),
        started.elapsed().as_secs_f64(),
        out.join("index.html").display()
    )?;
    if check {
        outln!("checked before writing: every link of the site resolves, and its pages hold no HTML but its own")?;
    }
    Ok(ExitCode::SUCCESS)
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
fn run_coverage(check: bool, suite: &Suite) -> Done {
    let covered: BTreeSet<String> = suite
        .cases()
        .flat_map(|c| c.covers.iter().cloned())
        .collect();
    let settled = ids_settled_by(suite.notes().map(|(_, text)| text));
    let sections = coverage(&suite.requirements, &covered, &settled);
    let finished_text = suite.text("suite/finished-areas.txt").unwrap_or("");
    let finished =
        parse_finished_areas(finished_text, &suite.dir.join("finished-areas.txt")).map_err(fail)?;
    out!(
        "{}",
        hcl_conformance_format::requirements::render_coverage(&sections, &finished)
    )?;
    let problems = check_finished(&sections, &finished);
    if !check {
        return Ok(ExitCode::SUCCESS);
    }
    if problems.is_empty() {
        outln!("\nall {} finished areas are fully covered", finished.len())?;
        return Ok(ExitCode::SUCCESS);
    }
    errln!("\ncoverage of finished areas dropped:")?;
    for p in &problems {
        errln!("  {p}")?;
    }
    Ok(ExitCode::FAILURE)
}

/// `hcl-conformance export`.
fn export(out: &Path, suite: &Suite) -> Done {
    let version = suite_version(suite).map(|v| v.to_string());
    let count = write_export(suite, out, version, env!("CARGO_PKG_VERSION")).map_err(fail)?;
    outln!("{count} cases written to {}", out.display())?;
    Ok(ExitCode::SUCCESS)
}

/// `--since` of `changes`: a suite version, or a known-failure list (the
/// version its header names, and the ids it lists).
fn since_what(since: &str) -> Result<(semver::Version, BTreeSet<String>), ExitCode> {
    if let Ok(version) = semver::Version::parse(since) {
        return Ok((version, BTreeSet::new()));
    }
    if let Err(e) = std::fs::metadata(since) {
        return Err(fail(format!(
            "--since {since}: neither a version (1.0.0) nor a known-failure list that can be read ({e})"
        )));
    }
    let text = read_list(Path::new(since)).map_err(fail)?;
    let Some(version) = version_of_list(&text) else {
        return Err(fail(format!(
            "{since}: the list names no suite version (a `# Suite version X.Y.Z` line in its \
             header, which --write-failures writes); give the version: --since X.Y.Z"
        )));
    };
    let ids = FailureFile::parse(&text)
        .entries
        .into_iter()
        .map(|(id, ..)| id);
    Ok((version, ids.collect()))
}

/// `hcl-conformance changes`.
fn changes(since: &str, suite: &Suite) -> Done {
    let (version, listed) = since_what(since)?;
    let manifests = manifests(suite).map_err(fail)?;
    let Some(old) = manifests.iter().find(|m| m.version == version) else {
        let known: Vec<String> = manifests.iter().map(|m| m.version.to_string()).collect();
        return Err(fail(format!(
            "the suite has no version {version}; its versions are {}",
            known.join(", ")
        ))
        .into());
    };
    let changes = Changes::between(&old.hashes, &hashes(suite));
    let now = suite_version(suite).map_or("unversioned".into(), |v| v.to_string());
    outln!(
        "From suite version {version} to this suite ({now}): {}.",
        changes.counts()
    )?;
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
            outln!("\n{what}:")?;
        }
        for id in ids {
            match listed.contains(id) && !note.is_empty() {
                true => outln!("  {id}  ({note})")?,
                false => outln!("  {id}")?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `hcl-conformance matrix`: the configuration read, the suite loaded, the
/// matrix run and written; then its table, and how its results differ
/// from the known-failure lists.
fn matrix(config: &Path, out: &Path, jobs: usize, suite: &SuiteArg) -> Done {
    let how = "(runner/PROTOCOL.md describes the configuration)";
    let bytes = std::fs::read(config)
        .map_err(|e| fail(format!("cannot read {}: {e}", config.display())))?;
    let text = decode_text(config, bytes).map_err(|e| fail(format!("{e}\n{how}")))?;
    let entries = parse_config(config, &text).map_err(|e| fail(format!("{e}\n{how}")))?;
    let suite = load(suite)?;
    let matrix = run_matrix(&suite, &entries, out, jobs).map_err(fail)?;
    // The table quotes each implementation's answer to `hello`: escaped.
    outln!(
        "{}\n  written: {}/matrix.md, matrix-details.json, known-failures/",
        escape_controls(&matrix.markdown),
        out.display()
    )?;
    let differences = matrix.differences(out);
    if differences.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    write!(std::io::stderr(), "{differences}")?;
    errln!("\nhcl-conformance matrix: results differ from the known-failure lists")?;
    Ok(ExitCode::FAILURE)
}

/// `hcl-conformance fuzz`: the implementation started, the run (a progress
/// line on a terminal), then each cluster, and what --out writes.
fn fuzz(args: &FuzzArgs) -> Done {
    let mut expected = cluster::profile_lists(&args.profile);
    for path in &args.expect_clusters {
        let bytes = std::fs::read(path)
            .map_err(|e| fail(format!("cannot read {}: {e}", path.display())))?;
        let text = decode_text(path, bytes).map_err(fail)?;
        expected.push(cluster::Expected::parse(&path.display().to_string(), &text).map_err(fail)?);
    }
    let (implementation, hello, name) =
        start_implementation(args.implementation.as_ref(), args.timeout)?;
    let settings = FuzzSettings {
        implementation,
        capabilities: hello.as_ref().map(|h| h.capabilities.clone()),
        profile: args.profile.clone(),
        seed: args.seed,
        cases: args.cases.or(if args.time.is_none() {
            Some(10_000)
        } else {
            None
        }),
        time: args.time,
        kinds: args.kinds.clone(),
        jobs: args.jobs.count(),
        shrink_limit: args.shrink_limit,
        ranges: args.ranges,
    };
    if settings.supported_kinds().is_empty() {
        return Err(fail(format!("{name} answers none of the kinds asked for (--kinds); its `hello` lists the kinds it answers")).into());
    }
    // A progress line on a terminal; a line every 30 s in a log.
    let terminal = io::stderr().is_terminal();
    let logged = Mutex::new(Instant::now());
    let outcome = fuzz::run(&settings, &|p| {
        if terminal {
            let _ = write!(io::stderr(), "\r\x1b[2Kfuzz: {}", p.line());
        } else {
            let mut last = logged.lock().unwrap_or_else(PoisonError::into_inner);
            if last.elapsed() >= Duration::from_secs(30) {
                *last = Instant::now();
                let _ = errln!("fuzz: {}", p.line());
            }
        }
    });
    if terminal {
        errln!()?;
    }
    let mut unexpected = 0;
    for (i, c) in outcome.clusters.iter().enumerate() {
        let known = expected.iter().find_map(|e| e.line_for(c));
        let said = match known {
            Some(line) => format!("{} (expected: {line})", findings::describe(i + 1, c)),
            None => {
                unexpected += 1;
                findings::describe(i + 1, c)
            }
        };
        outln!("{}", escape_controls(&said))?;
    }
    let p = outcome.progress;
    outln!(
        "fuzz against {}: seed {}, {}; {unexpected} unexpected cluster(s)",
        escape_controls(&name),
        args.seed,
        p.line()
    )?;
    if let Some(dir) = &args.out {
        let cases: Vec<_> = outcome
            .clusters
            .iter()
            .map(|c| {
                fuzz::decide::case_of(
                    &c.input,
                    &hcl_conformance_runner::reference::run(&c.input.request().input),
                    args.ranges,
                )
            })
            .collect::<Option<_>>()
            .unwrap_or_default();
        let command = std::env::args()
            .map(|a| shell_words::quote(&a).into_owned())
            .collect::<Vec<_>>()
            .join(" ");
        let report = findings::Report {
            implementation: &name,
            profile: &args.profile,
            seed: args.seed,
            cases: p.cases,
            skipped: p.skipped,
            disagreements: p.disagreements,
            seconds: p.seconds,
            clusters: Vec::new(),
        };
        findings::write(dir, report, &outcome.clusters, &cases, &command).map_err(|e| {
            fail(format!(
                "cannot write the findings into {}: {e}",
                dir.display()
            ))
        })?;
        outln!(
            "  written: {}/fuzz.json, {}/clusters/",
            dir.display(),
            dir.display()
        )?;
    }
    Ok(if unexpected == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Where the run's text goes: standard output, or standard error when
/// standard output gets a report (`--format`). Verdicts and the summary
/// quote the implementation: escaped.
#[derive(Clone, Copy)]
struct Say {
    text: bool,
}

impl Say {
    fn line(self, line: &str) -> io::Result<()> {
        let line = escape_controls(line);
        match self.text {
            true => outln!("{line}"),
            false => errln!("{line}"),
        }
    }
}

/// `hcl-conformance run`: the known-failure lists read and the
/// implementation started, the cases run, then what the run found: said,
/// written as a known-failure list (--write-failures) and as reports
/// (--report).
fn run(args: &RunArgs, suite: &Suite) -> Done {
    let cases = args.select.cases(suite);
    let lists = kept_lists(args);
    let known_failures = known_failures(args, &lists, suite)?;
    let (implementation, hello, name) =
        start_implementation(args.implementation.as_ref(), args.timeout)?;
    let settings = RunSettings {
        implementation,
        capabilities: hello.as_ref().map(|h| h.capabilities.clone()),
        profile: args.profile.clone(),
        known_failures,
    };
    let say = Say {
        text: args.format == Format::Text,
    };
    let started = Instant::now();
    let records = run_saying_progress(args, &cases, &settings, say)?;
    let elapsed = started.elapsed().as_secs_f64();
    for record in records.iter().filter(|r| r.status.fails_run()) {
        say.line(&format!("\n{}", record.message.trim_end()))?;
    }
    let report = Report::new(name, hello, &args.profile, suite, records);
    say.line(report.summary().trim_end())?;
    let n = report.cases.len();
    say.line(&format!(
        "  {n} cases in {elapsed:.2}s ({:.0} cases/s)",
        n as f64 / elapsed.max(1e-9)
    ))?;
    if !say.text {
        out!("{}", render(&report, args.format))?;
    }
    if let Some(path) = &args.write_failures {
        write_failures(path, &lists, &report, suite, say)?;
    }
    for (format, path) in &args.report {
        std::fs::write(path, render(&report, *format))
            .map_err(|e| fail(format!("cannot write the report {}: {e}", path.display())))?;
        say.line(&format!("  report: {}", path.display()))?;
    }
    Ok(match report.cases.iter().any(|r| r.status.fails_run()) {
        true => ExitCode::FAILURE,
        false => ExitCode::SUCCESS,
    })
}

/// The lists whose reasons --write-failures keeps: those given, and the
/// file itself (which wins).
fn kept_lists(args: &RunArgs) -> Vec<&Path> {
    args.expect_failures
        .iter()
        .chain(&args.write_failures)
        .map(PathBuf::as_path)
        .collect()
}

/// The cases the run expects to fail: those of the --expect-failures
/// lists, and with --expect-differences those whose expectation differs.
/// With --write-failures the lists it keeps are read first, so that a list
/// that cannot be read stops the run at once (they are read again at the
/// end).
fn known_failures(
    args: &RunArgs,
    lists: &[&Path],
    suite: &Suite,
) -> Result<KnownFailures, ExitCode> {
    if args.write_failures.is_some() {
        FailureFile::read_all(lists).map_err(|e| {
            fail(format!(
                "{e}\n--write-failures keeps the reasons of the lists it reads: fix the list, then run again"
            ))
        })?;
    }
    let mut known_failures = KnownFailures::default();
    for path in &args.expect_failures {
        let list = KnownFailures::load(path, suite).map_err(|e| {
            fail(format!(
                "{e}\nfix the known-failure list {}",
                path.display()
            ))
        })?;
        known_failures.merge(list);
    }
    if let Some(other) = &args.expect_differences {
        known_failures.merge(KnownFailures::from_profile(suite, other));
    }
    Ok(known_failures)
}

/// Runs the cases, saying each verdict as it comes with --verbose, and on
/// a terminal keeping a progress line (`12/345 cases, 1 failing`) up to
/// date. A closed output ends the runner at once; after another failed
/// write nothing more is written, and the error is given back at the end.
fn run_saying_progress(
    args: &RunArgs,
    cases: &[&Case],
    settings: &RunSettings,
    say: Say,
) -> io::Result<Vec<CaseRecord>> {
    let progress = say.text && std::io::stdout().is_terminal();
    let (done, failing) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let written = Mutex::new(Ok(()));
    let records = run_cases(cases, settings, args.jobs.count(), &|record| {
        let done = done.fetch_add(1, Ordering::Relaxed) + 1;
        let failed = record.status.fails_run() as usize;
        let failing = failing.fetch_add(failed, Ordering::Relaxed) + failed;
        let mut written = written.lock().unwrap_or_else(PoisonError::into_inner);
        if written.is_ok() {
            let counts = progress.then_some((done, cases.len(), failing));
            *written = say_case(record, args.verbose, counts, say);
        }
        if let Err(e) = &*written {
            if e.kind() == io::ErrorKind::BrokenPipe {
                subprocess::closed_output();
            }
        }
    });
    written
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)?;
    if progress {
        out!("\r\x1b[K")?;
    }
    Ok(records)
}

/// What the run says as a case ends: its verdict with --verbose, and the
/// progress line (cases done, of all, and failing) where there is one.
fn say_case(
    record: &CaseRecord,
    verbose: bool,
    progress: Option<(usize, usize, usize)>,
    say: Say,
) -> io::Result<()> {
    if progress.is_some() {
        out!("\r\x1b[K")?;
    }
    if verbose {
        let verdict = format!(
            "{:>16}  {}  {}",
            record.status.name(),
            record.id,
            record.reason
        );
        say.line(verdict.trim_end())?;
    }
    if let Some((done, all, failing)) = progress {
        out!("{done}/{all} cases, {failing} failing")?;
        std::io::stdout().flush()?;
    }
    Ok(())
}

/// The run's report in a format.
fn render(report: &Report, format: Format) -> String {
    match format {
        Format::Junit => report.junit(),
        Format::Markdown => report.markdown(),
        _ => report.json(),
    }
}

/// `--write-failures`: the cases that failed (crashed or timed out, listed
/// as expected or not) with the reasons of the lists it keeps, and the
/// suite's version in the header.
fn write_failures(
    path: &Path,
    lists: &[&Path],
    report: &Report,
    suite: &Suite,
    say: Say,
) -> Result<(), Stop> {
    let previous = FailureFile::read_all(lists).map_err(|e| {
        fail(format!(
            "{e}\nthe list was not written: fix it, then run again"
        ))
    })?;
    let header = [
        format!(
            "# Known failures of {}, profile {}: one case id a line, then why.",
            report.implementation, report.profile
        ),
        "# Written by hcl-conformance --write-failures; edit the reasons, they are kept.".into(),
    ];
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
    write_list(path, &text).map_err(fail)?;
    let listed = text.lines().filter(|l| !l.starts_with('#')).count();
    say.line(&format!(
        "  known-failure list ({listed} cases): {}",
        path.display()
    ))?;
    Ok(())
}
