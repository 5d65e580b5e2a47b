//! Whole matches of every game (issue 13), from `/match start` to a recorded
//! result, through the console (one session switching users with `/as`) and
//! through signed HTTP interactions (the axum server on loopback), on SQLite
//! and PostgreSQL. Each game is a short table of lines ([`Game`]); one driver
//! per transport plays it: plays, a decision that waits on its player (the
//! wrong player's press refused with nothing recorded, then the right
//! player's answer), advances across rounds, an adjust and its undo, and the
//! end. The database is read alongside to check what each reply claims;
//! the ended match's export re-imports to the same board and result.
//!
//! Bad input over HTTP (forged and stale decision buttons, unknown fields,
//! an advance the rules forbid) and the turn notice's outgoing payload are
//! tested at the end.

use crate::discord_kit;
use crate::store_common;

use std::io::{BufRead, Read};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arbiter::app::matches::{Caller, MatchError, MatchView, Matches};
use arbiter::store::{EventKind, MatchStatus, Store};
use discord_kit::*;
use serde_json::{Value, json};
use store_common::both;

// ---------------------------------------------------------------- the games

/// Who acts: a seat (0-based) or a moderator who plays no seat.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Who {
    Seat(usize),
    Judge,
    /// A member of the channel who plays no seat.
    Stranger,
}
use Who::{Judge, Seat, Stranger};

/// One step of a whole match.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// A legal play by the seat, recorded, waiting on no one.
    Play(usize, &'static str),
    /// A play by `by` that waits on `decider`'s decision, answered with the
    /// option whose label is `answer` (first by a wrong player): with its
    /// button, or `typed` with `/match answer`.
    Decide {
        by: usize,
        line: &'static str,
        decider: usize,
        answer: &'static str,
        typed: bool,
    },
    /// `/match advance [to:]`.
    Advance(Who, Option<&'static str>),
    /// `/match adjust` of the seat's own field, checked at `pointer` in the
    /// board, then undone by the same player.
    AdjustUndo {
        by: usize,
        field: &'static str,
        value: &'static str,
        pointer: &'static str,
    },
    /// An adjust that stays.
    Adjust(Who, &'static str, &'static str),
    /// The round (or turn number) the board is in now.
    Round(u32),
    /// `/match end winner:… reason:…` by agreement.
    End {
        by: usize,
        winner: usize,
        reason: &'static str,
    },
}
use Step::*;

/// A game's whole match: the starting board, the seats' names on it, the
/// steps, and the seat that wins.
struct Game {
    id: &'static str,
    board: &'static str,
    names: &'static [&'static str],
    steps: &'static [Step],
    winner: usize,
}

const ASHES: Game = Game {
    id: "ashes",
    board: include_str!("../../examples/matches/ashes-start.yaml"),
    names: &["Coal", "Maeoni"],
    steps: &[
        Round(1),
        Decide {
            by: 0,
            line: "attack Maeoni with Hammer Knight",
            decider: 1,
            answer: "no blocker",
            typed: false,
        },
        AdjustUndo {
            by: 1,
            field: "Maeoni.units.Frostback Bear.damage",
            value: "2",
            pointer: "/players/1/units/0/damage",
        },
        Play(1, "pass"),
        Play(0, "pass"),
        // Who takes a round's first turn is agreed at the table (the
        // indexed text does not say): a moderator records it, since a
        // player's advance would not settle it by seat order.
        Adjust(Judge, "turn", "Maeoni"),
        Advance(Seat(1), None),
        Round(2),
        Play(1, "pass"),
        Play(0, "pass"),
        Adjust(Judge, "turn", "Coal"),
        Advance(Seat(0), None),
        Round(3),
        // Catching up with damage dealt at the table; then the last attack.
        Adjust(Judge, "Maeoni.phoenixborn.damage", "18"),
        Decide {
            by: 0,
            line: "attack Maeoni with Hammer Knight",
            decider: 1,
            answer: "no blocker",
            typed: true,
        },
    ],
    winner: 0,
};

const TI4: Game = Game {
    id: "ti4",
    board: include_str!("../../examples/matches/ti4-start.yaml"),
    names: &["Ana", "Ben", "Cleo"],
    steps: &[
        Round(1),
        Play(0, "Ana strategic Leadership"),
        Play(1, "Ben strategic Diplomacy"),
        Decide {
            by: 2,
            line: "Cleo trades with Ana",
            decider: 0,
            answer: "accept Cleo's transaction",
            typed: true,
        },
        Play(2, "Cleo strategic Politics"),
        Play(0, "Ana strategic Construction"),
        Play(1, "Ben strategic Trade"),
        Play(2, "Cleo strategic Warfare"),
        Play(0, "Ana pass"),
        Play(1, "Ben pass"),
        Play(2, "Cleo pass"),
        // A score the result is counted on: the judge enters it (a
        // player's own made better would be a proposal:
        // tests/it/match_integrity.rs); Ana's own made worse is at once.
        Adjust(Judge, "Ana.victory_points", "1"),
        AdjustUndo {
            by: 0,
            field: "Ana.victory_points",
            value: "0",
            pointer: "/players/0/victory_points",
        },
        Advance(Seat(0), None),
        Round(2),
        // The strategy phase is not indexed: the judge enters the picks (a
        // player's own pick changes the turn order, and asks the others).
        Adjust(Judge, "players.Ana.strategy_cards[+]", "{name: Trade}"),
        Adjust(Judge, "players.Ana.strategy_cards[+]", "{name: Leadership}"),
        Adjust(Judge, "players.Ben.strategy_cards[+]", "{name: Warfare}"),
        Adjust(Judge, "players.Ben.strategy_cards[+]", "{name: Diplomacy}"),
        Adjust(Judge, "players.Cleo.strategy_cards[+]", "{name: Politics}"),
        Adjust(Judge, "players.Cleo.strategy_cards[+]", "{name: Imperial}"),
        Advance(Seat(1), None),
        Play(0, "Ana strat Leadership"),
        // Ten victory points, scored at the table and entered by the judge:
        // the board decides the game. (Ana's own adjust would be a proposal
        // Ben and Cleo confirm: tests/it/match_integrity.rs.)
        Adjust(Judge, "Ana.victory_points", "10"),
    ],
    winner: 0,
};

