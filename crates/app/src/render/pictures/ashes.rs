//! Ashes Reborn: each player's battlefield (Phoenixborn and units with
//! attack, life, damage and exhaustion); a ruling's attackers, target,
//! blockers or guard and counters as arrows; what changed marked.

use std::fmt::Write as _;

use super::kit::{self, Align, Area, Canvas, Places, Rgb, Style};
use super::{View, badge, banner, mark, more, seats_alt};
use crate::engine::ashes::board::{Board, Phase, Phoenixborn, Said, Unit};
use crate::engine::ashes::plays::{OneOrMany, Play};
use crate::text::fold_eq;

const W: f32 = 1000.0;
const PB_W: f32 = 180.0;
const CARD_W: f32 = 138.0;
const CARD_H: f32 = 124.0;
const GAP: f32 = 10.0;
const PER_ROW: usize = 5;
const MAX_ROWS: usize = 2;

/// Seats drawn with two rows of units each; a larger board's seats get
/// one row each, and the picture is shrunk to fit (every seat is drawn:
/// the fifth seat, an attack's target, was left out).
const ROOMY_PLAYERS: usize = 4;

pub(super) fn draw(v: &View<Board, Play>) -> (Canvas, String) {
    let b = v.board;
    let max_rows = max_rows(b);
    let dead = destroyed(v);
    let rows: usize = b
        .players
        .iter()
        .map(|p| {
            rows_for(
                p.units.len() + gone(v, &dead, p.name.as_str()).len(),
                max_rows,
            )
        })
        .sum();
    let ended = if v.result.is_some() { 60.0 } else { 0.0 };
    let refused = if v.verdict.is_some_and(|v| !v.refusals.is_empty()) {
        super::REFUSALS_HEIGHT
    } else {
        0.0
    };
    let height = 130.0
        + b.players.len() as f32 * 76.0
        + rows as f32 * (CARD_H + GAP)
        + 60.0
        + ended
        + refused;
    let mut c = Canvas::tall(W as u32, height as u32, kit::PAPER);
    let mut y = banner(&mut c, "Ashes Reborn", &subtitle(v), v.verdict, v.result);
    let mut places = Places::default();
    for i in 0..b.players.len() {
        y = player(&mut c, v, &dead, i, y, max_rows, &mut places);
    }
    if let (Some(why), Some(p)) = (v.unmade(), v.play) {
        y = super::unmade_line(&mut c, why, &play_words(p), y);
    }
    if let Some(play) = v.attempted() {
        arrows(&mut c, v, play, &places);
        legend(&mut c, y + 4.0);
        y += 24.0;
    }
    c.crop(y + 6.0);
    (c, alt(v))
}

/// Rows of units a seat is given: two, one on a board of many seats.
fn max_rows(b: &Board) -> usize {
    if b.players.len() > ROOMY_PLAYERS {
        1
    } else {
        MAX_ROWS
    }
}

fn rows_for(n: usize, max_rows: usize) -> usize {
    n.div_ceil(PER_ROW).clamp(1, max_rows)
}

fn subtitle(v: &View<Board, Play>) -> String {
    let b = v.board;
    let phase = match b.phase {
        Phase::PlayerTurns => "player turns",
        Phase::Recovery => "recovery",
    };
    let mut s = format!(
        "round {} · {phase}{}",
        b.round,
        v.standing(b.turn.as_deref())
    );
    if b.main_action_used && v.result.is_none() {
        s.push_str(" · main action used");
    }
    s
}

/// The units the play destroyed as the engine's procedure left them,
/// with their seats (the damage that destroyed them; the board after no
/// longer holds them): none without a play on the board.
fn destroyed(v: &View<Board, Play>) -> Vec<(usize, Unit)> {
    match (v.before, v.applied()) {
        (Some(before), Some(play)) => crate::engine::ashes::destroyed(before, play, v.board),
        _ => Vec::new(),
    }
}

