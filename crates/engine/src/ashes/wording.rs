//! The wording of Ashes Reborn rulings. The procedure says what happened
//! with typed events (a step, an illegal choice, a refused one, a question
//! to a player, a notation line not understood); this module says how each
//! reads. Sentences that stand alone (the readings the engine takes where
//! the indexed text is silent, the defaults of the players' choices) are
//! constants here.

use std::fmt::{self, Display, Formatter};

use crate::kit::into_string;
use crate::text::count;

/// The assumption every "destroyed" judgement rests on.
pub const DESTROYED_ASSUMPTION: &str = "a unit is treated as destroyed when its damage is at least its life, and a destroyed unit leaves the board: the indexed text uses 'destroyed' but does not define it (assumption outside the indexed text)";
/// The defaults of the defending player's choices, and of the attacker's
/// order.
pub const MAY_BLOCK: &str = "the defending player 'may declare up to 1 blocker for each attacking unit': no blocker unless she declares one";
pub const MAY_COUNTER: &str =
    "the defending player 'may now choose to counter': no counter unless she chooses to";
pub const MAY_GUARD: &str =
    "the defending player 'may choose' to guard: no guard unless she declares one";
pub const YOUR_ORDER: &str =
    "'in an order of your choosing': the order the attackers were declared in";
/// Readings where the indexed text is silent.
pub const ASSUME_EXHAUSTED_ATTACKERS: &str = "exhausted units cannot be declared as attackers in Attack a Unit: step 1 does not say so, Attack a Phoenixborn step 1 does ('your unexhausted units'); the same limit is applied (assumption outside the indexed text)";
pub const ASSUME_NO_HAND: &str = "the board does not list cards in hand or abilities, so only attacks are checked when deciding whether another main action is possible (assumption outside the indexed text)";
pub const ASSUME_NO_SYMBOL: &str = "the passage states only that a cost with the main-action symbol takes up the main action; that a cost without it leaves the main action available is read from it (assumption outside the indexed text)";
/// A cost stated to have no main-action symbol: the board holds no card's
/// cost, so the player's word is taken (an outside tester's log showed it
/// as the engine's own fact, for a card whose cost has the symbol).
pub fn stated_no_symbol(player: &str, card: &str) -> String {
    format!(
        "{player} states that the cost of {card} has no main-action symbol; the board holds no card's cost, so this is taken as stated, not checked"
    )
}
/// A pay-cost play that does not say whether its cost has the symbol.
pub const SAY_MAIN_ACTION: &str = "say whether the card's play or activation cost includes the main-action symbol (`main_action: true` or `false`)";

into_string!(
    Turn,
    Declared,
    Resolved,
    FinalTarget,
    Chose,
    OffTurn,
    Illegal,
    Refusal,
    Notice,
    Question,
    Answer,
    Ending,
    Invalid,
    Unparsed,
    Unstated,
    Total,
);

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

/// Damage on a unit or Phoenixborn as dealing it leaves it:
/// (before, after, life), and whether the board's cap on damage (999,
/// the board's largest value) cut it.
#[derive(Debug, Clone, Copy)]
pub struct Tally {
    pub before: u32,
    pub after: u32,
    pub life: u32,
    pub capped: bool,
}

impl From<(u32, u32, u32, bool)> for Tally {
    fn from((before, after, life, capped): (u32, u32, u32, bool)) -> Tally {
        Tally {
            before,
            after,
            life,
            capped,
        }
    }
}

/// "(0 → 3, life 4)"; "(998 → 999, life 999; … capped …)" when the cap
/// cut the damage (a silent 999 read as arithmetic).
impl Display for Tally {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let Tally {
            before,
            after,
            life,
            ..
        } = self;
        write!(f, "({before} → {after}, life {life}{})", self.cap())
    }
}

impl Tally {
    /// "; damage is capped at 999 …" when the cap cut the damage dealt,
    /// else nothing: every sentence that shows a tally says it.
    pub fn cap(&self) -> &'static str {
        match self.capped {
            true => "; damage is capped at 999, the most a board holds, so the rest is not counted",
            false => "",
        }
    }
}

/// ", so X is destroyed" when it is.
fn destroyed(f: &mut Formatter<'_>, dead: bool, unit: &str) -> fmt::Result {
    match dead {
        true => write!(f, ", so {unit} is destroyed"),
        false => Ok(()),
    }
}

/// The total attack of the attackers: "A (attack 2) + B (attack 3) = 5".
#[derive(Debug, Clone, Copy)]
pub struct Total<'a> {
    pub parts: &'a [(String, u32)],
    pub total: u32,
}

impl Display for Total<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        // "(attack 5)", never a bare number after the name: "Iron Worker 2
        // 5" read as one name or two numbers.
        each(f, self.parts, " + ", |f, (n, v)| {
            write!(f, "{n} (attack {v})")
        })?;
        write!(f, " = {}", self.total)
    }
}

/// After a battle: the units destroyed, and those exhausted.
#[derive(Debug, Clone, Copy)]
pub struct Outcome<'a> {
    pub exhausted: &'a [String],
    pub destroyed: &'a [String],
}

