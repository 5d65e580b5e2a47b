//! Magewinds: a top-down table to scale, fighters at their positions with
//! their 1" zones, the activating fighter's Movement reach, moves and steps
//! as arrows, the line of an attack (visible or not), and each fighter's
//! action counter.

use std::fmt::Write as _;

use super::kit::{self, Align, Canvas, Rgb, Style};
use super::{View, badge, banner, more, seats_alt};
use crate::engine::magewinds::board::{Board, Counter, Fighter, Phase, Pos};
use crate::engine::magewinds::plays::{Activation, Play, Sight};
use crate::text::fold_eq;

const W: f32 = 1000.0;
const TABLE: f32 = 600.0;
const MAX_FIGHTERS: usize = 60;
/// Fighters listed beside the table.
const SIDE_FIGHTERS: usize = 16;
const REACH: Rgb = Rgb(0xe6, 0xf2, 0xe0);

/// Inches to pixels on the table: a square window of the table, `span`
/// inches wide, its corner at `origin`, drawn at (`left`, `top`).
struct Scale {
    origin: [f64; 2],
    span: f64,
    left: f32,
    top: f32,
}

impl Scale {
    fn px(&self, p: Pos) -> (f32, f32) {
        let f = f64::from(TABLE) / self.span;
        let x = (finite(p[0]) - self.origin[0]) * f;
        let y = (finite(p[1]) - self.origin[1]) * f;
        (self.left + x as f32, self.top + y as f32)
    }

    fn len(&self, inches: f64) -> f32 {
        (finite(inches).abs() * f64::from(TABLE) / self.span) as f32
    }
}

fn finite(v: f64) -> f64 {
    if v.is_finite() { v } else { 0.0 }
}

/// Every fighter on the board with its seat, at most [`MAX_FIGHTERS`],
/// shared out between the seats (what a seat leaves unused goes to those
/// after it): the first seat's 40 fighters left the third seat off the
/// table.
fn fighters(b: &Board) -> Vec<(usize, &Fighter)> {
    let mut out = Vec::new();
    let seats = b.players.len();
    for (i, p) in b.players.iter().enumerate() {
        let share = MAX_FIGHTERS.saturating_sub(out.len()) / (seats - i);
        out.extend(p.fighters.iter().take(share).map(|f| (i, f)));
    }
    out
}

fn find<'a>(b: &'a Board, name: &str) -> Option<&'a Fighter> {
    b.players
        .iter()
        .flat_map(|p| &p.fighters)
        .find(|f| fold_eq(&f.name, name))
}

fn activation<'a>(v: &View<'a, Board, Play>) -> Option<&'a Activation> {
    match v.attempted() {
        Some(Play::Activate(a)) => Some(a),
        _ => None,
    }
}

/// The window of the table that holds every fighter, before and after,
/// and the activating fighter's reach, with a margin.
fn window(v: &View<Board, Play>, left: f32, top: f32) -> Scale {
    let mut pts: Vec<Pos> = fighters(v.board).iter().map(|(_, f)| f.position).collect();
    if let Some(bb) = v.before {
        pts.extend(fighters(bb).iter().map(|(_, f)| f.position));
    }
    if let Some(a) = activation(v)
        && let Some(f) = v
            .before
            .and_then(|bb| find(bb, &a.activate))
            .or_else(|| find(v.board, &a.activate))
    {
        let m = finite(f.movement).clamp(0.0, 1e12);
        pts.push([f.position[0] - m, f.position[1] - m]);
        pts.push([f.position[0] + m, f.position[1] + m]);
    }
    let (mut lo, mut hi) = ([f64::MAX; 2], [f64::MIN; 2]);
    for p in &pts {
        for k in 0..2 {
            lo[k] = lo[k].min(finite(p[k]));
            hi[k] = hi[k].max(finite(p[k]));
        }
    }
    if pts.is_empty() {
        (lo, hi) = ([0.0; 2], [12.0; 2]);
    }
    let span = (hi[0] - lo[0]).max(hi[1] - lo[1]).max(10.0) + 4.0;
    let origin = [
        (lo[0] + hi[0]) / 2.0 - span / 2.0,
        (lo[1] + hi[1]) / 2.0 - span / 2.0,
    ];
    Scale {
        origin,
        span,
        left,
        top,
    }
}

fn subtitle(v: &View<Board, Play>) -> String {
    let b = v.board;
    let phase = match b.phase {
        Phase::Channelling => "channelling phase",
        Phase::Action => "action phase",
        Phase::End => "end phase",
    };
    format!(
        "round {} · {phase}{}",
        b.round,
        v.standing(b.turn.as_deref())
    )
}

