//! The wording of the Grand Archive rulings, apart from the logic: the
//! procedure says what happened with a typed value
//! (`Selects::Rested { card }`) and this module says how it reads. The
//! steps ([`Says`], [`Selects`], [`Settles`], [`Declared`], [`Reversal`])
//! and why a step fails ([`Fails`]), what a
//! player chose ([`Chose`]), the questions ([`Asks`]), the readings the
//! engine takes where the indexed text is silent, the notes where the
//! seed's examples and its numbered steps differ, the other diagnostics
//! ([`Refusal`], [`NotApplied`]), the faults of a board or a play
//! ([`Invalid`]) and the notation lines that do not read as a play
//! ([`Misread`]). It names nothing of the board (which uses it): the values
//! are names, numbers and labels.

use std::fmt;

use super::rules::{EX1, EX2};
use crate::kit::into_string;

/// The defaults of the attacking player's and defending player's choices.
pub const MAY_ADD: &str = "the attacking player 'may choose, if able, any additional weapons or objects': none unless some are added";
pub const MAY_RESPOND: &str = "players 'will be able to respond': no response unless one is made";
/// Readings where the indexed text is silent.
pub const ONLY_DEFENDER_RESPONDS: &str = "general rule 4 says players will be able to respond at the beginning of the Retaliation Step; the engine asks only the defending player (the other players' responses are made at the table; the alternative asks every player)";
pub const TAUNT: &str = "Taunt is read as: while the defending player controls units with Taunt, an attack on that player's units must target one of them (the indexed text names Taunt only as a targeting restriction; the alternative, that Taunt binds only the attacks its card text names, needs the card text)";
pub const BLOCKED_ATTEMPT: &str = "a declaration general rule 3 refuses (an attack card still on the Effects Stack) is read as an attempt deemed illegal, as any other illegal declaration is; the text of 1.4 does not say whether it counts";
pub const OWN_TARGET: &str = "2.c says only that the attacking player 'must choose an attack target (i.e., what becomes the defending unit)'; the engine reads the defending unit as a champion or ally of another player (the defending player), so a player's own card is not a target (the alternative reading lets a player attack their own champion or ally, which the indexed text does not rule out in words)";
pub const RESTED_OBJECT: &str = "2.b lets the attacking player add weapons or objects 'if able' and does not say what makes one able; the engine does not hold being rested against an added object (2.a.i asks awake only of the attacker), so a rested weapon or object joins the attack (the alternative reading: a rested object is not able to be added, which would refuse it)";
pub const NO_TARGET: &str = "a Cleave attack chooses a player, not a target (2.3.1), so a targeting restriction is read as having nothing to constrain";

/// Where a seed example places a cost at another step than the numbered
/// rules: the example, and the note on the cost.
pub const EX1_NOTE: (&str, &str) = (
    EX1,
    "the seed's Example 1 places the choice to pay this extra cost in step 2.d, but numbered rule 2.5.1 puts extra costs that are not \"additional costs\" in step 2.e; the engine follows the numbered steps (the attack is legal or illegal the same way)",
);
pub const EX2_NOTE: (&str, &str) = (
    EX2,
    "the seed's Example 2 says this additional cost is paid in step 2.c, but numbered step 2.d (rule 2.4) pays calculated costs, including additional costs; the engine follows the numbered steps (the amount paid is the same either way)",
);

/// Card text kept on the board but not applied: (whose, the text).
#[derive(Debug, Clone, Copy)]
pub enum NotApplied<'a> {
    /// A keyword other than Cleave and Taunt: (card, keyword).
    Keyword(&'a str, &'a str),
    /// A state-based trigger of the rested attacker: (card, trigger).
    Trigger(&'a str, &'a str),
    /// An On Attack ability: (card, ability).
    OnAttack(&'a str, &'a str),
    /// The defending player's response: (player, response).
    Response(&'a str, &'a str),
}

impl fmt::Display for NotApplied<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const OUTSIDE: &str = "what it does is outside the indexed text";
        let (whose, what, text, why) = match *self {
            NotApplied::Keyword(c, t) => {
                (c, "keyword", t, "the engine executes Cleave and Taunt only")
            }
            NotApplied::Trigger(c, t) => (c, "trigger", t, OUTSIDE),
            NotApplied::OnAttack(c, t) => (c, "On Attack ability", t, OUTSIDE),
            NotApplied::Response(p, t) => (
                p,
                "response",
                t,
                "recorded on the Effects Stack; what it does is outside the indexed text",
            ),
        };
        write!(
            f,
            "card text not applied: {whose}'s {what} '{text}' ({why})"
        )
    }
}

