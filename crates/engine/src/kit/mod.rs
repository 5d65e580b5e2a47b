//! The engine kit: what every game's engine is built from.
//!
//! A game implements [`Game`]: typed `Board` and `Play` (serde, with their
//! JSON Schema derived by `schemars`), its cited rules, validation, the
//! procedure that runs a play against a [`Cx`] recorder, its status (phase,
//! whose turn, result), its turn structure ([`Phase`], as data), and its
//! one-line notation (on the shared [`notation`] lexer). [`Kit`] turns any
//! `Game` into the object-safe [`GameEngine`](super::GameEngine) the app
//! uses: parse once, validate, run, diff, assemble the ruling, produce the
//! schema, advance phases, adjust fields — the same way for every game.
//!
//! A new game is a folder following `docs/ADDING_A_GAME.md` plus one line in
//! [`super::engines`].

pub mod bounded;
pub mod choices;
pub mod cx;
pub mod fields;
pub mod names;
pub mod notation;
pub mod typed_diff;

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

pub use cx::{Ask, Asking, Chosen, Cx, Opt, Stop, Unagreed, Whose};
pub use fields::Better;
pub use names::NameError;

use super::OpenBoard;
use super::document::{self, BoardError, join_path};
use super::ruling::{Diagnostic, RuleUse, Ruling, Severity, Status, diff};

/// One step of a game's turn structure, as data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Phase {
    /// The value of the board's phase field (`player-turns`).
    pub id: &'static str,
    /// As players say it (`player turns phase`).
    pub name: &'static str,
    /// The indexed rule that moves play into this phase, where one exists;
    /// `None`: moving into it is outside the indexed rules.
    pub rule: Option<&'static str>,
    /// Entering this phase starts a new round.
    pub new_round: bool,
    /// What resets on entering it.
    pub resets: &'static [Reset],
}

/// A board field set on entering a phase (`players[].units[].exhausted` → `false`).
/// Every field pattern names a field of the game's board schema (tested:
/// `engine::tests::phase_resets_name_board_fields`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Reset {
    /// Field pattern, `[]` for every item of a list.
    pub field: &'static str,
    /// The value it gets.
    pub value: Set,
    /// In plain words (`exhaustion cleared`).
    pub what: &'static str,
}

/// A value a reset gives a field: typed, so no reset can fail to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Set {
    False,
    True,
    /// Nothing (`null`): no turn, no active player.
    Null,
    /// An empty list.
    Empty,
    /// An empty record.
    EmptyRecord,
    /// A word of the board's vocabulary (`none`).
    Word(&'static str),
}

impl Set {
    pub fn value(self) -> Value {
        match self {
            Set::False => Value::Bool(false),
            Set::True => Value::Bool(true),
            Set::Null => Value::Null,
            Set::Empty => Value::Array(Vec::new()),
            Set::EmptyRecord => Value::Object(Map::new()),
            Set::Word(w) => Value::String(w.into()),
        }
    }
}

/// The fewest players a game is played by, and where that count comes
/// from: a rule that states it, or a reading labelled as one where the
/// indexed text gives no count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MinPlayers {
    /// The fewest players.
    pub count: usize,
    /// Why, in words: the rule with its id, or the reading and its basis.
    pub source: &'static str,
}