pub(super) fn draw(v: &View<Board, Play>) -> (Canvas, String) {
    let mut c = Canvas::new(W as u32, kit::MAX_HEIGHT, kit::PAPER);
    let y = banner(&mut c, "Magewinds", &subtitle(v), v.verdict, v.result);
    let s = window(v, 20.0, y + 4.0);
    table(&mut c, v, &s);
    let bottom = side(&mut c, v, 640.0, y + 4.0);
    let mut end = (y + 4.0 + TABLE + 46.0).max(bottom + 10.0);
    if let (Some(why), Some(p)) = (v.unmade(), v.play) {
        end = super::unmade_line(&mut c, why, &play_words(p), end - 6.0) + 6.0;
    }
    c.crop(end);
    (c, alt(v))
}

/// A play in words, for one not on the board: "activate Windrunner:
/// attack Windrunner", "Pyromancer reacts: Dodge".
fn play_words(p: &Play) -> String {
    match p {
        Play::Activate(a) => {
            let mut s = format!(
                "activate {}: {}",
                a.activate,
                a.action.as_deref().unwrap_or("an action")
            );
            if let Some(t) = &a.target {
                let _ = write!(s, " {t}");
            }
            if let Some(d) = a.distance {
                let _ = write!(s, " {d}\"");
            }
            if let Some(to) = a.to {
                let _ = write!(s, " to ({}, {})", to[0], to[1]);
            }
            s
        }
        Play::React(r) => format!("{} reacts: {}", r.fighter, r.react),
    }
}

/// A grid step in inches that keeps grid lines at least 24 px apart.
fn grid_step(s: &Scale) -> f64 {
    let (mut step, mut k) = (1.0, 0);
    while s.len(step) < 24.0 && step < 1e15 {
        step *= if k % 3 == 1 { 2.5 } else { 2.0 };
        k += 1;
    }
    step
}

fn table(c: &mut Canvas, v: &View<Board, Play>, s: &Scale) {
    c.rect(
        s.left,
        s.top,
        TABLE,
        TABLE,
        4.0,
        Style::both(kit::CARD, kit::LINE, 1.0),
    );
    let act = activation(v);
    // Movement reach of the activating fighter, from where it started.
    if let Some(a) = act
        && let Some(f) = v
            .before
            .and_then(|bb| find(bb, &a.activate))
            .or_else(|| find(v.board, &a.activate))
    {
        let (x, y) = s.px(f.position);
        let r = s.len(f.movement);
        c.circle(x, y, r, Style::both(REACH, kit::GREEN, 1.5).dashed());
        c.text(
            x,
            y - r - 4.0,
            12.0,
            kit::GREEN,
            &format!("Movement {}\"", f.movement),
            None,
            Align::Center,
            false,
        );
    }
    grid(c, s);
    // Moves and steps: from where the fighter stood before to where it is.
    if let Some(bb) = v.before {
        for (_, f) in fighters(v.board) {
            if let Some(old) = find(bb, &f.name)
                && old.position != f.position
            {
                let (a, b) = (s.px(old.position), s.px(f.position));
                c.circle(a.0, a.1, 8.0, Style::stroke(kit::MUTED, 1.5).dashed());
                c.arrow(a, b, kit::GOLD, 3.0, false);
            }
        }
    }
    if let Some(a) = act {
        sight(c, v, a, s);
    }
    let drawn = fighters(v.board);
    // Every fighter's dot, then each name where it covers no dot or name
    // already placed (names of fighters near each other were drawn over
    // one another).
    let mut taken: Vec<Box4> = drawn
        .iter()
        .map(|(_, f)| {
            let (x, y) = s.px(f.position);
            [x - 10.0, y - 10.0, x + 10.0, y + 10.0]
        })
        .collect();
    for (seat, f) in drawn {
        let (x, y) = s.px(f.position);
        let width = kit::text_width(&kit::fit(&f.name, 13.0, LABEL_W), 13.0);
        let spot = label_spot(s, x, y, width, &taken);
        taken.push(spot.area(width));
        fighter(c, v, seat, f, s, spot);
    }
    let step = grid_step(s);
    let unit = if step == 1.0 {
        "1 inch".to_string()
    } else {
        format!("{step} inches")
    };
    c.text(
        s.left,
        s.top + TABLE + 18.0,
        12.0,
        kit::MUTED,
        &format!("to scale: one grid square is {unit}; dashed circles are 1\" zones"),
        Some(TABLE),
        Align::Left,
        false,
    );
    if let Some(m) = more(
        v.board.players.iter().map(|p| p.fighters.len()).sum(),
        fighters(v.board).len(),
        "fighters",
    ) {
        c.text(
            s.left,
            s.top + TABLE + 36.0,
            12.0,
            kit::RED,
            &m,
            Some(TABLE),
            Align::Left,
            false,
        );
    }
}