into_string!(
    Says, Selects, Settles, Declared, Reversal, Fails, Chose, Asks, Refusal, Invalid, NotApplied,
    Misread
);

/// The answer refusing an extra cost.
pub const REFUSE: &str = "refuse (the attack is illegal)";
/// A response the play does not name.
pub const UNNAMED_RESPONSE: &str = "a response (not named)";
/// Why a card of each kind cannot be named where it was (plays).
pub const OWN_CARDS: &str = "the turn player declares an attack with their own cards";
pub const OBJECTS: &str = "step 2.b adds weapons or other objects";

/// The declaration's steps, 2.a to 2.e.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    A,
    B,
    C,
    D,
    E,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "2.{}", char::from(b'a' + *self as u8))
    }
}

/// Where an obligation or a cost comes from, when the board says: " (X)".
#[derive(Debug, Clone, Copy)]
pub struct Whence<'a>(pub Option<&'a str>);

impl fmt::Display for Whence<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(s) => write!(f, " ({s})"),
            None => Ok(()),
        }
    }
}

/// Where the attack's Cleave comes from.
#[derive(Debug, Clone, Copy)]
pub enum Cleave<'a> {
    /// The attacker's own keyword.
    Own(&'a str),
    /// An object added in 2.b.
    Added(&'a str),
}

impl fmt::Display for Cleave<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cleave::Own(card) => write!(f, "{card} has Cleave"),
            Cleave::Added(object) => write!(f, "{object}, added in 2.b, gives the attack Cleave"),
        }
    }
}

/// An extra cost: "Ward (Bea's) extra cost of 2 reserve".
#[derive(Debug, Clone, Copy)]
pub struct Extra<'a> {
    pub source: &'a str,
    pub controller: Option<&'a str>,
    pub reserve: u32,
}

impl fmt::Display for Extra<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.source)?;
        if let Some(c) = self.controller {
            write!(f, " ({c}'s)")?;
        }
        write!(f, " extra cost of {} reserve", self.reserve)
    }
}

/// Steps of the turn, the Main Phase obligations (and the attempts that
/// answer them), the declaration's opening and a step that fails.
#[derive(Debug, Clone, Copy)]
pub enum Says<'a> {
    ToEndPhase {
        player: &'a str,
    },
    NoObligation {
        player: &'a str,
    },
    /// An obligation already answered.
    Attempted {
        player: &'a str,
        with: &'a str,
        from: Whence<'a>,
    },
    /// An obligation still open (also the error).
    MustAttack {
        player: &'a str,
        with: &'a str,
        from: Whence<'a>,
    },
    Declares {
        player: &'a str,
        card: &'a str,
    },
    /// No attack card waiting; `resolved`: the champion's intent.
    NothingWaiting {
        resolved: Option<&'a str>,
    },
    InSequence,
    /// A step that fails, and why.
    Fails {
        at: At,
        why: Fails<'a>,
    },
    /// An attempt at an obligation, illegal or not.
    AttemptedIllegal {
        player: &'a str,
        card: &'a str,
        from: Whence<'a>,
    },
    AsInstructed {
        player: &'a str,
        card: &'a str,
        from: Whence<'a>,
    },
}

impl fmt::Display for Says<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Says::ToEndPhase { player } => {
                write!(f, "{player} proceeds from the Main Phase to the End Phase")
            }
            Says::NoObligation { player } => write!(
                f,
                "No effect instructs {player} to attack with an object, so nothing holds them in the Main Phase"
            ),
            Says::Attempted { player, with, from } => write!(
                f,
                "{player} attempted the attack with {with}{from} they must make; no further attempt is needed"
            ),
            Says::MustAttack { player, with, from } => write!(
                f,
                "{player} must attack with {with}{from} and has not attempted to declare that attack, so they can't proceed from the Main Phase to the End Phase until they do (an illegal attempt is enough)"
            ),
            Says::Declares { player, card } => write!(
                f,
                "{player} declares an attack with {card}; the declaration goes through the steps of rule 2 and must be verified as a legal attack"
            ),
            Says::NothingWaiting { resolved } => {
                f.write_str("No attack card is waiting on the Effects Stack")?;
                if let Some(intent) = resolved {
                    write!(f, "; {intent} in the champion's intent has resolved")?;
                }
                f.write_str(", so the declaration can be made")
            }
            Says::InSequence => write!(f, "Steps 2.a to 2.e are done in sequence"),
            Says::Fails { at, why } => write!(f, "{at} fails: {why}"),
            Says::AttemptedIllegal { player, card, from } => write!(
                f,
                "{player} attempted the attack with {card} that {player} must make{from}; it was illegal, so no further attempts are necessary (recorded as attempted)"
            ),
            Says::AsInstructed { player, card, from } => write!(
                f,
                "{player} attacks with {card} as instructed{from}; the must-attack obligation is met"
            ),
        }
    }
}

