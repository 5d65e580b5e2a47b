//! Star Wars: Legion: the activating unit's card (its actions used and
//! left, free actions, suppression and other reductions with their
//! sources, tokens with their sources) beside every player's units.

use std::fmt::Write as _;

use super::kit::{self, Align, Area, Canvas, Style};
use super::{View, badge, banner, more, seats_alt};
use crate::engine::legion::board::{Board, From, Phase, Step, Unit, texts};
use crate::engine::legion::plays::Play;
use crate::text::fold_eq;

const W: f32 = 1000.0;
const CARD_W: f32 = 600.0;
const MAX_STEPS: usize = 10;
const MAX_UNITS: usize = 24;

fn subtitle(v: &View<Board, Play>) -> String {
    let b = v.board;
    let phase = match b.phase {
        Phase::Command => "command phase",
        Phase::Activation => "activation phase",
        Phase::End => "end phase",
    };
    format!(
        "round {} · {phase}{}",
        b.round,
        v.standing(b.turn.as_deref())
    )
}

fn all_units(b: &Board) -> impl Iterator<Item = &Unit> {
    b.players
        .iter()
        .flat_map(|p| &p.units)
        .chain(b.unit.as_ref())
}

fn find<'a>(b: &'a Board, name: &str) -> Option<&'a Unit> {
    all_units(b).find(|u| fold_eq(&u.name, name))
}

/// The unit the card shows and the alt text names: the one the play
/// activated, or the board's activating unit; none when no unit is
/// activating (the Command and End Phases, a turn before its activation:
/// the card showed the board's first unit, 0 actions used, as activating),
/// and none for a play that was refused (the board as it stands).
fn activating<'a>(v: &View<'a, Board, Play>) -> Option<&'a Unit> {
    let named = v
        .applied()
        .and_then(|p| p.steps.first())
        .and_then(|s| s.activate.as_deref())
        .or(v.board.active.as_deref());
    match named {
        Some(n) => find(v.board, n),
        None => v.board.unit.as_ref(),
    }
}

/// What one step did, in words, and whether it uses one of the unit's
/// actions.
fn step_words(s: &Step) -> Option<(String, bool)> {
    let card = |c: &Option<String>| c.as_deref().map(|c| format!(" ({c})")).unwrap_or_default();
    if let Some(a) = &s.action {
        return Some((format!("{a}{}", card(&s.card)), true));
    }
    if let Some(a) = &s.free_action {
        let from = s
            .ability
            .as_deref()
            .or(s.effect.as_deref().map(String::as_str));
        let from = from.map(|f| format!(", from {f}")).unwrap_or_default();
        return Some((format!("free {a}{from}"), false));
    }
    if let Some(c) = &s.free_card_action {
        return Some((format!("free card action {c}"), false));
    }
    if s.extra_attack == Some(true) {
        return Some(("attack that is not an action".into(), false));
    }
    if let Some(t) = &s.gain {
        let from = s
            .ability
            .as_deref()
            .or(s.effect.as_deref().map(String::as_str));
        let from = from.map(|f| format!(" from {f}")).unwrap_or_default();
        let a = if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        return Some((format!("gains {a} {t} token{from}"), false));
    }
    None
}

pub(super) fn draw(v: &View<Board, Play>) -> (Canvas, String) {
    let mut c = Canvas::new(W as u32, kit::MAX_HEIGHT, kit::PAPER);
    let y = banner(
        &mut c,
        "Star Wars: Legion",
        &subtitle(v),
        v.verdict,
        v.result,
    );
    let card_bottom = match activating(v) {
        Some(u) => card(&mut c, v, u, y),
        None => {
            c.text(
                20.0,
                y + 30.0,
                15.0,
                kit::MUTED,
                if v.result.is_some() {
                    "the game is over: no unit activates"
                } else {
                    "no unit is activating"
                },
                None,
                Align::Left,
                false,
            );
            y + 40.0
        }
    };
    let card_bottom = unmade(&mut c, v, card_bottom);
    let list_bottom = units(&mut c, v, CARD_W + 40.0, y);
    c.crop(card_bottom.max(list_bottom) + 14.0);
    (c, alt(v))
}

/// A play not on the board (refused, or waiting on a decision), in words:
/// "activate Boba Fett: move, attack".
fn play_words(p: &Play) -> String {
    let who = p.steps.first().and_then(|s| s.activate.as_deref());
    let steps: Vec<String> = p
        .steps
        .iter()
        .take(MAX_STEPS)
        .filter_map(|s| step_words(s).map(|(w, _)| w))
        .collect();
    match who {
        Some(u) => format!("activate {u}: {}", steps.join("; ")),
        None => steps.join("; "),
    }
}

