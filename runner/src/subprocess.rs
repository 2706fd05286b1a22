//! Running an implementation as a subprocess that speaks the protocol
//! (`runner/PROTOCOL.md`).
//!
//! A [`Pool`] keeps idle processes for reuse; a case takes one, or starts a
//! new one, and gives it back only when the exchange went cleanly. A process
//! that crashed, hung, or answered garbage is killed, so one misbehaving case
//! costs only itself; the next case starts a fresh process.
//!
//! Every process is started in a process group of its own, and killing it
//! kills the whole group, so that what it started (a wrapper script's
//! interpreter, a helper in the background) goes with it. The groups still
//! running are registered, so that [`stop_all`] can end them on any way out
//! of the runner.

use crate::outcome::Outcome;
use crate::suite::Input;
use crate::wire;
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use serde_json::{json, Value as Json};
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
        ImplementationCommand {
            program,
            args,
            timeout,
            hello_timeout: timeout.max(HELLO_TIMEOUT),
        }
    }
}

/// What the implementation said of itself in its `hello` answer.
#[derive(Clone, Debug, Default)]
pub struct Capabilities {
    pub name: String,
    pub version: String,
    pub kinds: BTreeSet<String>,
    pub features: BTreeSet<String>,
}

/// The process groups started and not yet killed; once `stopping`, no new
/// process starts.
struct Running {
    groups: BTreeSet<i32>,
    stopping: bool,
}

static RUNNING: Mutex<Running> = Mutex::new(Running {
    groups: BTreeSet::new(),
    stopping: false,
});

fn running() -> MutexGuard<'static, Running> {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Kills every implementation process still running, with everything each
/// started, and lets no new one start: for the runner's way out on a
/// signal, a panic or a closed standard output, where the pools are not
/// dropped.
pub fn stop_all() {
    let mut running = running();
    running.stopping = true;
    for group in std::mem::take(&mut running.groups) {
        kill_group(group);
    }
}

/// Kills a process group. It is killed before its leader is reaped where
/// the leader is still running, so the group id cannot have been reused;
/// after a leader exited by itself the group may be empty, and then there
/// is nothing to kill.
fn kill_group(group: i32) {
    let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
}

/// One line read from the implementation's standard output.
enum Line {
    Text(Vec<u8>),
    TooLong,
    Closed,
}

