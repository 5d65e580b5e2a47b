//! Pictures of boards: one drawing per game from the engine's typed board,
//! beside a small shared drawing kit ([`kit`]). The engines hold no drawing
//! code; this module reads their public board and play types.
//!
//! A picture is a PNG with its alt text (the accessible description of the
//! board). A ruling's picture shows the board after it, with what changed
//! marked against the board before it, and the play drawn (attacks as
//! arrows, moves as paths). Output is deterministic: the same board gives
//! the same bytes.

pub mod kit;

mod ashes;
mod grand_archive;
mod legion;
mod magewinds;
mod ti4;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::engine::{GameResult, Ruling, Severity};

/// A drawn board: PNG bytes and the alt text that describes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    pub png: Vec<u8>,
    pub alt: String,
    pub width: u32,
    pub height: u32,
}

/// Why a board has no picture.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    #[error(
        "there is no picture for game '{0}'; pictures exist for ashes, ti4, magewinds, legion and grand-archive"
    )]
    NoDrawing(String),
    #[error("the board does not read as a {game} board, so it cannot be drawn: {message}")]
    Board { game: String, message: String },
}

/// What a ruling decided, as the picture's banner says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub legal: bool,
    /// The play changed the board: legal and not waiting on a decision. A
    /// play that did not is drawn as an attempt at most, never as done.
    pub applied: bool,
    pub headline: String,
    /// The play's fields the ruling refused while the play stood (a
    /// blocker, a guard, a counter), as paths within the play
    /// (`blocks[0].blocker`, `guard`): they are not drawn as made.
    pub refused: Vec<String>,
    /// Why each of those was refused, in the ruling's words: the picture
    /// says them under the verdict, and so does its alt text (a legal
    /// play's refused block read only "Legal. …", its steps cut before
    /// the refusal).
    pub refusals: Vec<String>,
}

/// A board to draw: the board itself, the board before the play (to mark
/// what changed), the play, the ruling's verdict, and how the game ended.
pub(crate) struct View<'a, B, P> {
    pub board: &'a B,
    pub before: Option<&'a B>,
    pub play: Option<&'a P>,
    pub verdict: Option<&'a Verdict>,
    /// The game's result, once it has one (the board's own, or the
    /// match's: a moderator's end, a concession): no turn is shown then.
    pub result: Option<&'a GameResult>,
    /// Seats out of the game while others play on (the engine's status).
    pub out: &'a [usize],
    /// The phase has turns, as the engine's status reads the board (false
    /// in TI4's status phase, whose board keeps the last passer's `turn`
    /// so they may still end it, rule 3.1: the picture said "Cleo's turn"
    /// where the engine says nobody's).
    pub turns: bool,
}

impl<'a, B, P> View<'a, B, P> {
    /// Whose turn the picture shows: the board's, and nobody's once the
    /// game has ended (a board keeps its last turn when a match ends) or
    /// in a phase the engine says has no turn.
    pub fn turn<'t>(&self, turn: Option<&'t str>) -> Option<&'t str> {
        turn.filter(|_| self.result.is_none() && self.turns)
    }

    /// The play, when it took effect: a refused play (or one waiting on
    /// a decision) left the board as it stands, and is not counted on it.
    pub fn applied(&self) -> Option<&'a P> {
        self.play.filter(|_| self.verdict.is_none_or(|v| v.applied))
    }

    /// The play, unless it was refused: one waiting on a decision is drawn
    /// as what is being decided (its arrows); a refused one is not drawn
    /// as if made (an outside tester's refused attacks had their arrows,
    /// and Grand Archive's "Declared attack" hid the combat under way).
    pub fn attempted(&self) -> Option<&'a P> {
        self.play.filter(|_| self.verdict.is_none_or(|v| v.legal))
    }

    /// Whether the ruling refused `field` of the play (or a part of it):
    /// "guard" is refused by a refusal of "guard" or "guard[1]".
    pub fn refused(&self, field: &str) -> bool {
        self.verdict.is_some_and(|v| {
            v.refused.iter().any(|p| {
                p.strip_prefix(field)
                    .is_some_and(|r| r.is_empty() || r.starts_with(['.', '[']))
            })
        })
    }

    /// Why the play is not on the board, when it is not: "refused", or
    /// "waiting on a decision"; `None` for a play made (or no play).
    pub fn unmade(&self) -> Option<&'static str> {
        let v = self.verdict.filter(|v| self.play.is_some() && !v.applied)?;
        Some(if v.legal {
            "waiting on a decision"
        } else {
            "refused"
        })
    }

    /// How a list of the play is introduced: "Play", or "Play refused"
    /// when it is not on the board.
    pub fn play_label(&self) -> String {
        match self.unmade() {
            Some(why) => format!("Play {why}"),
            None => "Play".into(),
        }
    }

    /// The subtitle's end: " · Ana's turn", " · game over", or nothing.
    pub fn standing(&self, turn: Option<&str>) -> String {
        match (self.result, self.turn(turn)) {
            (Some(_), _) => " · game over".into(),
            (None, Some(t)) => format!(" · {t}'s turn"),
            (None, None) => String::new(),
        }
    }

    /// The alt text's sentence on the result (with its leading space), or
    /// nothing while the game goes on.
    pub fn ending(&self) -> String {
        self.result
            .map(|r| format!(" {}.", result_words(r)))
            .unwrap_or_default()
    }
}

