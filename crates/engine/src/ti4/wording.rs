//! The wording of the TI4 rulings, apart from the logic: the procedure says
//! what happened with a typed value (`Passing::Passes { player }`) and this
//! module says how it reads. Steps on the turn order ([`Turn`]), on the
//! plays ([`Says`], [`Passing`], [`Between`], [`Timed`]), what a player
//! chose ([`Chose`]), the readings where the indexed text is silent
//! ([`Reading`] and the constants), the questions ([`Asks`]), the plays
//! refused ([`OutOfTurn`], [`OwnTurn`], [`Refusal`], [`Advance`]), the
//! result ([`Win`]), the board's faults ([`Invalid`]) and the notation
//! lines that do not read as a play ([`Misread`]). It names nothing
//! of the board (which uses it): the values are names, numbers and the
//! labels of the board's own enums.

use std::fmt;

use crate::kit::into_string;
use crate::text::count;

into_string!(
    Turn, Ends, Says, Passing, Between, Timed, Chose, Reading, Asks, OutOfTurn, OwnTurn, Refusal,
    Advance, Win, Invalid, Misread
);

pub const ASSUME_INITIATIVE: &str = "Initiative Order is a Related Topic that is not indexed: a player's place in initiative order is read as the lowest initiative number among their strategy cards.";
/// A strategic action exhausts its card.
pub const ASSUME_STRATEGIC: &str = "Strategic Action is a Related Topic that is not indexed: performing a card's strategic action is read as exhausting it (rule 4.1 speaks of exhausting the cards before passing); the primary and secondary abilities themselves are not adjudicated.";
/// The same with five or more players, where rule 4.1 does not apply.
pub const ASSUME_STRATEGIC_ONE_CARD: &str = "Strategic Action is a Related Topic that is not indexed: performing a card's strategic action is read as exhausting it; the primary and secondary abilities themselves are not adjudicated.";
/// An action card's own timing.
pub const ASSUME_CARD_TIMING: &str =
    "The timing written on the action card is not in the indexed text and is not checked.";
/// A player's claim to be unable to act.
pub const ASSUME_CANNOT_ACT: &str =
    "the board does not list what else the player could do, so the claim is taken as stated";
/// A transaction on the turn of one of its parties.
pub const ASSUME_TRANSACTION: &str = "Transactions have no entry in the indexed text: the engine records it as not being an action, made on the turn of one of its parties (who the active player is comes from Active Player, which is not indexed).";
/// A transaction on the turn of neither party.
pub const ASSUME_TRANSACTION_OFF_TURN: &str = "Transactions have no entry in the indexed text, and neither player is the one whose turn it is; the engine records it without checking its timing.";
/// A start-of-turn ability recorded after the pass of its turn.
pub const ASSUME_START_AFTER_PASS: &str = "Rule 3.1 and Note 3 let a player resolve “at the start of your turn” abilities on the turn they pass without saying when: the engine records this one after the pass without checking its timing (alternative reading: “at the start” puts it before the pass, so it should have been resolved first).";
/// A secondary ability, recorded.
pub const ASSUME_SECONDARY: &str = "Strategic Action (which governs secondary abilities) is a Related Topic that is not indexed: the engine records the secondary ability without adjudicating it.";
/// End-of-turn abilities of the turn whose pass ended the action phase.
pub const ASSUME_LAST_TURN: &str = "The last pass ended the action phase; the engine lets that turn's end-of-turn abilities resolve as the turn closes, before the status phase (Status Phase is a Related Topic that is not indexed).";
/// The answer declining a transaction.
/// When a turn with its action done ends: the Action Phase text says only
/// that a player performs a single action during their turn.
pub const ASSUME_TURN_END: &str = "The Action Phase text does not say when a turn ends once its action is done: the engine reads it as ending when the player ends it or when the next player begins theirs (the turn's end-of-turn abilities may still resolve until then).";
pub const DECLINE: &str = "decline";

/// A number's label: `initiative Alice`.
pub fn initiative_of(name: &str) -> String {
    format!("initiative {name}")
}

/// Notes that the ruling relies on a Related Topic that is not indexed.
pub fn topic_note(topic: &str) -> String {
    format!(
        "This ruling relies on the Related Topic “{topic}” of the Action Phase entry, which is not indexed; the reading chosen is stated in the step's assumption."
    )
}

/// [`topic_note`] for a reading stated in the refusal itself.
pub fn topic_in_refusal(topic: &str) -> String {
    format!(
        "This ruling relies on the Related Topic “{topic}” of the Action Phase entry, which is not indexed; the reading chosen is stated in the refusal, which cites no rule."
    )
}

/// What a play needing the turn would do: `take a turn`, `end a turn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deed {
    TakeTurn,
    EndAction,
    EndTurn,
}

impl fmt::Display for Deed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Deed::TakeTurn => "take a turn",
            Deed::EndAction => "end an action",
            Deed::EndTurn => "end a turn",
        })
    }
}

/// Whose turns follow the current player's, and who has passed (the lists
/// of names; `None` for nobody).
#[derive(Debug, Clone, Copy)]
pub struct Upcoming<'a> {
    pub player: &'a str,
    pub player_passed: bool,
    pub next: Option<&'a str>,
    pub passed: Option<&'a str>,
}

