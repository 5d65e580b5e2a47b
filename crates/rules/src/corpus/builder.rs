//! Builds the passage tree of every document (through a front-end per
//! format writing into [`super::emit::DocBuilder`]), then resolves
//! cross-references.

use std::collections::{HashMap, HashSet};

use super::emit::DocBuilder;
use super::refs::{self, RawRef};
use super::*;

/// A document's text as it is read: a shipped page's image leftovers out
/// when its manifest says it holds them (`drop_image_names`).
fn document_text<'a>(text: &'a str, manifest: &DocumentManifest) -> std::borrow::Cow<'a, str> {
    let mut text = std::borrow::Cow::Borrowed(text);
    if manifest.drop_image_names {
        text = super::clean::drop_image_names(&text).into();
    }
    text
}

pub(super) fn build(sources: Vec<SourceGame>) -> Corpus {
    let mut passages = Vec::new();
    let mut by_id = HashMap::new();
    let mut warnings = Vec::new();
    let mut dead = Vec::new();
    let mut raw_refs = Vec::new();
    let mut games = Vec::new();
    let mut card_lists = Vec::new();
    let mut data_documents = Vec::new();

    for source in merge_extensions(sources) {
        let game_id = source.manifest.game.trim().to_lowercase();
        let mut documents = Vec::new();
        // Card lists and slang lists are data, not passages: card lists
        // kept aside for `cards`, slang joined to the game's glossary.
        let (data, texts): (Vec<_>, Vec<_>) = source
            .documents
            .into_iter()
            .partition(|d| d.manifest.kind.item_noun().is_some());
        data_documents.extend(
            data.iter()
                .map(|d| (game_id.clone(), d.manifest.slug.clone())),
        );
        let (slang, cards): (Vec<_>, Vec<_>) = data
            .into_iter()
            .partition(|d| d.manifest.kind == DocumentKind::Slang);
        let mut glossary = source.glossary;
        for doc in slang {
            match serde_json::from_str::<Glossary>(&doc.text) {
                Ok(list) => join_glossary(&mut glossary, list),
                Err(e) => warnings.push(Warning {
                    game: game_id.clone(),
                    document: doc.manifest.file.clone(),
                    line: 0,
                    message: format!("slang list not read: {e}"),
                    duplicate: None,
                    kind: WarningKind::Other,
                }),
            }
        }
        card_lists.extend(cards.into_iter().map(|d| CardList {
            game: game_id.clone(),
            manifest: d.manifest,
            text: d.text,
        }));
        for (doc_index, doc) in texts.into_iter().enumerate() {
            let root = passages.len();
            let root_id = format!("{game_id}:{}", doc.manifest.slug);
            passages.push(Passage {
                id: root_id.clone(),
                game: game_id.clone(),
                document: doc_index,
                kind: PassageKind::Document,
                title: doc.manifest.title.clone(),
                path: Default::default(),
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
                    duplicate: None,
                    kind: WarningKind::Other,
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
                from_server: false,
            });
            let text = document_text(&doc.text, &doc.manifest);
            let format = match doc.manifest.format {
                DocumentFormat::Auto => detect_format(&text),
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
                next_suffix: HashMap::new(),
            };
            match format {
                DocumentFormat::Numbered => super::numbered::parse(&mut b, &text),
                _ => super::markdown::parse(&mut b, &text),
            }
            split_long(&mut b);
        }
        games.push(Game {
            id: game_id,
            name: source.manifest.name,
            aliases: source.manifest.aliases,
            documents,
            glossary,
        });
    }

    // Text refs ("(See 15.0 – Movement.)", "see page 7", "step 2.a.").
    for (idx, p) in passages.iter().enumerate() {
        for r in refs::extract(&p.text) {
            raw_refs.push((idx, r));
        }
    }

    let mut corpus = compact(passages, dead, raw_refs, games, warnings);
    corpus.card_lists = card_lists;
    corpus.data_documents = data_documents;
    corpus
        .warnings
        .sort_by(|a, b| (&a.game, &a.document, a.line).cmp(&(&b.game, &b.document, b.line)));
    corpus
}

/// Most characters of one passage's own text. A longer one (a document
/// with no structure, one enormous paragraph) is split into parts, each a
/// child passage, so that an answer quotes a part rather than megabytes
/// and one server's document cannot make every question slow. The longest
/// passage of the shipped games and the MTG rules is 2,904 characters.
pub const MAX_PASSAGE_CHARS: usize = 6_000;

