//! Replies as plain data, and how the application's replies become them.

use std::fmt::Write;

use crate::app::{App, AskReply, CardReply, CiteReply, CoverageReply, RulesReply};
use crate::engine::{Claim, Decision, Diagnostic, Ruling, Severity, Step};
use arbiter_text::{count, short_ref};

/// What the bot answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A new message.
    Message(Message),
    /// Replaces the message a button is on (page turns).
    Update(Message),
    /// Autocomplete choices (at most 25).
    Choices(Vec<Choice>),
    /// A form to fill in.
    Modal(Modal),
}

/// How a message reads: colour and tone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MessageKind {
    /// A rules answer or a ruling.
    Answer,
    /// A legal play.
    Legal,
    /// An illegal play.
    Illegal,
    /// Help and lists.
    Info,
    /// The user's input was wrong (ephemeral).
    UserError,
    /// Arbiter had no room for the work just now: try again (ephemeral).
    Busy,
    /// Our fault; carries an error id (ephemeral).
    InternalError,
}

/// One page of a reply: a title, a markdown body within Discord's embed
/// limits, a footer, and buttons.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Message {
    pub kind: MessageKind,
    pub title: String,
    pub body: String,
    pub footer: Option<String>,
    pub buttons: Vec<Button>,
    /// Only the user who asked sees it.
    pub ephemeral: bool,
    /// A text file sent with the message (`/match export`).
    pub attachment: Option<FileAttachment>,
    /// A picture of the board (PNG) sent with the message, with its alt
    /// text; never kept with pager pages.
    #[serde(skip)]
    pub picture: Option<PictureFile>,
    /// A user to ping with a short line (whose turn or decision it is):
    /// sent as a new message so Discord notifies them, mentioning only them.
    pub ping: Option<Ping>,
}

/// A turn notice: the user (a Discord id) and what is asked of them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ping {
    pub user: u64,
    pub text: String,
}

/// A file sent with a message: its name and text.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FileAttachment {
    pub filename: String,
    pub text: String,
}

/// A picture sent with a message: file name, PNG bytes, alt text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PictureFile {
    pub filename: String,
    pub png: Vec<u8>,
    pub alt: String,
}

impl PictureFile {
    /// A drawn board as the file a message carries.
    pub fn of(p: crate::render::pictures::Picture) -> PictureFile {
        PictureFile {
            filename: "board.png".into(),
            png: p.png,
            alt: p.alt,
        }
    }
}

impl Message {
    pub fn info(title: &str, body: &str) -> Message {
        Message {
            kind: MessageKind::Info,
            title: title.into(),
            body: body.into(),
            footer: None,
            buttons: vec![],
            ephemeral: false,
            attachment: None,
            picture: None,
            ping: None,
        }
    }

    pub fn user_error(title: &str, why: &str) -> Message {
        Message {
            kind: MessageKind::UserError,
            title: format!("{title}: cannot do that"),
            body: truncate(why, super::PAGE_BUDGET),
            footer: None,
            buttons: vec![],
            ephemeral: true,
            attachment: None,
            picture: None,
            ping: None,
        }
    }

    /// Arbiter had no room for the work (the CPU pool was full): shown like
    /// a refusal, counted apart.
    pub fn busy(title: &str, why: &str) -> Message {
        Message {
            kind: MessageKind::Busy,
            ..Message::user_error(title, why)
        }
    }