impl fmt::Display for Upcoming<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.player;
        match (self.next, self.player_passed) {
            (None, true) => write!(f, "no player is left to take a turn")?,
            (None, false) => write!(
                f,
                "every other player has passed, so {name} takes the next turn too"
            )?,
            (Some(next), true) => write!(f, "next in initiative order: {next}")?,
            (Some(next), false) => {
                write!(f, "next in initiative order: {next}, then {name} again")?
            }
        }
        match self.passed {
            None => write!(f, "; no player has passed"),
            Some(passed) => write!(f, "; passed (no further turns): {passed}"),
        }
    }
}

/// A strategy card held: "Warfare 6 exhausted".
#[derive(Debug, Clone, Copy)]
pub struct Held<'a> {
    pub card: &'a str,
    pub initiative: u32,
    pub exhausted: bool,
}

/// A seat in the opening step: "Name [Faction] (Warfare 6 exhausted, …) —
/// passed".
#[derive(Debug, Clone)]
pub struct Seat<'a> {
    pub name: &'a str,
    pub faction: Option<&'a str>,
    pub cards: Vec<Held<'a>>,
    pub passed: bool,
}

impl fmt::Display for Seat<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)?;
        if let Some(faction) = self.faction {
            write!(f, " [{faction}]")?;
        }
        f.write_str(" (")?;
        for (k, c) in self.cards.iter().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} {}", c.card, c.initiative)?;
            if c.exhausted {
                f.write_str(" exhausted")?;
            }
        }
        f.write_str(")")?;
        if self.passed {
            f.write_str(" — passed")?;
        }
        Ok(())
    }
}

/// What the player whose turn it is has done with it so far.
#[derive(Debug, Clone, Copy)]
pub enum Done<'a> {
    /// The strategic action of the card.
    Strategic(&'a str),
    Passed,
    /// Another action, by its label (`a tactical action`).
    Other(&'a str),
}

impl fmt::Display for Done<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Done::Strategic(card) => write!(f, "performed the strategic action of {card}"),
            Done::Passed => write!(f, "passed"),
            Done::Other(action) => write!(f, "performed {action}"),
        }
    }
}

/// Why a turn ends.
#[derive(Debug, Clone, Copy)]
pub enum Why<'a> {
    ActionDone,
    /// The player begins the next turn.
    Begins(&'a str),
    /// The player ends it.
    EndsIt(&'a str),
}

impl fmt::Display for Why<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::ActionDone => write!(f, "its action is done"),
            Why::Begins(player) => write!(f, "{player} begins the next turn"),
            Why::EndsIt(player) => write!(f, "{player} ends it"),
        }
    }
}

/// "A's turn ends (why)."
#[derive(Debug, Clone, Copy)]
pub struct Ends<'a> {
    pub player: &'a str,
    pub why: Why<'a>,
}

impl fmt::Display for Ends<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}'s turn ends ({}).", self.player, self.why)
    }
}

/// Steps on the turn order: whose turn it is, turns ending and beginning.
#[derive(Debug, Clone)]
pub enum Turn<'a> {
    /// The opening step: the seats in initiative order.
    Order(Vec<Seat<'a>>),
    /// The status phase is reached.
    AllPassed,
    /// Whose turn it is, before they act.
    Now {
        player: &'a str,
        initiative: u8,
        upcoming: &'a str,
    },
    /// The turn goes on after its action or pass.
    Still {
        player: &'a str,
        done: Done<'a>,
        upcoming: &'a str,
    },
    /// All others have passed: the same player again.
    Consecutive(Ends<'a>),
    /// The end of the order: turns begin again with `next`.
    Again {
        ends: Ends<'a>,
        next: &'a str,
    },
    Next {
        ends: Ends<'a>,
        next: &'a str,
    },
    /// Passed players skipped (their names, how many).
    Skipped {
        players: &'a str,
        count: usize,
    },
    /// The action phase begins with `player`'s turn.
    Begins {
        player: &'a str,
        initiative: u8,
    },
    /// The last turn of the action phase ends.
    LastEnds {
        player: &'a str,
    },
}

impl fmt::Display for Turn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Order(seats) => {
                f.write_str("Initiative order: ")?;
                for (n, p) in seats.iter().enumerate() {
                    if n > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_str(".")
            }
            Turn::AllPassed => write!(
                f,
                "All players have passed: the action phase is over and play proceeds to the status phase."
            ),
            Turn::Now {
                player: name,
                initiative,
                upcoming,
            } => write!(
                f,
                "It is {name}'s turn (initiative {initiative}); {name} has not yet acted this turn; {upcoming}."
            ),
            Turn::Still {
                player: name,
                done,
                upcoming,
            } => write!(
                f,
                "It is still {name}'s turn: {name} has {done}. The turn ends when {name} ends it or when the next player begins theirs; {upcoming}."
            ),
            Turn::Consecutive(ends) => write!(
                f,
                "{ends} All other players have passed, so {} takes another, consecutive turn.",
                ends.player
            ),
            Turn::Again { ends, next } => write!(
                f,
                "{ends} Every player has had a turn, so turns begin again in initiative order: it is {next}'s turn."
            ),
            Turn::Next { ends, next } => {
                write!(f, "{ends} Next in initiative order: it is {next}'s turn.")
            }
            Turn::Skipped { players, count } => {
                let verb = if *count == 1 { "is" } else { "are" };
                write!(
                    f,
                    "{players} passed earlier and {verb} skipped: a passed player has no further turns."
                )
            }
            Turn::Begins {
                player: name,
                initiative,
            } => write!(
                f,
                "The action phase begins: each player takes a turn in initiative order, so {name} (initiative {initiative}) takes the first turn."
            ),
            Turn::LastEnds { player } => write!(
                f,
                "{player}'s turn, the last of the action phase, ends; play proceeds to the status phase."
            ),
        }
    }
}