/// `s` as a sentence of the alt text: trimmed, ending in a full stop (a
/// verdict's headline may end in a parenthesis or a bare "Legal. ", and
/// the next sentence ran on from it).
pub(crate) fn sentence(s: &str) -> String {
    let s = s.trim_end();
    if s.ends_with(['.', '!', '?', '…']) {
        s.to_string()
    } else {
        format!("{s}.")
    }
}

/// Most characters of a verdict's headline in an alt text: the seats come
/// after it, and a ruling's whole headline (an Ashes game-ending answer's
/// ran to 1,024) left them no room (found by an outside tester).
const MAX_HEADLINE_ALT: usize = 300;

/// A verdict's headline as the alt text's sentence, cut to
/// [`MAX_HEADLINE_ALT`] characters.
pub(crate) fn headline(s: &str) -> String {
    sentence(&cut(s.trim_end(), MAX_HEADLINE_ALT))
}

/// A result in words: "Game over: Ana wins — 10 victory points".
pub(crate) fn result_words(r: &GameResult) -> String {
    let who = r
        .winner
        .as_deref()
        .map_or("no winner".to_string(), |w| format!("{w} wins"));
    let reason = r.reason.trim().trim_end_matches('.');
    if reason.is_empty() {
        format!("Game over: {who}")
    } else {
        format!("Game over: {who} — {reason}")
    }
}

/// Alt text is cut to what Discord accepts for an attachment description.
pub const MAX_ALT: usize = 1024;

/// The picture of a board document of `game` (no play).
pub fn board(game: &str, board: &Value) -> Result<Picture, PictureError> {
    draw(game, board, None, None, None, None)
}

/// The picture of a match's board: `ended` is the match's result once it
/// has ended (a moderator's end, a concession, an agreed end), drawn over
/// the board's own (a board ended by a moderator decides nothing itself).
pub fn of_match(
    game: &str,
    board: &Value,
    ended: Option<&GameResult>,
) -> Result<Picture, PictureError> {
    draw(game, board, None, None, None, ended)
}

/// The picture of a ruling: the board after it (`ruling.state`), with what
/// changed since `judged` (the document judged, play included) marked and
/// the play drawn.
pub fn ruling(ruling: &Ruling, judged: &Value) -> Result<Picture, PictureError> {
    let verdict = verdict(ruling);
    let play = judged_play(ruling, judged);
    draw(
        &ruling.game,
        &ruling.state,
        Some(judged),
        play,
        Some(&verdict),
        None,
    )
}

/// The play a ruling's picture draws: the document's `play`, or of its
/// `plays` the one the ruling refused (its first error's or refusal's
/// `plays[k]`), else the last (a TI4 board's `plays: [pass]`, refused,
/// was drawn as no play at all).
fn judged_play<'a>(r: &Ruling, judged: &'a Value) -> Option<&'a Value> {
    if let Some(p) = judged.get("play") {
        return Some(p);
    }
    let plays = judged.get("plays")?.as_array()?;
    let at = r
        .diagnostics
        .iter()
        .filter(|d| matches!(d.severity, Severity::Error | Severity::Refused))
        .find_map(|d| {
            let rest = d.path.as_deref()?.strip_prefix("plays[")?;
            rest[..rest.find(']')?].parse::<usize>().ok()
        });
    at.and_then(|k| plays.get(k)).or_else(|| plays.last())
}