const MAGEWINDS: Game = Game {
    id: "magewinds",
    board: include_str!("../../examples/matches/magewinds-start.yaml"),
    names: &["Ana", "Bram"],
    steps: &[
        Round(1),
        Decide {
            by: 0,
            line: "activate Pyromancer attack Stonewarden",
            decider: 1,
            answer: "Dodge with Stonewarden",
            typed: false,
        },
        Play(1, "activate Stonewarden guard"),
        AdjustUndo {
            by: 0,
            field: "Ana.fighters.Pyromancer.movement",
            value: "4",
            pointer: "/players/0/fighters/0/movement",
        },
        Play(0, "activate Pyromancer move 2"),
        Advance(Seat(0), None),
        Round(2),
        // Bram passed first in the Channelling Phase: recorded by a moderator.
        Adjust(Judge, "first_to_pass", "Bram"),
        Advance(Seat(1), None),
        Play(1, "activate Stonewarden guard"),
        Play(0, "activate Pyromancer guard"),
        Play(1, "activate Stonewarden attack Pyromancer"),
        Play(0, "activate Pyromancer move 1"),
        // To the next round's Channelling Phase: who passes first there is
        // not yet known (a player's advance into the Action Phase would
        // settle it by seat order).
        Advance(Seat(0), Some("channelling")),
        Round(3),
        End {
            by: 1,
            winner: 0,
            reason: "Bram concedes",
        },
    ],
    winner: 0,
};

const LEGION: Game = Game {
    id: "legion",
    board: include_str!("../../examples/matches/legion-start.yaml"),
    names: &["Ana", "Ben"],
    steps: &[
        Round(1),
        // Ana does not name the unit: she is asked which (no default).
        Decide {
            by: 0,
            line: "move",
            decider: 0,
            answer: "activate Darth Vader",
            typed: false,
        },
        Play(0, "free attack; end"),
        Play(1, "activate luke; card action force push; move; end"),
        Play(0, "activate Stormtroopers; aim; end"),
        Play(1, "activate Rebel Troopers; dodge; end"),
        Advance(Seat(0), None),
        Advance(Seat(1), None),
        Round(2),
        AdjustUndo {
            by: 1,
            field: "Ben.units.Luke Skywalker.activated",
            value: "true",
            pointer: "/players/1/units/0/activated",
        },
        // Priority (command cards) is agreed at the table: a moderator
        // records it (a player's advance would not settle it by seat order).
        Adjust(Judge, "turn", "Ben"),
        Advance(Seat(0), None),
        Play(1, "activate Rebel Troopers; move; move; end"),
        Play(0, "activate darth; move; end"),
        Play(1, "activate Luke; attack; end"),
        Play(0, "activate Stormtroopers; end"),
        Adjust(Judge, "Ana.points", "5"),
        Adjust(Judge, "players.Ben.points", "7"),
        // Past the last round: the board decides (outside the indexed rules).
        Advance(Seat(0), Some("command")),
    ],
    winner: 1,
};

const GRAND_ARCHIVE: Game = Game {
    id: "grand-archive",
    board: include_str!("../../examples/matches/grand-archive-start.yaml"),
    names: &["Alice", "Bob"],
    steps: &[
        Round(1),
        Decide {
            by: 0,
            line: "attack with fervent at stalwart guard",
            decider: 1,
            answer: "pass",
            typed: false,
        },
        Advance(Seat(0), None),
        Advance(Seat(0), None),
        Advance(Seat(0), Some("main")),
        Round(2),
        AdjustUndo {
            by: 0,
            field: "Alice.reserve",
            value: "3",
            pointer: "/players/0/reserve",
        },
        Decide {
            by: 1,
            line: "attack with rai at fervent lancer",
            decider: 0,
            answer: "respond",
            typed: true,
        },
        // The response resolved at the table: combat is not left while
        // the Effects Stack holds it (docs/games/grand-archive.md).
        Adjust(Judge, "effects_stack", "[]"),
        Advance(Seat(1), Some("end")),
        Advance(Seat(1), Some("wake-up")),
        Round(3),
        End {
            by: 0,
            winner: 1,
            reason: "Alice concedes",
        },
    ],
    winner: 1,
};

// ------------------------------------------------------------ the transports

/// A reply as its transport showed it.
#[derive(Debug, Default)]
struct Shown {
    title: String,
    text: String,
    /// Only the caller sees it.
    private: bool,
    /// Decision (and other) buttons: (label, what presses it).
    buttons: Vec<(String, String)>,
}

