//! Grand Archive: each player's champion, allies awake or rested, objects
//! and reserve; a declared attack as arrows (attacker, weapons, target)
//! with its costs; combat and the effects stack.

use std::fmt::Write as _;

use super::kit::{self, Align, Area, Canvas, Places, Style};
use super::{View, badge, banner, mark, more, seats_alt};
use crate::engine::grand_archive::board::{Board, Card, CostKind, Phase, StackKind};
use crate::engine::grand_archive::plays::Play;
use crate::text::fold_eq;

const W: f32 = 1000.0;
const CARD_W: f32 = 148.0;
const CARD_H: f32 = 92.0;
const GAP: f32 = 10.0;
const PER_ROW: usize = 6;
const MAX_ROWS: usize = 2;
/// Seats drawn with two rows of cards each.
const ROOMY_PLAYERS: usize = 4;

fn phase(p: Phase) -> &'static str {
    match p {
        Phase::WakeUp => "wake up phase",
        Phase::Materialize => "materialize phase",
        Phase::Recollection => "recollection phase",
        Phase::Draw => "draw phase",
        Phase::Combat => "combat",
        Phase::Main => "main phase",
        Phase::End => "end phase",
    }
}

fn subtitle(v: &View<Board, Play>) -> String {
    let b = v.board;
    format!(
        "turn {} · {}{}",
        b.turn_number,
        phase(b.phase),
        v.standing(b.turn_player.as_deref())
    )
}

pub(super) fn draw(v: &View<Board, Play>) -> (Canvas, String) {
    let b = v.board;
    // Every seat is drawn: a larger board's seats get one row of cards
    // each, laid out on a tall canvas that is shrunk to fit (the fifth
    // to eighth seats were left out, and the declared attack's panel
    // fell off the picture's bottom).
    let max_rows = if b.players.len() > ROOMY_PLAYERS {
        1
    } else {
        MAX_ROWS
    };
    let refused = if v.verdict.is_some_and(|v| !v.refusals.is_empty()) {
        super::REFUSALS_HEIGHT as u32
    } else {
        0
    };
    let height = 400 + 270 * b.players.len() as u32 + refused;
    let mut c = Canvas::tall(W as u32, height, kit::PAPER);
    let mut y = banner(&mut c, "Grand Archive", &subtitle(v), v.verdict, v.result);
    let mut places = Places::default();
    for i in 0..b.players.len() {
        y = player(&mut c, v, i, y, max_rows, &mut places);
    }
    attack(&mut c, v, &places);
    y = costs(&mut c, v, y + 4.0);
    c.crop(y + 10.0);
    (c, alt(v))
}

fn player(
    c: &mut Canvas,
    v: &View<Board, Play>,
    i: usize,
    y: f32,
    max_rows: usize,
    places: &mut Places,
) -> f32 {
    let b = v.board;
    let p = &b.players[i];
    let colour = kit::seat(i);
    c.block(20.0, y + 4.0, 6.0, 24.0, colour);
    let mut x =
        34.0 + c.text(
            34.0,
            y + 23.0,
            19.0,
            colour,
            &p.name,
            Some(300.0),
            Align::Left,
            true,
        ) + 10.0;
    x += badge(
        c,
        x,
        y + 8.0,
        &format!("reserve {}", p.reserve),
        kit::CARD,
        kit::BLUE,
    ) + 6.0;
    if v.turn(b.turn_player.as_deref())
        .is_some_and(|t| fold_eq(t, &p.name))
    {
        x += badge(c, x, y + 8.0, "their turn", kit::CARD, kit::GREEN) + 6.0;
    }
    let was = v
        .before
        .and_then(|bb| bb.players.iter().find(|q| q.name == p.name));
    if let Some(w) = was
        && w.reserve != p.reserve
    {
        let d = i64::from(*p.reserve) - i64::from(*w.reserve);
        let t = format!("{d:+} reserve");
        badge(c, x, y + 8.0, &t, kit::CARD, kit::GOLD);
    }
    let top = y + 36.0;
    let mut cards: Vec<(&Card, &str)> = vec![(&p.champion, "CHAMPION")];
    cards.extend(p.allies.iter().map(|a| (a, "ALLY")));
    cards.extend(p.objects.iter().map(|o| (o, "OBJECT")));
    let shown = cards.len().min(PER_ROW * max_rows);
    if shown < cards.len() {
        // The ruling's cards first (the champion stays first): an
        // attacker past the cap went undrawn, and its arrows with it.
        let named = involved(v);
        cards[1..].sort_by_key(|(card, _)| {
            let rested = was.and_then(|w| {
                w.allies
                    .iter()
                    .chain(&w.objects)
                    .find(|x| fold_eq(&x.name, &card.name))
                    .map(|x| x.rested != card.rested)
            });
            !(rested == Some(true) || named.iter().any(|n| fold_eq(n, &card.name)))
        });
    }
    for (k, (card, role)) in cards.iter().take(shown).enumerate() {
        let a = Area {
            x: 20.0 + (k % PER_ROW) as f32 * (CARD_W + GAP),
            y: top + (k / PER_ROW) as f32 * (CARD_H + GAP),
            w: CARD_W,
            h: CARD_H,
        };
        draw_card(c, card, role, a, if k == 0 { colour } else { kit::LINE });
        places.put(&card.name, a);
        let before = was.and_then(|w| {
            std::iter::once(&w.champion)
                .chain(&w.allies)
                .chain(&w.objects)
                .find(|x| fold_eq(&x.name, &card.name))
        });
        if let Some(w) = before
            && w.rested != card.rested
        {
            mark(c, a, if card.rested { "rested" } else { "awake" });
        }
    }
    let rows = shown.div_ceil(PER_ROW).max(1);
    let mut bottom = top + rows as f32 * (CARD_H + GAP);
    if let Some(m) = more(cards.len(), shown, "cards") {
        c.text(
            20.0,
            bottom + 8.0,
            13.0,
            kit::MUTED,
            &m,
            None,
            Align::Left,
            false,
        );
        bottom += 18.0;
    }
    bottom + 12.0
}