/// Where a tactical or component action comes from, as the play says.
#[derive(Debug, Clone, Copy)]
pub enum Via<'a> {
    Unsaid,
    /// The system activated.
    System(&'a str),
    /// What the component action comes from.
    Source(&'a str),
    ActionCard(&'a str),
}

/// A tactical or component action: "tactical action, activating Mecatol".
#[derive(Debug, Clone, Copy)]
pub struct Action<'a> {
    /// Tactical, else component.
    pub tactical: bool,
    pub via: Via<'a>,
}

impl fmt::Display for Action<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.tactical {
            true => "tactical action",
            false => "component action",
        })?;
        match self.via {
            Via::Unsaid => Ok(()),
            Via::System(s) => write!(f, ", activating {s}"),
            Via::Source(s) => write!(f, " ({s})"),
            Via::ActionCard(card) => write!(f, " (action card {card})"),
        }
    }
}

/// Steps of the actions and action cards.
#[derive(Debug, Clone, Copy)]
pub enum Says<'a> {
    Strategic {
        player: &'a str,
        card: &'a str,
    },
    /// The player's cards still readied after a strategic action.
    StillReadied {
        player: &'a str,
        cards: &'a str,
    },
    BothExhausted {
        player: &'a str,
    },
    MayPass {
        player: &'a str,
    },
    Performs {
        player: &'a str,
        action: Action<'a>,
    },
    CardAfterPass {
        player: &'a str,
        card: &'a str,
    },
    CardNotAction {
        player: &'a str,
        card: &'a str,
    },
}

impl fmt::Display for Says<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Says::Strategic { player: pn, card } => write!(
                f,
                "{pn} performs the strategic action of {card}: the one action of this turn. {card} is exhausted."
            ),
            Says::StillReadied { player, cards } => write!(
                f,
                "{player} still has {cards} readied and cannot pass until it is exhausted."
            ),
            Says::BothExhausted { player: pn } => write!(
                f,
                "Both of {pn}'s strategy cards are now exhausted: {pn} may pass on a later turn."
            ),
            Says::MayPass { player: pn } => write!(
                f,
                "{pn} has performed the strategic action of their strategy card: {pn} may pass on a later turn."
            ),
            Says::Performs { player, action } => write!(
                f,
                "{player} performs a {action}: the one action of this turn."
            ),
            Says::CardAfterPass { player, card } => write!(
                f,
                "{player} has passed but plays {card}, a non-component action card: players may still play those after passing."
            ),
            Says::CardNotAction { player, card } => write!(
                f,
                "{player} plays {card}, a non-component action card: it is not one of the three types of actions, so it does not use a turn's action."
            ),
        }
    }
}

/// Steps of a pass.
#[derive(Debug, Clone, Copy)]
pub enum Passing<'a> {
    /// Rule 2 weighed and set aside for `rule` (`4.1` or `4`).
    SetAside {
        player: &'a str,
        rule: &'a str,
    },
    MustPass {
        player: &'a str,
    },
    Passes {
        player: &'a str,
    },
    /// The start-of-turn abilities resolved this turn stand.
    StartStands {
        player: &'a str,
        abilities: &'a str,
    },
    LastToPass {
        player: &'a str,
    },
    OnlyLeft {
        player: &'a str,
    },
}

impl fmt::Display for Passing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Passing::SetAside { player, rule } => write!(
                f,
                "{player} states they cannot perform an action; rule 2 says such a player must pass, but this ruling sets it aside for rule {rule}: a readied strategy card still offers its strategic action."
            ),
            Passing::MustPass { player: pn } => {
                write!(f, "{pn} cannot perform an action, so {pn} must pass.")
            }
            Passing::Passes { player: pn } => write!(
                f,
                "{pn} passes: {pn} has no further turns and cannot perform additional actions during this action phase."
            ),
            Passing::StartStands { player, abilities } => write!(
                f,
                "The “at the start of your turn” abilities {player} resolved this turn ({abilities}) stand: a player can resolve them during the turn they pass."
            ),
            Passing::LastToPass { player } => write!(
                f,
                "{player} was the last player to pass. All players have passed: play proceeds to the status phase."
            ),
            Passing::OnlyLeft { player: only } => write!(
                f,
                "Only {only} has not passed: {only} will take consecutive turns until they pass."
            ),
        }
    }
}

/// Steps of plays between two players: transactions and secondary
/// abilities.
#[derive(Debug, Clone, Copy)]
pub enum Between<'a> {
    /// A transaction during the turn `passer` passes.
    TransactionOnPass {
        player: &'a str,
        with: &'a str,
        passer: &'a str,
    },
    Transaction {
        player: &'a str,
        with: &'a str,
    },
    Agrees {
        player: &'a str,
        with: &'a str,
    },
    Declines {
        with: &'a str,
    },
    SecondaryAfterPass {
        player: &'a str,
        card: &'a str,
        owner: &'a str,
    },
    Secondary {
        player: &'a str,
        card: &'a str,
        owner: &'a str,
    },
}