/// A `/match` subcommand as each transport writes it.
enum Cmd<'a> {
    Start,
    Setup,
    Play(&'a str),
    Advance(Option<&'a str>),
    Adjust(&'a str, &'a str, &'a str),
    Undo,
    End(String, &'a str),
    /// `/match answer` with the option's words.
    Answer(&'a str),
    Board,
    Verify,
}

/// A transport the whole match is played through.
trait Table {
    /// How `/match end winner:` names the seat.
    fn mention(&self, seat: usize) -> String;
    async fn send(&mut self, who: Who, cmd: Cmd<'_>) -> Shown;
    /// Presses a button of a reply (its second field) as `who`.
    async fn press(&mut self, who: Who, button: &str) -> Shown;
    /// Checks that the play `shown` told `seat` it is their decision.
    async fn noticed(&mut self, shown: &Shown, seat: usize);
}

/// The match as the database holds it.
struct Db {
    matches: Matches,
    channel: String,
}

impl Db {
    async fn open(url: &str, channel: &str) -> Db {
        Db {
            matches: Matches::new(Store::connect(url).await.expect("the database opens")),
            channel: channel.into(),
        }
    }

    async fn view(&self) -> MatchView {
        self.matches.board(&self.channel).await.expect("a match")
    }

    /// The kinds of the events on record.
    async fn events(&self, v: &MatchView) -> Vec<EventKind> {
        let store = self.matches.store();
        let events = store.events(v.match_id, 1, v.version).await.unwrap();
        events.iter().map(|e| e.kind).collect()
    }

    async fn at(&self, pointer: &str) -> Value {
        let v = self.view().await;
        v.board
            .unwrap_or_default()
            .pointer(pointer)
            .cloned()
            .unwrap_or_default()
    }
}

/// A public reply whose title starts with `title`.
fn public(s: &Shown, title: &str) {
    assert!(!s.private, "a public reply expected: {s:#?}");
    assert!(s.title.starts_with(title), "`{title}…` expected: {s:#?}");
}

/// Seats named in a reply are named as mentions (Discord shows the member),
/// never as raw ids.
fn no_raw_ids(s: &Shown, names: &[&str]) {
    for seat in 0..names.len() {
        let id = http_user(Seat(seat), names).0;
        let raw = s.text.matches(&id).count();
        let mentions = s.text.matches(&format!("<@{id}>")).count();
        assert_eq!(raw, mentions, "a raw id in {s:#?}");
    }
}

/// The button whose label is `label`.
fn labelled<'a>(s: &'a Shown, label: &str) -> &'a str {
    s.buttons
        .iter()
        .find(|(l, _)| l.eq_ignore_ascii_case(label))
        .map(|(_, id)| id.as_str())
        .unwrap_or_else(|| panic!("no button `{label}`: {s:#?}"))
}

/// Plays `game` through `t`, checking each reply against the database.
async fn whole_match(t: &mut impl Table, game: &Game, db: &Db) {
    public(&t.send(Seat(0), Cmd::Start).await, "Match #");
    let mut s = t.send(Seat(0), Cmd::Setup).await;
    assert!(!s.private, "{s:#?}");
    // A player's starting board sets every seat's standing: each other
    // player confirms it before anything is played.
    for seat in 1..game.names.len() {
        s = t.press(Seat(seat), labelled(&s, "confirm")).await;
        assert!(!s.private, "{s:#?}");
    }
    assert_eq!(db.view().await.version, game.names.len() as i64);
    assert!(db.view().await.pending.is_none());
    for step in game.steps {
        eprintln!("{}: {step:?}", game.id);
        play_step(t, game, db, *step).await;
    }
    // Ended with the result on record, shown by `/match board`.
    let v = db.view().await;
    assert_eq!(v.status, MatchStatus::Ended, "{v:#?}");
    let result = v.result.clone().expect("a result");
    assert_eq!(result.winner.as_deref(), Some(game.names[game.winner]));
    let s = t.send(Seat(0), Cmd::Board).await;
    let winner = game.names[game.winner];
    assert!(
        s.text.contains("ended") && s.text.contains(winner),
        "{s:#?}"
    );
    let s = t.send(Judge, Cmd::Verify).await;
    assert!(s.title.contains("the log replays"), "{s:#?}");
    reimported(db, &v).await;
    let log = db.events(&v).await;
    for kind in [
        EventKind::Answer,
        EventKind::Advance,
        EventKind::Adjust,
        EventKind::Undo,
    ] {
        assert!(log.contains(&kind), "{kind:?} in the log: {log:?}");
    }
}

/// The match's export imports (in another channel) to the same board and
/// result, the whole log replayed.
async fn reimported(db: &Db, v: &MatchView) {
    let x = db.matches.export(&db.channel).await.unwrap();
    let users: Vec<String> = v.seats.iter().map(|s| s.user.clone()).collect();
    let copy = Caller::new(format!("{}-copy", db.channel), users[0].clone(), false);
    db.matches.start(&copy, &v.game, &users).await.unwrap();
    // A player may not import a log (docs/MATCHES.md); a moderator may.
    assert!(matches!(
        db.matches.setup(&copy, &x.yaml).await,
        Err(MatchError::Forbidden { .. })
    ));
    let moderator = Caller::new(format!("{}-copy", db.channel), "judge", true);
    let w = store_common::setup_as_judge(&db.matches, &moderator, &x.yaml)
        .await
        .unwrap();
    assert_eq!((&w.board, w.version), (&v.board, v.version));
    assert_eq!((w.status, &w.result), (MatchStatus::Ended, &v.result));
}

/// One step, checked against the database.
async fn play_step(t: &mut impl Table, game: &Game, db: &Db, step: Step) {
    let before = db.view().await;
    let v = before.version;
    match step {
        Play(seat, line) => {
            let s = t.send(Seat(seat), Cmd::Play(line)).await;
            public(&s, "Play #");
            assert!(s.title.contains("the play is legal"), "{line}: {s:#?}");
            let now = db.view().await;
            assert_eq!(now.version, v + 1, "{line}");
            assert!(now.pending.is_none(), "{line}: {:?}", now.pending);
        }
        Decide { .. } => decide(t, game, db, step).await,
        Advance(who, to) => {
            let s = t.send(who, Cmd::Advance(to)).await;
            public(&s, "Advance #");
            assert!(s.title.contains("the match moves on"), "{s:#?}");
            assert!(s.text.contains("outside the indexed rules"), "{s:#?}");
            assert_eq!(db.view().await.version, v + 1);
        }
        AdjustUndo {
            by,
            field,
            value,
            pointer,
        } => adjust_and_undo(t, game, db, by, (field, value, pointer)).await,
        Adjust(who, field, value) => {
            let s = t
                .send(who, Cmd::Adjust(field, value, "table agreement"))
                .await;
            public(&s, "Match: adjust #");
            assert_eq!(db.view().await.version, v + 1);
        }
        Round(n) => {
            let status = before.game_status.expect("the engine reads the board");
            assert_eq!(status.round, Some(n), "{status:?}");
        }
        End { by, winner, reason } => {
            let winner = t.mention(winner);
            let s = t.send(Seat(by), Cmd::End(winner, reason)).await;
            assert!(!s.private && s.text.contains("ended"), "{s:#?}");
            let result = db.view().await.result.expect("a result");
            assert!(result.reason.contains(reason), "{result:?}");
        }
    }
}

/// An adjust of the player's own field, shown to all, refused to another
/// player's undo and taken back by its author's.
async fn adjust_and_undo(
    t: &mut impl Table,
    game: &Game,
    db: &Db,
    by: usize,
    (field, value, pointer): (&str, &str, &str),
) {
    let v = db.view().await.version;
    let old = db.at(pointer).await;
    let reason = "counted again at the table";
    let s = t.send(Seat(by), Cmd::Adjust(field, value, reason)).await;
    public(&s, "Match: adjust #");
    assert!(s.text.contains(reason), "{s:#?}");
    let now = db.at(pointer).await;
    match now.as_f64() {
        Some(n) => assert_eq!(Some(n), value.parse().ok(), "{field}: {now}"),
        None => {
            let typed = serde_json::from_str(value).unwrap_or_else(|_| Value::from(value));
            assert_eq!(now, typed, "{field}: {now}");
        }
    }
    assert_eq!(db.view().await.version, v + 1);
    let adjusted = snapshot(db).await;
    let other = Seat((by + 1) % game.names.len());
    let s = t.send(other, Cmd::Undo).await;
    assert!(
        s.private && s.text.contains("only they or a moderator"),
        "{s:#?}"
    );
    no_raw_ids(&s, game.names);
    assert_eq!(snapshot(db).await, adjusted, "nothing recorded");
    public(&t.send(Seat(by), Cmd::Undo).await, "Undone: event #");
    assert_eq!(db.at(pointer).await, old, "{field} restored");
}

/// A play that waits on its decider: a wrong player's answer is refused
/// and records nothing; the decider answers, with a button of the board's
/// reply or typed (`/match answer`).
async fn decide(t: &mut impl Table, game: &Game, db: &Db, step: Step) {
    let Decide {
        by,
        line,
        decider,
        answer,
        typed,
    } = step
    else {
        unreachable!("a decision step")
    };
    let v = db.view().await.version;
    let s = t.send(Seat(by), Cmd::Play(line)).await;
    public(&s, "Play #");
    assert!(s.title.contains("waiting for a decision"), "{line}: {s:#?}");
    // A play waiting on its own player's decision pings nobody: the reply
    // asks him, and a reply never pings its sender.
    if decider != by {
        t.noticed(&s, decider).await;
    }
    let p = db.view().await.pending.expect("a pending decision");
    assert_eq!(p.decision.player, game.names[decider]);
    let waiting = snapshot(db).await;
    let wrong = Seat(if by == decider {
        (by + 1) % game.names.len()
    } else {
        by
    });
    let refused = if typed {
        t.send(wrong, Cmd::Answer(answer)).await
    } else {
        t.press(wrong, labelled(&s, answer)).await
    };
    assert!(refused.private, "the wrong player is refused: {refused:#?}");
    assert!(
        refused.text.contains("only they or a moderator"),
        "{refused:#?}"
    );
    no_raw_ids(&refused, game.names);
    assert_eq!(snapshot(db).await, waiting, "nothing recorded");
    let still = db.view().await.pending.map(|p| p.decision);
    assert_eq!(still, Some(p.decision), "the same question waits");
    let s = if typed {
        t.send(Seat(decider), Cmd::Answer(answer)).await
    } else {
        // The board shows the question again, with its buttons.
        let b = t.send(Seat(decider), Cmd::Board).await;
        t.press(Seat(decider), labelled(&b, answer)).await
    };
    public(&s, "Answer #");
    let now = db.view().await;
    assert_eq!(now.version, v + 2);
    assert!(now.pending.is_none(), "{:?}", now.pending);
}

/// The users of the HTTP tests: Discord ids, named as the board names them.
fn http_user(who: Who, names: &[&str]) -> (String, String, bool) {
    match who {
        Seat(i) => (
            format!("13000000000000005{i:02}"),
            names[i].to_string(),
            false,
        ),
        Judge => ("1300000000000000599".into(), "Judge".into(), true),
        Stranger => ("1300000000000000598".into(), "Stranger".into(), false),
    }
}

/// Signed interactions to the in-process server.
struct Http<'a> {
    server: Server,
    game: &'a Game,
    /// The last interaction's token (its ping is a follow-up of it).
    last: String,
}

impl Http<'_> {
    fn shown(v: &Value) -> Shown {
        Shown {
            title: title(v),
            text: desc(v),
            private: ephemeral(v),
            buttons: buttons(v),
        }
    }

    async fn interact(&mut self, who: Who, payload: Value) -> Shown {
        let (id, name, moderator) = http_user(who, self.game.names);
        let perms = if moderator {
            MODERATOR_PERMISSIONS
        } else {
            PLAYER_PERMISSIONS
        };
        let payload = as_member(payload, &id, &name, perms);
        self.last = payload["token"].as_str().unwrap().to_string();
        let v = self.server.post(&payload).await;
        let v = if v["type"] == 5 {
            self.server.fake.delivered(&self.last).await.as_response()
        } else {
            v
        };
        Http::shown(&v)
    }
}

impl Table for Http<'_> {
    fn mention(&self, seat: usize) -> String {
        format!("<@{}>", http_user(Seat(seat), self.game.names).0)
    }

    async fn send(&mut self, who: Who, cmd: Cmd<'_>) -> Shown {
        let payload = match cmd {
            Cmd::Start => {
                let users: Vec<(String, String)> = (0..self.game.names.len())
                    .map(|i| {
                        let (id, name, _) = http_user(Seat(i), self.game.names);
                        (id, name)
                    })
                    .collect();
                let refs: Vec<(&str, &str)> = users
                    .iter()
                    .map(|(a, b)| (a.as_str(), b.as_str()))
                    .collect();
                match_start(self.game.id, &refs)
            }
            Cmd::Setup => match_sub("setup", vec![opt("board", self.game.board)]),
            Cmd::Play(line) => match_sub("play", vec![opt("text", line)]),
            Cmd::Advance(to) => {
                match_sub("advance", to.map(|t| opt("to", t)).into_iter().collect())
            }
            Cmd::Adjust(field, value, reason) => match_sub(
                "adjust",
                vec![
                    opt("field", field),
                    opt("value", value),
                    opt("reason", reason),
                ],
            ),
            Cmd::Undo => match_sub("undo", vec![]),
            Cmd::End(winner, reason) => {
                let id = winner.trim_start_matches("<@").trim_end_matches('>');
                let user = json!({ "name": "winner", "type": 6, "value": id });
                let mut v = match_sub("end", vec![user, opt("reason", reason)]);
                v["data"]["resolved"] = json!({ "users": { id: user_with(id, "Winner") } });
                v
            }
            Cmd::Answer(words) => match_sub("answer", vec![opt("choice", words)]),
            Cmd::Board => match_sub("board", vec![]),
            Cmd::Verify => match_sub("verify", vec![]),
        };
        self.interact(who, payload).await
    }

    async fn press(&mut self, who: Who, custom_id: &str) -> Shown {
        assert!(custom_id.starts_with("decide:"), "{custom_id}");
        self.interact(who, button(custom_id)).await
    }

    async fn noticed(&mut self, _: &Shown, seat: usize) {
        let id = http_user(Seat(seat), self.game.names).0;
        let ping = self
            .server
            .fake
            .ping(&self.last)
            .await
            .expect("a turn notice follows the reply");
        only_pings(&ping, &id);
        assert!(
            ping["content"].as_str().unwrap().contains("your decision"),
            "{ping}"
        );
    }
}

