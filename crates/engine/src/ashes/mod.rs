//! Ashes Reborn: the main actions of "03 - Main Actions" (Pay a Cost, Attack
//! a Phoenixborn, Attack a Unit, Pass), executed step by step with citations.
//!
//! See `docs/games/ashes.md` for the board document and the play notation.

pub mod board;
mod notation;
pub mod plays;
mod procedure;
pub mod rules;
mod wording;

use crate::kit::{Better, Cx, Game, Kit, MinPlayers, Phase, Reset, Set, Stop};
use crate::{BoardError, GameResult, RuleUse, Status};

pub use board::Board;
pub use plays::Play;
pub use wording::DESTROYED_ASSUMPTION;
use wording::{Ending, Notice, OffTurn};

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
    const MIN_PLAYERS: MinPlayers = MinPlayers {
        count: 2,
        source: "the indexed rules state no player count; read as two or more: every attack chooses \"an opponent's Phoenixborn\" or a unit \"on an opponent's battlefield\" (ashes:attack-a-phoenixborn.2, ashes:attack-a-unit.2)",
    };
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
    /// A Phoenixborn destroyed ends the game (its damage against its life);
    /// the units' stats decide the battles on the way.
    const STANDING: &'static [(&'static str, Better)] = &[
        ("players[].phoenixborn.damage", Better::Lower),
        ("players[].phoenixborn.life", Better::Higher),
        ("players[].units[].attack", Better::Higher),
        ("players[].units[].life", Better::Higher),
        ("players[].units[].damage", Better::Lower),
        ("players[].units[].abilities", Better::Higher),
        ("players[].units[].exhausted", Better::Lower),
        ("players[].phoenixborn.exhausted", Better::Lower),
    ];
    /// The turn's main action spent (true) leaves its player side actions
    /// only: worse for them, and for the others the same as their idling.
    const TURN_STANDING: &'static [(&'static str, Better)] = &[("main_action_used", Better::Lower)];
    const SEAT_NAME_FIELDS: &'static [&'static str] = &["consecutive_passes[]"];

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
            out: (0..b.players.len()).filter(|&p| b.out(p)).collect(),
        }
    }

    fn before_advance(b: &Board, cx: &mut Cx) {
        if b.phase == board::Phase::PlayerTurns {
            let waiting = b.yet_to_pass();
            cx.error(
                rules::PASS,
                "phase",
                OffTurn::PhaseGoesOn { waiting: &waiting },
            );
        }
    }

    fn entered(b: &mut Board, phase: &Phase, cx: &mut Cx) {
        if phase.id == "player-turns" && !b.players.is_empty() && b.turn.is_none() {
            // Round by round around the players still in (all of them
            // before anyone is out): an assumption, so a player's advance
            // onto it is refused until the table agrees (`adjust turn`).
            let standing: Vec<usize> = (0..b.players.len()).filter(|&p| !b.out(p)).collect();
            let seat = standing[(*b.round as usize - 1) % standing.len().max(1)];
            let first = b.name(seat);
            b.turn = Some(first.clone());
            cx.unagreed(
                "turn",
                "turn",
                Notice::FirstTurn { player: &first }.to_string(),
            );
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
    let gone: Vec<(&str, &str)> = lost
        .iter()
        .map(|p| (p.name.as_str(), p.phoenixborn.name.as_str()))
        .collect();
    match standing.as_slice() {
        [winner] => Some(GameResult {
            winner: Some(winner.name.to_string()),
            reason: Ending::LastStanding { lost: &gone }.into(),
            rule: None,
        }),
        [] => Some(GameResult {
            winner: None,
            reason: Ending::NoneStanding.into(),
            rule: None,
        }),
        _ => None,
    }
}

/// The seat an attack on a Phoenixborn that names no `target` attacks:
/// the acting player's one opponent in the game (`target` is optional
/// then); `None` with none or several (the engine asks), or for any other
/// play. The picture draws the arrow the engine resolved by this. Here,
/// above `board` and `procedure`, so that neither names the other.
pub fn unnamed_target(b: &board::Board, play: &plays::Play) -> Option<usize> {
    let plays::Play::AttackPhoenixborn { target: None, .. } = play else {
        return None;
    };
    let actor = procedure::actor(b, play).ok()?;
    match b.opponents(actor).as_slice() {
        [only] => Some(*only),
        _ => None,
    }
}

/// The units `play` destroys on `before`, each with its seat and as it
/// stood when destroyed (the damage that destroyed it), by the engine's
/// own procedure: the board after a play no longer holds them, and its
/// picture drew them with their damage from before the play. Given only
/// when the procedure leaves the board `after` (the ruling's state: a
/// match's answered decisions may resolve otherwise than a judge's
/// assumptions), else empty.
pub fn destroyed(before: &Board, play: &Play, after: &Board) -> Vec<(usize, board::Unit)> {
    let mut work = before.clone();
    if board::validate(&mut work).is_err() {
        return Vec::new();
    }
    work.destroyed.clear();
    let asking = crate::kit::Asking::judge();
    let mut cx = Cx::new(&asking, <Ashes as Game>::players(&work));
    if procedure::run(&mut work, play, &mut cx).is_err() || cx.failed() {
        return Vec::new();
    }
    let gone = std::mem::take(&mut work.destroyed);
    if work != *after {
        return Vec::new();
    }
    gone
}
