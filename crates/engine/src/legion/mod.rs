//! Star Wars: Legion: units' activations as an executable procedure, in a
//! whole game (players, their units, rounds of Command, Activation and End
//! Phases).
//!
//! Rules text: the community wiki's "Actions" entry (`legion:actions`,
//! CC-BY-SA). See `docs/games/legion.md` for the board and the notation.

pub mod board;
mod notation;
pub mod plays;
mod procedure;
pub mod rules;
mod wording;

use crate::kit::{Better, Cx, Game, Kit, MinPlayers, Phase, Reset, Set, Stop};
use crate::{BoardError, GameResult, RuleUse, Status};
use wording::{Activation, Fault, Notice, Outcome};

pub use board::Board;
pub use plays::Play;

/// The Star Wars: Legion engine.
pub struct Legion;

/// The registered instance.
pub const ENGINE: Kit<Legion> = Kit::new();

/// The phase as players say it.
pub fn phase_name(p: board::Phase) -> &'static str {
    Legion::PHASES[p as usize].name
}

const NO_TURN: Reset = Reset {
    field: "turn",
    value: Set::Null,
    what: "no one's turn",
};
const NO_ACTIVE: Reset = Reset {
    field: "active",
    value: Set::Null,
    what: "no unit activating",
};

impl Game for Legion {
    const ID: &'static str = "legion";
    const MIN_PLAYERS: MinPlayers = MinPlayers {
        count: 2,
        source: "the indexed rules state no player count; read as two or more: units attack another player's units (legion:actions)",
    };
    type Board = Board;
    type Play = Play;

    const BOARD_READS: &'static [&'static str] = &[
        "game",
        "round",
        "phase",
        "turn",
        "active",
        "last_round",
        "players",
        "player",
        "unit",
    ];
    /// The victory points the result ranks the seats by after the last
    /// round (with three seats, one's own lowered picks who leads);
    /// a unit's activation (not yet activated is better: a player who gives
    /// one back activates again) and the actions it has (more is better; a
    /// number left out counts from 0, so any number set where none was
    /// asks).
    const STANDING: &'static [(&'static str, Better)] = &[
        ("players[].points", Better::Ranked),
        ("players[].units[].activated", Better::Lower),
        ("players[].units[].actions", Better::Higher),
    ];

    /// A round: the Command Phase, the Activation Phase (the indexed text:
    /// "During the Activation Phase, each unit can perform actions"), the
    /// End Phase. Moving between them, and what resets, is outside it.
    const PHASES: &'static [Phase] = &[
        Phase {
            id: "command",
            name: "Command Phase",
            rule: None,
            new_round: true,
            resets: &[
                Reset {
                    field: "players[].units[].activated",
                    value: Set::False,
                    what: "no unit has activated this round",
                },
                NO_TURN,
                NO_ACTIVE,
            ],
        },
        Phase {
            id: "activation",
            name: "Activation Phase",
            rule: None,
            new_round: false,
            resets: &[],
        },
        Phase {
            id: "end",
            name: "End Phase",
            rule: None,
            new_round: false,
            resets: &[
                Reset {
                    field: "players[].units[].tokens",
                    value: Set::Empty,
                    what: "aim, dodge and standby tokens removed",
                },
                Reset {
                    field: "players[].units[].performed",
                    value: Set::Empty,
                    what: "activation records closed",
                },
                NO_TURN,
                NO_ACTIVE,
            ],
        },
    ];

    fn rule_uses() -> &'static [RuleUse] {
        rules::RULE_USES
    }

    /// The board's own consistency, then the record of the activation under
    /// way replayed by the procedure.
    fn validate(b: &mut Board) -> Result<(), BoardError> {
        board::validate(b)?;
        if let Some(r) = b.active_ref() {
            let path = b.path(r);
            procedure::check_record(b.unit_mut(r), &path)?;
        }
        Ok(())
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
        &["[]"]
    }

    fn status(b: &Board) -> Status {
        let turn = b
            .turn_seat()
            .filter(|_| b.phase == board::Phase::Activation);
        Status {
            phase: phase_name(b.phase).into(),
            round: Some(*b.round),
            turn: turn.map(|t| b.name(t)),
            turn_seat: turn,
            result: result(b),
            out: Vec::new(),
        }
    }

    fn before_advance(b: &Board, cx: &mut Cx) {
        if b.phase != board::Phase::Activation {
            return;
        }
        let waiting: Vec<(String, Vec<&str>)> = (0..b.players.len())
            .filter(|p| !b.waiting(*p).is_empty())
            .map(|p| {
                let units: Vec<&str> = b
                    .waiting(p)
                    .iter()
                    .map(|r| b.unit(*r).name.as_str())
                    .collect();
                (b.name(p), units)
            })
            .collect();
        if !waiting.is_empty() {
            let waiting = &waiting;
            cx.error_unruled("phase", Fault::Waiting { waiting });
        }
    }

    fn entered(b: &mut Board, phase: &Phase, cx: &mut Cx) {
        if phase.id != "activation" || b.players.is_empty() {
            return;
        }
        if b.turn.is_none() {
            let first = b.name((*b.round as usize - 1) % b.players.len());
            cx.unagreed(
                "turn",
                "turn",
                Notice::FirstBySeat { player: &first }.to_string(),
            );
            b.turn = Some(first);
        }
        let units: usize = b.players.iter().map(|p| p.units.len()).sum();
        let first = b.turn.as_deref().unwrap_or_default();
        cx.step(rules::ACT, Activation::PhaseBegins { units, first });
    }

    fn notation(line: &str, b: &Board) -> Result<Play, BoardError> {
        notation::parse(line, b)
    }

    fn completions(partial: &str, b: &Board) -> Vec<String> {
        notation::completions(partial, b)
    }
}

/// What the board decides (outside the indexed text, which does not say how
/// a game ends): one player left with units; or, after a stated last round,
/// the most victory points.
fn result(b: &Board) -> Option<GameResult> {
    let names = |f: &dyn Fn(&board::Player) -> bool| -> Vec<String> {
        b.players
            .iter()
            .filter(|p| f(p))
            .map(|p| p.name.to_string())
            .collect()
    };
    let (left, out) = (
        names(&|p| !p.units.is_empty()),
        names(&|p| p.units.is_empty()),
    );
    let (winner, reason) = match left.as_slice() {
        [w] if !out.is_empty() => (
            Some(w.clone()),
            Outcome::Eliminated {
                out: &out,
                winner: w,
            }
            .to_string(),
        ),
        _ if b.players.len() < 2 => return None,
        _ => {
            let last = b.last_round.filter(|l| *b.round > *l)?;
            let points: Vec<u32> = b.players.iter().map(|p| p.points).collect::<Option<_>>()?;
            let best = points.iter().max().copied();
            let top = names(&|p| p.points == best);
            let scores: Vec<(&str, u32)> = b
                .players
                .iter()
                .zip(points)
                .map(|(p, n)| (p.name.as_str(), n))
                .collect();
            let tie = top.len() != 1;
            let winner = (!tie).then(|| top[0].clone());
            let scores = &scores;
            (winner, Outcome::Points { last, scores, tie }.to_string())
        }
    };
    Some(GameResult {
        winner,
        reason,
        rule: None,
    })
}
