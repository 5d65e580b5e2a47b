//! How the Magewinds rulings read: the steps of the Action Phase, the
//! faults that make a play illegal or refuse a reaction, the warnings and
//! notes, the questions put to players and the readings the engine takes.
//! Built from typed values, so the procedure says what happened and this
//! module says how it reads.

use std::fmt;

use crate::kit::NameError;
use crate::kit::into_string;

/// Default of a reaction the attacked fighter's controller may make.
pub const MAY_REACT: &str = "13.3: the controlling player 'may choose to make the reaction': no reaction unless they choose one";
/// How distances are read from the board's positions.
pub const MEASURE: &str = "distances are measured in a straight line between the positions on the board; bases, terrain and the rest of 15.0 - Movement are not indexed; \"within 1\\\"\" is read as 1\" or less";
/// A Movement under 2 begun within 1" of an enemy: the text's subtraction
/// goes below 0, which it does not address.
pub const FLOORED: &str = "a Movement under 2\" minus 2 is below 0\"; the text does not say what that allows, and it is read as no move at all (0\")";
/// A fighter's second reaction to the same action: 13.3.1 gives each
/// reaction its trigger and sets no count.
pub const SEVERAL_REACTIONS: &str = "reading: 13.3.1 lets the controlling player choose to make a reaction when its trigger is met and sets no count, so a fighter may make more than one reaction to the same action (each is an action, with its counter); the alternative reading allows one";
/// Guard on a double action counter: the reading taken where the text is silent.
pub const OPEN_QUESTION: &str = "open question: the indexed text does not say whether Guard lets a fighter on a double action counter make a free Dodge or Deflect. Reading chosen: it does not, because 13.0 says such a fighter cannot perform actions at all, a reaction is an action (13.3), and being free (13.2) only means no counter is placed or flipped; the alternative reading lets the free reaction through";
/// Turn order with more than two players.
pub const TURN_ORDER: &str = "with more than two players, turns go round in the order the board lists the players (the indexed text does not say)";
/// A step move without a destination.
pub const STEP_STAYS: &str = "the step move gives no destination (`step_to`), so the fighter's position on the board is left as it was";
/// A Move without a destination.
pub const MOVE_STAYS: &str = "the Move gives no destination (`to`), so the fighter's position on the board is left as it was";
/// A named action on a fighter that lists none.
pub const ACTION_TAKEN: &str = "the board lists no `actions` for this fighter, so the named action is taken to be available to it";
/// A reaction's trigger when the board gives none.
pub const TRIGGER_UNGIVEN: &str = "not given on the board";
/// A trigger the engine cannot check.
pub const TRIGGER_STATED: &str = "the engine cannot check this trigger from the board, so it takes the play's `trigger_met: true`";
/// How long Guard's free reaction lasts.
pub const GUARD_USED: &str = "reading: Guard makes only the next Dodge or Deflect free, so it ends once that reaction is made (the text could also be read as keeping Guard until the next activation)";
/// Why an action the board marks free is free.
pub const FREE_ACTION: &str = "the board marks this action free; the rule that makes it free (a card or ability) is outside the indexed text";
/// Why a reaction the board marks free is free.
pub const FREE_REACTION: &str =
    "the board marks this reaction free; the rule that makes it free is outside the indexed text";
/// The play is an activation in no Action Phase.
pub const NO_ACTION_PHASE: &str = "the Action Phase is not under way (the board is in the Channelling Phase, or no fighter can be activated any more): fighters are activated only in the Action Phase; move on with `match advance`";
/// The answer that makes no reaction.
pub const NO_REACTION: &str = "no reaction";

/// A distance in inches, to two decimals: `1.5"`.
#[derive(Debug, Clone, Copy)]
struct Inches(f64);

impl fmt::Display for Inches {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\"", (self.0 * 100.0).round() / 100.0)
    }
}

