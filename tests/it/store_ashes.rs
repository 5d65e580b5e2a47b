//! An Ashes Reborn match through the service, on SQLite and PostgreSQL:
//! the issue's notation line, seats and turns, completions, typos, an
//! illegal play, undo, and the replay invariant with the real engine.

use crate::store_common;

use arbiter::app::matches::{Caller, MatchError, Matches};
use arbiter::store::Store;

use store_common::both;

const BOARD: &str = "\
game: ashes
turn: Coal
players:
  - name: Coal
    phoenixborn: { name: Coal Roarkwin, life: 15 }
    units:
      - { name: Iron Worker, attack: 2, life: 2 }
      - { name: Hammer Knight, attack: 3, life: 3 }
  - name: Maeoni
    phoenixborn: { name: Maeoni Viper, life: 20, damage: 5, exhausted: true }
    units:
      - { name: Mist Spirit, attack: 1, life: 1 }
";

fn coal() -> Caller {
    Caller::new("table", "coal-user", false)
}
fn maeoni() -> Caller {
    Caller::new("table", "maeoni-user", false)
}

fn damage(board: &serde_json::Value) -> i64 {
    board["players"][1]["phoenixborn"]["damage"]
        .as_i64()
        .unwrap_or(0)
}

both!(ashes_match);
async fn ashes_match(url: String) {
    let m = Matches::new(Store::connect(&url).await.unwrap());
    m.start(
        &coal(),
        "ashes",
        &["coal-user".into(), "maeoni-user".into()],
    )
    .await
    .unwrap();
    store_common::setup_as_judge(&m, &coal(), &format!("```yaml\n{BOARD}```"))
        .await
        .unwrap();
    let v = m.board("table").await.unwrap();
    assert_eq!(v.turn.as_deref(), Some("coal-user"));

    // Completions offer the defender's units after `attack unit`.
    let c = m.complete("table", "attack unit ").await.unwrap();
    assert!(c.iter().any(|s| s.contains("Mist Spirit")), "{c:?}");

    // Not Maeoni's turn: she plays for her own seat only.
    let e = m.play(&maeoni(), "pass", None).await.unwrap_err();
    assert!(matches!(e, MatchError::Forbidden { .. }), "{e:?}");
    // Her own kind of play (her unit attacks) on Coal's turn is refused
    // as out of turn, not as "this play is for Coal".
    let e = m
        .play(
            &maeoni(),
            "attack unit Hammer Knight with Mist Spirit",
            None,
        )
        .await
        .unwrap_err();
    assert!(matches!(e, MatchError::Forbidden { .. }), "{e:?}");
    assert!(
        e.to_string().contains("it is Coal's turn") && e.to_string().contains("not Maeoni's"),
        "{e}"
    );
    assert!(!e.to_string().contains("this play is for"), "{e}");

    // Coal may not choose Maeoni's guard for her...
    let e = m
        .play(
            &coal(),
            "attack unit \"Mist Spirit\" with Iron Worker, Hammer Knight; guard phoenixborn",
            None,
        )
        .await
        .unwrap_err();
    assert!(e.to_string().contains("Maeoni's choice"), "{e}");
    // ...unless she agrees: `agreed by Maeoni` asks her (it does not speak
    // for her); once she confirms, the exhausted Phoenixborn guards Mist
    // Spirit and takes the total attack (2 + 3).
    let r = m
        .play(
            &coal(),
            "attack unit \"Mist Spirit\" with Iron Worker, Hammer Knight; guard phoenixborn; agreed by Maeoni",
            None,
        )
        .await
        .unwrap();
    assert!(r.proposed && r.pending.is_some(), "{r:?}");
    assert_eq!(damage(&r.board), 5, "nothing changes until she confirms");
    let r = m.answer(&maeoni(), "confirm", None).await.unwrap();
    assert!(r.applied, "{:?}", r.ruling.as_ref().unwrap().diagnostics);
    assert!(r.ruling.as_ref().unwrap().legal);
    assert!(
        r.ruling
            .as_ref()
            .unwrap()
            .steps
            .iter()
            .any(|s| s.rule.starts_with("ashes:attack-a-unit")),
        "{:?}",
        r.ruling.as_ref().unwrap().steps
    );
    assert_eq!(damage(&r.board), 10);
    assert_eq!(r.board["turn"], "Maeoni", "the turn passes to Maeoni");
    assert_eq!(r.board.get("play"), None);

    // Now Coal may not play; typos and unknown names are clear, nothing stored.
    assert!(matches!(
        m.play(&coal(), "pass", None).await.unwrap_err(),
        MatchError::Forbidden { .. }
    ));
    let before = m.board("table").await.unwrap();
    let e = m
        .play(
            &maeoni(),
            "attack unit \"Iron Wroker\" with Mist Spirit",
            None,
        )
        .await
        .unwrap_err();
    assert!(e.to_string().contains("Iron Worker"), "{e}");
    // Attacking your own unit: refused (by the notation or as an illegal ruling).
    match m
        .play(
            &maeoni(),
            "attack unit \"Mist Spirit\" with Mist Spirit",
            None,
        )
        .await
    {
        Ok(r) => assert!(!r.applied && !r.ruling.as_ref().unwrap().legal, "{r:?}"),
        Err(e) => assert!(e.is_user_error(), "{e}"),
    }
    let after = m.board("table").await.unwrap();
    assert_eq!(after.version, before.version);
    assert_eq!(after.board, before.board);

    // Maeoni passes; Coal cannot undo her play, she can.
    let r = m.play(&maeoni(), "pass", None).await.unwrap();
    assert!(
        r.applied && r.ruling.as_ref().unwrap().legal,
        "{:?}",
        r.ruling.as_ref().unwrap().diagnostics
    );
    assert!(matches!(
        m.undo(&coal()).await.unwrap_err(),
        MatchError::Forbidden { .. }
    ));
    let u = m.undo(&maeoni()).await.unwrap();
    assert_eq!(u.undone.as_ref().unwrap().input.as_deref(), Some("pass"));
    assert_eq!(u.board, before.board.clone().unwrap());

    let replay = m.replay("table").await.unwrap();
    assert!(replay.consistent, "{:?}", replay.mismatches);
    assert_eq!(replay.state, m.board("table").await.unwrap().board);
}

