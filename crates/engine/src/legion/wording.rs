//! How the Legion rulings read: the steps of an activation, the faults that
//! make a step illegal, the warnings and notes, the questions put to
//! players, the readings the engine takes and how a game's result reads.
//! Built from typed values, so the procedure says what happened and this
//! module says how it reads.

use std::fmt;

use super::board::{Grant, Kind};
use super::rules::{SAME, TYPED};
use crate::kit::into_string;
use crate::text::count;

/// Whether a free card action triggers abilities after actions.
pub const FREE_CARD_READING: &str = "the indexed text calls each free card action 'a unique action' but does not say whether it triggers abilities that occur after actions; read as: it does (the other reading, that it does not, is not applied)";
/// Attack and standby in one activation.
pub const STANDBY_READING: &str = "whether a unit may attack and perform a standby action in the same activation is not covered by the indexed rules; the ruling allows it under the indexed text only (they are different actions; the other reading, that they exclude each other, would come from the Standby entry of the full rules)";
/// The warning beside [`STANDBY_READING`].
pub const STANDBY_UNCOVERED: &str = "not covered by the indexed rules: attack and standby in one activation (the indexed 'Actions' text neither allows nor forbids it; check the Standby entry of the full rules)";
/// Readings on a step that name what they read.
#[derive(Debug, Clone, Copy)]
pub enum Reading<'a> {
    /// A card action and a free card action of one name, both performed.
    SameNameCards(&'a str),
}

impl fmt::Display for Reading<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Reading::SameNameCards(card) => write!(
                f,
                "{card} is performed both as a card action and as a free card action: the indexed text forbids repeating the same card action (legion:actions.3.1) and the same free card action (legion:actions.4.1) but does not say whether the two of one name count as the same action; read as: they do not (the other reading refuses the second)"
            ),
        }
    }
}

/// How much suppression and damage reduce the actions.
pub const REDUCTION_READING: &str = "the size of each reduction comes from the board; the indexed text says suppression and damage can reduce the actions but not by how much";
/// The default of "does the effect name the free action's type?".
pub const TYPED_DEFAULT: &str = "legion:actions.7 and legion:actions.8 give no default; read as: the effect names the type of the free action, as `free_action` says (legion:actions.7); if it gives a free action without a type, add `untyped: true` (legion:actions.8)";
/// A play with no unit to act for.
pub const NO_UNIT: &str = "no unit is activating and the board does not say whose turn it is: start the play with `activate UNIT`";
/// `activate` or `end` out of place in a play.
pub const FIRST_AND_LAST: &str = "`activate` is the first step of a play and `end` the last";
/// An ability with neither trigger nor grant: the data the engine applies.
pub const DATA_AFTER_GRANTS: &str = "`after` and `grants`";
/// An ability whose grant the engine does not apply: the data it applies.
pub const DATA_GRANTS: &str = "`grants` free_action, extra_attack or token";

/// A step with no kind.
pub const STEP_NEEDED: &str = "a step needs one of `action`, `free_action`, `free_card_action`, `extra_attack`, `gain` (or `activate` / `end`)";
/// `activate` or `end` in the record.
pub const PLAY_STEPS: &str = "the record of an activation lists what the unit did; starting or ending an activation is a play";
/// `end: false`, `extra_attack: false`.
pub const TRUE_OR_OMIT: &str = "write `true` or leave the step out";
/// A source on a step that is not granted.
pub const FREE_SOURCE_ONLY: &str = "only a granted step (`free_action`, `extra_attack`, `gain`) has an `ability` or `effect` source";
/// `untyped` out of place.
pub const UNTYPED_ALONE: &str = "`untyped` only goes with a `free_action` from an `effect` (an ability's data already says its type)";
/// `card` out of place.
pub const CARD_ALONE: &str = "`card` only goes with a card action";
/// A step of more than one kind.
pub const ONE_STEP: &str = "a step is one thing: give only one of `activate`, `end`, `action`, `free_action`, `free_card_action`, `extra_attack`, `gain`";
/// `activate` or `end` where an action is read.
pub const END_NOT_ACTION: &str = "`activate` and `end` are not actions";
/// A card action without its card.
pub const CARD_NEEDED: &str = "a card action needs `card: <one of the unit's card_actions>`";
/// Both `ability` and `effect`.
pub const BOTH_SOURCES: &str = "give `ability` or `effect`, not both";

/// The answers to "does the effect name the free action's type?", as chosen.
pub const CHOSE_TYPE: [&str; 2] = [
    "to take a free action of the type the effect names",
    "to take a free action without a type",
];