/// A point on the table: `[x, y]`.
struct At([f64; 2]);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.0[0], self.0[1])
    }
}

/// ` to [x, y]` when there is a destination.
fn to(f: &mut fmt::Formatter<'_>, to: Option<[f64; 2]>) -> fmt::Result {
    match to {
        Some(p) => write!(f, " to {}", At(p)),
        None => Ok(()),
    }
}

into_string!(
    TurnStep,
    ActionStep,
    ReactionStep,
    Fault,
    Unavailable,
    ReactionFault,
    Notice,
    Misread,
    Question,
    Chose,
    Visibility,
    Claimed
);

/// What a play states that the board does not record and the engine
/// relied on: its author's word, which the other players confirm in a match.
#[derive(Debug, Clone, Copy)]
pub enum Claimed<'a> {
    /// `free` on an activation that would have taken an action counter.
    FreeAction { fighter: &'a str },
    /// `free` on a reaction that would have taken an action counter.
    FreeReaction { fighter: &'a str, reaction: &'a str },
    /// `trigger_met: true` for a trigger the engine cannot check.
    Trigger { reaction: &'a str },
    /// The play's `visible` list names a target the board's does not.
    Sees { fighter: &'a str, target: &'a str },
}

impl fmt::Display for Claimed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Claimed::FreeAction { fighter } => write!(
                f,
                "a rule (a card or ability) makes {fighter}'s action free: it takes no action counter"
            ),
            Claimed::FreeReaction { fighter, reaction } => write!(
                f,
                "a rule (a card or ability) makes {fighter}'s {reaction} free: it takes no action counter"
            ),
            Claimed::Trigger { reaction } => {
                write!(f, "the trigger of {reaction} was met")
            }
            Claimed::Sees { fighter, target } => write!(
                f,
                "{fighter} sees {target} (the board's `visible` list does not name {target})"
            ),
        }
    }
}

