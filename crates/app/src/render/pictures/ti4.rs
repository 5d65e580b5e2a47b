//! Twilight Imperium 4: the strategy cards in initiative order, each
//! readied or exhausted and whose it is; the players in initiative order
//! with who has passed and whose turn it is; the action taken this turn.

use std::fmt::Write as _;

use super::kit::{self, Align, Area, Canvas, Rgb, Style};
use super::{View, badge, banner, mark, more, seats_alt};
use crate::engine::ti4::board::{Board, Card, Phase, STANDARD_CARDS, TurnAction};
use crate::engine::ti4::plays::Play;
use crate::text::fold_eq;

const W: f32 = 1000.0;
const MAX_CARDS: usize = 8;
const MAX_PLAYERS: usize = 8;
const ROW_H: f32 = 40.0;

/// The standard cards' colours, by initiative.
const CARD_COLOURS: [Rgb; 8] = [
    Rgb(0xc6, 0x28, 0x28),
    Rgb(0xef, 0x6c, 0x00),
    Rgb(0xf9, 0xa8, 0x25),
    Rgb(0x2e, 0x7d, 0x32),
    Rgb(0x00, 0x83, 0x8f),
    Rgb(0x15, 0x65, 0xc0),
    Rgb(0x28, 0x35, 0x93),
    Rgb(0x6a, 0x1b, 0x9a),
];

fn initiative(c: &Card) -> u8 {
    c.initiative.map(|i| i.get() as u8).unwrap_or_else(|| {
        STANDARD_CARDS
            .iter()
            .position(|s| fold_eq(s, &c.name))
            .map_or(u8::MAX, |i| i as u8 + 1)
    })
}

fn seat_initiative(b: &Board, p: usize) -> u8 {
    b.players[p]
        .strategy_cards
        .iter()
        .map(initiative)
        .min()
        .unwrap_or(u8::MAX)
}

/// Seats in initiative order (lowest card first).
fn order(b: &Board) -> Vec<usize> {
    let mut o: Vec<usize> = (0..b.players.len()).collect();
    o.sort_by_key(|&i| (seat_initiative(b, i), i));
    o
}

/// Every card on the track: standard ones (held or not) and any other a
/// player holds, in initiative order, with their holder's seat.
/// A card on the track: initiative, name, and its holder's seat and card.
type Slot<'a> = (u8, String, Option<(usize, &'a Card)>);

fn track(b: &Board) -> Vec<Slot<'_>> {
    let mut out: Vec<Slot> = Vec::new();
    for (i, p) in b.players.iter().enumerate() {
        for c in &p.strategy_cards {
            out.push((initiative(c), c.name.to_string(), Some((i, c))));
        }
    }
    for (k, name) in STANDARD_CARDS.iter().enumerate() {
        if !out.iter().any(|(_, n, _)| fold_eq(n, name)) {
            out.push((k as u8 + 1, (*name).to_string(), None));
        }
    }
    out.sort_by_key(|(n, _, held)| (*n, held.map(|h| h.0)));
    out
}

fn phase(b: &Board) -> &'static str {
    match b.phase {
        Phase::Strategy => "strategy phase",
        Phase::Action => "action phase",
        Phase::Status => "status phase",
    }
}

fn subtitle(v: &View<Board, Play>) -> String {
    let b = v.board;
    format!(
        "round {} · {}{}",
        b.round,
        phase(b),
        v.standing(b.turn.as_deref())
    )
}

pub(super) fn draw(v: &View<Board, Play>) -> (Canvas, String) {
    let mut c = Canvas::new(W as u32, kit::MAX_HEIGHT, kit::PAPER);
    let mut y = banner(
        &mut c,
        "Twilight Imperium 4",
        &subtitle(v),
        v.verdict,
        v.result,
    );
    c.text(
        20.0,
        y + 14.0,
        13.0,
        kit::MUTED,
        "STRATEGY CARDS IN INITIATIVE ORDER",
        None,
        Align::Left,
        false,
    );
    y = cards(&mut c, v, y + 24.0);
    c.text(
        20.0,
        y + 14.0,
        13.0,
        kit::MUTED,
        "PLAYERS IN INITIATIVE ORDER",
        None,
        Align::Left,
        false,
    );
    y = players(&mut c, v, y + 24.0);
    y = this_turn(&mut c, v, y + 8.0);
    c.crop(y + 10.0);
    (c, alt(v))
}