into_string!(
    Misread,
    Reading,
    Opening,
    Activation,
    Performs,
    NotAnAction,
    Trigger,
    Summary,
    Fault,
    StepFault,
    Notice,
    Question,
    Chose,
    What,
    Outcome,
    Claimed
);

/// A step granted by an effect the board does not record (`(effect: …)`):
/// its author's word, which the other players confirm in a match.
#[derive(Debug, Clone, Copy)]
pub enum Claimed<'a> {
    FreeAction {
        effect: &'a str,
        unit: &'a str,
        what: What<'a>,
    },
    ExtraAttack {
        effect: &'a str,
        unit: &'a str,
    },
    Token {
        effect: &'a str,
        unit: &'a str,
        kind: Kind,
    },
}

impl fmt::Display for Claimed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Claimed::FreeAction { effect, unit, what } => {
                write!(f, "the effect {effect} gives {unit} a free {what}")
            }
            Claimed::ExtraAttack { effect, unit } => write!(
                f,
                "the effect {effect} gives {unit} an attack that is not an action"
            ),
            Claimed::Token { effect, unit, kind } => write!(
                f,
                "the effect {effect} gives {unit} one {} token",
                kind.name()
            ),
        }
    }
}

/// A name in the possessive: `Han Solo's`, `Stormtroopers'`.
struct Possessive<'a>(&'a str);

impl fmt::Display for Possessive<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.ends_with(['s', 'S']) {
            true => write!(f, "{}'", self.0),
            false => write!(f, "{}'s", self.0),
        }
    }
}

/// `2 actions`, `1 action`.
fn acts(n: u32) -> String {
    count(n as usize, "action")
}

/// How an action type first performed counts, as the rule (`done`) says.
fn how(rule: &str) -> &'static str {
    match rule {
        SAME => "as one of its actions",
        TYPED => "as a free action of that type, which is considered an action for game effects",
        _ => "as an untyped free action, which is considered an action for game effects",
    }
}

/// What an ability triggers after: any action, or one type.
struct AfterText(Option<Kind>);

impl fmt::Display for AfterText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            None => f.write_str("any action"),
            Some(Kind::Card) => f.write_str("a card action"),
            Some(k) => write!(f, "{} action", k.a()),
        }
    }
}

/// An action type, or a card action by name: `attack action`, `card action
/// Force Choke`.
#[derive(Debug, Clone, Copy)]
pub struct What<'a> {
    pub kind: Kind,
    pub card: Option<&'a str>,
}

impl fmt::Display for What<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.card {
            Some(c) => write!(f, "card action {c}"),
            None => write!(f, "{} action", self.kind.name()),
        }
    }
}

/// [`What`] as the object of "performs": `an attack action`, `the card
/// action Force Choke`.
struct Object<'a>(What<'a>);

impl fmt::Display for Object<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.card {
            Some(_) => write!(f, "the {}", self.0),
            None => write!(f, "{} action", self.0.kind.a()),
        }
    }
}

/// The opening steps of an activation.
#[derive(Debug, Clone, Copy)]
pub enum Opening<'a> {
    /// Two actions, reduced: (amount, source) of each reduction.
    Reduced {
        unit: &'a str,
        avail: u32,
        cut: u32,
        reductions: &'a [(u32, &'a str)],
    },
    /// Fewer than two actions, no source given.
    Fewer { unit: &'a str, avail: u32 },
    /// Two actions.
    Two { unit: &'a str },
    /// The unit's card actions.
    CardActions { unit: &'a str, cards: &'a [String] },
    /// What the record says the unit did already.
    Already { history: &'a [String] },
    /// A token from an effect or ability; `may_still`: that action is not
    /// performed yet.
    HasToken {
        unit: &'a str,
        kind: Kind,
        by: &'a str,
        may_still: bool,
    },
}

impl fmt::Display for Opening<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Opening::Reduced {
                unit,
                avail,
                cut,
                reductions,
            } => {
                write!(
                    f,
                    "{unit} is activated with {}: two, reduced by {cut} (",
                    acts(avail)
                )?;
                for (i, (amount, source)) in reductions.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "; " };
                    write!(f, "{sep}{amount} for {source}")?;
                }
                f.write_str(")")?;
                if cut > 2 {
                    write!(f, ", more than its two actions, so none are left")?;
                }
                only_free(f, avail)
            }
            Opening::Fewer { unit, avail } => {
                write!(
                    f,
                    "{unit} is activated with {}, as the board gives (fewer than two; no source given)",
                    acts(avail)
                )?;
                only_free(f, avail)
            }
            Opening::Two { unit } => write!(f, "{unit} is activated: it can perform two actions"),
            Opening::CardActions { unit, cards } => write!(
                f,
                "card actions of {unit}: {} (each ability preceded by the card action icon is a card action)",
                cards.join(", ")
            ),
            Opening::Already { history } => {
                write!(f, "already this activation: {}", history.join("; "))
            }
            Opening::HasToken {
                unit,
                kind,
                by,
                may_still,
            } => {
                let a = kind.a();
                write!(
                    f,
                    "{unit} has {a} token from {by}: gaining it was not performing {a} action"
                )?;
                match may_still {
                    true => may_still_perform(f, unit, kind, ""),
                    false => Ok(()),
                }
            }
        }
    }
}

