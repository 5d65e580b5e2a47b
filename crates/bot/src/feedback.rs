//! Feedback on `/rule` answers (issue 29): 👍 / 👎 on every answer, "the
//! right rule is…" (`/feedback rule:` with the id autocompleted), and the
//! server's summary for moderators (`/feedback summary`). Kept per server
//! in the match database (`store::feedback`); counted, never with text, in
//! `/metrics`. `arbiter feedback export` turns it into evaluation questions.

use std::collections::VecDeque;
use std::sync::Mutex;

use super::reply::{Action, Button, ButtonStyle, Message};
use super::{Bot, Command, FeedbackCommand, Input, Reply, Request, guild_key};
use crate::app::{AskReply, Confidence};
use crate::store::{Ask, Feedback, Verdict, now_ms};

/// Asks kept in this process (the console, or before a database is open),
/// newest last; the oldest go first.
const MEMORY_ASKS: usize = 4096;
/// Entries listed in the moderators' summary.
const SUMMARY_LATEST: usize = 10;
/// A question's characters shown in the summary: ten of them and the
/// counts stay within one message.
const QUESTION_CHARS: usize = 200;

/// Asks kept in this process, so a button works without a database.
#[derive(Default)]
pub struct Asks(Mutex<VecDeque<Ask>>);

impl Asks {
    fn keep(&self, ask: Ask) {
        let mut q = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if q.len() >= MEMORY_ASKS {
            q.pop_front();
        }
        q.push_back(ask);
    }

    fn by_key(&self, key: &str) -> Option<Ask> {
        let q = self.0.lock().unwrap_or_else(|e| e.into_inner());
        q.iter().rev().find(|a| a.key == key).cloned()
    }

    fn latest(&self, guild: &str, channel: &str, user: &str) -> Option<Ask> {
        let q = self.0.lock().unwrap_or_else(|e| e.into_inner());
        q.iter()
            .rev()
            .find(|a| a.guild == guild && a.channel == channel && a.user_id == user)
            .cloned()
    }
}

/// The ask a `/rule` reply's buttons refer to; `None` in a direct message
/// (feedback is kept per server).
pub fn ask_of(request: &Request, reply: &AskReply) -> Option<Ask> {
    let guild = guild_key(&request.origin)?;
    Some(Ask {
        key: super::pages::new_token(),
        guild,
        channel: request
            .origin
            .channel_id
            .map_or_else(|| "console".to_string(), |c| c.to_string()),
        user_id: request.origin.user_id.to_string(),
        question: reply.query.clone(),
        game: reply.game.clone(),
        shown: reply.results.iter().map(|r| r.id.clone()).collect(),
        confidence: confidence_str(reply.confidence).to_string(),
        created_at: now_ms(),
        parts: reply
            .parts
            .iter()
            .map(|p| crate::store::AskedPart {
                question: p.question.clone(),
                best: p.ids.first().cloned(),
            })
            .collect(),
    })
}

fn confidence_str(c: Confidence) -> &'static str {
    match c {
        Confidence::Answer => "answer",
        Confidence::Closest => "closest",
        Confidence::None => "none",
    }
}

/// 👍 and 👎 for an answer kept under `key`.
pub fn buttons(key: &str) -> [Button; 2] {
    let b = |label: &str, verdict| {
        Button::new(
            label,
            Action::Feedback {
                key: key.to_string(),
                verdict,
            },
            ButtonStyle::Secondary,
        )
    };
    [
        b("👍 Right answer", Verdict::Up),
        b("👎 Wrong answer", Verdict::Down),
    ]
}

/// A question as feedback replies show it: cut, on one line, escaped.
fn question_shown(question: &str) -> String {
    super::reply::escape_inline(&super::reply::truncate(question, QUESTION_CHARS))
}

/// Discord's epoch in Unix milliseconds: a snowflake's time is counted from it.
const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;

/// When the user pressed: the interaction id's time (a Discord snowflake),
/// so a retried older press sorts before a newer one whatever order they
/// arrive in; the clock for the console's line numbers.
fn pressed_at(origin: &super::Origin) -> i64 {
    match origin.id.parse::<u64>() {
        Ok(id) if id >= 1 << 32 => DISCORD_EPOCH_MS + (id >> 22) as i64,
        _ => now_ms(),
    }
}

fn refuse(why: &str) -> Reply {
    Reply::Message(Message::user_error("Feedback", why))
}

fn thanks(body: String) -> Reply {
    let mut m = Message::info("Feedback", &body);
    m.ephemeral = true;
    Reply::Message(m)
}