/// Under a board, the play that is not on it, said as such ("Play
/// refused (not on the board): …"); returns the y below it.
pub(crate) fn unmade_line(c: &mut kit::Canvas, why: &str, words: &str, y: f32) -> f32 {
    let w = c.width();
    c.text(
        20.0,
        y + 18.0,
        14.0,
        kit::MUTED,
        &format!("Play {why} (not on the board): {words}"),
        Some(w - 40.0),
        kit::Align::Left,
        false,
    );
    y + 26.0
}

/// The alt text's sentence on a play not on the board (with its leading
/// space).
pub(crate) fn unmade_alt(why: &str, words: &str) -> String {
    format!(" Play {why}, not on the board: {}", sentence(words))
}

/// The banner of a ruling: legal, refused (with the first reason), or
/// waiting for a decision.
pub fn verdict(r: &Ruling) -> Verdict {
    let first = |sev: &[Severity]| {
        r.diagnostics
            .iter()
            .find(|d| sev.contains(&d.severity))
            .map(|d| d.message.clone())
    };
    let headline = if let Some(d) = &r.pending {
        format!("Waiting for a decision. {}", d.question)
    } else if r.legal {
        let steps: Vec<&str> = r.steps.iter().take(8).map(|s| s.text.as_str()).collect();
        let n = r
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Refused)
            .count();
        let with = match n {
            0 => String::new(),
            n => format!(", with {} refused", kit::plural(n, "choice", "choices")),
        };
        format!("Legal{with}. {}", steps.join(" · "))
    } else {
        let why = first(&[Severity::Error, Severity::Refused]).unwrap_or_default();
        format!("Not legal. {}", capitalised(&why))
    };
    let refusals = r
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Refused);
    let refused = refusals
        .clone()
        .filter_map(|d| d.path.as_deref().and_then(within_play))
        .map(str::to_string)
        .collect();
    Verdict {
        legal: r.legal,
        applied: r.legal && r.pending.is_none(),
        headline,
        refused,
        refusals: refusals.map(|d| d.message.clone()).collect(),
    }
}

/// `s` with its first letter upper case: a reason the engine words to
/// follow a colon ("an attack needs a visible target") begins a sentence
/// in the banner ("Not legal. an attack…" read as a slip).
fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_lowercase() => c.to_uppercase().chain(chars).collect(),
        _ => s.to_string(),
    }
}

/// Refused choices said in full in the picture; the rest are counted.
const REFUSALS_DRAWN: usize = 2;

/// Refused choices said in an alt text; the rest are counted.
const REFUSALS_ALT: usize = 3;

/// The verdict as the alt text's sentences (with no leading space): the
/// headline, then each choice the ruling refused of a legal play.
pub(crate) fn verdict_alt(v: &Verdict) -> String {
    let mut s = headline(&v.headline);
    for why in v.refusals.iter().take(REFUSALS_ALT).filter(|_| v.legal) {
        s.push_str(" Refused: ");
        s.push_str(&headline(&capitalised(why)));
    }
    if v.legal && v.refusals.len() > REFUSALS_ALT {
        let more = v.refusals.len() - REFUSALS_ALT;
        s.push_str(&format!(" … and {more} more refused."));
    }
    s
}

/// The lines that say a legal play's refused choices under its verdict:
/// each one's reason (in two lines at most), the rest counted.
fn refusal_lines(v: &Verdict, width: f32) -> Vec<String> {
    if !v.legal {
        return Vec::new();
    }
    let mut lines: Vec<String> = v
        .refusals
        .iter()
        .take(REFUSALS_DRAWN)
        .flat_map(|why| kit::wrap(&format!("Refused: {}", capitalised(why)), 14.0, width, 2))
        .collect();
    if v.refusals.len() > REFUSALS_DRAWN {
        let more = v.refusals.len() - REFUSALS_DRAWN;
        lines.push(format!("… and {more} more refused (see the ruling)"));
    }
    lines
}