fn grid(c: &mut Canvas, s: &Scale) {
    let step = grid_step(s);
    let first = [
        (s.origin[0] / step).ceil() * step,
        (s.origin[1] / step).ceil() * step,
    ];
    for k in 0..200 {
        let i = first[0] + step * f64::from(k);
        let (x, _) = s.px([i, 0.0]);
        if x > s.left + TABLE {
            break;
        }
        c.block(x, s.top, 1.0, TABLE, Rgb(0xee, 0xec, 0xe6));
    }
    for k in 0..200 {
        let j = first[1] + step * f64::from(k);
        let (_, y) = s.px([0.0, j]);
        if y > s.top + TABLE {
            break;
        }
        c.block(s.left, y, TABLE, 1.0, Rgb(0xee, 0xec, 0xe6));
    }
}

/// The attack's line: to its target, red when the attacker sees it (or
/// is taken to: no `visible` list, the ruling's labelled assumption),
/// grey and dashed when it does not; thin lines to what else it sees. Who
/// sees whom is the engine's reading ([`Activation::sees`]), of the board
/// it judged.
fn sight(c: &mut Canvas, v: &View<Board, Play>, a: &Activation, s: &Scale) {
    let Some(me) = find(v.board, &a.activate) else {
        return;
    };
    let judged = judged_attacker(v, a).unwrap_or(me);
    let seen = a.sight_list(judged).map(|(l, _)| l).unwrap_or_default();
    let from = s.px(me.position);
    for name in seen {
        if let Some(t) = find(v.board, name)
            && a.target.as_deref().is_none_or(|x| !fold_eq(x, name))
        {
            c.line(
                from.0,
                from.1,
                s.px(t.position).0,
                s.px(t.position).1,
                Style::stroke(kit::GREEN, 1.0).dashed(),
            );
        }
    }
    if let Some(target) = a.target.as_deref()
        && let Some(t) = find(v.board, target)
    {
        let sight = a.sees(judged, t.name.as_str());
        let to = s.px(t.position);
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let end = (to.0 - dx / len * 12.0, to.1 - dy / len * 12.0);
        let unseen = sight == Sight::Unseen;
        let colour = if unseen { kit::MUTED } else { kit::RED };
        c.arrow(from, end, colour, 3.0, unseen);
        c.text(
            (from.0 + to.0) / 2.0 + 6.0,
            (from.1 + to.1) / 2.0 - 6.0,
            12.0,
            colour,
            sight_label(sight),
            None,
            Align::Left,
            true,
        );
    }
}

/// The attacker as the engine judged it: on the board before the play.
fn judged_attacker<'a>(v: &View<'a, Board, Play>, a: &Activation) -> Option<&'a Fighter> {
    v.before
        .and_then(|bb| find(bb, &a.activate))
        .or_else(|| find(v.board, &a.activate))
}

/// The alt text's sentence on an attack drawn (with its leading space):
/// "Pyromancer attacks Stonewarden, assumed visible."
fn attack_alt(v: &View<Board, Play>) -> String {
    let Some(a) = activation(v) else {
        return String::new();
    };
    let (Some(me), Some(t)) = (
        judged_attacker(v, a),
        a.target.as_deref().and_then(|t| find(v.board, t)),
    ) else {
        return String::new();
    };
    let sight = sight_label(a.sees(me, t.name.as_str()));
    let sight = sight.strip_prefix("attack: ").unwrap_or(sight);
    format!(" {} attacks {}, {sight}.", me.name, t.name)
}

/// The label of an attack's line: what the ruling read of visibility.
fn sight_label(sight: Sight) -> &'static str {
    match sight {
        Sight::Seen => "attack: visible",
        Sight::Unseen => "attack: not visible",
        Sight::Assumed => "attack: assumed visible",
    }
}

fn counter_pips(c: &mut Canvas, x: f32, y: f32, k: Counter) {
    let n = match k {
        Counter::None => 0,
        Counter::Single => 1,
        Counter::Double => 2,
    };
    for i in 0..n {
        c.circle(
            x + i as f32 * 9.0,
            y,
            4.0,
            Style::both(kit::GOLD, kit::INK, 1.0),
        );
    }
}

