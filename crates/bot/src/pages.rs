//! Pagination within Discord's embed limits, and the pages kept for the
//! pager buttons.
//!
//! Where pages are kept: in the match database when one is open (`serve`
//! opens it at start-up), so any replica serves any ◀ Previous / Next ▶
//! button; otherwise (the console, tests) in this process, bounded by
//! [`MAX_MEMORY_BYTES`]. Either way they expire after 15 minutes, an
//! interaction token's lifetime. The button's custom id carries a random
//! 64-bit key and the page number.

use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::reply::{Action, Block, Button, ButtonStyle, Doc, Message, code_block_body};
use crate::store::{Store, now_ms};

/// Characters of body text per page (an embed description holds 4096; the
/// title ≤ 256 and footer stay well under the 6000 total).
pub const PAGE_BUDGET: usize = 3800;
/// How long pages are kept for the pager buttons (Discord's interaction
/// tokens live 15 minutes).
const KEEP: Duration = Duration::from_secs(15 * 60);
/// Most bytes of pages kept in memory (without a database); the oldest go first.
pub const MAX_MEMORY_BYTES: usize = 64 * 1024 * 1024;
/// Buttons per message besides the pager row (4 rows of 5).
pub(crate) const MAX_ACTION_BUTTONS: usize = 20;
/// Most pages kept of one reply: past them the last page says how many
/// more there were (a whole section of a huge document was 1,352 pages, 6.6
/// MB stored for each press of its button).
pub const MAX_PAGES: usize = 30;
/// How often old pages are deleted from the database, at most.
const PRUNE_EVERY_MS: i64 = 60_000;

/// Every page of one reply, under its key.
#[derive(Debug, Clone, PartialEq)]
pub struct PageSet {
    pub key: u64,
    pub pages: Vec<Message>,
}

impl PageSet {
    /// Roughly what the pages weigh in memory.
    fn bytes(&self) -> usize {
        self.pages
            .iter()
            .map(|m| {
                m.title.len()
                    + m.body.len()
                    + m.footer.as_ref().map_or(0, String::len)
                    + m.buttons.len() * 128
                    + 64
            })
            .sum()
    }
}

/// Pages kept in this process (no database): by key, oldest first, at
/// most `cap` bytes.
struct Memory {
    sets: HashMap<u64, (Instant, Vec<Message>, usize)>,
    order: VecDeque<u64>,
    bytes: usize,
    cap: usize,
}

impl Default for Memory {
    fn default() -> Self {
        Memory {
            sets: HashMap::new(),
            order: VecDeque::new(),
            bytes: 0,
            cap: MAX_MEMORY_BYTES,
        }
    }
}

impl Memory {
    fn keep(&mut self, set: PageSet) {
        // Kept again (a long autocomplete value offered anew): its time
        // starts over, counted once.
        if let Some((_, _, b)) = self.sets.remove(&set.key) {
            self.bytes -= b;
            self.order.retain(|k| *k != set.key);
        }
        let size = set.bytes();
        let now = Instant::now();
        while let Some(&oldest) = self.order.front() {
            let expired = self
                .sets
                .get(&oldest)
                .is_none_or(|(t, _, _)| now.duration_since(*t) > KEEP);
            if !expired && self.bytes + size <= self.cap {
                break;
            }
            self.order.pop_front();
            if let Some((_, _, b)) = self.sets.remove(&oldest) {
                self.bytes -= b;
            }
        }
        if size <= self.cap {
            self.bytes += size;
            self.order.push_back(set.key);
            self.sets.insert(set.key, (now, set.pages, size));
        }
    }

    fn get(&self, key: u64, page: usize) -> Option<Message> {
        let (t, pages, _) = self.sets.get(&key)?;
        if t.elapsed() > KEEP {
            return None;
        }
        pages.get(page).cloned()
    }
}

/// The pages kept for the pager buttons: in the database once
/// [`Pages::use_store`] was called, else in memory.
#[derive(Default)]
pub struct Pages {
    memory: Mutex<Memory>,
    store: OnceLock<Store>,
    last_prune: AtomicI64,
}

impl Pages {
    /// Keeps pages in this database from now on.
    pub fn use_store(&self, store: Store) {
        let _ = self.store.set(store);
    }