/// The tallest strip of refused choices ([`refusal_lines`]): what a
/// drawing that sizes its canvas before drawing keeps room for.
pub(crate) const REFUSALS_HEIGHT: f32 = 12.0 + 18.0 * (2 * REFUSALS_DRAWN + 1) as f32 + 8.0;

/// The strip under a legal verdict that says the choices it refused;
/// returns the y below it (`y` itself with none).
fn refused_strip(c: &mut kit::Canvas, v: &Verdict, y: f32) -> f32 {
    let lines = refusal_lines(v, strip_text_width(c.width()));
    if lines.is_empty() {
        return y;
    }
    let look = StripLook {
        ground: kit::Rgb(0xfb, 0xe4, 0xe4),
        edge: kit::RED,
        edge_width: 1.5,
        ink: kit::RED,
        size: 14.0,
        first: 19.0,
        line: 18.0,
        pad: 10.0,
        bold: false,
    };
    strip(c, &lines, y, &look)
}

/// How a strip under the banner looks: its ground and edge, and its text.
struct StripLook {
    ground: kit::Rgb,
    edge: kit::Rgb,
    edge_width: f32,
    ink: kit::Rgb,
    size: f32,
    /// From the strip's top to the first line's baseline.
    first: f32,
    /// From one line's baseline to the next.
    line: f32,
    /// The strip's height beside its lines'.
    pad: f32,
    bold: bool,
}

/// A strip of `lines` under the banner at `y`; returns where the next
/// thing goes.
fn strip(c: &mut kit::Canvas, lines: &[String], y: f32, look: &StripLook) -> f32 {
    let w = c.width();
    let h = look.pad + look.line * lines.len() as f32;
    c.rect(
        20.0,
        y,
        w - 40.0,
        h,
        6.0,
        kit::Style::both(look.ground, look.edge, look.edge_width),
    );
    for (i, l) in lines.iter().enumerate() {
        c.text(
            32.0,
            y + look.first + look.line * i as f32,
            look.size,
            look.ink,
            l,
            Some(strip_text_width(w)),
            kit::Align::Left,
            look.bold,
        );
    }
    y + h + 8.0
}

/// A diagnostic's path within the play it names: "blocks[0].blocker" of
/// "play.blocks[0].blocker" or "plays[2].blocks[0].blocker" (a match's
/// play is judged at its place in the list); `None` outside a play.
fn within_play(path: &str) -> Option<&str> {
    let rest = match path.strip_prefix("plays[") {
        Some(r) => &r[r.find(']')? + 1..],
        None => path.strip_prefix("play")?,
    };
    if rest.is_empty() {
        return Some("");
    }
    rest.strip_prefix('.')
}

/// What a picture says beside the board: the board before (to mark what
/// changed), the play, the ruling's verdict, and the match's result.
#[derive(Clone, Copy, Default)]
struct Around<'a> {
    before: Option<&'a Value>,
    play: Option<&'a Value>,
    verdict: Option<&'a Verdict>,
    ended: Option<&'a GameResult>,
}

/// Draws `board` (a board document of `game`), marking changes since
/// `before` and drawing `play`. The result shown is `ended` (a match's),
/// else the one the engine reads off the board (a Phoenixborn destroyed,
/// 10 victory points), with the seats it counts out.
pub fn draw(
    game: &str,
    board: &Value,
    before: Option<&Value>,
    play: Option<&Value>,
    verdict: Option<&Verdict>,
    ended: Option<&GameResult>,
) -> Result<Picture, PictureError> {
    let a = Around {
        before,
        play,
        verdict,
        ended,
    };
    match game {
        "ashes" => run::<_, _>(game, board, a, ashes::draw),
        "ti4" => run(game, board, a, ti4::draw),
        "magewinds" => run(game, board, a, magewinds::draw),
        "legion" => run(game, board, a, legion::draw),
        "grand-archive" => run(game, board, a, grand_archive::draw),
        other => Err(PictureError::NoDrawing(other.chars().take(40).collect())),
    }
}

type Drawing<B, P> = fn(&View<B, P>) -> (kit::Canvas, String);

