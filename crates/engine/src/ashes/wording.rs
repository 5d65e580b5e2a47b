//! The wording of Ashes Reborn rulings. The procedure says what happened
//! with typed events (a step, an illegal choice, a refused one, a question
//! to a player); this module says how each reads. Sentences that stand
//! alone (the readings the engine takes where the indexed text is silent,
//! the defaults of the players' choices) are constants here.

use std::fmt::{self, Display, Formatter};

use crate::text::count;

/// Readings where the indexed text is silent.
pub const ASSUME_NO_HAND: &str = "the board does not list cards in hand or abilities, so only attacks are checked when deciding whether another main action is possible (assumption outside the indexed text)";
pub const ASSUME_NO_SYMBOL: &str = "the passage states only that a cost with the main-action symbol takes up the main action; that a cost without it leaves the main action available is read from it (assumption outside the indexed text)";
/// A pay-cost play that does not say whether its cost has the symbol.
pub const SAY_MAIN_ACTION: &str = "say whether the card's play or activation cost includes the main-action symbol (`main_action: true` or `false`)";

/// Gives each wording type `String::from`, so `Cx` takes it as text.
macro_rules! into_string {
    ($($t:ident),* $(,)?) => {
        $(impl From<$t<'_>> for String {
            fn from(w: $t<'_>) -> String {
                w.to_string()
            }
        })*
    };
}

into_string!(Turn, Chose, OffTurn, Notice, Ending, Invalid,);

/// Writes `items`, `sep` between them, each as `one` writes it.
fn each<T>(
    f: &mut Formatter<'_>,
    items: &[T],
    sep: &str,
    one: impl Fn(&mut Formatter<'_>, &T) -> fmt::Result,
) -> fmt::Result {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        one(f, x)?;
    }
    Ok(())
}

/// Names, comma separated.
fn names(f: &mut Formatter<'_>, items: &[String]) -> fmt::Result {
    each(f, items, ", ", |f, n| f.write_str(n))
}

/// Steps of the turn: passing, the run of passes, paying a cost.
#[derive(Debug, Clone, Copy)]
pub enum Turn<'a> {
    /// A player who passed in the run takes another main action.
    PassesAgain {
        player: &'a str,
        passed: &'a [String],
    },
    /// A player outside the run takes a main action.
    BreaksPassRun {
        player: &'a str,
        passed: &'a [String],
    },
    /// A pass while `ready` units could still attack.
    Passes {
        player: &'a str,
        ready: u32,
    },
    /// A pass with no unit able to attack.
    PassesWithNoAttack {
        player: &'a str,
    },
    AllPassed {
        passed: &'a [String],
    },
    YetToPass {
        missing: &'a [String],
        player: &'a str,
    },
    PaysCost {
        card: &'a str,
        player: &'a str,
        main_action: bool,
    },
}

impl Display for Turn<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Turn::PassesAgain { player, passed } => {
                write!(f, "{player} passed earlier (")?;
                names(f, passed)?;
                write!(
                    f,
                    " passed on the preceding turns) and now takes another main action, which a player who passed may do while an opponent has not passed; the run of consecutive passes is broken and the player turns phase continues"
                )
            }
            Turn::BreaksPassRun { player, passed } => {
                write!(
                    f,
                    "{player} did not pass, so the run of consecutive passes ("
                )?;
                names(f, passed)?;
                write!(f, ") is broken; the player turns phase continues")
            }
            Turn::Passes { player, ready } => write!(
                f,
                "{player} passes: the main action is to do nothing. {player} could still attack with {}, and a player may choose to pass even if other main actions are possible",
                count(ready as usize, "unexhausted unit")
            ),
            Turn::PassesWithNoAttack { player } => write!(
                f,
                "{player} passes: the main action is to do nothing. {player} has no unexhausted unit to attack with, so unless a card can be played, passing is the only main action left and must be chosen"
            ),
            Turn::AllPassed { passed } => {
                write!(f, "all players have passed on consecutive turns (")?;
                names(f, passed)?;
                write!(
                    f,
                    "): the player turns phase ends and players move on to the recovery phase of the round"
                )
            }
            Turn::YetToPass { missing, player } => {
                let verb = if missing.len() == 1 { "has" } else { "have" };
                names(f, missing)?;
                write!(
                    f,
                    " {verb} not passed since, so the player turns phase continues; {player} may pass again or take any other main action on the next turn"
                )
            }
            Turn::PaysCost {
                card,
                player,
                main_action: true,
            } => write!(
                f,
                "the cost of {card} includes the main-action symbol: paying it takes up {player}'s main action for the turn"
            ),
            Turn::PaysCost {
                card,
                player,
                main_action: false,
            } => write!(
                f,
                "the cost of {card} has no main-action symbol: paying it does not take up {player}'s main action, which is still available"
            ),
        }
    }
}