/// With no actions available: what remains.
fn only_free(f: &mut fmt::Formatter<'_>, avail: u32) -> fmt::Result {
    match avail {
        0 => f.write_str(
            "; only free actions, free card actions and attacks that are not actions remain",
        ),
        _ => Ok(()),
    }
}

/// `; UNIT may still perform A action` then `tail`.
fn may_still_perform(
    f: &mut fmt::Formatter<'_>,
    unit: &str,
    kind: Kind,
    tail: &str,
) -> fmt::Result {
    write!(f, "; {unit} may still perform {} action{tail}", kind.a())
}

/// The activation as a whole: which unit activates, how much it did.
#[derive(Debug, Clone, Copy)]
pub enum Activation<'a> {
    /// A unit activates; `only`: the only one of its player not yet activated.
    Activates {
        player: &'a str,
        unit: &'a str,
        only: bool,
    },
    /// The Activation Phase begins.
    PhaseBegins { units: usize, first: &'a str },
    /// More than two actions, through free actions.
    More { unit: &'a str, total: u32 },
    /// Attack and standby in one activation.
    AttackAndStandby { unit: &'a str },
}

impl fmt::Display for Activation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Activation::Activates { player, unit, only } => {
                write!(f, "{player} activates {unit}")?;
                if only {
                    write!(f, " (the only unit of {player} that has not activated)")?;
                }
                f.write_str(": during the Activation Phase, each unit can perform actions")
            }
            Activation::PhaseBegins { units, first } => write!(
                f,
                "during the Activation Phase, each unit can perform actions: {} to activate, {first} first",
                count(units, "unit")
            ),
            Activation::More { unit, total } => write!(
                f,
                "{unit} has now performed {total} actions this activation: more than two, through free actions"
            ),
            Activation::AttackAndStandby { unit } => write!(
                f,
                "{unit} has both attacked and performed a standby action this activation; attack and standby are different actions, so the rule against repeating an action does not forbid it"
            ),
        }
    }
}

/// Why an action may be performed although its type or a card action was
/// performed before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Again {
    /// Nothing performed before stands in its way.
    No,
    /// The move action can be repeated.
    Move,
    /// A different card action from the earlier one.
    OtherCard,
}

impl fmt::Display for Again {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Again::No => "",
            Again::Move => ": the move action can be performed more than once",
            Again::OtherCard => {
                ": each card action is a unique action, and this one is different from the earlier one"
            }
        })
    }
}

/// The steps a unit performs.
#[derive(Debug, Clone, Copy)]
pub enum Performs<'a> {
    /// An action, the `used`th of `avail`; `token`: it gains its token.
    Action {
        unit: &'a str,
        what: What<'a>,
        used: u32,
        avail: u32,
        again: Again,
        token: bool,
    },
    /// A free action from `source`: of its type (`typed`), or without a
    /// type used as `what`; `token`: it gains its token.
    Free {
        unit: &'a str,
        what: What<'a>,
        source: &'a str,
        typed: bool,
        avail: u32,
        used: u32,
        token: bool,
    },
    /// A free card action; `first`: the first this activation.
    FreeCard {
        unit: &'a str,
        card: &'a str,
        first: bool,
        used: u32,
    },
}

impl fmt::Display for Performs<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Performs::Action {
                unit,
                what,
                used,
                avail,
                again,
                token,
            } => {
                write!(
                    f,
                    "{unit} performs {} (action {used} of {avail}){again}",
                    Object(what)
                )?;
                gains_token(f, what.kind, token)
            }
            Performs::Free {
                unit,
                what,
                source,
                typed,
                avail,
                used,
                token,
            } => {
                free_action(f, unit, what, source, typed)?;
                write!(
                    f,
                    ": it does not count against its {} ({used} used), but it is an action for game effects",
                    acts(avail)
                )?;
                gains_token(f, what.kind, token)
            }
            Performs::FreeCard {
                unit,
                card,
                first,
                used,
            } => {
                let other = match first {
                    true => "free card actions do not count against its actions",
                    false => {
                        "a different free card action from the earlier one; it does not count against its actions"
                    }
                };
                write!(
                    f,
                    "{unit} performs the free card action {card}: {other} ({used} used)"
                )
            }
        }
    }
}

