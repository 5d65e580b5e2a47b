//! Plain-text rendering for the terminal and the console.

use std::fmt::Write;

use crate::app::{AskReply, CiteReply, Confidence, GameFrom, RulesReply};
use crate::search::Suggestion;
use crate::text::count;

/// How to mark the answering sentence.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// ANSI bold (a terminal) rather than `**…**` (a pipe or a file).
    pub ansi: bool,
}

impl Style {
    /// ANSI when standard output is a terminal.
    pub fn for_stdout() -> Style {
        Style {
            ansi: std::io::IsTerminal::is_terminal(&std::io::stdout()),
        }
    }

    fn emphasize(&self, s: &str) -> String {
        if self.ansi {
            format!("\x1b[1m{s}\x1b[0m")
        } else {
            format!("**{s}**")
        }
    }
}

/// The message when nothing indexed answers the question.
pub const NO_RULE: &str = "No indexed rule covers this.";

/// The caveat above passages labelled `closest`.
pub const CLOSEST: &str = "These are the closest rules found; they may not answer your question.";

/// The caveat of a question asked in parts, some labelled "closest": each
/// part's heading says its own label (one caveat over the whole read as
/// if it were said of a part labelled "answer", found by an outside tester).
pub const CLOSEST_PARTS: &str =
    "Some parts have only the closest rules found; each part's heading says which.";

/// The caveat above a "closest" reply: of the whole, or of its parts.
pub fn closest_caveat(reply: &AskReply) -> &'static str {
    match reply.parts.len() > 1 {
        true => CLOSEST_PARTS,
        false => CLOSEST,
    }
}

