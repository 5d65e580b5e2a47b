//! The action phase as a turn-order state machine: each play is checked
//! against the rules of the "Action Phase" entry and applied in order.

use super::board::*;
use super::rules::*;
use crate::engine::legacy::resolve_name;
use crate::engine::{BoardError, Choice, Diagnostic, Severity, Step};

/// Why a play stopped the sequence.
pub enum Fail {
    /// The document is wrong (unknown name, missing field).
    Board(BoardError),
    /// The play breaks a rule.
    Illegal(Diagnostic),
}

impl From<BoardError> for Fail {
    fn from(e: BoardError) -> Fail {
        Fail::Board(e)
    }
}

fn illegal(rule: Option<&str>, path: &str, message: String) -> Fail {
    Fail::Illegal(Diagnostic {
        severity: Severity::Error,
        message,
        rule: rule.map(str::to_string),
        path: Some(path.to_string()),
    })
}

/// How a play uses the turn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    Action,
    Pass,
    StartOfTurn,
}

const ASSUME_INITIATIVE: &str = "Initiative Order is a Related Topic that is not indexed: a player's place in initiative order is read as the lowest initiative number among their strategy cards.";

pub struct Sim {
    pub board: Board,
    order: Vec<usize>,
    turn: Option<usize>,
    pub steps: Vec<Step>,
    pub diagnostics: Vec<Diagnostic>,
    topics: Vec<&'static str>,
    phase_end_cited: bool,
    initiative_assumed: bool,
}

