//! The parent side: starts the child under its limits, feeds it the file,
//! reads its answer, and turns every way it can end into a result.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::corpus::import::{Converted, Target};

use super::child::{Answer, EXIT_PANIC};
use super::{CHILD_COMMAND, Limits, SandboxError};

/// A converted document and the heap bytes its index will keep.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sandboxed {
    pub converted: Converted,
    pub index_bytes: usize,
}

/// How the child ended, as the parent saw it.
struct Ended {
    status: ExitStatus,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    killed_at_deadline: bool,
    overflowed: bool,
}

/// [`convert_blocking`] on tokio's blocking threads (not the CPU pool: the
/// work is the child's, and this thread only waits for it).
pub async fn convert(
    target: Target,
    bytes: Vec<u8>,
    limits: Limits,
) -> Result<Sandboxed, SandboxError> {
    tokio::task::spawn_blocking(move || convert_blocking(&target, &bytes, &limits))
        .await
        .map_err(|e| SandboxError::Internal(format!("the waiting thread failed: {e}")))?
}

/// Converts `bytes` for `target` in a child process under `limits`.
pub fn convert_blocking(
    target: &Target,
    bytes: &[u8],
    limits: &Limits,
) -> Result<Sandboxed, SandboxError> {
    let mut child = spawn(limits)?;
    let ended = supervise(&mut child, target, bytes, limits)?;
    verdict(target, bytes, limits, ended)
}

fn spawn(limits: &Limits) -> Result<Child, SandboxError> {
    let mut cmd = Command::new(super::program()?);
    cmd.arg(CHILD_COMMAND)
        .arg("--heap")
        .arg(limits.memory.to_string())
        .arg("--stack")
        .arg(limits.stack.to_string())
        .env_clear()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let rlimits = os::RLimits::of(limits);
        // SAFETY: the closure only makes system calls (setrlimit,
        // setpriority, prctl), which are async-signal-safe.
        unsafe {
            cmd.pre_exec(move || rlimits.apply());
        }
    }
    cmd.spawn()
        .map_err(|e| SandboxError::Internal(format!("cannot start the converter: {e}")))
}

/// Feeds the child, reads it, and waits for it until the deadline.
fn supervise(
    child: &mut Child,
    target: &Target,
    bytes: &[u8],
    limits: &Limits,
) -> Result<Ended, SandboxError> {
    let internal =
        |what: &str| SandboxError::Internal(format!("the converter's {what} is missing"));
    let mut stdin = child.stdin.take().ok_or_else(|| internal("stdin"))?;
    let stdout = child.stdout.take().ok_or_else(|| internal("stdout"))?;
    let stderr = child.stderr.take().ok_or_else(|| internal("stderr"))?;
    let mut header =
        serde_json::to_vec(target).map_err(|e| SandboxError::Internal(e.to_string()))?;
    header.push(b'\n');
    let overflowed = AtomicBool::new(false);
    let deadline = Instant::now() + limits.wall;
    std::thread::scope(|s| {
        // A child that stops reading (it ended) breaks the pipe: no matter.
        s.spawn(move || {
            let _ = stdin
                .write_all(&header)
                .and_then(|()| stdin.write_all(bytes));
        });
        let out = s.spawn(|| read_capped(stdout, limits.output, Some(&overflowed)));
        let err = s.spawn(|| read_capped(stderr, 4096, None));
        let (status, killed_at_deadline) = wait_until(child, deadline, &overflowed)?;
        Ok(Ended {
            status,
            stdout: out.join().unwrap_or_default(),
            stderr: err.join().unwrap_or_default(),
            killed_at_deadline,
            overflowed: overflowed.load(Ordering::Relaxed),
        })
    })
}

/// Up to `cap` bytes of a pipe, the rest drained (so the child never
/// blocks on a full pipe); past `cap`, `overflow` is set.
fn read_capped(pipe: impl Read, cap: usize, overflow: Option<&AtomicBool>) -> Vec<u8> {
    let mut buf = Vec::new();
    let mut pipe = pipe;
    let _ = (&mut pipe).take(cap as u64 + 1).read_to_end(&mut buf);
    if buf.len() > cap {
        buf.truncate(cap);
        if let Some(flag) = overflow {
            flag.store(true, Ordering::Relaxed);
        }
    }
    let _ = std::io::copy(&mut pipe, &mut std::io::sink());
    buf
}

