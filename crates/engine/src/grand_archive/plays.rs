//! The plays: declaring an attack (steps 2.a–2.e) and leaving the Main
//! Phase (1.4). Choices left out are asked of the player they belong to,
//! or taken at the rules' default and labelled.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::board::{Board, Card, CostKind, Player, Slot};
use super::rules::{D2_1, D2_2, D2_3};
use super::wording::{self, Invalid};
use crate::BoardError;
use crate::kit::names;
use crate::text::fold;

/// One play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "action", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Play {
    /// Declare an attack.
    #[serde(alias = "declare_attack", alias = "attack")]
    DeclareAttack {
        /// The declaring player; defaults to the turn player.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// 2.a: the object that attacks.
        attacker: String,
        /// 2.b: weapons or objects added to the attack; left out: none (labelled).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        with: Option<Vec<String>>,
        /// 2.c: the attack target (an opposing champion or ally; one's own is
        /// an illegal declaration, by a reading); left out: asked.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
        /// 2.c with Cleave: the player whose units become defending units.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        defending_player: Option<String>,
        /// 2.e: extra costs (by source) the player pays.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pay_extra: Vec<String>,
        /// 2.e: extra costs the player refuses (the attack is then illegal).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        refuse_extra: Vec<String>,
        /// The defending player's answer at the beginning of the Retaliation
        /// Step: `pass`, or what they respond with (its text is not applied).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        response: Option<String>,
    },
    /// Proceed from the Main Phase to the End Phase.
    #[serde(alias = "end_main_phase")]
    EndMainPhase {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
    },
}

impl Play {
    /// The player the play names, if any.
    pub fn player(&self) -> Option<&str> {
        match self {
            Play::DeclareAttack { player, .. } | Play::EndMainPhase { player } => player.as_deref(),
        }
    }
}

/// Whether a stated response is a pass.
pub fn passes(response: &str) -> bool {
    matches!(
        crate::text::fold(response).as_str(),
        "pass" | "passes" | "no" | "none" | "noresponse"
    )
}

/// A declaration with its names resolved once, against the board, before
/// the procedure runs: seats and slots, and the extra costs in the board's
/// spelling.
#[derive(Debug, Clone, PartialEq)]
pub struct Attack {
    /// The declaring seat.
    pub tp: usize,
    pub attacker: Slot,
    /// 2.b: the objects added (`None`: left out).
    pub with: Option<Vec<Slot>>,
    pub target: Option<(usize, Slot)>,
    pub defending_player: Option<usize>,
    pub pay: Vec<String>,
    pub refuse: Vec<String>,
    pub response: Option<String>,
}

/// Cards named where another player's (or the wrong kind) was expected: the rule and why.
const OWN_CARDS: (&str, &str) = (D2_1, wording::OWN_CARDS);
const OBJECTS: (&str, &str) = (D2_2, wording::OBJECTS);

/// The seat that makes the play: the player it names, else the turn player.
pub fn actor(b: &Board, play: &Play) -> Result<usize, BoardError> {
    play.player()
        .map_or(Ok(b.turn_seat()), |p| b.seat(p, "play.player"))
}

/// Resolves a declaration by `tp` (`None` for another play).
pub fn resolve(b: &Board, tp: usize, play: &Play) -> Result<Option<Attack>, BoardError> {
    let Play::DeclareAttack {
        attacker,
        with,
        target,
        defending_player,
        pay_extra,
        refuse_extra,
        response,
        ..
    } = play
    else {
        return Ok(None);
    };
    let mine = cards_of(b, &[tp], Player::cards);
    let theirs = cards_of(b, &b.opponents(tp), Player::cards);
    let (objects, units): (Vec<Named>, Vec<Named>) = mine.iter().partition(|x| !x.1.is_unit());
    let attacker = pick(
        b,
        attacker,
        &mine,
        &theirs,
        "play.attacker",
        "card",
        Some(OWN_CARDS),
    )?
    .1;
    let mut added: Vec<Slot> = Vec::new();
    for (i, w) in with.iter().flatten().enumerate() {
        let path = format!("play.with[{i}]");
        let s = pick(b, w, &objects, &units, &path, "object", Some(OBJECTS))?.1;
        if s == attacker || added.contains(&s) {
            let msg = Invalid::AlreadyInAttack(w);
            return Err(BoardError::semantic(path, msg).with_rule(D2_2));
        }
        added.push(s);
    }
    // One's own champion or ally is read back too: choosing it is the
    // declaration's fault at 2.c, an illegal play (a reading, labelled
    // there), not the board's (it was refused as a document error).
    let opposing = cards_of(b, &b.opponents(tp), Player::units);
    let what = "opposing champion or ally";
    let target = target
        .as_deref()
        .map(|t| pick(b, t, &opposing, &mine, "play.target", what, None))
        .transpose()?;
    if let Some((p, s)) = target.filter(|t| !t.1.is_unit()) {
        let (card, role) = (b.card_name(p, s), s.role());
        let msg = Invalid::NotAUnit { card: &card, role };
        return Err(BoardError::semantic("play.target", msg).with_rule(D2_3));
    }
    let defending_player = defending_player
        .as_deref()
        .map(|p| opponent(b, tp, p))
        .transpose()?;
    let sources = extra_sources(b);
    let resolve = |list: &[String], field: &str| -> Result<Vec<String>, BoardError> {
        let one = |(i, s): (usize, &String)| {
            names::resolve(s, &sources, "extra cost")
                .map(str::to_string)
                .map_err(|e| e.at(&format!("play.{field}[{i}]")))
        };
        list.iter().enumerate().map(one).collect()
    };
    let pay = resolve(pay_extra, "pay_extra")?;
    let refuse = resolve(refuse_extra, "refuse_extra")?;
    if let Some(s) = pay.iter().find(|s| refuse.contains(s)) {
        let msg = Invalid::PaidAndRefused(s);
        return Err(BoardError::semantic("play.refuse_extra", msg));
    }
    Ok(Some(Attack {
        tp,
        attacker,
        with: with.as_ref().map(|_| added),
        target,
        defending_player,
        pay,
        refuse,
        response: response.clone(),
    }))
}