/// Under the card, the play that is not on the board, said as such (the
/// card shows the board as it stands); returns the y below it.
fn unmade(c: &mut Canvas, v: &View<Board, Play>, y: f32) -> f32 {
    let (Some(why), Some(p)) = (v.unmade(), v.play) else {
        return y;
    };
    c.text(
        20.0,
        y + 24.0,
        12.0,
        kit::MUTED,
        &format!("PLAY {} (NOT ON THE BOARD)", why.to_uppercase()),
        None,
        Align::Left,
        false,
    );
    let lines = kit::wrap(&play_words(p), 14.0, CARD_W, 2);
    let mut yy = y + 24.0;
    for l in &lines {
        yy += 20.0;
        c.text(
            20.0,
            yy,
            14.0,
            kit::INK,
            l,
            Some(CARD_W),
            Align::Left,
            false,
        );
    }
    yy + 6.0
}

/// The steps the card counts: the activation's record so far, then the
/// play's own when it took effect (a refused play's are not the unit's).
fn steps<'a>(v: &View<'a, Board, Play>, u: &'a Unit) -> Vec<&'a Step> {
    let before = v.before.and_then(|bb| find(bb, &u.name));
    let record = before.map_or(&u.performed, |w| &w.performed);
    let play = v.applied().map(|p| p.steps.as_slice()).unwrap_or_default();
    record.iter().chain(play).collect()
}

fn card(c: &mut Canvas, v: &View<Board, Play>, u: &Unit, y: f32) -> f32 {
    let a = Area {
        x: 20.0,
        y,
        w: CARD_W,
        h: 0.0,
    };
    let cut = u.cut();
    let avail = u.actions.unwrap_or(2u32.saturating_sub(cut)).min(8) as usize;
    let list = steps(v, u);
    let words: Vec<(String, bool)> = list.iter().filter_map(|s| step_words(s)).collect();
    let used = words.iter().filter(|(_, action)| *action).count();
    let frees: Vec<&String> = words.iter().filter(|(_, a)| !*a).map(|(w, _)| w).collect();
    let mut yy = y + 30.0;
    // Header.
    let frame_top = y;
    c.text(
        a.x + 16.0,
        yy,
        12.0,
        kit::MUTED,
        "ACTIVATING UNIT",
        None,
        Align::Left,
        false,
    );
    yy += 26.0;
    c.text(
        a.x + 16.0,
        yy,
        24.0,
        kit::INK,
        &u.name,
        Some(a.w - 32.0),
        Align::Left,
        true,
    );
    yy += 30.0;
    // Action slots: used (with what), left, and those cut by reductions.
    let shown_used: Vec<&String> = words
        .iter()
        .filter(|(_, x)| *x)
        .map(|(w, _)| w)
        .take(MAX_STEPS)
        .collect();
    c.text(
        a.x + 16.0,
        yy,
        15.0,
        kit::INK,
        &format!(
            "Actions: {used} used of {avail}, {} left",
            avail.saturating_sub(used)
        ),
        None,
        Align::Left,
        true,
    );
    yy += 12.0;
    let slot_w = 134.0;
    let slots = avail.max(used).clamp(2, 8);
    for k in 0..slots {
        let x = a.x + 16.0 + (k % 4) as f32 * (slot_w + 8.0);
        let sy = yy + (k / 4) as f32 * 56.0;
        let (fill, stroke, label, sub) = if k < used && k < avail {
            (
                kit::Rgb(0xdc, 0xe8, 0xf8),
                kit::BLUE,
                shown_used.get(k).map_or("", |s| s.as_str()),
                "used",
            )
        } else if k < used {
            (
                kit::Rgb(0xfb, 0xe4, 0xe4),
                kit::RED,
                shown_used.get(k).map_or("", |s| s.as_str()),
                "no action left",
            )
        } else if k < avail {
            (kit::CARD, kit::GREEN, "", "left")
        } else {
            (kit::SPENT, kit::MUTED, "", "cut")
        };
        c.rect(x, sy, slot_w, 48.0, 6.0, Style::both(fill, stroke, 2.0));
        c.text(
            x + 8.0,
            sy + 20.0,
            14.0,
            kit::INK,
            label,
            Some(slot_w - 16.0),
            Align::Left,
            true,
        );
        c.text(
            x + 8.0,
            sy + 39.0,
            12.0,
            stroke,
            sub,
            None,
            Align::Left,
            false,
        );
    }
    yy += (slots.div_ceil(4)) as f32 * 56.0 + 14.0;
    // Reductions (suppression and the like), with their sources.
    if !u.reduced_by.is_empty() {
        c.text(
            a.x + 16.0,
            yy,
            13.0,
            kit::MUTED,
            "SUPPRESSION AND OTHER REDUCTIONS",
            None,
            Align::Left,
            false,
        );
        yy += 20.0;
        for r in u.reduced_by.iter().take(4) {
            c.text(
                a.x + 24.0,
                yy,
                14.0,
                kit::RED,
                &format!(
                    "−{}: {}",
                    kit::plural(r.amount as usize, "action", "actions"),
                    r.source.trim()
                ),
                Some(a.w - 48.0),
                Align::Left,
                false,
            );
            yy += 20.0;
        }
        if let Some(m) = more(u.reduced_by.len(), 4, "reductions") {
            c.text(
                a.x + 24.0,
                yy,
                12.0,
                kit::MUTED,
                &m,
                None,
                Align::Left,
                false,
            );
            yy += 18.0;
        }
        yy += 6.0;
    }
    // Free actions and other steps that use no action.
    if !frees.is_empty() {
        c.text(
            a.x + 16.0,
            yy,
            13.0,
            kit::MUTED,
            "STEPS THAT USE NO ACTION",
            None,
            Align::Left,
            false,
        );
        yy += 20.0;
        for f in frees.iter().take(MAX_STEPS) {
            c.text(
                a.x + 24.0,
                yy,
                14.0,
                kit::INK,
                f,
                Some(a.w - 48.0),
                Align::Left,
                false,
            );
            yy += 20.0;
        }
        yy += 6.0;
    }
    yy = tokens(c, v, u, a.x + 16.0, yy, a.w - 32.0);
    if !u.card_actions.is_empty() || !u.abilities.is_empty() {
        let names: Vec<&str> = u.abilities.iter().map(|x| x.name.as_str()).collect();
        let line = format!(
            "card actions: {} · abilities: {}",
            if u.card_actions.is_empty() {
                "none".to_string()
            } else {
                texts(&u.card_actions).join(", ")
            },
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        );
        c.text(
            a.x + 16.0,
            yy + 4.0,
            13.0,
            kit::MUTED,
            &line,
            Some(a.w - 32.0),
            Align::Left,
            false,
        );
        yy += 20.0;
    }
    let h = yy - frame_top + 4.0;
    c.rect(
        a.x,
        frame_top + 6.0,
        a.w,
        h,
        10.0,
        Style::stroke(kit::INK, 2.0),
    );
    frame_top + 6.0 + h
}