fn draw_card(c: &mut Canvas, card: &Card, role: &str, a: Area, stroke: kit::Rgb) {
    let fill = if card.rested { kit::SPENT } else { kit::CARD };
    c.rect(
        a.x,
        a.y,
        a.w,
        a.h,
        8.0,
        Style::both(fill, stroke, if role == "CHAMPION" { 3.0 } else { 1.5 }),
    );
    let label = match &card.kind {
        Some(k) => format!("{role} · {}", k.to_uppercase()),
        None => role.to_string(),
    };
    c.text(
        a.x + 8.0,
        a.y + 16.0,
        11.0,
        kit::MUTED,
        &label,
        Some(a.w - 16.0),
        Align::Left,
        false,
    );
    let lines = kit::wrap(&card.name, 14.0, a.w - 16.0, 2);
    for (k, l) in lines.iter().enumerate() {
        c.text(
            a.x + 8.0,
            a.y + 36.0 + k as f32 * 17.0,
            14.0,
            kit::INK,
            l,
            Some(a.w - 16.0),
            Align::Left,
            true,
        );
    }
    let (word, col) = if card.rested {
        ("rested", kit::INK)
    } else {
        ("awake", kit::GREEN)
    };
    c.text(
        a.x + 8.0,
        a.y + a.h - 10.0,
        12.0,
        col,
        word,
        None,
        Align::Left,
        card.rested,
    );
    if !card.keywords.is_empty() {
        c.text(
            a.x + a.w - 8.0,
            a.y + a.h - 10.0,
            11.0,
            kit::MUTED,
            &card.keywords.join(", "),
            Some(a.w - 60.0),
            Align::Right,
            false,
        );
    }
}

/// The cards a picture draws arrows between: the attack declared (when
/// not refused) or the combat under way.
fn involved<'a>(v: &'a View<Board, Play>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    if let Some(Play::DeclareAttack {
        attacker,
        with,
        target,
        ..
    }) = v.attempted()
    {
        out.push(attacker.as_str());
        out.extend(with.iter().flatten().map(|w| w.as_str()));
        out.extend(target.as_deref());
    }
    if let Some(cb) = &v.board.combat {
        out.push(cb.attacker.as_str());
        out.extend(cb.objects.iter().map(|o| o.as_str()));
        out.extend(cb.target.as_deref());
    }
    out
}

/// The declared attack (the play) or the combat under way, as arrows.
fn attack(c: &mut Canvas, v: &View<Board, Play>, places: &Places) {
    if let Some(Play::DeclareAttack {
        attacker,
        with,
        target,
        ..
    }) = v.attempted()
    {
        for w in with.iter().flatten() {
            places.arrow(c, w, attacker, kit::GOLD, 0.0);
        }
        if let Some(t) = target {
            places.arrow(c, attacker, t, kit::RED, 0.0);
        }
        return;
    }
    if let Some(cb) = &v.board.combat {
        for o in &cb.objects {
            places.arrow(c, o, &cb.attacker, kit::GOLD, 0.0);
        }
        if let Some(t) = &cb.target {
            places.arrow(c, &cb.attacker, t, kit::RED, 0.0);
        }
    }
}