/// A game's executable rules.
pub trait Game: Send + Sync + 'static {
    /// The game id (as in `rules_data/<game>/manifest.yaml`).
    const ID: &'static str;
    /// The fewest players a match of the game seats (a one-player board
    /// let its only player record his own win: an outside tester's).
    const MIN_PLAYERS: MinPlayers = MinPlayers {
        count: 1,
        source: "",
    };
    /// The board document without its play.
    type Board: Serialize + DeserializeOwned + JsonSchema + Clone + PartialEq + Send + Sync;
    /// One play.
    type Play: Serialize + DeserializeOwned + JsonSchema + Clone + Send + Sync;

    /// Every rule the engine may cite, with a verbatim quote.
    fn rule_uses() -> &'static [RuleUse];

    /// Checks the board's own consistency and writes every name reference
    /// (whose turn, who passed) in the board's own spelling.
    fn validate(board: &mut Self::Board) -> Result<(), BoardError>;

    /// The players in seat order.
    fn players(board: &Self::Board) -> Vec<String>;

    /// The seat of the player who makes `play`, resolved with the engine's
    /// own name rules (so a prefix or another case cannot pass a seat check);
    /// `None` when the play and the board name nobody (any seat may make it).
    fn actor(board: &Self::Board, play: &Self::Play) -> Result<Option<usize>, BoardError>;

    /// Runs the play's procedure on `board` (a working copy).
    fn play(board: &mut Self::Board, play: &Self::Play, cx: &mut Cx) -> Result<(), Stop>;

    /// Where the game stands: phase, round, whose turn, result.
    fn status(board: &Self::Board) -> Status;

    /// Board fields the engine reads (patterns, `[]` for list items); any
    /// other field present gets a "not read" warning.
    const BOARD_READS: &'static [&'static str];

    /// The fields of a seat with a better direction for it (patterns, `[]`
    /// for list items: `players[].victory_points`): the scores the result
    /// is counted on, the stats that decide its fights, obligations others'
    /// effects imposed; and which way is better for the seat (a field that
    /// is not a number: any change may be). A player's `adjust` of their
    /// own seat is at once only when it makes one of these worse for them;
    /// any other change may raise their standing and needs every other
    /// player's consent (docs/MATCHES.md, "Consent").
    const STANDING: &'static [(&'static str, fields::Better)] = &[];

    /// Board fields outside `players` that belong to the seat whose turn
    /// it is, with the way better for it ([`Game::STANDING`]'s patterns):
    /// Ashes' `main_action_used`, which only that seat's main action reads.
    /// A player's `adjust` of one on their own turn, made worse for them,
    /// is at once; on another's turn it asks that seat.
    const TURN_STANDING: &'static [(&'static str, fields::Better)] = &[];

    /// Board fields below the top level (or lists of names) that name a
    /// seat by its name, as paths with `[]` for every item of a list
    /// (`consecutive_passes[]`, `costs[].controller`): a rename carries
    /// them to the new name, as it does the top-level `turn`
    /// ([`fields::carry_rename`]). Left behind, the rename was refused at
    /// the field (`consecutive_passes[0]: unknown player 'Coal'`; found by
    /// an outside tester).
    const SEAT_NAME_FIELDS: &'static [&'static str] = &[];

    /// Fields of this play the procedure reads.
    fn play_reads(play: &Self::Play) -> &'static [&'static str];

    /// The turn structure, in order; advancing past the last starts over.
    const PHASES: &'static [Phase];
    /// The board field holding the phase id.
    const PHASE_FIELD: &'static str = "phase";
    /// The board field holding the round number, if the board has one.
    const ROUND_FIELD: Option<&'static str> = Some("round");

    /// Refuses leaving the current phase where the rules forbid it
    /// (`cx.error(rule, …)`).
    fn before_advance(board: &Self::Board, cx: &mut Cx) {
        let _ = (board, cx);
    }

    /// After the board moved into `phase` (field set, resets applied):
    /// anything the data cannot say (whose turn it is now).
    fn entered(board: &mut Self::Board, phase: &Phase, cx: &mut Cx) {
        let _ = (board, phase, cx);
    }

    /// Board fields an `adjust` of `field` carries along on `after` (the
    /// board with the field set; `before` as it was), where one field is
    /// read from another and setting one alone could never validate.
    fn carry_adjust(before: &Value, after: &mut Value, field: &fields::FieldPath) {
        let _ = (before, after, field);
    }

    /// What an illegal play leaves: the board before it, unless the rules
    /// keep a record of the attempt itself.
    fn after_illegal(before: &Self::Board, attempt: &Self::Board) -> Self::Board {
        let _ = attempt;
        before.clone()
    }

    /// Parses one line of notation into a play, resolving names on `board`.
    fn notation(line: &str, board: &Self::Board) -> Result<Self::Play, BoardError>;

    /// Next-word candidates for a partly typed line.
    fn completions(partial: &str, board: &Self::Board) -> Vec<String>;
}

/// A field set by `adjust`.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Adjustment {
    /// Canonical path (`players[1].phoenixborn.damage`).
    pub field: String,
    /// With names (`players[Maeoni].phoenixborn.damage`).
    pub label: String,
    /// The seat whose field it is; `None` for shared fields.
    pub owner: Option<usize>,
    /// The change may raise its seat's standing: a score the game's result
    /// is counted on made better for the seat, or a field holding one
    /// changed ([`Game::STANDING`]).
    #[serde(default)]
    pub standing: bool,
    /// Why the change is the other players' business even where it does
    /// not raise its seat's standing ([`Touches`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub touches: Option<Touches>,
    pub before: Value,
    pub after: Value,
    #[serde(default, skip_serializing)]
    pub state: Value,
    pub changes: Vec<super::ruling::Change>,
}

impl Adjustment {
    /// The values before and after as a reply and a proposal read them: a
    /// field the board did not set reads "(not set)" ("(not set) → 2" for
    /// a TI4 seat's victory points; it read "null → 2"), as
    /// [`super::ruling::Change::read`] reads a change; an item appended to
    /// a list reads "from null to" the item, and one removed "to null",
    /// the value typed.
    pub fn read(&self) -> (super::ruling::Side<'_>, super::ruling::Side<'_>) {
        use super::ruling::Side;
        let before = match &self.before {
            Value::Null if !self.field.ends_with("[+]") => Side::NotSet,
            v => Side::Value(v),
        };
        (before, Side::Value(&self.after))
    }
}

/// Why a change of a seat's own field is the other players' business
/// though it may not help its seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Touches {
    /// It changes what the other players may do ([`fields::Better::Shared`]).
    Others,
    /// A score the result ranks the seats by, lowered with more than two
    /// seats in the game: it decides who leads among the others
    /// ([`fields::Better::Ranked`]).
    Ranking,
}

/// Why setting `f` (from `was` to `now`) is the other players' business
/// besides raising its seat's standing, with `seats` still in the game.
fn touches(
    f: &fields::FieldPath,
    scores: &[(&str, fields::Better)],
    was: &Value,
    now: &Value,
    seats: usize,
) -> Option<Touches> {
    if was == now {
        return None;
    }
    match fields::standing(f, scores) {
        fields::Standing::Score(fields::Better::Shared) => Some(Touches::Others),
        fields::Standing::Score(fields::Better::Ranked) => match (number(was), number(now)) {
            (Some(b), Some(a)) if seats > 2 && a < b => Some(Touches::Ranking),
            _ => None,
        },
        _ => None,
    }
}

