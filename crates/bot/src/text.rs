//! Replies as terminal text (the console transport).

use std::fmt::Write;

use super::{MessageKind, Reply};

/// Discord markdown → terminal: `**bold**` becomes ANSI bold on a terminal
/// (kept as `**…**` in a pipe); escapes are removed; a user mention shows
/// its id.
fn markdown(s: &str, ansi: bool) -> String {
    let s = crate::render::text::plain_mentions(s);
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    let mut bold = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                bold = !bold;
                if ansi {
                    out.push_str(if bold { "\x1b[1m" } else { "\x1b[0m" });
                } else {
                    out.push_str("**");
                }
            }
            '\u{2003}' => out.push_str("  "),
            _ => out.push(c),
        }
    }
    if bold && ansi {
        out.push_str("\x1b[0m");
    }
    out
}

/// Renders a reply; buttons are numbered so the console can press them.
pub fn render(reply: &Reply, ansi: bool) -> String {
    let mut out = String::new();
    match reply {
        Reply::Message(m) | Reply::Update(m) => {
            let tag = match m.kind {
                MessageKind::UserError | MessageKind::Busy => " (only you see this)",
                MessageKind::InternalError => " (only you see this)",
                _ if m.ephemeral => " (only you see this)",
                _ => "",
            };
            let _ = writeln!(out, "== {}{tag} ==", markdown(&m.title, ansi));
            let _ = writeln!(out, "{}", markdown(&m.body, ansi));
            if let Some(f) = &m.footer {
                let _ = writeln!(out, "-- {}", markdown(f, ansi));
            }
            if !m.buttons.is_empty() {
                let labels: Vec<String> = m
                    .buttons
                    .iter()
                    .enumerate()
                    .map(|(i, b)| format!("[{}] {}", i + 1, b.label))
                    .collect();
                let _ = writeln!(out, "buttons (type the number): {}", labels.join("  "));
            }
        }
        Reply::Choices(choices) => {
            for c in choices {
                let _ = writeln!(out, "{}", c.name);
            }
            if choices.is_empty() {
                let _ = writeln!(out, "(no suggestions)");
            }
        }
        Reply::Modal(m) => {
            let _ = writeln!(out, "== {} ==", m.title);
            let _ = writeln!(
                out,
                "{}: type or paste it, then a line with only `.`",
                m.label
            );
        }
    }
    out
}
