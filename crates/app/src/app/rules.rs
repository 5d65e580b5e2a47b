//! `rules`: the games, their documents and tables of contents.

use serde::Serialize;

use super::{App, AppError};
use crate::corpus::Warning;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TocEntry {
    pub id: String,
    pub title: String,
    pub depth: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DocumentToc {
    pub slug: String,
    pub title: String,
    pub version: String,
    pub source: String,
    pub licence: String,
    pub passages: usize,
    pub toc: Vec<TocEntry>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GameInfo {
    pub id: String,
    pub name: String,
    pub aliases: Vec<String>,
    pub documents: Vec<DocumentToc>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RulesReply {
    pub games: Vec<GameInfo>,
    pub warnings: Vec<Warning>,
}

impl App {
    /// Games, documents and their tables of contents (one game or all).
    pub fn rules(&self, game: Option<&str>) -> Result<RulesReply, AppError> {
        let only = game
            .map(|g| self.game(g).map(|g| g.id.clone()))
            .transpose()?;
        let games = self
            .corpus
            .games
            .iter()
            .filter(|g| only.as_ref().is_none_or(|o| *o == g.id))
            .map(|g| GameInfo {
                id: g.id.clone(),
                name: g.name.clone(),
                aliases: g.aliases.clone(),
                documents: g
                    .documents
                    .iter()
                    .map(|d| {
                        let tree = self.corpus.subtree(d.root);
                        DocumentToc {
                            slug: d.slug.clone(),
                            title: d.title.clone(),
                            version: d.version.clone(),
                            source: d.source.clone(),
                            licence: d.licence.clone(),
                            passages: tree.len(),
                            toc: tree
                                .into_iter()
                                .map(|i| TocEntry {
                                    id: self.corpus.passages[i].id.clone(),
                                    title: self.corpus.passages[i].title.clone(),
                                    depth: self.corpus.depth(i),
                                })
                                .collect(),
                        }
                    })
                    .collect(),
            })
            .collect();
        let warnings = self
            .corpus
            .warnings
            .iter()
            .filter(|w| only.as_ref().is_none_or(|o| *o == w.game))
            .cloned()
            .collect();
        Ok(RulesReply { games, warnings })
    }
}