fn run<B: DeserializeOwned, P: DeserializeOwned>(
    game: &str,
    board: &Value,
    a: Around,
    f: Drawing<B, P>,
) -> Result<Picture, PictureError> {
    let Around {
        before,
        play,
        verdict,
        ended,
    } = a;
    // Where the game stands, as its engine reads the board: a board the
    // engine does not read (the picture reads more) has no result of its own.
    let status = crate::engine::engine(game).and_then(|e| e.status(board).ok());
    let board: B = typed(board).map_err(|message| PictureError::Board {
        game: game.to_string(),
        message,
    })?;
    // The board before and the play only mark and annotate: one that does
    // not read is left out rather than refusing the picture.
    let before: Option<B> = before.and_then(|b| typed(b).ok());
    let play: Option<P> = play.and_then(|p| serde_json::from_value(p.clone()).ok());
    let result = ended
        .cloned()
        .or_else(|| status.as_ref().and_then(|s| s.result.clone()));
    // A board the engine does not read is drawn with its own turn.
    let turns = status.as_ref().is_none_or(|s| s.turn.is_some());
    let out = status.map(|s| s.out).unwrap_or_default();
    let view = View {
        board: &board,
        before: before.as_ref(),
        play: play.as_ref(),
        verdict,
        result: result.as_ref(),
        out: &out,
        turns,
    };
    let (canvas, alt) = f(&view);
    Ok(Picture {
        png: canvas.png(),
        alt: alt.chars().take(MAX_ALT).collect(),
        width: canvas.width() as u32,
        height: canvas.height() as u32,
    })
}

/// A board document as the game's typed board, without its play.
fn typed<B: DeserializeOwned>(doc: &Value) -> Result<B, String> {
    let mut doc = doc.clone();
    if let Value::Object(m) = &mut doc {
        m.remove("play");
        m.remove("plays");
    }
    serde_path_to_error::deserialize(doc).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        let inner: String = inner.chars().take(200).collect();
        if path == "." {
            inner
        } else {
            format!("at {path}: {inner}")
        }
    })
}

/// The banner across the top of a picture: title, subtitle, a ruling's
/// verdict when there is one, and the game's result once it has one.
/// Returns the y below it.
pub(crate) fn banner(
    c: &mut kit::Canvas,
    title: &str,
    subtitle: &str,
    verdict: Option<&Verdict>,
    result: Option<&GameResult>,
) -> f32 {
    use kit::{Align, INK, MUTED};
    let w = c.width();
    c.text(
        20.0,
        34.0,
        24.0,
        INK,
        title,
        Some(w * 0.5),
        Align::Left,
        true,
    );
    c.text(
        w - 20.0,
        34.0,
        16.0,
        MUTED,
        subtitle,
        Some(w * 0.45),
        Align::Right,
        false,
    );
    let mut y = 50.0;
    if let Some(v) = verdict {
        let (bg, fg) = if v.legal {
            (kit::Rgb(0xe3, 0xf1, 0xe4), kit::GREEN)
        } else {
            (kit::Rgb(0xfb, 0xe4, 0xe4), kit::RED)
        };
        let lines = kit::wrap(&v.headline, 15.0, strip_text_width(w), 2);
        let h = 12.0 + 20.0 * lines.len() as f32;
        c.rect(20.0, y, w - 40.0, h, 6.0, kit::Style::both(bg, fg, 1.5));
        for (i, l) in lines.iter().enumerate() {
            c.text(
                32.0,
                y + 22.0 + 20.0 * i as f32,
                15.0,
                fg,
                l,
                Some(strip_text_width(w)),
                Align::Left,
                i == 0,
            );
        }
        y += h + 8.0;
        y = refused_strip(c, v, y);
    }
    if let Some(r) = result {
        y = ended(c, r, y);
    }
    y + 6.0
}

/// The width of the text in a strip across a picture `w` wide (the
/// verdict's banner, the result's): its lines are wrapped to the width
/// they are drawn in. Wrapped wider, a full line was cut again when drawn
/// and its last word lost ("a third action is… / allowed": "not" went;
/// found by an outside tester).
fn strip_text_width(w: f32) -> f32 {
    w - 64.0
}