/// A box on the canvas: left, top, right, bottom.
type Box4 = [f32; 4];

/// The widest a fighter's name is drawn on the table.
const LABEL_W: f32 = 130.0;

/// Where a fighter's name is drawn: its x, its baseline, and which side
/// of x it runs.
#[derive(Clone, Copy)]
struct Spot {
    x: f32,
    y: f32,
    align: Align,
}

impl Spot {
    fn area(self, width: f32) -> Box4 {
        let left = match self.align {
            Align::Right => self.x - width,
            Align::Center => self.x - width / 2.0,
            Align::Left => self.x,
        };
        [left, self.y - 12.0, left + width, self.y + 4.0]
    }
}

fn overlaps(a: &Box4, b: &Box4) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// The name's place for a fighter at (`x`, `y`): beside it on the right
/// (on the left near the table's right edge), else the first of the other
/// sides, above and below, that stays on the table and covers nothing in
/// `taken`; the first place when every one does.
fn label_spot(s: &Scale, x: f32, y: f32, width: f32, taken: &[Box4]) -> Spot {
    // `side` 1.0: the name runs right from beside the fighter; -1.0: left.
    let at = |side: f32, dy: f32| Spot {
        x: x + 13.0 * side,
        y: y + dy,
        align: if side > 0.0 {
            Align::Left
        } else {
            Align::Right
        },
    };
    let near = if x > s.left + TABLE - 140.0 {
        -1.0
    } else {
        1.0
    };
    let far = -near;
    let first = at(near, -4.0);
    let on_table = |b: &Box4| b[0] >= s.left && b[2] <= s.left + TABLE;
    [
        first,
        at(far, -4.0),
        at(near, -16.0),
        at(near, 10.0),
        at(far, -16.0),
        at(far, 10.0),
    ]
    .into_iter()
    .enumerate()
    .find(|(k, spot)| {
        let b = spot.area(width);
        (*k == 0 || on_table(&b)) && !taken.iter().any(|t| overlaps(&b, t))
    })
    .map_or(first, |(_, spot)| spot)
}

fn fighter(c: &mut Canvas, v: &View<Board, Play>, seat: usize, f: &Fighter, s: &Scale, spot: Spot) {
    let (x, y) = s.px(f.position);
    let zone = s.len(1.0);
    if zone > 10.0 {
        c.circle(x, y, zone, Style::stroke(kit::seat(seat), 1.0).dashed());
    }
    let active = activation(v).is_some_and(|a| fold_eq(&a.activate, &f.name));
    c.circle(
        x,
        y,
        9.0,
        Style::both(
            kit::seat(seat),
            if active { kit::GOLD } else { kit::CARD },
            if active { 3.0 } else { 2.0 },
        ),
    );
    if f.guard {
        c.text(x, y + 4.0, 11.0, kit::CARD, "G", None, Align::Center, true);
    }
    let colour = kit::seat(seat);
    c.text(
        spot.x,
        spot.y,
        13.0,
        colour,
        &f.name,
        Some(LABEL_W),
        spot.align,
        true,
    );
    counter_pips(c, x + 17.0, y + 8.0, f.counter);
}