impl Bot {
    /// Keeps the ask a reply's feedback buttons refer to: in this process,
    /// and in the database when one is open (any replica then finds it).
    pub(super) async fn keep_ask(&self, ask: Ask) {
        if let Some(m) = self.matches.get()
            && let Err(e) = m.store().keep_ask(&ask).await
        {
            tracing::warn!("feedback ask not kept in the database: {e}");
        }
        self.asks.keep(ask);
    }

    async fn find_ask(&self, store: &crate::store::Store, key: &str) -> Option<Ask> {
        match self.asks.by_key(key) {
            Some(a) => Some(a),
            None => store.ask(key).await.ok().flatten(),
        }
    }

    /// Feedback buttons, `/feedback` and its autocomplete; `None` for
    /// anything else.
    pub(super) async fn handle_feedback(&self, request: &Request) -> Option<Reply> {
        match &request.input {
            Input::Component { custom_id } => match Action::parse(custom_id)? {
                Action::Feedback { key, verdict } => Some(self.vote(request, &key, verdict).await),
                _ => None,
            },
            Input::Command(Command::Feedback(FeedbackCommand::Rule { rule })) => {
                Some(self.right_rule(request, rule).await)
            }
            Input::Command(Command::Feedback(FeedbackCommand::Summary)) => {
                Some(self.summary(request).await)
            }
            Input::Autocomplete { command, value, .. } if command == "feedback" => {
                Some(self.rule_choices(request, value).await)
            }
            _ => None,
        }
    }

    async fn vote(&self, request: &Request, key: &str, verdict: Verdict) -> Reply {
        let store = match self.open_matches().await {
            Ok(m) => m.store().clone(),
            Err(e) => return super::internal_error("feedback database", &e),
        };
        let Some(ask) = self.find_ask(&store, key).await else {
            return refuse(
                "this answer is no longer known here; ask again with `/rule` and press the button on the new answer",
            );
        };
        // The buttons belong to the server that was answered: a press from
        // another server or a direct message is not that server's feedback.
        match guild_key(&request.origin) {
            None => {
                return refuse(
                    "feedback is kept per server; press the buttons in the server that was answered",
                );
            }
            Some(g) if g != ask.guild => {
                return refuse(
                    "this answer was given in another server; its buttons count only there",
                );
            }
            Some(_) => {}
        }
        if let Err(e) = store.keep_ask(&ask).await {
            return super::internal_error("feedback ask", &e);
        }
        let question = question_shown(&ask.question);
        let f = Feedback {
            ask,
            user_id: request.origin.user_id.to_string(),
            verdict,
            rule: None,
            at: pressed_at(&request.origin),
        };
        if let Err(e) = store.add_feedback(&f).await {
            return super::internal_error("feedback", &e);
        }
        crate::metrics::feedback(verdict.as_str());
        let more = match verdict {
            Verdict::Down => {
                " If you know the rule that answers it, tell me with `/feedback rule:` (its id is autocompleted)."
            }
            _ => "",
        };
        thanks(format!(
            "Recorded {} for “{}”. Thank you.{more}",
            if verdict == Verdict::Up {
                "👍"
            } else {
                "👎"
            },
            question
        ))
    }

    async fn right_rule(&self, request: &Request, rule: &str) -> Reply {
        let origin = &request.origin;
        let Some(guild) = guild_key(origin) else {
            return refuse(super::commands::FEEDBACK_IN_A_SERVER);
        };
        let (app, _) = self.app_for(origin).await;
        let Some(passage) = app.corpus.resolve_id(rule.trim()) else {
            // Close by spelling ("action-phase.44"), as `/rule` does.
            let like = app.ids_like(rule);
            let hint = match like.is_empty() {
                true => String::new(),
                false => {
                    let ids: Vec<String> = like.iter().map(|id| format!("`{id}`")).collect();
                    format!(" Did you mean {}?", ids.join(", "))
                }
            };
            return refuse(&format!(
                "no indexed rule has the id {}.{hint} Pick one from the list as you type `rule:`.",
                super::reply::code_span(rule.trim())
            ));
        };
        let id = passage.id.clone();
        let store = match self.open_matches().await {
            Ok(m) => m.store().clone(),
            Err(e) => return super::internal_error("feedback database", &e),
        };
        let channel = origin
            .channel_id
            .map_or_else(|| "console".to_string(), |c| c.to_string());
        let user = origin.user_id.to_string();
        // The newest of this process's and the database's: another replica
        // may have answered the user's latest question.
        let stored = store
            .latest_ask(&guild, &channel, &user)
            .await
            .ok()
            .flatten();
        let ask = match (self.asks.latest(&guild, &channel, &user), stored) {
            (Some(a), Some(b)) => Some(if b.created_at > a.created_at { b } else { a }),
            (a, b) => a.or(b),
        };
        let Some(ask) = ask else {
            return refuse(
                "ask your question with `/rule` in this channel first; `/feedback rule:` then names the rule that answers it",
            );
        };
        if let Err(e) = store.keep_ask(&ask).await {
            return super::internal_error("feedback ask", &e);
        }
        let question = question_shown(&ask.question);
        let f = Feedback {
            ask,
            user_id: user,
            verdict: Verdict::Right,
            rule: Some(id.clone()),
            at: pressed_at(origin),
        };
        if let Err(e) = store.add_feedback(&f).await {
            return super::internal_error("feedback", &e);
        }
        crate::metrics::feedback(Verdict::Right.as_str());
        thanks(format!(
            "Recorded: `{id}` answers “{question}”. Thank you: it becomes a test question for the search."
        ))
    }

