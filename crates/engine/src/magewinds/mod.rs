//! Magewinds: the Action Phase (Core Rules v1.1.1, 13.0–13.5) as an
//! executable procedure, on the engine kit.
//!
//! A board lists the round and its phase, whose turn it is (or that no turn
//! has been taken yet and who was first to pass in the Channelling Phase),
//! and the players' fighters (Movement, action counter, position, Guard,
//! attacks, reactions, what each can see). A play is an activation or a
//! reaction. See `docs/games/magewinds.md`.

pub mod board;
mod notation;
pub mod plays;
mod procedure;
pub mod rules;
mod wording;

use crate::kit::{Better, Cx, Game, Kit, MinPlayers, Phase, Reset, Set, Stop};
use crate::{BoardError, RuleUse, Status};
use serde_json::Value;
use wording::{Fault, Notice, TurnStep};

pub use board::Board;
pub use plays::Play;

/// The Magewinds engine.
pub struct Magewinds;

/// The registered instance.
pub const ENGINE: Kit<Magewinds> = Kit::new();

/// A new round: what the indexed text does not say is reset (outside the
/// indexed rules; the players adjust the board if their table differs).
const ROUND_RESETS: &[Reset] = &[
    Reset {
        field: "players[].fighters[].counter",
        value: Set::Word("none"),
        what: "action counters removed",
    },
    Reset {
        field: "players[].fighters[].guard",
        value: Set::False,
        what: "Guard cleared",
    },
    Reset {
        field: "first_to_pass",
        value: Set::Null,
        what: "who passed first cleared (record it with `first_to_pass` during the Channelling Phase)",
    },
    Reset {
        field: "last_action",
        value: Set::Null,
        what: "last action cleared",
    },
];

impl Game for Magewinds {
    const ID: &'static str = "magewinds";
    const MIN_PLAYERS: MinPlayers = MinPlayers {
        count: 2,
        source: "the indexed rules state no player count; read as two or more: they are \"Free Rules for Magical Duels\" and players \"take it in turns\" (magewinds:13.0)",
    };
    type Board = Board;
    type Play = Play;

    const BOARD_READS: &'static [&'static str] = &[
        "game",
        "round",
        "phase",
        "first_turn",
        "first_to_pass",
        "turn",
        "players",
        "last_action",
    ];

    /// A round: the Channelling Phase (not indexed), the Action Phase, and
    /// its end (13.5), after which a new round begins.
    /// A fighter's movement (more is better); any other change of a
    /// player's own fighters asks the others.
    const STANDING: &'static [(&'static str, Better)] =
        &[("players[].fighters[].movement", Better::Higher)];

    const PHASES: &'static [Phase] = &[
        Phase {
            id: "channelling",
            name: "Channelling Phase of the next round",
            rule: None,
            new_round: true,
            resets: ROUND_RESETS,
        },
        Phase {
            id: "action",
            name: "Action Phase",
            rule: None,
            new_round: false,
            resets: &[Reset {
                field: "first_turn",
                value: Set::True,
                what: "no turn taken yet",
            }],
        },
        Phase {
            id: "end",
            name: "end of the Action Phase",
            rule: Some(rules::END),
            new_round: false,
            resets: &[],
        },
    ];

    fn rule_uses() -> &'static [RuleUse] {
        rules::RULE_USES
    }

    fn validate(b: &mut Board) -> Result<(), BoardError> {
        board::validate(b)
    }

    fn players(b: &Board) -> Vec<String> {
        b.players.iter().map(|p| p.name.to_string()).collect()
    }

    fn actor(b: &Board, play: &Play) -> Result<Option<usize>, BoardError> {
        procedure::actor(b, play).map(Some)
    }

    fn play(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<(), Stop> {
        procedure::run(b, play, cx)
    }

    fn play_reads(_: &Play) -> &'static [&'static str] {
        plays::READS
    }

    /// No result: the indexed text ends with the Action Phase and the board
    /// records no fighter's health, so a match ends by agreement.
    fn status(b: &Board) -> Status {
        let turn = (b.phase == board::Phase::Action)
            .then(|| b.turn_seat())
            .flatten();
        Status {
            phase: match b.phase {
                board::Phase::Channelling => "Channelling Phase",
                board::Phase::Action => "Action Phase",
                board::Phase::End => "end of the Action Phase",
            }
            .into(),
            round: Some(*b.round),
            turn: turn.map(|t| b.name(t)),
            turn_seat: turn,
            result: None,
            out: Vec::new(),
        }
    }

    fn before_advance(b: &Board, cx: &mut Cx) {
        let ready: Vec<&str> = (0..b.players.len()).flat_map(|p| b.ready(p)).collect();
        if b.phase == board::Phase::Action && !ready.is_empty() {
            let fighters = &ready;
            cx.error(rules::END, "phase", Fault::StillReady { fighters });
        }
    }

    /// On the Action Phase's first turn `turn` is `first_to_pass`'s
    /// (13.0), so correcting who was first to pass moves the turn with it:
    /// each alone was refused as disagreeing with the other (an outside
    /// tester could fix them only through `first_turn: false`, leaving
    /// `first_to_pass` wrong).
    fn carry_adjust(before: &Value, after: &mut Value, field: &crate::kit::fields::FieldPath) {
        if field.path != "first_to_pass" || before.get("first_turn") != Some(&Value::Bool(true)) {
            return;
        }
        let first = after
            .get("first_to_pass")
            .filter(|v| v.is_string())
            .cloned();
        if let (Some(first), true) = (first, before.get("turn") == before.get("first_to_pass"))
            && let Value::Object(m) = after
        {
            m.insert("turn".into(), first);
        }
    }

    fn entered(b: &mut Board, phase: &Phase, cx: &mut Cx) {
        match phase.id {
            "end" => procedure::end_phase(b, false, cx),
            "action" => match b.first_to_pass.clone() {
                Some(first) => {
                    cx.step(rules::PHASE, TurnStep::FirstTurn { player: &first });
                    b.turn = Some(first);
                }
                None => {
                    let first = b.name((*b.round as usize - 1) % b.players.len());
                    let note = Notice::FirstBySeat { player: &first }.to_string();
                    cx.unagreed("turn", "first_to_pass", note);
                    b.turn = Some(first);
                }
            },
            _ => {}
        }
    }

    fn notation(line: &str, b: &Board) -> Result<Play, BoardError> {
        notation::parse(line, b)
    }

    fn completions(partial: &str, b: &Board) -> Vec<String> {
        notation::completions(partial, b)
    }
}
