//! The sink front-ends write one document's passages into: ids composed
//! in one place, so every front-end (markdown, numbered) follows one scheme.

use std::collections::HashMap;

use super::clean::{self, Link};
use super::refs::RawRef;
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
    /// The next `~N` to try for an id seen twice: repeated headings cost one
    /// lookup each, not a walk over every earlier duplicate.
    pub next_suffix: HashMap<String, usize>,
}

impl DocBuilder<'_> {
    pub fn warn(&mut self, line: usize, message: impl Into<String>) {
        self.warnings.push(Warning {
            game: self.game.clone(),
            document: self.doc_file.clone(),
            line,
            message: message.into(),
            duplicate: None,
            kind: WarningKind::Other,
        });
    }

    /// The id a child of `parent` with this segment gets.
    pub fn child_id(&self, parent: PassageIdx, segment: &str) -> String {
        let segment = cap_segment(segment);
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
                let mut n = self.next_suffix.get(&id).copied().unwrap_or(2);
                while self.by_id.contains_key(&format!("{id}~{n}")) {
                    n += 1;
                }
                self.next_suffix.insert(id.clone(), n + 1);
                let renamed = format!("{id}~{n}");
                self.warn(
                    line,
                    format!("duplicate passage id {id}; this one is {renamed}"),
                );
                if let Some(w) = self.warnings.last_mut() {
                    w.duplicate = Some((id, renamed.clone()));
                    w.kind = WarningKind::DuplicateId;
                }
                id = renamed;
            }
        }
        let idx = self.passages.len();
        self.passages.push(Passage {
            id: id.clone(),
            game: self.game.clone(),
            document: self.doc_index,
            kind,
            title,
            path: Default::default(),
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

/// Most characters of an item's title (its first words): text with no
/// spaces is one word, and a megabyte rule's title, its whole text, was
/// repeated in each of its parts' titles (over 512 MB for a 1 MB rule).
pub(super) const MAX_ITEM_TITLE: usize = 200;

/// A short title for an item: its lead phrase ("Declare Attackers: ...") or
/// its first words, at most [`MAX_ITEM_TITLE`] characters.
pub(super) fn item_title(text: &str) -> String {
    let title = lead_or_first_words(text);
    match title.char_indices().nth(MAX_ITEM_TITLE) {
        Some((i, _)) => format!("{}…", &title[..i]),
        None => title,
    }
}

fn lead_or_first_words(text: &str) -> String {
    // The label's colon is followed by a space: one inside a word (a rule
    // id, "ti4:action-phase.4") is no label's end.
    let label_end = text
        .char_indices()
        .find(|&(i, c)| c == ':' && text[i + 1..].chars().next().is_none_or(char::is_whitespace))
        .map(|(i, _)| i);
    if let Some(lead) = label_end.map(|i| &text[..i]) {
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

/// Most characters of one id segment made from a heading: a heading of a
/// whole paragraph (or a megabyte) still names a passage by a typable id.
const MAX_SEGMENT: usize = 64;

/// `segment` cut at its last `-` within [`MAX_SEGMENT`] characters (or at
/// the limit when it has none there).
fn cap_segment(segment: &str) -> std::borrow::Cow<'_, str> {
    if segment.chars().count() <= MAX_SEGMENT {
        return segment.into();
    }
    let end = segment
        .char_indices()
        .nth(MAX_SEGMENT)
        .map_or(segment.len(), |(i, _)| i);
    let head = &segment[..end];
    match head.rfind('-') {
        Some(i) if i > 0 => head[..i].to_string().into(),
        _ => head.to_string().into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_items_title_is_its_label_not_a_rule_id_cut_at_its_colon() {
        assert_eq!(
            item_title("Declare Attackers: choose them."),
            "Declare Attackers"
        );
        let t = item_title("Errata to ti4:action-phase.4: A player cannot pass.");
        assert!(t.starts_with("Errata to ti4:action-phase.4"), "{t}");
    }

    #[test]
    fn a_long_heading_makes_a_segment_cut_at_a_word() {
        let long =
            "whether-a-ship-that-ends-its-movement-inside-a-nebula-may-still-retreat-afterwards";
        let cut = cap_segment(long);
        assert!(cut.chars().count() <= MAX_SEGMENT, "{cut}");
        assert!(long.starts_with(&*cut) && !cut.ends_with('-'), "{cut}");
        assert_eq!(cap_segment("attack-a-unit"), "attack-a-unit");
        assert_eq!(cap_segment(&"h".repeat(1000)).len(), MAX_SEGMENT);
    }
}