fn tokens(c: &mut Canvas, v: &View<Board, Play>, u: &Unit, x: f32, y: f32, w: f32) -> f32 {
    let mut yy = y;
    c.text(x, yy, 13.0, kit::MUTED, "TOKENS", None, Align::Left, false);
    yy += 8.0;
    if u.tokens.is_empty() {
        c.text(
            x + 8.0,
            yy + 16.0,
            14.0,
            kit::INK,
            "none",
            None,
            Align::Left,
            false,
        );
        return yy + 30.0;
    }
    let before = v
        .before
        .and_then(|bb| find(bb, &u.name))
        .map_or(0, |b| b.tokens.len());
    let mut bx = x;
    for (k, t) in u.tokens.iter().take(12).enumerate() {
        let from = match t.source {
            Some(From::Action) => "from an action".to_string(),
            Some(From::Ability) => format!(
                "from {}",
                t.name.as_ref().map_or("an ability", |n| n.as_str())
            ),
            Some(From::Effect) => format!(
                "from {}",
                t.name.as_ref().map_or("an effect", |n| n.as_str())
            ),
            None => "source not stated".to_string(),
        };
        let label = format!("{} · {from}", t.kind.name());
        let bg = if v.before.is_some() && k >= before {
            kit::GOLD
        } else {
            kit::BLUE
        };
        let bw = kit::text_width(&kit::fit(&label, 12.0, 200.0), 12.0) + 12.0;
        if bx + bw > x + w {
            bx = x;
            yy += 24.0;
        }
        badge(c, bx, yy + 4.0, &label, kit::CARD, bg);
        bx += bw + 6.0;
    }
    yy += 36.0;
    if let Some(m) = more(u.tokens.len(), 12, "tokens") {
        c.text(x, yy, 12.0, kit::MUTED, &m, None, Align::Left, false);
        yy += 18.0;
    }
    yy
}