    /// Keeps each set (a failure to store is logged; its buttons will say
    /// the pages expired).
    pub async fn keep(&self, sets: Vec<PageSet>) {
        for set in sets {
            match self.store.get() {
                Some(store) => self.keep_in(store, set).await,
                None => {
                    if let Ok(mut memory) = self.memory.lock() {
                        memory.keep(set);
                    }
                }
            }
        }
    }

    async fn keep_in(&self, store: &Store, set: PageSet) {
        let now = now_ms();
        let last = self.last_prune.load(Ordering::Relaxed);
        if now - last > PRUNE_EVERY_MS
            && self
                .last_prune
                .compare_exchange(last, now, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            && let Err(e) = store.prune_pages(now - KEEP.as_millis() as i64).await
        {
            tracing::warn!("cannot delete old pager pages: {e}");
        }
        let json: Vec<String> = set
            .pages
            .iter()
            .filter_map(|m| serde_json::to_string(m).ok())
            .collect();
        if let Err(e) = store.keep_pages(&key_text(set.key), &json, now).await {
            let id = super::error_id();
            tracing::error!(error_id = %id, "cannot keep pager pages: {e}");
        }
    }

    /// A kept page, if not expired.
    pub async fn get(&self, key: u64, page: usize) -> Option<Message> {
        let Some(store) = self.store.get() else {
            return self.memory.lock().ok()?.get(key, page);
        };
        let since = now_ms() - KEEP.as_millis() as i64;
        match store
            .page(&key_text(key), i64::try_from(page).ok()?, since)
            .await
        {
            Ok(json) => serde_json::from_str(&json?).ok(),
            Err(e) => {
                let id = super::error_id();
                tracing::error!(error_id = %id, "cannot read pager pages: {e}");
                None
            }
        }
    }
}

/// Autocomplete values too long for Discord (more than 100 characters: a
/// long play's continuation) travel as their short reference
/// (`arbiter_text::short_ref`: the first 40 bytes, `~` and the FNV-1a-64
/// of the whole); the whole text is kept here, a set of one page under
/// that FNV-1a-64, so the command naming the reference gets it back, on
/// any replica, for as long as pages are kept.
impl Pages {
    /// Keeps each long value under the key its short reference carries.
    pub async fn keep_long_values(&self, values: &[String]) {
        let sets = values
            .iter()
            .map(|v| PageSet {
                key: long_value_key(arbiter_text::fnv1a64(v)),
                pages: vec![Message::info("", v)],
            })
            .collect();
        self.keep(sets).await;
    }