/// Steps of the turns and of the phase: whose turn, activations, counters.
#[derive(Debug, Clone, Copy)]
pub enum TurnStep<'a> {
    /// A player has no fighter left to activate.
    TurnEnds { player: &'a str },
    /// The turn passes to the next player who can activate.
    TurnPasses { player: &'a str },
    /// No fighter can be activated (13.5).
    PhaseEnds,
    /// Guard ends with the phase for these fighters.
    GuardEnds { fighters: &'a [String] },
    /// The first player to pass takes the first turn (13.0).
    FirstTurn { player: &'a str },
    /// A fighter is activated; `counter` says what counter it has.
    Activates {
        player: &'a str,
        fighter: &'a str,
        counter: &'a str,
    },
    /// An unused Guard ends at the fighter's next activation.
    GuardUnused { fighter: &'a str },
    /// Move, Attack and Guard are universal actions (13.4).
    Universal { action: &'a str, fighter: &'a str },
    /// A free action places no counter (13.2).
    Free { fighter: &'a str },
    /// The counter the action gives: a single, or a double over a single.
    Counter { fighter: &'a str, double: bool },
}

impl fmt::Display for TurnStep<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TurnStep::TurnEnds { player } => write!(
                f,
                "{player} has no fighters remaining that can be activated, so their turn ends."
            ),
            TurnStep::TurnPasses { player } => {
                write!(f, "Players take it in turns: it is now {player}'s turn.")
            }
            TurnStep::PhaseEnds => {
                f.write_str("No fighter can be activated: the Action Phase ends.")
            }
            TurnStep::GuardEnds { fighters } => write!(
                f,
                "Guard lasts until the end of the Action Phase: it ends for {}.",
                fighters.join(", ")
            ),
            TurnStep::FirstTurn { player } => write!(
                f,
                "The first turn of the Action Phase is taken by {player}, who was first to pass in the Channelling Phase."
            ),
            TurnStep::Activates {
                player,
                fighter,
                counter,
            } => write!(
                f,
                "On {player}'s turn, {player} activates {fighter} (which has {counter}); it may make one action."
            ),
            TurnStep::GuardUnused { fighter } => write!(
                f,
                "{fighter}'s Guard lasts only until its next activation: it ends now, unused."
            ),
            TurnStep::Universal { action, fighter } => write!(
                f,
                "{action} is a universal action: it is available to all fighters, {fighter} included."
            ),
            TurnStep::Free { fighter } => write!(
                f,
                "The action is free: no action counter is placed or flipped on {fighter}."
            ),
            TurnStep::Counter { fighter, double } => counter(f, fighter, double),
        }
    }
}

fn counter(f: &mut fmt::Formatter<'_>, fighter: &str, double: bool) -> fmt::Result {
    let (had, gets) = match double {
        false => ("had no action counter", "a single"),
        true => ("already had a single action counter", "a double"),
    };
    write!(
        f,
        "{fighter} has made an action and {had}: it gets {gets} action counter."
    )
}

/// Steps of the actions: step moves, Move, Attack, Guard and the others.
#[derive(Debug, Clone, Copy)]
pub enum ActionStep<'a> {
    /// A step move, before an action's effects or after a reaction's.
    StepMove {
        fighter: &'a str,
        inches: f64,
        to: Option<[f64; 2]>,
        reaction: bool,
    },
    /// A Move begun within 1" of an enemy: Movement minus 2.
    NearEnemy {
        fighter: &'a str,
        enemy: &'a str,
        away: f64,
        movement: f64,
        allowance: f64,
    },
    /// A Move as far as the Movement attribute.
    MayMove { fighter: &'a str, movement: f64 },
    /// The Move made.
    Moves {
        fighter: &'a str,
        inches: f64,
        to: Option<[f64; 2]>,
    },
    /// The Attack action.
    Attacks {
        fighter: &'a str,
        target: &'a str,
        attack: &'a str,
    },
    /// The Guard action.
    Guards { fighter: &'a str },
    /// Another action the fighter has.
    Makes { fighter: &'a str, action: &'a str },
}

impl fmt::Display for ActionStep<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ActionStep::StepMove {
                fighter,
                inches,
                to: dest,
                reaction,
            } => {
                write!(f, "{fighter} makes a step move of {}", Inches(inches))?;
                to(f, dest)?;
                match reaction {
                    true => f.write_str(" after the reaction's effects are resolved."),
                    false => f.write_str(" before the action's effects are resolved."),
                }
            }
            ActionStep::NearEnemy {
                fighter,
                enemy,
                away,
                movement,
                allowance,
            } => {
                write!(
                    f,
                    "{fighter} begins the Move within 1\" of an enemy fighter ({enemy}, {} away): it may only move its Movement {} minus 2",
                    Inches(away),
                    Inches(movement),
                )?;
                // Below 0 the subtraction is floored, and said so: "1 minus
                // 2 = 0" would be false arithmetic.
                if movement < 2.0 {
                    write!(
                        f,
                        ", which is below 0\", so it may move 0\" (floored at 0)."
                    )
                } else {
                    write!(f, " = {}.", Inches(allowance))
                }
            }
            ActionStep::MayMove { fighter, movement } => write!(
                f,
                "{fighter} may move as far as its Movement attribute: {}.",
                Inches(movement)
            ),
            ActionStep::Moves {
                fighter,
                inches,
                to: dest,
            } => {
                write!(f, "{fighter} moves {}", Inches(inches))?;
                to(f, dest)?;
                f.write_str(".")
            }
            ActionStep::Attacks {
                fighter,
                target,
                attack,
            } => write!(
                f,
                "{fighter} attacks {target} with {attack}, one of its attacks, against a visible target other than itself. Resolving the attack (18.0) is outside the indexed text."
            ),
            ActionStep::Guards { fighter } => write!(
                f,
                "{fighter} makes the Guard action: until its next activation or the end of the Action Phase, its next Dodge or Deflect reaction is free."
            ),
            ActionStep::Makes { fighter, action } => write!(
                f,
                "{fighter} makes the action {action}, one of the actions available to it."
            ),
        }
    }
}

/// Steps of the reactions (13.3).
#[derive(Debug, Clone, Copy)]
pub enum ReactionStep<'a> {
    /// The attacked fighter's controller makes no reaction.
    NoReaction { fighter: &'a str, player: &'a str },
    /// An attacked fighter on a double counter cannot react (13.0).
    CannotReact { fighter: &'a str, player: &'a str },
    /// A double counter, and a Guard that would make the reaction free.
    GuardWouldFree { fighter: &'a str, reaction: &'a str },
    /// A reaction is made.
    Reacts { fighter: &'a str, reaction: &'a str },
    /// The trigger "attacked" is met by the attack just made.
    Attacked { fighter: &'a str, attacker: &'a str },
    /// A trigger the engine cannot check, met as the players state.
    TriggerStated { reaction: &'a str, trigger: &'a str },
    /// The controller chooses to make the reaction.
    Chooses {
        player: &'a str,
        fighter: &'a str,
        reaction: &'a str,
    },
    /// Guard makes a Dodge or Deflect free and is used up.
    GuardFree { fighter: &'a str, reaction: &'a str },
}

