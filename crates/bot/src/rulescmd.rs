//! `/rules …`: a server's own rule documents (issue 16) on the bot's
//! dispatcher. `add` converts the attachment and answers with a preview and
//! Confirm / Cancel buttons; nothing is live until Confirm. Members with
//! Manage Server only (the command's default permissions, and checked here).

use std::fmt::Write as _;

use crate::app::rulesets::{RuleSets, RulesError, Upload};
use crate::corpus::DocumentKind;
use crate::corpus::import::{ImportError, MAX_IMPORT_BYTES, Preview};
use arbiter_text::count;

use super::reply::{Button, ButtonStyle, code_span, escape_inline, escape_md, truncate};
use super::{Action, Attachment, Bot, Command, Input, Message, Origin, Reply, Request};

/// Headings listed in a preview message.
const PREVIEW_HEADINGS: usize = 15;

/// The file of `/rules add`: a Discord attachment, or a file the console read.
#[derive(Debug, Clone, PartialEq)]
pub enum RulesFile {
    Attachment(Attachment),
    Read { filename: String, bytes: Vec<u8> },
}

/// A `/rules` subcommand with its options.
#[derive(Debug, Clone, PartialEq)]
pub enum RulesCommand {
    Add {
        file: RulesFile,
        game: String,
        kind: DocumentKind,
        title: Option<String>,
        /// The live document it replaces, keeping its ids.
        replace: Option<String>,
    },
    List,
    Show {
        id: String,
    },
    Remove {
        id: String,
    },
    Versions {
        game: Option<String>,
    },
    /// What the server stores of its history, and what pins it.
    History,
    /// Prunes the history no open match pins.
    Prune,
}

impl RulesCommand {
    pub fn name(&self) -> &'static str {
        match self {
            RulesCommand::Add { .. } => "rules add",
            RulesCommand::List => "rules list",
            RulesCommand::Show { .. } => "rules show",
            RulesCommand::Remove { .. } => "rules remove",
            RulesCommand::Versions { .. } => "rules versions",
            RulesCommand::History => "rules history",
            RulesCommand::Prune => "rules prune",
        }
    }

    /// Whether it changes the rule set (Manage Server only).
    pub fn writes(&self) -> bool {
        matches!(
            self,
            RulesCommand::Add { .. } | RulesCommand::Remove { .. } | RulesCommand::Prune
        )
    }
}

/// What a `/rules` request asks.
enum Act<'a> {
    Command(&'a RulesCommand),
    Confirm(String),
    Cancel(String),
}

/// Who acts, as stored: the Discord user id, or the console's user name.
fn actor(origin: &Origin) -> String {
    match origin.user_id {
        0 => origin.user_name.clone(),
        id => id.to_string(),
    }
}

/// A stored actor as shown: a mention for a Discord id (replies never ping),
/// else the name.
fn who(actor: &str) -> String {
    match actor.parse::<u64>() {
        Ok(_) => format!("<@{actor}>"),
        Err(_) => escape_md(actor),
    }
}

fn refuse(why: &str) -> Reply {
    Reply::Message(Message::user_error("Rules", why))
}

fn failed(e: RulesError) -> Reply {
    match e {
        e if e.is_internal() => super::internal_error("rule set request failed", &e),
        RulesError::Busy(why) => Reply::Message(Message::busy("Rules", &why)),
        _ => Reply::Message(Message::user_error("Rules", &refusal_md(&e))),
    }
}

/// A refusal as Discord shows it: what a user typed escaped, the commands
/// it names as code ([`RulesError::with_values`]); else escaped whole, web
/// addresses broken (a game named `https://…` is refused quoting it).
fn refusal_md(e: &RulesError) -> String {
    e.with_values(&super::reply::escape_inline)
        .unwrap_or_else(|| super::reply::escape_unlinked(&e.to_string()))
}

impl Bot {
    /// The rule sets, opened with the match database.
    async fn rule_sets(&self) -> Result<&RuleSets, Reply> {
        self.open_rule_sets()
            .await
            .map_err(|e| super::internal_error("opening the rule sets", &e))
    }

