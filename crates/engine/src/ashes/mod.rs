//! Ashes Reborn: the main actions of "03 - Main Actions" (Pay a Cost, Attack
//! a Phoenixborn, Attack a Unit, Pass), executed step by step with citations.
//!
//! See `docs/games/ashes.md` for the board document and the play notation.

pub mod board;
mod notation;
pub mod plays;
mod procedure;
pub mod rules;

use crate::kit::{Cx, Game, Kit, Phase, Reset, Set, Stop};
use crate::{BoardError, GameResult, RuleUse, Status};

pub use board::Board;
pub use plays::Play;
pub use procedure::DESTROYED_ASSUMPTION;

/// The Ashes Reborn engine.
pub struct Ashes;

/// The registered instance.
pub const ENGINE: Kit<Ashes> = Kit::new();

const ROUND_RESETS: &[Reset] = &[
    Reset {
        field: "players[].units[].exhausted",
        value: Set::False,
        what: "exhaustion cleared from units",
    },
    Reset {
        field: "players[].phoenixborn.exhausted",
        value: Set::False,
        what: "exhaustion cleared from Phoenixborn",
    },
    Reset {
        field: "main_action_used",
        value: Set::False,
        what: "no main action used",
    },
    Reset {
        field: "consecutive_passes",
        value: Set::Empty,
        what: "passes cleared",
    },
];

impl Game for Ashes {
    const ID: &'static str = "ashes";
    type Board = Board;
    type Play = Play;

    const BOARD_READS: &'static [&'static str] = &[
        "game",
        "round",
        "phase",
        "turn",
        "main_action_used",
        "consecutive_passes",
        "players",
    ];

    /// A round: the player turns phase, then (when all players passed on
    /// consecutive turns, `ashes:pass`) the recovery phase. What the recovery
    /// phase does, and the next round, are outside the indexed text.
    const PHASES: &'static [Phase] = &[
        Phase {
            id: "player-turns",
            name: "player turns phase of the next round",
            rule: None,
            new_round: true,
            resets: ROUND_RESETS,
        },
        Phase {
            id: "recovery",
            name: "recovery phase",
            rule: Some(rules::PASS),
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
        &[
            "action",
            "player",
            "attackers",
            "target",
            "blocks",
            "order",
            "guard",
            "counter",
            "split",
            "card",
            "main_action",
        ]
    }

    fn status(b: &Board) -> Status {
        let turn = match b.phase {
            board::Phase::PlayerTurns => Some(b.turn_seat()),
            board::Phase::Recovery => None,
        };
        Status {
            phase: match b.phase {
                board::Phase::PlayerTurns => "player turns".into(),
                board::Phase::Recovery => "recovery".into(),
            },
            round: Some(*b.round),
            turn: turn.map(|t| b.name(t)),
            turn_seat: turn,
            result: result(b),
        }
    }

    fn before_advance(b: &Board, cx: &mut Cx) {
        if b.phase == board::Phase::PlayerTurns {
            let waiting = b.yet_to_pass();
            cx.error(rules::PASS, "phase", format!("the player turns phase ends only when all players pass on consecutive turns; still to pass: {}", waiting.join(", ")));
        }
    }

    fn entered(b: &mut Board, phase: &Phase, cx: &mut Cx) {
        if phase.id == "player-turns" && !b.players.is_empty() {
            let first = b.name((*b.round as usize - 1) % b.players.len());
            b.turn = Some(first.clone());
            cx.note(Some("turn"), format!("the indexed text does not say who takes the first turn of a round: the turn goes to {first} (seat order, moving one seat each round: an assumption outside the indexed rules; adjust `turn` if your table differs)"));
        }
    }

    fn notation(line: &str, b: &Board) -> Result<Play, BoardError> {
        notation::parse(line, b)
    }

    fn completions(partial: &str, b: &Board) -> Vec<String> {
        notation::completions(partial, b)
    }
}

/// A Phoenixborn whose damage reached its life is destroyed: when one
/// player's is left, that player wins. Outside the indexed text.
fn result(b: &Board) -> Option<GameResult> {
    let (lost, standing): (Vec<&board::Player>, Vec<_>) =
        b.players.iter().partition(|p| p.phoenixborn.destroyed());
    if lost.is_empty() || b.players.len() < 2 {
        return None;
    }
    let gone: Vec<String> = lost
        .iter()
        .map(|p| format!("{}'s {}", p.name, p.phoenixborn.name))
        .collect();
    match standing.as_slice() {
        [winner] => Some(GameResult {
            winner: Some(winner.name.to_string()),
            reason: format!(
                "{} destroyed (damage at least its life): the last Phoenixborn standing wins, a reading outside the indexed text",
                gone.join(" and ")
            ),
            rule: None,
        }),
        [] => Some(GameResult {
            winner: None,
            reason: "every Phoenixborn is destroyed at once: no winner (outside the indexed text)"
                .into(),
            rule: None,
        }),
        _ => None,
    }
}
