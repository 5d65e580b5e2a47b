//! Twilight Imperium 4: the action phase ("Action Phase" of the Living Rules
//! Reference) as an executable procedure, within the game round (strategy,
//! action and status phases) and, when the board keeps the score, up to
//! the result. See `docs/games/ti4.md`.

pub mod board;
mod notation;
pub mod plays;
mod procedure;
pub mod rules;
mod wording;

use crate::kit::bounded::Count;
use crate::kit::{Better, Cx, Game, Kit, MinPlayers, Phase, Reset, Set, Stop};
use crate::{BoardError, GameResult, RuleUse, Status};

pub use board::Board;
pub use plays::Play;
use rules::{R_INTRO, R5};
use wording::{ASSUME_INITIATIVE, Advance, Turn, Win, initiative_of};

/// The TI4 engine.
pub struct Ti4;

/// The registered instance.
pub const ENGINE: Kit<Ti4> = Kit::new();

const fn reset(field: &'static str, value: Set, what: &'static str) -> Reset {
    Reset { field, value, what }
}

const NEW_ROUND: &[Reset] = &[
    reset(
        "players[].strategy_cards",
        Set::Empty,
        "strategy cards returned",
    ),
    reset("players[].passed", Set::False, "passed flags cleared"),
    reset("turn", Set::Null, "no turn under way"),
    reset("this_turn", Set::EmptyRecord, "the turn record cleared"),
];

impl Game for Ti4 {
    const ID: &'static str = "ti4";
    const MIN_PLAYERS: MinPlayers = MinPlayers {
        count: 3,
        source: "the indexed action-phase rules state no player count; read as three or more, the fewest the engine's boards seat (a TI4 game seats 3 to 8)",
    };
    type Board = Board;
    type Play = Play;

    const BOARD_READS: &'static [&'static str] = &[
        "game",
        "round",
        "phase",
        "players",
        "turn",
        "this_turn",
        "points_to_win",
    ];
    /// The first to the points to win wins. A strategy card's exhaustion
    /// and a pass are everyone's business either way: readied, or a pass
    /// taken back, gives its player more to do; exhausted, or a pass taken,
    /// skips the strategic action rule 4.1 requires before passing, and
    /// the other players' secondary abilities with it (found by an outside
    /// tester).
    const STANDING: &'static [(&'static str, Better)] = &[
        ("players[].victory_points", Better::Higher),
        ("players[].strategy_cards[].exhausted", Better::Shared),
        ("players[].passed", Better::Shared),
    ];
    /// The players who resolved this turn's secondary are named by seat:
    /// a rename carries them (left behind, a renamed player's second
    /// secondary went unremarked; found in review).
    const SEAT_NAME_FIELDS: &'static [&'static str] = &["this_turn.secondaries[]"];

    /// A game round, in the order of [`board::Phase`]: strategy phase (not
    /// indexed), action phase, status phase (rule 5 moves play into it); the
    /// agenda phase is not modelled.
    const PHASES: &'static [Phase] = &[
        Phase {
            id: "strategy",
            name: "strategy phase",
            rule: None,
            new_round: true,
            resets: NEW_ROUND,
        },
        Phase {
            id: "action",
            name: "action phase",
            rule: None,
            new_round: false,
            resets: &[],
        },
        Phase {
            id: "status",
            name: "status phase",
            rule: Some(R5),
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
        plays::FIELDS
    }

    fn status(b: &Board) -> Status {
        let turn = procedure::current(b).filter(|_| b.phase == board::Phase::Action);
        Status {
            phase: Self::PHASES[b.phase as usize].name.to_string(),
            round: Some(*b.round),
            turn: turn.map(|t| b.name(t)),
            turn_seat: turn,
            result: result(b),
            out: Vec::new(),
        }
    }

    fn before_advance(b: &Board, cx: &mut Cx) {
        let want = b.cards_each();
        match b.phase {
            board::Phase::Action => {
                let now = procedure::current(b).map(|i| b.name(i)).unwrap_or_default();
                let (waiting, current) = (&b.list(&b.waiting()), now.as_str());
                cx.error(R5, "phase", Advance::StillToAct { waiting, current });
            }
            board::Phase::Strategy => {
                let short: Vec<usize> = (0..b.players.len())
                    .filter(|&i| b.players[i].strategy_cards.len() != want)
                    .collect();
                if !short.is_empty() {
                    let short = &b.list(&short);
                    cx.error(
                        b.card_rule(),
                        "players",
                        Advance::ChooseCards { want, short },
                    );
                }
            }
            board::Phase::Status => {}
        }
    }

    fn entered(b: &mut Board, phase: &Phase, cx: &mut Cx) {
        match phase.id {
            "action" => {
                let Some(&first) = b.order().first() else {
                    return;
                };
                let (name, init) = (b.name(first), b.initiative(first));
                b.turn = Some(name.clone());
                let (player, initiative) = (name.as_str(), init);
                cx.step(R_INTRO, Turn::Begins { player, initiative })
                    .num(&initiative_of(&name), init)
                    .assume(ASSUME_INITIATIVE);
            }
            "strategy" => {
                let (round, cards) = (*b.round, b.cards_each());
                cx.note(Some("phase"), Advance::Round { round, cards });
            }
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

/// A player with at least `points_to_win` victory points wins; outside the
/// indexed text (a reading, labelled).
fn result(b: &Board) -> Option<GameResult> {
    let goal = b.points_to_win.map_or(10, Count::get);
    let vp = |i: &usize| b.players[*i].victory_points.map_or(0, Count::get);
    let reached: Vec<usize> = b.order().into_iter().filter(|i| vp(i) >= goal).collect();
    let name = b.name(reached[..].first().copied()?);
    let tied = match reached.len() {
        1 => None,
        _ => Some(b.list(&reached[1..])),
    };
    let win = Win {
        player: &name,
        points: vp(&reached[0]) as usize,
        goal,
        tied: tied.as_deref(),
    };
    let reason = win.to_string();
    Some(GameResult {
        winner: Some(name),
        reason,
        rule: None,
    })
}