/// Splits the passages of the document just parsed whose text is longer
/// than [`MAX_PASSAGE_CHARS`]: their text goes, verbatim and in order, into
/// parts (`….part-1`, `….part-2`) cut at paragraphs, else sentences, else
/// spaces; the passage keeps its title and children. Said in a warning.
fn split_long(b: &mut DocBuilder) {
    for idx in b.root..b.passages.len() {
        let chars = b.passages[idx].text.chars().count();
        if chars <= MAX_PASSAGE_CHARS {
            continue;
        }
        let text = std::mem::take(&mut b.passages[idx].text);
        let id = b.passages[idx].id.clone();
        // Each part's title names the passage: a heading of a megabyte
        // repeated in each of its 167 parts took 170 MB, so it is cut.
        let title = &b.passages[idx].title;
        let title = match title.char_indices().nth(super::emit::MAX_ITEM_TITLE) {
            Some((i, _)) => format!("{}…", &title[..i]),
            None => title.clone(),
        };
        let parts = split_text(&text, MAX_PASSAGE_CHARS);
        let mut first = String::new();
        for (n, part) in parts.iter().enumerate() {
            let child = b.child_id(idx, &format!("part-{}", n + 1));
            let title = format!("{title} (part {})", n + 1);
            let child = b.add(idx, child, PassageKind::Item, title, 0);
            b.passages[child].text = (*part).to_string();
            if n == 0 {
                first = b.passages[child].id.clone();
            }
        }
        b.warn(
            0,
            format!(
                "{id} holds {chars} characters of text; it is split into {} parts of at most {MAX_PASSAGE_CHARS} ({first} …): give the document headings or numbered rules to cut it where it means to",
                parts.len()
            ),
        );
        if let Some(w) = b.warnings.last_mut() {
            w.kind = WarningKind::LongPassage;
        }
    }
}

/// `text` cut into pieces of at most `max` characters, each a verbatim
/// slice (the separators between them dropped): at paragraph breaks where
/// they fit, else after a sentence, else at a space, else anywhere.
pub(super) fn split_text(text: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if rest.char_indices().nth(max).is_none() {
            out.push(rest);
            break;
        }
        // The byte just past `max` characters.
        let limit = rest.char_indices().nth(max).map_or(rest.len(), |(i, _)| i);
        let window = &rest[..limit];
        let cut = window
            .rfind("\n\n")
            .or_else(|| {
                ['.', '!', '?']
                    .iter()
                    .filter_map(|c| window.rfind(&format!("{c} ")).map(|i| i + 1))
                    .max()
            })
            .or_else(|| window.rfind(char::is_whitespace))
            .filter(|&i| i > 0)
            .unwrap_or(limit);
        out.push(rest[..cut].trim_end());
        rest = rest[cut..].trim_start();
    }
    out
}