impl fmt::Display for Between<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Between::TransactionOnPass {
                player,
                with,
                passer,
            } => write!(
                f,
                "{player} and {with} may resolve a transaction during the turn {passer} passes: a player can resolve transactions on that turn."
            ),
            Between::Transaction { player, with } => write!(
                f,
                "{player} and {with} may resolve a transaction; it is not one of the three types of actions, so it does not use the turn."
            ),
            Between::Agrees { player, with } => write!(
                f,
                "{with} agrees: {player} and {with} resolve the transaction."
            ),
            Between::Declines { with } => {
                write!(f, "{with} does not agree: no transaction takes place.")
            }
            Between::SecondaryAfterPass {
                player,
                card,
                owner,
            } => write!(
                f,
                "{player} has passed but resolves the secondary ability of {card} ({owner}'s card): a passed player can still do so."
            ),
            Between::Secondary {
                player: pn,
                card,
                owner,
            } => write!(
                f,
                "{pn} resolves the secondary ability of {card} ({owner}'s card); it is not {pn}'s action."
            ),
        }
    }
}

/// Steps of the abilities with a turn timing: (player, ability).
#[derive(Debug, Clone, Copy)]
pub enum Timed<'a> {
    /// At the start of a turn, all other players passed.
    StartAlone(&'a str, &'a str),
    Start(&'a str, &'a str),
    /// At the start of the turn, recorded after the player passed on it.
    StartOnPass(&'a str, &'a str),
    EndOfAction(&'a str, &'a str),
    /// At the end of the turn the player passed on.
    EndOnPass(&'a str, &'a str),
    /// At the end of a turn, all other players passed.
    EndAlone(&'a str, &'a str),
    /// At the end of a turn; `after`: after end-of-action abilities.
    End(&'a str, &'a str, bool),
}

impl fmt::Display for Timed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Timed::StartAlone(pn, ability) => write!(
                f,
                "{pn} resolves “{ability}” at the start of their turn: with all other players passed, they continue to resolve start-of-turn abilities."
            ),
            Timed::Start(pn, ability) => write!(
                f,
                "{pn} resolves “{ability}” at the start of their turn (it stands even if {pn} passes this turn)."
            ),
            Timed::StartOnPass(pn, ability) => write!(
                f,
                "{pn} resolves the “at the start of your turn” ability “{ability}” on the turn they pass."
            ),
            Timed::EndOfAction(pn, ability) => write!(
                f,
                "{pn} resolves “{ability}” at the end of their action, before any end-of-turn ability."
            ),
            Timed::EndOnPass(pn, ability) => write!(
                f,
                "{pn} resolves “{ability}” at the end of the turn they passed on: a player may do so on the turn they pass."
            ),
            Timed::EndAlone(pn, ability) => write!(
                f,
                "{pn} resolves “{ability}” at the end of their turn: with all other players passed, they continue to resolve end-of-turn abilities."
            ),
            Timed::End(pn, ability, after) => {
                let after = if after {
                    " (after the end-of-action abilities)"
                } else {
                    ""
                };
                write!(
                    f,
                    "{pn} resolves “{ability}” at the end of their turn{after}; no end-of-action ability can follow it this turn."
                )
            }
        }
    }
}

/// What a player chose, on a step.
#[derive(Debug, Clone, Copy)]
pub enum Chose<'a> {
    Strategic(&'a str),
    Action(Action<'a>),
    /// An action card played.
    Play(&'a str),
    Pass,
    PassCannotAct,
    /// A transaction with the other party.
    Transaction(&'a str),
    /// The other party's answer: accepted or not.
    Answer(bool),
    Secondary(&'a str),
}

impl fmt::Display for Chose<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Chose::Strategic(card) => write!(f, "strategic action of {card}"),
            Chose::Action(action) => write!(f, "{action}"),
            Chose::Play(card) => write!(f, "to play {card}"),
            Chose::Pass => write!(f, "to pass"),
            Chose::PassCannotAct => write!(f, "to pass (cannot act)"),
            Chose::Transaction(with) => write!(f, "transaction with {with}"),
            Chose::Answer(true) => write!(f, "to accept the transaction"),
            Chose::Answer(false) => write!(f, "to decline the transaction"),
            Chose::Secondary(card) => write!(f, "secondary ability of {card}"),
        }
    }
}

/// Readings where the indexed text is silent, with what they read.
#[derive(Debug, Clone, Copy)]
pub enum Reading<'a> {
    /// The document does not say whose turn it is.
    FirstNotPassed(&'a str),
    /// An action card its player says is not a component action.
    StatedNotComponent { player: &'a str, card: &'a str },
    /// What a tactical or component action does (the topic).
    ActionTopic(&'a str),
    /// An action card not marked `component`.
    NotComponent(&'a str),
    /// Rule `rule` prevails over rule 2 for `player`.
    Prevails { rule: &'a str, player: &'a str },
    /// A passed player as the other party of a transaction.
    PassedParty(&'a str),
    /// A passed player in a transaction on neither party's turn.
    PassedOffTurn { who: &'a str, both: bool },
    /// The other party's unstated answer, read as declined.
    Unanswered(&'a str),
}

impl fmt::Display for Reading<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reading::FirstNotPassed(player) => write!(
                f,
                "The document does not say whose turn it is; the engine takes {player}, the first player in initiative order who has not passed."
            ),
            Reading::ActionTopic(topic) => write!(
                f,
                "{topic} is a Related Topic that is not indexed: the engine checks only when the action may be taken, not what it does."
            ),
            Reading::StatedNotComponent { player, card } => write!(
                f,
                "{player} states that {card} is not a component action card; the board holds no card's type, so this is taken as stated, not checked"
            ),
            Reading::NotComponent(card) => write!(
                f,
                "{card} is not marked `component: true`, so it is read as a non-component action card (alternative: a component action card, which would be the turn's action)"
            ),
            Reading::Prevails { rule, player } => write!(
                f,
                "a reading: rule {rule} prevails over rule 2 while a strategy card is readied (the alternative is that rule 2 lets {player} pass anyway)"
            ),
            Reading::PassedParty(n) => write!(
                f,
                "{n} passed earlier and is not on the turn they passed; the indexed text (rule 3.1) speaks only of that turn, so the engine allows a passed player to be the other party of the transaction of the player whose turn it is (alternative reading: rule 3 keeps {n} out of it)."
            ),
            Reading::PassedOffTurn { who: n, both } => write!(
                f,
                "{n} {} passed, and neither party is the player whose turn it is; rule 3.1 lets a player resolve transactions during the turn they pass without saying they may not at other times, and transactions have no entry in the indexed text, so the engine records it without checking its timing (alternative reading: rule 3 keeps {n} out of transactions).",
                if *both { "have" } else { "has" }
            ),
            Reading::Unanswered(qn) => write!(
                f,
                "{qn}'s answer is not stated; a transaction needs both players' agreement and the indexed text (which has no entry for transactions) gives no default, so it is read as declined (alternative: wait for {qn}'s answer)"
            ),
        }
    }
}

/// The questions asked of a player, and their answers.
#[derive(Debug, Clone, Copy)]
pub enum Asks<'a> {
    /// Which of the player's readied cards.
    WhichCard(&'a str),
    /// Whether `with` accepts `player`'s transaction.
    Accept { player: &'a str, with: &'a str },
    /// The answer accepting `player`'s transaction.
    Accepts(&'a str),
}

impl fmt::Display for Asks<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Asks::WhichCard(player) => {
                write!(f, "{player}: the strategic action of which strategy card?")
            }
            Asks::Accept { player, with } => {
                write!(f, "{with}: accept the transaction {player} proposes?")
            }
            Asks::Accepts(player) => write!(f, "accept {player}'s transaction"),
        }
    }
}

/// A play that needs the turn, made out of it (or out of the action
/// phase): `player` would `deed`, it is `current`'s turn.
#[derive(Debug, Clone, Copy)]
pub enum OutOfTurn<'a> {
    StrategyPhase {
        player: &'a str,
        deed: Deed,
    },
    StatusPhase {
        player: &'a str,
        deed: Deed,
    },
    NoTurn,
    Passed {
        player: &'a str,
        current: &'a str,
    },
    NotTheirs {
        player: &'a str,
        current: &'a str,
        deed: Deed,
    },
    /// `current` has not acted yet.
    NotActedYet {
        player: &'a str,
        current: &'a str,
        initiative: u8,
    },
    /// `next`, not `player`, comes after `current`.
    NotNext {
        player: &'a str,
        initiative: u8,
        current: &'a str,
        next: &'a str,
        next_initiative: u8,
    },
    AllPassed,
}