/// Words of the question no indexed rule uses, for the caveat, then the
/// words only other games' rules use, said as what they are: not words of
/// the game searched ("ti4's rules, the ones searched, do not use
/// “guard”"), never as words no rule uses.
pub fn unknown_words(reply: &AskReply) -> String {
    let quote = |words: &mut dyn Iterator<Item = &str>| {
        words
            .take(6)
            .map(|w| format!("“{w}”"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::new();
    if !reply.ignored.is_empty() {
        let words = quote(&mut reply.ignored.iter().map(String::as_str));
        let _ = write!(out, " No indexed rule uses {words}.");
    }
    let mut games: Vec<&str> = Vec::new();
    for e in &reply.elsewhere {
        if !games.contains(&e.searched.as_str()) {
            games.push(&e.searched);
        }
    }
    for g in games {
        let words = quote(
            &mut reply
                .elsewhere
                .iter()
                .filter(|e| e.searched == g)
                .map(|e| e.word.as_str()),
        );
        let _ = write!(out, " {g}'s rules, the ones searched, do not use {words}.");
    }
    out
}

/// The message for a question about `game`, a game these rules do not
/// index; `how` says how rules are added and where the indexed games are
/// listed.
pub fn not_indexed(game: &str, how: &str) -> String {
    format!(
        "{game}'s rules are not indexed here, so this is not answered from another game's rules. \
         A moderator can add them with {how}."
    )
}

pub fn ask(reply: &AskReply, style: Style) -> String {
    let mut out = String::new();
    for (typed, understood) in &reply.corrections {
        let _ = writeln!(out, "(reading '{typed}' as '{understood}')");
    }
    if let (Some(GameFrom::Match), Some(g)) = (reply.game_from, &reply.game) {
        let _ = writeln!(
            out,
            "({g} rules: this channel's match. Name another game in the question, or give --game.)"
        );
    }
    for (typed, card) in &reply.card_suggestions {
        let _ = writeln!(out, "(“{typed}”: did you mean the card {card}?)");
    }
    for c in &reply.cards {
        let text = if c.text.is_empty() {
            "(no text in the card list)"
        } else {
            c.text.as_str()
        };
        let _ = writeln!(out, "Card: {} ({}): {text}", c.name, c.game);
    }
    match reply.confidence {
        Confidence::None if let Some(game) = &reply.not_indexed => {
            let how = "`arbiter rules add`, or `/rules add` on Discord; `arbiter rules` lists the indexed games";
            let _ = writeln!(out, "{}", not_indexed(game, how));
            return out;
        }
        Confidence::None => {
            let scope = reply
                .game
                .as_deref()
                .map(|g| format!(" for {g}"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{NO_RULE} Nothing in the indexed rules{scope} is relevant to “{}”.{}",
                reply.query,
                unknown_words(reply)
            );
            if !reply.covers.is_empty() {
                let _ = writeln!(out, "The indexed rules cover:");
                for c in &reply.covers {
                    let _ = writeln!(out, "  - {c}");
                }
                let _ = writeln!(out, "Try asking with words from those rules.");
            }
            return out;
        }
        Confidence::Closest => {
            let _ = writeln!(out, "{}{}\n", closest_caveat(reply), unknown_words(reply));
        }
        Confidence::Answer => {}
    }
    let groups = reply.by_part();
    for (i, (part, results)) in groups.iter().enumerate() {
        if let Some(p) = part {
            let _ = writeln!(out, "{}\n", part_heading(reply, p));
            if let Some(above) = AskReply::best_shown_above(&groups, i) {
                let _ = writeln!(
                    out,
                    "   {}\n",
                    shown_above(p, above, &|s| style.emphasize(s))
                );
            }
        }
        for (n, r) in results {
            ask_result(&mut out, *n, r, style);
        }
    }
    out
}

/// A part whose best passage an earlier part shows: where it is, and the
/// sentence of it that answers this part ("See 1 above, [ashes:…]: …").
pub fn shown_above(
    part: &crate::app::AskPart,
    (n, r): (usize, &crate::app::AskResult),
    emphasize: &dyn Fn(&str) -> String,
) -> String {
    let mut line = format!("See {} above, [{}]", n + 1, r.id);
    if !part.highlight.is_empty() {
        line.push_str(": ");
        line.push_str(&emphasize(&part.highlight));
    }
    line
}

/// "Part 2 of 2: “does lifelink work on blocks” (closest rules)".
pub fn part_heading(reply: &AskReply, part: &crate::app::AskPart) -> String {
    let n = reply
        .parts
        .iter()
        .position(|p| std::ptr::eq(p, part))
        .map_or(0, |i| i + 1);
    let label = match part.confidence {
        Confidence::Answer => "answer",
        Confidence::Closest => "closest rules",
        Confidence::None => "no indexed rule is relevant",
    };
    // On one line: a part's line breaks would end the heading early.
    let question = arbiter_text::single_spaced(&part.question);
    let of = reply.parts.len();
    format!(
        "Part {n} of {of}{}: “{question}” ({label})",
        part_game(part)
    )
}

/// The game a part was searched in, when its text alone does not say:
/// ", in ti4 (named earlier)", ", in ashes (not ti4, named earlier, whose
/// rules do not use “phoenixborn”)".
fn part_game(part: &crate::app::AskPart) -> String {
    use crate::search::PartGame;
    let game = part.game.as_deref().unwrap_or("any game");
    match &part.why {
        None => String::new(),
        Some(PartGame::OneOfNamed) => format!(", in {game}"),
        Some(PartGame::Carried) => format!(", in {game} (named earlier)"),
        Some(PartGame::Left { carried, words }) => {
            let words: Vec<String> = words.iter().take(6).map(|w| format!("“{w}”")).collect();
            let words = words.join(", ");
            format!(", in {game} (not {carried}, named earlier, whose rules do not use {words})")
        }
    }
}

fn ask_result(out: &mut String, n: usize, r: &crate::app::AskResult, style: Style) {
    let _ = writeln!(out, "{}. [{}] {}", n + 1, r.id, r.title);
    let _ = writeln!(out, "   {}", r.path.join(" › "));
    if let Some(v) = &r.via {
        let _ = writeln!(
            out,
            "   (glossary: {} — {})",
            v.term,
            v.text.replace('\n', " ")
        );
    }
    let text = if r.highlight.is_empty() {
        r.text.clone()
    } else {
        r.text
            .replacen(&r.highlight, &style.emphasize(&r.highlight), 1)
    };
    for line in text.lines() {
        let _ = writeln!(out, "   {line}");
    }
    let refs: Vec<String> = r
        .refs
        .iter()
        .map(|c| match &c.target {
            Some(t) => format!("{} → {t}", c.label),
            None => format!("{} (not indexed)", c.label),
        })
        .collect();
    if !refs.is_empty() {
        let _ = writeln!(out, "   see also: {}", refs.join("; "));
    }
    amendments(out, "   ", &r.amended_by, r.amended_more);
    out.push('\n');
}

/// The FAQ/errata/house passages that amend a rule, under it.
fn amendments(out: &mut String, pad: &str, list: &[crate::app::Amendment], more: usize) {
    for a in list {
        match &a.reads_after {
            None => {
                let _ = writeln!(out, "{pad}amended by {} [{}]:", a.source, a.id);
            }
            Some(before) => {
                let _ = writeln!(
                    out,
                    "{pad}then amended by {} [{}], added after [{before}], which it overrides where they differ:",
                    a.source, a.id
                );
            }
        }
        for line in a.text.lines() {
            let _ = writeln!(out, "{pad}  {line}");
        }
    }
    if more > 0 {
        let _ = writeln!(out, "{pad}and amended by {more} more passages, not shown");
    }
}

pub fn cite(reply: &CiteReply) -> String {
    let mut out = String::new();
    for (n, p) in reply.passages.iter().enumerate() {
        let pad = "  ".repeat(p.depth);
        if n == 0 {
            let _ = writeln!(out, "[{}] {}", p.id, p.title);
            let _ = writeln!(out, "{}", p.path.join(" › "));
        } else {
            let _ = writeln!(out, "{pad}[{}] {}", p.id, p.title);
        }
        for line in p.text.lines() {
            let _ = writeln!(out, "{pad}  {line}");
        }
        amendments(&mut out, &format!("{pad}  "), &p.amended_by, p.amended_more);
        for r in &p.refs {
            match &r.target {
                Some(t) => {
                    let _ = writeln!(out, "{pad}  → {}: {t}", r.label);
                }
                None => {
                    let _ = writeln!(out, "{pad}  → {} (not indexed)", r.label);
                }
            }
        }
    }
    out
}

/// A count of passages: "1 passage", "12 passages" (a one-passage house
/// rule was listed "(1 passages)").
pub fn passages(n: usize) -> String {
    super::pictures::kit::plural(n, "passage", "passages")
}

pub fn rules(reply: &RulesReply, max_depth: usize) -> String {
    let mut out = String::new();
    for g in &reply.games {
        let _ = writeln!(
            out,
            "{} ({}) — aliases: {}",
            g.name,
            g.id,
            g.aliases.join(", ")
        );
        for d in &g.documents {
            let _ = writeln!(
                out,
                "  {} — {} ({})",
                d.title,
                d.version,
                passages(d.passages)
            );
            if !d.source.is_empty() {
                let _ = writeln!(out, "    source: {}", d.source);
            }
            if !d.licence.is_empty() {
                let _ = writeln!(out, "    licence: {}", d.licence);
            }
            for e in d.toc.iter().filter(|e| e.depth <= max_depth) {
                let _ = writeln!(out, "    {}{}  {}", "  ".repeat(e.depth), e.id, e.title);
            }
        }
    }
    if !reply.warnings.is_empty() {
        let _ = writeln!(
            out,
            "\n{}:",
            count(reply.warnings.len(), "indexing warning")
        );
        for w in &reply.warnings {
            let _ = writeln!(out, "  {w}");
        }
    }
    out
}

/// Headings shown in an import preview before "… and N more".
const PREVIEW_HEADINGS: usize = 40;

/// The preview of an imported document (`arbiter import`, `/rules add`).
pub fn import_preview(p: &crate::corpus::import::Preview) -> String {
    if let Some((items, noun)) = p.items() {
        return data_preview(p, items, noun);
    }
    let mut out = String::new();
    let game = preview_game(p);
    let _ = writeln!(
        out,
        "{} “{}” for {game}: {} from {} ({} bytes, read as {})",
        p.kind.label(),
        p.title,
        count(p.passages.len(), "passage"),
        p.source_format.as_str(),
        p.bytes,
        match p.format {
            crate::corpus::DocumentFormat::Numbered => "numbered rules",
            _ => "Markdown",
        }
    );
    let headings: Vec<_> = p.headings().collect();
    let _ = writeln!(out, "{}:", count(headings.len(), "heading"));
    for e in headings.iter().take(PREVIEW_HEADINGS) {
        let _ = writeln!(
            out,
            "  {}{}  {}",
            "  ".repeat(e.depth.saturating_sub(1)),
            e.id,
            e.title
        );
    }
    if headings.len() > PREVIEW_HEADINGS {
        let _ = writeln!(out, "  … and {} more", headings.len() - PREVIEW_HEADINGS);
    }
    if let (Some(first), Some(last)) = (p.passages.first(), p.passages.last()) {
        let _ = writeln!(out, "ids: {} … {}", first.id, last.id);
    }
    if !p.amends.is_empty() {
        let _ = writeln!(out, "{}", amends_line(&p.amends));
    }
    if p.warning_count() > 0 {
        let _ = writeln!(out, "{}:", count(p.warning_count(), "warning"));
        for w in &p.warnings {
            let _ = writeln!(out, "  {w}");
        }
        for m in &p.more_warnings {
            let _ = writeln!(out, "  … and {} more {} like these", m.count, m.what);
        }
    }
    out
}

/// The rules a previewed document amends, the first ten named.
pub fn amends_line(amends: &[String]) -> String {
    let shown: Vec<&str> = amends.iter().take(10).map(String::as_str).collect();
    let more = match amends.len().saturating_sub(shown.len()) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    format!(
        "amends {}: {}{more} (shown beside {} in answers)",
        count(amends.len(), "rule"),
        shown.join(", "),
        if amends.len() == 1 { "it" } else { "them" }
    )
}

/// A document made live in a server's rule set.
pub fn rule_added(a: &crate::app::rulesets::Added) -> String {
    let mut out = format!(
        "Added {} (“{}”): the rule set is now at version {}.\n",
        a.document, a.title, a.version
    );
    if a.pruned > 0 {
        let _ = writeln!(
            out,
            "To make room, {} KB of the history (replaced or removed documents no open match pins) was pruned (`arbiter rules history`).",
            crate::app::rulesets::kb(a.pruned)
        );
    }
    out
}

/// What a server's rule set stores (`arbiter rules history`).
pub fn rule_history(guild: &str, h: &crate::app::rulesets::History) -> String {
    use crate::app::rulesets::{history_state, kb};
    let mut out = format!(
        "The rule set of {guild} stores {} KB of text, of the {} KB it may: {} KB live, {} KB of replaced or removed documents.\n",
        kb(h.stored),
        kb(h.quota),
        kb(h.live),
        kb(h.stored.saturating_sub(h.live))
    );
    for t in &h.texts {
        let _ = writeln!(
            out,
            "  v{}–v{}  {} “{}”  {} KB  {}",
            t.text.version,
            t.text.until - 1,
            t.text.document,
            t.text.title,
            kb(t.size()),
            history_state(t)
        );
    }
    out
}

/// What `arbiter rules prune` did.
pub fn rule_pruned(guild: &str, p: &crate::app::rulesets::Pruned) -> String {
    let mut out = format!(
        "Pruned {} of the rule set of {guild}: {} KB freed.\n",
        count(p.pruned.len(), "history text"),
        crate::app::rulesets::kb(p.freed)
    );
    out.push_str(&rule_history(guild, &p.history));
    out
}

/// A server's card list or slang list (`arbiter rules show ID`): what it
/// holds, all of it.
pub fn data_doc(d: &crate::app::rulesets::DataDocView) -> String {
    let noun = d.doc.kind.item_noun().unwrap_or("item");
    let mut out = format!(
        "{}  {} “{}” (v{}, added {} by {}): {}\n",
        d.doc.id,
        d.doc.kind.label(),
        d.doc.title,
        d.doc.version,
        d.doc.added,
        d.doc.added_by,
        count(d.items.len(), noun)
    );
    for item in &d.items {
        let _ = writeln!(out, "  {item}");
    }
    out
}

/// A server's live documents.
pub fn rule_docs(guild: &str, docs: &[crate::app::rulesets::RuleDocView]) -> String {
    if docs.is_empty() {
        return format!(
            "The rule set of {guild} has no documents: only the shipped games are searched.\n"
        );
    }
    let mut out = format!(
        "The rule set of {guild}: {}\n",
        count(docs.len(), "document")
    );
    for d in docs {
        let _ = writeln!(
            out,
            "  {}  {} “{}” (v{}, added {} by {})",
            d.id,
            d.kind.label(),
            d.title,
            d.version,
            d.added,
            d.added_by
        );
    }
    out
}

/// A server's rule-set history (of one game, when `game` is given).
pub fn rule_changes(
    guild: &str,
    game: Option<&str>,
    changes: &[crate::store::RuleChange],
) -> String {
    match (changes.is_empty(), game) {
        (true, Some(g)) => return format!("The rule set of {guild} has no change of {g}.\n"),
        (true, None) => return format!("The rule set of {guild} has never changed.\n"),
        _ => {}
    }
    let mut out = format!("The rule set of {guild}, version by version:\n");
    let verbs = crate::app::rulesets::change_verbs(changes);
    for (c, what) in changes.iter().zip(verbs) {
        let at = crate::app::rulesets::date(c.at);
        let (v, doc) = (c.version, &c.document);
        let _ = writeln!(
            out,
            "  v{v}  {at} {what} {doc} “{}” by {}",
            c.title, c.actor
        );
    }
    out
}

/// The game an import adds to: "new game Kitchen Table (kitchen-table)".
fn preview_game(p: &crate::corpus::import::Preview) -> String {
    if p.new_game {
        format!("new game {} ({})", p.game_name, p.game)
    } else {
        format!("{} ({})", p.game_name, p.game)
    }
}

/// The preview of a data document: a card list's cards or a slang list's
/// terms (how many, the first ones), and warnings.
fn data_preview(p: &crate::corpus::import::Preview, items: &[String], noun: &str) -> String {
    let mut out = String::new();
    let game = preview_game(p);
    let _ = writeln!(
        out,
        "{} “{}” for {game}: {} ({} bytes)",
        p.kind.label(),
        p.title,
        count(items.len(), noun),
        p.bytes
    );
    for c in items.iter().take(PREVIEW_HEADINGS) {
        let _ = writeln!(out, "  {c}");
    }
    if items.len() > PREVIEW_HEADINGS {
        let _ = writeln!(out, "  … and {} more", items.len() - PREVIEW_HEADINGS);
    }
    if !p.warnings.is_empty() {
        // The first ones, the rest counted: a card list of 20,000 nameless
        // rows listed a warning each.
        let shown = crate::corpus::import::WARNINGS_PER_KIND;
        let _ = writeln!(out, "{}:", count(p.warnings.len(), "warning"));
        for w in p.warnings.iter().take(shown) {
            let _ = writeln!(out, "  {w}");
        }
        if p.warnings.len() > shown {
            let more = p.warnings.len() - shown;
            let noun = if more == 1 { "warning" } else { "warnings" };
            let _ = writeln!(out, "  … and {more} more {noun}");
        }
    }
    out
}

/// A card: name, type, cost, stats, text verbatim, rulings, the rules its
/// text names.
pub fn card(r: &crate::app::CardReply) -> String {
    let c = &r.card;
    let mut out = String::new();
    let kind = match c.card_type.as_str() {
        "" => String::new(),
        t => format!(" — {t}"),
    };
    let _ = writeln!(out, "{}{kind}  [{} › {}]", c.name, r.game_name, r.source);
    let mut facts: Vec<String> = Vec::new();
    if !c.cost.is_empty() {
        facts.push(format!("cost {}", c.cost));
    }
    facts.extend(
        c.stats
            .iter()
            .map(|(k, v)| format!("{k} {}", crate::cards::Card::stat_text(v))),
    );
    if !facts.is_empty() {
        let _ = writeln!(out, "{}", facts.join(" · "));
    }
    if !c.text.is_empty() {
        let _ = writeln!(out, "{}", c.text);
    }
    if !c.aliases.is_empty() {
        let _ = writeln!(out, "also called: {}", c.aliases.join(", "));
    }
    if !c.rulings.is_empty() {
        let _ = writeln!(out, "rulings:");
        for ruling in &c.rulings {
            let _ = writeln!(out, "  • {ruling}");
        }
    }
    if !r.rules.is_empty() {
        let _ = writeln!(out, "rules its text names:");
        for l in &r.rules {
            let _ = writeln!(out, "  “{}” → [{}] {}", l.term, l.id, l.title);
        }
    }
    out
}

/// Card completions: name, type, game.
pub fn card_suggestions(list: &[crate::app::CardSuggestion]) -> String {
    let mut out = String::new();
    for s in list {
        let _ = writeln!(out, "{}  {}  ({})", s.name, s.card_type, s.game);
    }
    out
}

pub fn suggestions(list: &[Suggestion]) -> String {
    let mut out = String::new();
    for s in list {
        let _ = writeln!(out, "{}  {}", s.id, s.title);
    }
    out
}

pub fn coverage(reply: &crate::app::CoverageReply) -> String {
    let mut out = String::new();
    for g in &reply.games {
        let engine = if g.has_engine {
            "engine"
        } else {
            "no engine yet"
        };
        let _ = writeln!(
            out,
            "{} ({}) — {engine}: {} of {} passages executed",
            g.name, g.game, g.executed, g.passages
        );
        for e in &g.entries {
            let mark = if e.executed_by.is_empty() {
                "  text "
            } else {
                "  EXEC "
            };
            let _ = write!(out, "{mark}{}{}  {}", "  ".repeat(e.depth), e.id, e.title);
            if !e.executed_by.is_empty() {
                let _ = write!(out, "  ← {}", e.executed_by.join("; "));
            }
            out.push('\n');
        }
    }
    out
}

pub fn ruling(r: &crate::engine::Ruling) -> String {
    let mut out = String::new();
    let verdict = match (r.legal, &r.pending) {
        (false, _) => "ILLEGAL",
        (true, Some(_)) => "WAITING FOR A DECISION",
        (true, None) => "LEGAL",
    };
    let _ = writeln!(out, "{} — {verdict}", r.game);
    for (n, s) in r.steps.iter().enumerate() {
        let _ = writeln!(out, "{:>2}. [{}] {}", n + 1, s.rule, s.text);
        match &s.choice {
            Some(c) if c.assumed.is_some() => {
                let why = c.assumed.as_deref().unwrap_or_default();
                let _ = writeln!(out, "      choice: {} ({why})", c.sentence());
            }
            Some(c) => {
                let _ = writeln!(out, "      choice: {}", c.sentence());
            }
            None => {}
        }
        if !s.numbers.is_empty() {
            let nums: Vec<String> = s
                .numbers
                .iter()
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            let _ = writeln!(out, "      {}", nums.join(", "));
        }
        if let Some(a) = &s.assumption {
            let _ = writeln!(out, "      assumption (not in the indexed rules): {a}");
        }
    }
    for d in &r.diagnostics {
        let sev = match d.severity {
            crate::engine::Severity::Error => "error",
            crate::engine::Severity::Refused => "refused",
            crate::engine::Severity::Warning => "warning",
            crate::engine::Severity::Info => "note",
        };
        let _ = write!(out, "{sev}: {}", d.message);
        if let Some(p) = &d.path {
            let _ = write!(out, " (at {p})");
        }
        if let Some(rule) = &d.rule {
            let _ = write!(out, " [{rule}]");
        }
        out.push('\n');
    }
    for c in &r.claims {
        let _ = writeln!(
            out,
            "stated by the player, not on the board: {} (at {}; sets aside [{}])",
            c.text, c.path, c.rule
        );
    }
    if let Some(d) = &r.pending {
        out.push_str(&decision(d));
    }
    if let Some(res) = r.status.as_ref().and_then(|s| s.result.as_ref()) {
        out.push_str(&result(res));
    }
    if !r.changes.is_empty() {
        let _ = writeln!(out, "changes:");
        for c in &r.changes {
            let (before, after) = c.read();
            let _ = writeln!(out, "  {}: {before} → {after}", c.path);
        }
    } else {
        let _ = writeln!(out, "no change to the board");
    }
    let _ = writeln!(out, "state:");
    let state = serde_json::to_string_pretty(&r.state).unwrap_or_default();
    for line in state.lines() {
        let _ = writeln!(out, "  {line}");
    }
    out
}

/// A decision the procedure stopped at, with its numbered answers.
pub fn decision(d: &crate::engine::Decision) -> String {
    let mut out = String::new();
    // A decision no rule gives (a player's consent) names no rule and no
    // board path, and its default is what its expiry does.
    let by_rule = !d.rule.is_empty();
    if by_rule {
        let _ = writeln!(out, "waiting for a decision: {} [{}]", d.question, d.rule);
    } else {
        let _ = writeln!(out, "waiting for a decision: {}", d.question);
    }
    // An assumed default says so once: its reason, the engine's reading,
    // follows as that assumption ("default: players 'will be able to
    // respond'…" under "(assumed: the rules give no default)" read as a
    // default the rules give; an outside tester's).
    let assumed_why = d
        .default_reason
        .as_ref()
        .filter(|_| d.default_assumed && by_rule);
    for (i, o) in d.options.iter().enumerate() {
        let default = match d.default == Some(i) {
            true if !by_rule => "  (if nobody answers)",
            true if assumed_why.is_some() => "  (assumed, see below)",
            true if d.default_assumed => {
                "  (taken if nobody answers: the rules give no default, so this is assumed)"
            }
            true => "  (the rules' default)",
            false => "",
        };
        let _ = writeln!(out, "  {}. {}{default}", i + 1, o.label);
    }
    match (&d.default_reason, assumed_why) {
        (_, Some(why)) => {
            let why = why.strip_prefix("assumed: ").unwrap_or(why);
            let _ = writeln!(
                out,
                "  the rules give no default; if nobody answers, assumed: {why}"
            );
        }
        (Some(why), None) => {
            let _ = writeln!(out, "  default: {why}");
        }
        (None, None) => {}
    }
    if !d.path.is_empty() {
        let example = d
            .options
            .first()
            .and_then(|o| patch_example(&o.patch, &o.label));
        let example = example.unwrap_or_default();
        let _ = writeln!(out, "  (on a board: give it as `{}`{example})", d.path);
    }
    out
}

/// ", for example `split: {"Hammer Knight":0}` (0 to Hammer Knight)": an
/// answer's patch written as the play's fields, so a board written by hand
/// has the field's shape (the bare path did not say it).
fn patch_example(patch: &serde_json::Value, label: &str) -> Option<String> {
    let fields = patch.as_object().filter(|m| !m.is_empty())?;
    let each = fields.iter().map(|(k, v)| {
        let v = serde_json::to_string(v).unwrap_or_default();
        format!("{k}: {v}")
    });
    let written = each.collect::<Vec<_>>().join(", ");
    Some(format!(", for example `{written}` ({label})"))
}

/// A game's result.
/// Text for a terminal: a Discord user mention (`<@123>`, `<@!123>`)
/// shows its user id plainly, as the console and the CLI name users (a
/// refusal read "`<@2>` does not play in this match" there; found by an
/// outside tester).
pub fn plain_mentions(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("<@") {
        out.push_str(&rest[..i]);
        let tail = &rest[i + 2..];
        let id_from = usize::from(tail.starts_with('!'));
        let digits = tail[id_from..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let end = id_from + digits;
        if digits > 0 && tail[end..].starts_with('>') {
            out.push_str(&tail[id_from..end]);
            rest = &tail[end + 1..];
        } else {
            out.push_str("<@");
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

pub fn result(r: &crate::engine::GameResult) -> String {
    let who = r
        .winner
        .as_deref()
        .map_or("no winner".to_string(), |w| format!("{w} wins"));
    let rule = r
        .rule
        .as_deref()
        .map_or("outside the indexed rules".to_string(), |id| {
            format!("[{id}]")
        });
    format!("result: {who}: {} ({rule})\n", r.reason)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_mention_reads_as_its_user_id_on_a_terminal() {
        assert_eq!(
            super::plain_mentions("<@2> does not play; seat 1 <@!30> (Coal), <@x> <@"),
            "2 does not play; seat 1 30 (Coal), <@x> <@"
        );
    }

    use crate::engine::{Ruling, Step};

    fn step_choosing(player: &str, chose: &str, assumed: Option<&str>) -> Step {
        let mut st = Step {
            rule: "r".into(),
            text: "t".into(),
            numbers: Vec::new(),
            choice: None,
            assumption: None,
        };
        match assumed {
            Some(why) => st.assumed(player, chose, why),
            None => st.chose(player, chose),
        };
        st
    }

    /// A choice nobody stated reads as a sentence, as a stated one does
    /// ("choice: Coal the order Iron Worker, …" had no verb).
    #[test]
    fn a_choice_reads_with_its_verb_stated_or_assumed() {
        let mut r = Ruling::no_play("ashes", serde_json::Value::Null, None);
        r.steps.push(step_choosing(
            "Coal",
            "the order Iron Worker, Hammer Knight",
            Some("not stated on the board"),
        ));
        r.steps.push(step_choosing("Maeoni", "not to block", None));
        let text = super::ruling(&r);
        assert!(
            text.contains(
                "choice: Coal chooses the order Iron Worker, Hammer Knight (not stated on the board)"
            ),
            "{text}"
        );
        assert!(text.contains("choice: Maeoni chose not to block"), "{text}");
    }
}
