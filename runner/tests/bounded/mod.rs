//! Running a process within bounds: an address-space cap, a time limit,
//! its own process group (killed whole at the end), and its peak resident
//! memory measured by the kernel. The hostile-input tests use it to check
//! that what they start ends in an answer or a named error, in time and in
//! memory, with nothing left running.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a process may use.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Its address space (`ulimit -v`), in bytes.
    pub address_space: u64,
    /// Its time, from start to exit.
    pub time: Duration,
}

impl Bounds {
    /// The bounds of the hostile-input attacks (issue 26): `ulimit -v
    /// 4194304` (4 GiB) and 10 seconds.
    pub const ATTACK: Bounds = Bounds {
        address_space: 4 << 30,
        time: Duration::from_secs(10),
    };
}

/// How a bounded process ended.
#[derive(Debug)]
pub struct Ended {
    /// Its exit code, `None` when a signal ended it.
    pub code: Option<i32>,
    /// Whether it ran out of time and was killed.
    pub timed_out: bool,
    /// Its peak resident memory, in bytes.
    pub peak_rss: u64,
    /// Its time from start to exit.
    pub elapsed: Duration,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Ended {
    /// Standard output, as text.
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Standard error, as text.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// A one-line account of how it ended, for assertion messages.
    pub fn account(&self) -> String {
        format!(
            "exit {:?}, timed out {}, {:.1} s, peak {} MiB; stderr: {}",
            self.code,
            self.timed_out,
            self.elapsed.as_secs_f64(),
            self.peak_rss >> 20,
            tail(&self.stderr(), 600)
        )
    }
}

/// The last `n` characters of `text`.
pub fn tail(text: &str, n: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    chars[chars.len().saturating_sub(n)..].iter().collect()
}

/// Runs `program` with `args` in a process group of its own, feeding it
/// `input` on standard input, within `bounds`; the group is killed when the
/// process exits or runs out of time, so nothing it started is left
/// running.
// The child is reaped with `wait4` (which gives its peak memory), not
// `Child::wait`.
#[allow(clippy::zombie_processes)]
pub fn run(program: &Path, args: &[&str], input: Vec<u8>, bounds: Bounds) -> Ended {
    let limit = bounds.address_space;
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(move || {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            let cap = libc::rlimit {
                rlim_cur: limit as libc::rlim_t,
                rlim_max: limit as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &cap) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let started = Instant::now();
    let mut child = command.spawn().expect("the bounded process starts");
    let pid = child.id() as libc::pid_t;
    let mut stdin = child.stdin.take().expect("a pipe");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("a pipe");
    let mut stderr = child.stderr.take().expect("a pipe");
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stderr.read_to_end(&mut bytes);
        bytes
    });
    let mut status: libc::c_int = 0;
    // SAFETY: a zeroed rusage is a valid value of that plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // SAFETY: plain system calls on our own child.
        let reaped = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            break;
        }
        if reaped < 0 {
            panic!("wait4: {}", std::io::Error::last_os_error());
        }
        if started.elapsed() > bounds.time {
            timed_out = true;
            // SAFETY: as above.
            unsafe {
                libc::killpg(pid, libc::SIGKILL);
                libc::wait4(pid, &mut status, 0, &mut usage);
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let elapsed = started.elapsed();
    // Whatever the process left in its group goes with it.
    // SAFETY: as above.
    unsafe {
        libc::killpg(pid, libc::SIGKILL);
    }
    let _ = writer.join();
    let stdout = out.join().expect("the reader");
    let stderr = err.join().expect("the reader");
    let code = if libc::WIFEXITED(status) {
        Some(libc::WEXITSTATUS(status))
    } else {
        None
    };
    Ended {
        code,
        timed_out,
        peak_rss: usage.ru_maxrss as u64 * 1024,
        elapsed,
        stdout,
        stderr,
    }
}