/// Units of `player` on the board before that are gone after: each as it
/// was destroyed when the engine says (`dead`, from [`destroyed`]), else
/// as it was before.
fn gone<'a>(v: &View<'a, Board, Play>, dead: &'a [(usize, Unit)], player: &str) -> Vec<&'a Unit> {
    let Some(before) = v.before else {
        return Vec::new();
    };
    let now = v.board.players.iter().find(|p| p.name == player);
    let seat = before.players.iter().position(|p| p.name == player);
    before
        .players
        .iter()
        .filter(|p| p.name == player)
        .flat_map(|p| &p.units)
        .filter(|u| !now.is_some_and(|n| n.units.iter().any(|x| fold_eq(&x.name, &u.name))))
        .map(|u| {
            dead.iter()
                .find(|(s, d)| Some(*s) == seat && d.name == u.name)
                .map_or(u, |(_, d)| d)
        })
        .collect()
}

fn player(
    c: &mut Canvas,
    v: &View<Board, Play>,
    dead: &[(usize, Unit)],
    i: usize,
    y: f32,
    max_rows: usize,
    places: &mut Places,
) -> f32 {
    let b = v.board;
    let p = &b.players[i];
    let colour = kit::seat(i);
    c.block(20.0, y + 4.0, 6.0, 24.0, colour);
    let mut x = 34.0
        + c.text(
            34.0,
            y + 23.0,
            19.0,
            colour,
            &p.name,
            Some(360.0),
            Align::Left,
            true,
        );
    x += 10.0;
    if v.turn(b.turn.as_deref()) == Some(p.name.as_str()) {
        x += badge(c, x, y + 8.0, "their turn", kit::CARD, kit::GREEN) + 6.0;
    }
    if v.out.contains(&i) {
        x += badge(c, x, y + 8.0, "out of the game", kit::CARD, kit::RED) + 6.0;
    }
    if b.consecutive_passes.iter().any(|n| fold_eq(n, &p.name)) {
        badge(c, x, y + 8.0, "passed", kit::CARD, kit::MUTED);
    }
    let top = y + 36.0;
    let before = v
        .before
        .and_then(|bb| bb.players.iter().find(|q| q.name == p.name));
    let pb_area = Area {
        x: 20.0,
        y: top,
        w: PB_W,
        h: CARD_H,
    };
    phoenixborn(
        c,
        &p.phoenixborn,
        before.map(|q| &q.phoenixborn),
        pb_area,
        colour,
    );
    places.put(&p.phoenixborn.name, pb_area);
    places.put(&p.name, pb_area);
    let ghosts = gone(v, dead, &p.name);
    let total = p.units.len() + ghosts.len();
    let shown = total.min(PER_ROW * max_rows);
    let mut cards: Vec<(&Unit, bool)> = p
        .units
        .iter()
        .map(|u| (u, false))
        .chain(ghosts.iter().map(|u| (*u, true)))
        .collect();
    if shown < total {
        ruling_first(v, &p.name, &mut cards);
    }
    for (k, (u, ghost)) in cards.into_iter().take(shown).enumerate() {
        let area = Area {
            x: 20.0 + PB_W + GAP + (k % PER_ROW) as f32 * (CARD_W + GAP),
            y: top + (k / PER_ROW) as f32 * (CARD_H + GAP),
            w: CARD_W,
            h: CARD_H,
        };
        let was = before.and_then(|q| q.units.iter().find(|x| fold_eq(&x.name, &u.name)));
        unit(c, u, was, ghost, v.before.is_some(), area);
        places.put(&u.name, area);
    }
    if total == 0 {
        c.text(
            20.0 + PB_W + GAP,
            top + 30.0,
            14.0,
            kit::MUTED,
            "no units in play",
            None,
            Align::Left,
            false,
        );
    }
    let mut bottom = top + rows_for(total, max_rows) as f32 * (CARD_H + GAP);
    if let Some(m) = more(total, shown, "units") {
        c.text(
            20.0 + PB_W + GAP,
            bottom + 8.0,
            13.0,
            kit::MUTED,
            &m,
            Some(600.0),
            Align::Left,
            false,
        );
        bottom += 16.0;
    }
    bottom + 14.0
}