fn cards(c: &mut Canvas, v: &View<Board, Play>, y: f32) -> f32 {
    let b = v.board;
    let all = track(b);
    let shown = all.len().min(MAX_CARDS);
    let w = (W - 40.0 - 7.0 * 10.0) / 8.0;
    let h = 132.0;
    for (k, (n, name, held)) in all.iter().take(shown).enumerate() {
        let a = Area {
            x: 20.0 + k as f32 * (w + 10.0),
            y: y + 8.0,
            w,
            h,
        };
        let colour = CARD_COLOURS
            .get(usize::from(n.saturating_sub(1)))
            .copied()
            .unwrap_or(kit::MUTED);
        let exhausted = held.is_some_and(|(_, card)| card.exhausted);
        let fill = if held.is_none() || exhausted {
            kit::SPENT
        } else {
            kit::CARD
        };
        c.rect(a.x, a.y, a.w, a.h, 8.0, Style::both(fill, colour, 2.0));
        c.block(
            a.x + 2.0,
            a.y + 2.0,
            a.w - 4.0,
            30.0,
            if held.is_none() { kit::LINE } else { colour },
        );
        let label = if *n == u8::MAX {
            "?".to_string()
        } else {
            n.to_string()
        };
        c.text(
            a.x + 10.0,
            a.y + 26.0,
            22.0,
            kit::CARD,
            &label,
            None,
            Align::Left,
            true,
        );
        c.text(
            a.x + 8.0,
            a.y + 52.0,
            14.0,
            kit::INK,
            name,
            Some(a.w - 16.0),
            Align::Left,
            true,
        );
        match held {
            Some((seat, card)) => {
                let holder = &b.players[*seat].name;
                c.text(
                    a.x + 8.0,
                    a.y + 76.0,
                    14.0,
                    kit::seat(*seat),
                    holder,
                    Some(a.w - 16.0),
                    Align::Left,
                    true,
                );
                let (word, col) = if card.exhausted {
                    ("exhausted", kit::MUTED)
                } else {
                    ("readied", kit::GREEN)
                };
                badge(c, a.x + 8.0, a.y + 92.0, word, kit::CARD, col);
                let was = v
                    .before
                    .and_then(|bb| bb.players.iter().find(|p| p.name == *holder))
                    .and_then(|p| p.strategy_cards.iter().find(|x| fold_eq(&x.name, name)));
                if let Some(w0) = was
                    && w0.exhausted != card.exhausted
                {
                    mark(
                        c,
                        a,
                        if card.exhausted {
                            "exhausted"
                        } else {
                            "readied"
                        },
                    );
                }
            }
            None => {
                c.text(
                    a.x + 8.0,
                    a.y + 76.0,
                    13.0,
                    kit::MUTED,
                    "not chosen",
                    None,
                    Align::Left,
                    false,
                );
            }
        }
    }
    let mut bottom = y + 8.0 + h + 8.0;
    if let Some(m) = more(all.len(), shown, "strategy cards") {
        c.text(
            20.0,
            bottom + 12.0,
            13.0,
            kit::MUTED,
            &m,
            Some(W - 40.0),
            Align::Left,
            false,
        );
        bottom += 18.0;
    }
    bottom
}

fn players(c: &mut Canvas, v: &View<Board, Play>, y: f32) -> f32 {
    let b = v.board;
    let seats = order(b);
    let shown = seats.len().min(MAX_PLAYERS);
    let mut y = y;
    for (k, &i) in seats.iter().take(shown).enumerate() {
        let p = &b.players[i];
        let turn = v
            .turn(b.turn.as_deref())
            .is_some_and(|t| fold_eq(t, &p.name));
        let fill = if p.passed { kit::SPENT } else { kit::CARD };
        let a = Area {
            x: 20.0,
            y,
            w: W - 40.0,
            h: ROW_H - 6.0,
        };
        let stroke = if turn { kit::GREEN } else { kit::LINE };
        c.rect(
            a.x,
            a.y,
            a.w,
            a.h,
            6.0,
            Style::both(fill, stroke, if turn { 3.0 } else { 1.0 }),
        );
        c.block(a.x + 3.0, a.y + 3.0, 6.0, a.h - 6.0, kit::seat(i));
        c.text(
            a.x + 20.0,
            a.y + 23.0,
            15.0,
            kit::MUTED,
            &format!("{}.", k + 1),
            None,
            Align::Left,
            false,
        );
        c.text(
            a.x + 46.0,
            a.y + 23.0,
            16.0,
            kit::seat(i),
            &p.name,
            Some(190.0),
            Align::Left,
            true,
        );
        let faction = p.faction.as_deref().unwrap_or("");
        c.text(
            a.x + 236.0,
            a.y + 23.0,
            14.0,
            kit::INK,
            faction,
            Some(220.0),
            Align::Left,
            false,
        );
        let cards: Vec<String> = p
            .strategy_cards
            .iter()
            .map(|s| {
                format!(
                    "{}{}",
                    s.name,
                    if s.exhausted { " (exhausted)" } else { "" }
                )
            })
            .collect();
        c.text(
            a.x + 466.0,
            a.y + 23.0,
            13.0,
            kit::MUTED,
            &cards.join(", "),
            Some(300.0),
            Align::Left,
            false,
        );
        let vp = p
            .victory_points
            .map(|n| format!("{n} VP"))
            .unwrap_or_default();
        c.text(
            a.x + a.w - 120.0,
            a.y + 23.0,
            14.0,
            kit::INK,
            &vp,
            None,
            Align::Right,
            true,
        );
        if turn {
            badge(
                c,
                a.x + a.w - 110.0,
                a.y + 8.0,
                "their turn",
                kit::CARD,
                kit::GREEN,
            );
        } else if p.passed {
            badge(
                c,
                a.x + a.w - 110.0,
                a.y + 8.0,
                "passed",
                kit::CARD,
                kit::MUTED,
            );
        }
        let was = v
            .before
            .and_then(|bb| bb.players.iter().find(|q| q.name == p.name));
        if let Some(w0) = was
            && w0.passed != p.passed
        {
            mark(
                c,
                a,
                if p.passed {
                    "passed"
                } else {
                    "no longer passed"
                },
            );
        }
        y += ROW_H;
    }
    if let Some(m) = more(seats.len(), shown, "players") {
        c.text(
            20.0,
            y + 12.0,
            13.0,
            kit::MUTED,
            &m,
            Some(W - 40.0),
            Align::Left,
            false,
        );
        y += 18.0;
    }
    y
}