    pub fn internal_error(id: &str) -> Message {
        Message {
            kind: MessageKind::InternalError,
            title: "Something went wrong on our side".into(),
            body: format!(
                "Please try again in a moment. If it keeps happening, report error id `{id}`."
            ),
            footer: Some(format!("error id {id}")),
            buttons: vec![],
            ephemeral: true,
            attachment: None,
            picture: None,
            ping: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ButtonStyle {
    Primary,
    Secondary,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Button {
    pub label: String,
    pub action: Action,
    pub style: ButtonStyle,
}

impl Button {
    pub fn new(label: &str, action: Action, style: ButtonStyle) -> Button {
        Button {
            label: truncate(label, 80),
            action,
            style,
        }
    }
}

/// What a button does; round-trips through a Discord custom id (≤ 100 chars),
/// which is also its serialized form (kept pager pages).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Action {
    /// Show one passage.
    Cite(String),
    /// Show a passage and everything under it.
    Section(String),
    /// Show one passage as the server's rule set was at `version` (a
    /// match's pinned version: its citations stay as when it started).
    CiteAt { version: i64, id: String },
    /// Show a section as the server's rule set was at `version`.
    SectionAt { version: i64, id: String },
    /// Turn to page `page` (0-based) of kept pages `key`.
    Page { key: u64, page: usize },
    /// Answer the decision match `match_id` waits on at `version` with
    /// option `option` (0-based).
    Decide {
        match_id: i64,
        version: i64,
        option: usize,
    },
    /// Make the upload kept under this token live (`/rules add`).
    RulesConfirm(String),
    /// Drop the upload kept under this token.
    RulesCancel(String),
    /// Show a card (`/card name:`), from a `/rule` answer that names it.
    Card(String),
    /// 👍 / 👎 on the `/rule` answer kept under `key`.
    Feedback {
        key: String,
        verdict: crate::store::Verdict,
    },
    /// Show a picture of match `match_id`'s board as it is now.
    Picture { match_id: i64 },
}

impl Action {
    pub fn custom_id(&self) -> String {
        match self {
            Action::Cite(id) => format!("cite:{}", short_ref(id)),
            Action::Section(id) => format!("section:{}", short_ref(id)),
            Action::CiteAt { version, id } => format!("citeat:{version}:{}", short_ref(id)),
            Action::SectionAt { version, id } => {
                format!("sectionat:{version}:{}", short_ref(id))
            }
            Action::Page { key, page } => format!("page:{key:x}:{page}"),
            Action::Decide {
                match_id,
                version,
                option,
            } => format!("decide:{match_id}:{version}:{option}"),
            Action::RulesConfirm(token) => format!("rules-confirm:{token}"),
            Action::RulesCancel(token) => format!("rules-cancel:{token}"),
            Action::Feedback { key, verdict } => format!("fb:{key}:{}", verdict.as_str()),
            Action::Card(name) => format!("card:{}", short_ref(name)),
            Action::Picture { match_id } => format!("picture:{match_id}"),
        }
    }

    /// This citation pinned to a rule-set version (a match's); other
    /// actions as they are.
    pub fn pinned(self, version: i64) -> Action {
        match self {
            Action::Cite(id) => Action::CiteAt { version, id },
            Action::Section(id) => Action::SectionAt { version, id },
            other => other,
        }
    }

    /// The rule-set version this action pins, if any.
    pub fn rule_set_version(&self) -> Option<i64> {
        match self {
            Action::CiteAt { version, .. } | Action::SectionAt { version, .. } => Some(*version),
            _ => None,
        }
    }

    pub fn parse(custom_id: &str) -> Option<Action> {
        let (kind, rest) = custom_id.split_once(':')?;
        match kind {
            "cite" => Some(Action::Cite(rest.to_string())),
            "section" => Some(Action::Section(rest.to_string())),
            "citeat" | "sectionat" => {
                let (version, id) = rest.split_once(':')?;
                let (version, id) = (version.parse().ok()?, id.to_string());
                Some(if kind == "citeat" {
                    Action::CiteAt { version, id }
                } else {
                    Action::SectionAt { version, id }
                })
            }
            "rules-confirm" => Some(Action::RulesConfirm(rest.to_string())),
            "rules-cancel" => Some(Action::RulesCancel(rest.to_string())),
            "card" => Some(Action::Card(rest.to_string())),
            "fb" => {
                let (key, verdict) = rest.split_once(':')?;
                let verdict = crate::store::Verdict::parse(verdict)
                    .filter(|v| *v != crate::store::Verdict::Right)?;
                Some(Action::Feedback {
                    key: key.to_string(),
                    verdict,
                })
            }
            "picture" => Some(Action::Picture {
                match_id: rest.parse().ok()?,
            }),
            "decide" => {
                let mut parts = rest.splitn(3, ':');
                Some(Action::Decide {
                    match_id: parts.next()?.parse().ok()?,
                    version: parts.next()?.parse().ok()?,
                    option: parts.next()?.parse().ok()?,
                })
            }
            "page" => {
                let (key, page) = rest.split_once(':')?;
                Some(Action::Page {
                    key: u64::from_str_radix(key, 16).ok()?,
                    page: page.parse().ok()?,
                })
            }
            _ => None,
        }
    }
}

impl From<Action> for String {
    fn from(a: Action) -> String {
        a.custom_id()
    }
}

impl TryFrom<String> for Action {
    type Error = String;

    fn try_from(id: String) -> Result<Action, String> {
        Action::parse(&id).ok_or_else(|| format!("unknown button {}", code_span(&id)))
    }
}

/// An autocomplete choice: what is shown, and what is filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub name: String,
    pub value: ChoiceValue,
}

/// A choice's value, typed as its option is: Discord refuses a string
/// choice for an integer option (`match:N`).
#[derive(Debug, Clone, PartialEq)]
pub enum ChoiceValue {
    Text(String),
    Integer(i64),
}

impl ChoiceValue {
    /// Whether this is the text `typed`.
    pub fn is(&self, typed: &str) -> bool {
        matches!(self, ChoiceValue::Text(t) if t == typed)
    }
}

impl From<String> for ChoiceValue {
    fn from(text: String) -> ChoiceValue {
        ChoiceValue::Text(text)
    }
}

/// What was typed stays the first choice (so free text can still be sent),
/// within Discord's 25 choices of at most 100 characters.
pub fn keep_typed(mut choices: Vec<Choice>, value: &str) -> Vec<Choice> {
    choices.truncate(super::MAX_CHOICES);
    let typed = value.trim();
    if !typed.is_empty()
        && !choices.iter().any(|c| c.value.is(typed))
        && typed.chars().count() <= 100
    {
        if choices.len() == super::MAX_CHOICES {
            choices.pop();
        }
        choices.insert(
            0,
            Choice {
                name: typed.to_string(),
                value: typed.to_string().into(),
            },
        );
    }
    choices
}

impl Choice {
    pub fn passage(id: &str, title: &str) -> Choice {
        Choice {
            name: truncate(&format!("{id} — {title}"), 100),
            value: short_ref(id).into_owned().into(),
        }
    }
}

/// A form with one paragraph field.
#[derive(Debug, Clone, PartialEq)]
pub struct Modal {
    pub custom_id: String,
    pub title: String,
    pub field_id: String,
    pub label: String,
    pub placeholder: String,
    pub max_length: u16,
}

/// A reply before pagination: blocks that are never split across pages
/// except at line or sentence boundaries, with the citation repeated.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    pub kind: MessageKind,
    pub title: String,
    pub blocks: Vec<Block>,
    pub footer: Option<String>,
    pub buttons: Vec<Button>,
}

/// One unit of a reply: a citation header and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// Repeated (with "continued") when the body spills onto the next page.
    pub head: String,
    pub body: String,
    /// A fenced code block: split only between lines, each part re-fenced.
    pub code: bool,
}

