//! Untrusted documents are read in a child process (issue 27): every file
//! a server uploads (`/rules add`) or an operator imports (`arbiter
//! import`, `arbiter rules add`) is converted, parsed and previewed by the
//! same binary run as `arbiter __convert-document`, which gets the bytes on
//! stdin and writes its answer on stdout, under limits set before it reads
//! anything:
//!
//! - its heap: a budget its own allocator keeps ([`crate::heap::limit`]),
//!   past which it exits at once; on Unix an address-space limit behind it;
//! - processor time (`RLIMIT_CPU`), a wall-clock time after which the
//!   parent kills it, the stack of the thread that converts, and the bytes
//!   of its answer the parent reads;
//! - no core dumps, no files written, a lower priority than the server's
//!   threads, and on Linux death with its parent; an empty environment (no
//!   token or database URL reaches it).
//!
//! A child that crashes, aborts, is killed or passes a limit becomes one
//! [`SandboxError`] naming the limit; the server's threads and workers are
//! never touched, and nothing is stored. There is no in-process fallback:
//! a child that cannot start is an error.

mod child;
mod parent;

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

pub use child::child_main;
pub use parent::{Sandboxed, convert, convert_blocking};

use crate::corpus::DocumentKind;
use crate::corpus::import::ImportError;

/// The hidden subcommand that runs a conversion in a child process.
pub const CHILD_COMMAND: &str = "__convert-document";

/// What a conversion may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Heap bytes the child may hold at once.
    pub memory: usize,
    /// Processor time.
    pub cpu: Duration,
    /// Time from start to answer, after which the child is killed.
    pub wall: Duration,
    /// Stack of the thread that converts.
    pub stack: usize,
    /// Bytes of answer read at most.
    pub output: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory: 512 * MB,
            cpu: Duration::from_secs(10),
            wall: Duration::from_secs(20),
            stack: 64 * MB,
            output: 64 * MB,
        }
    }
}

const MB: usize = 1024 * 1024;

/// Why a conversion gave no document.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SandboxError {
    /// The child read the file and refused it (its own words).
    #[error("{0}")]
    Refused(ImportError),
    #[error(
        "{file}: this {what} needs more than {} MB of memory to convert; split it into smaller files or export it as text",
        limit / MB
    )]
    Memory {
        file: String,
        what: &'static str,
        limit: usize,
    },
    #[error(
        "{file}: this {what} needs more than {} s of processor time to convert; split it into smaller files or export it as text",
        limit.as_secs()
    )]
    Cpu {
        file: String,
        what: &'static str,
        limit: Duration,
    },
    #[error(
        "{file}: converting this {what} took longer than {} s and was stopped; split it into smaller files or export it as text",
        limit.as_secs()
    )]
    Wall {
        file: String,
        what: &'static str,
        limit: Duration,
    },
    #[error(
        "{file}: this {what} converts to more than {} MB; split it into smaller files or export it as text",
        limit / MB
    )]
    Output {
        file: String,
        what: &'static str,
        limit: usize,
    },
    #[error(
        "{file}: the converter stopped on this {what} ({how}): it nests too deeply or is malformed. Export it as text or Markdown and send that (error id {id})"
    )]
    Crashed {
        file: String,
        what: &'static str,
        how: String,
        id: String,
    },
    /// The child could not be started or answered in no known form (ours to fix).
    #[error("the document converter failed: {0}")]
    Internal(String),
}

impl SandboxError {
    /// Whether the fault is the server's, not the file's.
    pub fn is_internal(&self) -> bool {
        matches!(self, SandboxError::Internal(_))
    }
}

static PROGRAM: OnceLock<PathBuf> = OnceLock::new();

/// Runs conversions with this program (the `arbiter` binary) instead of
/// the current executable: for tests, whose executable is the test
/// harness. The first call wins.
pub fn use_program(path: impl Into<PathBuf>) {
    let _ = PROGRAM.set(path.into());
}

fn program() -> Result<PathBuf, SandboxError> {
    match PROGRAM.get() {
        Some(p) => Ok(p.clone()),
        None => std::env::current_exe()
            .map_err(|e| SandboxError::Internal(format!("cannot find the arbiter binary: {e}"))),
    }
}

/// The limits this platform applies to a conversion, and those it cannot,
/// for the log at start-up.
pub fn describe(limits: &Limits) -> (String, Option<&'static str>) {
    let applied = format!(
        "document conversion in a child process: heap {} MB, processor {} s, wall {} s, stack {} MB, answer {} MB",
        limits.memory / MB,
        limits.cpu.as_secs(),
        limits.wall.as_secs(),
        limits.stack / MB,
        limits.output / MB
    );
    let missing = if cfg!(target_os = "linux") {
        None
    } else if cfg!(unix) {
        Some(
            "this OS does not kill the converter when the server dies (PR_SET_PDEATHSIG is Linux only)",
        )
    } else {
        Some(
            "this OS applies no processor-time, address-space or priority limit to the converter; only its heap budget, stack and the wall-clock kill hold",
        )
    };
    (applied, missing)
}

/// A word for the kind of file, for messages ("PDF", "HTML page", "slang
/// list"): a card or slang list by its kind (a `.csv` may be either),
/// another document by its format.
fn what(file_name: &str, kind: DocumentKind, bytes: &[u8]) -> &'static str {
    let lower = file_name.to_lowercase();
    match kind {
        DocumentKind::Cards => "card list",
        DocumentKind::Slang => "slang list",
        _ if bytes.starts_with(b"%PDF") || lower.ends_with(".pdf") => "PDF",
        _ if lower.ends_with(".html") || lower.ends_with(".htm") => "HTML page",
        _ => "document",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_csv_is_named_by_its_kind() {
        assert_eq!(what("talk.csv", DocumentKind::Slang, b"a,b"), "slang list");
        assert_eq!(what("cards.csv", DocumentKind::Cards, b"a,b"), "card list");
        assert_eq!(
            what("cards.yaml", DocumentKind::Cards, b"a: b"),
            "card list"
        );
        assert_eq!(what("notes.csv", DocumentKind::House, b"a,b"), "document");
        assert_eq!(what("rules.pdf", DocumentKind::Rules, b"%PDF-1.4"), "PDF");
        assert_eq!(what("faq.html", DocumentKind::Faq, b"<p>"), "HTML page");
    }
}