/// A running implementation: the leader of its own process group. Dropping
/// it kills the group.
struct Process {
    child: Child,
    /// The process group: the child's id.
    group: i32,
    /// Requests, for the thread that writes them to its standard input (a
    /// process that does not read must not block the runner).
    requests: Sender<Vec<u8>>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Set when standard error has been read to its end.
    stderr_done: Arc<AtomicBool>,
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
        if running.stopping {
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
        running.groups.insert(group);
        drop(running);
        let mut stdin = child.stdin.take().ok_or("no standard input")?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        let stderr = child.stderr.take().ok_or("no standard error")?;
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
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail_writer = Arc::clone(&tail);
        let stderr_done = Arc::new(AtomicBool::new(false));
        let done_writer = Arc::clone(&stderr_done);
        std::thread::spawn(move || {
            keep_tail(stderr, tail_writer);
            done_writer.store(true, Ordering::Release);
        });
        Ok(Process {
            child,
            group,
            requests,
            lines,
            stderr: tail,
            stderr_done,
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
        let exited = loop {
            if self.has_exited() {
                break true;
            }
            if Instant::now() >= deadline {
                break false;
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let status = self.stop();
        status.filter(|_| exited)
    }

    /// Kills the process group and reaps the child; once.
    fn stop(&mut self) -> Option<ExitStatus> {
        if !self.stopped {
            self.stopped = true;
            kill_group(self.group);
            running().groups.remove(&self.group);
        }
        self.child.wait().ok()
    }

    /// The end of standard error; after an exit, once the reader has drained
    /// what was written (waiting half a second at most).
    fn stderr_tail(&self, exited: bool) -> String {
        if exited {
            for _ in 0..100 {
                if self.stderr_done.load(Ordering::Acquire) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        let bytes: Vec<u8> = tail.iter().copied().collect();
        let text = String::from_utf8_lossy(&bytes).trim().to_string();
        if text.is_empty() {
            String::new()
        } else {
            format!("\n--- the implementation's standard error (end) ---\n{text}")
        }
    }

    /// Sends a request and waits for its answer line.
    fn exchange(&mut self, request: &Json, timeout: Duration) -> Exchange {
        let mut line = request.to_string();
        line.push('\n');
        if self.requests.send(line.into_bytes()).is_err() {
            // The writer stopped: the process closed its input.
            return Exchange::Closed;
        }
        match self.lines.recv_timeout(timeout) {
            Ok(Line::Text(bytes)) => {
                self.answered += 1;
                Exchange::Answer(bytes)
            }
            Ok(Line::TooLong) => Exchange::TooLong,
            Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => Exchange::Closed,
            Err(RecvTimeoutError::Timeout) => Exchange::TimedOut,
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

enum Exchange {
    Answer(Vec<u8>),
    TooLong,
    Closed,
    TimedOut,
}

/// Reads lines, refusing one longer than [`MAX_ANSWER_BYTES`].
fn read_lines(stdout: impl Read, sender: mpsc::Sender<Line>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        loop {
            let buffer = match reader.fill_buf() {
                Ok(buffer) => buffer,
                Err(_) => {
                    let _ = sender.send(Line::Closed);
                    return;
                }
            };
            if buffer.is_empty() {
                // End of output: a last line without its newline still counts.
                if !line.is_empty() {
                    let _ = sender.send(Line::Text(line));
                }
                let _ = sender.send(Line::Closed);
                return;
            }
            let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => (&buffer[..at], Some(at + 1)),
                None => (buffer, None),
            };
            if line.len() + chunk.len() > MAX_ANSWER_BYTES {
                let _ = sender.send(Line::TooLong);
                // Drain the rest so the process is not blocked writing.
                let _ = std::io::copy(&mut reader, &mut std::io::sink());
                return;
            }
            line.extend_from_slice(chunk);
            match done {
                Some(consumed) => {
                    reader.consume(consumed);
                    break;
                }
                None => {
                    let consumed = chunk.len();
                    reader.consume(consumed);
                }
            }
        }
        if sender.send(Line::Text(line)).is_err() {
            return;
        }
    }
}

fn keep_tail(stderr: impl Read, tail: Arc<Mutex<VecDeque<u8>>>) {
    let mut reader = BufReader::new(stderr);
    let mut buffer = [0u8; 4096];
    while let Ok(n) = reader.read(&mut buffer) {
        if n == 0 {
            return;
        }
        let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
        tail.extend(&buffer[..n]);
        while tail.len() > STDERR_TAIL_BYTES {
            tail.pop_front();
        }
    }
}

/// The implementation behind the protocol: idle processes, its
/// capabilities, and the request counter.
pub struct Pool {
    command: ImplementationCommand,
    idle: Mutex<Vec<Process>>,
    capabilities: Capabilities,
    next_id: AtomicU64,
}

impl Pool {
    /// Starts the implementation and asks for its capabilities.
    pub fn start(command: ImplementationCommand) -> Result<Pool, String> {
        // On every error the process is dropped, which kills its group.
        let mut process = Process::start(&command)?;
        let hello = json!({ "id": "0", "kind": "hello", "protocol": wire::PROTOCOL_VERSION });
        let answer = match process.exchange(&hello, command.hello_timeout) {
            Exchange::Answer(bytes) => bytes,
            Exchange::TooLong => return Err("its answer to `hello` is too long".into()),
            Exchange::Closed => {
                let how = match process.finish(command.hello_timeout.min(EXIT_GRACE)) {
                    Some(status) => format!("it exited ({status}) without answering `hello`"),
                    None => {
                        "it closed its output without answering `hello`, and was killed".to_string()
                    }
                };
                let tail = process.stderr_tail(true);
                return Err(format!("{how}{tail}"));
            }
            Exchange::TimedOut => {
                let tail = process.stderr_tail(false);
                return Err(format!(
                    "it did not answer `hello` within {:?}, the handshake's time limit, \
                     and was killed{tail}",
                    command.hello_timeout
                ));
            }
        };
        let answer: Json = serde_json::from_slice(&answer)
            .map_err(|e| format!("its answer to `hello` is not JSON: {e}"))?;
        let capabilities = capabilities_from_hello(&answer)?;
        let pool = Pool {
            command,
            idle: Mutex::new(Vec::new()),
            capabilities,
            next_id: AtomicU64::new(1),
        };
        pool.give_back(process);
        Ok(pool)
    }

    pub fn capabilities(&self) -> &Capabilities {
        &self.capabilities
    }

    fn take(&self) -> Result<Process, String> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match idle {
            Some(mut process) => {
                if process.has_exited() {
                    drop(process);
                    Process::start(&self.command)
                } else {
                    Ok(process)
                }
            }
            None => Process::start(&self.command),
        }
    }

    fn give_back(&self, process: Process) {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(process);
    }

    /// Runs one case's input through the implementation.
    pub fn run(&self, input: &Input) -> Outcome {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed).to_string();
        let request = wire::request(&id, input);
        // A one-shot implementation exits after each answer; an idle process
        // caught between answering and exiting has a closed pipe, which is
        // not a crash: try the next one. Only a process that never answered
        // (a fresh one) can crash on this request.
        loop {
            let mut process = match self.take() {
                Ok(process) => process,
                Err(e) => return Outcome::Crashed(e),
            };
            let answered_before = process.answered;
            match process.exchange(&request, self.command.timeout) {
                Exchange::Answer(bytes) => {
                    let outcome = read_answer(&bytes, &id, input.kind());
                    match outcome {
                        Ok(outcome) => {
                            self.give_back(process);
                            return outcome;
                        }
                        Err(why) => {
                            let why = format!("{why}{}", process.stderr_tail(false));
                            return Outcome::Broken(why);
                        }
                    }
                }
                Exchange::TooLong => {
                    return Outcome::Broken(format!(
                        "an answer longer than {MAX_ANSWER_BYTES} bytes"
                    ));
                }
                Exchange::TimedOut => {
                    let tail = process.stderr_tail(false);
                    return Outcome::TimedOut(format!(
                        "no answer within {:?}; the process was killed{tail}",
                        self.command.timeout
                    ));
                }
                Exchange::Closed => {
                    // It can answer no more: it gets a moment to exit, then
                    // its group is killed.
                    let status = process.finish(self.command.timeout.min(EXIT_GRACE));
                    let tail = process.stderr_tail(true);
                    let exited_cleanly = status.is_some_and(|s| s.success());
                    if answered_before > 0 && exited_cleanly {
                        continue;
                    }
                    let how = match status {
                        Some(status) => format!("it exited ({status}) without answering"),
                        None => {
                            "it closed its output without answering, and was killed".to_string()
                        }
                    };
                    return Outcome::Crashed(format!("{how}{tail}"));
                }
            }
        }
    }
}

/// Checks an answer line: UTF-8, JSON, the request's id, and a well-formed
/// answer for the kind.
fn read_answer(bytes: &[u8], id: &str, kind: &str) -> Result<Outcome, String> {
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
    match answer.get("id").and_then(Json::as_str) {
        Some(answered) if answered == id => {}
        Some(other) => return Err(format!("the answer is to request {other:?}, not to {id:?}")),
        None => return Err(format!("the answer has no string `id` (expected {id:?})")),
    }
    wire::outcome_from_answer(&answer, kind).map_err(|e| format!("malformed answer: {e}"))
}

fn capabilities_from_hello(answer: &Json) -> Result<Capabilities, String> {
    let strings = |field: &str| -> BTreeSet<String> {
        answer
            .get("capabilities")
            .and_then(|c| c.get(field))
            .and_then(Json::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(Json::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    let capabilities = Capabilities {
        name: answer
            .get("name")
            .and_then(Json::as_str)
            .unwrap_or("unnamed")
            .to_string(),
        version: answer
            .get("version")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string(),
        kinds: strings("kinds"),
        features: strings("features"),
    };
    if capabilities.kinds.is_empty() {
        return Err(format!(
            "its `hello` answer lists no kinds under capabilities.kinds: {answer}"
        ));
    }
    Ok(capabilities)
}