    /// `/rules …` and its buttons; `None` for other requests.
    pub(super) async fn handle_rules(&self, request: &Request) -> Option<Reply> {
        let origin = &request.origin;
        let act = match &request.input {
            Input::Autocomplete {
                command,
                option,
                value,
                sub,
                ..
            } if command == "rules" => {
                return Some(
                    self.rules_autocomplete(origin, sub.as_deref(), option, value)
                        .await,
                );
            }
            Input::Command(Command::Rules(cmd)) => Act::Command(cmd),
            Input::Component { custom_id } => match Action::parse(custom_id)? {
                Action::RulesConfirm(token) => Act::Confirm(token),
                Action::RulesCancel(token) => Act::Cancel(token),
                _ => return None,
            },
            _ => return None,
        };
        let Some(guild) = super::guild_key(origin) else {
            return Some(refuse(super::commands::RULES_IN_A_SERVER));
        };
        let writes = !matches!(&act, Act::Command(cmd) if !cmd.writes());
        if writes && !origin.admin {
            return Some(refuse(
                "only members with Manage Server may change this server's rules",
            ));
        }
        let sets = match self.rule_sets().await {
            Ok(s) => s,
            Err(reply) => return Some(reply),
        };
        Some(match act {
            Act::Command(cmd) => self.rules_command(sets, &guild, origin, cmd).await,
            Act::Confirm(token) => match sets.confirm(&guild, &token).await {
                Ok(added) => Reply::Update(Message::info(
                    "Rules",
                    &(format!(
                        "**{}** is live in this server as `{}`: the rule set is now at version {}. {}",
                        escape_md(&added.title),
                        added.document,
                        added.version,
                        match added.kind {
                            DocumentKind::Cards =>
                                "Its index is being built: `/card` finds its cards as soon as it is ready (seconds).",
                            DocumentKind::Slang =>
                                "Its index is being built: `/rule` reads its terms as soon as it is ready (seconds).",
                            _ =>
                                "Its index is being built: `/rule` searches it as soon as it is ready (seconds), and says so until then.",
                        }
                    ) + &pruned_note(added.pruned)),
                )),
                Err(e) => failed(e),
            },
            Act::Cancel(token) => match sets.cancel(&guild, &token).await {
                Ok(true) => Reply::Update(Message::info("Rules", "Cancelled: nothing was added.")),
                Ok(false) => refuse(
                    "there is no upload of this server waiting under this button: it was already confirmed or cancelled, it is older than 15 minutes, or it belongs to another server. Nothing changed.",
                ),
                Err(e) => failed(e),
            },
        })
    }

    /// Autocomplete of `/rules`: `remove id:` the server's live documents,
    /// `show id:` those and the passages of its index, `game:` the games of
    /// its index. Fuzzy, at most 25; what is typed stays the first choice.
    async fn rules_autocomplete(
        &self,
        origin: &Origin,
        sub: Option<&str>,
        option: &str,
        value: &str,
    ) -> Reply {
        let (Some(guild), Ok(sets)) = (super::guild_key(origin), self.open_rule_sets().await)
        else {
            return Reply::Choices(Vec::new());
        };
        let limit = super::MAX_CHOICES;
        let found = match (sub, option) {
            (Some("remove"), "id") | (Some("add"), "replace") => {
                sets.complete_documents(&guild, value, limit).await
            }
            (_, "id") => sets.complete_ids(&guild, value, limit).await,
            (_, "game") => sets.complete_games(&guild, value, limit).await,
            _ => Ok(Vec::new()),
        };
        let choices = match found {
            Ok(list) => list
                .iter()
                .map(|s| super::Choice::passage(&s.id, &s.title))
                .collect(),
            Err(e) => {
                tracing::warn!("rule-set autocomplete: {e}");
                Vec::new()
            }
        };
        Reply::Choices(super::reply::keep_typed(choices, value))
    }

    /// `/rules show` of a passage id: the passage, paged.
    async fn show_passage(&self, sets: &RuleSets, guild: &str, id: &str) -> Reply {
        let a = match sets.answering(guild).await {
            Ok(a) => a,
            Err(e) => return failed(e),
        };
        // While a newer version is indexed, an older one answers: said, as
        // `/rule` says it, so a passage of the newer one is not "no passage".
        let indexing = a.indexing.map(|version| super::Indexing {
            version,
            from: a.version,
        });
        match a.app.cite(id, false) {
            Ok(reply) => {
                let doc = super::reply::passages_message(&a.app, &reply, false);
                let shown = Reply::Message(self.paged(doc, false).await);
                match indexing {
                    Some(ix) => super::indexing_note(shown, ix),
                    None => shown,
                }
            }
            Err(e) => match indexing {
                Some(ix) => refuse(&format!(
                    "{}. This server's rule set (version {}) is still being indexed: ask again in a few seconds.",
                    super::app_error_md(&e),
                    ix.version
                )),
                None => refuse(&super::app_error_md(&e)),
            },
        }
    }