/// What a player chose, as a step records it ("Coal chose …").
#[derive(Debug, Clone, Copy)]
pub enum Chose<'a> {
    Pass,
    PlayOrActivate { card: &'a str },
}

impl Display for Chose<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Chose::Pass => write!(f, "to pass"),
            Chose::PlayOrActivate { card } => write!(f, "to play or activate {card}"),
        }
    }
}

/// A main action out of its place: the phase, the turn, the one main
/// action of a turn.
#[derive(Debug, Clone, Copy)]
pub enum OffTurn<'a> {
    /// Advancing before every player passed.
    PhaseGoesOn {
        waiting: &'a [String],
    },
    NotYourTurn {
        whose: &'a str,
        player: &'a str,
    },
    RecoveryPhase,
    MainActionUsed {
        player: &'a str,
        passing: bool,
    },
}

impl Display for OffTurn<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            OffTurn::PhaseGoesOn { waiting } => {
                write!(
                    f,
                    "the player turns phase ends only when all players pass on consecutive turns; still to pass: "
                )?;
                names(f, waiting)
            }
            OffTurn::NotYourTurn { whose, player } => write!(
                f,
                "the board says it is {whose}'s turn, not {player}'s; a main action is taken on your own turn"
            ),
            OffTurn::RecoveryPhase => write!(
                f,
                "the player turns phase has ended (all players passed on consecutive turns); the round is in the recovery phase, so no main action can be taken (advance to the next round with `match advance`)"
            ),
            OffTurn::MainActionUsed { player, passing } => {
                let what = match passing {
                    true => "passing is a main action too",
                    false => "a turn has one main action",
                };
                write!(
                    f,
                    "{player} has already used the main action for this turn; {what}"
                )
            }
        }
    }
}

/// Warnings and notes: what the engine does outside the indexed text, and
/// play fields it ignores.
#[derive(Debug, Clone, Copy)]
pub enum Notice<'a> {
    /// Who takes the first turn of a new round.
    FirstTurn { player: &'a str },
    /// The resulting board hands the turn on.
    TurnMovesOn { player: &'a str, next: &'a str },
    /// A unit's ability whose card text is not applied.
    NotApplied { unit: &'a str, ability: &'a str },
}

impl Display for Notice<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Notice::FirstTurn { player } => write!(
                f,
                "the indexed text does not say who takes the first turn of a round: the turn goes to {player} (seat order, moving one seat each round: an assumption outside the indexed rules; adjust `turn` if your table differs)"
            ),
            Notice::TurnMovesOn { player, next } => write!(
                f,
                "{player}'s main action is done; the resulting board hands the turn to {next} so the next play can be judged (ending the turn, and any side action, is outside the indexed text)"
            ),
            Notice::NotApplied { unit, ability } => write!(
                f,
                "card text not applied: {unit}'s '{ability}' (the engine applies only the indexed rules and Unit Guard)"
            ),
        }
    }
}

/// How the game ends (outside the indexed text).
#[derive(Debug, Clone, Copy)]
pub enum Ending<'a> {
    /// One Phoenixborn stands; `lost`: (player, Phoenixborn) destroyed.
    LastStanding {
        lost: &'a [(&'a str, &'a str)],
    },
    NoneStanding,
}

impl Display for Ending<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Ending::LastStanding { lost } => {
                each(f, lost, " and ", |f, (p, pb)| write!(f, "{p}'s {pb}"))?;
                write!(
                    f,
                    " destroyed (damage at least its life): the last Phoenixborn standing wins, a reading outside the indexed text"
                )
            }
            Ending::NoneStanding => f.write_str(
                "every Phoenixborn is destroyed at once: no winner (outside the indexed text)",
            ),
        }
    }
}

/// A board that cannot be judged: names that must differ.
#[derive(Debug, Clone, Copy)]
pub enum Invalid<'a> {
    SamePlayerName { name: &'a str },
    SameUnitName { player: &'a str, unit: &'a str },
}

impl Display for Invalid<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Invalid::SamePlayerName { name } => {
                write!(f, "two players are named '{name}'; name them apart")
            }
            Invalid::SameUnitName { player, unit } => write!(
                f,
                "{player} has two units named '{unit}'; name them apart (for example '{unit} 2')"
            ),
        }
    }
}