/// Puts the units the ruling names or changes first (stably): past a
/// seat's cap, an attacker that was its 64th unit went undrawn, and its
/// arrows with it. The alt text lists a seat's units in the same order.
fn ruling_first(v: &View<Board, Play>, player: &str, cards: &mut [(&Unit, bool)]) {
    let named = v.attempted().map(named).unwrap_or_default();
    let before = v
        .before
        .and_then(|bb| bb.players.iter().find(|q| q.name == player));
    cards.sort_by_key(|(u, ghost)| {
        let was = before.and_then(|q| q.units.iter().find(|x| fold_eq(&x.name, &u.name)));
        let changed =
            *ghost || was.is_none_or(|w| w.damage != u.damage || w.exhausted != u.exhausted);
        let played = named.iter().any(|n| fold_eq(n, &u.name));
        !(played || (changed && v.before.is_some()))
    });
}

/// A play in words, for one not on the board: "Coal: attack Mist
/// Spirit with Hammer Knight, Hammer Knight".
fn play_words(p: &Play) -> String {
    let (who, what) = match p {
        Play::AttackPhoenixborn {
            player,
            attackers,
            target,
            ..
        } => (
            player,
            format!(
                "attack {} with {}",
                target.as_ref().map_or("a Phoenixborn", |t| t.as_str()),
                list(attackers.iter().map(|a| a.as_str()))
            ),
        ),
        Play::AttackUnit {
            player,
            attackers,
            target,
            ..
        } => (
            player,
            format!(
                "attack {target} with {}",
                list(attackers.iter().map(|a| a.as_str()))
            ),
        ),
        Play::Pass { player } => (player, "pass".to_string()),
        Play::PayCost { player, card, .. } => (player, format!("pay the cost of {card}")),
    };
    match who {
        Some(w) => format!("{w}: {what}"),
        None => what,
    }
}

/// Names joined with ", " (the first 8, the rest counted).
fn list<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<&str> = names.collect();
    let mut s = all.iter().take(8).copied().collect::<Vec<_>>().join(", ");
    if all.len() > 8 {
        let _ = write!(s, " and {} more", all.len() - 8);
    }
    if s.is_empty() { "no units".into() } else { s }
}

/// The units a play names: attackers, target, blockers, guards.
fn named(play: &Play) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    match play {
        Play::AttackPhoenixborn {
            attackers, blocks, ..
        } => {
            out.extend(attackers.iter().map(|a| a.as_str()));
            out.extend(
                blocks
                    .iter()
                    .filter_map(|b| b.blocker.as_ref().map(|n| n.as_str())),
            );
        }
        Play::AttackUnit {
            attackers,
            target,
            guard,
            ..
        } => {
            out.extend(attackers.iter().map(|a| a.as_str()));
            out.push(target.as_str());
            match guard {
                Some(OneOrMany::One(g)) => out.push(g.as_str()),
                Some(OneOrMany::Many(g)) => out.extend(g.iter().map(|n| n.as_str())),
                None => {}
            }
        }
        Play::Pass { .. } | Play::PayCost { .. } => {}
    }
    out
}

/// Life left as a bar: green for what remains, red for damage.
fn life_bar(c: &mut Canvas, x: f32, y: f32, w: f32, life: u32, damage: u32) {
    let life = life.max(1) as f32;
    let dmg = (damage as f32).min(life);
    c.block(x, y, w, 8.0, Rgb(0xa5, 0xd6, 0xa7));
    c.block(x + w * (1.0 - dmg / life), y, w * dmg / life, 8.0, kit::RED);
}