/// What a unit does that is not an action.
#[derive(Debug, Clone, Copy)]
pub enum NotAnAction<'a> {
    /// An attack that is not an action; `before`: how an attack action was
    /// performed before it (its rule).
    ExtraAttack {
        unit: &'a str,
        source: &'a str,
        avail: u32,
        used: u32,
        before: Option<&'a str>,
    },
    /// A token gained from an effect; `may_still`: that action is not
    /// performed yet.
    Gains {
        unit: &'a str,
        kind: Kind,
        source: &'a str,
        may_still: bool,
    },
}

impl fmt::Display for NotAnAction<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NotAnAction::ExtraAttack {
                unit,
                source,
                avail,
                used,
                before,
            } => {
                write!(
                    f,
                    "{unit} performs an attack that is not an action ({source}): it does not count toward the single attack action, nor against its {} ({used} used)",
                    acts(avail)
                )?;
                match before {
                    Some(first) => write!(
                        f,
                        ", so it can be performed even though {unit} has already performed an attack action ({})",
                        how(first)
                    ),
                    None => Ok(()),
                }
            }
            NotAnAction::Gains {
                unit,
                kind,
                source,
                may_still,
            } => {
                let a = kind.a();
                write!(
                    f,
                    "{unit} gains {a} token from an effect ({source}): that is different from performing {a} action"
                )?;
                match may_still {
                    true => may_still_perform(f, unit, kind, " this activation"),
                    false => Ok(()),
                }
            }
        }
    }
}

/// `UNIT performs a free … action (SOURCE)`, of its type or without one.
fn free_action(
    f: &mut fmt::Formatter<'_>,
    unit: &str,
    what: What,
    source: &str,
    typed: bool,
) -> fmt::Result {
    match typed {
        true => {
            write!(
                f,
                "{unit} performs a free {} action ({source})",
                what.kind.name()
            )?;
            match what.card {
                Some(c) => write!(f, ", the card action {c}"),
                None => Ok(()),
            }
        }
        false => write!(
            f,
            "{unit} performs a free action without a type ({source}) as {}, an action it could normally perform",
            Object(what)
        ),
    }
}

/// ` and gains A token` when the action gives one.
fn gains_token(f: &mut fmt::Formatter<'_>, kind: Kind, token: bool) -> fmt::Result {
    match token {
        true => write!(f, " and gains {} token", kind.a()),
        false => Ok(()),
    }
}

/// Why an ability triggers.
#[derive(Debug, Clone, Copy)]
pub enum Because {
    /// After a free card action.
    FreeCard,
    /// After a free action.
    Free,
    /// After an action of the type it names (or any).
    After(Option<Kind>),
}

/// What a triggered ability lets the unit do.
#[derive(Debug, Clone, Copy)]
pub enum Grants {
    /// A free action of this type.
    FreeOf(Kind),
    /// A free action of any type.
    FreeAny,
    /// An attack that is not an action.
    ExtraAttack,
    /// A token.
    Token(Kind),
    /// Nothing the engine applies.
    Unapplied,
}

/// Why an ability does not trigger after something that is not an action.
#[derive(Debug, Clone, Copy)]
pub enum Lapse {
    /// An attack that is not an action.
    ExtraAttack,
    /// A token gained from an effect.
    Token(Kind),
}

/// Abilities that trigger, or do not.
#[derive(Debug, Clone, Copy)]
pub enum Trigger<'a> {
    Triggers {
        ability: &'a str,
        unit: &'a str,
        why: Because,
        grant: Grants,
    },
    NotTriggered {
        ability: &'a str,
        why: Lapse,
    },
}