impl fmt::Display for ReactionStep<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ReactionStep::NoReaction { fighter, player } => write!(
                f,
                "{fighter}'s trigger condition is met (it is attacked); {player}, who controls it, may choose to react and makes no reaction."
            ),
            ReactionStep::CannotReact { fighter, player } => write!(
                f,
                "{fighter} is attacked, but it has a double action counter: it cannot perform actions, and a reaction is an action, so {player} is not asked to react."
            ),
            ReactionStep::GuardWouldFree { fighter, reaction } => write!(
                f,
                "{fighter} has a double action counter and an active Guard that would make {reaction} free."
            ),
            ReactionStep::Reacts { fighter, reaction } => write!(
                f,
                "{fighter} makes {reaction}, a reaction: an action with a trigger condition, whose step move comes after its effects."
            ),
            ReactionStep::Attacked { fighter, attacker } => write!(
                f,
                "Trigger condition met: {fighter} is the target of {attacker}'s attack."
            ),
            ReactionStep::TriggerStated { reaction, trigger } => write!(
                f,
                "Trigger condition of {reaction} ({trigger}) is met, as the players state."
            ),
            ReactionStep::Chooses {
                player,
                fighter,
                reaction,
            } => write!(
                f,
                "{player}, who controls {fighter}, chooses to make the reaction {reaction}."
            ),
            ReactionStep::GuardFree { fighter, reaction } => write!(
                f,
                "{fighter} is on Guard, so this {reaction} reaction is free; the Guard is used up."
            ),
        }
    }
}