/// "A", "A and B", "A, B and C".
fn join_and(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

impl Sim {
    /// `board` must already be normalized.
    pub fn new(board: Board) -> Sim {
        let order = initiative_order(&board.players);
        let turn = board
            .turn
            .as_ref()
            .and_then(|t| board.players.iter().position(|p| &p.name == t));
        Sim {
            board,
            order,
            turn,
            steps: Vec::new(),
            diagnostics: Vec::new(),
            topics: Vec::new(),
            phase_end_cited: false,
            initiative_assumed: false,
        }
    }

    fn two_cards(&self) -> bool {
        self.board.players.len() <= 4
    }

    fn name(&self, i: usize) -> &str {
        self.board.players.get(i).map_or("?", |p| p.name.as_str())
    }

    fn init(&self, i: usize) -> i64 {
        self.board
            .players
            .get(i)
            .map_or(0, |p| i64::from(initiative(p)))
    }

    fn topic(&mut self, t: &'static str) {
        if !self.topics.contains(&t) {
            self.topics.push(t);
        }
    }

    fn push(&mut self, rule: &str, text: String) -> &mut Step {
        self.steps.push(Step {
            rule: rule.to_string(),
            text,
            numbers: Vec::new(),
            choice: None,
            assumption: None,
        });
        let last = self.steps.len() - 1;
        &mut self.steps[last]
    }

    fn all_passed(&self) -> bool {
        self.board.players.iter().all(|p| p.passed)
    }

    fn others_all_passed(&self, p: usize) -> bool {
        self.board
            .players
            .iter()
            .enumerate()
            .all(|(j, q)| j == p || q.passed)
    }

    /// The next player in initiative order after `cur` who has not passed
    /// (possibly `cur` itself), whether the order wrapped round, and the
    /// passed players skipped on the way.
    fn next_after(&self, cur: usize) -> Option<(usize, bool, Vec<usize>)> {
        let n = self.order.len();
        let pos = self.order.iter().position(|&i| i == cur)?;
        let mut skipped = Vec::new();
        for k in 1..=n {
            let q = (pos + k) % n;
            let i = self.order[q];
            if !self.board.players[i].passed {
                return Some((i, q <= pos, skipped));
            }
            if i != cur {
                skipped.push(i);
            }
        }
        None
    }

    /// Opening step: the initiative order and where the phase stands.
    pub fn describe_order(&mut self) {
        let parts: Vec<String> = self
            .order
            .iter()
            .map(|&i| {
                let p = &self.board.players[i];
                let cards: Vec<String> = p
                    .strategy_cards
                    .iter()
                    .map(|c| {
                        format!(
                            "{} {}{}",
                            c.name,
                            c.initiative.unwrap_or(0),
                            if c.exhausted { " exhausted" } else { "" }
                        )
                    })
                    .collect();
                format!(
                    "{} ({}){}",
                    p.name,
                    cards.join(", "),
                    if p.passed { " — passed" } else { "" }
                )
            })
            .collect();
        let numbers: Vec<(String, i64)> = self
            .order
            .iter()
            .map(|&i| (format!("initiative {}", self.name(i)), self.init(i)))
            .collect();
        let assume = self.two_cards().then(|| ASSUME_INITIATIVE.to_string());
        self.initiative_assumed |= assume.is_some();
        let s = self.push(R_INTRO, format!("Initiative order: {}.", parts.join("; ")));
        s.numbers = numbers;
        s.assumption = assume;
        self.topic(TOPIC_INITIATIVE_ORDER);
    }

    /// Closing step: whose turn it is now.
    pub fn describe_now(&mut self) {
        if self.board.phase == Phase::Status {
            if !self.phase_end_cited {
                self.push(R5, "All players have passed: the action phase is over and play proceeds to the status phase.".to_string());
                self.topic(TOPIC_STATUS_PHASE);
            }
            return;
        }
        let Some(cur) = self.turn else { return };
        let remaining = self.board.players.iter().filter(|p| !p.passed).count() as i64;
        let name = self.name(cur).to_string();
        let t = &self.board.this_turn;
        let text = if t.action == TurnAction::None {
            format!(
                "It is {name}'s turn (initiative {}); {name} has not yet acted this turn.",
                self.init(cur)
            )
        } else {
            let done = match t.action {
                TurnAction::Strategic => format!(
                    "performed the strategic action of {}",
                    t.card.as_deref().unwrap_or("a strategy card")
                ),
                TurnAction::Pass => "passed".to_string(),
                other => format!("performed {}", other.label()),
            };
            match self.next_after(cur) {
                Some((next, _, _)) if next == cur => format!(
                    "It is still {name}'s turn: {name} has {done}. All other players have passed, so {name}'s next turn follows at once."
                ),
                Some((next, _, _)) => format!(
                    "It is still {name}'s turn: {name} has {done}. The turn ends when {name} ends it or when {}, next in initiative order, begins theirs.",
                    self.name(next)
                ),
                None => format!("It is still {name}'s turn: {name} has {done}."),
            }
        };
        let s = self.push(R_INTRO, text);
        s.numbers = vec![("players not passed".to_string(), remaining)];
    }

    /// Notes that the ruling depends on Related Topics that are not indexed.
    pub fn related_topics_note(&mut self) {
        if self.topics.is_empty() {
            return;
        }
        let list = self.topics.join(", ");
        self.diagnostics.push(Diagnostic {
            severity: Severity::Info,
            message: format!(
                "This ruling depends on Related Topics of the Action Phase entry that are not indexed: {list}. The readings chosen are stated as assumptions in the steps."
            ),
            rule: Some(RT.to_string()),
            path: None,
        });
    }

    /// Writes whose turn it is back into the board.
    pub fn finish(&mut self) {
        self.board.turn = self.turn.map(|i| self.board.players[i].name.clone());
    }

    fn resolve_player(&self, typed: &str, path: &str) -> Result<usize, BoardError> {
        let names: Vec<&str> = self.board.players.iter().map(|p| p.name.as_str()).collect();
        let canon = resolve_name(typed, &names, path, "player")?;
        Ok(names.iter().position(|n| *n == canon).unwrap_or(0))
    }

    /// Resolves a strategy card among all players' cards: (owner, card index).
    fn resolve_card(&self, typed: &str, path: &str) -> Result<(usize, usize), BoardError> {
        let all: Vec<&str> = self
            .board
            .players
            .iter()
            .flat_map(|p| p.strategy_cards.iter().map(|c| c.name.as_str()))
            .collect();
        let canon = resolve_name(typed, &all, path, "strategy card in play")?;
        for (i, p) in self.board.players.iter().enumerate() {
            if let Some(j) = p.strategy_cards.iter().position(|c| c.name == canon) {
                return Ok((i, j));
            }
        }
        Err(BoardError::semantic(
            path,
            format!("unknown strategy card '{typed}'"),
        ))
    }

    /// Ends the current turn and starts the next player's.
    fn advance(&mut self, why: &str) {
        let Some(cur) = self.turn else { return };
        let cur_name = self.name(cur).to_string();
        match self.next_after(cur) {
            None => {
                // Everyone has passed: nothing follows in this phase.
                self.turn = None;
                self.board.this_turn = ThisTurn::default();
                self.push(R5, format!("{cur_name}'s turn ends ({why}); all players have passed, so no turn follows."));
            }
            Some((next, wrapped, skipped)) => {
                self.board.this_turn = ThisTurn::default();
                self.turn = Some(next);
                let next_name = self.name(next).to_string();
                let init = self.init(next);
                if next == cur {
                    let s = self.push(
                        R3_3,
                        format!("{cur_name}'s turn ends ({why}). All other players have passed, so {cur_name} takes another, consecutive turn."),
                    );
                    s.numbers = vec![(format!("initiative {cur_name}"), init)];
                } else {
                    let assume = (self.two_cards() && !self.initiative_assumed)
                        .then(|| ASSUME_INITIATIVE.to_string());
                    self.initiative_assumed |= assume.is_some();
                    let text = if wrapped {
                        format!(
                            "{cur_name}'s turn ends ({why}). Every player has had a turn, so turns begin again in initiative order: it is {next_name}'s turn."
                        )
                    } else {
                        format!(
                            "{cur_name}'s turn ends ({why}). Next in initiative order: it is {next_name}'s turn."
                        )
                    };
                    let s = self.push(R_INTRO, text);
                    s.numbers = vec![(format!("initiative {next_name}"), init)];
                    s.assumption = assume;
                    self.topic(TOPIC_INITIATIVE_ORDER);
                }
                if !skipped.is_empty() {
                    let names: Vec<&str> = skipped.iter().map(|&i| self.name(i)).collect();
                    let text = format!(
                        "{} passed earlier and {} skipped: a passed player has no further turns.",
                        join_and(&names),
                        if names.len() == 1 { "is" } else { "are" }
                    );
                    self.push(R3, text);
                }
            }
        }
    }

    /// Makes `p` the player whose turn it is for a play that needs their
    /// turn, ending the current turn when it is complete; refuses plays out
    /// of initiative order, by passed players and second actions.
    fn begin(&mut self, p: usize, usage: Use, path: &str) -> Result<(), Fail> {
        let pname = self.name(p).to_string();
        if self.board.phase == Phase::Status {
            return Err(illegal(
                Some(R5),
                path,
                format!(
                    "all players have passed: the action phase is over and play has proceeded to the status phase, so {pname} cannot take a turn"
                ),
            ));
        }
        let Some(cur) = self.turn else {
            return Err(illegal(Some(R5), path, "no turn is under way".to_string()));
        };
        let action = self.board.this_turn.action;
        if self.board.players[p].passed {
            if cur == p && action == TurnAction::Pass {
                let msg = match usage {
                    Use::StartOfTurn => format!(
                        "{pname} has already passed this turn; “at the start of your turn” abilities come at the start of the turn, before the pass"
                    ),
                    _ => format!(
                        "{pname} passed this turn and cannot perform additional actions during this action phase"
                    ),
                };
                return Err(illegal(Some(R3), path, msg));
            }
            return Err(illegal(
                Some(R3),
                path,
                format!(
                    "{pname} has passed: after a player has passed they have no further turns and cannot perform additional actions during this action phase"
                ),
            ));
        }
        let cur_name = self.name(cur).to_string();
        if cur == p {
            if action == TurnAction::None {
                return Ok(());
            }
            if self.others_all_passed(p) {
                self.advance("its action is done");
                return Ok(());
            }
            let next = self
                .next_after(cur)
                .map(|(n, _, _)| self.name(n).to_string())
                .unwrap_or_default();
            return Err(match usage {
                Use::Action => illegal(
                    Some(R1),
                    path,
                    format!(
                        "{pname} has already performed {} this turn; a player performs one action per turn (strategic, tactical or component). {next} is next in initiative order",
                        action.label()
                    ),
                ),
                Use::Pass => illegal(
                    Some(R_INTRO),
                    path,
                    format!(
                        "{pname} has already performed {} this turn, and a turn holds a single action or a pass; {pname} can pass on their next turn, after {next}'s",
                        action.label()
                    ),
                ),
                Use::StartOfTurn => illegal(
                    None,
                    path,
                    format!(
                        "{pname} has already performed {} this turn; an “at the start of your turn” ability resolves at the start of the turn, before the action (the ability's own timing)",
                        action.label()
                    ),
                ),
            });
        }
        if action == TurnAction::None {
            return Err(illegal(
                Some(R_INTRO),
                path,
                format!(
                    "it is {cur_name}'s turn (initiative {}) and {cur_name} has not yet performed an action or passed; {pname} cannot act out of initiative order",
                    self.init(cur)
                ),
            ));
        }
        match self.next_after(cur) {
            Some((next, _, _)) if next == p => {
                self.advance(&format!("{pname} begins the next turn"));
                Ok(())
            }
            Some((next, _, _)) => Err(illegal(
                Some(R_INTRO),
                path,
                format!(
                    "after {cur_name}'s turn the next player in initiative order is {} (initiative {}), not {pname} (initiative {}); players take turns in initiative order",
                    self.name(next),
                    self.init(next),
                    self.init(p)
                ),
            )),
            None => Err(illegal(
                Some(R5),
                path,
                "all players have passed".to_string(),
            )),
        }
    }

    /// Applies one play.
    pub fn apply(&mut self, play: &Play, path: &str) -> Result<(), Fail> {
        check_play_fields(play, path)?;
        let p = self.resolve_player(&play.player, &format!("{path}.player"))?;
        let pname = self.name(p).to_string();
        match play.kind {
            PlayKind::StrategicAction => self.strategic(p, play, path),
            PlayKind::TacticalAction => {
                self.begin(p, Use::Action, path)?;
                self.board.this_turn.action = TurnAction::Tactical;
                let what = play
                    .system
                    .as_deref()
                    .map(|s| format!(", activating {s}"))
                    .unwrap_or_default();
                let s = self.push(
                    R1,
                    format!(
                        "{pname} performs a tactical action{what}: the one action of this turn."
                    ),
                );
                s.choice = Some(Choice {
                    assumed: None,
                    player: pname.clone(),
                    chose: "tactical action".to_string(),
                });
                s.assumption = Some("Tactical Action is a Related Topic that is not indexed: the engine checks only when the action may be taken, not its steps.".to_string());
                self.topic(TOPIC_TACTICAL_ACTION);
                Ok(())
            }
            PlayKind::ComponentAction => {
                let src = play.source.clone();
                self.component(p, src.as_deref(), path)
            }
            PlayKind::ActionCard => self.action_card(p, play, path),
            PlayKind::Pass => self.pass(p, play.cannot_act, path),
            PlayKind::Transaction => self.transaction(p, play, path),
            PlayKind::Secondary => self.secondary(p, play, path),
            PlayKind::StartOfTurn => {
                self.start_of_turn(p, play.ability.as_deref().unwrap_or("ability"), path)
            }
            PlayKind::EndOfAction => {
                self.end_of_action(p, play.ability.as_deref().unwrap_or("ability"), path)
            }
            PlayKind::EndOfTurn => {
                self.end_of_turn(p, play.ability.as_deref().unwrap_or("ability"), path)
            }
            PlayKind::EndTurn => self.end_turn(p, path),
        }
    }

    fn strategic(&mut self, p: usize, play: &Play, path: &str) -> Result<(), Fail> {
        let pname = self.name(p).to_string();
        let cpath = format!("{path}.card");
        let (owner, ci) = match &play.card {
            Some(c) => self.resolve_card(c, &cpath)?,
            None => {
                let readied: Vec<usize> = self.board.players[p]
                    .strategy_cards
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| !c.exhausted)
                    .map(|(j, _)| j)
                    .collect();
                match readied.as_slice() {
                    [j] => (p, *j),
                    [] => (p, 0),
                    _ => {
                        let names: Vec<&str> = readied
                            .iter()
                            .map(|&j| self.board.players[p].strategy_cards[j].name.as_str())
                            .collect();
                        return Err(Fail::Board(BoardError::semantic(
                            cpath,
                            format!(
                                "{pname} has two readied strategy cards ({}); name the one used",
                                names.join(", ")
                            ),
                        )));
                    }
                }
            }
        };
        let card = self.board.players[owner].strategy_cards[ci].name.clone();
        if owner != p {
            return Err(illegal(
                Some(R4),
                &cpath,
                format!(
                    "{card} is {}'s strategy card; {pname} can only perform the strategic action of their own strategy card (they may resolve its secondary ability instead)",
                    self.name(owner)
                ),
            ));
        }
        if self.board.players[p].strategy_cards[ci].exhausted {
            self.topic(TOPIC_STRATEGIC_ACTION);
            self.topic(TOPIC_GAME_ROUND);
            return Err(illegal(
                Some(RT),
                &cpath,
                format!(
                    "{card} is already exhausted: {pname} has performed its strategic action this round (Strategic Action is a Related Topic that is not indexed; the engine reads an exhausted card as spent, as rule 4.1 ties passing to exhausting the cards)"
                ),
            ));
        }
        self.begin(p, Use::Action, path)?;
        self.board.players[p].strategy_cards[ci].exhausted = true;
        self.board.this_turn.action = TurnAction::Strategic;
        self.board.this_turn.card = Some(card.clone());
        let init = self.board.players[p].strategy_cards[ci]
            .initiative
            .map_or(0, i64::from);
        let s = self.push(R1, format!("{pname} performs the strategic action of {card}: the one action of this turn. {card} is exhausted."));
        s.numbers = vec![(format!("initiative {card}"), init)];
        s.choice = Some(Choice {
            assumed: None,
            player: pname.clone(),
            chose: format!("strategic action of {card}"),
        });
        s.assumption = Some("Strategic Action is a Related Topic that is not indexed: performing a card's strategic action is read as exhausting it (rule 4.1 speaks of exhausting the cards before passing); the primary and secondary abilities themselves are not adjudicated.".to_string());
        self.topic(TOPIC_STRATEGIC_ACTION);
        let left: Vec<String> = self.board.players[p]
            .strategy_cards
            .iter()
            .filter(|c| !c.exhausted)
            .map(|c| c.name.clone())
            .collect();
        if left.is_empty() {
            let (rule, text) = if self.two_cards() {
                (
                    R4_1,
                    format!(
                        "Both of {pname}'s strategy cards are now exhausted: {pname} may pass on a later turn."
                    ),
                )
            } else {
                (
                    R4,
                    format!(
                        "{pname} has performed the strategic action of their strategy card: {pname} may pass on a later turn."
                    ),
                )
            };
            self.push(rule, text);
        } else {
            self.push(
                R4_1,
                format!(
                    "{pname} still has {} readied and cannot pass until it is exhausted.",
                    left.join(", ")
                ),
            );
        }
        Ok(())
    }

    fn component(&mut self, p: usize, source: Option<&str>, path: &str) -> Result<(), Fail> {
        let pname = self.name(p).to_string();
        if self.board.players[p].passed && self.board.phase == Phase::Action {
            return Err(illegal(
                Some(R3),
                path,
                format!(
                    "{pname} has passed and cannot perform additional actions during this action phase; a component action is an action (only non-component action cards may still be played, Notes 1)"
                ),
            ));
        }
        self.begin(p, Use::Action, path)?;
        self.board.this_turn.action = TurnAction::Component;
        let what = source.map(|s| format!(" ({s})")).unwrap_or_default();
        let s = self.push(
            R1,
            format!("{pname} performs a component action{what}: the one action of this turn."),
        );
        s.choice = Some(Choice {
            assumed: None,
            player: pname.clone(),
            chose: format!("component action{what}"),
        });
        s.assumption = Some("Component Action is a Related Topic that is not indexed: the engine checks only when the action may be taken, not what the component does.".to_string());
        self.topic(TOPIC_COMPONENT_ACTION);
        Ok(())
    }

    fn action_card(&mut self, p: usize, play: &Play, path: &str) -> Result<(), Fail> {
        let pname = self.name(p).to_string();
        let card = play.card.clone().unwrap_or_default();
        if play.component == Some(true) {
            if self.board.players[p].passed {
                return Err(illegal(
                    Some(N1),
                    path,
                    format!(
                        "{pname} has passed: only non-component action cards may still be played after passing, and {card} is a component action (no further actions, rule 3)"
                    ),
                ));
            }
            return self.component(p, Some(&format!("action card {card}")), path);
        }
        let passed = self.board.players[p].passed;
        let s = if passed {
            self.push(N1, format!("{pname} has passed but plays {card}, a non-component action card: players may still play those after passing."))
        } else {
            let s = self.push(
                R1,
                format!("{pname} plays {card}, a non-component action card: it is not one of the three types of actions, so it does not use a turn's action."),
            );
            s.assumption = Some("The timing written on the action card is not in the indexed text and is not checked.".to_string());
            s
        };
        s.choice = Some(Choice {
            assumed: None,
            player: pname,
            chose: format!("play {card}"),
        });
        if play.component.is_none() {
            let s = self.steps.last_mut();
            if let Some(s) = s {
                s.text.push_str(
                    " (Not marked `component: true`, so read as a non-component action card.)",
                );
            }
        }
        Ok(())
    }

    fn pass(&mut self, p: usize, cannot_act: bool, path: &str) -> Result<(), Fail> {
        let pname = self.name(p).to_string();
        if !self.board.players[p].passed {
            let readied: Vec<String> = self.board.players[p]
                .strategy_cards
                .iter()
                .filter(|c| !c.exhausted)
                .map(|c| c.name.clone())
                .collect();
            if !readied.is_empty() {
                return Err(if self.two_cards() {
                    illegal(
                        Some(R4_1),
                        path,
                        format!(
                            "{pname} cannot pass: {} still readied, and in a three- or four-player game a player cannot pass until both of their strategy cards are exhausted",
                            readied.join(" and ") + if readied.len() == 1 { " is" } else { " are" }
                        ),
                    )
                } else {
                    illegal(
                        Some(R4),
                        path,
                        format!(
                            "{pname} cannot pass: they have not yet performed the strategic action of their strategy card ({} is readied)",
                            readied.join(", ")
                        ),
                    )
                });
            }
        }
        self.begin(p, Use::Pass, path)?;
        self.board.players[p].passed = true;
        self.board.this_turn.action = TurnAction::Pass;
        if cannot_act {
            let s = self.push(
                R2,
                format!("{pname} cannot perform an action, so {pname} must pass."),
            );
            s.choice = Some(Choice {
                assumed: None,
                player: pname.clone(),
                chose: "pass (cannot act)".to_string(),
            });
        }
        let s = self.push(
            R3,
            format!("{pname} passes: {pname} has no further turns and cannot perform additional actions during this action phase."),
        );
        if !cannot_act {
            s.choice = Some(Choice {
                assumed: None,
                player: pname.clone(),
                chose: "pass".to_string(),
            });
        }
        let started = self.board.this_turn.start_of_turn.clone();
        if !started.is_empty() {
            self.push(
                R3_1,
                format!("The “at the start of your turn” abilities {pname} resolved this turn ({}) stand: a player can resolve them during the turn they pass.", started.join(", ")),
            );
        }
        let passed = self.board.players.iter().filter(|q| q.passed).count() as i64;
        if self.all_passed() {
            self.board.phase = Phase::Status;
            let s = self.push(R5, format!("{pname} was the last player to pass. All players have passed: play proceeds to the status phase."));
            s.numbers = vec![("players passed".to_string(), passed)];
            self.phase_end_cited = true;
            self.topic(TOPIC_STATUS_PHASE);
        } else {
            let left: Vec<usize> = (0..self.board.players.len())
                .filter(|&i| !self.board.players[i].passed)
                .collect();
            if let [only] = left.as_slice() {
                let s = self.push(
                    R3_3,
                    format!(
                        "Only {} has not passed: {} will take consecutive turns until they pass.",
                        self.name(*only),
                        self.name(*only)
                    ),
                );
                s.numbers = vec![("players passed".to_string(), passed)];
            }
        }
        Ok(())
    }

    fn transaction(&mut self, p: usize, play: &Play, path: &str) -> Result<(), Fail> {
        let pname = self.name(p).to_string();
        let q = self.resolve_player(play.with.as_deref().unwrap_or(""), &format!("{path}.with"))?;
        let qname = self.name(q).to_string();
        if q == p {
            return Err(Fail::Board(BoardError::semantic(
                format!("{path}.with"),
                "a transaction needs two different players",
            )));
        }
        let passing_turn =
            |i: usize| self.turn == Some(i) && self.board.this_turn.action == TurnAction::Pass;
        let mut assume_passed = None;
        for (i, other) in [(p, q), (q, p)] {
            if self.board.players[i].passed && !passing_turn(i) {
                let n = self.name(i).to_string();
                if self.turn != Some(other) {
                    return Err(illegal(
                        Some(R3),
                        path,
                        format!(
                            "{n} has passed and has no further turns; rule 3.1 lets a player resolve transactions during the turn they pass, and it is not {n}'s turn nor {}'s",
                            self.name(other)
                        ),
                    ));
                }
                assume_passed = Some(format!(
                    "{n} passed earlier and is not on the turn they passed; the indexed text (rule 3.1) speaks only of that turn, so the engine allows a passed player to be the other party of the transaction of the player whose turn it is."
                ));
            }
        }
        let active = self.turn;
        if passing_turn(p) || passing_turn(q) {
            let who = if passing_turn(p) { &pname } else { &qname };
            let s = self.push(R3_1, format!("{pname} and {qname} resolve a transaction during the turn {who} passes: a player can resolve transactions on that turn."));
            s.choice = Some(Choice {
                assumed: None,
                player: pname,
                chose: format!("transaction with {qname}"),
            });
        } else {
            self.topic(TOPIC_ACTIVE_PLAYER);
            let s = self.push(
                R1,
                format!("{pname} and {qname} resolve a transaction; it is not one of the three types of actions, so it does not use the turn."),
            );
            s.choice = Some(Choice {
                assumed: None,
                player: pname,
                chose: format!("transaction with {qname}"),
            });
            s.assumption = Some(if let Some(a) = assume_passed {
                a
            } else if active == Some(p) || active == Some(q) {
                "Transactions have no entry in the indexed text: the engine records it as not being an action.".to_string()
            } else {
                "Transactions have no entry in the indexed text, and neither player is the one whose turn it is; the engine records it without checking its timing.".to_string()
            });
        }
        Ok(())
    }

    fn secondary(&mut self, p: usize, play: &Play, path: &str) -> Result<(), Fail> {
        let pname = self.name(p).to_string();
        let cpath = format!("{path}.card");
        let (owner, ci) = self.resolve_card(play.card.as_deref().unwrap_or(""), &cpath)?;
        let card = self.board.players[owner].strategy_cards[ci].name.clone();
        let oname = self.name(owner).to_string();
        if owner == p {
            return Err(illegal(
                Some(R3_2),
                &cpath,
                format!(
                    "{card} is {pname}'s own strategy card; the secondary ability is resolved by the other players (“the secondary ability of other players’ strategy cards”)"
                ),
            ));
        }
        if self.board.phase == Phase::Status {
            return Err(illegal(
                Some(R5),
                path,
                format!(
                    "the action phase is over; {card}'s secondary ability can no longer be resolved"
                ),
            ));
        }
        self.topic(TOPIC_STRATEGIC_ACTION);
        let current = self.turn == Some(owner)
            && self.board.this_turn.action == TurnAction::Strategic
            && self.board.this_turn.card.as_deref() == Some(card.as_str());
        if !current {
            self.diagnostics.push(Diagnostic {
                severity: Severity::Warning,
                message: format!("{oname} is not resolving the strategic action of {card} right now; Strategic Action is a Related Topic that is not indexed, so the engine does not rule on when a secondary ability may be resolved"),
                rule: Some(RT.to_string()),
                path: Some(cpath.clone()),
            });
        }
        let s = if self.board.players[p].passed {
            self.push(R3_2, format!("{pname} has passed but resolves the secondary ability of {card} ({oname}'s card): a passed player can still do so."))
        } else {
            let s = self.push(RT, format!("{pname} resolves the secondary ability of {card} ({oname}'s card); it is not {pname}'s action."));
            s.assumption = Some("Strategic Action (which governs secondary abilities) is a Related Topic that is not indexed: the engine records the secondary ability without adjudicating it.".to_string());
            s
        };
        s.choice = Some(Choice {
            assumed: None,
            player: pname,
            chose: format!("secondary ability of {card}"),
        });
        Ok(())
    }

    fn start_of_turn(&mut self, p: usize, ability: &str, path: &str) -> Result<(), Fail> {
        let pname = self.name(p).to_string();
        self.begin(p, Use::StartOfTurn, path)?;
        if self.board.this_turn.start_of_turn.len() >= MAX_ABILITIES {
            return Err(Fail::Board(BoardError::semantic(
                path,
                format!("more than {MAX_ABILITIES} abilities in one turn"),
            )));
        }
        self.board.this_turn.start_of_turn.push(ability.to_string());
        let s = if self.others_all_passed(p) {
            self.push(N4, format!("{pname} resolves “{ability}” at the start of their turn: with all other players passed, they continue to resolve start-of-turn abilities."))
        } else {
            self.push(N3, format!("{pname} resolves “{ability}” at the start of their turn (it stands even if {pname} passes this turn)."))
        };
        s.choice = Some(Choice {
            assumed: None,
            player: pname,
            chose: ability.to_string(),
        });
        Ok(())
    }

    /// Checks that `p` is the player whose turn it is and that the turn has
    /// its action or pass (for end-of-action / end-of-turn plays).
    fn own_turn_after_action(&self, p: usize, path: &str, what: &str) -> Result<(), Fail> {
        let pname = self.name(p);
        match self.turn {
            Some(cur) if cur == p => {}
            Some(cur) if self.board.players[p].passed => {
                return Err(illegal(
                    Some(R3),
                    path,
                    format!(
                        "{pname} has passed and has no further turns; it is {}'s turn, not theirs, so there is no turn of {pname}'s to {what}",
                        self.name(cur)
                    ),
                ));
            }
            Some(cur) => {
                return Err(illegal(
                    Some(R_INTRO),
                    path,
                    format!(
                        "it is {}'s turn, not {pname}'s; {pname} cannot {what} out of initiative order",
                        self.name(cur)
                    ),
                ));
            }
            None => {
                return Err(illegal(
                    Some(R5),
                    path,
                    "the action phase is over and no turn is under way".to_string(),
                ));
            }
        }
        if self.board.this_turn.action == TurnAction::None {
            return Err(illegal(
                Some(R2),
                path,
                format!(
                    "{pname} has neither performed an action nor passed this turn, so the turn cannot end yet; a player who cannot perform an action must pass"
                ),
            ));
        }
        Ok(())
    }

    fn end_of_action(&mut self, p: usize, ability: &str, path: &str) -> Result<(), Fail> {
        let pname = self.name(p).to_string();
        self.own_turn_after_action(p, path, "end an action")?;
        let t = &self.board.this_turn;
        if !t.action.is_action() {
            return Err(illegal(
                Some(R1),
                path,
                format!(
                    "{pname} passed this turn: passing is not one of the three types of actions, so there is no action whose end could trigger “{ability}”"
                ),
            ));
        }
        if !t.end_of_turn.is_empty() {
            return Err(illegal(
                Some(N2),
                path,
                format!(
                    "{pname} has already resolved end-of-turn abilities ({}); abilities at the end of an action happen before any at the end of a player's turn",
                    t.end_of_turn.join(", ")
                ),
            ));
        }
        if t.end_of_action.len() >= MAX_ABILITIES {
            return Err(Fail::Board(BoardError::semantic(
                path,
                format!("more than {MAX_ABILITIES} abilities in one turn"),
            )));
        }
        self.board.this_turn.end_of_action.push(ability.to_string());
        let s = self.push(N2, format!("{pname} resolves “{ability}” at the end of their action, before any end-of-turn ability."));
        s.choice = Some(Choice {
            assumed: None,
            player: pname,
            chose: ability.to_string(),
        });
        Ok(())
    }

    fn end_of_turn(&mut self, p: usize, ability: &str, path: &str) -> Result<(), Fail> {
        let pname = self.name(p).to_string();
        self.own_turn_after_action(p, path, "end a turn")?;
        if self.board.this_turn.end_of_turn.len() >= MAX_ABILITIES {
            return Err(Fail::Board(BoardError::semantic(
                path,
                format!("more than {MAX_ABILITIES} abilities in one turn"),
            )));
        }
        self.board.this_turn.end_of_turn.push(ability.to_string());
        let status = self.board.phase == Phase::Status;
        let s = if self.board.this_turn.action == TurnAction::Pass {
            let s = self.push(N3, format!("{pname} resolves “{ability}” at the end of the turn they passed on: a player may do so on the turn they pass."));
            if status {
                s.assumption = Some("The last pass ended the action phase; the engine lets that turn's end-of-turn abilities resolve as the turn closes, before the status phase (Status Phase is a Related Topic that is not indexed).".to_string());
                self.topic(TOPIC_STATUS_PHASE);
            }
            self.steps.last_mut()
        } else if self.others_all_passed(p) {
            Some(self.push(N4, format!("{pname} resolves “{ability}” at the end of their turn: with all other players passed, they continue to resolve end-of-turn abilities.")))
        } else {
            let after = if self.board.this_turn.end_of_action.is_empty() {
                String::new()
            } else {
                " (after the end-of-action abilities)".to_string()
            };
            Some(self.push(N2, format!("{pname} resolves “{ability}” at the end of their turn{after}; no end-of-action ability can follow it this turn.")))
        };
        if let Some(s) = s {
            s.choice = Some(Choice {
                assumed: None,
                player: pname,
                chose: ability.to_string(),
            });
        }
        Ok(())
    }

    fn end_turn(&mut self, p: usize, path: &str) -> Result<(), Fail> {
        let pname = self.name(p).to_string();
        self.own_turn_after_action(p, path, "end a turn")?;
        if self.board.phase == Phase::Status {
            self.turn = None;
            self.board.this_turn = ThisTurn::default();
            self.push(R5, format!("{pname}'s turn, the last of the action phase, ends; play proceeds to the status phase."));
            self.phase_end_cited = true;
            self.topic(TOPIC_STATUS_PHASE);
            return Ok(());
        }
        self.advance(&format!("{pname} ends it"));
        Ok(())
    }
}