/// Costs, restrictions, combat and the effects stack, as lines of text.
fn costs(c: &mut Canvas, v: &View<Board, Play>, y: f32) -> f32 {
    let b = v.board;
    let (paid, refused): (&[String], &[String]) = match v.play {
        Some(Play::DeclareAttack {
            pay_extra,
            refuse_extra,
            ..
        }) => (pay_extra, refuse_extra),
        _ => (&[], &[]),
    };
    let mut lines: Vec<(String, kit::Rgb)> = Vec::new();
    let declared = match v.play {
        Some(Play::DeclareAttack {
            attacker,
            with,
            target,
            ..
        }) => {
            let with = with
                .as_ref()
                .filter(|w| !w.is_empty())
                .map(|w| format!(" with {}", w.join(", ")))
                .unwrap_or_default();
            let t = target
                .as_deref()
                .map(|t| format!(" at {t}"))
                .unwrap_or_default();
            Some(format!("{attacker}{with}{t}"))
        }
        _ => None,
    };
    if let Some(d) = declared.as_ref().filter(|_| v.attempted().is_some()) {
        lines.push((format!("Declared attack: {d}"), kit::RED));
    } else if let Some(cb) = &b.combat {
        let t = cb
            .target
            .as_deref()
            .map(|t| format!(" at {t}"))
            .unwrap_or_default();
        lines.push((
            format!(
                "Combat: {} attacks{t} ({} defends)",
                cb.attacker, cb.defending_player
            ),
            kit::RED,
        ));
    }
    if let (Some(d), Some(why)) = (&declared, v.unmade().filter(|_| v.attempted().is_none())) {
        lines.push((format!("Attack {why} (not on the board): {d}"), kit::MUTED));
    }
    for cost in b.costs.iter().take(6) {
        let kind = match cost.kind {
            CostKind::Additional => "additional cost",
            CostKind::Extra => "extra cost",
        };
        let state = if paid.iter().any(|p| fold_eq(p, &cost.source)) {
            " — paid"
        } else if refused.iter().any(|p| fold_eq(p, &cost.source)) {
            " — refused"
        } else {
            ""
        };
        let whose = cost
            .controller
            .as_deref()
            .map(|c| format!(" ({c}'s)"))
            .unwrap_or_default();
        let on = cost
            .applies_to
            .as_deref()
            .map(|c| format!(", on {c}"))
            .unwrap_or_default();
        lines.push((
            format!(
                "{kind} {} reserve: {}{whose}{on}{state}",
                cost.reserve, cost.source
            ),
            kit::INK,
        ));
    }
    for r in b.restrictions.iter().take(4) {
        let mut t = format!("restriction: {}", r.source);
        if !r.must_target.is_empty() {
            let _ = write!(t, ", must target {}", r.must_target.join(", "));
        }
        if !r.cannot_attack_with.is_empty() {
            let _ = write!(
                t,
                ", cannot attack with {}",
                r.cannot_attack_with.join(", ")
            );
        }
        lines.push((t, kit::INK));
    }
    for e in b.effects_stack.iter().take(4) {
        let kind = match e.kind {
            StackKind::AttackCard => "attack card",
            StackKind::OnAttack => "on-attack effect",
            StackKind::Trigger => "trigger",
            StackKind::Other => "effect",
        };
        lines.push((format!("on the stack: {} ({kind})", e.name), kit::PURPLE));
    }
    if lines.is_empty() {
        return y;
    }
    let h = 14.0 + 21.0 * lines.len() as f32;
    c.rect(
        20.0,
        y,
        W - 40.0,
        h,
        6.0,
        Style::both(kit::CARD, kit::LINE, 1.0),
    );
    for (k, (l, col)) in lines.iter().enumerate() {
        c.text(
            32.0,
            y + 25.0 + 21.0 * k as f32,
            14.0,
            *col,
            l,
            Some(W - 64.0),
            Align::Left,
            k == 0,
        );
    }
    y + h
}

fn alt(v: &View<Board, Play>) -> String {
    let b = v.board;
    let mut s = format!("Grand Archive board, {}.", subtitle(v));
    if let Some(verdict) = v.verdict {
        let _ = write!(s, " {}", super::verdict_alt(verdict));
    }
    s.push_str(&v.ending());
    let state = |c: &Card| format!("{}{}", c.name, if c.rested { " (rested)" } else { "" });
    let seats: Vec<(String, Vec<String>)> = b
        .players
        .iter()
        .map(|p| {
            let head = format!(
                "{}: reserve {}, champion {}; allies and objects",
                p.name,
                p.reserve,
                state(&p.champion)
            );
            let cards = p
                .allies
                .iter()
                .map(|a| format!("ally {}", state(a)))
                .chain(p.objects.iter().map(|o| format!("object {}", state(o))))
                .collect();
            (head, cards)
        })
        .collect();
    let mut tail = String::new();
    if let Some(Play::DeclareAttack {
        attacker, target, ..
    }) = v.play
    {
        let _ = write!(
            tail,
            " {}: {attacker}{}.",
            match v.unmade() {
                Some(why) => format!("Attack {why}"),
                None => "Attack".into(),
            },
            target
                .as_deref()
                .map(|t| format!(" at {t}"))
                .unwrap_or_default()
        );
    }
    seats_alt(&mut s, &seats, ", ", &tail);
    s.push_str(&tail);
    s
}