/// The result's strip under the banner: who won and why, or no winner.
fn ended(c: &mut kit::Canvas, r: &GameResult, y: f32) -> f32 {
    let lines = kit::wrap(&result_words(r), 17.0, strip_text_width(c.width()), 2);
    let look = StripLook {
        ground: kit::Rgb(0xfb, 0xf1, 0xd6),
        edge: kit::GOLD,
        edge_width: 2.5,
        ink: kit::INK,
        size: 17.0,
        first: 24.0,
        line: 22.0,
        pad: 14.0,
        bold: true,
    };
    strip(c, &lines, y, &look)
}

/// A small label on a coloured ground; returns its width.
pub(crate) fn badge(
    c: &mut kit::Canvas,
    x: f32,
    y: f32,
    text: &str,
    fg: kit::Rgb,
    bg: kit::Rgb,
) -> f32 {
    let w = kit::text_width(&kit::fit(text, 12.0, 200.0), 12.0) + 12.0;
    c.rect(x, y, w, 18.0, 9.0, kit::Style::fill(bg));
    c.text(
        x + 6.0,
        y + 13.5,
        12.0,
        fg,
        text,
        Some(200.0),
        kit::Align::Left,
        false,
    );
    w
}

/// Appends every seat to an alt text, " Ana: a, b." each: the characters
/// left under [`MAX_ALT`] are shared out between the seats (a share a
/// seat leaves unused goes to those after it), and a seat's items past its
/// share are counted ("… and 12 more"), so one seat's long list never
/// leaves the others unnamed. `tail` is what the alt text says after the
/// seats (the play), kept room for.
pub(crate) fn seats_alt(s: &mut String, seats: &[(String, Vec<String>)], sep: &str, tail: &str) {
    let room = MAX_ALT.saturating_sub(tail.chars().count());
    for (k, (head, items)) in seats.iter().enumerate() {
        let left = room.saturating_sub(s.chars().count());
        let share = left / (seats.len() - k);
        s.push_str(&seat_alt(head, items, sep, share));
    }
}

/// One seat's " Ana: a, b." in at most `share` characters (a name that
/// does not fit is cut with "…", and the seat still ends its sentence).
fn seat_alt(head: &str, items: &[String], sep: &str, share: usize) -> String {
    let head = cut(head, share.saturating_sub(4).max(1));
    let mut out = format!(" {head}:");
    if items.is_empty() {
        out.push_str(" none.");
        return out;
    }
    let len = |x: &str| x.chars().count();
    for (i, item) in items.iter().enumerate() {
        let gap = if i == 0 { " " } else { sep };
        let after = items.len() - i - 1;
        // Room for the count of the rest, when this is not the last item.
        let tail = if after > 0 { 24 } else { 1 };
        if len(&out) + len(gap) + len(item) + tail > share {
            let rest = items.len() - i;
            let gap = if i == 0 { " " } else { sep };
            out.push_str(&format!("{gap}… and {rest} more."));
            return out;
        }
        out.push_str(gap);
        out.push_str(item);
    }
    out.push('.');
    out
}

/// `s` cut to `n` characters, "…" ending a cut one.
fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
    t.push('…');
    t
}

/// "… and N more units (not drawn)" when `shown` of `total` were drawn;
/// `what` is plural, and singular for one ("… and 1 more player").
pub(crate) fn more(total: usize, shown: usize, what: &str) -> Option<String> {
    let n = total.checked_sub(shown).filter(|n| *n > 0)?;
    let what = if n == 1 {
        what.strip_suffix('s').unwrap_or(what)
    } else {
        what
    };
    Some(format!("… and {n} more {what} (not drawn)"))
}

/// Writes `p` to `path`; the line that says where (for the CLI and the
/// console), or why it could not be written.
pub fn save(p: &Picture, path: &std::path::Path) -> Result<String, String> {
    std::fs::write(path, &p.png).map_err(|e| {
        format!(
            "cannot write the picture to {}: {e}; give a path in a folder you can write to",
            path.display()
        )
    })?;
    Ok(format!(
        "picture: {} ({}×{}, {} bytes)",
        path.display(),
        p.width,
        p.height,
        p.png.len()
    ))
}

