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
    /// wait for it.
    pub(crate) async fn in_turn<T>(&self, channel: &str, work: impl Future<Output = T>) -> T {
        let turn = self.enter(channel);
        let out = {
            let _held = turn.lock().await;
            work.await
        };
        drop(turn);
        self.leave(channel);
        out
    }

    fn enter(&self, channel: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut turns = self.turns.lock().unwrap_or_else(|p| p.into_inner());
        turns.entry(channel.to_string()).or_default().clone()
    }

    /// Forgets the channel's entry once nobody holds or waits for it (only
    /// the map's own reference is left; taking another needs the map's
    /// lock, held here).
    fn leave(&self, channel: &str) {
        let mut turns = self.turns.lock().unwrap_or_else(|p| p.into_inner());
        if turns
            .get(channel)
            .is_some_and(|t| Arc::strong_count(t) == 1)
        {
            turns.remove(channel);
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.turns.lock().unwrap_or_else(|p| p.into_inner()).len()
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
