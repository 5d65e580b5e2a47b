//! One writer at a time per channel for writes that are retried on a lost
//! race (notes): within one process they wait their turn here instead of
//! racing each other in the database, so a retry loop only ever races the
//! writes of other processes (replicas). Two hundred notes sent at once to
//! one channel otherwise did O(n²) failed appends and, on a loaded
//! machine, some ran out of their retry time.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Per-channel turn-taking. Entries exist only while someone holds or
/// waits for a channel's turn, so the map does not grow with channels.
#[derive(Default)]
pub(crate) struct ChannelQueue {
    turns: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl ChannelQueue {
    /// Runs `work` when it is this channel's turn; other channels never
    /// wait for it. The channel's entry is let go however `work` ends,
    /// dropped unfinished too (a request given up).
    pub(crate) async fn in_turn<T>(&self, channel: &str, work: impl Future<Output = T>) -> T {
        let turn = Turn {
            queue: self,
            channel,
            lock: self.enter(channel),
        };
        let _held = turn.lock.lock().await;
        work.await
    }

    fn enter(&self, channel: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut turns = self.turns.lock().unwrap_or_else(|p| p.into_inner());
        turns.entry(channel.to_string()).or_default().clone()
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.turns.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

/// A channel's place in the queue, held or waited for: dropped, the
/// channel's entry goes once nobody else holds or waits for it (only the
/// map's own reference is left; taking another needs the map's lock).
struct Turn<'a> {
    queue: &'a ChannelQueue,
    channel: &'a str,
    lock: Arc<tokio::sync::Mutex<()>>,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut turns = self.queue.turns.lock().unwrap_or_else(|p| p.into_inner());
        // This turn's own reference and the map's.
        if turns
            .get(self.channel)
            .is_some_and(|t| Arc::ptr_eq(t, &self.lock) && Arc::strong_count(t) == 2)
        {
            turns.remove(self.channel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn one_at_a_time_per_channel_and_forgotten_after() {
        let q = Arc::new(ChannelQueue::default());
        let inside = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..40)
            .map(|_| {
                let (q, inside, most) = (q.clone(), inside.clone(), most.clone());
                tokio::spawn(async move {
                    q.in_turn("c", async {
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        tokio::task::yield_now().await;
                        inside.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        for t in tasks {
            t.await.unwrap();
        }
        assert_eq!(most.load(Ordering::SeqCst), 1);
        assert_eq!(q.len(), 0);
    }

    /// A note given up while it waited (its request dropped) leaves no
    /// entry behind.
    #[tokio::test]
    async fn a_turn_given_up_is_let_go() {
        let q = ChannelQueue::default();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let held = q.in_turn("c", async { rx.await.ok() });
        let waiting = q.in_turn("c", async {});
        let gave_up = tokio::time::timeout(std::time::Duration::from_millis(20), async {
            tokio::join!(held, waiting)
        })
        .await;
        assert!(gave_up.is_err());
        drop(tx);
        assert_eq!(q.len(), 0);
    }

    #[tokio::test]
    async fn another_channel_does_not_wait() {
        let q = Arc::new(ChannelQueue::default());
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let held = {
            let q = q.clone();
            tokio::spawn(async move { q.in_turn("a", async { rx.await.ok() }).await })
        };
        tokio::task::yield_now().await;
        let other = tokio::time::timeout(
            std::time::Duration::from_secs(5),
            q.in_turn("b", async { 7 }),
        )
        .await;
        assert_eq!(other.ok(), Some(7));
        tx.send(()).unwrap();
        held.await.unwrap();
        assert_eq!(q.len(), 0);
    }
}