/// Every player's units: activated this round or waiting. Every player is
/// named: the [`MAX_UNITS`] drawn are shared out between the players (one
/// player's long list left the others undrawn), each counting the rest.
fn units(c: &mut Canvas, v: &View<Board, Play>, x: f32, y: f32) -> f32 {
    let b = v.board;
    let w = W - x - 20.0;
    let mut yy = y + 10.0;
    let mut drawn = 0;
    let seats = b.players.len();
    for (i, p) in b.players.iter().enumerate() {
        let share = (MAX_UNITS.saturating_sub(drawn) / (seats - i)).max(1);
        let mut bx = c.seat_heading(x, yy, i, &p.name);
        if let Some(pts) = p.points {
            bx += c.text(
                bx,
                yy + 20.0,
                13.0,
                kit::MUTED,
                &format!("{pts} points"),
                None,
                Align::Left,
                false,
            ) + 8.0;
        }
        if v.turn(b.turn.as_deref())
            .is_some_and(|t| fold_eq(t, &p.name))
        {
            badge(c, bx, yy + 6.0, "their turn", kit::CARD, kit::GREEN);
        }
        yy += 32.0;
        for u in p.units.iter().take(share) {
            drawn += 1;
            let active = b.active.as_deref().is_some_and(|a| fold_eq(a, &u.name));
            let (word, col) = if active {
                ("activating", kit::GOLD)
            } else if u.activated {
                ("activated", kit::MUTED)
            } else {
                ("waiting", kit::GREEN)
            };
            c.text(
                x + 12.0,
                yy + 14.0,
                14.0,
                kit::INK,
                &u.name,
                Some(w - 110.0),
                Align::Left,
                true,
            );
            badge(c, x + w - 90.0, yy, word, kit::CARD, col);
            yy += 26.0;
        }
        if let Some(m) = more(p.units.len(), p.units.len().min(share), "units") {
            c.text(
                x + 12.0,
                yy + 12.0,
                12.0,
                kit::MUTED,
                &m,
                None,
                Align::Left,
                false,
            );
            yy += 18.0;
        }
        yy += 8.0;
    }
    if let Some(r) = b.last_round {
        c.text(
            x,
            yy + 14.0,
            12.0,
            kit::MUTED,
            &format!("the game ends after round {r}"),
            None,
            Align::Left,
            false,
        );
        yy += 20.0;
    }
    yy
}

fn alt(v: &View<Board, Play>) -> String {
    let b = v.board;
    let mut s = format!("Star Wars: Legion board, {}.", subtitle(v));
    if let Some(verdict) = v.verdict {
        let _ = write!(s, " {}", super::verdict_alt(verdict));
    }
    s.push_str(&v.ending());
    if let Some(u) = activating(v) {
        let cut = u.cut();
        let avail = u.actions.unwrap_or(2u32.saturating_sub(cut));
        let done: Vec<String> = steps(v, u)
            .iter()
            .filter_map(|s| step_words(s))
            .map(|(w, _)| w)
            .collect();
        let avail = kit::plural(avail as usize, "action", "actions");
        let _ = write!(s, " Activating: {}, {avail} available", u.name);
        for r in &u.reduced_by {
            let _ = write!(s, ", reduced by {} ({})", r.amount, r.source.trim());
        }
        if !done.is_empty() {
            let _ = write!(s, "; steps: {}", done.join(", "));
        }
        let toks: Vec<&str> = u.tokens.iter().map(|t| t.kind.name()).collect();
        if !toks.is_empty() {
            let _ = write!(s, "; tokens: {}", toks.join(", "));
        }
        s.push('.');
    }
    if let (Some(why), Some(p)) = (v.unmade(), v.play) {
        let _ = write!(s, " Play {why}, not on the board: {}.", play_words(p));
    }
    let seats: Vec<(String, Vec<String>)> = b
        .players
        .iter()
        .map(|p| {
            let head = match p.points {
                Some(pts) => format!("{} ({pts} points)", p.name),
                None => p.name.to_string(),
            };
            let us = p
                .units
                .iter()
                .map(|u| {
                    format!(
                        "{}{}",
                        u.name,
                        if u.activated { " (activated)" } else { "" }
                    )
                })
                .collect();
            (head, us)
        })
        .collect();
    seats_alt(&mut s, &seats, ", ", "");
    s
}
