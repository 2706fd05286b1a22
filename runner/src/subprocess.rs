//! Running an implementation as a subprocess that speaks the protocol
//! (`runner/PROTOCOL.md`).
//!
//! A [`Pool`] keeps idle processes for reuse; a case takes one, or starts a
//! new one, and gives it back only when the exchange went cleanly. A process
//! that crashed, hung, or answered garbage is killed, so one misbehaving case
//! costs only itself; the next case starts a fresh process.
//!
//! A process's standard output is read by a thread of its own, within
//! bounds ([`MAX_ANSWER_BYTES`], [`MAX_BUFFERED_BYTES`],
//! [`MAX_UNASKED_LINES`]): a process that writes past them is killed at
//! once, between cases too, and the case waiting, or the next case to take
//! the process, sees why.
//!
//! Every process leads a process group of its own, and killing it kills the
//! whole group, so that what it started (a wrapper script's interpreter, a
//! helper in the background) goes with it. The groups still running are
//! registered, so that [`stop_all`] can end them on any way out of the
//! runner.

use hcl_conformance_format::suite::CaseInput;
use hcl_conformance_format::terminal;
use hcl_conformance_format::wire::PROTOCOL_VERSION;
use hcl_conformance_format::wire::{
    outcome_from_answer, Capabilities, Hello, HelloAnswer, Outcome, RequestLine,
};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use serde_json::Value as Json;
use std::collections::{BTreeSet, VecDeque};
use std::io::{BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

// What the runner holds of an implementation's output (runner/PROTOCOL.md
// § What the runner reads and shows): a process that writes more is killed
// with its group, and the next case starts a fresh one.

/// The longest answer line read: a longer one is a broken answer.
pub const MAX_ANSWER_BYTES: usize = 512 << 10;
/// The most output of one process held while no case has taken it: the
/// lines read and not yet taken, and the line being read.
pub const MAX_BUFFERED_BYTES: usize = 1 << 20;
/// How many lines a process may write beyond the requests it was sent.
pub const MAX_UNASKED_LINES: u64 = 16;
/// The least time the `hello` handshake gets, start-up included.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a process that closed its output gets to exit by itself (at
/// most: never longer than the case's time limit) before it is killed.
pub const EXIT_GRACE: Duration = Duration::from_secs(1);
/// How much of an implementation's standard error is kept, from the end.
pub const STDERR_TAIL_BYTES: usize = 4096;

/// How to start the implementation, and how long a case may take.
#[derive(Clone, Debug)]
pub struct ImplementationCommand {
    pub program: String,
    pub args: Vec<String>,
    /// The time limit of a case.
    pub timeout: Duration,
    /// The time limit of the `hello` handshake, start-up included.
    pub hello_timeout: Duration,
}

impl ImplementationCommand {
    /// A command whose handshake gets the case's time limit, or
    /// [`HELLO_TIMEOUT`] when that is longer.
    pub fn new(program: String, args: Vec<String>, timeout: Duration) -> ImplementationCommand {
        let hello_timeout = timeout.max(HELLO_TIMEOUT);
        ImplementationCommand {
            program,
            args,
            timeout,
            hello_timeout,
        }
    }
}

/// The process groups started and not yet killed; once stopping, no new
/// process starts.
static RUNNING: Mutex<(BTreeSet<i32>, bool)> = Mutex::new((BTreeSet::new(), false));

fn running() -> MutexGuard<'static, (BTreeSet<i32>, bool)> {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every implementation process still running, with everything each
/// started, and lets no new one start: for the ways out of the runner where
/// the pools are not dropped.
pub fn stop_all() {
    let mut running = running();
    running.1 = true;
    std::mem::take(&mut running.0)
        .into_iter()
        .for_each(kill_group);
}

/// Kills a process group. It is killed before its leader is reaped where
/// the leader is still running, so the group id cannot have been reused;
/// after a leader exited by itself the group may be empty, and then there
/// is nothing to kill.
fn kill_group(group: i32) {
    let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
}

/// Makes sure no implementation process outlives the runner. A normal end
/// or an error exit drops the pools, which kills their processes; this
/// covers the other ways out:
///
/// - SIGINT (Ctrl-C) and SIGTERM stop every implementation, then end the
///   runner as the signal would have. (Each implementation runs in its own
///   process group, out of reach of the terminal's Ctrl-C.) SIGHUP is left
///   alone, so that `nohup` keeps working.
/// - A panic of the main thread stops every implementation before the
///   panic is reported. (A panic inside one case is that case's failure,
///   and stops nothing.)
///
/// A closed standard output is no panic: the runner's writes give back
/// their errors, and a closed pipe ends it with [`closed_output`].
pub fn stop_on_every_way_out() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::low_level::emulate_default_handler;
    if let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) {
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                stop_all();
                let _ = emulate_default_handler(signal);
            }
        });
    }
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some("main") {
            stop_all();
        }
        report(info);
    }));
}