impl Display for Outcome<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.destroyed {
            [] => write!(f, "no unit is destroyed")?,
            gone => {
                write!(f, "destroyed: ")?;
                names(f, gone)?;
            }
        }
        match self.exhausted {
            [] => write!(f, "; no exhaustion token is placed"),
            tired => {
                write!(f, "; 1 exhaustion token on ")?;
                names(f, tired)
            }
        }
    }
}

/// What is attacked: a Phoenixborn or a unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Attacked {
    Phoenixborn,
    Unit,
}

/// The guard the defending player declares, by name.
#[derive(Debug, Clone, Copy)]
pub enum Guarded<'a> {
    Phoenixborn { name: &'a str, exhausted: bool },
    Unit(&'a str),
    None,
}

/// A unit that may counter: a blocker, or the final target.
#[derive(Debug, Clone, Copy)]
pub enum Countered<'a> {
    Blocked { attacker: &'a str, blocker: &'a str },
    Target { unit: &'a str },
}

impl Display for Countered<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Countered::Blocked { attacker, blocker } => {
                write!(f, "{attacker} is blocked by {blocker}")
            }
            Countered::Target { unit } => write!(f, "{unit} is the final target and unexhausted"),
        }
    }
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
        /// The board says the main action was used before this payment.
        used: bool,
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
                ..
            } => write!(
                f,
                "the cost of {card} includes the main-action symbol: paying it takes up {player}'s main action for the turn"
            ),
            Turn::PaysCost {
                card,
                player,
                main_action: false,
                used,
            } => write!(
                f,
                "the cost of {card} has no main-action symbol: paying it does not take up {player}'s main action, {}",
                if used {
                    "which was already used this turn"
                } else {
                    "which is still available"
                }
            ),
        }
    }
}

/// Steps 1 to 3 of an attack, and step 4's order: what the attacking and
/// the defending player declare.
#[derive(Debug, Clone, Copy)]
pub enum Declared<'a> {
    Attacks {
        player: &'a str,
        on: Attacked,
        units: usize,
    },
    /// The attackers with their attack values, and how many were refused.
    Attackers {
        player: &'a str,
        attackers: &'a [(String, u32)],
        refused: usize,
    },
    TargetsPhoenixborn {
        player: &'a str,
        owner: &'a str,
        phoenixborn: &'a str,
        life: u32,
        damage: u32,
    },
    TargetsUnit {
        player: &'a str,
        unit: &'a str,
        owner: &'a str,
    },
    /// Blocks as (attacker, blocker).
    Blockers {
        defender: &'a str,
        blocks: &'a [(String, String)],
    },
    Guard {
        defender: &'a str,
        target: &'a str,
        by: Guarded<'a>,
    },
    Order {
        player: &'a str,
        order: &'a [String],
    },
}

impl Display for Declared<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Declared::Attacks { player, on, units } => {
                let what = match on {
                    Attacked::Unit => "a unit",
                    Attacked::Phoenixborn => "a Phoenixborn",
                };
                write!(f, "{player} attacks {what} with {}", count(units, "unit"))
            }
            Declared::Attackers {
                player,
                attackers,
                refused,
            } => declared_attackers(f, player, attackers, refused),
            Declared::TargetsPhoenixborn {
                player,
                owner,
                phoenixborn,
                life,
                damage,
            } => write!(
                f,
                "{player} targets {owner}'s Phoenixborn {phoenixborn} (life {life}, damage {damage}); all attackers attack it"
            ),
            Declared::TargetsUnit {
                player,
                unit,
                owner,
            } => write!(
                f,
                "{player} targets {unit} on {owner}'s battlefield; all attacking units attack it"
            ),
            Declared::Blockers {
                defender,
                blocks: [],
            } => write!(f, "{defender} declares no blockers"),
            Declared::Blockers { defender, blocks } => {
                write!(
                    f,
                    "{defender} declares {}: ",
                    count(blocks.len(), "blocker")
                )?;
                each(f, blocks, "; ", |f, (a, b)| write!(f, "{b} blocks {a}"))
            }
            Declared::Guard {
                defender,
                target,
                by,
            } => guard(f, defender, target, by),
            Declared::Order { player, order } => {
                write!(
                    f,
                    "{player} resolves the attackers one at a time, in this order: "
                )?;
                names(f, order)
            }
        }
    }
}

/// Step 1: the attackers declared with their attack values, and how many
/// more were refused.
fn declared_attackers(
    f: &mut Formatter<'_>,
    player: &str,
    attackers: &[(String, u32)],
    refused: usize,
) -> fmt::Result {
    if attackers.is_empty() {
        // Every unit named was refused: no empty list to read.
        return write!(
            f,
            "{player} declares no attacker that may attack; {} refused (see the errors below)",
            count(refused, "unit")
        );
    }
    let n = count(attackers.len(), "attacker");
    write!(f, "{player} declares {n}: ")?;
    each(f, attackers, ", ", |f, (n, a)| {
        write!(f, "{n} (attack {a})")
    })?;
    match refused {
        0 => Ok(()),
        n => write!(f, "; {n} more refused (see the errors below)"),
    }
}