/// Adds a slang list's entries to a glossary: a key already there gains the
/// list's meanings it lacks (the game's own slang stays; a server's adds).
fn join_glossary(glossary: &mut Glossary, list: Glossary) {
    for (key, meanings) in list.synonyms {
        let have = glossary.synonyms.entry(key).or_default();
        for m in meanings {
            if !have.contains(&m) {
                have.push(m);
            }
        }
    }
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

/// Markdown unless the text is numbered-section text (`13.0 - Title`,
/// `100.1. Rule`, "１．１ 手札", "第1章" headings) with no markdown headings.
pub(super) fn detect_format(text: &str) -> DocumentFormat {
    let has_heading = text
        .lines()
        .any(|l| l.starts_with('#') || l.trim() == "---");
    if has_heading {
        return DocumentFormat::Markdown;
    }
    let numbered = text
        .lines()
        .filter(|l| {
            super::numbered::is_numbered_line(l) || super::numbered::ordinal_heading(l).is_some()
        })
        .count();
    if numbered >= 2 {
        DocumentFormat::Numbered
    } else {
        DocumentFormat::Markdown
    }
}

/// A duplicate id's warning whose repeat was left out (an empty heading,
/// its sub-rules under the first): says so instead of naming the id the
/// repeat would have had, which no passage has.
fn left_out(w: Warning, gone: &std::collections::HashSet<&str>) -> Warning {
    match &w.duplicate {
        Some((id, renamed)) if gone.contains(renamed.as_str()) => Warning {
            message: format!(
                "duplicate passage id {id}: the repeat has no text of its own and is left out"
            ),
            ..w
        },
        _ => w,
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
    let mut emptied = Vec::new();
    for i in (0..passages.len()).rev() {
        let p = &passages[i];
        if !dead[i]
            && p.kind == PassageKind::Section
            && p.text.is_empty()
            && p.children.iter().all(|&c| dead[c])
        {
            dead[i] = true;
            emptied.push(i);
        }
    }
    // Titles of the headings left out so, in document order (said in an
    // upload's preview: "## Chapter One" right above "## Section A" went
    // without a word, found by an outside tester).
    // A repeated id's empty repeat is said by its duplicate's warning.
    let repeats: HashSet<&str> = warnings
        .iter()
        .filter_map(|w| w.duplicate.as_ref().map(|(_, r)| r.as_str()))
        .collect();
    let emptied: Vec<String> = emptied
        .into_iter()
        .rev()
        .filter(|&i| !repeats.contains(passages[i].id.as_str()))
        .map(|i| passages[i].title.clone())
        .collect();
    let gone: std::collections::HashSet<&str> = (0..passages.len())
        .filter(|&i| dead[i])
        .map(|i| passages[i].id.as_str())
        .collect();
    let warnings = warnings.into_iter().map(|w| left_out(w, &gone)).collect();
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
    // Heading paths: titles of ancestors, root first; one shared path for
    // all the children of a passage.
    let mut below: Vec<Option<Path>> = vec![None; kept.len()];
    let mut heading: Vec<Option<std::sync::Arc<str>>> = vec![None; kept.len()];
    for i in 0..kept.len() {
        if let Some(parent) = kept[i].parent {
            kept[i].path = children_path(&kept, &mut below, &mut heading, parent);
        }
    }
    // Passages by id: their indices sorted by id (ids are unique), searched
    // by bisection; no second copy of every id.
    let mut by_id: Vec<u32> = (0..kept.len() as u32).collect();
    by_id.sort_unstable_by(|&a, &b| kept[a as usize].id.cmp(&kept[b as usize].id));
    let mut corpus = Corpus {
        games,
        passages: kept,
        warnings,
        by_id,
        card_lists: Vec::new(),
        data_documents: Vec::new(),
        empty_headings: emptied,
    };
    // Each passage's references once each, found by hashing (a `contains`
    // over a passage's references made a paragraph of links quadratic).
    let titles = refs::Titles::new(&corpus);
    let mut seen: HashSet<(PassageIdx, CrossRef)> = HashSet::new();
    for (old, raw) in raw_refs {
        let idx = new_index[old];
        if idx == usize::MAX {
            continue;
        }
        let r = refs::resolve(&corpus, &titles, idx, &raw);
        let p = &mut corpus.passages[idx];
        if r.target.as_deref() != Some(p.id.as_str()) && seen.insert((idx, r.clone())) {
            p.refs.push(r);
        }
    }
    // A passage is kept for as long as the index lives: no spare capacity
    // (a title built piece by piece, text cleaned of markup, references of
    // which most passages have one or two while a `Vec` grows to four).
    for p in &mut corpus.passages {
        p.title.shrink_to_fit();
        p.text.shrink_to_fit();
        p.children.shrink_to_fit();
        p.refs.shrink_to_fit();
    }
    corpus.passages.shrink_to_fit();
    corpus
}

/// The path of `parent`'s children (its own path and title), built once.
/// A heading path (see [`Passage::path`]).
type Path = std::sync::Arc<[std::sync::Arc<str>]>;

fn children_path(
    kept: &[Passage],
    below: &mut [Option<Path>],
    heading: &mut [Option<std::sync::Arc<str>>],
    parent: PassageIdx,
) -> Path {
    if let Some(done) = &below[parent] {
        return done.clone();
    }
    let mut titles = Vec::new();
    let mut cur = Some(parent);
    while let Some(c) = cur {
        titles.push(
            heading[c]
                .get_or_insert_with(|| kept[c].title.as_str().into())
                .clone(),
        );
        cur = kept[c].parent;
    }
    titles.reverse();
    let path: Path = titles.into();
    below[parent] = Some(path.clone());
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_cut_verbatim_at_paragraphs_then_sentences_then_spaces() {
        let para = "Draw a card. ".repeat(40);
        let text = format!("{para}\n\n{para}");
        let parts = split_text(&text, 600);
        assert_eq!(parts, [para.trim_end(), para.trim_end()]);
        let one = "Roll a die. ".repeat(100);
        let parts = split_text(&one, 100);
        assert!(
            parts
                .iter()
                .all(|p| p.chars().count() <= 100 && p.ends_with('.'))
        );
        assert_eq!(parts.join(" "), one.trim_end());
        let words = "é ".repeat(200);
        let parts = split_text(&words, 51);
        assert!(parts.iter().all(|p| p.chars().count() <= 51));
        let solid = "x".repeat(250);
        assert_eq!(split_text(&solid, 100).concat(), solid);
    }

    #[test]
    fn a_passage_past_the_limit_is_split_into_parts_and_said() {
        let body = "A house rule sentence. ".repeat(700);
        let manifest = DocumentManifest {
            file: "flat.md".into(),
            slug: "flat".into(),
            title: "Flat".into(),
            ..DocumentManifest::default()
        };
        let corpus = Corpus::build(vec![SourceGame {
            manifest: GameManifest {
                game: "house".into(),
                name: "House".into(),
                aliases: Vec::new(),
                glossary: None,
                documents: vec![manifest.clone()],
            },
            documents: vec![SourceDocument {
                manifest,
                text: body.clone(),
            }],
            glossary: Default::default(),
        }]);
        let parts: Vec<&Passage> = corpus
            .passages
            .iter()
            .filter(|p| p.title.starts_with("Flat (part "))
            .collect();
        assert_eq!(
            parts.len(),
            3,
            "{:?}",
            corpus.passages.iter().map(|p| &p.id).collect::<Vec<_>>()
        );
        assert!(
            parts
                .iter()
                .all(|p| p.text.chars().count() <= MAX_PASSAGE_CHARS)
        );
        let joined: Vec<&str> = parts.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(joined.join(" "), body.trim_end());
        assert!(corpus.get("house:flat").unwrap().text.is_empty());
        assert!(
            corpus
                .warnings
                .iter()
                .any(|w| w.message.contains("split into 3 parts")),
            "{:?}",
            corpus.warnings
        );
    }
}
