//! CPU-bound work (parsing and judging boards, searching, schemas) off the
//! async workers: a bounded pool of blocking threads with a time budget per
//! request, so that `/healthz`, PING and cheap interactions keep answering
//! while large boards are judged.
//!
//! [`run`] waits for a free worker (at most the budget), runs the job on
//! tokio's blocking threads, and waits for its result (at most what is left
//! of the budget). A job still running when the budget runs out is not
//! killed (threads cannot be), but it keeps its worker until it ends, so at
//! most [`Limits::workers`] jobs ever use the CPU at once; the caller gets
//! [`CpuError::TooSlow`] at once and answers in time.
//!
//! ```ignore
//! let ruling = app::cpu::run(move || engine.judge(&board)).await?;
//! ```

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

use crate::metrics;

/// The pool's size and the time budget of one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Jobs running at once (default: the CPU cores, at least 2).
    pub workers: usize,
    /// How long a request may wait for a worker and run, in all (default
    /// 2.5 s: an interaction not deferred must be answered within Discord's
    /// 3 seconds).
    pub budget: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            workers: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
                .max(2),
            budget: Duration::from_millis(2500),
        }
    }
}

/// Why a job gave no result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CpuError {
    /// Every worker stayed busy for the whole budget, or for most of it:
    /// the job waited longer than it could then run.
    #[error(
        "Arbiter is busy with other requests and could not get to this one within {} s; please try again in a moment",
        secs(*budget)
    )]
    Busy { budget: Duration },
    /// The job did not finish within the budget, having run for most of it.
    #[error(
        "this took longer than the {} s allowed and was stopped; a smaller board (fewer units, no deep anchors and aliases) will go through",
        secs(*budget)
    )]
    TooSlow { budget: Duration },
    /// The job panicked (a bug): the message, for the log.
    #[error("internal error: {0}")]
    Panicked(String),
}

fn secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.1}")
    }
}

struct Pool {
    limits: Limits,
    /// Judging and parsing boards.
    permits: Arc<Semaphore>,
    /// Cheap, bounded work (searching, completing, listing): its own
    /// workers, so that a flood of big boards cannot hold up `/rule`.
    light: Arc<Semaphore>,
}

static POOL: OnceLock<Pool> = OnceLock::new();

fn pool() -> &'static Pool {
    POOL.get_or_init(|| new_pool(Limits::default()))
}

fn new_pool(limits: Limits) -> Pool {
    let limits = Limits {
        workers: limits.workers.max(1),
        ..limits
    };
    Pool {
        limits,
        permits: Arc::new(Semaphore::new(limits.workers)),
        light: Arc::new(Semaphore::new(limits.workers)),
    }
}

/// Sets the pool's limits; the first call (or the first job) wins. Returns
/// whether these limits are the ones in force.
pub fn configure(limits: Limits) -> bool {
    pool_or(limits).limits == limits
}

fn pool_or(limits: Limits) -> &'static Pool {
    POOL.get_or_init(|| new_pool(limits))
}

/// The limits in force.
pub fn limits() -> Limits {
    pool().limits
}

/// Runs `job` in the pool within the configured budget.
pub async fn run<T, F>(job: F) -> Result<T, CpuError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    run_within(pool().limits.budget, job).await
}

/// Runs `job` in the pool within `budget` (waiting for a worker included).
pub async fn run_within<T, F>(budget: Duration, job: F) -> Result<T, CpuError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    run_on(pool().permits.clone(), budget, job).await
}

/// As [`run_within`], for cheap work with bounded input (a search, a
/// completion, a list): on workers of its own, which judging never takes.
pub async fn run_light<T, F>(budget: Duration, job: F) -> Result<T, CpuError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    run_on(pool().light.clone(), budget, job).await
}

async fn run_on<T, F>(permits: Arc<Semaphore>, budget: Duration, job: F) -> Result<T, CpuError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let started = Instant::now();
    let permit = match tokio::time::timeout(budget, permits.acquire_owned()).await {
        Ok(Ok(permit)) => permit,
        // The semaphore is never closed; a timeout is the only way here.
        Ok(Err(_)) | Err(_) => {
            metrics::cpu_rejected(metrics::Rejected::busy);
            return Err(CpuError::Busy { budget });
        }
    };
    let task = tokio::task::spawn_blocking(move || {
        // The worker is held until the job ends, even past the budget.
        let _permit = permit;
        metrics::cpu_job_started();
        let _running = Running;
        job()
    });
    let waited = started.elapsed();
    let left = budget.saturating_sub(waited);
    match tokio::time::timeout(left, task).await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(e)) => Err(CpuError::Panicked(panic_message(e))),
        // It waited for a worker longer than it then had to run: the
        // queue, not the job, took the budget (another server's burst of
        // boards made a small board "too slow", found by an outside tester).
        Err(_) if waited >= left => {
            metrics::cpu_rejected(metrics::Rejected::busy);
            Err(CpuError::Busy { budget })
        }
        Err(_) => {
            metrics::cpu_rejected(metrics::Rejected::too_slow);
            tracing::warn!(
                budget_ms = budget.as_millis() as u64,
                "a job ran past its time budget; it keeps its worker until it ends"
            );
            Err(CpuError::TooSlow { budget })
        }
    }
}