    async fn rules_command(
        &self,
        sets: &RuleSets,
        guild: &str,
        origin: &Origin,
        cmd: &RulesCommand,
    ) -> Reply {
        match cmd {
            RulesCommand::Add {
                file,
                game,
                kind,
                title,
                replace,
            } => {
                let (filename, bytes) = match file {
                    RulesFile::Read { filename, bytes } => (filename.clone(), bytes.clone()),
                    RulesFile::Attachment(a) => {
                        if a.size > MAX_IMPORT_BYTES as u64 {
                            // The importer's own words, in exact bytes ("is
                            // 5120 KB" was one byte over the limit).
                            let big = ImportError::TooLarge {
                                file: a.filename.clone(),
                                size: usize::try_from(a.size).unwrap_or(usize::MAX),
                                limit: MAX_IMPORT_BYTES,
                            };
                            return failed(RulesError::Import(big));
                        }
                        match self
                            .download_bytes(a, MAX_IMPORT_BYTES as u64, "Rules")
                            .await
                        {
                            Ok(b) => (a.filename.clone(), b),
                            Err(reply) => return reply,
                        }
                    }
                };
                let upload = Upload {
                    file_name: filename,
                    bytes,
                    game: game.clone(),
                    kind: *kind,
                    title: title.clone(),
                    replaces: replace.clone(),
                };
                let token = super::pages::new_token();
                match sets.preview(guild, &actor(origin), &token, upload).await {
                    Ok(preview) => Reply::Message(preview_message(&preview, &token)),
                    Err(e) => failed(e),
                }
            }
            RulesCommand::List => match sets.list(guild).await {
                Ok(docs) => {
                    let views = crate::app::rulesets::doc_views(&docs);
                    let mut body = String::new();
                    for d in &views {
                        let _ = writeln!(
                            body,
                            "`{}` — {} **{}** (v{}, added {} by {})",
                            d.id,
                            d.kind.label(),
                            escape_md(&d.title),
                            d.version,
                            d.added,
                            who(&d.added_by)
                        );
                    }
                    if body.is_empty() {
                        body = "This server has added no documents: `/rule` searches the shipped games. Members with Manage Server can `/rules add` one.".into();
                    }
                    Reply::Message(Message::info("Rules of this server", &body))
                }
                Err(e) => failed(e),
            },
            RulesCommand::Show { id } => {
                if crate::app::rulesets::is_document_id(id)
                    && let Ok(docs) = sets.list(guild).await
                    && let Some(d) = crate::app::rulesets::data_doc(&docs, id)
                {
                    return Reply::Message(data_doc_message(&d));
                }
                self.show_passage(sets, guild, id).await
            }
            RulesCommand::Remove { id } => match sets.remove(guild, id, &actor(origin)).await {
                Ok(version) => Reply::Message(Message::info(
                    "Rules",
                    &format!(
                        "Removed {}: the rule set is now at version {version}. The history keeps it (`/rules versions`).",
                        code_span(id.trim())
                    ),
                )),
                Err(e) => failed(e),
            },
            RulesCommand::Versions { game } => match sets.versions(guild, game.as_deref()).await {
                Ok(changes) => {
                    let mut body = String::new();
                    let verbs = crate::app::rulesets::change_verbs(&changes);
                    for (c, what) in changes.iter().zip(verbs) {
                        let at = crate::app::rulesets::date(c.at);
                        let (v, doc) = (c.version, &c.document);
                        let (title, by) = (escape_md(&c.title), who(&c.actor));
                        let _ = writeln!(body, "v{v} · {at} · {what} `{doc}` **{title}** by {by}");
                    }
                    if body.is_empty() {
                        body = match game {
                            Some(g) => format!("No change of {} yet.", escape_inline(g)),
                            None => "No changes yet.".into(),
                        };
                    }
                    Reply::Message(Message::info("Rule set versions", &body))
                }
                Err(e) => failed(e),
            },
            RulesCommand::History => match sets.history(guild).await {
                Ok(h) => Reply::Message(Message::info(
                    "Rule set history",
                    &truncate(&history_body(&h), super::PAGE_BUDGET),
                )),
                Err(e) => failed(e),
            },
            RulesCommand::Prune => match sets.prune(guild).await {
                Ok(p) => {
                    let body = format!(
                        "Pruned {}: {} KB freed (`/rules versions` still lists every change).\n{}",
                        count(p.pruned.len(), "history text"),
                        crate::app::rulesets::kb(p.freed),
                        history_body(&p.history)
                    );
                    Reply::Message(Message::info(
                        "Rule set history",
                        &truncate(&body, super::PAGE_BUDGET),
                    ))
                }
                Err(e) => failed(e),
            },
        }
    }
}