/// A turn notice that mentions `id` and can ping no one else: the users
/// listed are exactly `id`, nothing is parsed from the text (no everyone,
/// no roles), no role is listed, no reply is pinged.
fn only_pings(ping: &Value, id: &str) {
    let content = ping["content"].as_str().unwrap_or_default();
    assert!(content.starts_with(&format!("<@{id}> ")), "{ping}");
    assert_eq!(
        ping["allowed_mentions"],
        json!({ "parse": [], "roles": [], "users": [id] }),
        "{ping}"
    );
}

async fn http_match(game: &Game, url: String) {
    let db = Db::open(&url, CHANNEL_ID).await;
    let mut t = Http {
        server: Server::on(&url).await,
        game,
        last: String::new(),
    };
    whole_match(&mut t, game, &db).await;
    t.server.server.stop().await.unwrap();
}

// ---- the console: one session, users switched with `/as` ----

/// Lines for the console thread's stdin.
struct Lines {
    rx: mpsc::Receiver<String>,
    pending: Vec<u8>,
}

impl Read for Lines {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            match self.rx.recv() {
                Ok(s) => self.pending = s.into_bytes(),
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// What the console wrote.
#[derive(Clone, Default)]
struct Screen(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Screen {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `arbiter console` in a thread, fed line by line.
struct Console<'a> {
    tx: Option<mpsc::Sender<String>>,
    screen: Screen,
    read: usize,
    game: &'a Game,
    thread: Option<std::thread::JoinHandle<usize>>,
}

fn console_user(who: Who, names: &[&str]) -> String {
    match who {
        Seat(i) => names[i].to_lowercase(),
        Judge => "judge moderator".into(),
        Stranger => "stranger".into(),
    }
}

impl<'a> Console<'a> {
    fn start(url: &str, game: &'a Game) -> Console<'a> {
        let (tx, rx) = mpsc::channel();
        let screen = Screen::default();
        let out = screen.clone();
        let url = url.to_string();
        let thread = std::thread::spawn(move || {
            let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
            let app = arbiter::app::App::load(&root.join("rules_data"), &[]).expect("rule data");
            let bot = arbiter::bot::Bot::new(
                Arc::new(app),
                arbiter::bot::BotConfig {
                    database_url: Some(url),
                    ..arbiter::bot::BotConfig::default()
                },
            );
            let mut input = std::io::BufReader::new(Lines {
                rx,
                pending: Vec::new(),
            });
            let input: &mut dyn BufRead = &mut input;
            let session = arbiter::bot::console::Session::default();
            arbiter::bot::console::run_as(&bot, &session, input, &mut out.clone(), false, false)
                .unwrap()
        });
        Console {
            tx: Some(tx),
            screen,
            read: 0,
            game,
            thread: Some(thread),
        }
    }

    /// Types `line` as `who`; the reply is what it printed before the
    /// marker (`/as` again, which prints "now acting as …").
    fn line(&mut self, who: Who, line: &str) -> Shown {
        let user = console_user(who, self.game.names);
        let marker = format!(
            "now acting as {}\n",
            user.replace(" moderator", " (moderator)")
        );
        let tx = self.tx.as_ref().unwrap();
        tx.send(format!("/as {user}\n{line}\n/as {user}\n"))
            .unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        let text = loop {
            let seen =
                String::from_utf8_lossy(&self.screen.0.lock().unwrap()[self.read..]).into_owned();
            if let Some(first) = seen.find(&marker)
                && let Some(second) = seen[first + marker.len()..].find(&marker)
            {
                let start = first + marker.len();
                self.read += start + second + marker.len();
                break seen[start..start + second].to_string();
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the console did not answer `{line}`:\n{seen}"
            );
            std::thread::sleep(Duration::from_millis(5));
        };
        console_shown(&text)
    }
}

/// A console reply: `== title ==`, the body, `buttons (type the number): [1] …`.
fn console_shown(text: &str) -> Shown {
    let head = text
        .lines()
        .find(|l| l.starts_with("== "))
        .unwrap_or_default();
    let private = head.contains("(only you see this)");
    let title = head
        .trim_start_matches("== ")
        .trim_end_matches(" ==")
        .trim_end_matches(" (only you see this)")
        .to_string();
    let buttons = text
        .lines()
        .find_map(|l| l.strip_prefix("buttons (type the number): "))
        .map(|l| {
            let mut out = Vec::new();
            let mut rest = l;
            for n in 1.. {
                let Some(at) = rest.find(&format!("[{n}] ")) else {
                    break;
                };
                rest = &rest[at + format!("[{n}] ").len()..];
                let end = rest.find(&format!("  [{}] ", n + 1)).unwrap_or(rest.len());
                out.push((rest[..end].trim().to_string(), n.to_string()));
            }
            out
        })
        .unwrap_or_default();
    Shown {
        title,
        text: text.to_string(),
        private,
        buttons,
    }
}

impl Drop for Console<'_> {
    fn drop(&mut self) {
        self.tx.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Table for Console<'_> {
    fn mention(&self, seat: usize) -> String {
        console_user(Seat(seat), self.game.names)
    }

    async fn send(&mut self, who: Who, cmd: Cmd<'_>) -> Shown {
        let line = match cmd {
            Cmd::Start => {
                let players: Vec<String> = (0..self.game.names.len())
                    .map(|i| format!("player{}:{}", i + 1, console_user(Seat(i), self.game.names)))
                    .collect();
                format!("/match start game:{} {}", self.game.id, players.join(" "))
            }
            // The game's starting board, read from its file.
            Cmd::Setup => format!(
                "/match setup file:{}/examples/matches/{}-start.yaml",
                env!("CARGO_MANIFEST_DIR"),
                self.game.id
            ),
            Cmd::Play(line) => format!("/match play {line}"),
            Cmd::Advance(to) => format!(
                "/match advance{}",
                to.map(|t| format!(" to:{t}")).unwrap_or_default()
            ),
            Cmd::Adjust(field, value, reason) => {
                format!("/match adjust field:{field} value:{value} reason:{reason}")
            }
            Cmd::Undo => "/match undo".into(),
            Cmd::End(winner, reason) => format!("/match end winner:{winner} reason:{reason}"),
            Cmd::Answer(words) => format!("/match answer {words}"),
            Cmd::Board => "/match board".into(),
            Cmd::Verify => "/match verify".into(),
        };
        self.line(who, &line)
    }

    async fn press(&mut self, who: Who, number: &str) -> Shown {
        self.line(who, number)
    }

    async fn noticed(&mut self, shown: &Shown, seat: usize) {
        // The console names the seat by its board name (and user).
        let name = self.game.names[seat];
        let waiting = format!("waiting for {name}");
        assert!(
            shown.text.contains(&waiting),
            "`{waiting}` expected: {shown:#?}"
        );
        let s = self.line(Seat(seat), "/match board");
        let want = format!(
            "next: {name} ({}) decides",
            console_user(Seat(seat), self.game.names)
        );
        assert!(s.text.contains(&want), "`{want}` expected:\n{}", s.text);
    }
}

async fn console_match(game: &Game, url: String) {
    let db = Db::open(&url, arbiter::bot::matchcmd::CONSOLE_CHANNEL).await;
    let mut t = Console::start(&url, game);
    whole_match(&mut t, game, &db).await;
    drop(t);
}

macro_rules! whole {
    ($($name:ident: $game:expr;)*) => {$(
        mod $name {
            use super::*;
            async fn console(url: String) {
                console_match(&$game, url).await;
            }
            async fn http(url: String) {
                http_match(&$game, url).await;
            }
            both!(console);
            both!(http);
        }
    )*};
}

whole! {
    ashes: ASHES;
    ti4: TI4;
    magewinds: MAGEWINDS;
    legion: LEGION;
    grand_archive: GRAND_ARCHIVE;
}

// ------------------------------------------------------- bad input over HTTP

async fn http_table(url: &str, game: &'static Game) -> (Http<'static>, Db) {
    let db = Db::open(url, CHANNEL_ID).await;
    let mut t = Http {
        server: Server::on(url).await,
        game,
        last: String::new(),
    };
    public(&t.send(Seat(0), Cmd::Start).await, "Match #");
    let mut s = t.send(Seat(0), Cmd::Setup).await;
    assert!(!s.private);
    for seat in 1..game.names.len() {
        s = t.press(Seat(seat), labelled(&s, "confirm")).await;
    }
    (t, db)
}

/// What a refused request must leave alone: the version, the question
/// waiting, the log.
async fn snapshot(db: &Db) -> (i64, Option<String>, usize) {
    let v = db.view().await;
    let log = db.matches.log(&db.channel, None).await.unwrap();
    (
        v.version,
        v.pending.map(|p| p.decision.key),
        log.entries.len(),
    )
}

both!(forged_stale_and_foreign_decision_buttons_record_nothing);
async fn forged_stale_and_foreign_decision_buttons_record_nothing(url: String) {
    let (mut t, db) = http_table(&url, &ASHES).await;
    let s = t
        .send(Seat(0), Cmd::Play("attack Maeoni with Hammer Knight"))
        .await;
    let real = labelled(&s, "no blocker").to_string();
    let n = s
        .buttons
        .iter()
        .filter(|(_, id)| id.starts_with("decide:"))
        .count();
    let parts: Vec<i64> = real
        .trim_start_matches("decide:")
        .split(':')
        .map(|p| p.parse().unwrap())
        .collect();
    let (m, v, i) = (parts[0], parts[1], parts[2]);
    assert_eq!(v, db.view().await.version, "the button quotes the version");
    let waiting = snapshot(&db).await;
    assert!(waiting.1.is_some());
    let forged = [
        "decide:garbage".to_string(),
        "decide:".into(),
        format!("decide:{m}:{v}"),
        format!("decide:{m}:{v}:{i}:0"),
        format!("decide:{}:{v}:{i}", m + 1),
        format!("decide:-1:{v}:{i}"),
        format!("decide:{m}:{}:{i}", v - 1),
        format!("decide:{m}:{}:{i}", v + 1),
        format!("decide:{m}:{v}:{n}"),
        format!("decide:{m}:{v}:99999999999999999999"),
    ];
    for id in &forged {
        let r = t.interact(Seat(1), button(id)).await;
        assert!(r.private, "{id}: {r:#?}");
        assert_eq!(snapshot(&db).await, waiting, "{id} recorded something");
    }
    // The real button, pressed by the attacker and by a stranger.
    for who in [Seat(0), Stranger] {
        let r = t.interact(who, button(&real)).await;
        assert!(r.private, "{who:?}: {r:#?}");
        assert!(r.text.contains("only they or a moderator"), "{r:#?}");
        no_raw_ids(&r, ASHES.names);
        assert_eq!(snapshot(&db).await, waiting);
    }
    // Answered; the same button again: that decision no longer exists.
    public(&t.press(Seat(1), &real).await, "Answer #");
    let answered = snapshot(&db).await;
    assert_eq!((answered.0, answered.1.as_deref()), (v + 1, None));
    let r = t.press(Seat(1), &real).await;
    assert!(r.private && r.text.contains("decision"), "{r:#?}");
    assert_eq!(snapshot(&db).await, answered);
    // Her undo asks the question again, at a new version: the old button
    // is stale; the new one (on the undo's reply) answers it.
    let s = t.send(Seat(1), Cmd::Undo).await;
    public(&s, "Undone: event #");
    let asked = snapshot(&db).await;
    assert_eq!((asked.0, asked.1.as_deref()), (v + 2, waiting.1.as_deref()));
    let r = t.press(Seat(1), &real).await;
    assert!(r.private, "{r:#?}");
    assert_eq!(snapshot(&db).await, asked, "a stale button records nothing");
    let fresh = labelled(&s, "no blocker");
    assert_eq!(fresh, format!("decide:{m}:{}:{i}", v + 2));
    public(&t.press(Seat(1), fresh).await, "Answer #");
    let answered = snapshot(&db).await;
    assert_eq!((answered.0, answered.1.as_deref()), (v + 3, None));

    // An unknown field: did you mean, nothing recorded.
    let r = t
        .send(
            Seat(0),
            Cmd::Adjust("Coal.phoenixborn.damge", "3", "Molten Gold"),
        )
        .await;
    assert!(r.private, "{r:#?}");
    assert!(r.text.contains("did you mean `damage`"), "{r:#?}");
    let r = t
        .send(
            Seat(0),
            Cmd::Adjust("Coal.phoenixbron.damage", "3", "Molten Gold"),
        )
        .await;
    assert!(
        r.private && r.text.contains("did you mean `phoenixborn`"),
        "{r:#?}"
    );
    assert_eq!(snapshot(&db).await, answered);
    t.server.server.stop().await.unwrap();
}

both!(an_advance_the_rules_forbid_says_why_with_the_rule);
async fn an_advance_the_rules_forbid_says_why_with_the_rule(url: String) {
    let (mut t, db) = http_table(&url, &TI4).await;
    public(
        &t.send(Seat(0), Cmd::Play("Ana strategic Leadership")).await,
        "Play #",
    );
    let before = snapshot(&db).await;
    // Ana's turn still (her strategic action is done, her turn not ended):
    // Ben may not move the match on.
    let r = t.send(Seat(1), Cmd::Advance(None)).await;
    assert!(r.private, "{r:#?}");
    let ana = t.mention(0);
    assert!(
        r.text.contains(&format!("it is Ana's turn ({ana})")),
        "{r:#?}"
    );
    no_raw_ids(&r, TI4.names);
    assert_eq!(snapshot(&db).await, before, "nothing recorded");
    // Ana, and a moderator: the rules forbid it, and the reply says why.
    for who in [Seat(0), Judge] {
        let r = t.send(who, Cmd::Advance(None)).await;
        public(&r, "Not recorded (ti4): the match cannot move on yet");
        assert!(r.text.contains("`ti4:action-phase.5`"), "{r:#?}");
        assert!(
            r.text.contains(
                "only after all players have passed; still to act, in initiative order: Ana, Ben and Cleo"
            ),
            "{r:#?}"
        );
        assert_eq!(snapshot(&db).await, before, "nothing recorded");
    }
    t.server.server.stop().await.unwrap();
}

// ------------------------------------------------------------- turn notices

/// The follow-ups of interaction `token` that carry content (turn notices).
fn notices(t: &Http<'_>) -> Vec<Value> {
    t.server
        .fake
        .recorded
        .lock()
        .unwrap()
        .followups
        .iter()
        .filter(|(tok, v)| *tok == t.last && v["content"].is_string())
        .map(|(_, v)| v.clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_notice_pings_only_the_player_whose_turn_or_decision_it_is() {
    let (url, _dir) = store_common::sqlite_url();
    let (mut t, _db) = http_table(&url, &ASHES).await;
    let (coal, maeoni) = (
        http_user(Seat(0), ASHES.names).0,
        http_user(Seat(1), ASHES.names).0,
    );
    // Coal's attack waits on Maeoni: she alone is pinged, with the question.
    t.send(Seat(0), Cmd::Play("attack Maeoni with Hammer Knight"))
        .await;
    let ping = t.server.fake.ping(&t.last).await.expect("a notice");
    only_pings(&ping, &maeoni);
    let content = ping["content"].as_str().unwrap();
    assert!(
        content.contains("your decision (Maeoni)") && content.contains("Hammer Knight"),
        "{content}"
    );
    assert!(!content.contains(&coal), "{content}");
    // The reply itself (the edit of the deferred message) pings nobody.
    let edit = t.server.edit_for(&t.last).await;
    assert_eq!(
        edit["allowed_mentions"],
        json!({ "parse": [], "roles": [], "users": [] }),
        "{edit}"
    );
    assert_eq!(notices(&t).len(), 1, "one notice");
    // A switch of the match's replies pings nobody: Coal could otherwise
    // ping her again and again with `/match notify on` (public, unlike a
    // look at the board, which only its caller sees).
    let on = match_sub("notify", vec![opt("state", "on")]);
    let r = t.interact(Seat(0), on).await;
    assert!(!r.private && r.text.contains("next: Maeoni"), "{r:#?}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(notices(&t).is_empty(), "{:?}", notices(&t));
    // Nor would a look at the board, answered at once here, where no reply
    // sends a ping: `matchcmd::tests` hold `add_turn_ping` to it.
    // Her answer hands her the turn: she sent it, so nobody is pinged.
    let b = t.send(Seat(1), Cmd::Board).await;
    let answered = t.press(Seat(1), labelled(&b, "no blocker")).await;
    assert!(answered.text.contains("next: Maeoni"), "{}", answered.text);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(notices(&t).is_empty(), "{:?}", notices(&t));
    // Coal turns his own turn notices off (the board says so): her pass
    // hands him the turn without a ping. It had pinged him.
    let off = match_sub("notify", vec![opt("state", "off")]);
    let r = t.interact(Seat(0), off).await;
    assert!(!r.private, "{r:#?}");
    assert!(r.text.contains("(turn notices off)"), "{}", r.text);
    let passed = t.send(Seat(1), Cmd::Play("pass")).await;
    public(&passed, "Play #");
    assert!(passed.text.contains("next: Coal"), "{}", passed.text);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(notices(&t).is_empty(), "{:?}", notices(&t));
    t.server.server.stop().await.unwrap();
}

/// An undo that gives the turn back to its author pings nobody: he is
/// looking at it (an outside tester's "<@Coal> your turn" to Coal himself).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undo_does_not_ping_its_own_author() {
    let (url, _dir) = store_common::sqlite_url();
    let (mut t, _db) = http_table(&url, &ASHES).await;
    let maeoni = http_user(Seat(1), ASHES.names).0;
    t.send(Seat(0), Cmd::Play("pass")).await;
    let ping = t.server.fake.ping(&t.last).await.expect("her turn notice");
    only_pings(&ping, &maeoni);
    let undone = t.send(Seat(0), Cmd::Undo).await;
    assert!(undone.text.contains("next: Coal"), "{}", undone.text);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(notices(&t).is_empty(), "{:?}", notices(&t));
    t.server.server.stop().await.unwrap();
}

/// `notify off` silences its player's own turn notices, not a decision:
/// the player it waits on is pinged, since its default applies without her
/// (one player turned the notices off and won on a timeout his opponent was
/// never told of; found by an outside tester), nor the other player's turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notices_off_still_ping_the_player_a_decision_waits_on() {
    let (url, _dir) = store_common::sqlite_url();
    let (mut t, _db) = http_table(&url, &ASHES).await;
    let (coal, maeoni) = (
        http_user(Seat(0), ASHES.names).0,
        http_user(Seat(1), ASHES.names).0,
    );
    // Coal turns his own turn notices off: Maeoni's stay on, so his pass
    // tells her it is her turn.
    let off = match_sub("notify", vec![opt("state", "off")]);
    let r = t.interact(Seat(0), off).await;
    assert!(!r.private, "{r:#?}");
    t.send(Seat(0), Cmd::Play("pass")).await;
    let ping = t.server.fake.ping(&t.last).await.expect("her turn notice");
    only_pings(&ping, &maeoni);
    let content = ping["content"].as_str().unwrap();
    assert!(content.contains("your turn (Maeoni)"), "{ping}");
    // "your turn" is said once (issue 28, item 10).
    assert_eq!(content.matches("your turn").count(), 1, "{ping}");
    // Her attack waits on Coal: a decision pings him, notices off or not.
    t.send(Seat(1), Cmd::Play("attack Coal with Frostback Bear"))
        .await;
    let ping = t.server.fake.ping(&t.last).await.expect("a notice");
    only_pings(&ping, &coal);
    assert!(
        ping["content"]
            .as_str()
            .unwrap()
            .contains("your decision (Coal)"),
        "{ping}"
    );
    let b = t.send(Seat(0), Cmd::Board).await;
    t.press(Seat(0), labelled(&b, "no blocker")).await;
    // A win Maeoni claims is a question for him too (a reply that is the
    // match, not an event): he is pinged.
    let claim = match_sub(
        "end",
        vec![
            opt(
                "winner",
                &format!("<@{}>", http_user(Seat(1), ASHES.names).0),
            ),
            opt("reason", "I win"),
        ],
    );
    t.interact(Seat(1), claim).await;
    let ping = t.server.fake.ping(&t.last).await.expect("a notice");
    only_pings(&ping, &coal);
    t.server.server.stop().await.unwrap();
}

/// Ana's Pyromancer has two attacks, one named with a number first.
const NUMBERED: Game = Game {
    id: "magewinds",
    board: "game: magewinds
round: 1
phase: action
turn: Ana
first_to_pass: Ana
players:
  - name: Ana
    fighters:
      - {name: Pyromancer, movement: 5, position: [10, 4], attacks: [3 Flames, Fire Bolt]}
  - name: Bram
    fighters:
      - {name: Stonewarden, movement: 4, position: [12, 10], attacks: [Maul]}
",
    names: &["Ana", "Bram"],
    steps: &[],
    winner: 0,
};

/// A button's option is a position, never read as words: one past the
/// last option is refused even where an answer's words start with its
/// number.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_option_past_the_last_is_refused_whatever_the_labels() {
    let (url, _dir) = store_common::sqlite_url();
    let (mut t, db) = http_table(&url, &NUMBERED).await;
    let s = t
        .send(Seat(0), Cmd::Play("activate Pyromancer attack Stonewarden"))
        .await;
    let labels: Vec<&str> = s.buttons.iter().map(|(l, _)| l.as_str()).collect();
    assert!(labels.starts_with(&["3 Flames", "Fire Bolt"]), "{s:#?}");
    let first = labelled(&s, "3 Flames").to_string();
    let (head, _) = first.rsplit_once(':').unwrap();
    let waiting = snapshot(&db).await;
    // Option 2 (the third) is button `3`: not the attack "3 Flames".
    let r = t.press(Seat(0), &format!("{head}:2")).await;
    assert!(r.private, "{r:#?}");
    assert_eq!(snapshot(&db).await, waiting, "nothing recorded");
    public(&t.press(Seat(0), &first).await, "Answer #");
    t.server.server.stop().await.unwrap();
}