impl Block {
    fn text(head: String, body: String) -> Block {
        Block {
            head,
            body,
            code: false,
        }
    }
}

/// Cuts at a character boundary, adding "…" when cut.
pub fn truncate(s: &str, max_chars: usize) -> String {
    if s.chars().count() <= max_chars {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max_chars.saturating_sub(1)).collect();
    out.push('…');
    out
}

pub use crate::render::markdown::{
    code_block_body, code_span, escape_inline, escape_md, escape_unlinked, push_escaped,
};

/// The passage that is "the whole section" for `idx`: itself when it has
/// children, else its parent.
fn section_of(app: &App, id: &str) -> Option<(String, String)> {
    let idx = app.corpus.index_of(id)?;
    let p = &app.corpus.passages[idx];
    let s = if p.children.is_empty() {
        &app.corpus.passages[p.parent?]
    } else {
        p
    };
    Some((s.id.clone(), s.title.clone()))
}

fn ref_buttons(refs: &[crate::corpus::CrossRef], seen: &mut Vec<String>, out: &mut Vec<Button>) {
    for r in refs {
        if let Some(t) = &r.target
            && !seen.contains(t)
            && out.len() < 15
        {
            seen.push(t.clone());
            // Two documents' "See rule 510" lead to two passages: the
            // second is labelled with its id, so the two read apart.
            let mut label = format!("→ {}", r.label);
            if out.iter().any(|b| b.label == label) {
                label = format!("→ {t}");
            }
            out.push(Button::new(
                &label,
                Action::Cite(t.clone()),
                ButtonStyle::Secondary,
            ));
        }
    }
}

/// A result's text, escaped, its highlight in bold (first occurrence),
/// then its amendments: built once, in one string.
fn quoted_body(r: &crate::app::AskResult) -> String {
    let amended = amendments(&r.amended_by, r.amended_more);
    let mut body = String::with_capacity(r.text.len() + 16 + amended.len());
    let at = r.highlight_at;
    let end = at + r.highlight.len();
    match r
        .text
        .get(at..end)
        .filter(|h| !h.is_empty() && *h == r.highlight)
    {
        Some(hl) => {
            push_escaped(&mut body, &r.text[..at]);
            body.push_str("**");
            push_escaped(&mut body, hl);
            body.push_str("**");
            push_escaped(&mut body, &r.text[end..]);
        }
        None => push_escaped(&mut body, &r.text),
    }
    body.push_str(&amended);
    body
}