impl fmt::Display for OutOfTurn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            OutOfTurn::StrategyPhase { player, deed } => write!(
                f,
                "the round is in the strategy phase: the action phase has not begun, so {player} cannot {deed} (advance to it once every player holds their strategy cards)"
            ),
            OutOfTurn::StatusPhase { player, deed } => write!(
                f,
                "all players have passed: the action phase is over and play has proceeded to the status phase, so {player} cannot {deed}"
            ),
            OutOfTurn::NoTurn => write!(f, "the action phase is over and no turn is under way"),
            OutOfTurn::Passed { player, current } => write!(
                f,
                "{player} has passed: after a player has passed they have no further turns and cannot perform additional actions during this action phase (it is {current}'s turn)"
            ),
            OutOfTurn::NotTheirs {
                player: pn,
                current,
                deed,
            } => write!(
                f,
                "it is {current}'s turn, not {pn}'s; {pn} cannot {deed} out of initiative order"
            ),
            OutOfTurn::NotActedYet {
                player,
                current: cn,
                initiative,
            } => write!(
                f,
                "it is {cn}'s turn (initiative {initiative}) and {cn} has not yet performed an action or passed; {player} cannot act out of initiative order"
            ),
            OutOfTurn::NotNext {
                player,
                initiative,
                current,
                next,
                next_initiative,
            } => write!(
                f,
                "after {current}'s turn the next player in initiative order is {next} (initiative {next_initiative}), not {player} (initiative {initiative}); players take turns in initiative order"
            ),
            OutOfTurn::AllPassed => write!(f, "all players have passed"),
        }
    }
}

/// A play on the player's own turn that the turn cannot hold: `player`
/// has already acted, passed, or not yet acted.
#[derive(Debug, Clone, Copy)]
pub enum OwnTurn<'a> {
    /// Ending a turn with no action or pass.
    NotActed {
        player: &'a str,
    },
    /// An end-of-action ability on a turn with no action yet.
    NoActionEnded {
        player: &'a str,
    },
    PassedThisTurn {
        player: &'a str,
    },
    PassAfterAction {
        player: &'a str,
        done: &'a str,
        upcoming: &'a str,
    },
    StartAfterAction {
        player: &'a str,
        done: &'a str,
    },
    SecondAction {
        player: &'a str,
        done: &'a str,
        upcoming: &'a str,
    },
}