impl fmt::Display for Trigger<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Trigger::Triggers {
                ability,
                unit,
                why,
                grant,
            } => {
                write!(f, "{ability} triggers (")?;
                match why {
                    Because::FreeCard => f.write_str("a free card action is an action")?,
                    Because::Free => f.write_str(
                        "a free action is considered an action for the purposes of game effects",
                    )?,
                    Because::After(t) => write!(f, "after {}", AfterText(t))?,
                }
                write!(f, "): {unit} ")?;
                match grant {
                    Grants::FreeOf(k) => write!(f, "may perform a free {} action", k.name()),
                    Grants::FreeAny => f.write_str(
                        "may perform a free action of any type it could normally perform",
                    ),
                    Grants::ExtraAttack => {
                        f.write_str("may perform an attack that is not an action")
                    }
                    Grants::Token(k) => write!(f, "may gain {} token", k.a()),
                    Grants::Unapplied => f.write_str("what its card says happens is not applied"),
                }
            }
            Trigger::NotTriggered { ability, why } => {
                write!(f, "{ability} does not trigger: ")?;
                match why {
                    Lapse::ExtraAttack => f.write_str(EXTRA_ATTACK_LAPSE),
                    Lapse::Token(k) => write!(
                        f,
                        "gaining {} token from an effect does not trigger abilities or effects that occur after {} actions",
                        k.a(),
                        k.name()
                    ),
                }
            }
        }
    }
}

/// Why an attack that is not an action triggers nothing.
const EXTRA_ATTACK_LAPSE: &str = "this attack is not an action, and it does not trigger abilities that occur after actions are performed";

/// What the actions left may be.
#[derive(Debug, Clone, Copy)]
pub enum May<'a> {
    Kind(Kind),
    Card(&'a str),
}

/// What the actions left may not be: a type performed (as the rule says),
/// a card action performed.
#[derive(Debug, Clone, Copy)]
pub enum MayNot<'a> {
    Kind(Kind, &'a str),
    Card(&'a str),
}

/// Where the activation stands.
#[derive(Debug, Clone)]
pub struct Summary<'a> {
    pub unit: &'a str,
    pub used: u32,
    pub avail: u32,
    pub free: u32,
    pub extra: u32,
    pub may: Vec<May<'a>>,
    pub not: Vec<MayNot<'a>>,
    /// Abilities triggered and not yet used.
    pub open: Vec<&'a str>,
}

impl fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self;
        write!(
            f,
            "{} has used {} of {} this activation",
            s.unit,
            s.used,
            acts(s.avail)
        )?;
        if s.free > 0 {
            write!(f, ", plus {}", count(s.free as usize, "free action"))?;
        }
        match s.extra {
            0 => {}
            1 => f.write_str(", and made 1 attack that is not an action")?,
            n => write!(f, ", and made {n} attacks that are not actions")?,
        }
        match s.avail.saturating_sub(s.used) {
            0 => {
                f.write_str("; no actions remain, but free actions may still let it perform more")?
            }
            left => s.left(f, left)?,
        }
        if !s.open.is_empty() {
            write!(f, ". Triggered and not yet used: {}", s.open.join(", "))?;
        }
        Ok(())
    }
}

impl Summary<'_> {
    /// `; N actions left, which may be: …; not: …`.
    fn left(&self, f: &mut fmt::Formatter<'_>, left: u32) -> fmt::Result {
        write!(f, "; {} left, which may be: ", acts(left))?;
        for (i, m) in self.may.iter().enumerate() {
            f.write_str(if i == 0 { "" } else { ", " })?;
            match m {
                May::Kind(k) => f.write_str(k.name())?,
                May::Card(c) => write!(f, "card action {c}")?,
            }
        }
        for (i, m) in self.not.iter().enumerate() {
            f.write_str(if i == 0 { "; not: " } else { "; " })?;
            match m {
                MayNot::Kind(k, first) => write!(f, "{} ({})", k.name(), how(first))?,
                MayNot::Card(c) => write!(f, "card action {c} (already performed)")?,
            }
        }
        Ok(())
    }
}