/// Steps 2.a and 2.b: the attacker selected and rested, the objects
/// added.
#[derive(Debug, Clone, Copy)]
pub enum Selects<'a> {
    Attacker {
        player: &'a str,
        card: &'a str,
        role: &'a str,
    },
    Awake {
        card: &'a str,
        role: &'a str,
    },
    RestedPermitted {
        card: &'a str,
        permission: &'a str,
    },
    ObjectPermitted {
        card: &'a str,
        permission: &'a str,
    },
    /// No resting cost: the attacker is a unit already rested, or not a unit.
    NoRestingCost {
        card: &'a str,
        unit: bool,
    },
    Rested {
        card: &'a str,
    },
    Triggers {
        card: &'a str,
        trigger: &'a str,
    },
    AddsNothing {
        player: &'a str,
    },
    Adds {
        player: &'a str,
        object: &'a str,
        kind: Whence<'a>,
    },
    /// The objects added (`count` of them) are not attackers.
    NotAttackers {
        objects: &'a str,
        count: usize,
        card: &'a str,
    },
}

impl fmt::Display for Selects<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Selects::Attacker { player, card, role } => {
                write!(f, "2.a: {player} selects {card} ({role}) as the attacker")
            }
            Selects::Awake { card, role } => {
                write!(f, "{card} is an awake {role}, so it is able to attack")
            }
            Selects::RestedPermitted { card, permission } => write!(
                f,
                "{card} is rested, but {permission} grants it permission to attack"
            ),
            Selects::ObjectPermitted { card, permission } => write!(
                f,
                "{card} is not an ally or champion; {permission} grants it permission to attack"
            ),
            Selects::NoRestingCost { card, unit } => {
                let why = if unit {
                    "already rested"
                } else {
                    "not an ally or champion"
                };
                write!(f, "{card} is {why}, so there is no resting cost to pay")
            }
            Selects::Rested { card } => write!(f, "{card} is rested as the cost to attack"),
            Selects::Triggers { card, trigger } => write!(
                f,
                "{card} becoming rested triggers {trigger}; it waits and goes onto the Effects Stack the next time state-based effects are checked"
            ),
            Selects::AddsNothing { player } => {
                write!(f, "2.b: {player} adds no weapons or objects to the attack")
            }
            Selects::Adds {
                player,
                object,
                kind,
            } => write!(f, "2.b: {player} adds {object}{kind} to the attack"),
            Selects::NotAttackers {
                objects,
                count,
                card,
            } => {
                let (verb, noun) = match count {
                    1 => ("takes", "is not an attacker"),
                    _ => ("take", "are not attackers"),
                };
                write!(
                    f,
                    "{objects} {verb} part in combat after the declaration but {noun}; only {card} is the attacker"
                )
            }
        }
    }
}

/// Steps 2.c to 2.e: the target or defending player, the costs, the
/// restrictions.
#[derive(Debug, Clone, Copy)]
pub enum Settles<'a> {
    ChoosesPlayer {
        cleave: Cleave<'a>,
        player: &'a str,
        chosen: &'a str,
        units: &'a str,
    },
    ChoosesTarget {
        player: &'a str,
        owner: &'a str,
        role: &'a str,
        card: &'a str,
    },
    NoCosts,
    PaysAdditional {
        player: &'a str,
        reserve: u32,
        source: &'a str,
    },
    Reconciles {
        player: &'a str,
    },
    PaysExtra {
        player: &'a str,
        extra: Extra<'a>,
    },
    /// A restriction's forbidden cards (`without`) are not in the attack.
    NotUsed {
        source: &'a str,
        without: &'a str,
    },
    /// A targeting restriction on a Cleave attack.
    NoTarget {
        source: &'a str,
        want: &'a str,
    },
    Targets {
        source: &'a str,
        target: &'a str,
    },
}