/// Decrements the running-jobs gauge when the job ends (or panics).
struct Running;

impl Drop for Running {
    fn drop(&mut self) {
        metrics::cpu_job_ended();
    }
}

/// Runs `job` on the calling thread, a panic caught as in the pool: for
/// work of some tens of microseconds on bounded input (a completion), where
/// the hop to a blocking thread and back would cost more than the job.
pub fn run_inline<T>(job: impl FnOnce() -> T) -> Result<T, CpuError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
        .map_err(|panic| CpuError::Panicked(payload_message(&*panic)))
}

fn panic_message(e: tokio::task::JoinError) -> String {
    match e.try_into_panic() {
        Ok(panic) => payload_message(&*panic),
        Err(e) => e.to_string(),
    }
}

fn payload_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pool is process-wide: these tests take turns.
    async fn one_at_a_time() -> tokio::sync::MutexGuard<'static, ()> {
        static TURN: OnceLock<tokio::sync::Mutex<()>> = OnceLock::new();
        TURN.get_or_init(Default::default).lock().await
    }

    fn spin(d: Duration) -> u64 {
        let t = Instant::now();
        let mut n = 0u64;
        while t.elapsed() < d {
            n = n.wrapping_add(1);
        }
        n
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn jobs_run_off_the_workers_within_their_budget() {
        let _turn = one_at_a_time().await;
        assert_eq!(run(|| 2 + 2).await, Ok(4));
        // Too slow: told at the budget, not when the job ends.
        let t = Instant::now();
        let r = run_within(Duration::from_millis(100), || {
            spin(Duration::from_millis(600))
        })
        .await;
        assert_eq!(
            r,
            Err(CpuError::TooSlow {
                budget: Duration::from_millis(100)
            })
        );
        assert!(
            t.elapsed() < Duration::from_millis(400),
            "{:?}",
            t.elapsed()
        );
        // A panic is an error, not a crash.
        let r = run(|| -> u8 { panic!("boom") }).await;
        assert_eq!(r, Err(CpuError::Panicked("boom".into())));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_full_pool_refuses_within_the_budget() {
        let _turn = one_at_a_time().await;
        let workers = limits().workers;
        let long: Vec<_> = (0..workers)
            .map(|_| {
                tokio::spawn(run_within(Duration::from_secs(5), || {
                    spin(Duration::from_millis(700))
                }))
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let t = Instant::now();
        let r = run_within(Duration::from_millis(150), || 1).await;
        assert_eq!(
            r,
            Err(CpuError::Busy {
                budget: Duration::from_millis(150)
            })
        );
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "{:?}",
            t.elapsed()
        );
        for j in long {
            assert!(j.await.unwrap().is_ok());
        }
        // Free again.
        assert_eq!(run(|| 1).await, Ok(1));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_job_that_waited_most_of_its_budget_is_busy_not_too_slow() {
        let _turn = one_at_a_time().await;
        let workers = limits().workers;
        let long: Vec<_> = (0..workers)
            .map(|_| {
                tokio::spawn(run_within(Duration::from_secs(5), || {
                    spin(Duration::from_millis(400))
                }))
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(50)).await;
        // Gets a worker after about 350 ms of its 500, then cannot finish.
        let r = run_within(Duration::from_millis(500), || {
            spin(Duration::from_millis(600))
        })
        .await;
        assert_eq!(
            r,
            Err(CpuError::Busy {
                budget: Duration::from_millis(500)
            })
        );
        for j in long {
            assert!(j.await.unwrap().is_ok());
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn light_work_is_not_held_up_by_judging() {
        let _turn = one_at_a_time().await;
        let workers = limits().workers;
        let heavy: Vec<_> = (0..workers)
            .map(|_| {
                tokio::spawn(run_within(Duration::from_secs(5), || {
                    spin(Duration::from_millis(500))
                }))
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let t = Instant::now();
        assert_eq!(run_light(Duration::from_millis(300), || 7).await, Ok(7));
        assert!(
            t.elapsed() < Duration::from_millis(300),
            "{:?}",
            t.elapsed()
        );
        for j in heavy {
            assert!(j.await.unwrap().is_ok());
        }
    }
}