/// `/rules history` (and after `/rules prune`): what the server stores,
/// and each replaced or removed document's text with what becomes of it.
fn history_body(h: &crate::app::rulesets::History) -> String {
    use crate::app::rulesets::{history_state, kb};
    let mut body = format!(
        "This server stores {} KB of document text, of the {} KB it may: {} KB live, {} KB of replaced or removed documents.\n",
        kb(h.stored),
        kb(h.quota),
        kb(h.live),
        kb(h.stored.saturating_sub(h.live))
    );
    for t in &h.texts {
        let _ = writeln!(
            body,
            "v{}–v{} `{}` **{}** · {} KB · {}",
            t.text.version,
            t.text.until - 1,
            t.text.document,
            escape_md(&t.text.title),
            kb(t.size()),
            history_state(t)
        );
    }
    body
}

/// What an add pruned to make room, if anything.
fn pruned_note(bytes: usize) -> String {
    match bytes {
        0 => String::new(),
        n => format!(
            "\nTo make room, {} KB of the history (replaced or removed documents no open match pins) was pruned (`/rules history`).",
            crate::app::rulesets::kb(n)
        ),
    }
}

/// `/rules show` of a card list or slang list: what it holds.
fn data_doc_message(d: &crate::app::rulesets::DataDocView) -> Message {
    let noun = d.doc.kind.item_noun().unwrap_or("item");
    let mut body = format!(
        "`{}` — {} **{}** (v{}, added {} by {}): {}.\n",
        d.doc.id,
        d.doc.kind.label(),
        escape_md(&d.doc.title),
        d.doc.version,
        d.doc.added,
        who(&d.doc.added_by),
        count(d.items.len(), noun)
    );
    push_items(&mut body, &d.items, usize::MAX, super::PAGE_BUDGET - 400);
    Message::info("Rules of this server", &truncate(&body, super::PAGE_BUDGET))
}

/// Most characters of one listed card or term (a term's meanings can run
/// to 16 × 200).
const ITEM_CHARS: usize = 150;

/// Lists items (cards, terms) one a line, each cut at [`ITEM_CHARS`], at
/// most `most` of them and while `body` stays under `budget` characters,
/// then "… and N more": never cut in the middle, so a moderator sees how
/// many they are confirming (an outside tester's 5,000 terms showed one
/// and a half, with no count of the rest).
fn push_items(body: &mut String, items: &[String], most: usize, budget: usize) {
    let mut shown = 0;
    for item in items.iter().take(most) {
        let line = format!("• {}\n", escape_md(&truncate(item, ITEM_CHARS)));
        if body.chars().count() + line.chars().count() > budget {
            break;
        }
        body.push_str(&line);
        shown += 1;
    }
    if shown < items.len() {
        let _ = writeln!(body, "… and {} more", items.len() - shown);
    }
}

/// The preview of an upload, with Confirm and Cancel: only its author sees it.
fn preview_message(p: &Preview, token: &str) -> Message {
    let game = if p.new_game {
        format!("a new game, **{}** (`{}`)", escape_md(&p.game_name), p.game)
    } else {
        format!("**{}** (`{}`)", escape_md(&p.game_name), p.game)
    };
    let mut body = if let Some((items, noun)) = p.items() {
        let heading = match p.kind {
            DocumentKind::Cards => "Card list",
            _ => p.kind.label(),
        };
        let mut b = format!(
            "{heading} **{}** for {game}: {}.\n",
            escape_md(&p.title),
            count(items.len(), noun)
        );
        push_items(&mut b, items, PREVIEW_HEADINGS, 2_000);
        b
    } else {
        format!(
            "{} **{}** for {game}: {} from {}.\n",
            p.kind.label(),
            escape_md(&p.title),
            count(p.passages.len(), "passage"),
            p.source_format.as_str()
        )
    };
    let headings: Vec<_> = p.headings().collect();
    for e in headings.iter().take(PREVIEW_HEADINGS) {
        let _ = writeln!(
            body,
            "{}`{}` {}",
            "  ".repeat(e.depth.saturating_sub(1)),
            e.id,
            escape_md(&truncate(&e.title, 100))
        );
    }
    if headings.len() > PREVIEW_HEADINGS {
        let _ = writeln!(
            body,
            "… and {} more",
            count(headings.len() - PREVIEW_HEADINGS, "heading")
        );
    }
    // The warnings and the last line are never what the page cuts.
    let mut tail = String::new();
    if !p.amends.is_empty() {
        let line = crate::render::text::amends_line(&p.amends);
        let _ = writeln!(tail, "\n{}", escape_md(&line));
    }
    if p.warning_count() > 0 {
        let total = p.warning_count();
        let _ = writeln!(tail, "\n**{}**", count(total, "warning"));
        let shown = p.warnings.len().min(PREVIEW_WARNINGS);
        for w in &p.warnings[..shown] {
            let _ = writeln!(tail, "• {}", warning_md(&truncate(w, 300)));
        }
        if total > shown {
            let _ = writeln!(tail, "… and {} more", total - shown);
        }
    }
    tail.push_str("\nNothing is live until you press Confirm.");
    let room = super::PAGE_BUDGET.saturating_sub(tail.chars().count());
    let body = truncate(&body, room) + &tail;
    let mut m = Message::info("Rules: preview", &body);
    m.ephemeral = true;
    m.buttons = vec![
        Button::new(
            "Confirm",
            Action::RulesConfirm(token.to_string()),
            ButtonStyle::Primary,
        ),
        Button::new(
            "Cancel",
            Action::RulesCancel(token.to_string()),
            ButtonStyle::Secondary,
        ),
    ];
    m
}

