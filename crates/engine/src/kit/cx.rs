//! The step recorder every procedure writes to: steps with their rule,
//! diagnostics (errors make the play illegal; a refused sub-choice does
//! not), and choices — stated, assumed from the rule's default, or asked
//! of the player they belong to.

use serde_json::Value;

use crate::ruling::{Claim, Decision, DecisionOption, Diagnostic, MAX_OPTIONS, Severity, Step};
use crate::{BoardError, document::join_path};

/// Who is asking for the ruling, and what has been answered so far. A plain
/// `judge` asks as nobody ([`Asking::judge`]); match tracking asks as the
/// seat that wrote the play.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Asking {
    /// The seat (0-based) of the player who wrote the play; `None` for a
    /// board judged outside a match.
    pub author: Option<usize>,
    /// Every player agreed to the choices the author wrote for them (a
    /// moderator wrote the play): their choices are taken as stated.
    pub agreed: bool,
    /// The seats that agreed to the choices the author wrote for them
    /// (`agreed by`, once they confirmed): theirs are taken as stated,
    /// every other seat's are asked.
    pub agreed_by: Vec<usize>,
    /// Decisions already answered by their player: (key, seat).
    pub answered: Vec<(String, usize)>,
}

impl Asking {
    /// A board judged outside a match: unstated choices take the rule's
    /// default where it has one, and are asked for where it has none.
    pub fn judge() -> Asking {
        Asking::default()
    }

    /// A play written by `seat` in a match: other players' choices are
    /// asked of them.
    pub fn seat(seat: usize) -> Asking {
        Asking {
            author: Some(seat),
            ..Asking::default()
        }
    }

    fn answered_by(&self, key: &str, seat: usize) -> bool {
        self.answered.iter().any(|(k, s)| k == key && *s == seat)
    }

    /// Whether a choice of `seat` is asked of them rather than defaulted.
    fn asks(&self, seat: usize) -> bool {
        self.author.is_some_and(|a| a != seat) && !self.agreed && !self.agreed_by.contains(&seat)
    }
}

/// Why a procedure stopped early.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// A choice nobody stated and no default covers: ask its player.
    Ask(Box<Decision>),
    /// The document cannot be judged (unknown name, a field out of place).
    Board(BoardError),
}

impl From<BoardError> for Stop {
    fn from(e: BoardError) -> Stop {
        Stop::Board(e)
    }
}

/// One answer a player may give, with the play change it makes.
#[derive(Debug, Clone)]
pub struct Opt<T> {
    pub label: String,
    pub value: T,
    /// JSON merge patch applied to the play when this answer is chosen.
    pub patch: Value,
}

impl<T> Opt<T> {
    /// An answer that sets one play field (`counter: true`).
    pub fn field(label: impl Into<String>, value: T, field: &str, json: Value) -> Opt<T> {
        Opt {
            label: label.into(),
            value,
            patch: serde_json::json!({ field: json }),
        }
    }
}

/// A choice that belongs to a player.
#[derive(Debug, Clone)]
pub struct Ask<T> {
    /// Unique within the play (`counter`, `block:Iron Worker`).
    pub key: String,
    /// The deciding player's seat (board order, 0-based).
    pub seat: usize,
    pub rule: &'static str,
    /// The play field the answer goes to (`play.counter`).
    pub path: String,
    pub question: String,
    pub options: Vec<Opt<T>>,
    /// The rules' default when the player says nothing, and why.
    pub default: Option<(T, String)>,
}

/// The cheap part of an [`Ask`]: whose choice it is, its key and the
/// rule's default (all [`Cx::choose_with`] needs unless it asks).
#[derive(Debug, Clone)]
pub struct Whose<T> {
    pub seat: usize,
    pub key: String,
    pub default: Option<(T, String)>,
}

impl<T> Whose<T> {
    /// The full question, for when the player is asked.
    pub fn ask(
        self,
        rule: &'static str,
        path: impl Into<String>,
        question: String,
        options: Vec<Opt<T>>,
    ) -> Ask<T> {
        Ask {
            key: self.key,
            seat: self.seat,
            rule,
            path: path.into(),
            question,
            options,
            default: self.default,
        }
    }
}

/// How a choice was settled.
#[derive(Debug, Clone, PartialEq)]
pub enum Chosen<T> {
    /// Stated on the board (or answered by its player).
    Stated(T),
    /// Not stated: the rule's default, and why it is the default.
    Assumed(T, String),
}

impl<T: Clone> Chosen<T> {
    pub fn value(&self) -> T {
        match self {
            Chosen::Stated(v) | Chosen::Assumed(v, _) => v.clone(),
        }
    }