/// A score as a number: left out, it counts from 0 (the boards' default);
/// a flag as 0 or 1 (`exhausted: true` is 1).
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Null => Some(0.0),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => v.as_f64(),
    }
}

/// Whether setting `f` (from `was` to `now`, its values) may raise its
/// seat's standing. Only a score made worse for the seat, or a value left
/// as it was, cannot: any other field of a seat, one the game gives no
/// better direction, may help its seat whichever way it moves (a unit
/// readied, a fighter's movement, a strategy card's initiative that orders
/// the turns, an activation given back), so a player's change of it is the
/// other players' business (found by an outside tester).
fn raises(
    f: &fields::FieldPath,
    scores: &[(&str, fields::Better)],
    was: &Value,
    now: &Value,
) -> bool {
    if was == now {
        return false;
    }
    // A seat's name is who it is: renaming one's own is everyone's business.
    if fields::is_seat_name(f) {
        return true;
    }
    // An obligation added to the seat's list narrows what it may do.
    if fields::appended_to(f, scores) == Some(fields::Standing::Score(fields::Better::Fewer)) {
        return false;
    }
    match fields::standing(f, scores) {
        fields::Standing::Score(fields::Better::Fewer) => !only_added(was, now),
        fields::Standing::Apart | fields::Standing::Holds => true,
        fields::Standing::Score(better) => match (number(was), number(now)) {
            (Some(b), Some(a)) => match better {
                fields::Better::Higher | fields::Better::Ranked => a > b,
                fields::Better::Lower => a < b,
                fields::Better::Shared | fields::Better::Fewer => true,
            },
            _ => true,
        },
    }
}

/// Whether list `now` is list `was` (left out: empty) with items added,
/// every item of `was` kept as it was.
fn only_added(was: &Value, now: &Value) -> bool {
    let empty = Vec::new();
    let was = match was {
        Value::Null => &empty,
        Value::Array(items) => items,
        _ => return false,
    };
    let Value::Array(now) = now else {
        return false;
    };
    let mut rest = now.clone();
    for item in was {
        match rest.iter().position(|n| n == item) {
            Some(i) => {
                rest.remove(i);
            }
            None => return false,
        }
    }
    !rest.is_empty()
}

/// Any [`Game`] as the object-safe engine.
pub struct Kit<G>(PhantomData<G>);

impl<G> Kit<G> {
    pub const fn new() -> Kit<G> {
        Kit(PhantomData)
    }
}

impl<G> Default for Kit<G> {
    fn default() -> Kit<G> {
        Kit::new()
    }
}

impl<G: Game> Kit<G> {
    /// The refusal of `typed` (read as `v`) for the field `f`: a whole
    /// number written as a decimal (`1e3`) where the schema asks for a
    /// whole number is named as typed, with its digits (the refusal read
    /// "wrong kind of value: floating point `1000.0`", which nobody wrote).
    fn as_typed(e: BoardError, f: &fields::FieldPath, typed: &str, v: &Value) -> BoardError {
        let digits = v
            .as_f64()
            .filter(|x| v.is_f64() && x.fract() == 0.0 && x.abs() < 1e15)
            .map(|x| x as i64);
        let whole = fields::schema_at(Self::document_schema(), &fields::pattern(f))
            .and_then(|s| s.get("type"))
            .is_some_and(|t| match t {
                Value::Array(types) => types.iter().any(|t| t == "integer"),
                t => t == "integer",
            });
        let Some(n) = digits.filter(|_| whole && e.path.as_deref() == Some(f.path.as_str())) else {
            return e;
        };
        BoardError {
            message: format!(
                "`{typed}` is not a whole number as written (a decimal point or an exponent makes it a decimal number); write it in digits: {n}"
            ),
            not_whole: None,
            ..e
        }
    }