/// What makes a play illegal before any step (an error).
#[derive(Debug, Clone, Copy)]
pub enum Fault<'a> {
    /// The board is in another phase (`now` names it).
    NotActivationPhase { now: &'a str },
    /// The player whose turn it is has no unit left to activate.
    NoUnitLeft { player: &'a str },
    /// Another player's unit is still activating with actions left.
    StillActivating {
        unit: &'a str,
        owner: &'a str,
        left: u32,
    },
    /// It is another player's turn (`due`).
    NotTheirTurn { due: &'a str, player: &'a str },
    /// The unit has activated this round.
    Activated { unit: &'a str },
    /// The board's record of the activation is illegal.
    RecordIllegal { why: &'a str },
    /// Units have not activated: (player, units).
    Waiting {
        waiting: &'a [(String, Vec<&'a str>)],
    },
}

impl fmt::Display for Fault<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Fault::NotActivationPhase { now } => write!(
                f,
                "units perform actions during the Activation Phase; the board is in the {now} (move on with `advance`)"
            ),
            Fault::NoUnitLeft { player } => {
                write!(f, "{player} has no unit left to activate this round")
            }
            Fault::StillActivating { unit, owner, left } => {
                let actions = if left == 1 { "action" } else { "actions" };
                write!(
                    f,
                    "{unit} ({owner}'s) is still activating with {left} {actions} left: only {owner} moves on, with `end` or by using them (players take turns activating units: outside the indexed rules)"
                )
            }
            Fault::NotTheirTurn { due, player } => write!(
                f,
                "it is {due}'s turn to activate a unit, not {player}'s (players take turns activating units: outside the indexed rules)"
            ),
            Fault::Activated { unit } => write!(
                f,
                "{unit} has already activated this round (each unit activates once a round: outside the indexed rules)"
            ),
            Fault::RecordIllegal { why } => {
                write!(f, "the activation so far is not legal: {why}")
            }
            Fault::Waiting { waiting } => {
                f.write_str("units have not activated this round: ")?;
                for (i, (player, units)) in waiting.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "; " };
                    write!(f, "{sep}{player} ({})", units.join(", "))?;
                }
                f.write_str(WAITING)
            }
        }
    }
}

/// After the units still waiting to activate.
const WAITING: &str = ". The Activation Phase ends once every unit has activated (outside the indexed rules, which say only that during the Activation Phase each unit can perform actions): activate them (`activate UNIT; end` performs nothing), or mark a unit that will not activate with `adjust … activated true`";

/// What makes a step illegal (an error).
#[derive(Debug, Clone, Copy)]
pub enum StepFault<'a> {
    /// The ability's trigger was an attack that is not an action.
    AttackNotAction { ability: &'a str },
    /// The ability's trigger was a token gained from an effect.
    TokenNotAction { ability: &'a str },
    /// The ability is not triggered now (what it triggers after).
    NotOpen {
        ability: &'a str,
        after: Option<Kind>,
        unit: &'a str,
    },
    /// An ability without a trigger, used already.
    UsedOnce { ability: &'a str },
    /// No actions left; `reduced`: fewer than two were available.
    NoActionsLeft {
        unit: &'a str,
        used: u32,
        avail: u32,
        reduced: bool,
    },
    /// A card action performed again.
    CardAgain { unit: &'a str, card: &'a str },
    /// A free card action performed again.
    FreeCardAgain { unit: &'a str, card: &'a str },
    /// A non-move action type performed again ([`Repeat`]).
    Repeat(Repeat<'a>),
    /// An ability's free action of one type used as another.
    WrongType {
        ability: &'a str,
        typ: Kind,
        what: What<'a>,
    },
}

impl fmt::Display for StepFault<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StepFault::AttackNotAction { ability } => write!(
                f,
                "{ability} did not trigger: the attack before it was not an action, and such an attack does not trigger abilities that occur after actions"
            ),
            StepFault::TokenNotAction { ability } => write!(
                f,
                "{ability} did not trigger: gaining a token from an effect is not performing that action, so it does not trigger abilities that occur after that action"
            ),
            StepFault::NotOpen {
                ability,
                after,
                unit,
            } => write!(
                f,
                "{ability} triggers after {} (its data on the board), and {unit} has not just performed one, or has already used it",
                AfterText(after)
            ),
            StepFault::UsedOnce { ability } => write!(
                f,
                "{ability} has already been used this activation (an ability without a trigger is read as usable once)"
            ),
            StepFault::NoActionsLeft {
                unit,
                used,
                avail,
                reduced,
            } => no_actions_left(f, unit, used, avail, reduced),
            StepFault::CardAgain { unit, card } => write!(
                f,
                "{unit} has already performed the card action {card} this activation; a unit cannot perform the same card action more than once"
            ),
            StepFault::FreeCardAgain { unit, card } => write!(
                f,
                "{unit} has already performed the free card action {card} this activation; a unit cannot perform the same free card action more than once"
            ),
            StepFault::Repeat(r) => r.fmt(f),
            StepFault::WrongType { ability, typ, what } => write!(
                f,
                "{ability} provides a free action of a certain type, a free {} action; it cannot be used as {}",
                typ.name(),
                Object(what)
            ),
        }
    }
}

