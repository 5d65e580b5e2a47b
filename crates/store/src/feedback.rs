//! Feedback on `/rule` answers (issue 29): the asks the 👍/👎 buttons refer
//! to (`arbiter_feedback_asks`) and each verdict (`arbiter_feedback`), per
//! server (migrations/0007_feedback.sql).

use serde::{Deserialize, Serialize};
use sqlx::Row;

use super::{Store, StoreError, is_unique_violation};
use crate::text::fnv1a64;

/// A `/rule` question as answered: what its feedback buttons refer to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ask {
    /// The key the buttons carry (hex of a random 64-bit number).
    pub key: String,
    /// The server's rule-set key (`bot::guild_key`).
    pub guild: String,
    pub channel: String,
    pub user_id: String,
    pub question: String,
    pub game: Option<String>,
    /// Passage ids shown, best first.
    pub shown: Vec<String>,
    /// `answer`, `closest` or `none`.
    pub confidence: String,
    pub created_at: i64,
}

/// What a user said of an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// 👍: the answer shown is right.
    Up,
    /// 👎: it is not.
    Down,
    /// The user named the rule that answers.
    Right,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Up => "up",
            Verdict::Down => "down",
            Verdict::Right => "right",
        }
    }

    pub fn parse(s: &str) -> Option<Verdict> {
        match s {
            "up" => Some(Verdict::Up),
            "down" => Some(Verdict::Down),
            "right" => Some(Verdict::Right),
            _ => None,
        }
    }
}

/// One verdict on one ask.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Feedback {
    pub ask: Ask,
    pub user_id: String,
    pub verdict: Verdict,
    /// For [`Verdict::Right`]: the passage id given.
    pub rule: Option<String>,
    pub at: i64,
}

fn shown_json(shown: &[String]) -> String {
    serde_json::to_string(shown).unwrap_or_else(|_| "[]".into())
}

fn ask_of(row: &sqlx::any::AnyRow, key: String) -> Result<Ask, StoreError> {
    let shown: String = row.try_get("shown")?;
    Ok(Ask {
        key,
        guild: row.try_get("guild")?,
        channel: row.try_get("channel").unwrap_or_default(),
        user_id: row.try_get("user_id")?,
        question: row.try_get("question")?,
        game: row.try_get("game")?,
        shown: serde_json::from_str(&shown).unwrap_or_default(),
        confidence: row.try_get("confidence")?,
        created_at: row.try_get("created_at").unwrap_or_default(),
    })
}

impl Store {
    /// Keeps an ask under its key (a key already kept is left as it is).
    pub async fn keep_ask(&self, ask: &Ask) -> Result<(), StoreError> {
        let done = sqlx::query(
            "INSERT INTO arbiter_feedback_asks (key, guild, channel, user_id, question, game, shown, confidence, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&ask.key)
        .bind(&ask.guild)
        .bind(&ask.channel)
        .bind(&ask.user_id)
        .bind(&ask.question)
        .bind(&ask.game)
        .bind(shown_json(&ask.shown))
        .bind(&ask.confidence)
        .bind(ask.created_at)
        .execute(&self.pool)
        .await;
        match done {
            Err(e) if is_unique_violation(&e) => Ok(()),
            other => other.map(|_| ()).map_err(StoreError::from),
        }
    }

    /// The ask kept under `key`.
    pub async fn ask(&self, key: &str) -> Result<Option<Ask>, StoreError> {
        let row = sqlx::query(
            "SELECT guild, channel, user_id, question, game, shown, confidence, created_at \
             FROM arbiter_feedback_asks WHERE key = $1",
        )
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| ask_of(&r, key.to_string())).transpose()
    }