/// Step 3 of Attack a Unit: the guard declared, or none.
fn guard(f: &mut Formatter<'_>, defender: &str, target: &str, by: Guarded) -> fmt::Result {
    match by {
        Guarded::Phoenixborn { name, exhausted } => {
            let note = match exhausted {
                true => " (exhausted: a Phoenixborn can guard even if it is exhausted)",
                false => "",
            };
            write!(
                f,
                "{defender} guards {target} with the Phoenixborn {name}{note}; {name} is now the target of the attack"
            )
        }
        Guarded::Unit(g) => write!(
            f,
            "{defender} declares {g} (Unit Guard, unexhausted) as a guard for {target}; {g} is now the target of the attack"
        ),
        Guarded::None => write!(
            f,
            "{defender} declares no guard; {target} remains the target"
        ),
    }
}

/// Step 4 of Attack a Phoenixborn: damage dealt, counters, battles (and
/// whether the final target of Attack a Unit counters).
#[derive(Debug, Clone, Copy)]
pub enum Resolved<'a> {
    Unblocked {
        attacker: &'a str,
        attack: u32,
        phoenixborn: &'a str,
        tally: Tally,
    },
    /// Whether a unit that may counter does.
    Counter {
        unit: Countered<'a>,
        defender: &'a str,
        counters: bool,
    },
    /// A blocker that did not counter takes the attacker's damage.
    BlockerHit {
        attacker: &'a str,
        blocker: &'a str,
        attack: u32,
        tally: Tally,
        destroyed: bool,
    },
    /// An attacker and its countering blocker deal damage simultaneously.
    Battle {
        attacker: &'a str,
        blocker: &'a str,
        attack: u32,
        blocker_tally: Tally,
        counter: u32,
        attacker_tally: Tally,
        outcome: Outcome<'a>,
    },
}

impl Display for Resolved<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Resolved::Unblocked {
                attacker: a,
                attack,
                phoenixborn: pb,
                tally: t,
            } => write!(
                f,
                "{a} is unblocked: it deals {attack} damage to {pb} ({} → {} damage, life {}{}); then 1 exhaustion token is placed on {a}",
                t.before,
                t.after,
                t.life,
                t.cap()
            ),
            Resolved::Counter {
                unit,
                defender,
                counters,
            } => {
                let does = if counters {
                    "chooses to counter"
                } else {
                    "does not counter"
                };
                write!(f, "{unit}; {defender} {does}")
            }
            Resolved::BlockerHit {
                attacker: a,
                blocker: b,
                attack,
                tally,
                destroyed: dead,
            } => {
                write!(f, "{a} deals {attack} damage to {b} {tally}")?;
                destroyed(f, dead, b)?;
                write!(
                    f,
                    "; then 1 exhaustion token on {a}; {b} did not counter and is not exhausted"
                )
            }
            Resolved::Battle {
                attacker: a,
                blocker: b,
                attack,
                blocker_tally: bt,
                counter,
                attacker_tally: at,
                outcome,
            } => write!(
                f,
                "{a} and {b} are in battle and deal damage simultaneously: {a} deals {attack} to {b} ({} damage, life {}{}), {b} deals {counter} to {a} ({} damage, life {}{}); {outcome}",
                bt.after,
                bt.life,
                bt.cap(),
                at.after,
                at.life,
                at.cap()
            ),
        }
    }
}

/// Step 4 of Attack a Unit: what the final target takes, and deals.
#[derive(Debug, Clone, Copy)]
pub enum FinalTarget<'a> {
    PhoenixbornTakesIt {
        phoenixborn: &'a str,
        sum: &'a str,
        tally: Tally,
        attackers: &'a [String],
    },
    CannotCounter {
        unit: &'a str,
    },
    /// A final target unit that did not counter takes the total attack.
    TargetHit {
        sum: &'a str,
        target: &'a str,
        tally: Tally,
        destroyed: bool,
        attackers: &'a [String],
    },
    /// The attackers and a countering final target; `dealt`: each
    /// attacker's share of the counter damage.
    CounterBattle {
        target: &'a str,
        sum: &'a str,
        tally: Tally,
        attack: u32,
        dealt: &'a [(String, u32, Tally)],
        outcome: Outcome<'a>,
    },
}