    /// The schema of a board document (cached: derived once per game).
    fn document_schema() -> &'static Value {
        static CACHE: OnceLock<std::sync::Mutex<Vec<(&'static str, &'static Value)>>> =
            OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        let mut list = cache.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, s)) = list.iter().find(|(id, _)| *id == G::ID) {
            return s;
        }
        let s: &'static Value = Box::leak(Box::new(build_schema::<G>()));
        list.push((G::ID, s));
        s
    }

    /// Reads a typed value; on failure a did-you-mean for unknown fields,
    /// else serde's error at its path, with line:column from `text`.
    fn read<T: DeserializeOwned>(
        value: &Value,
        prefix: &str,
        text: Option<&str>,
    ) -> Result<T, BoardError> {
        let schema = Self::document_schema();
        let describe = |name: &str| fields::describe_type(schema, name);
        document::typed_described(value, prefix, text, &describe).map_err(|e| {
            let sub = if prefix.is_empty() {
                Some(schema)
            } else {
                schema.get("properties").and_then(|p| p.get("play"))
            };
            let Some(sub) = sub.map(|s| rooted(schema, s)) else {
                return e;
            };
            if let Some(mut better) = fields::unknown_field(value, &sub) {
                better.kind = document::ErrorKind::Syntax;
                let path = join_path(prefix, better.path.as_deref().unwrap_or(""));
                better.pos = text.and_then(|t| document::locate(t, &path)).or(e.pos);
                better.path = Some(path);
                return better;
            }
            // A field left out below where serde's path stops (inside a
            // tagged play): the object that lacks it, not the play. Where
            // the play holds another error too, this one is said first:
            // both are the user's to fix.
            match fields::missing_field(value, &sub) {
                Some((at, field)) if below(&join_path(prefix, &at), e.path.as_deref()) => {
                    let path = join_path(prefix, &at);
                    BoardError {
                        message: format!("missing field `{field}`"),
                        pos: text.and_then(|t| document::locate(t, &path)).or(e.pos),
                        path: Some(path),
                        not_whole: None,
                        ..e
                    }
                }
                // A field left out where serde's path stops: serde's
                // error is that one, not a value's kind below it.
                Some(_) => e,
                None => wrong_kind_at(e, value, &sub, prefix, text),
            }
        })
    }

    fn board(value: &Value, text: Option<&str>) -> Result<G::Board, BoardError> {
        let mut b: G::Board = Self::read(value, "", text)?;
        G::validate(&mut b)?;
        Ok(b)
    }

    fn to_value<T: Serialize>(v: &T) -> Value {
        serde_json::to_value(v).unwrap_or(Value::Null)
    }

    /// The board after a play as a document that reads back as a board: a
    /// play that would leave a value past the board's limits (damage past
    /// 999, more tokens than a list holds) is refused, so a match never
    /// records a state its next play could not read.
    fn readable(after: &G::Board, before: &G::Board) -> Result<Value, BoardError> {
        let state = Self::to_value(after);
        if after == before {
            return Ok(state);
        }
        Self::read::<G::Board>(&state, "", None).map_err(|e| BoardError {
            message: format!(
                "this play would leave {} past what a board may hold ({}): a limit of this tool, not a rule of the game; nothing changes",
                e.path.as_deref().unwrap_or("the board"),
                e.message
            ),
            path: Some("play".into()),
            pos: None,
            not_whole: None,
            ..e
        })?;
        Ok(state)
    }

    /// Refuses a document that names another game.
    fn same_game(map: &Map<String, Value>) -> Result<(), BoardError> {
        match map.get("game") {
            Some(Value::String(g)) if crate::text::fold(g) != crate::text::fold(G::ID) => {
                Err(BoardError::semantic(
                    "game",
                    format!("this is the {} engine; the document says game '{g}'", G::ID),
                ))
            }
            _ => Ok(()),
        }
    }

    /// The board with `game` written as this engine's id (as [`Kit::split`]
    /// writes it), borrowed when it already is.
    fn own_game(board: &Value) -> Result<Cow<'_, Value>, BoardError> {
        let Value::Object(map) = board else {
            return Ok(Cow::Borrowed(board));
        };
        if map.get("game").and_then(Value::as_str) == Some(G::ID) {
            return Ok(Cow::Borrowed(board));
        }
        Self::same_game(map)?;
        let mut map = map.clone();
        map.insert("game".into(), Value::String(G::ID.into()));
        Ok(Cow::Owned(Value::Object(map)))
    }

    /// Splits a document into its board and its plays (with their paths).
    fn split(doc: Value) -> Result<(Value, Vec<(String, Value)>), BoardError> {
        let Value::Object(mut map) = doc else {
            return Err(BoardError::semantic(
                "",
                "the board document must be a mapping of fields (`game: …`, `players: …`)",
            ));
        };
        Self::same_game(&map)?;
        map.insert("game".into(), Value::String(G::ID.into()));
        let one = map.remove("play");
        let many = map.remove("plays");
        let plays = match (one, many) {
            (Some(_), Some(_)) => {
                return Err(BoardError::semantic(
                    "plays",
                    "give either `play` or `plays`, not both",
                ));
            }
            (Some(p), None) => vec![("play".to_string(), p)],
            (None, Some(Value::Array(list))) => {
                if list.len() > MAX_PLAYS {
                    return Err(BoardError::semantic(
                        "plays",
                        format!(
                            "{} plays in one document; the limit is {MAX_PLAYS}",
                            list.len()
                        ),
                    ));
                }
                list.into_iter()
                    .enumerate()
                    .map(|(i, p)| (format!("plays[{i}]"), p))
                    .collect()
            }
            (None, Some(_)) => {
                return Err(BoardError::semantic("plays", "`plays` is a list of plays"));
            }
            (None, None) => Vec::new(),
        };
        Ok((Value::Object(map), plays))
    }

    /// An item of `plays` refused whole where a play is a list of steps
    /// (Legion) and the item is one step: said so, with the shape (it read
    /// "plays[0]: wrong kind of value: map, expected a list"). Told by
    /// whether the item, or the whole list, reads as a play's steps.
    fn step_for_play(e: BoardError, path: &str, raw: &Value, all: &[Value]) -> BoardError {
        let reads = |steps: &[Value]| {
            serde_json::from_value::<G::Play>(Value::Array(steps.to_vec())).is_ok()
        };
        if !path.starts_with("plays[")
            || e.path.as_deref() != Some(path)
            || !raw.is_object()
            || !reads(std::slice::from_ref(raw))
        {
            return e;
        }
        let whole = match reads(all) {
            true => "; these items read as the steps of one play: write `play:` for `plays:`",
            false => "",
        };
        BoardError {
            message: format!(
                "this item is one step, but each item of `plays` is one play, itself a list of steps (`- - {{ activate: … }}` and `  - {{ action: … }}` under it){whole}"
            ),
            ..e
        }
    }

    /// Warnings for every field present that the engine does not read.
    fn unread(board: &Value, plays: &[(String, Value, G::Play)]) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = fields::unread(board, G::BOARD_READS)
            .into_iter()
            .map(|f| unread_warning(f, "the engine does not read this field; it is kept on the board but has no effect on the ruling"))
            .collect();
        for (path, raw, play) in plays {
            for f in fields::unread(raw, G::play_reads(play)) {
                out.push(unread_warning(
                    join_path(path, &f),
                    "this play does not use this field; it was not read",
                ));
            }
        }
        out
    }

    fn judge_value(
        &self,
        doc: Value,
        text: Option<&str>,
        asking: &Asking,
    ) -> Result<Ruling, BoardError> {
        let (board_doc, raw_plays) = Self::split(doc)?;
        let located = |e: BoardError| e.located(text);
        let board = Self::board(&board_doc, text).map_err(located)?;
        let mut plays = Vec::with_capacity(raw_plays.len());
        let all: Vec<Value> = raw_plays.iter().map(|(_, raw)| raw.clone()).collect();
        for (path, raw) in raw_plays {
            let play: G::Play = Self::read(&raw, &path, text)
                .map_err(|e| Self::step_for_play(e, &path, &raw, &all))?;
            plays.push((path, raw, play));
        }
        Self::judge_read(&board_doc, board, plays, asking).map_err(located)
    }

    /// The ruling on plays read from a board read (`board_doc` is the
    /// board as given, for its unread fields).
    fn judge_read(
        board_doc: &Value,
        board: G::Board,
        plays: Vec<(String, Value, G::Play)>,
        asking: &Asking,
    ) -> Result<Ruling, BoardError> {
        if plays.is_empty() {
            let state = Self::to_value(&board);
            let mut r = Ruling::no_play(G::ID, state, Some(G::status(&board)));
            r.diagnostics.extend(Self::unread(board_doc, &plays));
            return Ok(r);
        }
        if asking.author.is_some() && asking.answered.is_empty() {
            for (path, raw, play) in &plays {
                stated_nothing(path, raw, play)?;
            }
        }
        let mut cx = Cx::new(asking, G::players(&board));
        let mut work = board.clone();
        let mut pending = None;
        if let Some(over) = G::status(&board).result {
            cx.at_play(&plays[0].0);
            cx.error_unruled("play", game_over(&over));
        }
        // The diagnostics of illegal attempts the list went on after (their
        // errors kept out of `cx` so each later play is judged on its own).
        let mut earlier = Vec::new();
        // Whether an illegal play ended the list (its board is then the one
        // before the list, but for the record the rules keep of attempts).
        let mut stopped = cx.failed();
        for (i, (path, _, play)) in plays.iter().enumerate() {
            if stopped {
                break;
            }
            cx.at_play(path);
            // The board before this play (the first one's is `board`: no copy
            // for the one play most documents hold).
            let kept = (i > 0).then(|| work.clone());
            let start = kept.as_ref().unwrap_or(&board);
            match G::play(&mut work, play, &mut cx) {
                Ok(()) => {}
                Err(Stop::Ask(d)) => {
                    pending = Some(*d);
                    break;
                }
                Err(Stop::Board(e)) => return Err(relative(e, path)),
            }
            if !cx.failed() {
                continue;
            }
            let left = G::after_illegal(start, &work);
            let rest = plays.len() - i - 1;
            if left != *start && rest > 0 {
                // The rules keep a record of the attempt itself (Grand
                // Archive 1.4: "no further attempts are necessary"): the
                // list goes on from the board it leaves, as a match would.
                cx.note(Some(path), after_recorded(rest));
                earlier.append(&mut cx.diags);
                work = left;
                continue;
            }
            if rest > 0 {
                cx.note(Some(path), not_judged(rest));
            }
            stopped = left == *start;
            work = left;
        }
        earlier.append(&mut cx.diags);
        cx.diags = earlier;
        let legal = !cx.failed();
        // The board before the play is not serialized: the changes are the
        // typed board walked against the state (a pending play changes
        // nothing, and a board equal to the one before has nothing to walk:
        // most illegal plays leave it as it was).
        let changes_to = |after: &G::Board, state: &Value| match *after == board {
            true => Vec::new(),
            false => typed_diff::diff(&board, state),
        };
        let (state, status, changes) = match (legal, &pending) {
            (true, Some(_)) => (Self::to_value(&board), G::status(&board), Vec::new()),
            (false, _) if stopped || pending.is_some() => {
                let left = G::after_illegal(&board, &work);
                let state = Self::readable(&left, &board)?;
                let changes = changes_to(&left, &state);
                (state, G::status(&left), changes)
            }
            // Legal, or illegal only in attempts whose record the rules
            // keep: the board the last play leaves.
            _ => {
                let state = Self::readable(&work, &board)?;
                let changes = changes_to(&work, &state);
                (state, G::status(&work), changes)
            }
        };
        let mut diagnostics = cx.diags;
        diagnostics.extend(Self::unread(board_doc, &plays));
        diagnostics.sort_by_key(|d| d.severity);
        Ok(Ruling {
            game: G::ID.to_string(),
            legal,
            steps: cx.steps,
            diagnostics,
            pending,
            claims: cx.claims,
            changes,
            state,
            status: Some(status),
        })
    }

    fn advance_value(
        &self,
        board_value: &Value,
        to: Option<&str>,
    ) -> Result<(Ruling, Vec<Unagreed>), BoardError> {
        let board = Self::board(board_value, None)?;
        let before = Self::to_value(&board);
        let asking = Asking::judge();
        let mut cx = Cx::new(&asking, G::players(&board));
        let phases = G::PHASES;
        if phases.is_empty() {
            return Err(BoardError::semantic(
                "phase",
                format!("{} has no turn structure to advance through", G::ID),
            ));
        }
        let now = before
            .get(G::PHASE_FIELD)
            .and_then(Value::as_str)
            .unwrap_or(phases[0].id);
        let from = phases.iter().position(|p| p.id == now).unwrap_or(0);
        let target = match to {
            None => (from + 1) % phases.len(),
            Some(t) => {
                let names: Vec<&str> = phases.iter().map(|p| p.id).collect();
                let by_name: Vec<&str> = phases.iter().map(|p| p.name).collect();
                match names::resolve_index(t, &names, "phase") {
                    Ok(i) => i,
                    Err(e) => names::resolve_index(t, &by_name, "phase").map_err(|_| e.at("to"))?,
                }
            }
        };
        G::before_advance(&board, &mut cx);
        if cx.failed() {
            let unagreed = std::mem::take(&mut cx.unagreed);
            let ruling = Ruling {
                game: G::ID.to_string(),
                legal: false,
                steps: cx.steps,
                diagnostics: cx.diags,
                pending: None,
                claims: Vec::new(),
                changes: Vec::new(),
                status: Some(G::status(&board)),
                state: before,
            };
            return Ok((ruling, unagreed));
        }
        let mut value = before.clone();
        let mut i = from;
        loop {
            i = (i + 1) % phases.len();
            let phase = &phases[i];
            enter_phase::<G>(&mut value, phase, &mut cx);
            let mut typed: G::Board = Self::read(&value, "", None)?;
            G::entered(&mut typed, phase, &mut cx);
            G::validate(&mut typed)?;
            value = Self::to_value(&typed);
            if i == target {
                let status = G::status(&typed);
                let unagreed = std::mem::take(&mut cx.unagreed);
                let ruling = Ruling {
                    game: G::ID.to_string(),
                    legal: true,
                    steps: cx.steps,
                    diagnostics: cx.diags,
                    pending: None,
                    claims: Vec::new(),
                    changes: diff(&before, &value),
                    state: value,
                    status: Some(status),
                };
                return Ok((ruling, unagreed));
            }
        }
    }
}

