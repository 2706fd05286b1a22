//! Running an implementation as a subprocess that speaks the protocol
//! (`runner/PROTOCOL.md`).
//!
//! A [`Pool`] keeps idle processes for reuse; a case takes one, or starts a
//! new one, and gives it back only when the exchange went cleanly. A process
//! that crashed, hung, or answered garbage is killed, so one misbehaving case
//! costs only itself; the next case starts a fresh process.

use crate::outcome::Outcome;
use crate::suite::Input;
use crate::wire;
use serde_json::{json, Value as Json};
use std::collections::{BTreeSet, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// An answer longer than this is refused and its process killed.
pub const MAX_ANSWER_BYTES: usize = 64 << 20;
/// The least time the `hello` handshake gets, start-up included.
const HELLO_TIMEOUT: Duration = Duration::from_secs(30);
/// How much of an implementation's standard error is kept, from the end.
const STDERR_TAIL_BYTES: usize = 4096;

/// How to start the implementation, and how long a case may take.
#[derive(Clone, Debug)]
pub struct ImplementationCommand {
    pub program: String,
    pub args: Vec<String>,
    pub timeout: Duration,
}

/// What the implementation said of itself in its `hello` answer.
#[derive(Clone, Debug, Default)]
pub struct Capabilities {
    pub name: String,
    pub version: String,
    pub kinds: BTreeSet<String>,
    pub features: BTreeSet<String>,
}

/// One line read from the implementation's standard output.
enum Line {
    Text(Vec<u8>),
    TooLong,
    Closed,
}

/// A running implementation.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Set when standard error has been read to its end.
    stderr_done: Arc<std::sync::atomic::AtomicBool>,
    /// How many requests it has answered.
    answered: u64,
}

impl Process {
    fn start(command: &ImplementationCommand) -> Result<Process, String> {
        let mut child = Command::new(&command.program)
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", command.program))?;
        let stdin = child.stdin.take().ok_or("no standard input")?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        let stderr = child.stderr.take().ok_or("no standard error")?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || read_lines(stdout, sender));
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail_writer = Arc::clone(&tail);
        let stderr_done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let done_writer = Arc::clone(&stderr_done);
        std::thread::spawn(move || {
            keep_tail(stderr, tail_writer);
            done_writer.store(true, Ordering::Release);
        });
        Ok(Process {
            child,
            stdin,
            lines,
            stderr: tail,
            stderr_done,
            answered: 0,
        })
    }

    fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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
        if self
            .stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.flush())
            .is_err()
        {
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
        let mut process = Process::start(&command)?;
        let hello = json!({ "id": "0", "kind": "hello", "protocol": wire::PROTOCOL_VERSION });
        // Starting up may take longer than a case: the handshake gets at
        // least HELLO_TIMEOUT.
        let hello_timeout = command.timeout.max(HELLO_TIMEOUT);
        let answer = match process.exchange(&hello, hello_timeout) {
            Exchange::Answer(bytes) => bytes,
            Exchange::TooLong => return Err("its answer to `hello` is too long".into()),
            Exchange::Closed => {
                let _ = process.child.wait();
                let tail = process.stderr_tail(true);
                return Err(format!("it exited without answering `hello`{tail}"));
            }
            Exchange::TimedOut => {
                return Err(format!(
                    "it did not answer `hello` within {:?}",
                    command.timeout
                ))
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
                    process.kill();
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
                            process.kill();
                            return Outcome::Broken(why);
                        }
                    }
                }
                Exchange::TooLong => {
                    process.kill();
                    return Outcome::Broken(format!(
                        "an answer longer than {MAX_ANSWER_BYTES} bytes"
                    ));
                }
                Exchange::TimedOut => {
                    let tail = process.stderr_tail(false);
                    process.kill();
                    return Outcome::TimedOut(format!(
                        "no answer within {:?}; the process was killed{tail}",
                        self.command.timeout
                    ));
                }
                Exchange::Closed => {
                    let status = process.child.wait().ok();
                    let tail = process.stderr_tail(true);
                    let exited_cleanly = status.is_some_and(|s| s.success());
                    if answered_before > 0 && exited_cleanly {
                        continue;
                    }
                    let how = match status {
                        Some(status) => format!("it exited ({status}) without answering"),
                        None => "it closed its output without answering".to_string(),
                    };
                    return Outcome::Crashed(format!("{how}{tail}"));
                }
            }
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        for process in self
            .idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
        {
            process.kill();
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