    /// Records the choice on a step: "X chose …", or "not stated on the
    /// board; assumed …".
    pub fn on(&self, step: &mut Step, player: &str, what: impl Into<String>) {
        match self {
            Chosen::Stated(_) => {
                step.chose(player, what);
            }
            Chosen::Assumed(_, why) => {
                step.assumed(
                    player,
                    what,
                    format!("not stated on the board; assumed: {why}"),
                );
            }
        }
    }
}

/// The recorder a procedure writes to.
#[derive(Debug)]
pub struct Cx<'a> {
    pub steps: Vec<Step>,
    pub diags: Vec<Diagnostic>,
    asking: &'a Asking,
    /// The board's players, to name the seat a decision belongs to.
    players: Vec<String>,
    /// Where the current play sits in the document (`play`, `plays[2]`).
    play_path: String,
    /// Shared fields the procedure settled by a default nobody agreed to
    /// ([`Cx::unagreed`]).
    pub unagreed: Vec<Unagreed>,
    /// Facts the play states that the procedure relied on ([`Cx::claim`]).
    pub claims: Vec<Claim>,
}

/// A shared field (who acts first) that an advance settled by a default of
/// the engine's, because the board leaves it unset and neither a rule nor
/// the players say: a player's advance must not settle it for the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unagreed {
    /// The field the players agree on (`turn`, `first_to_pass`).
    pub field: String,
    /// What the default did, and that it is a default (the note's text).
    pub note: String,
}

