//! Pagination within Discord's embed limits, and the pages kept for the
//! pager buttons.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::reply::{Action, Block, Button, ButtonStyle, Doc, Message};

/// Characters of body text per page (an embed description holds 4096; the
/// title ≤ 256 and footer stay well under the 6000 total).
pub const PAGE_BUDGET: usize = 3800;
/// How long pages are kept for the pager buttons (Discord's interaction
/// tokens live 15 minutes).
const KEEP: Duration = Duration::from_secs(15 * 60);
/// Most paginated replies kept at once.
const MAX_KEPT: usize = 10_000;
/// Buttons per message besides the pager row (4 rows of 5).
const MAX_ACTION_BUTTONS: usize = 20;

/// Pages of long replies, by key.
pub struct Pages {
    kept: Mutex<HashMap<u64, (Instant, Vec<Message>)>>,
    next: AtomicU64,
}

impl Default for Pages {
    fn default() -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
        Pages {
            kept: Mutex::new(HashMap::new()),
            next: AtomicU64::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20),
        }
    }
}

impl Pages {
    /// Lays the document out in pages; returns page 1 (with pager buttons
    /// when there are more) and keeps the rest.
    pub fn paginate(&self, doc: Doc, ephemeral: bool) -> Message {
        let bodies = layout(&doc.blocks, PAGE_BUDGET);
        let mut actions = doc.buttons;
        actions.truncate(MAX_ACTION_BUTTONS);
        let page = |body: String, footer: Option<String>, buttons: Vec<Button>| Message {
            kind: doc.kind,
            title: doc.title.clone(),
            body,
            footer,
            buttons,
            ephemeral,
            attachment: None,
        };
        if bodies.len() <= 1 {
            return page(
                bodies.into_iter().next().unwrap_or_default(),
                doc.footer.clone(),
                actions,
            );
        }
        let key = self.next.fetch_add(1, Ordering::Relaxed);
        let total = bodies.len();
        let pages: Vec<Message> = bodies
            .into_iter()
            .enumerate()
            .map(|(i, body)| {
                let mut buttons = actions.clone();
                if i > 0 {
                    buttons.push(Button::new(
                        "◀ Previous",
                        Action::Page { key, page: i - 1 },
                        ButtonStyle::Primary,
                    ));
                }
                if i + 1 < total {
                    buttons.push(Button::new(
                        "Next ▶",
                        Action::Page { key, page: i + 1 },
                        ButtonStyle::Primary,
                    ));
                }
                let footer = match &doc.footer {
                    Some(f) => format!("Page {} of {total} · {f}", i + 1),
                    None => format!("Page {} of {total}", i + 1),
                };
                page(body, Some(footer), buttons)
            })
            .collect();
        let first = pages[0].clone();
        self.keep(key, pages);
        first
    }

    fn keep(&self, key: u64, pages: Vec<Message>) {
        let Ok(mut kept) = self.kept.lock() else {
            return;
        };
        let now = Instant::now();
        if kept.len() >= MAX_KEPT {
            kept.retain(|_, (t, _)| now.duration_since(*t) < KEEP);
        }
        if kept.len() >= MAX_KEPT
            && let Some(oldest) = kept.iter().min_by_key(|(_, (t, _))| *t).map(|(k, _)| *k)
        {
            kept.remove(&oldest);
        }
        kept.insert(key, (now, pages));
    }

    /// A kept page, if not expired.
    pub fn get(&self, key: u64, page: usize) -> Option<Message> {
        let kept = self.kept.lock().ok()?;
        let (t, pages) = kept.get(&key)?;
        if t.elapsed() > KEEP {
            return None;
        }
        pages.get(page).cloned()
    }
}

/// Packs blocks into page bodies of at most `budget` characters. A block is
/// split only when it alone exceeds a page, at a line or sentence boundary,
/// and its header is repeated ("continued") so no citation is cut.
pub fn layout(blocks: &[Block], budget: usize) -> Vec<String> {
    let mut pages: Vec<String> = Vec::new();
    let mut cur = String::new();
    let len = |s: &str| s.chars().count();
    for block in blocks {
        for piece in pieces(block, budget) {
            let sep = if cur.is_empty() { 0 } else { 2 };
            if !cur.is_empty() && len(&cur) + sep + len(&piece) > budget {
                pages.push(std::mem::take(&mut cur));
            }
            if !cur.is_empty() {
                cur.push_str("\n\n");
            }
            cur.push_str(&piece);
        }
    }
    if !cur.is_empty() || pages.is_empty() {
        pages.push(cur);
    }
    pages
}

