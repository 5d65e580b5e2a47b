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
//! The workers are shared among [`Scope`]s (a Discord server, one user's
//! DMs, the console): with two workers or more, a scope holds at most all
//! but one, so one server's burst of slow boards cannot take every worker
//! from another; a freed worker goes to the waiting job whose scope holds
//! the fewest (the oldest among equals), so a server's backlog does not
//! queue another's job behind all of it.
//!
//! ```ignore
//! let ruling = app::cpu::run(move || engine.judge(&board)).await?;
//! ```

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use crate::metrics::{self, Rejected};

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

/// Whose work a job is: the pool shares its workers among scopes, so that
/// no server's requests can take every worker from another's.
///
/// A request's scope is set around its handling with [`scoped`] (the bot
/// does it from the interaction's server); a job started outside any is
/// [`Scope::Local`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// A Discord server (its guild id): all its members' requests.
    Server(u64),
    /// One user's direct messages with Arbiter (their user id): each
    /// user's own, as a DM belongs to no server.
    Direct(u64),
    /// The console and the command line without a server, and work of no
    /// request (the sweep of timed-out decisions): one shared scope.
    Local,
}

tokio::task_local! {
    static SCOPE: Scope;
}

impl Scope {
    /// The scope of the task this runs in: [`Scope::Local`] outside any.
    /// A task spawned for a request's work takes its request's scope with
    /// it: `tokio::spawn(scoped(Scope::current(), work))`.
    pub fn current() -> Scope {
        SCOPE.try_with(|s| *s).unwrap_or(Scope::Local)
    }
}

/// Runs `work` with every pool job it starts (on this task) counted to
/// `scope`.
pub async fn scoped<F: std::future::Future>(scope: Scope, work: F) -> F::Output {
    SCOPE.scope(scope, work).await
}

struct Pool {
    limits: Limits,
    /// Judging and parsing boards.
    heavy: Arc<Workers>,
    /// Cheap, bounded work (searching, completing, listing): its own
    /// workers, so that a flood of big boards cannot hold up `/rule`.
    light: Arc<Workers>,
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
        heavy: Workers::new(limits.workers),
        light: Workers::new(limits.workers),
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
    run_on(&pool().heavy, budget, job).await
}

/// As [`run_within`], for cheap work with bounded input (a search, a
/// completion, a list): on workers of its own, which judging never takes.
pub async fn run_light<T, F>(budget: Duration, job: F) -> Result<T, CpuError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    run_on(&pool().light, budget, job).await
}