/// What makes an activation, its move or the phase's end illegal (an
/// error); a step move too long is a reaction's fault too
/// ([`ReactionFault::Step`]).
#[derive(Debug, Clone, Copy)]
pub enum Fault<'a> {
    /// A step move over 1" (13.1).
    StepTooLong { fighter: &'a str, inches: f64 },
    /// The player activates another player's fighter.
    NotTheirs {
        player: &'a str,
        fighter: &'a str,
        owner: &'a str,
    },
    /// Not the owner's turn.
    NotTheirTurn {
        turn: &'a str,
        owner: &'a str,
        fighter: &'a str,
    },
    /// A fighter on a double counter cannot be activated (13.0).
    Spent { fighter: &'a str },
    /// A Move with a step move.
    StepInMove { fighter: &'a str },
    /// A Move further than allowed.
    TooFar {
        fighter: &'a str,
        allowance: f64,
        moved: f64,
    },
    /// The Action Phase cannot end: these fighters can still be activated.
    StillReady { fighters: &'a [&'a str] },
}

impl fmt::Display for Fault<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Fault::StepTooLong { fighter, inches } => write!(
                f,
                "a step move is up to 1\"; {fighter}'s step move is {}",
                Inches(inches)
            ),
            Fault::NotTheirs {
                player,
                fighter,
                owner,
            } => write!(
                f,
                "{player} cannot activate {fighter}: it is {owner}'s fighter, and on your turn you choose one of your own fighters"
            ),
            Fault::NotTheirTurn {
                turn,
                owner,
                fighter,
            } => write!(
                f,
                "it is {turn}'s turn, not {owner}'s: players take it in turns, so {fighter} cannot be activated now"
            ),
            Fault::Spent { fighter } => write!(
                f,
                "{fighter} has a double action counter: it cannot perform actions and cannot be chosen to activate"
            ),
            Fault::StepInMove { fighter } => write!(
                f,
                "{fighter} is making a Move action: do not make a step move as part of this action"
            ),
            Fault::TooFar {
                fighter,
                allowance,
                moved,
            } => write!(
                f,
                "{fighter} may move at most {} on this Move, but moves {}",
                Inches(allowance),
                Inches(moved)
            ),
            Fault::StillReady { fighters } => write!(
                f,
                "the Action Phase ends when there are no fighters that can be activated; still able to: {}",
                fighters.join(", ")
            ),
        }
    }
}

/// An attack, target or action the fighter cannot use (an error).
#[derive(Debug, Clone, Copy)]
pub enum Unavailable<'a> {
    /// A fighter with no attacks on the board.
    NoAttacks { fighter: &'a str },
    /// An attack the fighter does not have.
    NoSuchAttack {
        fighter: &'a str,
        error: &'a NameError,
    },
    /// The attacker targets itself.
    AttacksItself { fighter: &'a str },
    /// A target not on the `visible` list; `list`: whose list.
    NotVisible {
        target: &'a str,
        fighter: &'a str,
        list: &'a str,
    },
    /// An action the fighter does not have.
    NoSuchAction {
        fighter: &'a str,
        error: &'a NameError,
    },
    /// A name a typo away from Move, Attack or Guard.
    Misspelt { action: &'a str, meant: &'a str },
}

impl fmt::Display for Unavailable<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unavailable::NoAttacks { fighter } => write!(
                f,
                "{fighter} has no attacks listed on the board (`attacks`), so it has no attack available"
            ),
            Unavailable::NoSuchAttack { fighter, error } => {
                write!(f, "{fighter}: {error} (not available to this fighter)")
            }
            Unavailable::AttacksItself { fighter } => write!(
                f,
                "{fighter} cannot attack itself: the target excludes the attacker"
            ),
            Unavailable::NotVisible {
                target,
                fighter,
                list,
            } => write!(
                f,
                "{target} is not visible to {fighter} (visibility, rule 16.0, is not indexed; {list} `visible` list was used): an attack needs a visible target"
            ),
            Unavailable::NoSuchAction { fighter, error } => write!(
                f,
                "{fighter} can make only the actions available to it: {error}; Move, Attack and Guard are available to all fighters"
            ),
            Unavailable::Misspelt { action, meant } => write!(
                f,
                "unknown action '{action}'; did you mean '{meant}'? (Move, Attack and Guard are available to all fighters; any other action is named as the fighter's card names it)"
            ),
        }
    }
}