/// Garbage as plays and boards: never a panic, never a change unless a
/// play was actually applied.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_input_never_panics_nor_changes_the_board() {
    let (url, _dir) = store_common::sqlite_url();
    let m = Matches::new(Store::connect(&url).await.unwrap());
    m.start(
        &coal(),
        "ashes",
        &["coal-user".into(), "maeoni-user".into()],
    )
    .await
    .unwrap();
    store_common::setup_as_judge(&m, &coal(), BOARD)
        .await
        .unwrap();
    let pieces = [
        "attack",
        "unit",
        "\"Mist Spirit\"",
        "with",
        "Iron Worker",
        ",",
        ";",
        "guard",
        "phoenixborn",
        "counter",
        "no",
        "block",
        "order",
        "split",
        "2",
        "-1",
        "pass",
        "pay",
        "main",
        "play:",
        "{",
        "}",
        "[",
        "]",
        "\n",
        "  ",
        "```",
        "yaml",
        "game: ashes",
        "players:",
        "- name: X",
        "é",
        "💥",
        "\u{0}",
        "null",
        "~",
        "&a",
        "*a",
        "!!binary",
        "99999999999999999999",
        "Maeoni:",
        "Coal:",
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut version = m.board("table").await.unwrap().version;
    for _ in 0..300 {
        let n = 1 + next() % 12;
        let text: Vec<&str> = (0..n)
            .map(|_| pieces[(next() % pieces.len() as u64) as usize])
            .collect();
        let text = text.join(if next() % 2 == 0 { " " } else { "" });
        let who = if next() % 2 == 0 { coal() } else { maeoni() };
        let before = m.board("table").await.unwrap();
        match m.play(&who, &text, None).await {
            Ok(r) if r.applied => version = r.version,
            Ok(_) | Err(_) => {
                let after = m.board("table").await.unwrap();
                assert_eq!(after.version, before.version, "{text:?}");
                assert_eq!(after.board, before.board, "{text:?}");
            }
        }
        // As a starting board: refused unless it is one (nothing plays yet
        // only matters for moderators; a player's setup after plays is refused).
        let _ = m.setup(&Caller::new("table", "judge", true), &text).await;
        let now = m.board("table").await.unwrap().version;
        assert!(now >= version);
        version = now;
    }
    let r = m.replay("table").await.unwrap();
    assert!(r.consistent, "{:?}", r.mismatches);
}