impl Display for FinalTarget<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            FinalTarget::PhoenixbornTakesIt {
                phoenixborn: pb,
                sum,
                tally: t,
                attackers,
            } => {
                write!(
                    f,
                    "the final target is the Phoenixborn {pb}: total attack {sum}, dealt to {pb} ({} → {} damage, life {}{}); then 1 exhaustion token on each attacking unit (",
                    t.before,
                    t.after,
                    t.life,
                    t.cap()
                )?;
                names(f, attackers)?;
                write!(f, ")")
            }
            FinalTarget::CannotCounter { unit } => write!(
                f,
                "{unit} is the final target and is exhausted, so it cannot counter"
            ),
            FinalTarget::TargetHit {
                sum,
                target,
                tally,
                destroyed: dead,
                attackers,
            } => {
                write!(f, "total attack {sum} is dealt to {target} {tally}")?;
                destroyed(f, dead, target)?;
                write!(f, "; then 1 exhaustion token on each attacking unit (")?;
                names(f, attackers)?;
                write!(
                    f,
                    "); {target} did not counter and gets no exhaustion token"
                )
            }
            FinalTarget::CounterBattle {
                target,
                sum,
                tally,
                attack,
                dealt,
                outcome,
            } => {
                write!(
                    f,
                    "the attackers and {target} are in battle: total attack {sum} is dealt to {target} {tally}; simultaneously {target} deals its attack {attack}: "
                )?;
                each(f, dealt, ", ", |f, (n, v, t)| write!(f, "{v} to {n} {t}"))?;
                write!(f, "; {outcome}")
            }
        }
    }
}

/// What a player chose, as a step records it ("Coal chose …").
#[derive(Debug, Clone, Copy)]
pub enum Chose<'a> {
    AttackWith {
        units: &'a [String],
    },
    Attack {
        target: &'a str,
    },
    /// Blocks as (attacker, blocker); none: not to block.
    Blocks {
        blocks: &'a [(String, String)],
    },
    Order {
        order: &'a [String],
    },
    Counter {
        counters: bool,
        unit: &'a str,
    },
    Guard {
        by: Guarded<'a>,
    },
    /// The countering unit's damage per attacker.
    Split {
        unit: &'a str,
        shares: &'a [(String, u32)],
    },
    Pass,
    PlayOrActivate {
        card: &'a str,
    },
}

impl Display for Chose<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Chose::AttackWith { units } => {
                write!(f, "to attack with ")?;
                names(f, units)
            }
            Chose::Attack { target } => write!(f, "to attack {target}"),
            Chose::Blocks { blocks: [] } => write!(f, "not to block"),
            Chose::Blocks { blocks } => {
                write!(f, "to block ")?;
                each(f, blocks, ", and ", |f, (a, b)| write!(f, "{a} with {b}"))
            }
            Chose::Order { order } => {
                write!(f, "the order ")?;
                names(f, order)
            }
            Chose::Counter { counters, unit } => {
                let what = if counters {
                    "to counter"
                } else {
                    "not to counter"
                };
                write!(f, "{what} with {unit}")
            }
            Chose::Guard {
                by: Guarded::Phoenixborn { name, .. } | Guarded::Unit(name),
            } => write!(f, "to guard with {name}"),
            Chose::Guard { by: Guarded::None } => write!(f, "not to guard"),
            Chose::Split { unit, shares } => {
                write!(f, "to split {unit}'s damage: ")?;
                each(f, shares, ", ", |f, (n, v)| write!(f, "{n} {v}"))
            }
            Chose::Pass => write!(f, "to pass"),
            Chose::PlayOrActivate { card } => write!(f, "to play or activate {card}"),
        }
    }
}

/// Why no blocker was stated for some attackers: the default was taken.
#[derive(Debug, Clone, Copy)]
pub struct Unstated<'a> {
    pub attackers: &'a [String],
}

impl Display for Unstated<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "not stated on the board for ")?;
        names(f, self.attackers)?;
        write!(f, "; assumed: {MAY_BLOCK}")
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
        /// The play takes a main action (a side action is refused too,
        /// but not as a main action: it was called one; and as a reading,
        /// since the indexed text never says when side actions are taken).
        main: bool,
    },
    /// The player's Phoenixborn is destroyed while others stand.
    Out {
        player: &'a str,
        /// Whose turn it is instead.
        next: &'a str,
    },
    RecoveryPhase,
    MainActionUsed {
        player: &'a str,
        passing: bool,
    },
    /// An attack by a player with no unexhausted unit.
    NoReadyUnit {
        player: &'a str,
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
            OffTurn::NotYourTurn {
                whose,
                player,
                main: true,
            } => write!(
                f,
                "the board says it is {whose}'s turn, not {player}'s. A reading outside the indexed text: a main action is taken on one's own turn \
                 (03 - Main Actions speaks of \"your main action for the turn\" and of a player's main action \"on her next turn\", but does not say so outright; docs/games/ashes.md, reading 5); \
                 if the turn passed too early, propose `adjust turn {player}` (the other players confirm it) or ask a moderator"
            ),
            OffTurn::NotYourTurn {
                whose,
                player,
                main: false,
            } => write!(
                f,
                "the board says it is {whose}'s turn, not {player}'s. A reading outside the indexed text: side actions are taken on one's own turn \
                 (the text does not say when a side action may be taken), and the turn passes to the next player after a main action (docs/games/ashes.md, reading 5); \
                 if it passed too early, propose `adjust turn {player}` (the other players confirm it) or ask a moderator"
            ),
            OffTurn::Out { player, next } => write!(
                f,
                "{player}'s Phoenixborn is destroyed: {player} takes no more main actions ({ASSUME_OUT}); it is {next}'s turn"
            ),
            OffTurn::RecoveryPhase => write!(
                f,
                "the player turns phase has ended (all players passed on consecutive turns); the round is in the recovery phase, so no main action can be taken (advance to the next round with `match advance`)"
            ),
            // Passing is a main action outright ("pass as your main
            // action"); that a turn holds no second main action is a
            // reading: the text speaks of "your main action for the turn"
            // (Pay a Cost) but does not say so (it was stated as the rule).
            OffTurn::MainActionUsed {
                player,
                passing: true,
            } => write!(
                f,
                "{player} has already used the main action for this turn; passing is a main action too"
            ),
            OffTurn::MainActionUsed {
                player,
                passing: false,
            } => write!(
                f,
                "{player} has already used the main action for this turn. A reading outside the indexed text: a turn has one main action \
                 (03 - Main Actions speaks of \"your main action for the turn\", but does not say a turn holds no second one; docs/games/ashes.md, reading 10); \
                 the other reading, a second main action in the same turn, is not taken; if the board's `main_action_used` is wrong, propose `adjust main_action_used false` \
                 (the other players confirm it) or ask a moderator"
            ),
            OffTurn::NoReadyUnit { player } => write!(
                f,
                "{player} has no unexhausted unit, so cannot attack; if no other main action is possible either, {player} must pass"
            ),
        }
    }
}