/// A fault of a reaction: an error on its own, refused during an action
/// ([`ReactionFault::Refused`]).
#[derive(Debug, Clone, Copy)]
pub enum ReactionFault<'a> {
    /// A step move over 1".
    Step(Fault<'a>),
    /// Only the controlling player may make the reaction.
    NotController {
        player: &'a str,
        fighter: &'a str,
        owner: &'a str,
    },
    /// The fighter lists no reactions.
    NoReactions { fighter: &'a str, reaction: &'a str },
    /// A reaction the fighter does not have.
    NoSuchReaction {
        fighter: &'a str,
        error: &'a NameError,
    },
    /// A double action counter; `guard`: even a Guard-free one.
    Spent { fighter: &'a str, guard: bool },
    /// The fighter whose activation it is: its one action is the action made.
    Activated { fighter: &'a str },
    /// The trigger condition is not met, and why.
    NotMet {
        reaction: &'a str,
        trigger: &'a str,
        why: Unmet<'a>,
    },
    /// Refused during an action: the action resolves without it.
    Refused(&'a ReactionFault<'a>),
}

impl fmt::Display for ReactionFault<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ReactionFault::Step(fault) => fault.fmt(f),
            ReactionFault::NotController {
                player,
                fighter,
                owner,
            } => write!(
                f,
                "{player} cannot make {fighter}'s reaction: only {owner}, its controlling player, may choose to make it"
            ),
            ReactionFault::NoReactions { fighter, reaction } => write!(
                f,
                "{fighter} has no reactions listed on the board, so '{reaction}' is not available to it"
            ),
            ReactionFault::NoSuchReaction { fighter, error } => {
                write!(f, "{fighter} does not have that reaction: {error}")
            }
            ReactionFault::Spent { fighter, guard } => {
                write!(
                    f,
                    "{fighter} has a double action counter: it cannot perform actions, and a reaction is an action"
                )?;
                match guard {
                    true => f.write_str(SPENT_OPEN),
                    false => Ok(()),
                }
            }
            ReactionFault::Activated { fighter } => write!(
                f,
                "{fighter} is the fighter activated: during its activation it may make one action, the one it made, and a reaction is an action"
            ),
            ReactionFault::NotMet {
                reaction,
                trigger,
                why,
            } => write!(
                f,
                "{reaction} can only be used when its trigger condition ({trigger}) is met; {why}"
            ),
            ReactionFault::Refused(fault) => write!(
                f,
                "{fault}; the reaction is not made and the action resolves without it"
            ),
        }
    }
}

/// A double counter's fault, when Guard would make the reaction free.
const SPENT_OPEN: &str = " (open question: this holds even for a Dodge or Deflect that Guard makes free; see the step's assumption)";

/// Why a reaction's trigger condition is not met.
#[derive(Debug, Clone, Copy)]
pub enum Unmet<'a> {
    /// The attack it reacts to resolved, its reaction settled then.
    Settled {
        attacker: &'a str,
        fighter: &'a str,
        owner: &'a str,
    },
    /// The last action was another: (fighter, action, target).
    Last {
        fighter: &'a str,
        action: &'a str,
        target: Option<&'a str>,
    },
    /// No action has been made.
    NoAction,
    /// The play says the trigger is not met.
    Denied,
    /// The engine cannot tell, and the play does not say.
    Unknown,
}

impl fmt::Display for Unmet<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unmet::Settled {
                attacker,
                fighter,
                owner,
            } => write!(
                f,
                "{attacker}'s attack on {fighter} has resolved, and {owner}'s reaction to it was settled then (asked, answered or impossible); no reaction can be made to it now"
            ),
            Unmet::Last {
                fighter,
                action,
                target,
            } => {
                write!(
                    f,
                    "the trigger condition is not met: the last action was {fighter}'s {action}"
                )?;
                match target {
                    Some(t) => write!(f, " against {t}"),
                    None => Ok(()),
                }
            }
            Unmet::NoAction => {
                f.write_str("the trigger condition is not met: no action has been made")
            }
            Unmet::Denied => f.write_str("the play says it is not"),
            Unmet::Unknown => f.write_str(TRIGGER_UNKNOWN),
        }
    }
}

/// The trigger the engine cannot check, and the play does not say is met.
const TRIGGER_UNKNOWN: &str = "the engine cannot tell from the board, so add `trigger_met: true` if it was (or give the reaction `trigger: attacked` on the board)";