impl fmt::Display for OwnTurn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            OwnTurn::NotActed { player } => write!(
                f,
                "{player} has neither performed an action nor passed this turn, so the turn cannot end yet; a player who cannot perform an action must pass"
            ),
            OwnTurn::NoActionEnded { player } => write!(
                f,
                "{player} has performed no action this turn, so no action has ended that could trigger an “at the end of an action” ability (the ability's own timing)"
            ),
            OwnTurn::PassedThisTurn { player } => write!(
                f,
                "{player} passed this turn and cannot perform additional actions during this action phase"
            ),
            OwnTurn::PassAfterAction {
                player: pn,
                done,
                upcoming,
            } => write!(
                f,
                "{pn} has already performed {done} this turn; the text gives a turn “a single action” and does not say whether a pass may follow it: the engine reads a turn as holding a single action or a pass (the other reading lets {pn} pass now); {pn} can pass on their next turn ({upcoming})"
            ),
            OwnTurn::StartAfterAction { player, done } => write!(
                f,
                "{player} has already performed {done} this turn; an “at the start of your turn” ability resolves at the start of the turn, before the action (the ability's own timing)"
            ),
            OwnTurn::SecondAction {
                player,
                done,
                upcoming,
            } => write!(
                f,
                "{player} has already performed {done} this turn; a player performs one action per turn (strategic, tactical or component); {upcoming}"
            ),
        }
    }
}

/// The readied cards that keep a player from passing.
#[derive(Debug, Clone, Copy)]
pub struct Readied<'a> {
    /// Their names: "Warfare and Trade".
    pub cards: &'a str,
    pub count: usize,
    /// Three or four players: two cards each (rule 4.1).
    pub two_cards: bool,
}

impl fmt::Display for Readied<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = self.cards;
        match self.two_cards {
            true => write!(
                f,
                "{list} {} still readied, and in a three- or four-player game a player cannot pass until both of their strategy cards are exhausted",
                if self.count == 1 { "is" } else { "are" }
            ),
            false => write!(
                f,
                "they have not yet performed the strategic action of their strategy card ({list} is readied)"
            ),
        }
    }
}

/// The diagnostics of the plays (beyond [`OutOfTurn`]): refused plays, a
/// claim not read, a warning on timing.
#[derive(Debug, Clone, Copy)]
pub enum Refusal<'a> {
    NotOwnCard {
        player: &'a str,
        card: &'a str,
        owner: &'a str,
    },
    /// `two_cards`: a three- or four-player game, where rule 4.1 applies.
    Exhausted {
        player: &'a str,
        card: &'a str,
        two_cards: bool,
    },
    /// A passed player's component action card (rule N1).
    ComponentAfterPass {
        player: &'a str,
        card: &'a str,
    },
    /// The same, under rule 3.
    ComponentIsAction {
        player: &'a str,
    },
    /// `set_aside`: rule 2 was claimed, weighed and set aside.
    CannotPass {
        player: &'a str,
        readied: Readied<'a>,
        set_aside: bool,
    },
    /// The claim to be unable to act, not read.
    ClaimNotRead {
        player: &'a str,
    },
    OwnSecondary {
        player: &'a str,
        card: &'a str,
    },
    SecondaryInStatus {
        card: &'a str,
    },
    SecondaryInStrategy {
        card: &'a str,
    },
    /// `owner` is not resolving the card's strategic action now.
    NotResolving {
        owner: &'a str,
        card: &'a str,
    },
    /// A player resolving a card's secondary a second time in one
    /// strategic action: a reading, the text being silent.
    SecondaryAgain {
        player: &'a str,
        card: &'a str,
    },
    /// An end-of-action ability on a turn that passed.
    NoAction {
        player: &'a str,
        ability: &'a str,
    },
    /// An end-of-action ability after end-of-turn ones.
    AfterEndOfTurn {
        player: &'a str,
        abilities: &'a str,
    },
}

impl fmt::Display for Refusal<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::NotOwnCard {
                player,
                card,
                owner,
            } => write!(
                f,
                "{card} is {owner}'s strategy card; {player} can only perform the strategic action of their own strategy card (they may resolve its secondary ability instead) (Strategic Action is a Related Topic that is not indexed; the engine reads a card's strategic action as its owner's)"
            ),
            Refusal::Exhausted {
                player,
                card,
                two_cards,
            } => {
                write!(
                    f,
                    "{card} is already exhausted: {player} has performed its strategic action this round (Strategic Action is a Related Topic that is not indexed; the engine reads an exhausted card as spent"
                )?;
                match two_cards {
                    true => f.write_str(", as rule 4.1 ties passing to exhausting the cards)"),
                    false => f.write_str(")"),
                }
            }
            Refusal::ComponentAfterPass { player, card } => write!(
                f,
                "{player} has passed: only non-component action cards may still be played after passing, and {card} is a component action"
            ),
            Refusal::ComponentIsAction { player } => write!(
                f,
                "{player} has passed and cannot perform additional actions during this action phase; a component action card is a component action"
            ),
            Refusal::CannotPass {
                player,
                readied,
                set_aside,
            } => {
                let aside = if set_aside {
                    " (rule 2, weighed and set aside: see its step)"
                } else {
                    ""
                };
                write!(f, "{player} cannot pass: {readied}{aside}")
            }
            Refusal::ClaimNotRead { player } => write!(
                f,
                "{player}'s claim to be unable to act (rule 2) is not read: the pass itself is refused"
            ),
            Refusal::OwnSecondary { player, card } => write!(
                f,
                "{card} is {player}'s own strategy card; the engine reads a card's secondary ability as resolved by the other players only, as rule 3.2 speaks of “the secondary ability of other players’ strategy cards” (it is about passed players; Strategic Action, which governs secondary abilities, is not indexed; the other reading lets the owner resolve it too)"
            ),
            Refusal::SecondaryInStatus { card } => write!(
                f,
                "all players have passed: the action phase is over and play has proceeded to the status phase, so {card}'s secondary ability can no longer be resolved"
            ),
            Refusal::SecondaryInStrategy { card } => write!(
                f,
                "the round is in the strategy phase: {card}'s strategic action (and so its secondary ability) belongs to the action phase"
            ),
            Refusal::NotResolving { owner, card } => write!(
                f,
                "{owner} is not resolving the strategic action of {card} right now; Strategic Action is a Related Topic that is not indexed, so the engine does not rule on when a secondary ability may be resolved"
            ),
            Refusal::SecondaryAgain { player, card } => write!(
                f,
                "{player} has already resolved the secondary ability of {card} during this strategic action. A reading the indexed text leaves open: \
                 the Action Phase text does not say how often a player may resolve a secondary ability (Strategic Action, which governs them, is a Related Topic that is not indexed), \
                 so the engine records it again without adjudicating it; the other reading, once for each player per strategic action, would refuse this one"
            ),
            Refusal::NoAction { player, ability } => write!(
                f,
                "{player} passed this turn: passing is not one of the three types of actions, so there is no action whose end could trigger “{ability}”"
            ),
            Refusal::AfterEndOfTurn { player, abilities } => write!(
                f,
                "{player} has already resolved end-of-turn abilities ({abilities}); abilities at the end of an action happen before any at the end of a player's turn"
            ),
        }
    }
}