impl<'a> Cx<'a> {
    pub fn new(asking: &'a Asking, players: Vec<String>) -> Cx<'a> {
        Cx {
            steps: Vec::new(),
            diags: Vec::new(),
            asking,
            players,
            play_path: "play".into(),
            unagreed: Vec::new(),
            claims: Vec::new(),
        }
    }

    /// Sets where the play being judged sits (`plays[2]`).
    pub fn at_play(&mut self, path: &str) {
        self.play_path = path.to_string();
    }

    /// The seat's player name.
    pub fn player(&self, seat: usize) -> &str {
        self.players.get(seat).map(String::as_str).unwrap_or("?")
    }

    /// A field path under the current play: `play.x` → `plays[2].x`.
    pub fn path(&self, path: &str) -> String {
        match path.strip_prefix("play") {
            Some(rest) if rest.is_empty() || rest.starts_with(['.', '[']) => {
                format!("{}{rest}", self.play_path)
            }
            _ => path.to_string(),
        }
    }

    /// Records a resolved step.
    pub fn step(&mut self, rule: &str, text: impl Into<String>) -> &mut Step {
        self.steps.push(Step {
            rule: rule.to_string(),
            text: text.into(),
            numbers: Vec::new(),
            choice: None,
            assumption: None,
        });
        let last = self.steps.len() - 1;
        &mut self.steps[last]
    }

    fn diag(
        &mut self,
        severity: Severity,
        rule: Option<&str>,
        path: Option<&str>,
        message: String,
    ) {
        let path = path.map(|p| self.path(p));
        self.diags.push(Diagnostic {
            severity,
            message,
            rule: rule.map(str::to_string),
            path,
        });
    }

    /// The play breaks `rule`: it is illegal, and nothing it does happens.
    pub fn error(&mut self, rule: &str, path: &str, message: impl Into<String>) {
        self.diag(Severity::Error, Some(rule), Some(path), message.into());
    }

    /// An illegal play whose fault no indexed rule names (wrong turn).
    pub fn error_unruled(&mut self, path: &str, message: impl Into<String>) {
        self.diag(Severity::Error, None, Some(path), message.into());
    }

    /// One sub-choice is impossible under `rule`: it alone is refused and the
    /// procedure goes on as the rules say it does without it.
    pub fn refuse(&mut self, rule: &str, path: &str, message: impl Into<String>) {
        self.diag(Severity::Refused, Some(rule), Some(path), message.into());
    }

    pub fn warn(&mut self, rule: Option<&str>, path: Option<&str>, message: impl Into<String>) {
        self.diag(Severity::Warning, rule, path, message.into());
    }

    pub fn note(&mut self, path: Option<&str>, message: impl Into<String>) {
        self.diag(Severity::Info, None, path, message.into());
    }

    /// Notes (at `path`) a default the procedure applied to the shared
    /// `field` that nobody agreed to; match tracking lets only a moderator
    /// advance on it (docs/MATCHES.md, Consent).
    pub fn unagreed(&mut self, path: &str, field: &str, message: impl Into<String>) {
        let note: String = message.into();
        self.note(Some(path), note.clone());
        self.unagreed.push(Unagreed {
            field: field.to_string(),
            note,
        });
    }

    /// Records that the procedure relies on a fact the play states at
    /// `path` (`play.free`) and the board does not record, setting aside
    /// `rule`: called only where the clause changes the outcome. In a
    /// match a player's claim waits for the other players' consent.
    pub fn claim(&mut self, path: &str, rule: &str, text: impl Into<String>) {
        let path = self.path(path);
        if self.claims.iter().any(|c| c.path == path) {
            return;
        }
        self.claims.push(Claim {
            path,
            text: text.into(),
            rule: rule.to_string(),
        });
    }

    /// Whether the play is illegal so far.
    pub fn failed(&self) -> bool {
        self.diags.iter().any(|d| d.severity == Severity::Error)
    }

    /// Settles a choice that belongs to `ask.seat`. Stated: taken as stated
    /// when the author may state it (their own choice, an answer from its
    /// player, an agreed exchange, or a board judged outside a match).
    /// Unstated: the rule's default when there is one and its player is not
    /// to be asked; otherwise the procedure stops and asks them.
    pub fn choose<T: Clone + PartialEq>(
        &mut self,
        stated: Option<T>,
        ask: Ask<T>,
    ) -> Result<Chosen<T>, Stop> {
        let whose = Whose {
            seat: ask.seat,
            key: ask.key.clone(),
            default: ask.default.clone(),
        };
        self.choose_with(stated, whose, || ask)
    }

    /// Refuses, when the play is made, a choice its author `stated` for
    /// `seat` that the procedure reaches only after another of that seat's
    /// decisions: [`Cx::choose_with`] would ask it once that decision is
    /// answered, the written value silently dropped (an outside tester's
    /// `counter: true` behind Maeoni's guard). Refused as a choice reached
    /// first is, with the same words.
    pub fn not_written_for(&self, seat: usize, stated: bool, path: &str) -> Result<(), Stop> {
        if !stated || !self.asking.asks(seat) || !self.asking.answered.is_empty() {
            return Ok(());
        }
        let owner = self.player(seat).to_string();
        Err(Stop::Board(BoardError::semantic(
            self.path(path),
            format!(
                "this is {owner}'s choice: leave it out and {owner} will be asked, or add `agreed by {owner}` if {owner} agreed to it"
            ),
        )))
    }

    /// [`Cx::choose`] with the question built only when the player is
    /// asked: a stated, answered or defaulted choice costs no option lists.
    /// `whose` must say what `ask` says.
    pub fn choose_with<T: Clone + PartialEq>(
        &mut self,
        stated: Option<T>,
        whose: Whose<T>,
        ask: impl FnOnce() -> Ask<T>,
    ) -> Result<Chosen<T>, Stop> {
        let seat = whose.seat;
        let asks = self.asking.asks(seat);
        // `agreed by` covers what the author wrote for the seat, not what
        // he left out: an unstated choice is still its owner's to make.
        let asks_unstated = asks
            || (!self.asking.agreed
                && self.asking.author != Some(seat)
                && self.asking.agreed_by.contains(&seat));
        match (stated, whose.default) {
            (Some(v), _) if !asks || self.asking.answered_by(&whose.key, seat) => {
                Ok(Chosen::Stated(v))
            }
            (None, Some((v, why))) if !asks_unstated => Ok(Chosen::Assumed(v, why)),
            // Written by the author for another seat: refused when the play
            // is made. Once a decision of the play was answered, the play is
            // on the record and only its owner can settle it: asked.
            (Some(_), _) if self.asking.answered.is_empty() => {
                let owner = self.player(seat).to_string();
                Err(Stop::Board(BoardError::semantic(
                    self.path(&ask().path),
                    format!(
                        "this is {owner}'s choice: leave it out and {owner} will be asked, or add `agreed by {owner}` if {owner} agreed to it"
                    ),
                )))
            }
            (_, _) => {
                let owner = self.player(seat).to_string();
                Err(Stop::Ask(Box::new(self.decision(ask(), owner))))
            }
        }
    }

    /// [`Cx::choose_with`] for a choice whose default the quoted text does
    /// not give (the engine assumes it): the question says "assumed".
    pub fn choose_assuming<T: Clone + PartialEq>(
        &mut self,
        stated: Option<T>,
        whose: Whose<T>,
        ask: impl FnOnce() -> Ask<T>,
    ) -> Result<Chosen<T>, Stop> {
        self.choose_with(stated, whose, ask).map_err(|e| match e {
            Stop::Ask(mut d) => {
                d.default_assumed = d.default.is_some();
                Stop::Ask(d)
            }
            other => other,
        })
    }

    /// [`Cx::choose_assuming`] for a choice the quoted text gives no
    /// default: in a match (a play with an author) its owner is asked
    /// whenever it is unstated, even on their own play or a moderator's
    /// written for them; the assumed default applies only outside a match.
    pub fn choose_owners<T: Clone + PartialEq>(
        &mut self,
        stated: Option<T>,
        whose: Whose<T>,
        ask: impl FnOnce() -> Ask<T>,
    ) -> Result<Chosen<T>, Stop> {
        if stated.is_some() || self.asking.author.is_none() {
            return self.choose_assuming(stated, whose, ask);
        }
        let owner = self.player(whose.seat).to_string();
        let mut d = self.decision(ask(), owner);
        d.default_assumed = d.default.is_some();
        Err(Stop::Ask(Box::new(d)))
    }

    fn decision<T: PartialEq>(&self, ask: Ask<T>, player: String) -> Decision {
        let default = ask
            .default
            .as_ref()
            .and_then(|(v, _)| ask.options.iter().position(|o| o.value == *v));
        let default_reason = ask.default.map(|(_, why)| why);
        let options = ask
            .options
            .into_iter()
            .take(MAX_OPTIONS)
            .map(|o| DecisionOption {
                label: o.label,
                patch: o.patch,
            })
            .collect();
        Decision {
            key: ask.key,
            player,
            seat: ask.seat,
            question: ask.question,
            rule: ask.rule.to_string(),
            path: join_path("", &self.path(&ask.path)),
            options,
            default: default.filter(|d| *d < MAX_OPTIONS),
            default_reason,
            default_assumed: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter_ask() -> Ask<bool> {
        Ask {
            key: "counter".into(),
            seat: 1,
            rule: "ashes:attack-a-unit.4",
            path: "play.counter".into(),
            question: "Maeoni: counter with Ice Golem?".into(),
            options: vec![
                Opt::field("counter", true, "counter", Value::Bool(true)),
                Opt::field("do not counter", false, "counter", Value::Bool(false)),
            ],
            default: Some((false, "the defending player 'may' counter".into())),
        }
    }

    fn names() -> Vec<String> {
        vec!["Coal".into(), "Maeoni".into()]
    }

    #[test]
    fn outside_a_match_unstated_choices_take_the_default_labelled() {
        let asking = Asking::judge();
        let mut cx = Cx::new(&asking, names());
        let c = cx.choose(None, counter_ask()).unwrap();
        assert!(matches!(c, Chosen::Assumed(false, _)));
        let mut st = cx.step("r", "t").clone();
        c.on(&mut st, "Maeoni", "not to counter");
        assert!(
            st.choice
                .unwrap()
                .assumed
                .unwrap()
                .starts_with("not stated on the board")
        );
    }

    #[test]
    fn in_a_match_the_owner_is_asked_and_the_author_cannot_answer_for_them() {
        let asking = Asking::seat(0);
        let mut cx = Cx::new(&asking, names());
        match cx.choose(None, counter_ask()) {
            Err(Stop::Ask(d)) => {
                assert_eq!(d.player, "Maeoni");
                assert_eq!(d.default, Some(1));
                assert_eq!(d.options.len(), 2);
            }
            other => panic!("{other:?}"),
        }
        let Err(Stop::Board(e)) = cx.choose(Some(true), counter_ask()) else {
            panic!("the author stated the opponent's choice");
        };
        assert!(e.message.contains("Maeoni's choice"), "{}", e.message);
        // Once another of the play's decisions was answered, a choice the
        // author wrote for Maeoni is asked of her, not refused: the play is
        // on the record and only she can settle it.
        let asking = Asking {
            answered: vec![("guard".into(), 1)],
            ..Asking::seat(0)
        };
        let mut cx = Cx::new(&asking, names());
        match cx.choose(Some(true), counter_ask()) {
            Err(Stop::Ask(d)) => assert_eq!(d.seat, 1),
            other => panic!("{other:?}"),
        }
        // Once Maeoni answered, the stated value stands.
        let asking = Asking {
            answered: vec![("counter".into(), 1)],
            ..Asking::seat(0)
        };
        let mut cx = Cx::new(&asking, names());
        assert_eq!(
            cx.choose(Some(true), counter_ask()),
            Ok(Chosen::Stated(true))
        );
    }

    #[test]
    fn play_paths_follow_the_play_being_judged() {
        let asking = Asking::judge();
        let mut cx = Cx::new(&asking, names());
        cx.at_play("plays[2]");
        assert_eq!(cx.path("play.attackers[0]"), "plays[2].attackers[0]");
        assert_eq!(cx.path("players[0]"), "players[0]");
        cx.refuse("r", "play.counter", "cannot counter");
        assert!(!cx.failed());
        cx.error("r", "play", "illegal");
        assert!(cx.failed());
    }
}