async fn run_on<T, F>(workers: &Arc<Workers>, budget: Duration, job: F) -> Result<T, CpuError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let started = Instant::now();
    let slot = match workers.take(Scope::current(), budget).await {
        Ok(slot) => slot,
        Err(reason) => {
            metrics::cpu_rejected(reason);
            return Err(CpuError::Busy { budget });
        }
    };
    let task = tokio::task::spawn_blocking(move || {
        // The worker is held until the job ends, even past the budget.
        let _slot = slot;
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

/// A set of workers shared among scopes: a scope holds at most its share
/// (one worker fewer than all, when there are two or more), so another
/// scope always finds one; a freed worker goes to the waiting job whose
/// scope holds the fewest, the oldest first among equals (not to the
/// oldest job: a server's backlog cannot make another's job wait behind
/// all of it).
struct Workers {
    workers: usize,
    share: usize,
    state: Mutex<Shares>,
}

#[derive(Default)]
struct Shares {
    /// Workers held.
    running: usize,
    /// Workers held, by scope: a scope that holds none has no entry.
    held: HashMap<Scope, usize>,
    /// Jobs waiting for a worker, oldest first; each leaves when it is
    /// given one, gives up or is dropped.
    waiting: VecDeque<Waiter>,
    next_id: u64,
}

struct Waiter {
    id: u64,
    scope: Scope,
    given: oneshot::Sender<()>,
}

impl Shares {
    fn held(&self, scope: Scope) -> usize {
        self.held.get(&scope).copied().unwrap_or(0)
    }

    fn hold(&mut self, scope: Scope) {
        self.running += 1;
        *self.held.entry(scope).or_default() += 1;
    }

    fn free(&mut self, scope: Scope) {
        self.running -= 1;
        if let Some(n) = self.held.get_mut(&scope) {
            *n -= 1;
            if *n == 0 {
                self.held.remove(&scope);
            }
        }
    }

    /// The waiting job a free worker goes to: its scope under its share
    /// and holding the fewest workers, the oldest among equals.
    fn next_waiter(&self, share: usize) -> Option<usize> {
        self.waiting
            .iter()
            .enumerate()
            .map(|(i, w)| (self.held(w.scope), i))
            .filter(|&(held, _)| held < share)
            .min()
            .map(|(_, i)| i)
    }
}

impl Workers {
    fn new(workers: usize) -> Arc<Workers> {
        Arc::new(Workers {
            workers,
            share: workers.saturating_sub(1).max(1),
            state: Mutex::new(Shares::default()),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, Shares> {
        // No code panics while holding it; a poisoned lock's data is whole.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A worker for `scope` within `budget`, or why none was had.
    async fn take(self: &Arc<Self>, scope: Scope, budget: Duration) -> Result<Slot, Rejected> {
        let (id, given) = {
            let mut state = self.state();
            // Whoever waits could not take a worker: one free now is this job's.
            if state.running < self.workers && state.held(scope) < self.share {
                state.hold(scope);
                return Ok(self.slot(scope));
            }
            let (tx, rx) = oneshot::channel();
            let id = state.next_id;
            state.next_id += 1;
            state.waiting.push_back(Waiter {
                id,
                scope,
                given: tx,
            });
            (id, rx)
        };
        let ticket = Ticket {
            workers: self.clone(),
            id,
            scope,
            used: false,
        };
        match tokio::time::timeout(budget, given).await {
            Ok(Ok(())) => Ok(ticket.into_slot()),
            _ => Err(ticket.give_up()),
        }
    }

    fn slot(self: &Arc<Self>, scope: Scope) -> Slot {
        Slot {
            workers: self.clone(),
            scope,
        }
    }

    /// Gives free workers to the waiting jobs they go to.
    fn hand_on(&self, state: &mut Shares) {
        while state.running < self.workers {
            let Some(i) = state.next_waiter(self.share) else {
                return;
            };
            let Some(waiter) = state.waiting.remove(i) else {
                return;
            };
            state.hold(waiter.scope);
            // Its ticket is alive while it waits (see `Ticket::drop`).
            let _ = waiter.given.send(());
        }
    }
}

/// A job's place in the queue: dropped before it was given a worker (its
/// budget ran out, or the request was dropped), it leaves the queue; given
/// one it no longer uses, it frees it.
struct Ticket {
    workers: Arc<Workers>,
    id: u64,
    scope: Scope,
    /// Given a worker, now held by a [`Slot`].
    used: bool,
}

impl Ticket {
    fn into_slot(mut self) -> Slot {
        self.used = true;
        self.workers.slot(self.scope)
    }

    /// Leaves the queue (or frees the worker given meanwhile): why no
    /// worker was had, the scope at its share or every worker busy.
    fn give_up(self) -> Rejected {
        let at_share = self.workers.state().held(self.scope) >= self.workers.share;
        drop(self);
        if at_share {
            Rejected::share
        } else {
            Rejected::busy
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.used {
            return;
        }
        let mut state = self.workers.state();
        match state.waiting.iter().position(|w| w.id == self.id) {
            Some(i) => {
                state.waiting.remove(i);
            }
            None => {
                state.free(self.scope);
                self.workers.hand_on(&mut state);
            }
        }
    }
}

/// A worker held for a job, freed (and handed on) when dropped.
struct Slot {
    workers: Arc<Workers>,
    scope: Scope,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut state = self.workers.state();
        state.free(self.scope);
        self.workers.hand_on(&mut state);
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

    /// `run_within` for server `i`: filling the pool takes one server per
    /// worker (a server alone holds all but one).
    async fn from_server<F>(i: usize, budget: Duration, job: F) -> Result<u64, CpuError>
    where
        F: FnOnce() -> u64 + Send + 'static,
    {
        scoped(Scope::Server(i as u64), run_within(budget, job)).await
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
            .map(|i| {
                tokio::spawn(from_server(i, Duration::from_secs(5), || {
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
            .map(|i| {
                tokio::spawn(from_server(i, Duration::from_secs(5), || {
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
            .map(|i| {
                tokio::spawn(from_server(i, Duration::from_secs(5), || {
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

    /// A job of `scope` on `workers` (a pool of the test's own, through the
    /// pool's own path) that tells it started, then waits for a token (or
    /// for the tokens' sender to be dropped).
    fn held_job(
        workers: &Arc<Workers>,
        scope: Scope,
        started: &tokio::sync::mpsc::UnboundedSender<Scope>,
        tokens: &Arc<Mutex<std::sync::mpsc::Receiver<()>>>,
    ) -> tokio::task::JoinHandle<Result<(), CpuError>> {
        let (workers, started, tokens) = (workers.clone(), started.clone(), tokens.clone());
        tokio::spawn(scoped(scope, async move {
            run_on(&workers, Duration::from_secs(60), move || {
                let _ = started.send(scope);
                let _ = tokens.lock().unwrap().recv();
            })
            .await
        }))
    }

    /// Waits until `workers`' state is `ready` (at most a minute: then the
    /// test's next assertion tells what is wrong).
    async fn queued(workers: &Workers, ready: impl Fn(&Shares) -> bool) {
        for _ in 0..6000 {
            if ready(&workers.state()) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    fn tokens() -> (
        std::sync::mpsc::Sender<()>,
        Arc<Mutex<std::sync::mpsc::Receiver<()>>>,
    ) {
        let (tx, rx) = std::sync::mpsc::channel();
        (tx, Arc::new(Mutex::new(rx)))
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_flood_from_one_server_leaves_a_worker_for_another() {
        let workers = Workers::new(4);
        let (started, mut running) = tokio::sync::mpsc::unbounded_channel();
        let (release, held) = tokens();
        let a = Scope::Server(1);
        let flood: Vec<_> = (0..12)
            .map(|_| held_job(&workers, a, &started, &held))
            .collect();
        for _ in 0..3 {
            assert_eq!(running.recv().await, Some(a));
        }
        // The rest of the flood waits (without the share, one more would
        // have taken the last worker: what this test fails on without it).
        queued(&workers, |s| s.waiting.len() >= 8).await;
        assert!(
            running.try_recv().is_err(),
            "server 1 holds a fourth worker"
        );
        let other = scoped(
            Scope::Server(2),
            run_on(&workers, Duration::from_secs(5), || 7),
        );
        assert_eq!(other.await, Ok(7));
        // A DM and the console are scopes of their own too.
        let dm = scoped(
            Scope::Direct(3),
            run_on(&workers, Duration::from_secs(5), || 8),
        );
        assert_eq!(dm.await, Ok(8));
        assert_eq!(run_on(&workers, Duration::from_secs(5), || 9).await, Ok(9));
        // The flooding server's own next job waits, and says why.
        let mine = workers.take(a, Duration::from_millis(100)).await;
        assert!(matches!(mine, Err(Rejected::share)));

        drop(release);
        for job in flood {
            assert_eq!(job.await.unwrap(), Ok(()));
        }
        // Bounded: a scope with no jobs has no entry.
        let state = workers.state();
        assert!(state.held.is_empty() && state.waiting.is_empty());
        assert_eq!(state.running, 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_freed_worker_goes_to_the_server_holding_fewest() {
        let workers = Workers::new(4);
        let (started, mut running) = tokio::sync::mpsc::unbounded_channel();
        let (release_a, held_a) = tokens();
        let (release_b, held_b) = tokens();
        let (a, b) = (Scope::Server(1), Scope::Server(2));
        // Server 1: three workers and a backlog; server 2: the fourth.
        let flood: Vec<_> = (0..10)
            .map(|_| held_job(&workers, a, &started, &held_a))
            .collect();
        for _ in 0..3 {
            assert_eq!(running.recv().await, Some(a));
        }
        let second = held_job(&workers, b, &started, &held_b);
        assert_eq!(running.recv().await, Some(b));
        // Server 3's job waits behind server 1's backlog (queued first).
        queued(&workers, |s| s.waiting.len() == 7).await;
        let third = tokio::spawn({
            let workers = workers.clone();
            async move {
                let job = run_on(&workers, Duration::from_secs(20), || 7);
                scoped(Scope::Server(3), job).await
            }
        });
        queued(&workers, |s| s.waiting.len() == 8).await;
        // One of server 1's jobs ends: the worker goes to server 3 (holding
        // none), not to the oldest waiting job (server 1's, holding two).
        release_a.send(()).unwrap();
        assert_eq!(third.await.unwrap(), Ok(7));

        drop(release_a);
        drop(release_b);
        for job in flood {
            assert_eq!(job.await.unwrap(), Ok(()));
        }
        assert_eq!(second.await.unwrap(), Ok(()));
        assert!(workers.state().held.is_empty());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_job_that_gives_up_or_is_dropped_leaves_the_queue() {
        let workers = Workers::new(2);
        let (started, mut running) = tokio::sync::mpsc::unbounded_channel();
        let (release, held) = tokens();
        let first = held_job(&workers, Scope::Server(1), &started, &held);
        let second = held_job(&workers, Scope::Server(2), &started, &held);
        running.recv().await.unwrap();
        running.recv().await.unwrap();
        let r = workers
            .take(Scope::Server(3), Duration::from_millis(50))
            .await;
        assert!(matches!(r, Err(Rejected::busy)));
        // A request dropped while it waits (its interaction gone).
        let waiting = tokio::spawn({
            let workers = workers.clone();
            async move {
                workers
                    .take(Scope::Server(4), Duration::from_secs(60))
                    .await
                    .is_ok()
            }
        });
        queued(&workers, |s| s.waiting.len() == 1).await;
        waiting.abort();
        assert!(waiting.await.unwrap_err().is_cancelled());
        assert!(workers.state().waiting.is_empty());

        drop(release);
        assert_eq!(first.await.unwrap(), Ok(()));
        assert_eq!(second.await.unwrap(), Ok(()));
        assert_eq!(workers.state().running, 0);
    }
}