/// Most plays one document may hold.
pub const MAX_PLAYS: usize = 64;

/// Refuses a play's field written empty (`blocks: []`, `split: {}`) that
/// the play reads as left out: in a match a left-out choice of another
/// player's is asked of them, so the author's empty list was silently
/// dropped where a non-empty one is refused (an outside tester's `blocks:
/// []` on an Ashes attack).
fn stated_nothing<P: Serialize>(path: &str, raw: &Value, play: &P) -> Result<(), BoardError> {
    let (Value::Object(raw), Ok(Value::Object(read))) = (raw, serde_json::to_value(play)) else {
        return Ok(());
    };
    let empty = |v: &Value| match v {
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    };
    match raw.iter().find(|(k, v)| empty(v) && !read.contains_key(*k)) {
        Some((key, v)) => Err(BoardError::semantic(
            format!("{path}.{key}"),
            format!(
                "`{key}: {v}` states nothing and reads as left out: leave `{key}` out (a choice of another player's is then asked of them), or write its entries"
            ),
        )),
        None => Ok(()),
    }
}

fn unread_warning(field: String, why: &str) -> Diagnostic {
    Diagnostic {
        severity: Severity::Warning,
        message: format!("not read: `{field}`: {why}"),
        rule: None,
        path: Some(field),
    }
}