pub fn ask_message(app: &App, reply: &AskReply) -> Doc {
    // On one line: a title holds no line break (an outside tester's
    // question put "## FAKE HEADER" on a line of its own in it). Escaped:
    // a title renders bold, italics and code spans.
    let query = escape_inline(&arbiter_text::single_spaced(&reply.query));
    let title = truncate(&format!("Rules: {query}"), 256);
    let mut blocks = reading_notes(app, reply);
    if reply.results.is_empty() {
        blocks.push(nothing_relevant(reply));
        return Doc {
            kind: MessageKind::Answer,
            title,
            blocks,
            footer: None,
            buttons: vec![],
        };
    }
    if reply.confidence == crate::app::Confidence::Closest {
        blocks.push(Block::text(
            String::new(),
            format!(
                "⚠ *{}{}*",
                crate::render::text::closest_caveat(reply),
                escape_inline(&crate::render::text::unknown_words(reply))
            ),
        ));
    }
    let mut buttons = Vec::new();
    let mut card_buttons = Vec::new();
    cards_beside(reply, &mut blocks, &mut card_buttons);
    let mut seen: Vec<String> = reply.results.iter().map(|r| r.id.clone()).collect();
    let groups = reply.by_part();
    for (i, (part, results)) in groups.iter().enumerate() {
        if let Some(p) = part {
            blocks.push(Block::text(
                String::new(),
                format!(
                    "__{}__",
                    escape_inline(&crate::render::text::part_heading(reply, p))
                ),
            ));
            if let Some(above) = crate::app::AskReply::best_shown_above(&groups, i) {
                let bold = |s: &str| format!("**{}**", escape_md(s));
                let line = crate::render::text::shown_above(p, above, &bold);
                blocks.push(Block::text(String::new(), line));
            }
        }
        for (n, r) in results {
            blocks.push(result_block(*n, r));
            ref_buttons(&r.refs, &mut seen, &mut buttons);
        }
    }
    if let Some(first) = reply.results.first()
        && let Some((sid, stitle)) = section_of(app, &first.id)
    {
        buttons.push(Button::new(
            &format!("Whole section: {stitle}"),
            Action::Section(sid),
            ButtonStyle::Primary,
        ));
    }
    buttons.extend(card_buttons);
    let bold = if reply.confidence == crate::app::Confidence::Answer {
        "the sentence that answers"
    } else {
        "the sentence closest to the question"
    };
    let footer = Some(format!(
        "Bold: {bold}. {} cited.",
        count(reply.results.len(), "passage")
    ));
    Doc {
        kind: MessageKind::Answer,
        title,
        blocks,
        footer,
        buttons,
    }
}

/// The cards the question names, each with its text and a `/card` button
/// (a name too long for a button's id gets none).
fn cards_beside(reply: &AskReply, blocks: &mut Vec<Block>, buttons: &mut Vec<Button>) {
    for c in &reply.cards {
        let text = if c.text.is_empty() {
            "(no text in the card list)".to_string()
        } else {
            escape_md(&c.text)
        };
        blocks.push(Block::text(
            String::new(),
            format!(
                "🃏 **{}** ({}): {text}",
                escape_md(&c.name),
                escape_md(&c.game)
            ),
        ));
        if c.name.chars().count() <= 95 {
            buttons.push(Button::new(
                &format!("Card: {}", c.name),
                Action::Card(c.name.clone()),
                ButtonStyle::Secondary,
            ));
        }
    }
}

/// How the question was read: typo repairs, and the channel's match game
/// when that chose the game.
fn reading_notes(app: &App, reply: &AskReply) -> Vec<Block> {
    let mut blocks = Vec::new();
    for (typed, card) in &reply.card_suggestions {
        blocks.push(Block::text(
            String::new(),
            format!(
                "*(“{}”: did you mean the card {}?)*",
                escape_inline(typed),
                escape_md(card)
            ),
        ));
    }
    if !reply.corrections.is_empty() {
        let c: Vec<String> = reply
            .corrections
            .iter()
            .map(|(t, u)| format!("'{}' as '{}'", escape_inline(t), escape_md(u)))
            .collect();
        blocks.push(Block::text(
            String::new(),
            format!("*(reading {})*", c.join(", ")),
        ));
    }
    if reply.game_from == Some(crate::app::GameFrom::Match)
        && let Some(g) = reply.game.as_deref()
    {
        let name = app.corpus.game(g).map_or(g, |x| x.name.as_str());
        blocks.push(Block::text(
            String::new(),
            format!(
                "*({} rules: this channel's match. Name another game in the question, or give `game:`.)*",
                escape_md(name)
            ),
        ));
    }
    blocks
}

/// "none": nothing relevant, and what the indexed rules in scope cover.
fn nothing_relevant(reply: &AskReply) -> Block {
    if let Some(game) = &reply.not_indexed {
        let how = "`/rules add`; `/games` lists the indexed games";
        let body = crate::render::text::not_indexed(&escape_md(game), how);
        return Block::text(String::new(), body);
    }
    let scope = reply
        .game
        .as_deref()
        .map(|g| format!(" for {g}"))
        .unwrap_or_default();
    let mut body = format!(
        "{} Nothing in the indexed rules{scope} is relevant to this.{}",
        crate::render::text::NO_RULE,
        escape_inline(&crate::render::text::unknown_words(reply))
    );
    if !reply.covers.is_empty() {
        body.push_str("\nThe indexed rules cover:");
        for c in &reply.covers {
            body.push_str(&format!("\n• {}", escape_md(c)));
        }
        body.push_str(
            "\nTry asking with words from those rules, or `/games` for everything indexed.",
        );
    }
    Block::text(String::new(), body)
}