/// The side panel: every player's fighters with counters, guard and
/// Movement; returns the y below it. Every player is named: the
/// [`SIDE_FIGHTERS`] listed are shared out between them, each counting
/// the rest of its own.
fn side(c: &mut Canvas, v: &View<Board, Play>, x: f32, y: f32) -> f32 {
    let b = v.board;
    let w = W - x - 20.0;
    let mut y = y;
    let mut drawn = 0;
    let seats = b.players.len();
    for (i, p) in b.players.iter().enumerate() {
        let share = (SIDE_FIGHTERS.saturating_sub(drawn) / (seats - i)).max(1);
        let mut bx = c.seat_heading(x, y, i, &p.name);
        if v.turn(b.turn.as_deref())
            .is_some_and(|t| fold_eq(t, &p.name))
        {
            bx += badge(c, bx, y + 6.0, "their turn", kit::CARD, kit::GREEN) + 4.0;
        }
        if b.first_to_pass
            .as_deref()
            .is_some_and(|t| fold_eq(t, &p.name))
        {
            badge(c, bx, y + 6.0, "first to pass", kit::CARD, kit::MUTED);
        }
        y += 30.0;
        for f in p.fighters.iter().take(share) {
            drawn += 1;
            c.text(
                x + 12.0,
                y + 14.0,
                14.0,
                kit::INK,
                &f.name,
                Some(150.0),
                Align::Left,
                true,
            );
            let mut facts = vec![format!("Movement {}\"", f.movement)];
            if f.guard {
                facts.push("guarding".into());
            }
            c.text(
                x + 170.0,
                y + 14.0,
                12.0,
                kit::MUTED,
                &facts.join(" · "),
                Some(w - 170.0),
                Align::Left,
                false,
            );
            let counter = match f.counter {
                Counter::None => "no action counter",
                Counter::Single => "single action counter",
                Counter::Double => "double action counter",
            };
            counter_pips(c, x + 18.0, y + 26.0, f.counter);
            c.text(
                x + 40.0,
                y + 30.0,
                12.0,
                kit::INK,
                counter,
                None,
                Align::Left,
                false,
            );
            if let Some(old) = v.before.and_then(|bb| find(bb, &f.name)) {
                let mut changed = Vec::new();
                if old.position != f.position {
                    changed.push(format!("moved {:.1}\"", dist(old.position, f.position)));
                }
                if old.counter != f.counter {
                    changed.push("new counter".to_string());
                }
                if old.guard != f.guard {
                    changed.push("guard".to_string());
                }
                if !changed.is_empty() {
                    badge(
                        c,
                        x + 200.0,
                        y + 18.0,
                        &changed.join(", "),
                        kit::CARD,
                        kit::GOLD,
                    );
                }
            }
            y += 40.0;
        }
        if let Some(m) = more(p.fighters.len(), p.fighters.len().min(share), "fighters") {
            c.text(
                x + 12.0,
                y + 12.0,
                12.0,
                kit::MUTED,
                &m,
                Some(w - 12.0),
                Align::Left,
                false,
            );
            y += 18.0;
        }
        y += 6.0;
    }
    if let Some(la) = &b.last_action {
        let t = la
            .target
            .as_deref()
            .map(|t| format!(" → {t}"))
            .unwrap_or_default();
        c.text(
            x,
            y + 14.0,
            12.0,
            kit::MUTED,
            &format!("last action: {} {}{t}", la.fighter, la.action),
            Some(w),
            Align::Left,
            false,
        );
        y += 20.0;
    }
    y
}

fn dist(a: Pos, b: Pos) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

fn alt(v: &View<Board, Play>) -> String {
    let b = v.board;
    let mut s = format!("Magewinds table, {}.", subtitle(v));
    if let Some(verdict) = v.verdict {
        let _ = write!(s, " {}", super::verdict_alt(verdict));
    }
    s.push_str(&v.ending());
    let mut seats = Vec::new();
    for p in &b.players {
        let fs: Vec<String> = p
            .fighters
            .iter()
            .map(|f| {
                format!(
                    "{} at ({}, {}), Movement {}\", {}{}",
                    f.name,
                    f.position[0],
                    f.position[1],
                    f.movement,
                    f.counter.word(),
                    if f.guard { ", guarding" } else { "" }
                )
            })
            .collect();
        seats.push((p.name.to_string(), fs));
    }
    let tail = match (v.unmade(), v.play) {
        (Some(why), Some(p)) => super::unmade_alt(why, &play_words(p)),
        _ => attack_alt(v),
    };
    seats_alt(&mut s, &seats, "; ", &tail);
    s.push_str(&tail);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scale() -> Scale {
        Scale {
            origin: [0.0, 0.0],
            span: 24.0,
            left: 20.0,
            top: 100.0,
        }
    }

    /// Two fighters side by side: the second's name goes where it covers
    /// neither the first's name nor its dot (it was drawn over them).
    #[test]
    fn a_name_goes_where_it_covers_no_other() {
        let s = scale();
        let (a, b) = (s.px([6.0, 19.0]), s.px([8.0, 19.0]));
        let mut taken = vec![
            [a.0 - 10.0, a.1 - 10.0, a.0 + 10.0, a.1 + 10.0],
            [b.0 - 10.0, b.1 - 10.0, b.0 + 10.0, b.1 + 10.0],
        ];
        let first = label_spot(&s, b.0, b.1, 70.0, &taken);
        assert_eq!(first.x, b.0 + 13.0, "nothing in the way: beside it");
        taken.push(first.area(70.0));
        let second = label_spot(&s, a.0, a.1, 70.0, &taken);
        let area = second.area(70.0);
        assert!(!taken.iter().any(|t| overlaps(&area, t)), "{area:?}");
        assert!(area[0] >= s.left && area[2] <= s.left + TABLE, "{area:?}");
    }
}
