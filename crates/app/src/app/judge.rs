//! `judge`, `schema` and engine coverage.

use serde::Serialize;

use super::{App, AppError};
use crate::engine::{self, Asking, BoardError, Ruling, document};

/// Why a board could not be adjudicated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JudgeError {
    #[error("{0}")]
    Board(#[from] BoardError),
    #[error("{0}")]
    App(#[from] AppError),
    #[error(
        "{game} has rules text but no rules engine yet; `arbiter ask` can still cite its rules"
    )]
    NoEngine { game: String },
}

impl JudgeError {
    /// A board error located in the document's text (line:column).
    fn located(self, text: &str) -> JudgeError {
        match self {
            JudgeError::Board(e) => JudgeError::Board(e.located(Some(text))),
            other => other,
        }
    }
}

/// One passage and where the engine executes it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CoverageEntry {
    pub id: String,
    pub title: String,
    pub depth: usize,
    /// Procedures that cite this passage; empty = text only.
    pub executed_by: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GameCoverage {
    pub game: String,
    pub name: String,
    pub has_engine: bool,
    pub executed: usize,
    pub passages: usize,
    pub entries: Vec<CoverageEntry>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CoverageReply {
    pub games: Vec<GameCoverage>,
}

impl App {
    /// Adjudicates a board document (YAML or JSON, or a Discord message
    /// holding one in a code block). `game` overrides the document's own.
    /// The text is parsed once.
    pub fn judge(&self, text: &str, game: Option<&str>) -> Result<Ruling, JudgeError> {
        let text = document::extract_code_block(text);
        let mut doc = document::parse_value(text)?;
        let engine = self.engine_for(&doc, game).map_err(|e| e.located(text))?;
        self.name_game_by_id(&mut doc, engine.game());
        let filled = crate::cards::fill_stats(&mut doc, &self.cards, engine.game());
        let mut ruling = engine.judge(doc, Some(text), &Asking::judge())?;
        note_filled(&mut ruling, &filled);
        Ok(ruling)
    }

    /// Adjudicates a play written in the game's one-line notation against a
    /// board document (any `play` in the document is replaced).
    pub fn judge_notation(
        &self,
        text: &str,
        game: Option<&str>,
        line: &str,
    ) -> Result<Ruling, JudgeError> {
        let text = document::extract_code_block(text);
        let mut doc = document::parse_value(text)?;
        let engine = self.engine_for(&doc, game).map_err(|e| e.located(text))?;
        self.name_game_by_id(&mut doc, engine.game());
        let Some(map) = doc.as_object_mut() else {
            return Err(
                BoardError::semantic("", "the board document must be a mapping of fields").into(),
            );
        };
        map.remove("plays");
        map.remove("play");
        let filled = crate::cards::fill_stats(&mut doc, &self.cards, engine.game());
        // One read of the board for the notation and the ruling.
        let board = engine.open(&doc, Some(text))?;
        let play = board.parse_notation(line.trim())?;
        let mut ruling = board.judge(play, &Asking::judge())?;
        note_filled(&mut ruling, &filled);
        Ok(ruling)
    }

    /// The document a ruling was made on, as the engine read it (card
    /// stats filled in; a notation `line` as its `play`): what a picture of
    /// the ruling marks its changes against. Parses `text` again, so only
    /// a request for a picture pays for it.
    pub fn judged_document(
        &self,
        text: &str,
        game: Option<&str>,
        line: Option<&str>,
    ) -> Result<serde_json::Value, JudgeError> {
        let text = document::extract_code_block(text);
        let mut doc = document::parse_value(text)?;
        let engine = self.engine_for(&doc, game).map_err(|e| e.located(text))?;
        self.name_game_by_id(&mut doc, engine.game());
        crate::cards::fill_stats(&mut doc, &self.cards, engine.game());
        if let Some(line) = line {
            if let Some(map) = doc.as_object_mut() {
                map.remove("plays");
                map.remove("play");
            }
            let play = engine.parse_notation(line.trim(), &doc)?;
            if let Some(map) = doc.as_object_mut() {
                map.insert("play".into(), play);
            }
        }
        Ok(doc)
    }

    /// `game: Ashes Reborn` or an alias written as the game's id `id`.
    fn name_game_by_id(&self, doc: &mut serde_json::Value, id: &str) {
        document::name_game_by_id(doc, id, |g| self.game(g).is_ok_and(|known| known.id == id));
    }

    /// The engine for a board document's game (or the given one).
    fn engine_for(
        &self,
        doc: &serde_json::Value,
        game: Option<&str>,
    ) -> Result<&'static dyn engine::GameEngine, JudgeError> {
        // A game given beside the document (`--game`, the `game` option)
        // is refused as the option it is, not at the document's `game:`
        // line ("line 1:1: game: unknown game", for a flag's typo).
        let game = match game {
            Some(g) => self.game(g).map_err(JudgeError::App)?,
            None => self.game_of_document(doc)?,
        };
        engine::engine(&game.id).ok_or_else(|| JudgeError::NoEngine {
            game: game.name.clone(),
        })
    }

    /// The game a board document's `game:` names, refused at that field.
    fn game_of_document(
        &self,
        doc: &serde_json::Value,
    ) -> Result<&crate::corpus::Game, JudgeError> {
        let named = document::game_of(doc)?;
        self.game(named).map_err(|e| match e {
            AppError::UnknownGame {
                name,
                suggestions,
                games,
            } => JudgeError::Board(BoardError::semantic(
                "game",
                format!(
                    "unknown game '{name}'{}",
                    super::game_hint(&suggestions, &games)
                ),
            )),
            other => JudgeError::App(other),
        })
    }

    /// The JSON Schema of a game's board documents.
    pub fn schema(&self, game: &str) -> Result<serde_json::Value, JudgeError> {
        let g = self.game(game)?;
        let engine = engine::engine(&g.id).ok_or_else(|| JudgeError::NoEngine {
            game: g.name.clone(),
        })?;
        Ok(engine.schema())
    }

    /// For each passage, whether an engine executes it and where.
    pub fn coverage(&self, game: Option<&str>) -> Result<CoverageReply, AppError> {
        let only = game
            .map(|g| self.game(g).map(|g| g.id.clone()))
            .transpose()?;
        let games = self
            .corpus
            .games
            .iter()
            .filter(|g| only.as_ref().is_none_or(|o| *o == g.id))
            .map(|g| {
                let uses = engine::engine(&g.id).map(|e| e.rule_uses()).unwrap_or(&[]);
                let entries: Vec<CoverageEntry> = g
                    .documents
                    .iter()
                    .flat_map(|d| self.corpus.subtree(d.root))
                    .map(|i| {
                        let p = &self.corpus.passages[i];
                        let mut executed_by: Vec<String> = uses
                            .iter()
                            .filter(|u| u.rule == p.id)
                            .map(|u| u.procedure.to_string())
                            .collect();
                        executed_by.dedup();
                        CoverageEntry {
                            id: p.id.clone(),
                            title: p.title.clone(),
                            depth: self.corpus.depth(i),
                            executed_by,
                        }
                    })
                    .collect();
                GameCoverage {
                    game: g.id.clone(),
                    name: g.name.clone(),
                    has_engine: engine::engine(&g.id).is_some(),
                    executed: entries.iter().filter(|e| !e.executed_by.is_empty()).count(),
                    passages: entries.len(),
                    entries,
                }
            })
            .collect();
        Ok(CoverageReply { games })
    }
}

/// Says which stats came from the card list (info) and that the cards'
/// text was not applied from it (a warning: the board's own fields are
/// what the engine reads).
fn note_filled(ruling: &mut Ruling, filled: &[crate::cards::Filled]) {
    for f in filled {
        ruling.diagnostics.push(engine::Diagnostic {
            severity: engine::Severity::Info,
            message: f.note(),
            rule: None,
            path: Some(f.path.clone()),
        });
        if let Some(message) = f.text_note() {
            ruling.diagnostics.push(engine::Diagnostic {
                severity: engine::Severity::Warning,
                message,
                rule: None,
                path: Some(f.path.clone()),
            });
        }
    }
}