/// The attacking player's impossible choices: the play is illegal.
#[derive(Debug, Clone, Copy)]
pub enum Illegal<'a> {
    NoAttackers,
    /// A target of a player who is out of the game.
    OutOfGame {
        player: &'a str,
    },
    NotOwnAttacker {
        unit: &'a str,
        owner: &'a str,
        player: &'a str,
    },
    AttackerTwice {
        unit: &'a str,
    },
    ExhaustedAttacker {
        unit: &'a str,
        on: Attacked,
    },
    NoOpponent,
    OwnPhoenixborn {
        phoenixborn: &'a str,
        player: &'a str,
    },
    OwnUnit {
        unit: &'a str,
        player: &'a str,
    },
    OrderTwice {
        unit: &'a str,
    },
    OrderLeavesOut {
        unit: &'a str,
    },
}

impl Display for Illegal<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::OutOfGame { player } => write!(
                f,
                "{player}'s Phoenixborn is destroyed, so neither it nor {player}'s units can be attacked ({ASSUME_OUT})"
            ),
            Illegal::NoAttackers => {
                write!(f, "an attack needs 1 or more of your units as attackers")
            }
            Illegal::NotOwnAttacker {
                unit,
                owner,
                player,
            } => write!(
                f,
                "{unit} is {owner}'s unit; {player} can only attack with their own units"
            ),
            Illegal::AttackerTwice { unit } => write!(f, "{unit} is declared as an attacker twice"),
            Illegal::ExhaustedAttacker {
                unit,
                on: Attacked::Unit,
            } => write!(
                f,
                "{unit} is exhausted and cannot attack (reading: Attack a Unit step 1 does not repeat 'unexhausted', but Attack a Phoenixborn step 1 limits attackers to unexhausted units; the same limit is applied here, an assumption outside the indexed text)"
            ),
            Illegal::ExhaustedAttacker {
                unit,
                on: Attacked::Phoenixborn,
            } => write!(
                f,
                "{unit} is exhausted; only unexhausted units can be declared as attackers"
            ),
            Illegal::NoOpponent => write!(f, "there is no opponent's Phoenixborn to attack"),
            Illegal::OwnPhoenixborn {
                phoenixborn,
                player,
            } => write!(
                f,
                "{phoenixborn} is {player}'s own Phoenixborn; the target must be an opponent's Phoenixborn"
            ),
            Illegal::OwnUnit { unit, player } => write!(
                f,
                "{unit} is {player}'s own unit; the target must be a unit on an opponent's battlefield"
            ),
            Illegal::OrderTwice { unit } => write!(
                f,
                "{unit} appears twice in the order; each attacking unit's damage is resolved once"
            ),
            Illegal::OrderLeavesOut { unit } => write!(
                f,
                "the order leaves out {unit}; it must resolve each attacking unit's damage"
            ),
        }
    }
}

/// Why a stated blocker cannot block.
#[derive(Debug, Clone, Copy)]
pub enum NoBlock<'a> {
    NotTheirs {
        blocker: &'a str,
        defender: &'a str,
    },
    Exhausted {
        blocker: &'a str,
    },
    /// It already blocks another attacker.
    Busy {
        blocker: &'a str,
    },
}

impl Display for NoBlock<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            NoBlock::NotTheirs { blocker, defender } => write!(
                f,
                "{blocker} is not {defender}'s unit; only the defending player's units can block"
            ),
            NoBlock::Exhausted { blocker } => write!(
                f,
                "{blocker} is exhausted; only an unexhausted unit can be declared as a blocker"
            ),
            NoBlock::Busy { blocker } => write!(
                f,
                "{blocker} already blocks another attacker; a blocker is placed in front of one attacking unit (1 blocker for each attacking unit)"
            ),
        }
    }
}

