//! A server's slang list (`/rules add kind:slang`, `arbiter rules add
//! --kind slang`): the words its players use, each mapped to the words its
//! game's rules use, in the format of a rule folder's `glossary.yaml`
//! (docs/RULES_DATA.md), as a mapping with `synonyms:` or a bare one, or
//! as CSV rows `slang,meaning[,meaning…]`. Search reads it as the game's
//! glossary in that server only; it never changes what is quoted.
//!
//! Read from untrusted bytes in the import sandbox's child process; stored
//! as the JSON of a [`Glossary`]. Never panics on any input; a problem
//! that leaves the rest usable (an empty entry, a key given twice in two
//! cases) is a warning.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};

use super::Glossary;
use super::clean;
use super::import::{Converted, DataDocument, ImportError, Target, data_text, data_to};

/// Most entries a list may hold.
pub const MAX_ENTRIES: usize = 5_000;
/// Most characters of a slang word or phrase.
pub const MAX_KEY_CHARS: usize = 64;
/// Most meanings one entry may give.
pub const MAX_MEANINGS: usize = 16;
/// Most characters of one meaning.
pub const MAX_MEANING_CHARS: usize = 200;

/// Why a slang list cannot be read, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", super::import::data::position(*line, *column))]
pub struct SlangError {
    pub message: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl SlangError {
    fn new(message: impl Into<String>, line: Option<usize>) -> SlangError {
        SlangError {
            message: message.into(),
            line,
            column: None,
        }
    }
}

/// The list read, and what was left out or joined.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub glossary: Glossary,
    pub warnings: Vec<String>,
}

/// One entry's meaning: a phrase, or a list of alternative phrases.
struct Meanings(Vec<String>);

