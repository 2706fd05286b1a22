//! Running an implementation as a subprocess that speaks the protocol
//! (`runner/PROTOCOL.md`).
//!
//! A [`Pool`] keeps idle processes for reuse; a case takes one, or starts a
//! new one, and gives it back only when the exchange went cleanly. A process
//! that crashed, hung, or answered garbage is killed, so one misbehaving case
//! costs only itself; the next case starts a fresh process.
//!
//! Every process leads a process group of its own, and killing it kills the
//! whole group, so that what it started (a wrapper script's interpreter, a
//! helper in the background) goes with it. The groups still running are
//! registered, so that [`stop_all`] can end them on any way out of the
//! runner.

use crate::suite::CaseInput;
use crate::wire::PROTOCOL_VERSION;
use crate::wire::{outcome_from_answer, Capabilities, Hello, HelloAnswer, Outcome, RequestLine};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use serde_json::Value as Json;
use std::collections::{BTreeSet, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// An answer longer than this is refused and its process killed.
pub const MAX_ANSWER_BYTES: usize = 64 << 20;
/// The least time the `hello` handshake gets, start-up included.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a process that closed its output gets to exit by itself (at
/// most: never longer than the case's time limit) before it is killed.
pub const EXIT_GRACE: Duration = Duration::from_secs(1);
/// How much of an implementation's standard error is kept, from the end.
const STDERR_TAIL_BYTES: usize = 4096;

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
/// - A closed standard output (`hcl-conformance list | head`) stops every
///   implementation and ends the runner quietly, as SIGPIPE ends other
///   commands (status 141 in a shell), instead of a panic.
/// - Any other panic of the main thread stops every implementation before
///   the panic is reported. (A panic inside one case is that case's
///   failure, and stops nothing.)
pub fn stop_on_every_way_out() {
    use signal_hook::consts::{SIGINT, SIGPIPE, SIGTERM};
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
        let payload = info.payload();
        let text = payload.downcast_ref::<String>().map(String::as_str);
        let text = text
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        // How std's printing and an unwrapped write to a closed pipe panic.
        if text.contains("Broken pipe") || text.contains("BrokenPipe") {
            stop_all();
            let _ = emulate_default_handler(SIGPIPE);
            std::process::exit(141);
        }
        if std::thread::current().name() == Some("main") {
            stop_all();
        }
        report(info);
    }));
}

/// One line read from the implementation's standard output, or none in
/// time (`TimedOut`, which the reader never sends).
enum Line {
    Text(Vec<u8>),
    TooLong,
    Closed,
    TimedOut,
}

/// A running implementation: the leader of its own process group. Dropping
/// it kills the group.
struct Process {
    child: Child,
    /// Requests, for the thread that writes them to its standard input (a
    /// process that does not read must not block the runner).
    requests: Sender<Vec<u8>>,
    lines: Receiver<Line>,
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
        running.0.insert(child.id() as i32);
        drop(running);
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
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || read_lines(stdout, sender));
        let tail = Arc::new((Mutex::new(VecDeque::new()), AtomicBool::new(false)));
        let writer = Arc::clone(&tail);
        std::thread::spawn(move || keep_tail(stderr, &writer));
        Ok(Process {
            child,
            requests,
            lines,
            stderr: tail,
            answered: 0,
            stopped: false,
        })
    }

    fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
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
        if !self.stopped {
            self.stopped = true;
            let group = self.child.id() as i32;
            kill_group(group);
            running().0.remove(&group);
        }
        self.child.wait().ok()
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
        if self.requests.send(line.into_bytes()).is_err() {
            // The writer stopped: the process closed its input.
            return Line::Closed;
        }
        match self.lines.recv_timeout(timeout) {
            Ok(Line::Text(bytes)) => {
                self.answered += 1;
                Line::Text(bytes)
            }
            Ok(line) => line,
            Err(RecvTimeoutError::Disconnected) => Line::Closed,
            Err(RecvTimeoutError::Timeout) => Line::TimedOut,
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Reads lines, refusing one longer than [`MAX_ANSWER_BYTES`].
fn read_lines(stdout: impl Read, sender: Sender<Line>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        let limit = MAX_ANSWER_BYTES as u64 + 1;
        let read = (&mut reader).take(limit).read_until(b'\n', &mut line);
        let line = match read {
            Ok(0) | Err(_) => Line::Closed,
            _ if line.last() == Some(&b'\n') => {
                line.pop();
                Line::Text(line)
            }
            _ if line.len() > MAX_ANSWER_BYTES => {
                let _ = sender.send(Line::TooLong);
                // Drain the rest so that the process is not blocked writing.
                let _ = std::io::copy(&mut reader, &mut std::io::sink());
                return;
            }
            // The end of the output: a last line without its newline counts.
            _ => Line::Text(line),
        };
        let closed = matches!(line, Line::Closed);
        if sender.send(line).is_err() || closed {
            return;
        }
    }
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
            Line::TooLong => return Err("its answer to `hello` is too long".into()),
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
        let shown = String::from_utf8_lossy(&answer);
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
            if idle.as_mut().is_some_and(Process::has_exited) {
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
                Line::TooLong => {
                    Outcome::Broken(format!("an answer longer than {MAX_ANSWER_BYTES} bytes"))
                }
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
    if let Some(duplicate) = crate::envelope::duplicate_member(text) {
        return Err(format!("malformed answer: {duplicate}"));
    }
    match answer.get("id").and_then(Json::as_str) {
        Some(answered) if answered == id => {}
        Some(other) => return Err(format!("the answer is to request {other:?}, not to {id:?}")),
        None => return Err(format!("the answer has no string `id` (expected {id:?})")),
    }
    outcome_from_answer(&answer, input.kind()).map_err(|e| format!("malformed answer: {e}"))
}