/// Ends the runner because what it writes to has been closed
/// (`hcl-conformance list | head -1`): every implementation stopped, then
/// quietly, as SIGPIPE ends other commands (status 141 in a shell). The
/// runner keeps SIGPIPE ignored (Rust's default) while it runs, so that an
/// implementation that closes its input costs only its case instead of
/// killing the runner; this is the one place SIGPIPE's default action is
/// taken.
pub fn closed_output() -> ! {
    stop_all();
    let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGPIPE);
    std::process::exit(141)
}

/// What waiting for an answer line gives.
enum Line {
    Text(Vec<u8>),
    /// The line being read grew past [`MAX_ANSWER_BYTES`]; the process was
    /// killed.
    TooLong,
    /// The process wrote more than the runner holds for it (why); it was
    /// killed.
    Flooded(String),
    Closed,
    TimedOut,
}

/// Why the reader of a process's standard output stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
enum End {
    /// The output closed.
    Closed,
    TooLong,
    Flooded(String),
}

/// What the reader of a process's standard output has read and the runner
/// has not yet taken, within the caps: at most [`MAX_BUFFERED_BYTES`], in
/// lines of at most [`MAX_ANSWER_BYTES`], and at most
/// [`MAX_UNASKED_LINES`] lines beyond the requests sent.
#[derive(Default)]
struct Output {
    state: Mutex<OutputState>,
    /// Signalled when a line is read or the reader stops.
    changed: Condvar,
}

#[derive(Default)]
struct OutputState {
    /// Complete lines, without their newlines, in the order read.
    lines: VecDeque<Vec<u8>>,
    /// The bytes of `lines`.
    held: usize,
    /// Requests sent, `hello` included.
    asked: u64,
    /// Lines read.
    read: u64,
    /// Set once the reader stops.
    end: Option<End>,
}

impl Output {
    fn state(&self) -> MutexGuard<'_, OutputState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a request about to be sent, so that its answer is not a line
    /// nobody asked for.
    fn ask(&self) {
        self.state().asked += 1;
    }

    /// Holds a line just read; refuses it when it is one too many.
    fn push(&self, line: Vec<u8>) -> Result<(), End> {
        let mut state = self.state();
        state.read += 1;
        if state.read > state.asked + MAX_UNASKED_LINES {
            return Err(End::Flooded(format!(
                "more than {MAX_UNASKED_LINES} lines that no request asked for"
            )));
        }
        state.held += line.len();
        state.lines.push_back(line);
        self.changed.notify_all();
        Ok(())
    }

    /// Refuses a line being read that would make the output held too
    /// large, or that is already too long for an answer.
    fn check(&self, reading: usize) -> Result<(), End> {
        if reading > MAX_ANSWER_BYTES {
            return Err(End::TooLong);
        }
        if self.state().held + reading > MAX_BUFFERED_BYTES {
            return Err(End::Flooded(format!(
                "more than {} bytes of output that no case has taken",
                terminal::thousands(MAX_BUFFERED_BYTES)
            )));
        }
        Ok(())
    }

    fn finish(&self, end: End) {
        self.state().end = Some(end);
        self.changed.notify_all();
    }

    /// Whether the reader stopped because the process wrote too much.
    fn overflowed(&self) -> bool {
        matches!(self.state().end, Some(End::TooLong | End::Flooded(_)))
    }

    /// The next line, in the order read; once none is left, why the reader
    /// stopped; `TimedOut` when neither comes within `timeout`.
    fn take(&self, timeout: Duration) -> Line {
        let deadline = Instant::now().checked_add(timeout);
        let mut state = self.state();
        loop {
            if let Some(line) = state.lines.pop_front() {
                state.held -= line.len();
                return Line::Text(line);
            }
            match &state.end {
                Some(End::Closed) => return Line::Closed,
                Some(End::TooLong) => return Line::TooLong,
                Some(End::Flooded(why)) => return Line::Flooded(why.clone()),
                None => {}
            }
            // No deadline: a time limit too far to be an instant.
            let left = deadline.map_or(Duration::from_secs(3600), |d| {
                d.saturating_duration_since(Instant::now())
            });
            if left.is_zero() {
                return Line::TimedOut;
            }
            state = match self.changed.wait_timeout(state, left) {
                Ok((state, _)) => state,
                Err(e) => e.into_inner().0,
            };
        }
    }
}

