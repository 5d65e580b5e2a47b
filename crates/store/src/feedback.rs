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
    /// A multi-part question's parts, in order (empty for one part).
    pub parts: Vec<AskedPart>,
}

/// A part of a multi-part question as answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AskedPart {
    pub question: String,
    /// The passage shown first for it (none when nothing was).
    pub best: Option<String>,
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

fn parts_json(parts: &[AskedPart]) -> Option<String> {
    (!parts.is_empty()).then(|| serde_json::to_string(parts).unwrap_or_else(|_| "[]".into()))
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
        parts: row
            .try_get::<Option<String>, _>("parts")?
            .and_then(|p| serde_json::from_str(&p).ok())
            .unwrap_or_default(),
    })
}

impl Store {
    /// Keeps an ask under its key (a key already kept is left as it is).
    pub async fn keep_ask(&self, ask: &Ask) -> Result<(), StoreError> {
        let done = sqlx::query(
            "INSERT INTO arbiter_feedback_asks (key, guild, channel, user_id, question, game, shown, confidence, created_at, parts) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
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
        .bind(parts_json(&ask.parts))
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
            "SELECT guild, channel, user_id, question, game, shown, confidence, created_at, parts \
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
            "SELECT key, guild, channel, user_id, question, game, shown, confidence, created_at, parts \
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
    /// A user has one vote (👍 or 👎) and one right rule per answer
    /// (`vote_key`, unique: migrations/0010): a newer one replaces theirs,
    /// an older one (Discord retrying a press the user has since changed)
    /// changes nothing, so pressing again counts once on every replica.
    pub async fn add_feedback(&self, f: &Feedback) -> Result<(), StoreError> {
        let kind = match f.verdict {
            Verdict::Up | Verdict::Down => "vote",
            Verdict::Right => "right",
        };
        let key = format!("{}|{}|{}|{kind}", f.ask.guild, f.ask.key, f.user_id);
        sqlx::query(
            "INSERT INTO arbiter_feedback (guild, ask, user_id, verdict, rule, question, game, shown, confidence, at, vote_key, parts) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
             ON CONFLICT (vote_key) DO UPDATE SET verdict = excluded.verdict, rule = excluded.rule, \
             question = excluded.question, game = excluded.game, shown = excluded.shown, \
             confidence = excluded.confidence, at = excluded.at, parts = excluded.parts \
             WHERE excluded.at >= arbiter_feedback.at",
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
        .bind(key)
        .bind(parts_json(&f.ask.parts))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Every verdict of one server (or of all), oldest first.
    pub async fn feedback(&self, guild: Option<&str>) -> Result<Vec<Feedback>, StoreError> {
        const COLUMNS: &str = "SELECT guild, ask, user_id, verdict, rule, question, game, shown, confidence, at, parts FROM arbiter_feedback";
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

/// One evaluation question drawn from feedback.
struct Entry<'a> {
    guild: &'a str,
    game: String,
    question: &'a str,
    expect: Option<String>,
    named: bool,
}

/// The game of a passage id (`mtg:702.20a` is MTG's).
fn game_of(id: &str) -> String {
    id.split(':').next().unwrap_or_default().to_string()
}

/// The questions one verdict gives: a named rule, its question in the
/// rule's game; a 👍, the passage shown first, in the game asked, or for a
/// multi-part question each part with its own first passage, in that
/// passage's game (found by an outside tester: a 👍 on "1) … vigilance
/// 2) ti4 …" was one MTG question); a 👎 alone, none.
fn entries_of(f: &Feedback) -> Vec<Entry<'_>> {
    let ask = &f.ask;
    let entry = |game: String, question, expect, named| Entry {
        guild: &ask.guild,
        game,
        question,
        expect,
        named,
    };
    match (f.verdict, &f.rule) {
        (Verdict::Right, Some(rule)) => {
            vec![entry(
                game_of(rule),
                &ask.question,
                Some(rule.clone()),
                true,
            )]
        }
        // A part with nothing shown is left out: a 👍 on the whole reply
        // does not say that part's "nothing relevant" is right, nor in
        // which game (found by a review).
        (Verdict::Up, _) if !ask.parts.is_empty() => ask
            .parts
            .iter()
            .filter_map(|p| {
                let best = p.best.as_ref()?;
                Some(entry(game_of(best), &p.question, Some(best.clone()), false))
            })
            .collect(),
        (Verdict::Up, _) => {
            let expect = ask.shown.first().cloned();
            let game = match (&ask.game, &expect) {
                (Some(g), _) => g.clone(),
                (None, Some(id)) => game_of(id),
                (None, None) => "none".to_string(),
            };
            vec![entry(game, &ask.question, expect, false)]
        }
        _ => Vec::new(),
    }
}

/// The feedback as evaluation questions (tests/eval_questions.yaml's
/// format): a question whose right rule a user named expects that rule (in
/// that rule's game); one a user marked 👍 expects the passage shown first,
/// or, where nothing was shown ("no indexed rule covers this"), nothing: a
/// question the rules do not answer. 👎 alone says what is wrong, not what
/// is right, so it is left out (counted in the header). One entry per
/// server, game and question: a named rule wins over a 👍, the latest of
/// each kind over earlier ones. The split follows the file's rule
/// (held-out when FNV-1a-64(q) % 100 < 55).
pub fn evaluation_yaml(list: &[Feedback]) -> String {
    let mut entries: Vec<Entry> = Vec::new();
    let righted: std::collections::HashSet<(&str, &str)> = list
        .iter()
        .filter(|f| f.verdict == Verdict::Right)
        .map(|f| (f.ask.guild.as_str(), f.ask.key.as_str()))
        .collect();
    let mut unanswered = 0;
    for f in list {
        let found = entries_of(f);
        if found.is_empty() && !righted.contains(&(f.ask.guild.as_str(), f.ask.key.as_str())) {
            unanswered += 1;
        }
        for entry in found {
            let same = |e: &Entry| {
                e.guild == entry.guild && e.game == entry.game && e.question == entry.question
            };
            if entries.iter().any(|e| same(e) && e.named && !entry.named) {
                continue;
            }
            entries.retain(|e| !same(e));
            entries.push(entry);
        }
    }
    let mut out = format!(
        "# Questions from feedback on /rule answers ({} exported; {unanswered} 👎 without a right rule left out).\n# Append to tests/eval_questions.yaml after review.\n",
        entries.len()
    );
    for e in entries {
        let split = if fnv1a64(e.question) % 100 < 55 {
            "held-out"
        } else {
            "tuning"
        };
        out.push_str(&format!(
            "- q: {}\n  game: {}\n  ask_game: true\n  expect: [{}]\n  source: \"feedback\"\n  split: {split}\n",
            yaml_quoted(e.question),
            yaml_quoted(&e.game),
            e.expect.as_deref().map(yaml_quoted).unwrap_or_default(),
        ));
    }
    out
}

/// A YAML double-quoted scalar: every character YAML does not print
/// (controls, DEL, C1, U+FFFE/FFFF, a lone BOM), quotes and backslashes
/// escaped, so any text a user typed reads back as it was.
fn yaml_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            ' '..='~' => out.push(c),
            '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fefe}' | '\u{ff00}'..='\u{fffd}' => {
                out.push(c)
            }
            c if u32::from(c) >= 0x10000 => out.push(c),
            c if u32::from(c) <= 0xff => out.push_str(&format!("\\x{:02X}", u32::from(c))),
            c => out.push_str(&format!("\\u{:04X}", u32::from(c))),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fb(q: &str, verdict: Verdict, rule: Option<&str>) -> Feedback {
        Feedback {
            ask: Ask {
                key: q.into(),
                guild: "g".into(),
                channel: "c".into(),
                user_id: "u".into(),
                question: q.into(),
                game: Some("ashes".into()),
                shown: vec!["ashes:pass".into()],
                confidence: "closest".into(),
                created_at: 0,
                parts: Vec::new(),
            },
            user_id: "u".into(),
            verdict,
            rule: rule.map(str::to_string),
            at: 0,
        }
    }

    #[test]
    fn export_quotes_what_yaml_does_not_print_and_reads_back() {
        let q = "a\u{7f}b\u{85}c\u{9b}d\u{ffff}e\u{feff}f \"g\" \\ h\n# i: [j] {k} *l !m |n 🎲";
        let yaml = evaluation_yaml(&[fb(q, Verdict::Up, None)]);
        #[derive(serde::Deserialize)]
        struct Entry {
            q: String,
            game: String,
            expect: Vec<String>,
        }
        let read: Vec<Entry> = serde_saphyr::from_str(&yaml).expect("the export parses");
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].q, q);
        assert_eq!(read[0].game, "ashes");
        assert_eq!(read[0].expect, ["ashes:pass"]);
    }

    #[test]
    fn export_keeps_servers_and_games_apart_and_a_named_rule_wins() {
        let mut other = fb("who goes first", Verdict::Up, None);
        other.ask.guild = "g2".into();
        other.ask.game = Some("ti4".into());
        other.ask.shown = vec!["ti4:action-phase.1".into()];
        let mut none = fb("how many cards in a deck", Verdict::Up, None);
        none.ask.shown.clear();
        let yaml = evaluation_yaml(&[
            fb(
                "who goes first",
                Verdict::Right,
                Some("ashes:attack-a-unit.3"),
            ),
            other,
            fb("who goes first", Verdict::Up, None),
            fb("which rule?", Verdict::Right, Some("ti4:action-phase.1")),
            none,
        ]);
        assert!(yaml.contains("4 exported"), "{yaml}");
        assert!(
            yaml.contains("expect: [\"ashes:attack-a-unit.3\"]"),
            "{yaml}"
        );
        assert!(yaml.contains("expect: [\"ti4:action-phase.1\"]"), "{yaml}");
        assert!(
            !yaml.contains("expect: [\"ashes:pass\"]"),
            "a 👍 after a named rule: {yaml}"
        );
        assert!(
            yaml.contains("- q: \"which rule?\"\n  game: \"ti4\""),
            "a named rule's own game: {yaml}"
        );
        assert!(
            yaml.contains("- q: \"how many cards in a deck\"\n  game: \"ashes\"\n  ask_game: true\n  expect: []"),
            "{yaml}"
        );
    }

    /// A 👍 on a multi-part answer is each part with its own first
    /// passage in that passage's game; a 👎 with a right rule named for the
    /// same answer is not counted as left out.
    #[test]
    fn export_gives_a_multi_part_answer_part_by_part() {
        let q = "1) what does vigilance do 2) ti4 can i pass before strat card";
        let mut up = fb(q, Verdict::Up, None);
        up.ask.game = Some("mtg".into());
        up.ask.parts = vec![
            AskedPart {
                question: "what does vigilance do".into(),
                best: Some("mtg:702.20a".into()),
            },
            AskedPart {
                question: "ti4 can i pass before strat card".into(),
                best: Some("ti4:action-phase.4".into()),
            },
            AskedPart {
                question: "what is a fizzle".into(),
                best: None,
            },
        ];
        let yaml = evaluation_yaml(&[
            up,
            fb("guard?", Verdict::Down, None),
            fb("guard?", Verdict::Right, Some("ashes:attack-a-unit.3")),
        ]);
        assert!(yaml.contains("(3 exported; 0 👎"), "{yaml}");
        assert!(
            yaml.contains("- q: \"what does vigilance do\"\n  game: \"mtg\"\n  ask_game: true\n  expect: [\"mtg:702.20a\"]"),
            "{yaml}"
        );
        assert!(
            yaml.contains("- q: \"ti4 can i pass before strat card\"\n  game: \"ti4\"\n  ask_game: true\n  expect: [\"ti4:action-phase.4\"]"),
            "{yaml}"
        );
        assert!(!yaml.contains(q), "{yaml}");
        assert!(
            !yaml.contains("fizzle"),
            "a part with nothing shown: {yaml}"
        );
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
        assert!(yaml.contains("- q: \"can I pass?\"\n  game: \"ashes\"\n  ask_game: true\n  expect: [\"ashes:pass\"]\n  source: \"feedback\"\n"), "{yaml}");
        assert!(
            yaml.contains("expect: [\"ashes:attack-a-unit.3\"]"),
            "{yaml}"
        );
        assert!(!yaml.contains("fatigue"), "{yaml}");
        assert!(
            yaml.contains("2 exported; 1 👎 without a right rule left out"),
            "{yaml}"
        );
        let split = if fnv1a64("can I pass?") % 100 < 55 {
            "held-out"
        } else {
            "tuning"
        };
        assert!(
            yaml.contains(&format!(
                "expect: [\"ashes:pass\"]\n  source: \"feedback\"\n  split: {split}"
            )),
            "{yaml}"
        );
    }
}
