//! The data files that describe a game: `manifest.yaml` and its glossary.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// `rules_data/<game>/manifest.yaml`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GameManifest {
    /// Lower-case id used in passage ids (`ashes`).
    pub game: String,
    /// Display name (`Ashes Reborn`).
    pub name: String,
    /// Other names players use; matched case-insensitively.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Glossary file, relative to the manifest.
    #[serde(default)]
    pub glossary: Option<String>,
    pub documents: Vec<DocumentManifest>,
}

/// One document entry of a manifest.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DocumentManifest {
    /// Path of the document, relative to the manifest.
    pub file: String,
    /// SHA-256 of the file (64 hex digits): the document's identity, which
    /// the tests check against the shipped file and its seed original.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Short id of the document; also the id of its root passage.
    pub slug: String,
    pub title: String,
    #[serde(default)]
    pub version: String,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub licence: String,
    #[serde(default)]
    pub format: DocumentFormat,
    /// What the document is to the game (rules, FAQ, errata, house rules…);
    /// answers label passages of other kinds with it.
    #[serde(default, skip_serializing_if = "DocumentKind::is_rules")]
    pub kind: DocumentKind,
    /// Segment put before every passage id of this document (may be empty).
    #[serde(default)]
    pub id_prefix: String,
    /// Headings that do not add a segment to ids (their text joins the parent).
    #[serde(default)]
    pub transparent_headings: Vec<String>,
    /// Exact lines to leave out of the index (footers, attributions kept here).
    #[serde(default)]
    pub drop_lines: Vec<String>,
    /// The document holds a scraped page's images as their alt text and
    /// file name in brackets ("(Card Action icon-2.png)"): left out. Only
    /// a shipped document says so; in any other such brackets are words.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drop_image_names: bool,
}

/// How a document is laid out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentFormat {
    /// Decide from the text: markdown unless it is numbered-section text.
    #[default]
    Auto,
    /// Markdown, GitBook markdown, or plain text with `•`/`»` bullets.
    Markdown,
    /// Plain text with numbered sections and rules (`13.1 - Step Moves`, `702.19b`).
    Numbered,
}

/// What a document is to its game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentKind {
    /// The game's rules (a rulebook, a rules reference).
    #[default]
    Rules,
    /// Answers to frequently asked questions.
    Faq,
    /// Corrections to the printed rules or cards.
    Errata,
    /// A community's own rules (one server's house rules).
    House,
    /// Tournament rules and procedures.
    Tournament,
    /// A card list (YAML, JSON or CSV): data for `/card`, not passages.
    Cards,
    /// A slang list (YAML, JSON or CSV): players' words mapped to the
    /// rules' words, read by search as the game's glossary; not passages.
    Slang,
}

impl DocumentKind {
    pub const ALL: [DocumentKind; 7] = [
        DocumentKind::Rules,
        DocumentKind::Faq,
        DocumentKind::Errata,
        DocumentKind::House,
        DocumentKind::Tournament,
        DocumentKind::Cards,
        DocumentKind::Slang,
    ];

    pub fn is_rules(&self) -> bool {
        *self == DocumentKind::Rules
    }

    /// Whether a passage of this kind amends the rule number it leads
    /// with ("## 1.1 Opening hand", "Rule 1.1 now reads: …"): an errata,
    /// an FAQ or house rules are written about the rules' own numbers; a
    /// tournament document numbers its own procedures.
    pub fn amends_by_number(self) -> bool {
        matches!(
            self,
            DocumentKind::Errata | DocumentKind::Faq | DocumentKind::House
        )
    }

    /// What one item of a data document is called ("card", "term"); `None`
    /// for a document of passages.
    pub fn item_noun(self) -> Option<&'static str> {
        match self {
            DocumentKind::Cards => Some("card"),
            DocumentKind::Slang => Some("term"),
            _ => None,
        }
    }

    /// The lower-case name used in manifests and commands (`faq`).
    pub fn as_str(self) -> &'static str {
        match self {
            DocumentKind::Rules => "rules",
            DocumentKind::Faq => "faq",
            DocumentKind::Errata => "errata",
            DocumentKind::House => "house",
            DocumentKind::Tournament => "tournament",
            DocumentKind::Cards => "cards",
            DocumentKind::Slang => "slang",
        }
    }

    /// A human label ("House rule", "Errata").
    pub fn label(self) -> &'static str {
        match self {
            DocumentKind::Rules => "Rules",
            DocumentKind::Faq => "FAQ",
            DocumentKind::Errata => "Errata",
            DocumentKind::House => "House rule",
            DocumentKind::Tournament => "Tournament rules",
            DocumentKind::Cards => "Cards",
            DocumentKind::Slang => "Slang list",
        }
    }
}

impl std::str::FromStr for DocumentKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let key = s.trim().to_lowercase();
        DocumentKind::ALL
            .into_iter()
            .find(|k| k.as_str() == key)
            .ok_or_else(|| {
                let kinds: Vec<&str> = DocumentKind::ALL.iter().map(|k| k.as_str()).collect();
                let near = crate::text::closest(&key, kinds.iter().copied(), 2)
                    .map(|k| format!("did you mean '{k}'? "))
                    .unwrap_or_default();
                format!(
                    "unknown document kind '{s}'; {near}use one of: {}",
                    kinds.join(", ")
                )
            })
    }
}

/// `glossary.yaml`: player slang and synonyms.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Glossary {
    /// Phrase (any case) → the words it stands for.
    #[serde(default)]
    pub synonyms: BTreeMap<String, Vec<String>>,
}