/// Reads a process's standard output into `output`, line by line, until it
/// closes or breaks a cap; returns why it stopped.
fn read_output(mut stdout: impl Read, output: &Output) -> End {
    let mut chunk = vec![0u8; 64 << 10];
    let mut line = Vec::new();
    loop {
        let n = match stdout.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let mut pieces = chunk[..n].split(|b| *b == b'\n');
        // The last piece, after the last newline, begins the next line.
        let mut piece = pieces.next().unwrap_or_default();
        for next in pieces {
            line.extend_from_slice(piece);
            if let Err(end) = output
                .check(line.len())
                .and_then(|()| output.push(std::mem::take(&mut line)))
            {
                return end;
            }
            piece = next;
        }
        line.extend_from_slice(piece);
        if let Err(end) = output.check(line.len()) {
            return end;
        }
    }
    // The end of the output: a last line without its newline counts.
    if !line.is_empty() {
        if let Err(end) = output.push(line) {
            return end;
        }
    }
    End::Closed
}

/// Keeps the end of standard error, and marks it read to its end.
fn keep_tail(stderr: impl Read, tail: &(Mutex<VecDeque<u8>>, AtomicBool)) {
    let mut reader = BufReader::new(stderr);
    let mut buffer = [0u8; 4096];
    while let Ok(n @ 1..) = reader.read(&mut buffer) {
        let mut kept = tail.0.lock().unwrap_or_else(|e| e.into_inner());
        kept.extend(&buffer[..n]);
        let excess = kept.len().saturating_sub(STDERR_TAIL_BYTES);
        kept.drain(..excess);
    }
    tail.1.store(true, Ordering::Release);
}

/// A process group, as long as its leader has not been reaped: until then
/// its id cannot have been reused, and another thread may kill it.
#[derive(Clone)]
struct Group(Arc<Mutex<Option<i32>>>);

impl Group {
    fn leader(&self) -> MutexGuard<'_, Option<i32>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Kills the group, unless its leader has been reaped (then the
    /// process owning it kills what is left when it stops).
    fn kill(&self) {
        if let Some(group) = *self.leader() {
            kill_group(group);
        }
    }
}

/// A running implementation: the leader of its own process group. Dropping
/// it kills the group.
struct Process {
    child: Child,
    /// Its group, for the reader of its output to kill it when it floods.
    group: Group,
    /// Requests, for the thread that writes them to its standard input (a
    /// process that does not read must not block the runner).
    requests: Sender<Vec<u8>>,
    output: Arc<Output>,
    /// The end of its standard error, and whether it has been read to its
    /// end.
    stderr: Arc<(Mutex<VecDeque<u8>>, AtomicBool)>,
    /// How many requests it has answered.
    answered: u64,
    /// Set once the group is killed and the child reaped.
    stopped: bool,
}