/// A changed card: a gold outline and what changed above it.
pub(crate) fn mark(c: &mut kit::Canvas, a: kit::Area, what: &str) {
    if what.is_empty() {
        return;
    }
    c.rect(
        a.x - 3.0,
        a.y - 3.0,
        a.w + 6.0,
        a.h + 6.0,
        10.0,
        kit::Style::stroke(kit::GOLD, 3.0),
    );
    let (size, what) = mark_label(what, a.w);
    let w = kit::text_width(&what, size) + 12.0;
    c.rect(
        a.x + a.w - w,
        a.y - 10.0,
        w,
        18.0,
        9.0,
        kit::Style::fill(kit::GOLD),
    );
    c.text(
        a.x + a.w - w + 6.0,
        a.y + 3.5,
        size,
        kit::CARD,
        &what,
        None,
        kit::Align::Left,
        true,
    );
}

/// A mark's label and its size on a card `w` wide: at 12 px, else at
/// 11 px over the card's whole width, cut with "…" only when that is too
/// narrow too ("+2 damage, exhaus…" was cut at 12 px on an Ashes unit).
fn mark_label(what: &str, w: f32) -> (f32, String) {
    if kit::text_width(what, 12.0) <= w - 16.0 {
        return (12.0, what.to_string());
    }
    (11.0, kit::fit(what, 11.0, w - 12.0))
}

/// The picture of a recorded match event: the board after it, with what
/// changed marked (the board before is rebuilt from `changes`), the play
/// drawn, the ruling's verdict, and the match's result when the event
/// ended it.
pub fn event(
    ruling: &Ruling,
    board: &Value,
    changes: &[crate::engine::Change],
    play: Option<&Value>,
    ended: Option<&GameResult>,
) -> Result<Picture, PictureError> {
    let before = before_changes(board, changes);
    let verdict = verdict(ruling);
    draw(
        &ruling.game,
        board,
        Some(&before),
        play,
        Some(&verdict),
        ended,
    )
}

/// One step of a change's path: `.field`, `[2]`, `["Iron Worker"]`.
#[derive(Debug, Clone, PartialEq)]
enum Seg {
    Key(String),
    Index(usize),
    Name(String),
}

/// A change's path in steps (`players["Maeoni"].units[0].damage`); `None`
/// when it does not read.
fn segments(path: &str) -> Option<Vec<Seg>> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            if r.starts_with('"') {
                // A quoted name, as `{:?}` writes it: read it as JSON.
                let end = quoted_end(r)?;
                out.push(Seg::Name(serde_json::from_str(&r[..end]).ok()?));
                rest = r[end..].strip_prefix(']')?;
            } else {
                let end = r.find(']')?;
                out.push(Seg::Index(r[..end].parse().ok()?));
                rest = &r[end + 1..];
            }
        } else {
            let r = rest.strip_prefix('.').unwrap_or(rest);
            let end = r.find(['.', '[']).unwrap_or(r.len());
            out.push(Seg::Key(r[..end].to_string()));
            rest = &r[end..];
        }
    }
    Some(out)
}

/// The byte after the closing quote of the string that `s` starts with.
fn quoted_end(s: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in s.char_indices().skip(1) {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return Some(i + 1),
            _ => escaped = false,
        }
    }
    None
}

/// The board before `changes` were made to it, as far as their paths
/// read (a change whose path does not is left out: it only marks less).
pub fn before_changes(after: &Value, changes: &[crate::engine::Change]) -> Value {
    let mut board = after.clone();
    for c in changes.iter().take(10_000) {
        if let Some(segs) = segments(&c.path)
            && let Some((last, parents)) = segs.split_last()
            && let Some(parent) = walk(&mut board, parents)
        {
            put(parent, last, &c.before);
        }
    }
    board
}

fn walk<'a>(mut v: &'a mut Value, segs: &[Seg]) -> Option<&'a mut Value> {
    for s in segs {
        v = match s {
            Seg::Key(k) => v.get_mut(k.as_str())?,
            Seg::Index(i) => v.get_mut(*i)?,
            Seg::Name(n) => v
                .as_array_mut()?
                .iter_mut()
                .find(|x| x.get("name").and_then(Value::as_str) == Some(n))?,
        };
    }
    Some(v)
}