/// Why a stated guard cannot guard.
#[derive(Debug, Clone, Copy)]
pub enum NoGuard<'a> {
    NotTheirs {
        guard: &'a str,
        defender: &'a str,
    },
    IsTarget {
        guard: &'a str,
    },
    /// `near`: an ability the board lists that is spelt close to Unit Guard.
    NoUnitGuard {
        guard: &'a str,
        near: Option<&'a str>,
    },
    Exhausted {
        guard: &'a str,
    },
}

impl Display for NoGuard<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            NoGuard::NotTheirs { guard, defender } => write!(
                f,
                "{guard} is not a unit {defender} controls; only the defending player's Phoenixborn or units can guard"
            ),
            NoGuard::IsTarget { guard } => write!(
                f,
                "{guard} is the target; a guard is moved in front of the targeted unit, so it must be another unit"
            ),
            NoGuard::NoUnitGuard { guard, near } => {
                write!(
                    f,
                    "{guard} does not have the 'Unit Guard' ability; only the Phoenixborn or a unit with Unit Guard can guard"
                )?;
                match near {
                    Some(a) => write!(
                        f,
                        " (the board lists '{a}' for it: did you mean 'Unit Guard'?)"
                    ),
                    None => Ok(()),
                }
            }
            NoGuard::Exhausted { guard } => write!(
                f,
                "{guard} is exhausted; only an unexhausted unit with Unit Guard can be declared as a guard"
            ),
        }
    }
}

/// The defending player's impossible choices: each is refused alone.
#[derive(Debug, Clone, Copy)]
pub enum Refusal<'a> {
    BlockedTwice {
        attacker: &'a str,
    },
    Blocker {
        why: NoBlock<'a>,
        attacker: &'a str,
    },
    PhoenixbornCounter {
        phoenixborn: &'a str,
    },
    TwoGuards,
    Guard {
        why: NoGuard<'a>,
        target: &'a str,
    },
    ExhaustedCounter {
        unit: &'a str,
    },
    TwoShares {
        unit: &'a str,
    },
    SplitSum {
        sum: u32,
        unit: &'a str,
        attack: u32,
    },
}

impl Display for Refusal<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::BlockedTwice { attacker } => write!(
                f,
                "{attacker} already has a blocker; an attacking unit cannot be blocked by more than 1 unit"
            ),
            Refusal::Blocker { why, attacker } => write!(f, "{why}; {attacker} is unblocked"),
            Refusal::PhoenixbornCounter { phoenixborn } => write!(
                f,
                "the final target is the Phoenixborn {phoenixborn}; only a unit that is the final target may counter"
            ),
            Refusal::TwoGuards => write!(
                f,
                "only a single unit can be declared as a guard for any given attack; no guard is declared"
            ),
            Refusal::Guard { why, target } => {
                write!(
                    f,
                    "{why}; no guard is declared and {target} remains the target"
                )
            }
            Refusal::ExhaustedCounter { unit } => write!(
                f,
                "{unit} is exhausted and cannot counter; only an unexhausted final target may counter, so the attack resolves without a counter"
            ),
            Refusal::TwoShares { unit } => write!(f, "{unit} is given two shares of the damage"),
            Refusal::SplitSum { sum, unit, attack } => write!(
                f,
                "the split adds up to {sum}, but {unit} deals damage equal to its attack value, {attack}; the shares must add up to {attack}"
            ),
        }
    }
}

/// Warnings and notes: what the engine does outside the indexed text, and
/// play fields it ignores.
/// What the engine does with a player whose Phoenixborn is destroyed while
/// two or more others stand: not in the indexed text, so said as assumed.
/// Players out of the game, left out of "all players have passed" (on the
/// pass step's assumption).
#[derive(Debug, Clone, Copy)]
pub struct LeftOut<'a>(pub &'a [String]);

impl fmt::Display for LeftOut<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (who, verb) = match self.0 {
            [one] => (one.clone(), "is"),
            [init @ .., last] => (format!("{} and {last}", init.join(", ")), "are"),
            [] => return Ok(()),
        };
        write!(
            f,
            "{who} {verb} not counted among \"all players\": a player whose Phoenixborn is destroyed is read as out of the game, not waited on to pass, while the others play on (the indexed text does not say)"
        )
    }
}

pub const ASSUME_OUT: &str = "assumed (not in the indexed rules): its player is out of the game, takes no more turns and is not waited on to pass, while the others play on";