impl Process {
    fn start(command: &ImplementationCommand) -> Result<Process, String> {
        // Started and registered under the lock, so that `stop_all` sees
        // every process that starts before it, and none starts after.
        let mut running = running();
        if running.1 {
            return Err("the runner is stopping".into());
        }
        let mut child = Command::new(&command.program)
            .args(&command.args)
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", command.program))?;
        let group = child.id() as i32;
        running.0.insert(group);
        drop(running);
        let group = Group(Arc::new(Mutex::new(Some(group))));
        let (mut stdin, stdout, stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(stdin), Some(stdout), Some(stderr)) => (stdin, stdout, stderr),
                _ => return Err("no standard input, output or error".into()),
            };
        let (requests, to_write) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || {
            for request in to_write {
                if stdin
                    .write_all(&request)
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    return;
                }
            }
        });
        let output = Arc::new(Output::default());
        let (reader, killer) = (Arc::clone(&output), group.clone());
        std::thread::spawn(move || {
            let end = read_output(stdout, &reader);
            // A process that writes too much is stopped at once, busy case
            // or idle; the case, or the next one to take it, sees why.
            if end != End::Closed {
                killer.kill();
            }
            reader.finish(end);
        });
        let tail = Arc::new((Mutex::new(VecDeque::new()), AtomicBool::new(false)));
        let writer = Arc::clone(&tail);
        std::thread::spawn(move || keep_tail(stderr, &writer));
        Ok(Process {
            child,
            group,
            requests,
            output,
            stderr: tail,
            answered: 0,
            stopped: false,
        })
    }

    /// Whether the process has exited (and then it is reaped).
    fn has_exited(&mut self) -> bool {
        let mut leader = self.group.leader();
        let exited = !matches!(self.child.try_wait(), Ok(None));
        if exited {
            *leader = None;
        }
        exited
    }

    /// Whether the process is of no more use to a case: it exited, or it
    /// wrote too much and was killed.
    fn is_spent(&mut self) -> bool {
        self.output.overflowed() || self.has_exited()
    }

    /// Gives a process that closed its output up to `grace` to exit, then
    /// kills its group; its exit status if it exited by itself.
    fn finish(&mut self, grace: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + grace;
        while !self.has_exited() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let exited = self.has_exited();
        self.stop().filter(|_| exited)
    }

    /// Kills the process group and reaps the child; once.
    fn stop(&mut self) -> Option<ExitStatus> {
        let mut leader = self.group.leader();
        if !self.stopped {
            self.stopped = true;
            let group = self.child.id() as i32;
            kill_group(group);
            running().0.remove(&group);
        }
        let status = self.child.wait().ok();
        *leader = None;
        status
    }

    /// The end of standard error; after an exit, once the reader has drained
    /// what was written (waiting half a second at most).
    fn stderr_tail(&self, exited: bool) -> String {
        for _ in 0..100 {
            if !exited || self.stderr.1.load(Ordering::Acquire) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let tail = self.stderr.0.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&tail.iter().copied().collect::<Vec<u8>>())
            .trim()
            .to_string();
        match text.is_empty() {
            true => text,
            false => format!("\n--- the implementation's standard error (end) ---\n{text}"),
        }
    }

    /// Sends a request and waits for its answer line.
    fn exchange(&mut self, request: &impl serde::Serialize, timeout: Duration) -> Line {
        let line = serde_json::to_string(request).unwrap_or_default() + "\n";
        // Counted before it is sent: its answer may come at once.
        self.output.ask();
        if self.requests.send(line.into_bytes()).is_err() {
            // The writer stopped: the process closed its input.
            return Line::Closed;
        }
        match self.output.take(timeout) {
            Line::Text(bytes) => {
                self.answered += 1;
                Line::Text(bytes)
            }
            line => line,
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The implementation behind the protocol: idle processes, its answer to
/// `hello`, and the request counter.
pub struct Pool {
    command: ImplementationCommand,
    idle: Mutex<Vec<Process>>,
    hello: HelloAnswer,
    next_id: AtomicU64,
}

impl Pool {
    /// Starts the implementation and asks for its capabilities.
    pub fn start(command: ImplementationCommand) -> Result<Pool, String> {
        // On every error the process is dropped, which kills its group.
        let mut process = Process::start(&command)?;
        let hello = Hello {
            id: "0".into(),
            kind: "hello".into(),
            protocol: PROTOCOL_VERSION,
        };
        let answer = match process.exchange(&hello, command.hello_timeout) {
            Line::Text(bytes) => bytes,
            Line::TooLong => {
                return Err(format!(
                    "its answer to `hello` is longer than {}; it was killed",
                    too_long()
                ))
            }
            Line::Flooded(why) => {
                return Err(format!(
                    "it flooded its output before answering `hello`: {why}; it was killed"
                ))
            }
            Line::Closed => {
                let how = match process.finish(command.hello_timeout.min(EXIT_GRACE)) {
                    Some(status) => format!("it exited ({status}) without answering `hello`"),
                    None => "it closed its output without answering `hello`, and was killed".into(),
                };
                return Err(format!("{how}{}", process.stderr_tail(true)));
            }
            Line::TimedOut => {
                return Err(format!(
                    "it did not answer `hello` within {:?}, the handshake's time limit, and was killed{}",
                    command.hello_timeout,
                    process.stderr_tail(false)
                ))
            }
        };
        let text = String::from_utf8_lossy(&answer);
        let shown = terminal::shown(&text, terminal::SHOWN_LINE_BYTES);
        if let Some(duplicate) = hcl_conformance_format::envelope::duplicate_member(&text) {
            return Err(format!(
                "its answer to `hello` is not one (runner/PROTOCOL.md § Handshake): {duplicate}: {shown}"
            ));
        }
        let hello: HelloAnswer = serde_json::from_slice(&answer).map_err(|e| {
            format!(
                "its answer to `hello` is not one (runner/PROTOCOL.md § Handshake): {e}: {shown}"
            )
        })?;
        if hello.capabilities.kinds.is_empty() {
            return Err(format!(
                "its `hello` answer lists no kinds under capabilities.kinds: {shown}"
            ));
        }
        let pool = Pool {
            command,
            idle: Mutex::new(Vec::new()),
            hello,
            next_id: AtomicU64::new(1),
        };
        pool.idle().push(process);
        Ok(pool)
    }

    pub fn capabilities(&self) -> &Capabilities {
        &self.hello.capabilities
    }

    /// The implementation's answer to `hello`.
    pub fn hello(&self) -> &HelloAnswer {
        &self.hello
    }

    fn idle(&self) -> MutexGuard<'_, Vec<Process>> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs one case's input through the implementation.
    pub fn run(&self, input: &CaseInput) -> Outcome {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed).to_string();
        let request = RequestLine { id: &id, input };
        // A one-shot implementation exits after each answer; an idle process
        // caught between answering and exiting has a closed pipe, which is
        // not a crash: try the next one. Only a process that never answered
        // (a fresh one) can crash on this request.
        loop {
            let mut idle = self.idle().pop();
            if idle.as_mut().is_some_and(Process::is_spent) {
                idle = None;
            }
            let mut process = match idle.map_or_else(|| Process::start(&self.command), Ok) {
                Ok(process) => process,
                Err(e) => return Outcome::Crashed(e),
            };
            let answered_before = process.answered;
            let timeout = self.command.timeout;
            return match process.exchange(&request, timeout) {
                Line::Text(bytes) => match read_answer(&bytes, &id, input) {
                    Ok(outcome) => {
                        self.idle().push(process);
                        outcome
                    }
                    Err(why) => Outcome::Broken(format!("{why}{}", process.stderr_tail(false))),
                },
                Line::TooLong => Outcome::Broken(format!(
                    "the answer is longer than {}; the process was killed{}",
                    too_long(),
                    process.stderr_tail(false)
                )),
                Line::Flooded(why) => Outcome::Broken(format!(
                    "it flooded its output: {why} (standard output holds one answer line per request; logging goes to standard error); the process was killed{}",
                    process.stderr_tail(false)
                )),
                Line::TimedOut => Outcome::TimedOut(format!(
                    "no answer within {timeout:?}; the process was killed{}",
                    process.stderr_tail(false)
                )),
                Line::Closed => {
                    // It can answer no more: it gets a moment to exit, then
                    // its group is killed.
                    let status = process.finish(timeout.min(EXIT_GRACE));
                    if answered_before > 0 && status.is_some_and(|s| s.success()) {
                        continue;
                    }
                    let how = match status {
                        Some(status) => format!("it exited ({status}) without answering"),
                        None => "it closed its output without answering, and was killed".into(),
                    };
                    Outcome::Crashed(format!("{how}{}", process.stderr_tail(true)))
                }
            };
        }
    }
}

/// The cap of an answer line, as messages name it.
fn too_long() -> String {
    format!(
        "{} bytes, the most the runner reads of one line (an answer is one line of JSON)",
        terminal::thousands(MAX_ANSWER_BYTES)
    )
}

/// Checks an answer line: UTF-8, JSON without a member named twice, the
/// request's id, and a well-formed answer for the kind.
fn read_answer(bytes: &[u8], id: &str, input: &CaseInput) -> Result<Outcome, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "the answer is not UTF-8 (invalid byte at {})",
            e.valid_up_to()
        )
    })?;
    let answer: Json = serde_json::from_str(text).map_err(|e| {
        let shown: String = text.chars().take(200).collect();
        format!("the answer is not JSON ({e}): {shown}")
    })?;
    if let Some(duplicate) = hcl_conformance_format::envelope::duplicate_member(text) {
        return Err(format!("malformed answer: {duplicate}"));
    }
    match answer.get("id").and_then(Json::as_str) {
        Some(answered) if answered == id => {}
        Some(other) => return Err(format!("the answer is to request {other:?}, not to {id:?}")),
        None => return Err(format!("the answer has no string `id` (expected {id:?})")),
    }
    outcome_from_answer(&answer, input.kind()).map_err(|e| format!("malformed answer: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader of `bytes` that counts how much was read of it.
    struct Counted<'a>(&'a [u8], Arc<AtomicU64>);

    impl Read for Counted<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.read(buffer)?;
            self.1.fetch_add(n as u64, Ordering::Relaxed);
            Ok(n)
        }
    }

    /// Reads `bytes` as a process's output after `asked` requests; what
    /// was held, why the reader stopped, and how much it read.
    fn read(bytes: &[u8], asked: u64) -> (Vec<Vec<u8>>, End, u64) {
        let output = Output::default();
        (0..asked).for_each(|_| output.ask());
        let count = Arc::new(AtomicU64::new(0));
        let end = read_output(Counted(bytes, Arc::clone(&count)), &output);
        let lines = output.state().lines.drain(..).collect();
        (lines, end, count.load(Ordering::Relaxed))
    }

    #[test]
    fn lines_are_held_in_order_and_a_last_one_without_newline_counts() {
        let (lines, end, _) = read(b"one\n\ntwo\nthree", 4);
        assert_eq!(lines, [&b"one"[..], b"", b"two", b"three"]);
        assert_eq!(end, End::Closed);
    }

    #[test]
    fn a_line_longer_than_the_cap_stops_the_reader_as_it_passes_the_cap() {
        let mut bytes = vec![b'a'; 10 * MAX_ANSWER_BYTES];
        bytes.push(b'\n');
        let (lines, end, read) = read(&bytes, 1);
        assert!(lines.is_empty());
        assert_eq!(end, End::TooLong);
        assert!(
            read as usize <= MAX_ANSWER_BYTES + (64 << 10),
            "{read} bytes read"
        );
        // A line of exactly the cap is an answer.
        let mut bytes = vec![b'a'; MAX_ANSWER_BYTES];
        bytes.push(b'\n');
        assert_eq!(read_lines(&bytes, 1), (1, End::Closed));
    }

    fn read_lines(bytes: &[u8], asked: u64) -> (usize, End) {
        let (lines, end, _) = read(bytes, asked);
        (lines.len(), end)
    }

    #[test]
    fn lines_nobody_asked_for_are_allowed_up_to_the_allowance() {
        let lines = |n: u64| b"x\n".repeat(n as usize);
        let allowed = 2 + MAX_UNASKED_LINES;
        assert_eq!(
            read_lines(&lines(allowed), 2),
            (allowed as usize, End::Closed)
        );
        let (held, end) = read_lines(&lines(allowed + 1000), 2);
        assert_eq!(held, allowed as usize);
        assert!(
            matches!(&end, End::Flooded(why) if why.contains(&format!("more than {MAX_UNASKED_LINES} lines that no request asked for"))),
            "{end:?}"
        );
    }

    #[test]
    fn output_held_beyond_the_cap_is_a_flood() {
        // Lines within the cap, and within the allowance, that nobody
        // takes.
        let line = [vec![b'a'; MAX_ANSWER_BYTES / 2], b"\n".to_vec()].concat();
        let (held, end) = read_lines(&line.repeat(10), 10);
        assert_eq!(held, MAX_BUFFERED_BYTES / (MAX_ANSWER_BYTES / 2));
        assert!(
            matches!(&end, End::Flooded(why) if why.contains("bytes of output that no case has taken")),
            "{end:?}"
        );
    }

    #[test]
    fn lines_are_taken_in_order_then_why_the_reader_stopped() {
        let output = Output::default();
        assert!(matches!(
            output.take(Duration::from_millis(10)),
            Line::TimedOut
        ));
        output.ask();
        output.push(b"answer".to_vec()).unwrap();
        output.finish(End::Flooded("why".into()));
        assert!(output.overflowed());
        assert!(matches!(output.take(Duration::ZERO), Line::Text(t) if t == b"answer"));
        assert!(matches!(output.take(Duration::ZERO), Line::Flooded(w) if w == "why"));
        assert_eq!(output.state().held, 0);
        // A time limit too large to be an instant waits without one.
        let output = Arc::new(Output::default());
        let reader = Arc::clone(&output);
        std::thread::spawn(move || reader.finish(End::Closed));
        assert!(matches!(output.take(Duration::MAX), Line::Closed));
    }
}