/// Warnings and notes on a ruling.
#[derive(Debug, Clone, Copy)]
pub enum Notice<'a> {
    /// The target is on the attacker's own side.
    OwnSide { target: &'a str, fighter: &'a str },
    /// Another action's card text is not applied.
    ActionText { fighter: &'a str, action: &'a str },
    /// A reaction's card text is not applied.
    ReactionText { fighter: &'a str, reaction: &'a str },
    /// The board does not say who passed first: the first turn goes by seat.
    FirstBySeat { player: &'a str },
}

impl fmt::Display for Notice<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Notice::OwnSide { target, fighter } => write!(
                f,
                "{target} is on {fighter}'s own side; the indexed text excludes only the attacker itself, so this is allowed"
            ),
            Notice::ActionText { fighter, action } => write!(
                f,
                "card text not applied: {fighter}'s {action} (its effects are outside the indexed text, 13.0–13.5)"
            ),
            Notice::ReactionText { fighter, reaction } => write!(
                f,
                "card text not applied: {fighter}'s {reaction} (its effects are outside the indexed text; 18.4 Dodge and Deflect are not indexed)"
            ),
            Notice::FirstBySeat { player } => write!(
                f,
                "the board does not record who was first to pass in the Channelling Phase (13.0 gives that player the first turn; the Channelling Phase is not indexed): the first turn goes to {player} (seat order, moving one seat each round: an assumption outside the indexed rules; adjust `turn` or set `first_to_pass` if your table differs)"
            ),
        }
    }
}

/// Movement out of range.
pub const MOVEMENT_RANGE: &str = "Movement must be between 0 and 100 inches";
/// Whose turn it is is not stated.
pub const NO_TURN: &str = "say whose `turn` it is in the Action Phase, or, if no turn has been taken yet, `first_turn: true` with `first_to_pass` (the player who was first to pass in the Channelling Phase takes the first turn)";
/// A negative distance.
pub const NEGATIVE: &str = "a distance cannot be negative";
/// The activation names no action.
pub const NO_ACTION: &str = "say which action the fighter makes: move, attack, guard, or the name of another action (13.0 says the activated fighter \"may make one action\"; whether an activation may end with none is outside the indexed text, so this tool needs the action named)";
/// A Move with neither distance nor destination.
pub const MOVE_HOW_FAR: &str = "a Move needs a `distance` in inches or a destination `to: [x, y]`";
/// A play with both `activate` and `react`.
pub const BOTH_KINDS: &str = "a play is either `activate: FIGHTER` (with its action) or `react: REACTION` with `fighter: FIGHTER`, not both";
/// A play with neither.
pub const NO_KIND: &str = "say what the play is: `activate: FIGHTER` with an action, or `react: REACTION` with `fighter: FIGHTER`";

/// Why a board or a play cannot be judged (before any step).
#[derive(Debug, Clone, Copy)]
pub enum Misread<'a> {
    /// A number of inches out of range.
    Inches { what: &'a str, max: f64 },
    /// Two players or fighters with one name.
    SameName { what: &'a str, name: &'a str },
    /// The first turn is not the first to pass's.
    FirstTurn { first: &'a str, turn: &'a str },
    /// A field of another action.
    Misplaced { field: &'a str },
    /// A Move's `distance` and the length of the line to its `to` differ.
    MoveDisagrees {
        fighter: &'a str,
        stated: f64,
        from: [f64; 2],
        to: [f64; 2],
        measured: f64,
    },
}

impl fmt::Display for Misread<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Misread::Inches { what, max } => write!(
                f,
                "{what} must be a number of inches between -{max} and {max}"
            ),
            Misread::SameName { what, name } => write!(
                f,
                "two {what}s are called '{name}'; give each its own name (e.g. '{name} 2')"
            ),
            Misread::FirstTurn { first, turn } => write!(
                f,
                "this is the first turn of the Action Phase (`first_turn`), which {first} takes as first to pass in the Channelling Phase, but the board says it is {turn}'s turn; the first turn follows `first_to_pass`: correct that field, and `turn` goes with it"
            ),
            Misread::Misplaced { field } => write!(f, "`{field}` does not belong to this action"),
            Misread::MoveDisagrees {
                fighter,
                stated,
                from,
                to,
                measured,
            } => write!(
                f,
                "`distance` and `to` disagree: `distance` says {fighter} moves {}, but `to: {}` is {} from its position {} in a straight line, the shortest way there; give one of them, or make them agree",
                Inches(stated),
                At(to),
                Inches(measured),
                At(from)
            ),
        }
    }
}