/// The sources of the extra costs in play, each once, in order.
pub fn extra_sources(b: &Board) -> Vec<&str> {
    let extra = b.costs.iter().filter(|c| c.kind == CostKind::Extra);
    let mut sources: Vec<&str> = extra.map(|c| c.source.as_str()).collect();
    sources.sort_unstable();
    sources.dedup();
    sources
}

/// A card: its seat, slot and name.
pub type Named<'a> = (usize, Slot, &'a str);

/// The cards of `seats` that `which` lists (units or all cards).
pub fn cards_of<'a>(
    b: &'a Board,
    seats: &[usize],
    which: fn(&Player) -> Vec<(Slot, &Card)>,
) -> Vec<Named<'a>> {
    let each = |p: usize| {
        which(&b.players[p])
            .into_iter()
            .map(move |(s, c)| (p, s, c.name.as_str()))
    };
    seats.iter().flat_map(|&p| each(p)).collect()
}

/// A card named in `first`; named in `then` instead, it is refused under
/// `not` (the rule and why), or taken when `not` is `None`.
fn pick<'a>(
    b: &Board,
    typed: &str,
    first: &[Named<'a>],
    then: &[Named<'a>],
    path: &str,
    what: &'static str,
    not: Option<(&str, &str)>,
) -> Result<(usize, Slot), BoardError> {
    // "Bob's Stalwart Guard": only Bob's cards are looked at.
    let (typed, first, then) = match owned(b, typed, first, then) {
        Some((seat, card)) => {
            let of = |g: &[Named<'a>]| g.iter().filter(|x| x.0 == seat).copied().collect();
            (card, of(first), of(then))
        }
        None => (typed, first.to_vec(), then.to_vec()),
    };
    let (first, then) = (first.as_slice(), then.as_slice());
    let names = |g: &[Named<'a>]| g.iter().map(|x| x.2).collect::<Vec<&'a str>>();
    let found = match names::resolve_in_groups(typed, &names(first), &names(then), what) {
        Err(names::NameError::Ambiguous {
            typed,
            what,
            candidates,
        }) => {
            // Cards of one name are told apart by their owners ("X or X"
            // named neither).
            let candidates: Vec<String> = first
                .iter()
                .filter(|x| candidates.iter().any(|c| c == x.2))
                .map(|&(p, _, n)| owned_label(b, p, n))
                .collect();
            let example = candidates.first().cloned().unwrap_or_default();
            let e = names::NameError::Ambiguous {
                typed,
                what,
                candidates,
            };
            let msg = format!("{e}; name its owner too (“{example}”)");
            return Err(BoardError::semantic(path, msg));
        }
        found => found.map_err(|e| e.at(path))?,
    };
    match found {
        (0, i) => Ok((first[i].0, first[i].1)),
        (_, i) => {
            let (p, s, name) = then[i];
            let Some(not) = not else {
                return Ok((p, s));
            };
            let (role, owner, why) = (s.role(), &b.name(p), not.1);
            let msg = Invalid::ControlledBy {
                card: name,
                role,
                owner,
                why,
            };
            Err(BoardError::semantic(path, msg).with_rule(not.0))
        }
    }
}

/// "Owner's Card": a card named with its owner, as `pick` reads it back.
pub fn owned_label(b: &Board, seat: usize, card: &str) -> String {
    format!("{}'s {card}", b.name(seat))
}

/// The seat and the card's name in "Bob's Stalwart Guard" (`None`: `typed`
/// names no player before "'s", or is itself a card's whole name).
fn owned<'t>(
    b: &Board,
    typed: &'t str,
    first: &[Named<'_>],
    then: &[Named<'_>],
) -> Option<(usize, &'t str)> {
    let whole = first.iter().chain(then).any(|x| fold(x.2) == fold(typed));
    if whole {
        return None;
    }
    ["'s ", "’s "].iter().find_map(|sep| {
        let (owner, card) = typed.split_once(sep)?;
        let seat = b
            .players
            .iter()
            .position(|p| fold(&p.name) == fold(owner))?;
        Some((seat, card.trim().trim_matches(['"', '\'']).trim()))
    })
}

fn opponent(b: &Board, tp: usize, typed: &str) -> Result<usize, BoardError> {
    let opponents = b.opponents(tp);
    let names: Vec<&str> = opponents
        .iter()
        .map(|&p| b.players[p].name.as_str())
        .collect();
    let i = names::resolve_index(typed, &names, "opponent")
        .map_err(|e| e.at("play.defending_player"))?;
    Ok(opponents[i])
}