impl fmt::Display for Settles<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Settles::ChoosesPlayer {
                cleave,
                player,
                chosen: who,
                units,
            } => write!(
                f,
                "2.c: {cleave}, so {player} chooses {who}; {who}'s units ({units}) become defending units and are not attack targets"
            ),
            Settles::ChoosesTarget {
                player,
                owner,
                role,
                card,
            } => write!(
                f,
                "2.c: {player} chooses {owner}'s {role} {card} as the attack target; it becomes the defending unit"
            ),
            Settles::NoCosts => {
                write!(f, "2.d: there are no calculated or additional costs to pay")
            }
            Settles::PaysAdditional {
                player,
                reserve,
                source,
            } => write!(
                f,
                "2.d: {player} pays {reserve} reserve for {source}'s additional cost to declare the attack"
            ),
            Settles::Reconciles { player } => write!(
                f,
                "2.e: {player} reconciles the restrictions and extra costs on this attack"
            ),
            Settles::PaysExtra { player, extra } => write!(
                f,
                "2.e: {player} agrees to pay {extra} (not an \"additional cost\") and pays it"
            ),
            Settles::NotUsed { source, without } => write!(
                f,
                "{source}'s restriction is fulfilled: the attack does not use {without}"
            ),
            Settles::NoTarget { source, want } => write!(
                f,
                "{source} requires targeting {want}; a Cleave attack has no attack target"
            ),
            Settles::Targets { source, target } => write!(
                f,
                "{source}'s targeting restriction is fulfilled: the target is {target}"
            ),
        }
    }
}

/// Why a step of the declaration fails (its error, and its step after
/// "2.x fails: ").
#[derive(Debug, Clone, Copy)]
pub enum Fails<'a> {
    RestedUnit {
        card: &'a str,
        role: &'a str,
    },
    NoPermission {
        card: &'a str,
    },
    NoOpponent,
    /// With Cleave, a target named instead of a player.
    CleaveTarget {
        cleave: Cleave<'a>,
        player: &'a str,
        owner: &'a str,
        target: &'a str,
    },
    NoCleave {
        card: &'a str,
        player: &'a str,
    },
    AdditionalShort {
        player: &'a str,
        source: &'a str,
        reserve: u32,
        have: u32,
    },
    RefusesExtra {
        player: &'a str,
        extra: Extra<'a>,
    },
    ExtraShort {
        player: &'a str,
        extra: Extra<'a>,
        have: u32,
    },
    Forbids {
        source: &'a str,
        card: &'a str,
    },
    MustTarget {
        source: &'a str,
        want: &'a str,
        target: &'a str,
    },
    /// 2.c: the player's own champion or ally chosen as the target (a reading).
    OwnTarget {
        player: &'a str,
        card: &'a str,
        role: &'a str,
    },
}

impl fmt::Display for Fails<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Fails::RestedUnit { card, role } => write!(
                f,
                "{card} is rested and no effect grants it permission to attack; a rested {role} can't be selected as the attacker"
            ),
            Fails::NoPermission { card } => write!(
                f,
                "{card} is an object, not an ally or champion, and no effect grants it permission to attack (set `attack_permission` if one does)"
            ),
            Fails::NoOpponent => write!(f, "there is no opponent to attack"),
            Fails::CleaveTarget {
                cleave,
                player,
                owner,
                target,
            } => write!(
                f,
                "{cleave}, so {player} chooses a player instead of an attack target; name the player (`defending_player: {owner}`) instead of the target {target}"
            ),
            Fails::OwnTarget { player, card, role } => write!(
                f,
                "{player} chose {card}, {player}'s own {role}, as the attack target; the target becomes the defending unit, read as an opposing player's champion or ally (a reading: 2.c does not say whose)"
            ),
            Fails::NoCleave { card, player } => write!(
                f,
                "{card} has no Cleave, so {player} must choose an attack target, not a player"
            ),
            Fails::AdditionalShort {
                player,
                source,
                reserve,
                have,
            } => write!(
                f,
                "{player} can't pay {source}'s additional cost of {reserve} reserve: only {have} reserve is available"
            ),
            Fails::RefusesExtra { player, extra } => write!(
                f,
                "{player} refuses to pay {extra}, so the attack is illegal"
            ),
            Fails::ExtraShort {
                player,
                extra,
                have,
            } => write!(
                f,
                "{player} agrees to pay {extra} but only {have} reserve is available"
            ),
            Fails::Forbids { source, card } => write!(f, "{source} forbids attacking with {card}"),
            Fails::MustTarget {
                source,
                want,
                target,
            } => write!(
                f,
                "{source} requires the attack to target {want}, not {target}"
            ),
        }
    }
}