/// One passage found: number, id, title, path, the glossary entry it was
/// reached through, and its text with the answering sentence in bold.
fn result_block(n: usize, r: &crate::app::AskResult) -> Block {
    let mut head = format!(
        "**{}. `{}` {}**\n*{}*",
        n + 1,
        r.id,
        escape_md(&r.title),
        escape_md(&r.path.join(" › "))
    );
    if let Some(v) = &r.via {
        head.push_str(&format!(
            "\n> Glossary, {}: {}",
            escape_md(&v.term),
            escape_md(&v.text.replace('\n', " "))
        ));
    }
    Block::text(head, quoted_body(r))
}

/// The FAQ/errata/house passages that amend a rule, quoted under it.
fn amendments(list: &[crate::app::Amendment], more: usize) -> String {
    let mut out: String = list
        .iter()
        .map(|a| match &a.reads_after {
            None => format!(
                "\n> **Amended by {}** `{}`: {}",
                escape_md(&a.source),
                a.id,
                escape_md(&a.text.replace('\n', " "))
            ),
            Some(before) => format!(
                "\n> **Then amended by {}** `{}` (added after `{before}`, which it overrides where they differ): {}",
                escape_md(&a.source),
                a.id,
                escape_md(&a.text.replace('\n', " "))
            ),
        })
        .collect();
    if more > 0 {
        out.push_str(&format!(
            "\n> *and amended by {more} more passages, not shown*"
        ));
    }
    out
}

pub fn passages_message(app: &App, reply: &CiteReply, whole_section: bool) -> Doc {
    let mut blocks = Vec::new();
    let mut buttons = Vec::new();
    let mut seen: Vec<String> = reply.passages.iter().map(|p| p.id.clone()).collect();
    let first = reply.passages.first();
    for (n, p) in reply.passages.iter().enumerate() {
        let indent = "\u{2003}".repeat(p.depth.min(4));
        let head = if n == 0 {
            format!(
                "**`{}` {}**\n*{}*",
                p.id,
                escape_md(&p.title),
                escape_md(&p.path.join(" › "))
            )
        } else {
            format!("{indent}**`{}` {}**", p.id, escape_md(&p.title))
        };
        blocks.push(Block::text(
            head,
            escape_md(&p.text) + &amendments(&p.amended_by, p.amended_more),
        ));
        ref_buttons(&p.refs, &mut seen, &mut buttons);
    }
    if !whole_section
        && let Some(p) = first
        && let Some((sid, stitle)) = section_of(app, &p.id)
    {
        buttons.push(Button::new(
            &format!("Whole section: {stitle}"),
            Action::Section(sid),
            ButtonStyle::Primary,
        ));
    }
    let title = match first {
        Some(p) if whole_section => truncate(&format!("Section: {}", escape_inline(&p.title)), 256),
        Some(p) => truncate(&escape_inline(&p.title), 256),
        None => "Rule".into(),
    };
    Doc {
        kind: MessageKind::Answer,
        title,
        blocks,
        footer: None,
        buttons,
    }
}

/// A card: type, cost and stats, its text verbatim, its rulings, and a
/// button for each rule its text names.
pub fn card_message(reply: &CardReply) -> Doc {
    let c = &reply.card;
    let mut facts: Vec<String> = Vec::new();
    if !c.card_type.is_empty() {
        facts.push(format!("**{}**", escape_md(&c.card_type)));
    }
    if !c.cost.is_empty() {
        facts.push(format!("cost {}", escape_md(&c.cost)));
    }
    facts.extend(c.stats.iter().map(|(k, v)| {
        format!(
            "{} {}",
            escape_md(k),
            escape_md(&crate::cards::Card::stat_text(v))
        )
    }));
    let head = format!(
        "*{} › {}*",
        escape_md(&reply.game_name),
        escape_md(&reply.source)
    );
    let text = match c.text.as_str() {
        "" => "*(no text in the card list)*".to_string(),
        t => escape_md(t),
    };
    let mut blocks = vec![Block::text(head, format!("{}\n{text}", facts.join(" · ")))];
    if !c.rulings.is_empty() {
        let body: Vec<String> = c
            .rulings
            .iter()
            .map(|r| format!("• {}", escape_md(r)))
            .collect();
        blocks.push(Block::text("**Rulings**".into(), body.join("\n")));
    }
    if !reply.rules.is_empty() {
        let body: Vec<String> = reply
            .rules
            .iter()
            .map(|r| {
                format!(
                    "“{}” → `{}` {}",
                    escape_md(&r.term),
                    r.id,
                    escape_md(&r.title)
                )
            })
            .collect();
        blocks.push(Block::text(
            "**Rules its text names**".into(),
            body.join("\n"),
        ));
    }
    let buttons = reply
        .rules
        .iter()
        .map(|r| Button::new(&r.title, Action::Cite(r.id.clone()), ButtonStyle::Secondary))
        .collect();
    let aliases = (!c.aliases.is_empty()).then(|| format!("also called: {}", c.aliases.join(", ")));
    Doc {
        kind: MessageKind::Answer,
        title: truncate(&escape_inline(&c.name), 256),
        blocks,
        footer: aliases,
        buttons,
    }
}