fn this_turn(c: &mut Canvas, v: &View<Board, Play>, y: f32) -> f32 {
    let t = &v.board.this_turn;
    let mut lines = Vec::new();
    let action = match (t.action, &t.card) {
        (TurnAction::Strategic, Some(card)) => format!("a strategic action ({card})"),
        (a, _) => a.label().to_string(),
    };
    lines.push(format!("This turn: {action}"));
    for (what, list) in [
        ("start of turn", &t.start_of_turn),
        ("end of action", &t.end_of_action),
        ("end of turn", &t.end_of_turn),
    ] {
        if !list.is_empty() {
            lines.push(format!("{what}: {}", list.join(", ")));
        }
    }
    if let Some(p) = v.play {
        lines.push(format!("{}: {}", v.play_label(), play(p)));
    }
    let h = 14.0 + 22.0 * lines.len() as f32;
    c.rect(
        20.0,
        y,
        W - 40.0,
        h,
        6.0,
        Style::both(kit::CARD, kit::LINE, 1.0),
    );
    for (k, l) in lines.iter().enumerate() {
        c.text(
            32.0,
            y + 26.0 + 22.0 * k as f32,
            15.0,
            kit::INK,
            l,
            Some(W - 64.0),
            Align::Left,
            k == 0,
        );
    }
    y + h
}

fn play(p: &Play) -> String {
    match p {
        Play::StrategicAction { player, card } => format!(
            "{player} takes a strategic action{}",
            card.as_deref()
                .map(|c| format!(" ({c})"))
                .unwrap_or_default()
        ),
        Play::TacticalAction { player, system } => format!(
            "{player} takes a tactical action{}",
            system
                .as_deref()
                .map(|s| format!(" in {s}"))
                .unwrap_or_default()
        ),
        Play::ComponentAction { player, source } => format!(
            "{player} takes a component action{}",
            source
                .as_deref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default()
        ),
        Play::Pass { player, .. } => format!("{player} passes"),
        Play::ActionCard { player, card, .. } => format!("{player} plays the action card {card}"),
        Play::Transaction { player, with, .. } => format!("{player} trades with {with}"),
        Play::Secondary { player, card } => format!("{player} uses the secondary of {card}"),
        Play::StartOfTurn { player, ability } => format!("{player}: start of turn, {ability}"),
        Play::EndOfAction { player, ability } => format!("{player}: end of action, {ability}"),
        Play::EndOfTurn { player, ability } => format!("{player}: end of turn, {ability}"),
        Play::EndTurn { player } => format!("{player} ends their turn"),
    }
}

fn alt(v: &View<Board, Play>) -> String {
    let b = v.board;
    let mut s = format!("Twilight Imperium 4 board, {}.", subtitle(v));
    if let Some(verdict) = v.verdict {
        let _ = write!(s, " {}", super::verdict_alt(verdict));
    }
    s.push_str(&v.ending());
    s.push_str(" Initiative order:");
    let seats: Vec<(String, Vec<String>)> = order(b)
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let p = &b.players[i];
            let head = format!(
                "{}. {}{}{}",
                k + 1,
                p.name,
                if p.passed { ", passed" } else { "" },
                p.victory_points
                    .map(|n| format!(", {n} VP"))
                    .unwrap_or_default()
            );
            let cards = p
                .strategy_cards
                .iter()
                .map(|c| {
                    format!(
                        "{} {}",
                        c.name,
                        if c.exhausted { "exhausted" } else { "readied" }
                    )
                })
                .collect();
            (head, cards)
        })
        .collect();
    let tail = v
        .play
        .map(|p| format!(" {}: {}.", v.play_label(), play(p)))
        .unwrap_or_default();
    seats_alt(&mut s, &seats, ", ", &tail);
    s.push_str(&tail);
    s
}