/// Sets (or, for `null`, removes) one step of a path in `parent`.
fn put(parent: &mut Value, seg: &Seg, value: &Value) {
    match (seg, parent) {
        (Seg::Key(k), Value::Object(m)) if value.is_null() => {
            m.remove(k);
        }
        (Seg::Key(k), Value::Object(m)) => {
            m.insert(k.clone(), value.clone());
        }
        (Seg::Index(i), Value::Array(a)) => {
            if let Some(x) = a.get_mut(*i) {
                *x = value.clone();
            } else if *i == a.len() && !value.is_null() {
                a.push(value.clone());
            }
        }
        (Seg::Name(n), Value::Array(a)) => {
            let at = a
                .iter()
                .position(|x| x.get("name").and_then(Value::as_str) == Some(n));
            match (at, value.is_null()) {
                (Some(i), true) => {
                    a.remove(i);
                }
                (Some(i), false) => a[i] = value.clone(),
                (None, false) => a.push(value.clone()),
                (None, true) => {}
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A banner's wrapped lines are drawn whole: each fits the width it
    /// is drawn in, and the words run on from one line to the next.
    #[test]
    fn a_banners_wrapped_lines_keep_every_word() {
        let headline = "Not legal. Darth Vader has already used 2 of its 2 actions this activation (a unit performs two actions when activated); a third action is not allowed, only free actions, free card actions or attacks that are not actions";
        let width = strip_text_width(1000.0);
        let lines = kit::wrap(headline, 15.0, width, 2);
        assert_eq!(lines.len(), 2, "{lines:?}");
        for l in &lines {
            assert_eq!(&kit::fit(l, 15.0, width), l);
        }
        let shown = lines.join(" ");
        let words: Vec<&str> = headline.split_whitespace().collect();
        assert!(shown.starts_with(&words[..30].join(" ")), "{shown}");
    }

    /// A headline ends its sentence before the alt text's next one (it ran
    /// on: "…outside the indexed rules) Play refused", "Legal.  Ana").
    #[test]
    fn a_headline_is_a_sentence_of_the_alt_text() {
        assert_eq!(sentence("Legal. "), "Legal.");
        assert_eq!(sentence("Not legal. x (rules)"), "Not legal. x (rules).");
        assert_eq!(sentence("Waiting… "), "Waiting…");
        let long = "Legal. ".repeat(200);
        let h = headline(&long);
        assert!(
            h.chars().count() <= MAX_HEADLINE_ALT && h.ends_with('…'),
            "{h}"
        );
        assert_eq!(headline("Legal. "), "Legal.");
    }

    /// A card's mark says a damage and an exhaustion whole on an Ashes
    /// unit's card (it was cut: "+2 damage, exhaus…").
    #[test]
    fn a_marks_label_is_said_whole_on_a_unit_card() {
        for what in [
            "+2 damage, exhausted",
            "+12 damage, exhausted",
            "−2 damage, readied",
        ] {
            let (_, shown) = mark_label(what, 138.0);
            assert_eq!(shown, what);
        }
        assert_eq!(mark_label("new", 138.0), (12.0, "new".to_string()));
    }

    /// Each seat of many items keeps a share of the alt text, its rest
    /// counted.
    #[test]
    fn every_seat_keeps_a_share_of_the_alt_text() {
        let items: Vec<String> = (0..100).map(|i| format!("item number {i}")).collect();
        let seats: Vec<(String, Vec<String>)> = ["Ana", "Ben", "Cleo", "Dora"]
            .iter()
            .map(|n| (n.to_string(), items.clone()))
            .collect();
        let mut s = "A board.".to_string();
        seats_alt(&mut s, &seats, ", ", " Play: Ana passes.");
        assert!(s.chars().count() + 18 <= MAX_ALT, "{}", s.chars().count());
        for n in ["Ana", "Ben", "Cleo", "Dora"] {
            assert!(s.contains(&format!(" {n}: item number 0, ")), "{s}");
        }
        assert_eq!(s.matches(" more.").count(), 4, "{s}");
        let mut few = String::new();
        seats_alt(
            &mut few,
            &[("Ana".into(), vec!["a".into(), "b".into()])],
            ", ",
            "",
        );
        assert_eq!(few, " Ana: a, b.");
    }
}