pub fn ruling_message(r: &Ruling) -> Doc {
    let verdict = match (r.legal, &r.pending) {
        (false, _) => "the play is ILLEGAL",
        (true, Some(_)) => "waiting for a decision",
        (true, None) => "the play is legal",
    };
    let title = truncate(&format!("Ruling ({}): {verdict}", r.game), 256);
    let mut blocks: Vec<Block> = r.steps.iter().enumerate().map(step_block).collect();
    blocks.extend(r.diagnostics.iter().map(diagnostic_block));
    blocks.extend(r.claims.iter().map(claim_block));
    blocks.extend(r.pending.as_ref().map(pending_block));
    if let Some(res) = r.status.as_ref().and_then(|s| s.result.as_ref()) {
        blocks.push(Block::text(
            "**🏁 Result**".into(),
            escape_unlinked(crate::render::text::result(res).trim_end()),
        ));
    }
    blocks.push(changes_block(r));
    blocks.push(state_block(r));
    let footer = Some(format!(
        "{}, {}. Buttons open the rules cited.",
        count(r.steps.len(), "step"),
        count(r.diagnostics.len(), "diagnostic")
    ));
    Doc {
        kind: if r.legal {
            MessageKind::Legal
        } else {
            MessageKind::Illegal
        },
        title,
        blocks,
        footer,
        buttons: cited_rule_buttons(r),
    }
}

/// A resolved step: its rule, text, the choice (and whether it was
/// assumed), its numbers and its assumption.
fn step_block((n, s): (usize, &Step)) -> Block {
    let head = format!("**{}.** `{}`", n + 1, s.rule);
    let mut body = escape_unlinked(&s.text);
    if let Some(c) = &s.choice {
        let _ = match &c.assumed {
            Some(why) => write!(
                body,
                "\n\u{2003}choice: {} — *{}*",
                escape_unlinked(&c.sentence()),
                escape_unlinked(why)
            ),
            None => write!(body, "\n\u{2003}choice: {}", escape_unlinked(&c.sentence())),
        };
    }
    if !s.numbers.is_empty() {
        let nums: Vec<String> = s
            .numbers
            .iter()
            .map(|(k, v)| format!("{} = {v}", escape_unlinked(k)))
            .collect();
        let _ = write!(body, "\n\u{2003}{}", nums.join(", "));
    }
    if let Some(a) = &s.assumption {
        let _ = write!(
            body,
            "\n\u{2003}*assumption (not in the indexed rules): {}*",
            escape_unlinked(a)
        );
    }
    Block::text(head, body)
}

fn diagnostic_block(d: &Diagnostic) -> Block {
    let sev = match d.severity {
        Severity::Error => "❌ error",
        Severity::Refused => "🚫 refused",
        Severity::Warning => "⚠️ warning",
        Severity::Info => "ℹ️ note",
    };
    let mut head = format!("**{sev}**");
    if let Some(rule) = &d.rule {
        let _ = write!(head, " `{rule}`");
    }
    let mut body = escape_unlinked(&d.message);
    if let Some(p) = &d.path {
        let _ = write!(body, " (at {})", code_span(p));
    }
    Block::text(head, body)
}

/// A fact the play states that the board does not record, which the
/// ruling took on the player's word (in a match, the others confirmed it).
fn claim_block(c: &Claim) -> Block {
    let head = format!("**🗣 stated by the player, not on the board** `{}`", c.rule);
    let body = format!("{} (at {})", escape_unlinked(&c.text), code_span(&c.path));
    Block::text(head, body)
}