/// A block as one or more self-contained pieces, each within `budget`.
fn pieces(block: &Block, budget: usize) -> Vec<String> {
    let join = |head: &str, body: &str| {
        if head.is_empty() {
            body.to_string()
        } else {
            format!("{head}\n{body}")
        }
    };
    let whole = if block.code {
        join(&block.head, &format!("```yaml\n{}\n```", block.body))
    } else {
        join(&block.head, &block.body)
    };
    if whole.chars().count() <= budget {
        return vec![whole];
    }
    let cont = if block.head.is_empty() {
        String::new()
    } else {
        format!("{} *(continued)*", block.head)
    };
    let room = budget
        .saturating_sub(cont.chars().count().max(block.head.chars().count()) + 16)
        .max(64);
    let units: Vec<String> = if block.code {
        block.body.lines().map(str::to_string).collect()
    } else {
        sentences(&block.body)
    };
    let mut chunks: Vec<String> = Vec::new();
    let mut cur = String::new();
    for unit in units {
        for u in hard_split(&unit, room) {
            if !cur.is_empty() && cur.chars().count() + 1 + u.chars().count() > room {
                chunks.push(std::mem::take(&mut cur));
            }
            if !cur.is_empty() {
                cur.push(if block.code { '\n' } else { ' ' });
            }
            cur.push_str(&u);
        }
    }
    if !cur.is_empty() {
        chunks.push(cur);
    }
    chunks
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let head = if i == 0 { &block.head } else { &cont };
            if block.code {
                join(head, &format!("```yaml\n{c}\n```"))
            } else {
                join(head, &c)
            }
        })
        .collect()
}

/// Splits prose after sentence ends and at newlines (kept as separate units).
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        let mut cur = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            cur.push(c);
            if matches!(c, '.' | '!' | '?' | ';') && chars.peek() == Some(&' ') {
                out.push(std::mem::take(&mut cur).trim().to_string());
            }
        }
        if !cur.trim().is_empty() {
            out.push(cur.trim().to_string());
        }
    }
    out
}

/// Last resort for a single unit longer than a page: split at spaces, then
/// at characters.
fn hard_split(unit: &str, room: usize) -> Vec<String> {
    if unit.chars().count() <= room {
        return vec![unit.to_string()];
    }
    let mut out = Vec::new();
    let mut cur = String::new();
    for word in unit.split(' ') {
        let w: Vec<char> = word.chars().collect();
        for part in w.chunks(room) {
            let part: String = part.iter().collect();
            if !cur.is_empty() && cur.chars().count() + 1 + part.chars().count() > room {
                out.push(std::mem::take(&mut cur));
            }
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(&part);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(head: &str, body: &str) -> Block {
        Block {
            head: head.into(),
            body: body.into(),
            code: false,
        }
    }

    #[test]
    fn pages_stay_within_budget_and_keep_citations_whole() {
        let long = "The attacking unit deals damage equal to its attack value. ".repeat(200);
        let blocks = vec![
            block("**1.** `ashes:attack-a-unit.4`", &long),
            block("**2.** `ashes:pass`", "Pass."),
        ];
        let pages = layout(&blocks, 1000);
        assert!(pages.len() > 5, "{}", pages.len());
        for p in &pages {
            assert!(p.chars().count() <= 1000, "{}", p.chars().count());
            assert!(
                p.contains("`ashes:attack-a-unit.4`") || p.contains("`ashes:pass`"),
                "page without its citation: {p}"
            );
        }
        assert!(
            pages
                .last()
                .is_some_and(|p| p.contains("**2.** `ashes:pass`\nPass."))
        );
    }

    #[test]
    fn code_blocks_are_refenced_on_each_page() {
        let body: String = (0..400)
            .map(|i| format!("  \"field{i}\": {i},\n"))
            .collect();
        let pages = layout(
            &[Block {
                head: "**state**".into(),
                body,
                code: true,
            }],
            800,
        );
        assert!(pages.len() > 1);
        for p in &pages {
            assert_eq!(p.matches("```").count(), 2, "{p}");
        }
    }

    #[test]
    fn pager_pages_are_kept_and_expire_by_key() {
        let pages = Pages::default();
        let doc = Doc {
            kind: super::super::MessageKind::Answer,
            title: "t".into(),
            blocks: (0..50)
                .map(|i| block(&format!("**{i}**"), &"word ".repeat(100)))
                .collect(),
            footer: None,
            buttons: vec![],
        };
        let first = pages.paginate(doc, false);
        let Some(Action::Page { key, page }) = first
            .buttons
            .iter()
            .map(|b| b.action.clone())
            .find(|a| matches!(a, Action::Page { .. }))
        else {
            panic!("no pager button: {first:?}")
        };
        assert_eq!(page, 1);
        let second = pages.get(key, 1).expect("page 2 kept");
        assert!(
            second
                .footer
                .as_deref()
                .is_some_and(|f| f.starts_with("Page 2 of"))
        );
        assert!(pages.get(key.wrapping_add(99), 1).is_none());
    }
}