#[derive(Debug, Clone, Copy)]
pub enum Notice<'a> {
    /// Who takes the first turn of a new round.
    FirstTurn {
        player: &'a str,
    },
    /// The resulting board hands the turn on.
    TurnMovesOn {
        player: &'a str,
        next: &'a str,
    },
    /// A unit's ability whose card text is not applied.
    NotApplied {
        unit: &'a str,
        ability: &'a str,
    },
    /// A Phoenixborn whose damage reached its life.
    Lethal {
        phoenixborn: &'a str,
        damage: u32,
        life: u32,
        /// Other Phoenixborn still stand (three players or more): the game
        /// goes on without this one's player.
        goes_on: bool,
    },
    SplitNoPhoenixbornCounter,
    SplitNoCounter,
    /// A split stated with one attacker: all its damage goes to that one.
    SplitOneAttacker,
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
            Notice::Lethal {
                phoenixborn,
                damage,
                life,
                goes_on: false,
            } => write!(
                f,
                "{phoenixborn} now has {damage} damage against a life of {life}; what happens to a Phoenixborn whose damage reaches its life is outside the indexed text (the match records it as the end of the game, outside the indexed rules)"
            ),
            Notice::Lethal {
                phoenixborn,
                damage,
                life,
                goes_on: true,
            } => write!(
                f,
                "{phoenixborn} now has {damage} damage against a life of {life}; what happens to a Phoenixborn whose damage reaches its life is outside the indexed text; {ASSUME_OUT}"
            ),
            Notice::SplitNoPhoenixbornCounter => write!(
                f,
                "the damage split is ignored: a Phoenixborn final target does not counter, so there is no damage to split"
            ),
            Notice::SplitNoCounter => write!(
                f,
                "the damage split is ignored: the target does not counter, so it deals no damage"
            ),
            Notice::SplitOneAttacker => write!(
                f,
                "the damage split is ignored: with one attacker, all the countering unit's damage goes to it"
            ),
        }
    }
}

/// Questions to the defending player.
#[derive(Debug, Clone, Copy)]
pub enum Question<'a> {
    Block {
        defender: &'a str,
        attacker: &'a str,
        attack: u32,
    },
    CounterBlock {
        defender: &'a str,
        blocker: &'a str,
        attacker: &'a str,
    },
    Guard {
        defender: &'a str,
        target: &'a str,
    },
    CounterTarget {
        defender: &'a str,
        unit: &'a str,
    },
    /// How much of the `left` damage of `unit`, countering `attackers`
    /// units, goes to `to`.
    Split {
        defender: &'a str,
        unit: &'a str,
        attackers: usize,
        left: u32,
        to: &'a str,
    },
}

impl Display for Question<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Question::Block {
                defender,
                attacker,
                attack,
            } => write!(f, "{defender}: block {attacker} (attack {attack}) with…"),
            Question::CounterBlock {
                defender,
                blocker,
                attacker,
            } => write!(
                f,
                "{defender}: {blocker} blocks {attacker}; counter with {blocker}?"
            ),
            Question::Guard { defender, target } => write!(f, "{defender}: guard {target} with…"),
            Question::CounterTarget { defender, unit } => {
                write!(f, "{defender}: {unit} is attacked; counter with {unit}?")
            }
            Question::Split {
                defender,
                unit,
                attackers,
                left,
                to,
            } => write!(
                f,
                "{defender}: {unit} counters {}; how much of its {left} remaining damage goes to {to}?",
                count(attackers, "attacker")
            ),
        }
    }
}

/// The answers a question offers.
#[derive(Debug, Clone, Copy)]
pub enum Answer<'a> {
    BlockWith(&'a str),
    NoBlocker,
    CounterWith(&'a str),
    NoCounter,
    GuardWith(&'a str),
    NoGuard,
    Share { amount: u32, to: &'a str },
}

impl Display for Answer<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Answer::BlockWith(u) => write!(f, "block with {u}"),
            Answer::NoBlocker => write!(f, "no blocker"),
            Answer::CounterWith(u) => write!(f, "counter with {u}"),
            Answer::NoCounter => write!(f, "do not counter"),
            Answer::GuardWith(u) => write!(f, "guard with {u}"),
            Answer::NoGuard => write!(f, "no guard"),
            Answer::Share { amount, to } => write!(f, "{amount} to {to}"),
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
    SamePlayerName {
        name: &'a str,
    },
    SameUnitName {
        player: &'a str,
        unit: &'a str,
    },
    /// A unit on the board whose damage reaches its life.
    DestroyedUnit {
        unit: &'a str,
        damage: u32,
        life: u32,
    },
    /// A player listed twice among those who passed in a row.
    PassedTwice {
        name: &'a str,
    },
    /// The player whose turn it is among those who passed in a row: every
    /// other player has had a turn since, which broke the run or ended it.
    PassedBeforeOwnTurn {
        name: &'a str,
    },
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
            Invalid::DestroyedUnit { unit, damage, life } => write!(
                f,
                "{unit} has {damage} damage against a life of {life}: by this engine's reading (damage reaching life destroys a unit) it would not be on the battlefield; correct its damage or remove it"
            ),
            Invalid::PassedTwice { name } => write!(
                f,
                "'{name}' is listed twice: a run of passes names each player once; remove the repeat"
            ),
            Invalid::PassedBeforeOwnTurn { name } => write!(
                f,
                "it is {name}'s turn, but {name} is listed among the consecutive passes: every other player has had a turn since {name} passed, and each either passed (so all have passed and the player turns phase is over) or took another main action (which broke the run); this board cannot arise: remove {name} from `consecutive_passes`, or give the turn to the player who comes next"
            ),
        }
    }
}