    /// The latest ask of a user in a channel of a server.
    pub async fn latest_ask(
        &self,
        guild: &str,
        channel: &str,
        user_id: &str,
    ) -> Result<Option<Ask>, StoreError> {
        let row = sqlx::query(
            "SELECT key, guild, channel, user_id, question, game, shown, confidence, created_at \
             FROM arbiter_feedback_asks WHERE guild = $1 AND channel = $2 AND user_id = $3 \
             ORDER BY created_at DESC, key DESC LIMIT 1",
        )
        .bind(guild)
        .bind(channel)
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| {
            let key: String = r.try_get("key")?;
            ask_of(&r, key)
        })
        .transpose()
    }

    /// Records one verdict (the ask's question and answer copied with it).
    pub async fn add_feedback(&self, f: &Feedback) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO arbiter_feedback (guild, ask, user_id, verdict, rule, question, game, shown, confidence, at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&f.ask.guild)
        .bind(&f.ask.key)
        .bind(&f.user_id)
        .bind(f.verdict.as_str())
        .bind(&f.rule)
        .bind(&f.ask.question)
        .bind(&f.ask.game)
        .bind(shown_json(&f.ask.shown))
        .bind(&f.ask.confidence)
        .bind(f.at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Every verdict of one server (or of all), oldest first.
    pub async fn feedback(&self, guild: Option<&str>) -> Result<Vec<Feedback>, StoreError> {
        const COLUMNS: &str = "SELECT guild, ask, user_id, verdict, rule, question, game, shown, confidence, at FROM arbiter_feedback";
        let rows = match guild {
            Some(g) => {
                sqlx::query(&format!("{COLUMNS} WHERE guild = $1 ORDER BY at, ask"))
                    .bind(g)
                    .fetch_all(&self.pool)
                    .await?
            }
            None => {
                sqlx::query(&format!("{COLUMNS} ORDER BY at, ask"))
                    .fetch_all(&self.pool)
                    .await?
            }
        };
        rows.iter()
            .map(|r| {
                let key: String = r.try_get("ask")?;
                let verdict: String = r.try_get("verdict")?;
                Ok(Feedback {
                    ask: Ask {
                        created_at: 0,
                        channel: String::new(),
                        ..ask_of(r, key)?
                    },
                    user_id: r.try_get("user_id")?,
                    verdict: Verdict::parse(&verdict).unwrap_or(Verdict::Down),
                    rule: r.try_get("rule")?,
                    at: r.try_get("at")?,
                })
            })
            .collect()
    }
}

/// The feedback as evaluation questions (tests/eval_questions.yaml's
/// format): a question whose right rule a user named expects that rule; one
/// a user marked 👍 expects the passage shown first; 👎 alone says what is
/// wrong, not what is right, so it is left out (counted in the header).
/// One entry per question (the latest verdict that names a rule wins); the
/// split follows the file's rule (held-out when FNV-1a-64(q) % 100 < 55).
pub fn evaluation_yaml(list: &[Feedback]) -> String {
    let mut entries: Vec<(String, Option<String>, String)> = Vec::new();
    let mut unanswered = 0;
    for f in list {
        let expect = match (f.verdict, &f.rule) {
            (Verdict::Right, Some(rule)) => rule.clone(),
            (Verdict::Up, _) => match f.ask.shown.first() {
                Some(id) => id.clone(),
                None => continue,
            },
            _ => {
                unanswered += 1;
                continue;
            }
        };
        entries.retain(|(q, _, _)| *q != f.ask.question);
        entries.push((f.ask.question.clone(), f.ask.game.clone(), expect));
    }
    let mut out = format!(
        "# Questions from feedback on /rule answers ({} exported; {unanswered} 👎 without a right rule left out).\n# Append to tests/eval_questions.yaml after review.\n",
        entries.len()
    );
    for (q, game, expect) in entries {
        let game = game.unwrap_or_else(|| expect.split(':').next().unwrap_or_default().to_string());
        let quoted = serde_json::to_string(&q).unwrap_or_default();
        let split = if fnv1a64(&q) % 100 < 55 {
            "held-out"
        } else {
            "tuning"
        };
        out.push_str(&format!(
            "- q: {quoted}\n  game: {game}\n  ask_game: true\n  expect: [{expect}]\n  source: \"feedback\"\n  split: {split}\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fb(q: &str, verdict: Verdict, rule: Option<&str>) -> Feedback {
        Feedback {
            ask: Ask {
                key: "k".into(),
                guild: "g".into(),
                channel: "c".into(),
                user_id: "u".into(),
                question: q.into(),
                game: Some("ashes".into()),
                shown: vec!["ashes:pass".into()],
                confidence: "closest".into(),
                created_at: 0,
            },
            user_id: "u".into(),
            verdict,
            rule: rule.map(str::to_string),
            at: 0,
        }
    }

    #[test]
    fn export_keeps_questions_with_a_known_answer_once() {
        let yaml = evaluation_yaml(&[
            fb("can I pass?", Verdict::Up, None),
            fb("guard when exhausted?", Verdict::Down, None),
            fb(
                "guard when exhausted?",
                Verdict::Right,
                Some("ashes:attack-a-unit.3"),
            ),
            fb("what is fatigue", Verdict::Down, None),
        ]);
        assert!(yaml.contains("- q: \"can I pass?\"\n  game: ashes\n  ask_game: true\n  expect: [ashes:pass]\n  source: \"feedback\"\n"), "{yaml}");
        assert!(yaml.contains("expect: [ashes:attack-a-unit.3]"), "{yaml}");
        assert!(!yaml.contains("fatigue"), "{yaml}");
        assert!(
            yaml.contains("2 exported; 2 👎 without a right rule left out"),
            "{yaml}"
        );
        let split = if fnv1a64("can I pass?") % 100 < 55 {
            "held-out"
        } else {
            "tuning"
        };
        assert!(
            yaml.contains(&format!(
                "expect: [ashes:pass]\n  source: \"feedback\"\n  split: {split}"
            )),
            "{yaml}"
        );
    }
}