    async fn summary(&self, request: &Request) -> Reply {
        let origin = &request.origin;
        let Some(guild) = guild_key(origin) else {
            return refuse(super::commands::FEEDBACK_IN_A_SERVER);
        };
        if !(origin.moderator || origin.admin) {
            return refuse("the feedback summary is for moderators (Manage Messages)");
        }
        let store = match self.open_matches().await {
            Ok(m) => m.store().clone(),
            Err(e) => return super::internal_error("feedback database", &e),
        };
        match store.feedback(Some(&guild)).await {
            Ok(list) => {
                let mut m = Message::info("Feedback on /rule answers", &summary_text(&list));
                m.ephemeral = true;
                Reply::Message(m)
            }
            Err(e) => super::internal_error("feedback summary", &e),
        }
    }

    async fn rule_choices(&self, request: &Request, value: &str) -> Reply {
        let (app, _) = self.app_for(&request.origin).await;
        let choices = app
            .complete(value, None, super::MAX_CHOICES)
            .unwrap_or_default()
            .iter()
            .map(|s| super::reply::Choice::passage(&s.id, &s.title))
            .collect();
        Reply::Choices(choices)
    }
}

/// Counts, then the latest entries: "👍 12 · 👎 3 · right rule given 2".
pub fn summary_text(list: &[Feedback]) -> String {
    let count = |v: Verdict| list.iter().filter(|f| f.verdict == v).count();
    let mut out = format!(
        "👍 {} · 👎 {} · right rule given {}",
        count(Verdict::Up),
        count(Verdict::Down),
        count(Verdict::Right)
    );
    if list.is_empty() {
        out.push_str("\nNo feedback yet: it comes from the 👍 / 👎 buttons under `/rule` answers.");
        return out;
    }
    out.push_str("\nLatest:");
    for f in list.iter().rev().take(SUMMARY_LATEST) {
        let what = match (f.verdict, &f.rule) {
            (Verdict::Right, Some(r)) => format!("right rule `{r}`"),
            (Verdict::Up, _) => "👍".into(),
            _ => "👎".into(),
        };
        let shown = f
            .ask
            .shown
            .first()
            .map_or("nothing".to_string(), |s| format!("`{s}`"));
        out.push_str(&format!(
            "\n- {what} — “{}” (shown first: {shown})",
            question_shown(&f.ask.question)
        ));
    }
    out.push_str("\nExport them as evaluation questions with `arbiter feedback export`.");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Ask;

    fn fb(q: &str) -> Feedback {
        Feedback {
            ask: Ask {
                key: "k".into(),
                guild: "g".into(),
                channel: "c".into(),
                user_id: "u".into(),
                question: q.into(),
                game: None,
                shown: vec![],
                confidence: "none".into(),
                created_at: 0,
                parts: Vec::new(),
            },
            user_id: "u".into(),
            verdict: Verdict::Up,
            rule: None,
            at: 0,
        }
    }

    /// Ten long questions and the export hint fit one message; a question
    /// cannot forge a line, a heading or a masked link.
    #[test]
    fn the_summary_fits_and_shows_questions_as_typed_on_one_line() {
        let list: Vec<Feedback> = (0..12)
            .map(|i| fb(&format!("{i} {}", "x".repeat(2000))))
            .collect();
        let text = summary_text(&list);
        assert!(text.chars().count() <= 4096, "{}", text.len());
        assert_eq!(text.matches("\n- 👍").count(), SUMMARY_LATEST);
        assert!(text.ends_with("`arbiter feedback export`."), "{text}");
        let text = summary_text(&[fb(
            "see [the FAQ](https://evil.example)\n## FAKE\n- right rule",
        )]);
        assert!(
            text.contains("\\[the FAQ\\](https:\\/\\/evil.example) ## FAKE - right rule"),
            "{text}"
        );
        assert_eq!(text.lines().count(), 4, "{text}");
    }
}
