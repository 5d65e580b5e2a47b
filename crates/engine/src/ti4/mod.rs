//! Twilight Imperium 4: the action phase ("Action Phase" of the Living Rules
//! Reference) as an executable procedure, within the game round (strategy,
//! action and status phases) and, when the board keeps the score, up to
//! the result. See `docs/games/ti4.md`.

pub mod board;
mod notation;
pub mod plays;
mod procedure;
pub mod rules;

use crate::kit::bounded::Count;
use crate::kit::{Cx, Game, Kit, Phase, Reset, Set, Stop};
use crate::text::count;
use crate::{BoardError, GameResult, RuleUse, Status};

pub use board::Board;
pub use plays::Play;
use rules::{R_INTRO, R5};

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
        }
    }

    fn before_advance(b: &Board, cx: &mut Cx) {
        let want = b.cards_each();
        match b.phase {
            board::Phase::Action => {
                let now = procedure::current(b).map(|i| b.name(i)).unwrap_or_default();
                cx.error(R5, "phase", format!("play proceeds to the status phase only after all players have passed; still to act, in initiative order: {} (it is {now}'s turn)", b.list(&b.waiting())));
            }
            board::Phase::Strategy => {
                let short: Vec<usize> = (0..b.players.len())
                    .filter(|&i| b.players[i].strategy_cards.len() != want)
                    .collect();
                if !short.is_empty() {
                    cx.error(b.card_rule(), "players", format!("the action phase needs each player to hold {} (rules 4 and 4.1 speak of each player's cards); still to choose: {}. The strategy phase is outside the indexed text: record each choice with `adjust players.NAME.strategy_cards[+] {{name: CARD}}`", count(want, "strategy card"), b.list(&short)));
                }
            }
            board::Phase::Status => {}
        }
    }

    fn entered(b: &mut Board, phase: &Phase, cx: &mut Cx) {
        match phase.id {
            "action" => {
                let Some(&first) = b.order().first() else { return };
                let (name, init) = (b.name(first), b.initiative(first));
                b.turn = Some(name.clone());
                cx.step(R_INTRO, format!("The action phase begins: each player takes a turn in initiative order, so {name} (initiative {init}) takes the first turn."))
                    .num(&format!("initiative {name}"), init)
                    .assume(procedure::ASSUME_INITIATIVE);
            }
            "strategy" => cx.note(Some("phase"), format!("round {}: the status phase's steps, the agenda phase (when your game has one) and the strategy phase are outside the indexed text and not modelled by this board; record scored points with `adjust players.NAME.victory_points`, and each player's {} with `adjust players.NAME.strategy_cards[+] {{name: CARD}}`, then advance to the action phase", b.round, count(b.cards_each(), "chosen strategy card"))),
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
    let (name, points) = (
        b.name(reached[..].first().copied()?),
        count(vp(&reached[0]) as usize, "victory point"),
    );
    let tie = match reached.len() {
        1 => String::new(),
        _ => format!(
            "; {} reached it too, and the first of them in initiative order is read as the winner (the Victory Points entry that settles ties is not indexed; alternative: a shared result)",
            b.list(&reached[1..])
        ),
    };
    let reason = format!(
        "{name} has {points} of the {goal} needed to win{tie}. A reading outside the indexed text: the Action Phase entry does not cover scoring; the board's `points_to_win` decides the game"
    );
    Some(GameResult {
        winner: Some(name),
        reason,
        rule: None,
    })
}