/// A legal declaration: combat, On Attack abilities and the response.
#[derive(Debug, Clone, Copy)]
pub enum Declared<'a> {
    Legal,
    Enters,
    NoResponse,
    OnAttack { card: &'a str, ability: &'a str },
    Proceeds,
    DoesNotRespond { player: &'a str },
    Responds { player: &'a str, response: &'a str },
}

impl fmt::Display for Declared<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const AT: &str = "At the beginning of the Retaliation Step";
        match *self {
            Declared::Legal => write!(
                f,
                "Steps 2.a to 2.e were followed in order and are considered to have all happened at the same time: the attack is legal"
            ),
            Declared::Enters => write!(
                f,
                "The attack is declared: the turn immediately enters the combat phase"
            ),
            Declared::NoResponse => write!(
                f,
                "The declaration can't be responded to, and no player receives Opportunity from it"
            ),
            Declared::OnAttack { card, ability } => write!(
                f,
                "{card}'s On Attack ability ({ability}) goes onto the Effects Stack; players can respond at the beginning of the Retaliation Step"
            ),
            Declared::Proceeds => write!(
                f,
                "Combat proceeds through all its steps even if the attacker or all defending units leave the field"
            ),
            Declared::DoesNotRespond { player } => write!(f, "{AT} {player} does not respond"),
            Declared::Responds { player, response } => write!(
                f,
                "{AT} {player} responds with {response}; it goes onto the Effects Stack"
            ),
        }
    }
}

/// An illegal declaration reversed, step by step.
#[derive(Debug, Clone, Copy)]
pub enum Reversal<'a> {
    /// Illegal at 2.a: only the selection of `card` to withdraw.
    AtA {
        card: &'a str,
    },
    Illegal {
        at: At,
    },
    /// The game resumes; `checked`: the board is exactly as before.
    Resumes {
        checked: bool,
    },
    Withdrawn {
        at: At,
        what: &'a str,
    },
    Awake {
        card: &'a str,
    },
    NoLongerWaits {
        trigger: &'a str,
    },
    Refund {
        at: At,
        reserve: u32,
        source: &'a str,
        player: &'a str,
    },
}

impl fmt::Display for Reversal<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Reversal::AtA { card } => write!(
                f,
                "The attack declaration is illegal at 2.a; the only step taken was selecting {card}, which is withdrawn"
            ),
            Reversal::Illegal { at } => write!(
                f,
                "The attack declaration is illegal (failed at {at}); every step taken is reversed, last first"
            ),
            Reversal::Resumes { checked } => {
                f.write_str(
                    "The game resumes at the point in time prior to the attack declaration",
                )?;
                if checked {
                    f.write_str(": the board is exactly as it was (checked)")?;
                }
                Ok(())
            }
            Reversal::Withdrawn { at, what } => {
                write!(f, "Reverse {at}: the choice of {what} is withdrawn")
            }
            Reversal::Awake { card } => write!(
                f,
                "Reverse 2.a: {card} becomes awake again (its resting cost is undone)"
            ),
            Reversal::NoLongerWaits { trigger } => write!(
                f,
                "Reverse 2.a: {trigger} no longer waits for the next state-based check (the resting that triggered it is undone)"
            ),
            Reversal::Refund {
                at,
                reserve,
                source,
                player,
            } => write!(
                f,
                "Reverse {at}: the {reserve} reserve paid for {source} is returned to {player}"
            ),
        }
    }
}