/// The decision the ruling waits for, with its numbered options.
fn pending_block(d: &Decision) -> Block {
    let mut body = format!("{} `{}`", escape_unlinked(&d.question), d.rule);
    for (i, o) in d.options.iter().enumerate() {
        let default = match d.default == Some(i) {
            // Said plainly: what happens, and that it is the engine's
            // assumption ("assumed: the rules give no default" read unclear).
            true if d.default_assumed => {
                " *(taken if nobody answers: the rules give no default, so this is assumed)*"
            }
            true => " *(the rules' default)*",
            false => "",
        };
        let _ = write!(body, "\n{}. {}{default}", i + 1, escape_unlinked(&o.label));
    }
    Block::text(
        format!("**⏳ waiting for {}**", escape_unlinked(&d.player)),
        body,
    )
}

fn changes_block(r: &Ruling) -> Block {
    let body = if r.changes.is_empty() {
        "no change to the board".to_string()
    } else {
        let lines: Vec<String> = r
            .changes
            .iter()
            .map(|c| {
                let (before, after) = c.read();
                format!(
                    "{}: {} → {}",
                    code_span(&c.path),
                    value_md(&before.to_string()),
                    value_md(&after.to_string())
                )
            })
            .collect();
        lines.join("\n")
    };
    Block::text("**Changes**".into(), body)
}

/// A change's value (JSON: a name, a list of names) as inline text shown
/// as typed. Its brackets stay plain unless they could make a masked link
/// (`](`): a list reads `["move"]` in the source, not `\[…\]`.
fn value_md(v: &str) -> String {
    let escaped = escape_inline(v);
    if v.contains("](") {
        escaped
    } else {
        escaped.replace("\\[", "[").replace("\\]", "]")
    }
}

/// The state as YAML, like the board documents: it can be pasted back as
/// the next board.
fn state_block(r: &Ruling) -> Block {
    let state = serde_saphyr::to_string(&r.state)
        .unwrap_or_else(|_| serde_json::to_string_pretty(&r.state).unwrap_or_default());
    let head = if r.legal {
        "**Resulting state**"
    } else {
        "**State (unchanged)**"
    };
    Block {
        head: head.into(),
        body: state.trim_end().to_string(),
        code: true,
    }
}

/// A button per rule the steps and diagnostics cite, first use first (at
/// most 15).
fn cited_rule_buttons(r: &Ruling) -> Vec<Button> {
    let mut rules: Vec<&str> = Vec::new();
    let cited = r
        .steps
        .iter()
        .map(|s| s.rule.as_str())
        .chain(r.diagnostics.iter().filter_map(|d| d.rule.as_deref()));
    for id in cited {
        if !rules.contains(&id) {
            rules.push(id);
        }
    }
    rules
        .into_iter()
        .take(15)
        .map(|id| Button::new(id, Action::Cite(id.to_string()), ButtonStyle::Secondary))
        .collect()
}

pub fn games_message(rules: &RulesReply, coverage: &CoverageReply) -> Doc {
    let mut blocks = Vec::new();
    for g in &rules.games {
        let cov = coverage.games.iter().find(|c| c.game == g.id);
        let engine = match cov {
            Some(c) if c.has_engine => {
                format!(
                    "engine executes {} of {}",
                    c.executed,
                    crate::render::text::passages(c.passages)
                )
            }
            Some(c) => format!(
                "{}; no rules engine yet (`/rule` works, `/judge` does not)",
                crate::render::text::passages(c.passages)
            ),
            None => String::new(),
        };
        let head = format!("**{}** (`{}`)", escape_md(&g.name), g.id);
        let mut body = engine;
        for d in &g.documents {
            let _ = write!(
                body,
                "\n\u{2003}{} — {} ({})",
                escape_md(&d.title),
                escape_md(&d.version),
                crate::render::text::passages(d.passages)
            );
        }
        if !g.aliases.is_empty() {
            let _ = write!(body, "\n\u{2003}also: {}", escape_md(&g.aliases.join(", ")));
        }
        blocks.push(Block::text(head, body));
    }
    Doc {
        kind: MessageKind::Info,
        title: format!("Games indexed: {}", rules.games.len()),
        blocks,
        footer: Some("Use the game id or any alias in /rule and in board documents.".into()),
        buttons: vec![],
    }
}