impl<'de> Deserialize<'de> for Meanings {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Meanings;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("the rules' words: a phrase, or a list of phrases")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Meanings, E> {
                Ok(Meanings(vec![v.to_string()]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Meanings, A::Error> {
                let mut out = Vec::new();
                while let Some(s) = seq.next_element::<String>()? {
                    if out.len() == MAX_MEANINGS * 4 {
                        return Err(de::Error::custom(format!(
                            "more than {MAX_MEANINGS} meanings for one entry; keep the ones players mean"
                        )));
                    }
                    out.push(s);
                }
                Ok(Meanings(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// The mapping form with `synonyms:`, as in a rule folder's glossary.yaml.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    synonyms: BTreeMap<String, Meanings>,
}

/// Reads a slang list (YAML, JSON or CSV, by its name and text).
pub fn parse(file_name: &str, text: &str) -> Result<Parsed, SlangError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(SlangError::new("the slang list is empty", None));
    }
    let is_csv = file_name.to_lowercase().ends_with(".csv");
    let entries = if is_csv {
        read_csv(text)?
    } else {
        read_yaml(text)?
    };
    if entries.len() > MAX_ENTRIES {
        return Err(SlangError::new(
            format!(
                "{} entries; a slang list may hold at most {MAX_ENTRIES}. Split it.",
                entries.len()
            ),
            None,
        ));
    }
    Ok(check(entries))
}

/// Whether the text is a mapping with `synonyms:` at its top level.
fn has_synonyms_key(text: &str) -> bool {
    let t = text.trim_start();
    if t.starts_with('{') {
        return t.contains("\"synonyms\"");
    }
    text.lines().any(|l| l.starts_with("synonyms:"))
}

fn read_yaml(text: &str) -> Result<Vec<(String, Vec<String>)>, SlangError> {
    let located = |e: serde_saphyr::Error| {
        let (message, line, column) = super::import::data::yaml_error(e, "slang list");
        SlangError {
            message,
            line,
            column,
        }
    };
    let options = super::import::data::yaml_options();
    let map: BTreeMap<String, Meanings> = if has_synonyms_key(text) {
        serde_saphyr::from_str_with_options::<File>(text, options)
            .map_err(located)?
            .synonyms
    } else {
        serde_saphyr::from_str_with_options(text, options).map_err(located)?
    };
    Ok(map.into_iter().map(|(k, m)| (k, m.0)).collect())
}

/// Rows `slang,meaning[,meaning…]`; a first row `slang,meaning` (or
/// `term`, `key`) is a header.
fn read_csv(text: &str) -> Result<Vec<(String, Vec<String>)>, SlangError> {
    if let Some(line) = super::import::data::unclosed_quote(text) {
        return Err(SlangError::new(
            "a quote opened on this line is never closed, so the rest of the list would be one field; close it (a quote inside a field is written twice: \"\")",
            Some(line),
        ));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    let mut record = csv::StringRecord::new();
    let mut first = true;
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map(|p| p.line() as usize);
                return Err(SlangError::new(
                    format!("this row cannot be read as CSV ({e}); close its quotes"),
                    line,
                ));
            }
        }
        let header = first
            && record.get(0).is_some_and(|h| {
                ["slang", "term", "key", "word"].contains(&h.to_lowercase().as_str())
            });
        first = false;
        if header {
            continue;
        }
        if out.len() > MAX_ENTRIES {
            return Err(SlangError::new(
                format!(
                    "more than {MAX_ENTRIES} entries; a slang list may hold at most {MAX_ENTRIES}. Split it."
                ),
                record.position().map(|p| p.line() as usize),
            ));
        }
        let mut fields = record.iter();
        let key = fields.next().unwrap_or_default().to_string();
        out.push((key, fields.map(str::to_string).collect()));
    }
    Ok(out)
}

/// One phrase as search reads it: hidden characters out, spaces single.
fn tidy(s: &str) -> String {
    let shown: String = s.chars().filter(|c| !clean::is_hidden(*c)).collect();
    shown.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Cleans every entry: empty and overlong ones out, keys that differ only
/// in case joined (search matches any case), meanings deduplicated.
fn check(entries: Vec<(String, Vec<String>)>) -> Parsed {
    let mut parsed = Parsed::default();
    let mut by_lower: BTreeMap<String, String> = BTreeMap::new();
    for (raw_key, raw_meanings) in entries {
        let key = tidy(&raw_key);
        if !key.chars().any(char::is_alphanumeric) {
            parsed
                .warnings
                .push(format!("“{}”: no slang word; left out", raw_key.trim()));
            continue;
        }
        if key.chars().count() > MAX_KEY_CHARS {
            parsed.warnings.push(format!(
                "“{}…”: longer than {MAX_KEY_CHARS} characters; left out",
                key.chars().take(24).collect::<String>()
            ));
            continue;
        }
        let mut meanings = Vec::new();
        for m in raw_meanings.iter().map(|m| tidy(m)) {
            if m.chars().count() > MAX_MEANING_CHARS {
                parsed.warnings.push(format!(
                    "“{key}”: a meaning longer than {MAX_MEANING_CHARS} characters; left out"
                ));
            } else if m.chars().any(char::is_alphanumeric)
                && !m.eq_ignore_ascii_case(&key)
                && !meanings.contains(&m)
            {
                meanings.push(m);
            }
        }
        if meanings.len() > MAX_MEANINGS {
            parsed.warnings.push(format!(
                "“{key}”: {} meanings; the first {MAX_MEANINGS} are kept",
                meanings.len()
            ));
            meanings.truncate(MAX_MEANINGS);
        }
        if meanings.is_empty() {
            parsed
                .warnings
                .push(format!("“{key}”: no meaning other than itself; left out"));
            continue;
        }
        let lower = key.to_lowercase();
        if let Some(first) = by_lower.get(&lower) {
            parsed.warnings.push(format!(
                "“{key}” and “{first}” are one entry (search ignores case); their meanings are joined"
            ));
            let list = parsed.glossary.synonyms.entry(first.clone()).or_default();
            for m in meanings {
                if !list.contains(&m) && list.len() < MAX_MEANINGS {
                    list.push(m);
                }
            }
            continue;
        }
        by_lower.insert(lower, key.clone());
        parsed.glossary.synonyms.insert(key, meanings);
    }
    parsed
}

/// One entry as a preview lists it: `sac → sacrifice; sacrificed`.
fn entry_line(key: &str, meanings: &[String]) -> String {
    format!("{key} → {}", meanings.join("; "))
}

/// Reads a slang list's bytes for `target`: the part of a slang import that
/// reads untrusted input (run in a child process by `sandbox`).
pub fn import_to(target: &Target, bytes: &[u8]) -> Result<Converted, ImportError> {
    let file = &target.file_name;
    let bad = |reason: String| ImportError::BadSlang {
        file: file.clone(),
        reason,
    };
    let text = data_text(file, bytes)?;
    let parsed = parse(file, text).map_err(|e| bad(e.to_string()))?;
    if parsed.glossary.synonyms.is_empty() {
        return Err(bad(
            "no entry is left to use (each needs a slang word and a meaning)".into(),
        ));
    }
    let items = parsed
        .glossary
        .synonyms
        .iter()
        .map(|(k, m)| entry_line(k, m))
        .collect();
    let text = serde_json::to_string_pretty(&parsed.glossary).map_err(|e| bad(e.to_string()))?;
    let data = DataDocument {
        text,
        ext: "json",
        items,
        warnings: parsed.warnings,
    };
    Ok(data_to(target, bytes, data))
}

/// A stored slang list read back (its JSON, as [`import_to`] wrote it).
pub fn stored(text: &str) -> Result<Glossary, String> {
    serde_json::from_str(text).map_err(|e| e.to_string())
}

/// The terms of a stored slang list, as its preview listed them: `rules
/// show` of the list.
pub fn stored_entries(text: &str) -> Option<Vec<String>> {
    Some(
        stored(text)
            .ok()?
            .synonyms
            .iter()
            .map(|(k, m)| entry_line(k, m))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(p: &Parsed) -> Vec<(&str, Vec<&str>)> {
        p.glossary
            .synonyms
            .iter()
            .map(|(k, v)| (k.as_str(), v.iter().map(String::as_str).collect()))
            .collect()
    }

    #[test]
    fn reads_the_glossary_form_a_bare_mapping_and_csv() {
        let a = parse(
            "slang.yaml",
            "synonyms:\n  sac: [sacrifice]\n  bolt face: deal damage to a player\n",
        )
        .unwrap();
        assert_eq!(
            keys(&a),
            [
                ("bolt face", vec!["deal damage to a player"]),
                ("sac", vec!["sacrifice"])
            ]
        );
        let b = parse("slang.yml", "sac: [sacrifice, sacrificed]\n").unwrap();
        assert_eq!(keys(&b), [("sac", vec!["sacrifice", "sacrificed"])]);
        let c = parse(
            "slang.csv",
            "slang,meaning\nsac,sacrifice,sacrificed\n\"chump, block\",block\n",
        )
        .unwrap();
        assert_eq!(
            keys(&c),
            [
                ("chump, block", vec!["block"]),
                ("sac", vec!["sacrifice", "sacrificed"])
            ]
        );
        let j = parse("s.json", r#"{"synonyms": {"pb": ["phoenixborn"]}}"#).unwrap();
        assert_eq!(keys(&j), [("pb", vec!["phoenixborn"])]);
    }

    #[test]
    fn errors_say_where() {
        let dup = parse("s.yaml", "sac: [sacrifice]\nsac: [sacrificed]\n").unwrap_err();
        assert_eq!(dup.line, Some(2), "{dup}");
        assert!(dup.message.contains("`sac` appears twice"), "{dup}");
        assert!(!dup.to_string().contains("DuplicateKeyPolicy"), "{dup}");
        let bad = parse("s.yaml", "synonyms:\n  sac: {a: b}\n").unwrap_err();
        assert_eq!(bad.line, Some(2), "{bad}");
        assert!(
            bad.message.contains("a phrase, or a list of phrases"),
            "{bad}"
        );
        let field = parse("s.yaml", "synonyms: {}\nsynonym: {}\n").unwrap_err();
        assert!(field.message.contains("did you mean"), "{field}");
        let quote = parse("s.csv", "sac,\"sacrifice\nbolt,damage\n").unwrap_err();
        assert!(quote.line.is_some(), "{quote}");
        assert!(
            parse("s.yaml", "  \n")
                .unwrap_err()
                .message
                .contains("empty")
        );
    }

    #[test]
    fn cleans_entries_and_warns() {
        let p = parse(
            "s.yaml",
            "Sac: [sacrifice]\nsac: [sacrificed, sacrifice]\n\"\u{202e}etb\": [enters the battlefield]\nnothing: [nothing]\n\"--\": [x]\n",
        )
        .unwrap();
        assert_eq!(
            keys(&p),
            [
                ("Sac", vec!["sacrifice", "sacrificed"]),
                ("etb", vec!["enters the battlefield"])
            ]
        );
        let w = p.warnings.join("\n");
        assert!(w.contains("“sac” and “Sac” are one entry"), "{w}");
        assert!(w.contains("“nothing”: no meaning other than itself"), "{w}");
        assert!(w.contains("“--”: no slang word"), "{w}");
    }

    #[test]
    fn limits_hold_on_hostile_lists() {
        let many: String = (0..=MAX_ENTRIES).map(|i| format!("w{i}: [x]\n")).collect();
        let e = parse("s.yaml", &many).unwrap_err();
        assert!(e.message.contains("at most 5000"), "{e}");
        let bomb = "a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b]\n";
        assert!(parse("s.yaml", bomb).is_err());
        let long = format!("{}: [x]\nok: [fine]\n", "k".repeat(MAX_KEY_CHARS + 1));
        let p = parse("s.yaml", &long).unwrap();
        assert_eq!(keys(&p), [("ok", vec!["fine"])]);
        assert!(p.warnings[0].contains("longer than 64"), "{:?}", p.warnings);
    }
}