/// Moving between phases: advancing too early, and the strategy phase's
/// note.
#[derive(Debug, Clone, Copy)]
pub enum Advance<'a> {
    /// Players still to act (`waiting`), `current`'s turn.
    StillToAct { waiting: &'a str, current: &'a str },
    /// Players (`short`) still to choose their `want` cards.
    ChooseCards { want: usize, short: &'a str },
    /// A new round's strategy phase, `cards` each to choose.
    Round { round: u32, cards: usize },
}

impl fmt::Display for Advance<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Advance::StillToAct { waiting, current } => write!(
                f,
                "play proceeds to the status phase only after all players have passed; still to act, in initiative order: {waiting} (it is {current}'s turn)"
            ),
            Advance::ChooseCards { want, short } => write!(
                f,
                "the action phase needs each player to hold {} (rules 4 and 4.1 speak of each player's cards); still to choose: {short}. The strategy phase is outside the indexed text: record each choice with `adjust players.NAME.strategy_cards[+] {{name: CARD}}`",
                count(want, "strategy card")
            ),
            Advance::Round { round, cards } => write!(
                f,
                "round {round}: the status phase's steps, the agenda phase (when your game has one) and the strategy phase are outside the indexed text and not modelled by this board; record scored points with `adjust players.NAME.victory_points`, and each player's {} with `adjust players.NAME.strategy_cards[+] {{name: CARD}}`, then advance to the action phase",
                count(cards, "chosen strategy card")
            ),
        }
    }
}

/// The result: `player` has `points` of the `goal`; `tied`: the others who
/// reached it too.
#[derive(Debug, Clone, Copy)]
pub struct Win<'a> {
    pub player: &'a str,
    pub points: usize,
    pub goal: u32,
    pub tied: Option<&'a str>,
}

impl fmt::Display for Win<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, points, goal) = (self.player, count(self.points, "victory point"), self.goal);
        write!(f, "{name} has {points} of the {goal} needed to win")?;
        if let Some(tied) = self.tied {
            write!(
                f,
                "; {tied} reached it too, and the first of them in initiative order is read as the winner (the Victory Points entry that settles ties is not indexed; alternative: a shared result)"
            )?;
        }
        write!(
            f,
            ". A reading outside the indexed text: the Action Phase entry does not cover scoring; the board's `points_to_win` decides the game"
        )
    }
}

/// What is wrong with `this_turn` for the player whose turn it is.
#[derive(Debug, Clone, Copy)]
pub enum Fault {
    /// In the status phase, a turn that did not pass.
    StatusTurn,
    /// A passed player's turn that is not the one they passed.
    PassedTurn,
    /// `this_turn.action: pass` for a player not marked as passed.
    PassNotMarked,
    EndOfActionNoAction,
    EndOfTurnNoAction,
    /// `card` without a strategic action, or the reverse.
    Card,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::StatusTurn => "in the status phase `turn` may only name the player whose passing ended the action phase (with `this_turn.action: pass`)",
            Fault::PassedTurn => "a passed player has no further turns: `turn` names a passed player only on the turn they passed (`this_turn.action: pass`), and only then",
            Fault::PassNotMarked => "`this_turn.action: pass` says this player passed this turn, but they are not marked `passed: true`; mark them passed, or give the action they took",
            Fault::EndOfActionNoAction => "end-of-action abilities are listed but no action was performed this turn",
            Fault::EndOfTurnNoAction => "end-of-turn abilities are listed but the turn has no action or pass yet",
            Fault::Card => "`card` names the strategy card of a turn whose action is `strategic`, and only then",
        })
    }
}

/// A board that cannot be judged: what the types cannot say.
#[derive(Debug, Clone, Copy)]
pub enum Invalid<'a> {
    SameName(&'a str),
    /// `player` holds `held` cards in a game of `players`, `want` each.
    Holds {
        player: &'a str,
        held: usize,
        players: usize,
        want: usize,
    },
    HeldBy {
        card: &'a str,
        owner: &'a str,
    },
    InitiativeTwice {
        initiative: u32,
        other: &'a str,
        card: &'a str,
    },
    PassedReadied {
        player: &'a str,
        card: &'a str,
    },
    /// Not a base-game card, with the one it may mean, else the `base`
    /// cards.
    NotBaseCard {
        card: &'a str,
        suggestion: Option<&'a str>,
        base: &'a [&'a str],
    },
    /// The status phase while players (`waiting`) have not passed.
    StatusNotPassed {
        waiting: &'a str,
        count: usize,
    },
    /// `this_turn.card` names `owner`'s card, not one `player` holds.
    OthersCard {
        card: &'a str,
        owner: &'a str,
        player: &'a str,
        held: &'a str,
    },
    ActionAllPassed,
    StrategyTurn,
    TurnUnsaid,
    Turn {
        player: &'a str,
        fault: Fault,
    },
    /// The turn's strategic action card is readied.
    CardReadied(&'a str),
    /// More abilities of one timing in a turn than the most kept.
    TooManyAbilities(usize),
    SameParty,
}