/// `/games game:`: per document, its contents; per passage, whether the
/// engine executes it and in which procedure.
pub fn coverage_message(rules: &RulesReply, coverage: &CoverageReply) -> Doc {
    let mut blocks = Vec::new();
    let mut title = String::from("Game coverage");
    let mut footer = None;
    for g in &rules.games {
        let Some(cov) = coverage.games.iter().find(|c| c.game == g.id) else {
            continue;
        };
        title = format!("{} (`{}`): rules coverage", escape_md(&g.name), g.id);
        footer = Some(if cov.has_engine {
            format!(
                "The engine executes {} of {}. ✅ executed (← the procedure), ▫️ text only: /rule cites it, /judge does not apply it.",
                cov.executed,
                crate::render::text::passages(cov.passages)
            )
        } else {
            format!(
                "{}; no rules engine yet: /rule cites them, /judge cannot apply them.",
                crate::render::text::passages(cov.passages)
            )
        });
        for d in &g.documents {
            let head = format!(
                "**{}** — {} ({})",
                escape_md(&d.title),
                escape_md(&d.version),
                crate::render::text::passages(d.passages)
            );
            let mut body = String::new();
            for t in &d.toc {
                let by = cov
                    .entries
                    .iter()
                    .find(|e| e.id == t.id)
                    .map(|e| e.executed_by.as_slice())
                    .unwrap_or_default();
                let indent = "\u{2003}".repeat(t.depth);
                let title = escape_md(&truncate(&t.title, 120));
                if by.is_empty() {
                    let _ = writeln!(body, "{indent}▫️ `{}` {title} — text only", t.id);
                } else {
                    let _ = writeln!(
                        body,
                        "{indent}✅ `{}` {title} — executed ← {}",
                        t.id,
                        escape_md(&truncate(&by.join("; "), 300))
                    );
                }
            }
            blocks.push(Block::text(head, body.trim_end().to_string()));
        }
    }
    Doc {
        kind: MessageKind::Info,
        title,
        blocks,
        footer,
        buttons: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::escape_md;

    /// Two references written alike that lead to two passages (a house
    /// copy's "See rule 510" beside the rulebook's) read apart.
    #[test]
    fn two_references_written_alike_read_apart() {
        use crate::corpus::CrossRef;
        let r = |target: &str| CrossRef {
            label: "See rule 510".into(),
            target: Some(target.into()),
        };
        let mut out = Vec::new();
        let refs = [r("mtg:510"), r("mtg:league.510"), r("mtg:510")];
        super::ref_buttons(&refs, &mut Vec::new(), &mut out);
        let labels: Vec<&str> = out.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["→ See rule 510", "→ mtg:league.510"]);
    }

    /// A list the board left out (empty) that a play adds to reads as an
    /// addition, "[] → [x]", not "null → [x]"; a list emptied, "→ []".
    #[test]
    fn a_list_added_to_or_emptied_reads_from_or_to_the_empty_list() {
        use serde_json::{Value, json};
        let mut r = crate::engine::Ruling::no_play("legion", Value::Null, None);
        let change = |path: &str, before: Value, after: Value| crate::engine::Change {
            path: path.into(),
            before,
            after,
        };
        r.changes = vec![
            change("units[0].performed", Value::Null, json!(["move"])),
            change("units[1].performed", json!(["aim"]), Value::Null),
            change("units[2].name", Value::Null, json!("Han")),
        ];
        let body = super::changes_block(&r).body;
        let lines: Vec<&str> = body.lines().collect();
        assert_eq!(lines[0], "`units[0].performed`: [] → [\"move\"]");
        assert_eq!(lines[1], "`units[1].performed`: [\"aim\"] → []");
        // A field that is no list and was not set reads so.
        assert_eq!(lines[2], "`units[2].name`: (not set) → \"Han\"");
    }

    /// A choice nobody stated reads with its verb ("Coal the order …").
    #[test]
    fn an_assumed_choice_reads_as_a_sentence() {
        let mut st = crate::engine::Step {
            rule: "r".into(),
            text: "t".into(),
            numbers: Vec::new(),
            choice: None,
            assumption: None,
        };
        st.assumed("Maeoni", "not to block", "not stated on the board");
        let b = super::step_block((0, &st));
        assert!(
            b.body
                .contains("choice: Maeoni chooses not to block — *not stated on the board*"),
            "{}",
            b.body
        );
    }

    #[test]
    fn a_feedback_button_round_trips_and_a_forged_one_is_unknown() {
        use super::Action;
        use crate::store::Verdict;
        for verdict in [Verdict::Up, Verdict::Down] {
            let a = Action::Feedback {
                key: "00ff00ff00ff00ff".into(),
                verdict,
            };
            assert_eq!(Action::parse(&a.custom_id()), Some(a.clone()));
            assert!(a.custom_id().len() <= 100);
        }
        assert_eq!(Action::parse("fb:00ff:right"), None);
        assert_eq!(Action::parse("fb:00ff:meh"), None);
        assert_eq!(Action::parse("fb:00ff"), None);
    }

    #[test]
    fn escape_md_escapes_markdown_and_keeps_other_text() {
        assert_eq!(escape_md(""), "");
        assert_eq!(escape_md("plain — text’s"), "plain — text’s");
        assert_eq!(
            escape_md("*a* _b_ ~c~ `d` |e| \\f é*"),
            "\\*a\\* \\_b\\_ \\~c\\~ \\`d\\` \\|e\\| \\\\f é\\*"
        );
    }
}
