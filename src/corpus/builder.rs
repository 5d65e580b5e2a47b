//! Builds the passage tree of every document, then resolves cross-references.

use std::collections::HashMap;

use super::clean::{self, Link};
use super::refs::{self, RawRef};
use super::*;

/// Builds one document's passages inside the corpus under construction.
/// Front-ends (markdown, numbered) call `add` and `append`; ids are composed
/// here so every front-end follows the same scheme.
pub(super) struct DocBuilder<'a> {
    pub passages: &'a mut Vec<Passage>,
    pub by_id: &'a mut HashMap<String, PassageIdx>,
    pub warnings: &'a mut Vec<Warning>,
    pub dead: &'a mut Vec<bool>,
    pub raw_refs: &'a mut Vec<(PassageIdx, RawRef)>,
    pub game: String,
    pub doc_index: usize,
    pub doc_file: String,
    pub manifest: DocumentManifest,
    pub root: PassageIdx,
}

impl DocBuilder<'_> {
    pub fn warn(&mut self, line: usize, message: impl Into<String>) {
        self.warnings.push(Warning {
            game: self.game.clone(),
            document: self.doc_file.clone(),
            line,
            message: message.into(),
        });
    }

    /// The id a child of `parent` with this segment gets.
    pub fn child_id(&self, parent: PassageIdx, segment: &str) -> String {
        if parent == self.root {
            let prefix = &self.manifest.id_prefix;
            if prefix.is_empty() {
                format!("{}:{segment}", self.game)
            } else {
                format!("{}:{prefix}.{segment}", self.game)
            }
        } else {
            format!("{}.{segment}", self.passages[parent].id)
        }
    }

    /// The id of a passage that names itself absolutely (a rule number).
    pub fn absolute_id(&self, number: &str) -> String {
        let prefix = &self.manifest.id_prefix;
        if prefix.is_empty() {
            format!("{}:{number}", self.game)
        } else {
            format!("{}:{prefix}.{number}", self.game)
        }
    }

    pub fn is_transparent(&self, title: &str) -> bool {
        let key = crate::text::fold(title);
        key == crate::text::fold(&self.manifest.title)
            || self
                .manifest
                .transparent_headings
                .iter()
                .any(|h| crate::text::fold(h) == key)
    }

    pub fn is_dropped(&self, line: &str) -> bool {
        let t = line.trim();
        self.manifest.drop_lines.iter().any(|d| d.trim() == t)
    }

    /// Adds a passage. A duplicate id replaces an earlier passage that has no
    /// text of its own (a table-of-contents entry); otherwise it gets a `~N`
    /// suffix and a warning.
    pub fn add(
        &mut self,
        parent: PassageIdx,
        mut id: String,
        kind: PassageKind,
        title: String,
        line: usize,
    ) -> PassageIdx {
        if let Some(&old) = self.by_id.get(&id) {
            if self.subtree_is_empty(old) {
                self.dead[old] = true;
            } else {
                let mut n = 2;
                while self.by_id.contains_key(&format!("{id}~{n}")) {
                    n += 1;
                }
                self.warn(
                    line,
                    format!("duplicate passage id {id}; this one is {id}~{n}"),
                );
                id = format!("{id}~{n}");
            }
        }
        let idx = self.passages.len();
        self.passages.push(Passage {
            id: id.clone(),
            game: self.game.clone(),
            document: self.doc_index,
            kind,
            title,
            path: Vec::new(),
            text: String::new(),
            parent: Some(parent),
            children: Vec::new(),
            refs: Vec::new(),
        });
        self.dead.push(false);
        self.passages[parent].children.push(idx);
        self.by_id.insert(id, idx);
        idx
    }

    /// Whether a passage and all its descendants hold no text (a table of
    /// contents entry), so a later passage with its id may replace it.
    fn subtree_is_empty(&self, idx: PassageIdx) -> bool {
        self.passages[idx].text.is_empty()
            && self.passages[idx]
                .children
                .iter()
                .all(|&c| self.dead[c] || self.subtree_is_empty(c))
    }

    /// Appends cleaned text to a passage: `sep` joins it to existing text.
    pub fn append(&mut self, idx: PassageIdx, raw: &str, sep: &str) {
        let (text, links) = clean::clean_inline(raw);
        self.add_links(idx, &links);
        if text.is_empty() {
            return;
        }
        let p = &mut self.passages[idx];
        if !p.text.is_empty() {
            p.text.push_str(sep);
        }
        p.text.push_str(&text);
    }

    pub fn add_links(&mut self, idx: PassageIdx, links: &[Link]) {
        for l in links {
            self.raw_refs.push((
                idx,
                RawRef::Link {
                    label: l.label.clone(),
                    url: l.url.clone(),
                },
            ));
        }
    }

    pub fn add_named_ref(&mut self, idx: PassageIdx, label: &str) {
        self.raw_refs
            .push((idx, RawRef::Name(label.trim().to_string())));
    }
}

