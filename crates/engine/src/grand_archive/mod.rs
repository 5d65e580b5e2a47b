//! Grand Archive: "Combat Phase - Attack Declaration" (seed 004) as an
//! executable, reversible procedure, and the turn structure around it.
//!
//! See `docs/games/grand-archive.md` for the board document, the plays and
//! the notation.

pub mod board;
mod notation;
pub mod plays;
mod procedure;
pub mod rules;
mod wording;

use crate::kit::{Better, Cx, Game, Kit, MinPlayers, Phase, Reset, Set, Stop};
use crate::{BoardError, RuleUse, Status};
use wording::Refusal;

pub use board::Board;
pub use plays::Play;

/// The Grand Archive engine.
pub struct GrandArchive;

/// The registered instance.
pub const ENGINE: Kit<GrandArchive> = Kit::new();

const NEW_TURN: &[Reset] = &[Reset {
    field: "players[].must_attack",
    value: Set::Empty,
    what: "must-attack obligations of the last turn end",
}];

const MAIN: &[Reset] = &[
    Reset {
        field: "combat",
        value: Set::Null,
        what: "no combat in progress",
    },
    Reset {
        field: "players[].intent",
        value: Set::Empty,
        what: "no attack card in the champions' intent",
    },
];

const fn phase(id: &'static str, name: &'static str, resets: &'static [Reset]) -> Phase {
    Phase {
        id,
        name,
        rule: None,
        new_round: false,
        resets,
    }
}

/// A turn: Wake Up, Materialize, Recollection, Draw, Main and End; the
/// Combat Phase is entered by declaring an attack (general rule 1) and goes
/// back to the Main Phase. Only the declaration is in the indexed text.
pub const PHASES: &[Phase] = &[
    Phase {
        new_round: true,
        ..phase("wake-up", "Wake Up Phase", NEW_TURN)
    },
    phase("materialize", "Materialize Phase", &[]),
    phase("recollection", "Recollection Phase", &[]),
    phase("draw", "Draw Phase", &[]),
    phase("combat", "Combat Phase", &[]),
    phase("main", "Main Phase", MAIN),
    phase("end", "End Phase", &[]),
];

impl Game for GrandArchive {
    const ID: &'static str = "grand-archive";
    const MIN_PLAYERS: MinPlayers = MinPlayers {
        count: 2,
        source: "the indexed rules state no player count; read as two or more: an attack is made on a defending player (grand-archive:declaring-an-attack.2)",
    };
    type Board = Board;
    type Play = Play;

    const BOARD_READS: &'static [&'static str] = &[
        "game",
        "phase",
        "turn_number",
        "turn_player",
        "players[].name",
        "players[].reserve",
        "players[].champion",
        "players[].allies",
        "players[].objects",
        "players[].intent",
        "players[].must_attack",
        "costs",
        "restrictions",
        "effects_stack",
        "pending_triggers",
        "combat",
    ];
    /// Obligations another player's effects put on this one (rule 1.4): one
    /// added to one's own list (the others kept), or one marked not yet
    /// attempted, only binds its player, so it is at once; one removed,
    /// changed or marked attempted may free them, so it asks the others.
    /// A player's own reserve made smaller and their own cards rested are
    /// at once; any other change of their seat asks the others.
    const STANDING: &'static [(&'static str, Better)] = &[
        ("players[].must_attack", Better::Fewer),
        ("players[].must_attack[].attempted", Better::Higher),
        ("players[].reserve", Better::Higher),
        ("players[].champion.rested", Better::Lower),
        ("players[].allies[].rested", Better::Lower),
        ("players[].objects[].rested", Better::Lower),
    ];
    /// The seats the effects, the stack and the attack under way name.
    const SEAT_NAME_FIELDS: &'static [&'static str] = &[
        "costs[].applies_to",
        "costs[].controller",
        "restrictions[].applies_to",
        "effects_stack[].controller",
        "combat.attacking_player",
        "combat.defending_player",
    ];

    const PHASES: &'static [Phase] = PHASES;
    const ROUND_FIELD: Option<&'static str> = Some("turn_number");

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
        plays::actor(b, play).map(Some)
    }

    fn play(b: &mut Board, play: &Play, cx: &mut Cx) -> Result<(), Stop> {
        procedure::run(b, play, cx)
    }

    fn play_reads(play: &Play) -> &'static [&'static str] {
        match play {
            Play::DeclareAttack { .. } => &[
                "action",
                "player",
                "attacker",
                "with",
                "target",
                "defending_player",
                "pay_extra",
                "refuse_extra",
                "response",
            ],
            Play::EndMainPhase { .. } => &["action", "player"],
        }
    }

    /// No result: the indexed text does not say how a game ends and the
    /// board tracks no life; a match ends by agreement (`match end`).
    fn status(b: &Board) -> Status {
        let seat = b.turn_seat();
        Status {
            phase: b.phase.name().into(),
            round: Some(*b.turn_number),
            turn: Some(b.name(seat)),
            turn_seat: Some(seat),
            result: None,
            out: Vec::new(),
        }
    }

    /// Rule 1.4: the Main Phase is not left while a must-attack obligation
    /// is unattempted. The combat phase is not left while the Effects
    /// Stack holds something (an assumption, said so: the indexed text is
    /// silent; the defender's response once stayed on the stack into
    /// later turns, an outside tester's).
    fn before_advance(b: &Board, cx: &mut Cx) {
        if b.phase == board::Phase::Main {
            procedure::obligations(b, cx);
        }
        if b.phase == board::Phase::Combat {
            for (i, e) in b.effects_stack.iter().enumerate() {
                let (entry, controller) = (e.name.as_str(), e.controller.as_deref());
                let why = Refusal::StackHolds { entry, controller };
                cx.error(rules::GR4, &format!("effects_stack[{i}]"), why);
            }
        }
    }

    fn entered(b: &mut Board, phase: &Phase, cx: &mut Cx) {
        if phase.id == "wake-up" && !b.players.is_empty() {
            new_turn(b, cx);
        } else if phase.id == "combat" && b.combat.is_none() {
            b.phase = board::Phase::Main;
            cx.note(Some("phase"), "no attack is in progress: the combat phase is entered by declaring an attack (general-rules.1), so play goes on to the Main Phase");
        }
    }

    /// An illegal declaration is reversed; the record rule 1.4 keeps of the
    /// attempt (`must_attack[].attempted`) stays.
    fn after_illegal(before: &Board, attempt: &Board) -> Board {
        let mut b = before.clone();
        for (p, a) in b.players.iter_mut().zip(&attempt.players) {
            p.must_attack.clone_from(&a.must_attack);
        }
        b
    }

    fn notation(line: &str, b: &Board) -> Result<Play, BoardError> {
        notation::parse(line, b)
    }

    fn completions(partial: &str, b: &Board) -> Vec<String> {
        notation::completions(partial, b)
    }
}

/// The turn passes to the next player in seat order, who wakes up their
/// cards. Outside the indexed text.
fn new_turn(b: &mut Board, cx: &mut Cx) {
    let next = (b.turn_seat() + 1) % b.players.len();
    b.turn_player = Some(b.name(next));
    let p = &mut b.players[next];
    p.champion.rested = false;
    for c in p.allies.iter_mut().chain(p.objects.iter_mut()) {
        c.rested = false;
    }
    let (turn, player) = (*b.turn_number, p.name.as_str());
    cx.note(Some("turn_player"), Refusal::NewTurn { turn, player });
}