/// The note on an illegal play a list stops at: the `rest` plays after it
/// are not judged.
fn not_judged(rest: usize) -> String {
    match rest {
        1 => "the play after this one was not judged: this one is illegal".to_string(),
        n => format!("the {n} plays after this one were not judged: this one is illegal"),
    }
}

/// The note on an illegal attempt the rules keep a record of: the `rest`
/// plays after it are judged on the board it leaves.
fn after_recorded(rest: usize) -> String {
    let which = match rest {
        1 => "the play after it was".to_string(),
        n => format!("the {n} plays after it were"),
    };
    format!(
        "this attempt is illegal and its steps are reversed, but the rules keep a record of the attempt itself; {which} judged on the board with that record, as a match records it"
    )
}

/// Why no play is judged on a board whose game already has a result: the
/// result is read off the board by the game's own rule (its citation, or
/// its reading outside the indexed text, is the result's).
fn game_over(over: &crate::GameResult) -> String {
    let who = match &over.winner {
        Some(w) => format!("{w} wins: "),
        None => String::new(),
    };
    format!(
        "the game is already over on this board ({who}{}), so no play follows it",
        over.reason
    )
}

/// serde's refusal of a value's kind (`counter: "maybe"`), said at that
/// value's own field and line:column where serde's path stops above it (a
/// field of a tagged or untagged play: it read `play: wrong kind of
/// value`), and with a hint to quote a word YAML read as true, false or a
/// number where text is taken (`name: On`).
fn wrong_kind_at(
    e: BoardError,
    value: &Value,
    schema: &Value,
    prefix: &str,
    text: Option<&str>,
) -> BoardError {
    let Some(wrong) = fields::wrong_kind(value, schema) else {
        return e;
    };
    let path = join_path(prefix, &wrong.path);
    // A decimal number where a whole one is expected (`1e3`) is quoted as
    // written once its own field is known (`located`; at the play's path
    // it could not be).
    let e = match e.kind == document::ErrorKind::Syntax && below(&path, e.path.as_deref()) {
        true => BoardError {
            pos: text.and_then(|t| document::locate(t, &path)).or(e.pos),
            path: Some(path.clone()),
            ..e
        }
        .located(text),
        false => e,
    };
    let scalar = fields::get(value, &wrong.path).is_some_and(|v| v.is_boolean() || v.is_number());
    if let Some((shape, about)) = &wrong.map_of
        && e.path.as_deref() == Some(&path)
    {
        let field = path.rsplit('.').next().unwrap_or(&path);
        let about = about
            .as_deref()
            .map(|a| format!(" ({})", a.trim_end_matches('.').to_lowercase()))
            .unwrap_or_default();
        return BoardError {
            message: format!(
                "{}: each name with its value{about}, written `{field}: {shape}`",
                e.message
            ),
            ..e
        };
    }
    match (
        wrong.takes_text && scalar && e.path.as_deref() == Some(&path),
        text,
    ) {
        (true, Some(text)) => match document::quote_hint(text, &path) {
            Some(hint) => BoardError {
                message: format!("{}; {hint}", e.message),
                ..e
            },
            None => e,
        },
        _ => e,
    }
}