/// Questions put to a player, and the labels of their answers.
#[derive(Debug, Clone, Copy)]
pub enum Question<'a> {
    /// Which of the fighter's attacks.
    WhichAttack { player: &'a str, fighter: &'a str },
    /// Which fighter the attack targets.
    WhichTarget {
        player: &'a str,
        fighter: &'a str,
        attack: &'a str,
    },
    /// Whether the attacked fighter reacts.
    React {
        player: &'a str,
        fighter: &'a str,
        attacker: &'a str,
    },
    /// The answer: this reaction, free when Guard makes it so.
    ReactWith {
        reaction: &'a str,
        fighter: &'a str,
        free: bool,
    },
}

impl fmt::Display for Question<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Question::WhichAttack { player, fighter } => {
                write!(f, "{player}: which attack does {fighter} make?")
            }
            Question::WhichTarget {
                player,
                fighter,
                attack,
            } => write!(
                f,
                "{player}: {fighter} attacks which fighter with {attack}?"
            ),
            Question::React {
                player,
                fighter,
                attacker,
            } => write!(f, "{player}: {fighter} is attacked by {attacker}; react?"),
            Question::ReactWith {
                reaction,
                fighter,
                free,
            } => {
                write!(f, "{reaction} with {fighter}")?;
                match free {
                    true => f.write_str(" (free: Guard)"),
                    false => Ok(()),
                }
            }
        }
    }
}

/// What a player chose, as recorded on a step.
#[derive(Debug, Clone, Copy)]
pub enum Chose<'a> {
    /// The fighter activated.
    Activate { fighter: &'a str },
    /// The Guard action.
    Guard,
    /// The Move made.
    Move { inches: f64 },
    /// The attack and its target.
    Attack { attack: &'a str, target: &'a str },
    /// No reaction with the attacked fighter.
    NoReaction { fighter: &'a str },
    /// The reaction made, with its fighter.
    Reaction { reaction: &'a str, fighter: &'a str },
}

impl fmt::Display for Chose<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Chose::Activate { fighter } => write!(f, "to activate {fighter}"),
            Chose::Guard => f.write_str("Guard"),
            Chose::Move { inches } => write!(f, "Move {}", Inches(inches)),
            Chose::Attack { attack, target } => write!(f, "{attack} against {target}"),
            Chose::NoReaction { fighter } => write!(f, "no reaction with {fighter}"),
            Chose::Reaction { reaction, fighter } => write!(f, "{reaction} with {fighter}"),
        }
    }
}

/// The reading of visibility (16.0 is not indexed): from whose `visible`
/// list (`the play's`, `the board's`), or none given.
#[derive(Debug, Clone, Copy)]
pub struct Visibility<'a>(pub Option<&'a str>);

impl fmt::Display for Visibility<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(list) => write!(
                f,
                "visibility (16.0) is not indexed: taken from {list} `visible` list"
            ),
            None => f.write_str(NOT_VISIBLE_LISTED),
        }
    }
}

/// No `visible` list for the attacker.
const NOT_VISIBLE_LISTED: &str = "visibility (16.0) is not indexed and the board gives no `visible` list for the attacker: the target is taken to be visible";