/// Warnings a Discord preview lists (each at most 300 characters) before
/// it counts the rest: the reply has one page.
const PREVIEW_WARNINGS: usize = 5;

/// A preview warning as Discord shows it: its words escaped, its `ids`
/// still code (escaping every backtick showed them as \`mtg:…\`). A title
/// or term quoted in it cannot be a mention or a link (refused at upload).
fn warning_md(w: &str) -> String {
    escape_md(w).replace("\\`", "`")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A warning's ids stay code on Discord; its words are escaped.
    #[test]
    fn a_warnings_ids_stay_code() {
        assert_eq!(
            warning_md("already live as `mtg:cr` (“*Big*”)"),
            "already live as `mtg:cr` (“\\*Big\\*”)"
        );
    }

    /// A hostile document's thousands of duplicate ids (an outside tester's
    /// preview listed 17,190 warning lines): the first few, how many more,
    /// the whole count, and the Confirm line still on the page.
    #[test]
    fn a_preview_counts_the_warnings_it_does_not_show() {
        let text: String = (0..3_000)
            .map(|i| format!("# A\n\nRule {i}.\n\n"))
            .collect();
        let req = crate::corpus::import::ImportRequest {
            file_name: "dups.md",
            bytes: text.as_bytes(),
            game: "Dups",
            kind: DocumentKind::Rules,
            title: None,
        };
        let known = crate::corpus::Corpus::build(Vec::new());
        let p = crate::corpus::import::import(&known, &req).unwrap().preview;
        let total = p.warning_count();
        assert!(total >= 2_999, "{total}");
        assert!(p.warnings.len() <= 25, "{}", p.warnings.len());
        let body = preview_message(&p, "t").body;
        assert!(body.chars().count() <= crate::PAGE_BUDGET, "{}", body.len());
        assert!(body.contains(&format!("**{total} warnings**")), "{body}");
        assert!(
            body.contains(&format!("… and {} more", total - 5)),
            "{body}"
        );
        assert!(
            body.ends_with("Nothing is live until you press Confirm."),
            "{body}"
        );
    }

    /// A long list is shown as far as it fits, each item cut, then counted:
    /// never cut in the middle of an item with the rest unsaid.
    #[test]
    fn a_long_list_says_how_many_it_leaves_out() {
        let items: Vec<String> = (0..5_000)
            .map(|i| format!("term{i} → {}", "meaning ".repeat(100)))
            .collect();
        let mut body = String::from("Slang list **big** for **Ashes Reborn**: 5000 terms.\n");
        push_items(&mut body, &items, PREVIEW_HEADINGS, 2_000);
        assert!(body.chars().count() <= 2_000 + 40, "{}", body.len());
        let shown = body.lines().filter(|l| l.starts_with("• ")).count();
        assert!(shown >= 10, "{shown}");
        assert!(
            body.ends_with(&format!("… and {} more\n", 5_000 - shown)),
            "{body}"
        );
        assert!(
            body.lines()
                .filter(|l| l.starts_with("• "))
                .all(|l| l.chars().count() <= ITEM_CHARS + 4)
        );
        let mut all = String::new();
        push_items(&mut all, &items[..3], PREVIEW_HEADINGS, 2_000);
        assert!(!all.contains("more"), "{all}");
    }
}
