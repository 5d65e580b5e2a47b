//! How many heap bytes a piece of work keeps: the global allocator counts,
//! per thread, the bytes allocated less the bytes freed (requested sizes,
//! not the allocator's pages). [`retained`] runs a build on the calling
//! thread and returns what it left allocated, which is the real size of a
//! structure built there from borrowed input (a rule-set index:
//! `app::rulesets` bounds its cache by these sizes).
//!
//! The count is a thread-local `Cell` with a constant initializer and no
//! destructor, so reading it never allocates and works in the allocator.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

thread_local! {
    static NET: Cell<isize> = const { Cell::new(0) };
}

/// The process's heap budget in bytes (0: none), set by [`limit`].
static LIMIT: AtomicUsize = AtomicUsize::new(0);
/// Bytes allocated less bytes freed by the whole process since [`limit`].
static TOTAL: AtomicIsize = AtomicIsize::new(0);
/// The exit status of a process that went past its [`limit`].
pub const EXIT_OVER_BUDGET: i32 = 71;

fn add(bytes: isize) {
    // After the thread's locals are gone (its last frees) nothing is counted.
    let _ = NET.try_with(|n| n.set(n.get().wrapping_add(bytes)));
    let limit = LIMIT.load(Ordering::Relaxed);
    if limit != 0 {
        let total = TOTAL
            .fetch_add(bytes, Ordering::Relaxed)
            .wrapping_add(bytes);
        if bytes > 0 && total > limit as isize {
            over_budget();
        }
    }
}

/// What an allocation that returned `p` means under a budget: counted
/// before it was tried (so a request past the budget ends the process
/// before the system is asked, [`add`]), it is given back if it failed;
/// and a failure under a budget is the address-space limit behind it
/// (`RLIMIT_AS`, which the allocator's reservations can reach before the
/// budget), so memory too: [`EXIT_OVER_BUDGET`]. Without this, Rust's
/// handler aborted ("memory allocation of 536870912 bytes failed", read
/// as a crash on a malformed file; found by an outside tester).
fn settle(p: *mut u8, bytes: isize) -> *mut u8 {
    if p.is_null() {
        if LIMIT.load(Ordering::Relaxed) != 0 {
            over_budget();
        }
        add(-bytes);
    }
    p
}

/// Ends the process with [`EXIT_OVER_BUDGET`], allocating nothing.
#[cfg(unix)]
fn over_budget() -> ! {
    const MSG: &[u8] = b"heap budget exceeded\n";
    // SAFETY: write(2) and _exit(2) are async-signal-safe and allocate nothing.
    unsafe {
        libc::write(2, MSG.as_ptr().cast(), MSG.len());
        libc::_exit(EXIT_OVER_BUDGET)
    }
}

#[cfg(not(unix))]
fn over_budget() -> ! {
    std::process::abort()
}

/// Gives the whole process a heap budget: an allocation that would take it
/// past `bytes` ends the process with [`EXIT_OVER_BUDGET`] (a child that
/// converts an untrusted document; `sandbox`). Counted from this call on.
pub fn limit(bytes: usize) {
    TOTAL.store(0, Ordering::Relaxed);
    LIMIT.store(bytes.max(1), Ordering::Relaxed);
}

/// Bytes allocated less bytes freed by this thread so far.
pub fn net() -> isize {
    NET.try_with(Cell::get).unwrap_or(0)
}

/// Runs `build` and returns its value with the heap bytes it left
/// allocated on this thread (0 if it freed more than it kept). Exact when
/// `build` runs on this thread alone and drops nothing allocated elsewhere.
pub fn retained<T>(build: impl FnOnce() -> T) -> (T, usize) {
    let before = net();
    let value = build();
    let kept = net().wrapping_sub(before);
    (value, usize::try_from(kept).unwrap_or(0))
}

/// A global allocator that counts for [`net`] and hands the work to `A`.
pub struct Counting<A>(pub A);

// SAFETY: every call is forwarded unchanged to `A`; the count has no
// effect on the memory handed out.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Counting<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as isize);
        // SAFETY: forwarded with the caller's layout.
        settle(unsafe { self.0.alloc(layout) }, layout.size() as isize)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        add(layout.size() as isize);
        // SAFETY: forwarded with the caller's layout.
        settle(
            unsafe { self.0.alloc_zeroed(layout) },
            layout.size() as isize,
        )
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's pointer and layout, from this allocator.
        unsafe { self.0.dealloc(ptr, layout) };
        add(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let grown = new_size as isize - layout.size() as isize;
        add(grown);
        // SAFETY: the caller's pointer, layout and size, from this allocator.
        settle(unsafe { self.0.realloc(ptr, layout, new_size) }, grown)
    }
}

#[cfg(test)]
mod tests {
    /// Set in the copy of this test binary that runs one case of
    /// [`memory_running_out_under_a_budget_exits_over_budget`].
    const CASE: &str = "ARBITER_HEAP_TEST_CASE";

    /// A request past the budget, and one the system refuses under it,
    /// each end the process with [`super::EXIT_OVER_BUDGET`], never Rust's
    /// abort (a PDF's 512 MB request aborted the converter, which was read
    /// as a malformed file; found by an outside tester). Each case runs in
    /// a copy of this test binary, as the budget is process-wide.
    #[cfg(unix)]
    #[test]
    fn memory_running_out_under_a_budget_exits_over_budget() {
        if let Ok(case) = std::env::var(CASE) {
            let (budget, request) = match case.as_str() {
                "past" => (1 << 30, 1 << 40),
                _ => (1 << 62, 1 << 46),
            };
            super::limit(budget);
            let v = vec![1u8; request];
            std::hint::black_box(&v);
            std::process::exit(0);
        }
        let name = "heap::tests::memory_running_out_under_a_budget_exits_over_budget";
        for case in ["past", "refused"] {
            let status = std::process::Command::new(std::env::current_exe().unwrap())
                .args(["--exact", name, "--test-threads=1"])
                .env(CASE, case)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .unwrap();
            assert_eq!(
                status.code(),
                Some(super::EXIT_OVER_BUDGET),
                "{case}: {status}"
            );
        }
    }

    #[test]
    fn what_a_build_keeps_is_counted_and_what_it_frees_is_not() {
        let (kept, bytes) = super::retained(|| {
            let scratch = vec![0u8; 1 << 20];
            drop(scratch);
            vec![7u64; 1000]
        });
        assert_eq!(kept.len(), 1000);
        assert_eq!(bytes, 8000);
        let ((), none) = super::retained(|| drop(kept));
        assert_eq!(none, 0, "freeing is never a negative size");
    }
}