/// A short title for an item: its lead phrase ("Declare Attackers: ...") or
/// its first words.
pub(super) fn item_title(text: &str) -> String {
    if let Some((lead, _)) = text.split_once(':') {
        let words = lead.split_whitespace().count();
        if (1..=5).contains(&words) && !lead.contains('.') {
            return lead.trim().to_string();
        }
    }
    let mut words = text.split_whitespace();
    let first: Vec<&str> = words.by_ref().take(8).collect();
    let mut t = first.join(" ");
    if words.next().is_some() {
        t.push('…');
    }
    t
}

pub(super) fn build(sources: Vec<SourceGame>) -> Corpus {
    let mut passages = Vec::new();
    let mut by_id = HashMap::new();
    let mut warnings = Vec::new();
    let mut dead = Vec::new();
    let mut raw_refs = Vec::new();
    let mut games = Vec::new();

    for source in merge_extensions(sources) {
        let game_id = source.manifest.game.trim().to_lowercase();
        let mut documents = Vec::new();
        for (doc_index, doc) in source.documents.into_iter().enumerate() {
            let root = passages.len();
            let root_id = format!("{game_id}:{}", doc.manifest.slug);
            passages.push(Passage {
                id: root_id.clone(),
                game: game_id.clone(),
                document: doc_index,
                kind: PassageKind::Document,
                title: doc.manifest.title.clone(),
                path: Vec::new(),
                text: String::new(),
                parent: None,
                children: Vec::new(),
                refs: Vec::new(),
            });
            dead.push(false);
            if by_id.insert(root_id.clone(), root).is_some() {
                warnings.push(Warning {
                    game: game_id.clone(),
                    document: doc.manifest.file.clone(),
                    line: 0,
                    message: format!("document slug {root_id} is used twice"),
                });
            }
            documents.push(Document {
                slug: doc.manifest.slug.clone(),
                title: doc.manifest.title.clone(),
                version: doc.manifest.version.clone(),
                source: doc.manifest.source.clone(),
                licence: doc.manifest.licence.clone(),
                kind: doc.manifest.kind,
                root,
            });
            let format = match doc.manifest.format {
                DocumentFormat::Auto => detect_format(&doc.text),
                f => f,
            };
            let mut b = DocBuilder {
                passages: &mut passages,
                by_id: &mut by_id,
                warnings: &mut warnings,
                dead: &mut dead,
                raw_refs: &mut raw_refs,
                game: game_id.clone(),
                doc_index,
                doc_file: doc.manifest.file.clone(),
                manifest: doc.manifest,
                root,
            };
            match format {
                DocumentFormat::Numbered => super::numbered::parse(&mut b, &doc.text),
                _ => super::markdown::parse(&mut b, &doc.text),
            }
        }
        games.push(Game {
            id: game_id,
            name: source.manifest.name,
            aliases: source.manifest.aliases,
            documents,
            glossary: source.glossary,
        });
    }

    // Text refs ("(See 15.0 – Movement.)", "see page 7", "step 2.a.").
    for (idx, p) in passages.iter().enumerate() {
        for r in refs::extract(&p.text) {
            raw_refs.push((idx, r));
        }
    }

    let mut corpus = compact(passages, dead, raw_refs, games, warnings);
    corpus
        .warnings
        .sort_by(|a, b| (&a.game, &a.document, a.line).cmp(&(&b.game, &b.document, b.line)));
    corpus
}