    /// The long value `reference` is the short reference of, if it is
    /// still kept ([`Pages::keep_long_values`]); `None` for anything else.
    pub async fn long_value(&self, reference: &str) -> Option<String> {
        if !arbiter_text::looks_like_short_ref(reference) {
            return None;
        }
        let (_, hash) = reference.trim().rsplit_once('~')?;
        let key = long_value_key(u64::from_str_radix(hash, 16).ok()?);
        let body = self.get(key, 0).await?.body;
        arbiter_text::is_short_ref_of(reference, &body).then_some(body)
    }
}

/// The top bit: set in a long value's key, clear in a pager's
/// ([`new_key`]). A long value is kept under its text's FNV-1a-64, which a
/// user can aim at any value by choosing the text: without the bit, a
/// continuation built to hash to a public reply's pager key would have
/// written over its pages.
const LONG_VALUE_BIT: u64 = 1 << 63;

fn long_value_key(hash: u64) -> u64 {
    hash | LONG_VALUE_BIT
}

fn key_text(key: u64) -> String {
    format!("{key:016x}")
}

/// A fresh random token (16 hex digits), e.g. for an upload awaiting Confirm.
pub(super) fn new_token() -> String {
    key_text(new_key())
}

/// A fresh pager key: random (the process's hasher keys, the time and a
/// counter), so that replicas never hand out the same one.
fn new_key() -> u64 {
    static STATE: OnceLock<std::collections::hash_map::RandomState> = OnceLock::new();
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = STATE.get_or_init(Default::default).build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.write_u32(std::process::id());
    h.finish() & !LONG_VALUE_BIT
}

/// Lays the document out in pages: page 1 (with pager buttons when there
/// are more) and, when there are more, every page to keep.
pub fn paginate(doc: Doc, ephemeral: bool) -> (Message, Option<PageSet>) {
    let mut bodies = layout(&doc.blocks, PAGE_BUDGET);
    if bodies.len() > MAX_PAGES {
        let more = bodies.len() - MAX_PAGES;
        bodies.truncate(MAX_PAGES);
        if let Some(last) = bodies.last_mut() {
            last.push_str(&format!(
                "\n\n… and {more} more pages, not kept: ask for a narrower part: a sub-section by its own id."
            ));
        }
    }
    let mut actions = doc.buttons;
    actions.truncate(MAX_ACTION_BUTTONS);
    if bodies.len() <= 1 {
        // One page: the document's own title and footer, nothing copied.
        let only = Message {
            kind: doc.kind,
            title: doc.title,
            body: bodies.pop().unwrap_or_default(),
            footer: doc.footer,
            buttons: actions,
            ephemeral,
            attachment: None,
            picture: None,
            ping: None,
        };
        return (only, None);
    }
    let page = |body: String, footer: Option<String>, buttons: Vec<Button>| Message {
        kind: doc.kind,
        title: doc.title.clone(),
        body,
        footer,
        buttons,
        ephemeral,
        attachment: None,
        picture: None,
        ping: None,
    };
    let key = new_key();
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
    (first, Some(PageSet { key, pages }))
}

/// Packs blocks into page bodies of at most `budget` characters. A block is
/// split only when it alone exceeds a page, at a line or sentence boundary,
/// and its header is repeated ("continued") so no citation is cut.
pub fn layout(blocks: &[Block], budget: usize) -> Vec<String> {
    let mut pages: Vec<String> = Vec::new();
    let bytes: usize = blocks
        .iter()
        .map(|b| b.head.len() + b.body.len() + 16)
        .sum();
    let mut cur = String::with_capacity(bytes.min(4 * budget));
    // Characters in `cur`, kept as it grows (not recounted per piece).
    let mut cur_len = 0;
    let mut add = |piece: &[&str], piece_len: usize, cur: &mut String| {
        if !cur.is_empty() && cur_len + 2 + piece_len > budget {
            pages.push(std::mem::take(cur));
            cur_len = 0;
        }
        if !cur.is_empty() {
            cur.push_str("\n\n");
            cur_len += 2;
        }
        piece.iter().for_each(|p| cur.push_str(p));
        cur_len += piece_len;
    };
    for block in blocks {
        // A plain block that fits a page goes in as it is, uncopied.
        if let Some((parts, len)) = whole_plain(block, budget) {
            add(&parts, len, &mut cur);
            continue;
        }
        for piece in pieces(block, budget) {
            add(&[&piece], piece.chars().count(), &mut cur);
        }
    }
    if !cur.is_empty() || pages.is_empty() {
        pages.push(cur);
    }
    pages
}

/// A plain (not code) block within `budget`: its parts as [`pieces`] would
/// join them, and its length in characters.
fn whole_plain(block: &Block, budget: usize) -> Option<([&str; 3], usize)> {
    if block.code {
        return None;
    }
    let body = block.body.chars().count();
    let (parts, len) = if block.head.is_empty() {
        (["", "", block.body.as_str()], body)
    } else {
        let head = block.head.chars().count();
        (
            [block.head.as_str(), "\n", block.body.as_str()],
            head + 1 + body,
        )
    };
    (len <= budget).then_some((parts, len))
}

/// A block as one or more self-contained pieces, each within `budget`.
/// A code block's body is fenced here, so here it is made unable to close
/// its fence ([`code_block_body`]: a board name holding ``` ended the
/// Resulting state's block and rendered the text after it).
fn pieces(block: &Block, budget: usize) -> Vec<String> {
    let fenced;
    let block = if block.code && block.body.contains("```") {
        fenced = Block {
            body: code_block_body(&block.body),
            ..block.clone()
        };
        &fenced
    } else {
        block
    };
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
    let chunks = if block.code {
        let lines: Vec<Unit> = block
            .body
            .lines()
            .map(|l| Unit {
                text: l.to_string(),
                newline: true,
                fence_after: None,
            })
            .collect();
        pack(lines, room)
    } else {
        // Room for a code fence closed at a page's end and reopened.
        pack(prose_units(&block.body), room.saturating_sub(24).max(64))
    };
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

/// One piece of a block's text, the smallest a page break falls between.
struct Unit {
    text: String,
    /// A line break goes before it (else a space: a sentence of the same line).
    newline: bool,
    /// The opening line of the code fence still open after it, if any: a
    /// page ending there closes the fence and the next page reopens it.
    fence_after: Option<String>,
}

/// Prose split after sentence ends and at line breaks, which are kept; the
/// lines of a fenced code block inside are units whole.
fn prose_units(text: &str) -> Vec<Unit> {
    let mut out: Vec<Unit> = Vec::new();
    let mut fence: Option<String> = None;
    for line in text.split('\n') {
        let is_fence = line.trim_start().starts_with("```");
        if is_fence {
            fence = match fence {
                Some(_) => None,
                None => Some(line.trim().to_string()),
            };
        }
        let parts = if is_fence || fence.is_some() {
            vec![line.trim_end().to_string()]
        } else {
            sentences(line)
        };
        for (i, text) in parts.into_iter().enumerate() {
            out.push(Unit {
                text,
                newline: i == 0,
                fence_after: fence.clone(),
            });
        }
    }
    out
}

/// Packs units into chunks of at most about `room` characters, a unit
/// longer than that split at spaces; a code fence open at a chunk's end is
/// closed there and reopened at the next one's start.
fn pack(units: Vec<Unit>, room: usize) -> Vec<String> {
    let mut chunks: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut cur_len = 0;
    // No unit in `cur` yet (it may hold a reopened fence).
    let mut fresh = true;
    let mut open: Option<String> = None;
    for unit in units {
        for (i, u) in hard_split(&unit.text, room).into_iter().enumerate() {
            let len = u.chars().count();
            if !fresh && cur_len + 1 + len > room {
                if open.is_some() {
                    cur.push_str("\n```");
                }
                chunks.push(std::mem::take(&mut cur));
                cur_len = 0;
                fresh = true;
                if let Some(opener) = &open {
                    cur.push_str(opener);
                    cur.push('\n');
                    cur_len = opener.chars().count() + 1;
                }
            }
            if fresh && u.is_empty() && open.is_none() {
                // A blank line does not start a page.
                continue;
            }
            if !fresh {
                cur.push(if unit.newline && i == 0 { '\n' } else { ' ' });
                cur_len += 1;
            }
            cur.push_str(&u);
            cur_len += len;
            fresh = false;
        }
        open = unit.fence_after;
    }
    if !fresh {
        chunks.push(cur);
    }
    chunks
}

/// Splits one line of prose after sentence ends; the first keeps the
/// line's indent.
fn sentences(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        cur.push(c);
        if matches!(c, '.' | '!' | '?' | ';') && chars.peek() == Some(&' ') {
            push_sentence(&mut out, std::mem::take(&mut cur));
        }
    }
    if !cur.trim().is_empty() || out.is_empty() {
        push_sentence(&mut out, cur);
    }
    out
}

fn push_sentence(out: &mut Vec<String>, s: String) {
    let s = if out.is_empty() {
        s.trim_end()
    } else {
        s.trim()
    };
    out.push(s.to_string());
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

    /// A long value's key, its text's FNV-1a-64 which a user can aim, is
    /// never a pager's: keeping one cannot write over a reply's pages.
    #[test]
    fn long_values_and_pager_pages_never_share_a_key() {
        for _ in 0..1000 {
            let pager = new_key();
            assert_ne!(pager, long_value_key(pager));
            assert_eq!(pager & LONG_VALUE_BIT, 0);
        }
        assert_ne!(long_value_key(0) & LONG_VALUE_BIT, 0);
    }

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
    fn a_split_block_keeps_its_line_breaks_and_refences_its_code() {
        let lines: String = (0..300)
            .map(|i| format!("  guard{i}: Guardian number {i}\n"))
            .collect();
        let body = format!("Intro line one.\nIntro line two.\n\n```yaml\n{lines}```\nAfter.");
        let pages = layout(&[block("", &body)], 800);
        assert!(pages.len() > 2, "{}", pages.len());
        for p in &pages {
            assert!(p.chars().count() <= 800, "{}", p.chars().count());
            assert_eq!(p.matches("```").count() % 2, 0, "unbalanced fence: {p}");
        }
        let all = pages.join("\n");
        assert!(
            all.starts_with("Intro line one.\nIntro line two.\n\n```yaml\n  guard0:"),
            "{all}"
        );
        for i in 0..300 {
            assert!(
                all.contains(&format!("\n  guard{i}: Guardian number {i}\n")),
                "line {i} lost: {all}"
            );
        }
        assert!(pages[1].starts_with("```yaml\n"), "{}", pages[1]);
        assert!(all.ends_with("```\nAfter."), "{all}");
    }

    fn long_doc() -> Doc {
        Doc {
            kind: super::super::MessageKind::Answer,
            title: "t".into(),
            blocks: (0..50)
                .map(|i| block(&format!("**{i}**"), &"word ".repeat(100)))
                .collect(),
            footer: None,
            buttons: vec![],
        }
    }

    #[test]
    fn a_reply_keeps_at_most_its_page_limit_and_says_what_is_left() {
        let mut doc = long_doc();
        doc.blocks = vec![block(
            "**1.** `house:flat`",
            &"A sentence of a flat document. ".repeat(20_000),
        )];
        let (first, set) = paginate(doc, false);
        let set = set.expect("pages");
        assert_eq!(set.pages.len(), MAX_PAGES);
        assert_eq!(first.footer.as_deref(), Some("Page 1 of 30"));
        let last = &set.pages[MAX_PAGES - 1].body;
        assert!(last.contains("more pages, not kept"), "{last}");
        assert!(last.chars().count() <= 4096);
    }

    #[tokio::test]
    async fn pager_pages_are_kept_by_key() {
        let pages = Pages::default();
        let (first, set) = paginate(long_doc(), false);
        let set = set.expect("more than one page");
        let key = set.key;
        let Some(Action::Page { key: k, page }) = first
            .buttons
            .iter()
            .map(|b| b.action.clone())
            .find(|a| matches!(a, Action::Page { .. }))
        else {
            panic!("no pager button: {first:?}")
        };
        assert_eq!((k, page), (key, 1));
        pages.keep(vec![set]).await;
        let second = pages.get(key, 1).await.expect("page 2 kept");
        assert!(
            second
                .footer
                .as_deref()
                .is_some_and(|f| f.starts_with("Page 2 of"))
        );
        assert_eq!(pages.get(key, 0).await, Some(first));
        assert!(pages.get(key.wrapping_add(99), 1).await.is_none());
        // Keys differ from one reply to the next.
        let (_, other) = paginate(long_doc(), false);
        assert_ne!(other.unwrap().key, key);
    }

    /// A long autocomplete value is found again by its short reference,
    /// kept again without being counted twice; a reference to nothing
    /// kept, or to another text of the same start, finds nothing.
    #[tokio::test]
    async fn long_values_are_found_by_their_short_reference() {
        let pages = Pages::default();
        let long = format!("attack {} with Hammer Knight", "Guardian ".repeat(12));
        let reference = arbiter_text::short_ref(&long).into_owned();
        assert!(reference.chars().count() <= 100 && reference != long);
        assert_eq!(pages.long_value(&reference).await, None);
        pages.keep_long_values(std::slice::from_ref(&long)).await;
        pages.keep_long_values(std::slice::from_ref(&long)).await;
        assert_eq!(pages.long_value(&reference).await, Some(long.clone()));
        {
            let memory = pages.memory.lock().unwrap();
            assert_eq!(memory.order.len(), 1);
            assert_eq!(
                memory.bytes,
                memory.sets.values().map(|s| s.2).sum::<usize>()
            );
        }
        let other = arbiter_text::short_ref(&format!("{long} and more")).into_owned();
        assert_eq!(pages.long_value(&other).await, None);
        assert_eq!(pages.long_value(&long).await, None);
    }

    #[test]
    fn memory_is_bounded_oldest_first() {
        let (_, set) = paginate(long_doc(), false);
        let per_set = set.unwrap().bytes();
        let mut memory = Memory {
            cap: per_set * 20,
            ..Memory::default()
        };
        let fit = 20;
        let mut keys = Vec::new();
        for _ in 0..fit + 10 {
            let (_, s) = paginate(long_doc(), false);
            let s = s.unwrap();
            keys.push(s.key);
            memory.keep(s);
        }
        assert!(memory.bytes <= memory.cap, "{}", memory.bytes);
        assert_eq!(memory.sets.len(), fit);
        assert!(memory.get(keys[0], 0).is_none(), "the oldest went first");
        assert!(memory.get(*keys.last().unwrap(), 1).is_some());
    }
}