/// Waits for the child; kills it at the deadline or when its answer
/// overflows. Returns its status and whether the deadline killed it.
fn wait_until(
    child: &mut Child,
    deadline: Instant,
    overflowed: &AtomicBool,
) -> Result<(ExitStatus, bool), SandboxError> {
    let failed =
        |e: std::io::Error| SandboxError::Internal(format!("waiting for the converter: {e}"));
    loop {
        if let Some(status) = child.try_wait().map_err(failed)? {
            return Ok((status, false));
        }
        let late = Instant::now() >= deadline;
        if late || overflowed.load(Ordering::Relaxed) {
            let _ = child.kill();
            return Ok((child.wait().map_err(failed)?, late));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The result a child's end stands for.
fn verdict(
    target: &Target,
    bytes: &[u8],
    limits: &Limits,
    ended: Ended,
) -> Result<Sandboxed, SandboxError> {
    let file = target.file_name.clone();
    let what = super::what(&target.file_name, target.kind, bytes);
    if ended.killed_at_deadline {
        return Err(SandboxError::Wall {
            file,
            what,
            limit: limits.wall,
        });
    }
    if ended.overflowed {
        return Err(SandboxError::Output {
            file,
            what,
            limit: limits.output,
        });
    }
    match ended.status.code() {
        Some(0) => match serde_json::from_slice::<Answer>(&ended.stdout) {
            Ok(Answer::Converted(done)) => Ok(*done),
            Ok(Answer::Refused(e)) => Err(SandboxError::Refused(e)),
            Err(e) => Err(SandboxError::Internal(format!(
                "the converter's answer is unreadable: {e}"
            ))),
        },
        Some(crate::heap::EXIT_OVER_BUDGET) => Err(SandboxError::Memory {
            file,
            what,
            limit: limits.memory,
        }),
        _ => crashed(file, what, limits, &ended),
    }
}

/// A child that panicked, was killed by a signal, or exited oddly: one log
/// line with an error id, and the error the user sees.
fn crashed(
    file: String,
    what: &'static str,
    limits: &Limits,
    ended: &Ended,
) -> Result<Sandboxed, SandboxError> {
    let signal = os::signal(&ended.status);
    if signal == Some(os::SIGXCPU) {
        return Err(SandboxError::Cpu {
            file,
            what,
            limit: limits.cpu,
        });
    }
    let id = error_id();
    let said = String::from_utf8_lossy(&ended.stderr);
    let said = said
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    tracing::warn!(
        error_id = %id,
        file = %file,
        status = %ended.status,
        said,
        "document conversion failed in its child process"
    );
    let how = match (ended.status.code(), signal) {
        (Some(EXIT_PANIC), _) => "it hit a case it does not handle".to_string(),
        (_, Some(os::SIGSEGV | os::SIGABRT | os::SIGBUS)) => {
            "it ran out of stack or aborted".to_string()
        }
        (_, Some(n)) => format!("it was ended by signal {n}"),
        (Some(code), None) => format!("it exited with status {code}"),
        (None, None) => "it ended abnormally".to_string(),
    };
    Err(SandboxError::Crashed {
        file,
        what,
        how,
        id,
    })
}

/// A short id to find a failure in the log.
fn error_id() -> String {
    use std::sync::atomic::AtomicU64;
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    format!(
        "cv-{:08x}",
        (nanos as u64 ^ n.wrapping_mul(0x9e37_79b9)) as u32
    )
}

#[cfg(unix)]
mod os {
    use std::os::unix::process::ExitStatusExt;
    use std::process::ExitStatus;

    pub use libc::{SIGABRT, SIGBUS, SIGSEGV, SIGXCPU};

    pub fn signal(status: &ExitStatus) -> Option<i32> {
        status.signal()
    }

    /// The limits as the system calls take them, computed before the fork.
    #[derive(Clone, Copy)]
    pub struct RLimits {
        cpu: libc::rlim_t,
        address_space: libc::rlim_t,
    }

    impl RLimits {
        pub fn of(l: &super::Limits) -> RLimits {
            RLimits {
                cpu: l.cpu.as_secs().max(1) as libc::rlim_t,
                // The heap budget is the limit that speaks; the address
                // space behind it leaves room for the binary, the stack and
                // the allocator's reservations.
                address_space: (l.memory + l.stack + 1024 * super::super::MB) as libc::rlim_t,
            }
        }

        /// In the child, between fork and exec.
        pub fn apply(&self) -> std::io::Result<()> {
            set(libc::RLIMIT_CPU, self.cpu, self.cpu + 1)?;
            set(libc::RLIMIT_AS, self.address_space, self.address_space)?;
            set(libc::RLIMIT_CORE, 0, 0)?;
            set(libc::RLIMIT_FSIZE, 0, 0)?;
            // SAFETY: plain system calls on this process.
            unsafe {
                libc::setpriority(libc::PRIO_PROCESS, 0, 10);
                #[cfg(target_os = "linux")]
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            }
            Ok(())
        }
    }

    fn set(
        resource: libc::__rlimit_resource_t,
        soft: libc::rlim_t,
        hard: libc::rlim_t,
    ) -> std::io::Result<()> {
        let lim = libc::rlimit {
            rlim_cur: soft,
            rlim_max: hard,
        };
        // SAFETY: a valid rlimit for this process.
        if unsafe { libc::setrlimit(resource, &lim) } == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
}

#[cfg(not(unix))]
mod os {
    pub const SIGXCPU: i32 = -1;
    pub const SIGSEGV: i32 = -2;
    pub const SIGABRT: i32 = -3;
    pub const SIGBUS: i32 = -4;

    pub fn signal(_: &std::process::ExitStatus) -> Option<i32> {
        None
    }
}