/// A board error from a play, its `play…` path put where the play sits.
fn relative(mut e: BoardError, play_path: &str) -> BoardError {
    if let Some(p) = &e.path
        && let Some(rest) = p.strip_prefix("play")
        && (rest.is_empty() || rest.starts_with(['.', '[']))
        && play_path != "play"
    {
        e.path = Some(format!("{play_path}{rest}"));
    }
    e
}

/// `sub` as a schema of its own (keeping the root's `$defs`).
fn rooted(root: &Value, sub: &Value) -> Value {
    let mut s = sub.clone();
    if let (Value::Object(m), Some(defs)) = (&mut s, root.get("$defs")) {
        m.insert("$defs".into(), defs.clone());
    }
    s
}

/// Moves the board value into `phase`: the phase field, the round, resets.
fn enter_phase<G: Game>(value: &mut Value, phase: &Phase, cx: &mut Cx) {
    let Value::Object(map) = value else { return };
    map.insert(G::PHASE_FIELD.into(), Value::String(phase.id.into()));
    let mut done: Vec<&str> = Vec::new();
    if phase.new_round
        && let Some(f) = G::ROUND_FIELD
    {
        let round = map.get(f).and_then(Value::as_u64).unwrap_or(1) + 1;
        map.insert(f.into(), Value::from(round));
        done.push("a new round begins");
    }
    for r in phase.resets {
        fields::set_all(value, r.field, &r.value.value());
        done.push(r.what);
    }
    let what = if done.is_empty() {
        String::new()
    } else {
        format!(": {}", done.join("; "))
    };
    match phase.rule {
        Some(rule) => {
            cx.step(rule, format!("play proceeds to the {}{what}", phase.name));
        }
        None => cx.note(
            Some(G::PHASE_FIELD),
            format!("moved on to the {}{what} (outside the indexed rules: the indexed text does not cover this step; agreed by the players, adjust the board if your game differs)", phase.name),
        ),
    }
}

/// The JSON Schema of a game's board documents: the board's own, plus
/// `play` / `plays` and the game's id.
fn build_schema<G: Game>() -> Value {
    let mut gen_ = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let board = gen_.subschema_for::<G::Board>();
    let play = gen_.subschema_for::<G::Play>();
    let defs: Map<String, Value> = gen_.take_definitions(true).into_iter().collect();
    let mut root = match defs.get(&ref_name(&board)) {
        Some(Value::Object(m)) => m.clone(),
        _ => Map::new(),
    };
    let props = root
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(p) = props {
        p.insert(
            "game".into(),
            serde_json::json!({"const": G::ID, "description": format!("Always `{}`.", G::ID)}),
        );
        p.insert("play".into(), to_json(&play));
        p.insert("plays".into(), serde_json::json!({"type": "array", "items": to_json(&play), "maxItems": MAX_PLAYS, "description": "Several plays, judged in order (instead of `play`)."}));
    }
    root.insert(
        "$schema".into(),
        "https://json-schema.org/draft/2020-12/schema".into(),
    );
    root.insert(
        "$id".into(),
        format!("https://arbiter.invalid/schema/{}.json", G::ID).into(),
    );
    let mut defs = defs;
    defs.remove(&ref_name(&board));
    if !defs.is_empty() {
        root.insert("$defs".into(), Value::Object(defs));
    }
    Value::Object(root)
}

/// `impl From<T<'_>> for String` through `Display`, for each of a game's
/// wording types (`<game>/wording.rs`): a typed event goes straight to
/// `cx.step`, `cx.error` or a `BoardError`.
macro_rules! into_string {
    ($($t:ident),* $(,)?) => {
        $(impl From<$t<'_>> for String {
            fn from(w: $t<'_>) -> String {
                w.to_string()
            }
        })*
    };
}
pub(crate) use into_string;

/// Whether `path` lies strictly below `above` (anywhere, when `above` is
/// unknown).
fn below(path: &str, above: Option<&str>) -> bool {
    above.is_none_or(|a| {
        a.is_empty() && !path.is_empty()
            || path
                .strip_prefix(a)
                .is_some_and(|rest| rest.starts_with(['.', '[']))
    })
}