/// Folds later definitions of a game into the first: their documents extend
/// it (an imported FAQ or house rules for a shipped game), their aliases and
/// glossary entries join its own. The first definition's name stands.
fn merge_extensions(sources: Vec<SourceGame>) -> Vec<SourceGame> {
    let mut merged: Vec<SourceGame> = Vec::new();
    for source in sources {
        let id = source.manifest.game.trim().to_lowercase();
        let Some(first) = merged
            .iter_mut()
            .find(|g| g.manifest.game.trim().to_lowercase() == id)
        else {
            merged.push(source);
            continue;
        };
        for alias in source.manifest.aliases {
            if !first.manifest.aliases.contains(&alias) {
                first.manifest.aliases.push(alias);
            }
        }
        for (key, words) in source.glossary.synonyms {
            first.glossary.synonyms.entry(key).or_insert(words);
        }
        first.manifest.documents.extend(source.manifest.documents);
        first.documents.extend(source.documents);
    }
    merged
}

/// Markdown unless the text is numbered-section text (`13.0 - Title` or
/// `100.1. Rule`) with no markdown headings.
pub(super) fn detect_format(text: &str) -> DocumentFormat {
    let has_heading = text
        .lines()
        .any(|l| l.starts_with('#') || l.trim() == "---");
    if has_heading {
        return DocumentFormat::Markdown;
    }
    let numbered = text
        .lines()
        .filter(|l| super::numbered::is_numbered_line(l))
        .count();
    if numbered >= 2 {
        DocumentFormat::Numbered
    } else {
        DocumentFormat::Markdown
    }
}

/// Drops replaced and empty passages, renumbers, fills heading paths and
/// resolves references.
fn compact(
    passages: Vec<Passage>,
    mut dead: Vec<bool>,
    raw_refs: Vec<(PassageIdx, RawRef)>,
    games: Vec<Game>,
    warnings: Vec<Warning>,
) -> Corpus {
    // Children of dead passages die too; empty sections with no live children go.
    for i in 0..passages.len() {
        if let Some(p) = passages[i].parent
            && dead[p]
        {
            dead[i] = true;
        }
    }
    for i in (0..passages.len()).rev() {
        let p = &passages[i];
        if p.kind == PassageKind::Section
            && p.text.is_empty()
            && p.children.iter().all(|&c| dead[c])
        {
            dead[i] = true;
        }
    }
    let mut new_index = vec![usize::MAX; passages.len()];
    let mut kept = Vec::with_capacity(passages.len());
    for (i, p) in passages.into_iter().enumerate() {
        if !dead[i] {
            new_index[i] = kept.len();
            kept.push(p);
        }
    }
    for p in &mut kept {
        p.parent = p.parent.map(|x| new_index[x]);
        p.children = p
            .children
            .iter()
            .map(|&c| new_index[c])
            .filter(|&c| c != usize::MAX)
            .collect();
    }
    let mut games = games;
    for g in &mut games {
        for d in &mut g.documents {
            d.root = new_index[d.root];
        }
    }
    // Heading paths: titles of ancestors, root first.
    for i in 0..kept.len() {
        let mut path = Vec::new();
        let mut cur = kept[i].parent;
        while let Some(c) = cur {
            path.push(kept[c].title.clone());
            cur = kept[c].parent;
        }
        path.reverse();
        kept[i].path = path;
    }
    let by_id: HashMap<String, PassageIdx> = kept
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id.clone(), i))
        .collect();
    let mut corpus = Corpus {
        games,
        passages: kept,
        warnings,
        by_id,
    };
    for (old, raw) in raw_refs {
        let idx = new_index[old];
        if idx == usize::MAX {
            continue;
        }
        let r = refs::resolve(&corpus, idx, &raw);
        let p = &mut corpus.passages[idx];
        if !p.refs.contains(&r) && r.target.as_deref() != Some(p.id.as_str()) {
            p.refs.push(r);
        }
    }
    corpus
}