/// A notation line that is not a play: what is missing, or the part not
/// understood, with how to write it.
#[derive(Debug, Clone, Copy)]
pub enum Unparsed<'a> {
    Empty,
    PassTakesNothing {
        extra: &'a str,
    },
    /// A clause after `pay CARD main`.
    PayTakesNothing {
        extra: &'a str,
    },
    NotAPlay {
        head: &'a str,
    },
    /// An attack without `with` before its attackers.
    NoWith,
    NoAttacker,
    NoCard,
    NoMainAction,
    NoTarget,
    Block {
        clause: &'a str,
    },
    Share {
        part: &'a str,
    },
    /// A clause after an attack on a Phoenixborn.
    PhoenixbornClause {
        clause: &'a str,
    },
    /// A clause after an attack on a unit.
    UnitClause {
        clause: &'a str,
    },
}

impl Display for Unparsed<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match *self {
            Unparsed::Empty => write!(
                f,
                "the play is empty; try `pass`, `pay CARD main` or `attack PHOENIXBORN with UNIT, UNIT`"
            ),
            Unparsed::PassTakesNothing { extra } => {
                write!(f, "`pass` takes nothing more; unexpected '{extra}'")
            }
            Unparsed::PayTakesNothing { extra } => write!(
                f,
                "`pay CARD main` (or `side`) takes nothing more; unexpected '{extra}'"
            ),
            Unparsed::NotAPlay { head } => write!(
                f,
                "'{head}' is not a play; start with `attack`, `pass` or `pay` (for example `attack Maeoni with Iron Worker`)"
            ),
            Unparsed::NoWith => write!(
                f,
                "name the attackers after `with`: `attack Maeoni with Iron Worker, Hammer Knight`"
            ),
            Unparsed::NoAttacker => write!(f, "name at least one attacker after `with`"),
            Unparsed::NoCard => write!(f, "name the card: `pay \"Molten Gold\" main`"),
            Unparsed::NoMainAction => write!(
                f,
                "say whether the cost has the main-action symbol: end the play with `main` or `no main`"
            ),
            Unparsed::NoTarget => write!(
                f,
                "name the unit attacked: `attack unit \"Mist Spirit\" with Iron Worker`"
            ),
            Unparsed::Block { clause } => write!(
                f,
                "write a block as `block ATTACKER with BLOCKER [counter]`, not '{clause}'"
            ),
            Unparsed::Share { part } => {
                write!(f, "write each share as `UNIT AMOUNT`, not '{part}'")
            }
            Unparsed::PhoenixbornClause { clause } => write!(
                f,
                "'{clause}' is not understood; after an attack on a Phoenixborn use `block ATTACKER with BLOCKER [counter]`, `no block` or `order A, B`"
            ),
            Unparsed::UnitClause { clause } => write!(
                f,
                "'{clause}' is not understood; after an attack on a unit use `guard phoenixborn`, `guard UNIT`, `no guard`, `counter`, `no counter` or `split A 1, B 2`"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| n.to_string()).collect()
    }

    /// Wording no example board reaches (the snapshots pin the rest).
    #[test]
    fn wording_outside_the_snapshots_reads_as_before() {
        let passed = owned(&["Coal", "Maeoni"]);
        let (player, tired) = ("Noah", owned(&[]));
        let gone = owned(&["Iron Worker"]);
        let cases: Vec<(String, &str)> = vec![
            (
                Turn::BreaksPassRun {
                    player,
                    passed: &passed,
                }
                .into(),
                "Noah did not pass, so the run of consecutive passes (Coal, Maeoni) is broken; the player turns phase continues",
            ),
            (
                Outcome {
                    exhausted: &tired,
                    destroyed: &gone,
                }
                .to_string(),
                "destroyed: Iron Worker; no exhaustion token is placed",
            ),
            (
                Refusal::Guard {
                    why: NoGuard::NotTheirs {
                        guard: "Anchornaut",
                        defender: "Coal",
                    },
                    target: "Mist Spirit",
                }
                .into(),
                "Anchornaut is not a unit Coal controls; only the defending player's Phoenixborn or units can guard; no guard is declared and Mist Spirit remains the target",
            ),
            (
                Question::Guard {
                    defender: "Coal",
                    target: "Mist Spirit",
                }
                .into(),
                "Coal: guard Mist Spirit with…",
            ),
            (
                Question::CounterTarget {
                    defender: "Coal",
                    unit: "Mist Spirit",
                }
                .into(),
                "Coal: Mist Spirit is attacked; counter with Mist Spirit?",
            ),
            (
                Ending::NoneStanding.into(),
                "every Phoenixborn is destroyed at once: no winner (outside the indexed text)",
            ),
            (
                Invalid::SameUnitName {
                    player: "Coal",
                    unit: "Iron Worker",
                }
                .into(),
                "Coal has two units named 'Iron Worker'; name them apart (for example 'Iron Worker 2')",
            ),
        ];
        for (text, was) in cases {
            assert_eq!(text, was);
        }
    }
}