fn to_json(s: &schemars::Schema) -> Value {
    serde_json::to_value(s).unwrap_or(Value::Null)
}

fn ref_name(s: &schemars::Schema) -> String {
    to_json(s)
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.rsplit('/').next())
        .unwrap_or_default()
        .to_string()
}

/// A board read once ([`GameEngine::open`](super::GameEngine::open)).
struct Opened<'a, G: Game> {
    /// The board as given (`game` written as the engine's id), for its
    /// unread fields.
    doc: Cow<'a, Value>,
    board: G::Board,
}

impl<G: Game> OpenBoard for Opened<'_, G> {
    fn players(&self) -> Vec<String> {
        G::players(&self.board)
    }

    fn parse_notation(&self, line: &str) -> Result<Value, BoardError> {
        let line = notation::check_line(line)?;
        Ok(Kit::<G>::to_value(&G::notation(line, &self.board)?))
    }

    fn actor(&self, play: &Value) -> Result<Option<usize>, BoardError> {
        let p: G::Play = Kit::<G>::read(play, "play", None)?;
        G::actor(&self.board, &p)
    }

    fn judge(self: Box<Self>, play: Value, asking: &Asking) -> Result<Ruling, BoardError> {
        let p: G::Play = Kit::<G>::read(&play, "play", None)?;
        let Opened { doc, board } = *self;
        Kit::<G>::judge_read(&doc, board, vec![("play".to_string(), play, p)], asking)
    }
}

impl<G: Game> super::GameEngine for Kit<G> {
    fn game(&self) -> &'static str {
        G::ID
    }

    fn rule_uses(&self) -> &'static [RuleUse] {
        G::rule_uses()
    }

    fn schema(&self) -> Value {
        Self::document_schema().clone()
    }

    fn judge(&self, doc: Value, text: Option<&str>, asking: &Asking) -> Result<Ruling, BoardError> {
        self.judge_value(doc, text, asking)
    }

    fn check_board(&self, board: &Value) -> Result<Value, BoardError> {
        Ok(Self::to_value(&Self::board(board, None)?))
    }

    fn open<'a>(
        &'a self,
        board: &'a Value,
        text: Option<&'a str>,
    ) -> Result<Box<dyn OpenBoard + 'a>, BoardError> {
        let doc = Self::own_game(board)?;
        let board = Self::board(&doc, text).map_err(|e| e.located(text))?;
        Ok(Box::new(Opened::<G> { doc, board }))
    }

    fn notation_completions(&self, partial: &str, board: &Value) -> Vec<String> {
        if partial.len() > notation::MAX_LINE {
            return Vec::new();
        }
        Self::board(board, None)
            .map(|b| G::completions(partial, &b))
            .unwrap_or_default()
    }

    fn status(&self, board: &Value) -> Result<Status, BoardError> {
        Ok(G::status(&Self::board(board, None)?))
    }

    fn phases(&self) -> &'static [Phase] {
        G::PHASES
    }

    fn min_players(&self) -> MinPlayers {
        G::MIN_PLAYERS
    }

    fn advance_unagreed(
        &self,
        board: &Value,
        to: Option<&str>,
    ) -> Result<(Ruling, Vec<Unagreed>), BoardError> {
        self.advance_value(board, to)
    }

    fn adjust(&self, board: &Value, field: &str, value: &str) -> Result<Adjustment, BoardError> {
        let schema = Self::document_schema();
        let f = fields::resolve(board, schema, field)?;
        if matches!(f.steps.first(), Some(fields::Step::Key(k)) if k == "game") {
            return Err(BoardError::semantic(
                "game",
                "the game of a match cannot change",
            ));
        }
        let value = value.trim();
        if value.is_empty() {
            return Err(BoardError::semantic(
                "value",
                "give the new value (`null` removes an optional field or a list item)",
            ));
        }
        let v: Value = document::parse(value).map_err(|e| BoardError {
            path: Some("value".into()),
            ..e
        })?;
        let mut new = board.clone();
        fields::set(&mut new, &f, v.clone())?;
        fields::carry_rename(board, &mut new, &f, G::SEAT_NAME_FIELDS);
        G::carry_adjust(board, &mut new, &f);
        let typed_new = Self::board(&new, None).map_err(|e| Self::as_typed(e, &f, value, &v))?;
        let state = Self::to_value(&typed_new);
        let (before, after) = fields::before_after(board, &state, &f, &v);
        let typed = Self::board(board, None).ok();
        let status = typed.as_ref().map(G::status);
        let seats = typed
            .as_ref()
            .zip(status.as_ref())
            .map_or(0, |(b, s)| G::players(b).len().saturating_sub(s.out.len()));
        // A board field of the seat whose turn it is (Ashes'
        // `main_action_used`) is that seat's; nobody's turn, everyone's.
        let (owner, scores) = match fields::standing(&f, G::TURN_STANDING) {
            fields::Standing::Apart => (f.owner, G::STANDING),
            _ => (status.and_then(|s| s.turn_seat), G::TURN_STANDING),
        };
        Ok(Adjustment {
            standing: raises(&f, scores, &before, &after),
            touches: touches(&f, scores, &before, &after, seats),
            before,
            after,
            changes: diff(board, &state),
            field: f.path,
            label: f.label,
            owner,
            state,
        })
    }

    fn fields(&self, board: &Value) -> Vec<String> {
        fields::labels(board)
    }
}