/// How many strategy cards each player holds is the Strategy Phase's (not
/// indexed): the engine reads it off rule 4.1's “both of their strategy
/// cards” (three or four players) or rule 4's “their strategy card”.
fn cards_each_reading(players: usize) -> &'static str {
    match players <= 4 {
        true => {
            "rule 4.1's “both of their strategy cards” in three- and four-player games; the Strategy Phase, which deals them, is not indexed"
        }
        false => {
            "rule 4's “the strategic action of their strategy card”; the Strategy Phase, which deals them, is not indexed"
        }
    }
}

impl fmt::Display for Invalid<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Invalid::SameName(name) => write!(f, "two players are named '{name}'"),
            Invalid::Holds {
                player,
                held,
                players: n,
                want,
            } => write!(
                f,
                "{player} holds {}; in a {n}-player game each player has {want} (a reading: {})",
                count(held, "strategy card"),
                cards_each_reading(n)
            ),
            Invalid::HeldBy { card, owner } => write!(f, "{card} is already held by {owner}"),
            Invalid::InitiativeTwice {
                initiative,
                other,
                card,
            } => write!(
                f,
                "initiative {initiative} is used twice ({other} and {card}); each strategy card has its own number"
            ),
            Invalid::PassedReadied { player, card } => write!(
                f,
                "{player} is marked as passed but {card} is still readied; a player cannot pass before exhausting it"
            ),
            Invalid::NotBaseCard {
                card,
                suggestion,
                base,
            } => {
                write!(
                    f,
                    "'{card}' is not a base-game strategy card, so its initiative number (0 to 99) is needed; "
                )?;
                match suggestion {
                    Some(m) => write!(f, "did you mean '{m}'?"),
                    None => write!(f, "the base-game cards are {}", base.join(", ")),
                }
            }
            Invalid::StatusNotPassed { waiting, count } => write!(
                f,
                "the phase is `status` but {waiting} {} not passed; play proceeds to the status phase only after all players have passed",
                if count == 1 { "has" } else { "have" }
            ),
            Invalid::OthersCard {
                card,
                owner,
                player,
                held,
            } => write!(
                f,
                "{card} is {owner}'s strategy card, not {player}'s: `this_turn.card` names the card whose strategic action {player}, whose turn it is, performed (one of theirs: {held})"
            ),
            Invalid::ActionAllPassed => write!(
                f,
                "every player has passed, so the action phase is over; write `phase: status`"
            ),
            Invalid::StrategyTurn => write!(
                f,
                "no player takes turns during the strategy phase; leave out `turn` and `this_turn`"
            ),
            Invalid::TurnUnsaid => write!(
                f,
                "`this_turn` is given, so say whose turn it is with `turn: <player>`"
            ),
            Invalid::Turn { player, fault } => write!(f, "{player}: {fault}"),
            Invalid::CardReadied(card) => write!(
                f,
                "{card} is readied, but its strategic action was performed this turn; mark it `exhausted: true`"
            ),
            Invalid::TooManyAbilities(most) => {
                write!(f, "more than {most} abilities in one turn")
            }
            Invalid::SameParty => write!(f, "a transaction needs two different players"),
        }
    }
}

/// A notation line that does not read as a play.
#[derive(Debug, Clone, Copy)]
pub enum Misread<'a> {
    /// No play in the line; `kinds`: the plays there are.
    NoPlay {
        line: &'a str,
        kinds: &'a str,
    },
    /// The `field` of a play of `kind` (`strategic_action`) left out.
    NameThe {
        field: &'a str,
        player: &'a str,
        kind: &'a str,
    },
    /// Text after `ends turn`.
    AfterEndTurn(&'a str),
    /// Text after `pass` that does not say the player cannot act.
    AfterPass(&'a str),
    NameCard,
    NameOther,
    /// An answer to a transaction that is neither accepted nor declined.
    NoAnswer,
}

impl fmt::Display for Misread<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Misread::NoPlay { line, kinds } => write!(
                f,
                "no play found in '{line}'; write `<player> <play>`, where the play is one of: {kinds}"
            ),
            Misread::NameThe {
                field,
                player,
                kind,
            } => write!(
                f,
                "name the {field}: `{player} {} …`",
                kind.replace('_', " ")
            ),
            Misread::AfterEndTurn(text) => write!(f, "unexpected '{text}' after `ends turn`"),
            Misread::AfterPass(text) => write!(
                f,
                "unexpected '{text}' after pass; write `<player> pass` or `<player> pass cannot act`"
            ),
            Misread::NameCard => write!(
                f,
                "name the action card: `<player> plays [component] <card>`"
            ),
            Misread::NameOther => {
                write!(f, "name the other player: `<player> trades with <player>`")
            }
            Misread::NoAnswer => write!(
                f,
                "after the other player, write `; accepted` or `; declined` (their answer)"
            ),
        }
    }
}