fn phoenixborn(c: &mut Canvas, pb: &Phoenixborn, was: Option<&Phoenixborn>, a: Area, colour: Rgb) {
    let fill = if pb.exhausted { kit::SPENT } else { kit::CARD };
    c.rect(a.x, a.y, a.w, a.h, 8.0, Style::both(fill, colour, 3.0));
    c.text(
        a.x + 10.0,
        a.y + 16.0,
        11.0,
        kit::MUTED,
        "PHOENIXBORN",
        None,
        Align::Left,
        false,
    );
    c.text(
        a.x + 10.0,
        a.y + 36.0,
        16.0,
        kit::INK,
        &pb.name,
        Some(a.w - 20.0),
        Align::Left,
        true,
    );
    let left = pb.life.saturating_sub(*pb.damage);
    c.text(
        a.x + 10.0,
        a.y + 64.0,
        22.0,
        kit::INK,
        &format!("{left}"),
        None,
        Align::Left,
        true,
    );
    c.text(
        a.x + 50.0,
        a.y + 64.0,
        13.0,
        kit::MUTED,
        &format!("of {} life left", pb.life),
        None,
        Align::Left,
        false,
    );
    life_bar(c, a.x + 10.0, a.y + 74.0, a.w - 20.0, *pb.life, *pb.damage);
    c.text(
        a.x + 10.0,
        a.y + 100.0,
        13.0,
        kit::RED,
        &format!("damage {}", pb.damage),
        None,
        Align::Left,
        false,
    );
    if pb.exhausted {
        c.text(
            a.x + a.w - 10.0,
            a.y + 100.0,
            13.0,
            kit::INK,
            "exhausted",
            None,
            Align::Right,
            true,
        );
    }
    if let Some(w) = was {
        mark(
            c,
            a,
            &deltas(*w.damage, *pb.damage, w.exhausted, pb.exhausted),
        );
    }
}