/// What a player chose, on a step (and, withdrawn, on its reversal).
#[derive(Debug, Clone, Copy)]
pub enum Chose<'a> {
    Attacker(&'a str),
    NoObjects,
    Add(&'a str),
    /// An object added, as its reversal names it.
    Added(&'a str),
    DefendingPlayer(&'a str),
    Target(&'a str),
    NotToPay(&'a str),
    ToPay(&'a str),
    NotToRespond,
    ToRespond(&'a str),
}

impl fmt::Display for Chose<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Chose::Attacker(card) => write!(f, "{card} as the attacker"),
            Chose::NoObjects => write!(f, "no weapons or objects"),
            Chose::Add(object) => write!(f, "to add {object}"),
            Chose::Added(object) => write!(f, "{object} added to the attack"),
            Chose::DefendingPlayer(player) => write!(f, "{player} as the defending player"),
            Chose::Target(card) => write!(f, "{card} as the target"),
            Chose::NotToPay(source) => write!(f, "not to pay {source}'s extra cost"),
            Chose::ToPay(source) => write!(f, "to pay {source}'s extra cost"),
            Chose::NotToRespond => write!(f, "not to respond"),
            Chose::ToRespond(response) => write!(f, "to respond with {response}"),
        }
    }
}

/// The questions asked of a player, their answers, and the default's
/// reason where the rules leave one answer.
#[derive(Debug, Clone, Copy)]
pub enum Asks<'a> {
    /// The only opponent: the default defending player.
    OnlyOpponent {
        opponent: &'a str,
        player: &'a str,
    },
    WhoseUnits {
        player: &'a str,
        cleave: Cleave<'a>,
    },
    WhichTarget {
        player: &'a str,
        card: &'a str,
    },
    /// A target offered: its name, controller and role.
    TargetOption {
        card: &'a str,
        owner: &'a str,
        role: &'a str,
    },
    /// A target whose name another opponent's card shares, with its owner
    /// ("Bob's Stalwart Guard (ally)").
    OwnedTargetOption {
        card: &'a str,
        role: &'a str,
    },
    PayExtra {
        player: &'a str,
        extra: Extra<'a>,
    },
    /// The answer paying an extra cost.
    Pay(u32),
    Respond {
        defender: &'a str,
        player: &'a str,
        card: &'a str,
    },
}

impl fmt::Display for Asks<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Asks::OnlyOpponent { opponent, player } => write!(
                f,
                "{opponent} is the only opponent, so the only player {player} can choose"
            ),
            Asks::WhoseUnits { player, cleave } => {
                write!(f, "{player}: {cleave}; whose units become defending units?")
            }
            Asks::WhichTarget { player, card } => {
                write!(f, "{player}: attack which champion or ally with {card}?")
            }
            Asks::TargetOption { card, owner, role } => write!(f, "{card} ({owner}'s {role})"),
            Asks::OwnedTargetOption { card, role } => write!(f, "{card} ({role})"),
            Asks::PayExtra { player, extra } => write!(
                f,
                "{player}: pay {extra} to declare this attack? Refusing makes the attack illegal."
            ),
            Asks::Pay(reserve) => write!(f, "pay {reserve} reserve"),
            Asks::Respond {
                defender,
                player,
                card,
            } => write!(
                f,
                "{defender}: {player} attacks with {card}; respond at the beginning of the Retaliation Step?"
            ),
        }
    }
}

/// Diagnostics beyond a failing step: plays out of turn or phase, a cost
/// noted or not applicable, the turn passing.
#[derive(Debug, Clone, Copy)]
pub enum Refusal<'a> {
    NotTurnPlayer {
        turn: &'a str,
        player: &'a str,
    },
    /// The phase the turn is in.
    NotMain {
        phase: &'a str,
    },
    AttackCardWaiting {
        card: &'a str,
        player: &'a str,
    },
    /// A seed example's note on a cost from `source`.
    Example {
        source: &'a str,
        note: &'a str,
    },
    NotApplicable {
        source: &'a str,
    },
    NotRestored,
    /// The turn passes: the turn number and its player.
    NewTurn {
        turn: u32,
        player: &'a str,
    },
    /// The combat phase is left with something on the Effects Stack.
    StackHolds {
        entry: &'a str,
        controller: Option<&'a str>,
    },
}

