//! A match's whole-log work (`log`, `export`, `verify`, an export's
//! import) calls the engine on the CPU pool (`app::cpu`), never on the
//! async worker that took the request: a long match replayed there would
//! hold up every other request that worker serves. An engine that counts
//! its calls made on the runtime's own thread (a current-thread runtime:
//! every async task runs on the test's thread, the pool on others) sees as
//! many for a match of 3 events as for one of 40.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::{self, ThreadId};

use serde_json::Value;

use arbiter::app::matches::{Caller, MatchRequest, Matches};
use arbiter::engine::{
    Adjustment, Asking, BoardError, GameEngine, MinPlayers, OpenBoard, Phase, RuleUse, Ruling,
    Status, Unagreed,
};
use arbiter::store::Store;

/// Ashes' engine, counting the calls made on `runtime`.
struct Watched {
    inner: &'static dyn GameEngine,
    runtime: ThreadId,
    calls: AtomicUsize,
}

impl Watched {
    fn seen(&self) {
        if thread::current().id() == self.runtime {
            self.calls.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// The calls on the runtime's thread since the last time asked.
    fn taken(&self) -> usize {
        self.calls.swap(0, Ordering::SeqCst)
    }
}

impl GameEngine for Watched {
    fn game(&self) -> &'static str {
        self.inner.game()
    }
    fn rule_uses(&self) -> &'static [RuleUse] {
        self.inner.rule_uses()
    }
    fn schema(&self) -> Value {
        self.inner.schema()
    }
    fn judge(&self, doc: Value, text: Option<&str>, asking: &Asking) -> Result<Ruling, BoardError> {
        self.seen();
        self.inner.judge(doc, text, asking)
    }
    fn check_board(&self, board: &Value) -> Result<Value, BoardError> {
        self.seen();
        self.inner.check_board(board)
    }
    fn open<'a>(
        &'a self,
        board: &'a Value,
        text: Option<&'a str>,
    ) -> Result<Box<dyn OpenBoard + 'a>, BoardError> {
        self.seen();
        self.inner.open(board, text)
    }
    fn parse_notation(&self, line: &str, board: &Value) -> Result<Value, BoardError> {
        self.seen();
        self.inner.parse_notation(line, board)
    }
    fn notation_completions(&self, partial: &str, board: &Value) -> Vec<String> {
        self.inner.notation_completions(partial, board)
    }
    fn players(&self, board: &Value) -> Result<Vec<String>, BoardError> {
        self.seen();
        self.inner.players(board)
    }
    fn actor(&self, board: &Value, play: &Value) -> Result<Option<usize>, BoardError> {
        self.seen();
        self.inner.actor(board, play)
    }
    fn status(&self, board: &Value) -> Result<Status, BoardError> {
        self.seen();
        self.inner.status(board)
    }
    fn phases(&self) -> &'static [Phase] {
        self.inner.phases()
    }
    fn min_players(&self) -> MinPlayers {
        self.inner.min_players()
    }
    fn advance(&self, board: &Value, to: Option<&str>) -> Result<Ruling, BoardError> {
        self.seen();
        self.inner.advance(board, to)
    }
    fn advance_unagreed(
        &self,
        board: &Value,
        to: Option<&str>,
    ) -> Result<(Ruling, Vec<Unagreed>), BoardError> {
        self.seen();
        self.inner.advance_unagreed(board, to)
    }
    fn adjust(&self, board: &Value, field: &str, value: &str) -> Result<Adjustment, BoardError> {
        self.seen();
        self.inner.adjust(board, field, value)
    }
    fn fields(&self, board: &Value) -> Vec<String> {
        self.inner.fields(board)
    }
}

const BOARD: &str = "\
game: ashes
turn: Coal
players:
  - name: Coal
    phoenixborn: { name: Coal Roarkwin, life: 20 }
    units:
      - { name: Hammer Knight, attack: 3, life: 5 }
  - name: Maeoni
    phoenixborn: { name: Maeoni Viper, life: 20 }
    units:
      - { name: Frostback Bear, attack: 2, life: 4 }
";

/// A match in `channel` of `passes` plays (passes, a moderator's for the
/// seat in turn, advancing to the next round when both passed), each
/// followed by a note; its export.
async fn played(m: &Matches, channel: &str, passes: usize) -> String {
    let judge = Caller::new(channel, "judge", true);
    let users = ["coal-user".to_string(), "maeoni-user".to_string()];
    m.start(&judge, "ashes", &users).await.unwrap();
    m.setup(&judge, BOARD).await.unwrap();
    for i in 0..passes {
        let mut played = m.play(&judge, "pass", None).await.unwrap();
        if !played.applied {
            m.advance(&judge, None).await.unwrap();
            played = m.play(&judge, "pass", None).await.unwrap();
        }
        assert!(played.applied, "{played:?}");
        m.note(&judge, &format!("note {i}")).await.unwrap();
    }
    m.export(channel).await.unwrap().yaml
}

/// The calls `watched` saw on the runtime's thread while `m` answered
/// `log`, `export`, `verify` and the import of `export` in `channel`.
async fn on_runtime(watched: &Watched, m: &Matches, channel: &str, export: &str) -> [usize; 4] {
    let judge = Caller::new(channel, "judge", true);
    watched.taken();
    m.handle(&judge, MatchRequest::Log { page: None })
        .await
        .unwrap();
    let log = watched.taken();
    m.export(channel).await.unwrap();
    let exported = watched.taken();
    let report = m.replay(channel).await.unwrap();
    assert!(report.consistent, "{report:?}");
    let verified = watched.taken();
    let into = format!("{channel}-again");
    let users = ["coal-user".to_string(), "maeoni-user".to_string()];
    m.start(&Caller::new(&into, "judge", true), "ashes", &users)
        .await
        .unwrap();
    watched.taken();
    m.setup(&Caller::new(&into, "judge", true), export)
        .await
        .unwrap();
    let imported = watched.taken();
    [log, exported, verified, imported]
}

#[tokio::test(flavor = "current_thread")]
async fn a_long_logs_engine_work_runs_off_the_runtime_thread() {
    let watched: &'static Watched = Box::leak(Box::new(Watched {
        inner: arbiter::engine::engine("ashes").unwrap(),
        runtime: thread::current().id(),
        calls: AtomicUsize::new(0),
    }));
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("m.db").display());
    let m = Matches::with_engines(Store::connect(&url).await.unwrap(), vec![watched]);
    let short = played(&m, "short", 1).await;
    let long = played(&m, "long", 20).await;
    let few = on_runtime(watched, &m, "short", &short).await;
    let many = on_runtime(watched, &m, "long", &long).await;
    assert_eq!(
        few, many,
        "engine calls on the runtime's thread for log, export, verify, import: 3 events {few:?}, many more {many:?}"
    );
}