fn no_actions_left(
    f: &mut fmt::Formatter<'_>,
    unit: &str,
    used: u32,
    avail: u32,
    reduced: bool,
) -> fmt::Result {
    let nth = ["a first", "a second", "a third", "a fourth"]
        .get(used as usize)
        .map_or("another", |s| s);
    if avail == 0 {
        // Nothing used of nothing: say there are none.
        return write!(
            f,
            "{unit} has no actions this activation (its actions are reduced to 0); an action is not allowed, only free actions, free card actions or attacks that are not actions"
        );
    }
    write!(
        f,
        "{unit} has already used {used} of its {} this activation (",
        acts(avail)
    )?;
    match reduced {
        true => write!(f, "its actions are reduced to {avail}")?,
        false => f.write_str("a unit performs two actions when activated")?,
    }
    write!(
        f,
        "); {nth} action is not allowed, only free actions, free card actions or attacks that are not actions"
    )
}

/// A non-move action type performed again: `free` says whether this one is
/// a free action, typed or not; `first`, the rule the first one was
/// performed under; `left` of `avail` actions remain.
#[derive(Debug, Clone, Copy)]
pub struct Repeat<'a> {
    pub unit: &'a str,
    pub kind: Kind,
    pub free: Option<bool>,
    pub first: &'a str,
    pub left: u32,
    pub avail: u32,
}

impl fmt::Display for Repeat<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Repeat {
            unit,
            kind,
            free,
            first,
            left,
            avail,
        } = *self;
        let a = kind.a();
        match free {
            Some(true) => write!(
                f,
                "a free {} action is considered an action for the purposes of game effects, and ",
                kind.name()
            )?,
            Some(false) => f.write_str(UNTYPED_IS_ACTION)?,
            None => {}
        }
        write!(
            f,
            "{unit} has already performed {a} action this activation ({}); a unit cannot perform the same non-move action more than once",
            how(first)
        )?;
        match (free, left) {
            (None, 1..) => write!(
                f,
                ". {unit} still has {left} of its {} left, but not for {a} action",
                acts(avail)
            ),
            _ => Ok(()),
        }
    }
}

/// An untyped free action counts as an action (the lead of [`Repeat`]).
const UNTYPED_IS_ACTION: &str =
    "an untyped free action is considered an action for the purposes of game effects, and ";

/// Warnings and notes.
#[derive(Debug, Clone, Copy)]
pub enum Notice<'a> {
    /// The activation ends; `next`: who activates a unit next, if anyone.
    ActivationEnds {
        unit: &'a str,
        next: Option<&'a str>,
    },
    /// An ability's card text is not applied, only `data`.
    AbilityText {
        ability: &'a str,
        text: Option<&'a str>,
        data: &'a str,
    },
    /// A card action's (or free card action's) text is not applied.
    CardText { card: &'a str, free: bool },
    /// The board does not say who has priority: the first turn goes by seat.
    FirstBySeat { player: &'a str },
}

/// Ending an activation and taking turns: outside the indexed rules.
const ENDS_OUTSIDE: &str = " (ending an activation and taking turns are outside the indexed rules: the Actions text covers what a unit does while activated)";

impl fmt::Display for Notice<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Notice::ActivationEnds { unit, next } => {
                write!(f, "{} activation ends; ", Possessive(unit))?;
                match next {
                    Some(p) => write!(f, "{p} activates a unit next")?,
                    None => f.write_str(
                        "every unit has activated: the Activation Phase can end (`advance`)",
                    )?,
                }
                f.write_str(ENDS_OUTSIDE)
            }
            Notice::AbilityText {
                ability,
                text,
                data,
            } => {
                write!(f, "card text not applied: {ability}")?;
                if let Some(t) = text {
                    write!(f, ": '{t}'")?;
                }
                write!(f, " (the engine applies an ability's data: {data})")
            }
            Notice::CardText { card, free } => {
                let free = if free { "free " } else { "" };
                write!(
                    f,
                    "card text not applied: what the {free}card action {card} does (the engine checks the action rules only)"
                )
            }
            Notice::FirstBySeat { player } => write!(
                f,
                "the board does not say who has priority (decided in the Command Phase, outside the indexed rules): {player} activates first (seat order, moving one seat each round: an assumption outside the indexed rules); set `turn` to the player with priority before advancing, or adjust it now"
            ),
        }
    }
}

/// Questions put to a player, and the labels of their answers.
#[derive(Debug, Clone, Copy)]
pub enum Question<'a> {
    /// Which unit activates.
    WhichUnit { player: &'a str },
    /// The answer: this unit.
    Activate { unit: &'a str },
    /// Does the effect give a free action of its type, or one without?
    Untyped { player: &'a str, what: What<'a> },
    /// The answer: of its type.
    OfItsType { what: What<'a> },
    /// The answer: without a type.
    WithoutType { what: What<'a> },
}

impl fmt::Display for Question<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Question::WhichUnit { player } => write!(f, "{player}: which unit activates?"),
            Question::Activate { unit } => write!(f, "activate {unit}"),
            Question::Untyped { player, what } => write!(
                f,
                "{player}: does the effect give a free action of its type, {what}, or a free action without a type?"
            ),
            Question::OfItsType { what } => write!(f, "a free action of its type: {what}"),
            Question::WithoutType { what } => {
                write!(f, "a free action without a type, used as {what}")
            }
        }
    }
}