impl fmt::Display for Refusal<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::NotTurnPlayer { turn, player } => write!(
                f,
                "it is {turn}'s turn, not {player}'s: the turn player declares attacks and leaves the Main Phase (reading: rule 1.4 speaks of a player's own Main Phase)"
            ),
            Refusal::NotMain { phase } => write!(
                f,
                "the turn is in the {phase}, not the Main Phase: attacks are declared, and the Main Phase is left, from the Main Phase (a reading: the indexed text speaks of attacking from the Main Phase, 1.4)"
            ),
            Refusal::AttackCardWaiting { card, player } => write!(
                f,
                "the attack card {card} is still on the Effects Stack; it must resolve and enter the champion's intent before {player} can declare an attack"
            ),
            Refusal::Example { source, note } => write!(f, "{source}: {note}"),
            Refusal::NotApplicable { source } => write!(
                f,
                "{source}'s extra cost does not apply to this attack, so there is nothing to pay or refuse; the attack goes on without it"
            ),
            Refusal::NotRestored => write!(
                f,
                "internal error: the reversal did not restore the board exactly; please report this board"
            ),
            Refusal::NewTurn { turn, player } => write!(
                f,
                "turn {turn}: the turn passes to {player}, whose champion, allies and objects wake up (outside the indexed rules: the next player in seat order; adjust `turn_player` if your table differs)"
            ),
            Refusal::StackHolds { entry, controller } => {
                let whose = controller.map_or(String::new(), |c| format!(" ({c}'s)"));
                write!(
                    f,
                    "the Effects Stack still holds {entry}{whose}, put there in combat (responses come at the beginning of the Retaliation Step, general-rules.4); the indexed text says nothing of how it resolves or what leaving combat does to it (assumed: combat is not left while the stack holds something): resolve it at the table, adjust `effects_stack` to what is left, then advance"
                )
            }
        }
    }
}

/// A board or a play that cannot be judged.
#[derive(Debug, Clone, Copy)]
pub enum Invalid<'a> {
    SameName(&'a str),
    SameCard {
        player: &'a str,
        card: &'a str,
    },
    AlreadyInAttack(&'a str),
    PaidAndRefused(&'a str),
    /// A card named where another player's cannot be, and why.
    ControlledBy {
        card: &'a str,
        role: &'a str,
        owner: &'a str,
        why: &'a str,
    },
    /// One's own object named as the attack target.
    NotAUnit {
        card: &'a str,
        role: &'a str,
    },
}

impl fmt::Display for Invalid<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Invalid::SameName(name) => write!(f, "two players are named '{name}'"),
            Invalid::SameCard { player, card } => write!(
                f,
                "{player} controls two cards named '{card}'; number them ('{card} #2') so plays can name each, in quotes in a board (`name: \"{card} #2\"`: unquoted, YAML reads ` #2` as a comment and drops it)"
            ),
            Invalid::AlreadyInAttack(card) => write!(f, "{card} is already part of the attack"),
            Invalid::PaidAndRefused(source) => write!(f, "{source} is both paid and refused"),
            Invalid::ControlledBy {
                card,
                role,
                owner,
                why,
            } => write!(f, "{card} ({role}) is controlled by {owner}; {why}"),
            Invalid::NotAUnit { card, role } => write!(
                f,
                "{card} ({role}) is your own card and not a champion or ally: the attack target becomes the defending unit"
            ),
        }
    }
}

/// A notation line that does not read as a play.
#[derive(Debug, Clone, Copy)]
pub enum Misread<'a> {
    /// A response clause not understood.
    Response(&'a str),
    Empty,
    /// `end` not followed by `main phase`.
    EndMainPhase,
    NoPlay,
    /// A keyword (`at`, `using`) with no name after it.
    NeedsName(&'a str),
    NameAttacker,
}

impl fmt::Display for Misread<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Misread::Response(c) => write!(
                f,
                "'{c}' is not understood; after the attack write `respond with CARD` or `no response` (the defending player's answer at the Retaliation Step)"
            ),
            Misread::Empty => write!(f, "the play is empty"),
            Misread::EndMainPhase => write!(f, "write `end main phase`"),
            Misread::NoPlay => write!(
                f,
                "a play starts with `attack with …` or is `end main phase`"
            ),
            Misread::NeedsName(keyword) => write!(f, "`{keyword}` needs a name"),
            Misread::NameAttacker => {
                write!(f, "name the attacker: `attack with <attacker> at <target>`")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Extra;

    #[test]
    fn an_extra_cost_names_its_controller_as_written() {
        let extra = |controller| Extra {
            source: "Ward",
            controller,
            reserve: 2,
        };
        let bea = extra(Some("Bea (2nd)")).to_string();
        assert_eq!(bea, "Ward (Bea (2nd)'s) extra cost of 2 reserve");
        let none = extra(None).to_string();
        assert_eq!(none, "Ward extra cost of 2 reserve");
    }
}