fn unit(c: &mut Canvas, u: &Unit, was: Option<&Unit>, ghost: bool, judged: bool, a: Area) {
    let fill = if ghost || u.exhausted {
        kit::SPENT
    } else {
        kit::CARD
    };
    let mut style = Style::both(fill, kit::LINE, 1.5);
    if ghost {
        style = Style::both(fill, kit::RED, 2.0).dashed();
    }
    c.rect(a.x, a.y, a.w, a.h, 8.0, style);
    c.text(
        a.x + 8.0,
        a.y + 20.0,
        14.0,
        kit::INK,
        &u.name,
        Some(a.w - 16.0),
        Align::Left,
        true,
    );
    c.text(
        a.x + 8.0,
        a.y + 46.0,
        12.0,
        kit::MUTED,
        "attack",
        None,
        Align::Left,
        false,
    );
    c.text(
        a.x + 8.0,
        a.y + 68.0,
        22.0,
        kit::INK,
        &u.attack.to_string(),
        None,
        Align::Left,
        true,
    );
    c.text(
        a.x + a.w - 8.0,
        a.y + 46.0,
        12.0,
        kit::MUTED,
        "life",
        None,
        Align::Right,
        false,
    );
    c.text(
        a.x + a.w - 8.0,
        a.y + 68.0,
        22.0,
        kit::INK,
        &u.life.to_string(),
        None,
        Align::Right,
        true,
    );
    life_bar(c, a.x + 8.0, a.y + 76.0, a.w - 16.0, *u.life, *u.damage);
    let status = if ghost {
        format!("damage {} · destroyed", u.damage)
    } else if u.exhausted {
        format!("damage {} · exhausted", u.damage)
    } else {
        format!("damage {}", u.damage)
    };
    let colour = if ghost { kit::RED } else { kit::INK };
    c.text(
        a.x + 8.0,
        a.y + 100.0,
        12.0,
        colour,
        &status,
        Some(a.w - 16.0),
        Align::Left,
        ghost,
    );
    if !u.abilities.is_empty() {
        c.text(
            a.x + 8.0,
            a.y + 116.0,
            11.0,
            kit::MUTED,
            &u.abilities
                .iter()
                .map(|a| a.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            Some(a.w - 16.0),
            Align::Left,
            false,
        );
    }
    match was {
        // A destroyed unit: the damage that destroyed it (exhaustion no
        // longer matters).
        Some(w) if ghost => mark(c, a, &deltas(*w.damage, *u.damage, false, false)),
        Some(w) => mark(
            c,
            a,
            &deltas(*w.damage, *u.damage, w.exhausted, u.exhausted),
        ),
        None if judged && !ghost => mark(c, a, "new"),
        _ => {}
    }
}

fn deltas(d0: u32, d1: u32, e0: bool, e1: bool) -> String {
    let mut parts = Vec::new();
    if d1 > d0 {
        parts.push(format!("+{} damage", d1 - d0));
    } else if d1 < d0 {
        parts.push(format!("−{} damage", d0 - d1));
    }
    if e1 && !e0 {
        parts.push("exhausted".to_string());
    } else if e0 && !e1 {
        parts.push("readied".to_string());
    }
    parts.join(", ")
}

/// The play's arrows as the ruling took it: a blocker, guard or counter it
/// refused is not drawn (the attacker it was stated for goes unblocked;
/// an outside judge's exhausted blocker had its block and counter drawn).
fn arrows(c: &mut Canvas, v: &View<Board, Play>, play: &Play, places: &Places) {
    let b = v.board;
    match play {
        Play::AttackPhoenixborn {
            attackers,
            target,
            blocks,
            ..
        } => {
            for a in attackers {
                let blocked = blocks.iter().enumerate().find(|(j, b)| {
                    fold_eq(&b.attacker, a) && !v.refused(&format!("blocks[{j}].blocker"))
                });
                match blocked.and_then(|(j, b)| Some((j, b.blocker.as_deref()?))) {
                    Some((j, blocker)) => {
                        places.arrow(c, a, blocker, kit::RED, 0.0);
                        places.arrow(c, blocker, a, kit::BLUE, 9.0);
                        let counter = blocked.and_then(|(_, b)| b.counter) == Some(true);
                        if counter && !v.refused(&format!("blocks[{j}].counter")) {
                            places.arrow(c, blocker, a, kit::PURPLE, 18.0);
                        }
                    }
                    None => {
                        if let Some(t) = attacked(v.before.unwrap_or(b), play, target.as_ref()) {
                            places.arrow(c, a, t, kit::RED, 0.0);
                        }
                    }
                }
            }
        }
        Play::AttackUnit {
            attackers,
            target,
            guard,
            counter: ctr,
            ..
        } => {
            let stated: Vec<&str> = match guard {
                _ if v.refused("guard") => Vec::new(),
                Some(OneOrMany::One(g)) => vec![g.as_str()],
                Some(OneOrMany::Many(g)) => g.iter().map(|n| n.as_str()).collect(),
                None => Vec::new(),
            };
            let countered = *ctr == Some(true) && !v.refused("counter");
            let guards: Vec<&str> = stated
                .into_iter()
                .filter_map(|g| guard_drawn(b, target, g))
                .collect();
            let defender = guards.first().copied().unwrap_or(target.as_str());
            for a in attackers {
                places.arrow(c, a, defender, kit::RED, 0.0);
                if countered {
                    places.arrow(c, defender, a, kit::PURPLE, 9.0);
                }
            }
            for g in &guards {
                places.arrow(c, g, target, kit::BLUE, 0.0);
            }
        }
        Play::Pass { .. } | Play::PayCost { .. } => {}
    }
}

/// The Phoenixborn an attack on one points at: its `target` as written,
/// else the one opponent the engine resolved it to (`target` is optional
/// with one opponent; an outside tester's attack that left it out had no
/// arrow though its damage was ruled). Read off the board the engine
/// judged, by the engine's own reading.
fn attacked<'p>(judged: &'p Board, play: &Play, target: Option<&'p Said>) -> Option<&'p str> {
    if let Some(t) = target {
        return Some(t.as_str());
    }
    let seat = crate::engine::ashes::unnamed_target(judged, play)?;
    Some(judged.players.get(seat)?.phoenixborn.name.as_str())
}

/// What a stated guard points from: the unit named, the defender's
/// Phoenixborn for the engine's keywords ("phoenixborn", "pb", her own
/// name), nothing for "none" (as the engine reads them).
fn guard_drawn<'a>(b: &'a Board, target: &str, guard: &'a str) -> Option<&'a str> {
    let key = crate::text::fold(guard);
    if matches!(key.as_str(), "none" | "noguard" | "no") {
        return None;
    }
    let defender = b
        .players
        .iter()
        .find(|p| p.units.iter().any(|u| fold_eq(&u.name, target)));
    let names_pb = defender.is_some_and(|p| {
        fold_eq(&p.name, guard) && !p.units.iter().any(|u| fold_eq(&u.name, guard))
    });
    if matches!(key.as_str(), "phoenixborn" | "pb" | "myphoenixborn") || names_pb {
        return defender.map(|p| p.phoenixborn.name.as_str());
    }
    Some(guard)
}

fn legend(c: &mut Canvas, y: f32) {
    let items = [
        (kit::RED, "attack"),
        (kit::BLUE, "block or guard"),
        (kit::PURPLE, "counter"),
        (kit::GOLD, "changed by the ruling"),
    ];
    let mut x = 20.0;
    for (col, label) in items {
        c.block(x, y, 22.0, 5.0, col);
        x +=
            28.0 + c.text(
                x + 28.0,
                y + 6.0,
                13.0,
                kit::INK,
                label,
                None,
                Align::Left,
                false,
            ) + 20.0;
    }
}

fn alt(v: &View<Board, Play>) -> String {
    let b = v.board;
    let dead = destroyed(v);
    let mut s = format!("Ashes Reborn board, {}.", subtitle(v));
    if let Some(verdict) = v.verdict {
        let _ = write!(s, " {}", super::verdict_alt(verdict));
    }
    s.push_str(&v.ending());
    let mut seats = Vec::new();
    for (i, p) in b.players.iter().enumerate() {
        let pb = &p.phoenixborn;
        let head = format!(
            "{}{}: Phoenixborn {} {} of {} life left{}; units",
            p.name,
            if v.out.contains(&i) {
                " (out of the game)"
            } else {
                ""
            },
            pb.name,
            pb.life.saturating_sub(*pb.damage),
            pb.life,
            if pb.exhausted { ", exhausted" } else { "" }
        );
        let mut head = head;
        let ghosts = gone(v, &dead, &p.name);
        let mut order: Vec<(&Unit, bool)> = p
            .units
            .iter()
            .map(|u| (u, false))
            .chain(ghosts.iter().map(|u| (*u, true)))
            .collect();
        // A seat the picture caps is listed as drawn: the ruling's units
        // first, and how many the picture shows (it drew 10 of Coal's
        // units while this named one, "… and 63 more").
        let total = order.len();
        let shown = total.min(PER_ROW * max_rows(b));
        if shown < total {
            ruling_first(v, &p.name, &mut order);
            let _ = write!(head, " ({shown} of {total} drawn)");
        }
        let units: Vec<String> = order
            .iter()
            .map(|(u, ghost)| {
                format!(
                    "{} {}/{} damage {}{}",
                    u.name,
                    u.attack,
                    u.life,
                    u.damage,
                    match (ghost, u.exhausted) {
                        (true, _) => " destroyed",
                        (false, true) => " exhausted",
                        (false, false) => "",
                    }
                )
            })
            .collect();
        seats.push((head, units));
    }
    let tail = match (v.unmade(), v.play) {
        (Some(why), Some(p)) => super::unmade_alt(why, &play_words(p)),
        _ => String::new(),
    };
    seats_alt(&mut s, &seats, ", ", &tail);
    s.push_str(&tail);
    s
}