/// What a player chose, as recorded on a step (an action: its [`What`]).
#[derive(Debug, Clone, Copy)]
pub enum Chose<'a> {
    /// The unit activated.
    Activate { unit: &'a str },
    /// A free action from `source`, of its type (`typed`) or not.
    Free {
        what: What<'a>,
        source: &'a str,
        typed: bool,
    },
    /// A free card action.
    FreeCard { card: &'a str },
    /// An attack that is not an action.
    ExtraAttack { source: &'a str },
    /// A token from an effect.
    Gain { kind: Kind, source: &'a str },
}

impl fmt::Display for Chose<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Chose::Activate { unit } => write!(f, "to activate {unit}"),
            Chose::Free {
                what,
                source,
                typed,
            } => match typed && what.card.is_none() {
                true => write!(f, "free {what} ({source})"),
                false => write!(f, "free action as {what} ({source})"),
            },
            Chose::FreeCard { card } => write!(f, "free card action {card}"),
            Chose::ExtraAttack { source } => write!(f, "attack that is not an action ({source})"),
            Chose::Gain { kind, source } => write!(f, "to gain {} token ({source})", kind.a()),
        }
    }
}

/// The name of a step's number of tokens: `aim tokens`.
pub struct Tokens(pub Kind);

impl fmt::Display for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} tokens", self.0.name())
    }
}

/// Where the token an action gives comes from (not the indexed text).
pub struct TokenEntry(pub Kind);

impl fmt::Display for TokenEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (t, a) = (self.0.name(), self.0.a());
        write!(
            f,
            "that the {t} action gives {a} token comes from the {t} entry of the full rules, not the indexed 'Actions' text"
        )
    }
}

impl From<TokenEntry> for String {
    fn from(w: TokenEntry) -> String {
        w.to_string()
    }
}

/// How a game ended, a reading outside the indexed rules.
#[derive(Debug, Clone, Copy)]
pub enum Outcome<'a> {
    /// The players in `out` have no units left; `winner` has.
    Eliminated { out: &'a [String], winner: &'a str },
    /// After the last round: the players' points; `tie` at the top.
    Points {
        last: u32,
        scores: &'a [(&'a str, u32)],
        tie: bool,
    },
}

impl fmt::Display for Outcome<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Outcome::Eliminated { out, winner } => write!(
                f,
                "{} has no units left on the board and {winner} has",
                out.join(" and ")
            )?,
            Outcome::Points { last, scores, tie } => {
                write!(
                    f,
                    "round {last}, the last round the board states, is over; victory points: "
                )?;
                for (i, (player, n)) in scores.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    write!(f, "{sep}{player} {n}")?;
                }
                match tie {
                    true => f.write_str(" (a tie: no winner by points alone)")?,
                    false => f.write_str(" (the most points wins)")?,
                }
            }
        }
        f.write_str(
            ": a reading outside the indexed rules (the Actions text does not say how a game ends)",
        )
    }
}

/// What a granted step gives: a free action, an attack that is not an
/// action, a token.
#[derive(Debug, Clone, Copy)]
pub struct Granting {
    pub grant: Grant,
    pub token: Option<Kind>,
}

impl fmt::Display for Granting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.grant, self.token) {
            (Grant::Token, Some(t)) => write!(f, "{} token", t.a()),
            (Grant::ExtraAttack, _) => f.write_str("an attack that is not an action"),
            _ => f.write_str("a free action"),
        }
    }
}

/// Why a step cannot be read.
#[derive(Debug, Clone, Copy)]
pub enum Misread<'a> {
    /// A granted step without its source.
    NoSource { what: Granting },
    /// The ability named does not grant the step.
    NotGranted { ability: &'a str, what: Granting },
}

impl fmt::Display for Misread<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Misread::NoSource { what } => write!(
                f,
                "{what} needs its source: `ability: <one of the unit's abilities>` or `effect: <command card or other effect>`"
            ),
            Misread::NotGranted { ability, what } => {
                write!(f, "{ability} does not grant {what} (its data on the board)")
            }
        }
    }
}
