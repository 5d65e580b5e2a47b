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

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};

use super::Glossary;
use super::clean;
use super::import::{Converted, DataDocument, ImportError, Target, data_text, data_to};
use crate::text::Words;

/// Most entries a list may hold.
pub const MAX_ENTRIES: usize = 5_000;
/// Most characters of a slang word or phrase.
pub const MAX_KEY_CHARS: usize = 64;
/// Most meanings one entry may give.
pub const MAX_MEANINGS: usize = 16;
/// Most characters of one meaning.
pub const MAX_MEANING_CHARS: usize = 200;

/// Why a slang list cannot be read, and where. The message keeps the
/// keys and fields it names as code apart from what the list gave
/// ([`Words`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", super::import::data::position(*line, *column))]
pub struct SlangError {
    pub message: Words,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl SlangError {
    fn new(message: Words, line: Option<usize>) -> SlangError {
        SlangError {
            message,
            line,
            column: None,
        }
    }

    /// The error's words, its position first, as `Display` writes them.
    pub fn words(&self) -> Words {
        let at = super::import::data::position(self.line, self.column);
        self.message.clone().after(Words::given(at))
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
                        return Err(de::Error::custom(too_many_meanings()));
                    }
                    out.push(s);
                }
                Ok(Meanings(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// Why an entry with more than `MAX_MEANINGS * 4` meanings is refused.
fn too_many_meanings() -> String {
    format!(
        "more than {} meanings for one entry (at most {MAX_MEANINGS} are kept); keep the ones players mean",
        MAX_MEANINGS * 4
    )
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
        return Err(SlangError::new(
            Words::fixed("the slang list is empty"),
            None,
        ));
    }
    let is_csv = file_name.to_lowercase().ends_with(".csv");
    let entries = if is_csv {
        read_csv(text)?
    } else {
        read_yaml(text)?
    };
    if entries.len() > MAX_ENTRIES {
        return Err(SlangError::new(
            Words::given(format!(
                "{} entries; a slang list may hold at most {MAX_ENTRIES}. Split it.",
                entries.len()
            )),
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
    let options = super::import::data::yaml_options;
    let map: BTreeMap<String, Meanings> = if has_synonyms_key(text) {
        serde_saphyr::from_str_with_options::<File>(text, options())
            .map_err(located)?
            .synonyms
    } else {
        match serde_saphyr::from_str_with_options(text, options()) {
            Ok(map) => map,
            Err(e) => {
                // A lone top-level key that is a near miss of `synonyms`
                // (`synonym:`) is the glossary form misspelt: say so, not
                // that its mapping is no meaning.
                let top: Option<BTreeMap<String, de::IgnoredAny>> =
                    serde_saphyr::from_str_with_options(text, options()).ok();
                let misspelt = top.as_ref().is_some_and(|top| {
                    top.len() == 1
                        && top.keys().all(|k| {
                            k != "synonyms" && crate::text::closest(k, ["synonyms"], 3).is_some()
                        })
                });
                if misspelt
                    && let Err(f) = serde_saphyr::from_str_with_options::<File>(text, options())
                {
                    return Err(located(f));
                }
                return Err(located(e));
            }
        }
    };
    Ok(map.into_iter().map(|(k, m)| (k, m.0)).collect())
}

/// Rows `slang,meaning[,meaning…]`; a first row `slang,meaning` (or
/// `term`, `key`) is a header.
fn read_csv(text: &str) -> Result<Vec<(String, Vec<String>)>, SlangError> {
    if let Some(line) = super::import::data::unclosed_quote(text) {
        return Err(SlangError::new(
            Words::fixed(
                "a quote opened on this line is never closed, so the rest of the list would be one field; close it (a quote inside a field is written twice: \"\")",
            ),
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
                    Words::given(format!(
                        "this row cannot be read as CSV ({e}); close its quotes"
                    )),
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
                Words::given(format!(
                    "more than {MAX_ENTRIES} entries; a slang list may hold at most {MAX_ENTRIES}. Split it."
                )),
                record.position().map(|p| p.line() as usize),
            ));
        }
        if record.len() > MAX_MEANINGS * 4 + 1 {
            return Err(SlangError::new(
                Words::given(too_many_meanings()),
                record.position().map(|p| p.line() as usize),
            ));
        }
        let mut fields = record.iter();
        let key = fields.next().unwrap_or_default().to_string();
        out.push((key, fields.map(str::to_string).collect()));
    }
    Ok(out)
}

/// Cleans every entry: empty and overlong ones out, keys that differ only
/// in case joined (search matches any case), meanings deduplicated.
fn check(entries: Vec<(String, Vec<String>)>) -> Parsed {
    let mut parsed = Parsed::default();
    let mut by_lower: BTreeMap<String, String> = BTreeMap::new();
    for (raw_key, raw_meanings) in entries {
        let key = clean::tidy(&raw_key);
        if clean::holds_link(&key) {
            parsed
                .warnings
                .push("a term holds a mention or a link; left out".to_string());
            continue;
        }
        if !key.chars().any(char::is_alphanumeric) {
            parsed
                .warnings
                .push(format!("“{key}”: no slang word; left out"));
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
        let mut seen = HashSet::new();
        // Whether a meaning was left out for being the term itself, and
        // for anything else (too long, a link, no letter).
        let (mut itself, mut other) = (false, false);
        for m in raw_meanings.iter().map(|m| clean::tidy(m)) {
            if m.chars().count() > MAX_MEANING_CHARS {
                other = true;
                parsed.warnings.push(format!(
                    "“{key}”: a meaning longer than {MAX_MEANING_CHARS} characters; left out"
                ));
            } else if clean::holds_link(&m) {
                other = true;
                parsed.warnings.push(format!(
                    "“{key}”: a meaning holds a mention or a link; left out"
                ));
            } else if !m.chars().any(char::is_alphanumeric) {
                other = true;
            } else if m.eq_ignore_ascii_case(&key) {
                itself = true;
            } else if seen.insert(m.clone()) {
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
            parsed.warnings.push(if itself && !other {
                format!("“{key}”: no meaning other than itself; left out")
            } else {
                format!("“{key}”: no meaning left; left out")
            });
            continue;
        }
        let lower = key.to_lowercase();
        if let Some(first) = by_lower.get(&lower) {
            parsed.warnings.push(if *first == key {
                format!("“{key}” is given twice (once with hidden characters or extra spaces); their meanings are joined")
            } else {
                format!("“{key}” and “{first}” are one entry (search ignores case); their meanings are joined")
            });
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
    let bad = |reason: Words| ImportError::BadSlang {
        file: file.clone(),
        reason,
    };
    let text = data_text(file, bytes)?;
    let parsed = parse(file, &text).map_err(|e| bad(e.words()))?;
    if parsed.glossary.synonyms.is_empty() {
        return Err(bad(Words::fixed(
            "no entry is left to use (each needs a slang word and a meaning)",
        )));
    }
    let items = parsed
        .glossary
        .synonyms
        .iter()
        .map(|(k, m)| entry_line(k, m))
        .collect();
    let text = serde_json::to_string_pretty(&parsed.glossary)
        .map_err(|e| bad(Words::given(e.to_string())))?;
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
    fn a_list_nested_too_deep_is_refused_in_our_words() {
        // The YAML parser's "recursion limit exceeded" reached the user.
        let text = format!("synonyms:\n  sac: {}\n", "[".repeat(300));
        let e = parse("s.yaml", &text).unwrap_err();
        let words = e.message.to_string();
        assert!(words.contains("more than 16 levels deep"), "{words}");
        assert!(!words.contains("recursion"), "{words}");
        assert_eq!(e.line, Some(2), "{e}");
    }

    #[test]
    fn errors_say_where() {
        let dup = parse("s.yaml", "sac: [sacrifice]\nsac: [sacrificed]\n").unwrap_err();
        assert_eq!(dup.line, Some(2), "{dup}");
        assert!(
            dup.message.to_string().contains("`sac` appears twice"),
            "{dup}"
        );
        assert!(!dup.to_string().contains("DuplicateKeyPolicy"), "{dup}");
        let bad = parse("s.yaml", "synonyms:\n  sac: {a: b}\n").unwrap_err();
        assert_eq!(bad.line, Some(2), "{bad}");
        assert!(
            bad.message
                .to_string()
                .contains("a phrase, or a list of phrases"),
            "{bad}"
        );
        let field = parse("s.yaml", "synonyms: {}\nsynonym: {}\n").unwrap_err();
        assert!(
            field.message.to_string().contains("did you mean"),
            "{field}"
        );
        let quote = parse("s.csv", "sac,\"sacrifice\nbolt,damage\n").unwrap_err();
        assert!(quote.line.is_some(), "{quote}");
        assert!(
            parse("s.yaml", "  \n")
                .unwrap_err()
                .message
                .to_string()
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
        assert!(e.message.to_string().contains("at most 5000"), "{e}");
        // 65 aliases of one long string, no entry over the meanings'
        // bound: refused by the alias budget, not by a type or a count.
        let bomb = format!(
            "a: &a \"{}\"\nb: [{}]\nc: [{}]\n",
            "long ".repeat(30),
            vec!["*a"; 40].join(", "),
            vec!["*a"; 25].join(", ")
        );
        let e = parse("s.yaml", &bomb).unwrap_err();
        assert!(
            e.message
                .to_string()
                .contains("too large once its YAML anchors and aliases are written out"),
            "{e}"
        );
        let fine = format!("a: &a \"long\"\nb: [{}]\n", vec!["*a"; 40].join(", "));
        assert!(parse("s.yaml", &fine).is_ok());
        let long = format!("{}: [x]\nok: [fine]\n", "k".repeat(MAX_KEY_CHARS + 1));
        let p = parse("s.yaml", &long).unwrap();
        assert_eq!(keys(&p), [("ok", vec!["fine"])]);
        assert!(p.warnings[0].contains("longer than 64"), "{:?}", p.warnings);
    }

    #[test]
    fn mentions_and_links_are_left_out() {
        let p = parse(
            "s.yaml",
            "\"<@123456789012345678>\": [unit]\n\"<@&999>\": [unit]\n\"<#1>\": [unit]\n\"@everyone\": [unit]\nping here: [\"@here\"]\nclick: [\"[click](http://evil.example)\", attack]\nsite: [\"see https://evil.example\"]\nweb: [HTTP://EVIL.EXAMPLE]\ndude: [unit]\n",
        )
        .unwrap();
        assert_eq!(
            keys(&p),
            [("click", vec!["attack"]), ("dude", vec!["unit"])]
        );
        let w = p.warnings.join("\n");
        assert_eq!(
            w.matches("a term holds a mention or a link; left out")
                .count(),
            4,
            "{w}"
        );
        assert!(
            w.contains("“click”: a meaning holds a mention or a link; left out"),
            "{w}"
        );
        assert!(w.contains("“site”: no meaning left; left out"), "{w}");
        assert!(
            !w.contains("<@") && !w.contains("http") && !w.contains("@everyone"),
            "{w}"
        );
        let c = parse("s.csv", "smack,<@&999>,attack\n").unwrap();
        assert_eq!(keys(&c), [("smack", vec!["attack"])]);
    }

    #[test]
    fn format_characters_are_taken_out() {
        let p = parse(
            "s.yaml",
            "\"du\u{200b}de\": [att\u{00ad}ack]\ndude: [\"un\u{200c}i\u{200d}t\u{2060}\u{feff}\"]\n",
        )
        .unwrap();
        assert_eq!(keys(&p), [("dude", vec!["unit", "attack"])]);
        assert!(
            p.warnings.iter().any(|w| w == "“dude” is given twice (once with hidden characters or extra spaces); their meanings are joined"),
            "{:?}",
            p.warnings
        );
    }

    #[test]
    fn warnings_echo_no_hidden_characters() {
        let p = parse("s.yaml", "\"\u{202e}\u{2066}--\": [x]\n").unwrap();
        let w = p.warnings.join("\n");
        assert!(w.contains("“--”: no slang word"), "{w}");
        assert!(
            !w.chars()
                .any(|c| clean::is_format(c) || clean::is_hidden(c)),
            "{w:?}"
        );
    }

    #[test]
    fn a_csv_row_with_too_many_meanings_is_refused() {
        let row = |n: usize| (0..n).map(|i| format!(",m{i}")).collect::<String>();
        let ok = parse(
            "s.csv",
            &format!("slang,meaning\nsac{}\n", row(MAX_MEANINGS * 4)),
        )
        .unwrap();
        assert_eq!(ok.glossary.synonyms["sac"].len(), MAX_MEANINGS);
        let e = parse(
            "s.csv",
            &format!("slang,meaning\nok,fine\nsac{}\n", row(MAX_MEANINGS * 4 + 1)),
        )
        .unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(
            e.message.to_string().contains("more than 64 meanings"),
            "{e}"
        );
        // A huge row is refused at once, not deduplicated field by field.
        let huge = format!("sac{}\n", ",same".repeat(600_000));
        let start = std::time::Instant::now();
        assert!(parse("s.csv", &huge).is_err());
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn a_misspelt_synonyms_key_is_named() {
        let yaml = parse("s.yaml", "synonym:\n  dude: [unit]\n").unwrap_err();
        assert_eq!(
            yaml.message.to_string(),
            "unknown field `synonym`; did you mean `synonyms`?",
            "{yaml}"
        );
        assert_eq!(yaml.line, Some(1), "{yaml}");
        let json = parse("s.json", r#"{"synonym": {"dude": ["unit"]}}"#).unwrap_err();
        assert_eq!(
            json.message.to_string(),
            "unknown field `synonym`; did you mean `synonyms`?",
            "{json}"
        );
        assert!(json.line.is_some(), "{json}");
    }

    #[test]
    fn several_documents_are_refused_in_words() {
        let docs = parse("s.yaml", "dude: [unit]\n---\nsmack: [attack]\n").unwrap_err();
        assert!(
            docs.message
                .to_string()
                .contains("give one document (remove the extra `---` separators)"),
            "{docs}"
        );
        assert!(!docs.message.to_string().contains("from_str"), "{docs}");
    }

    #[test]
    fn the_position_is_given_once() {
        let typed = parse("s.yaml", "dude: [unit]\nsmack: {a: b}\n").unwrap_err();
        assert!(typed.line.is_some(), "{typed}");
        assert!(!typed.message.to_string().contains(" at line "), "{typed}");
    }

    #[test]
    fn a_term_whose_meanings_were_all_left_out_has_no_meaning_left() {
        let long = format!(
            "dude: [\"{}\"]\nsmack: [attack]\n",
            "x".repeat(MAX_MEANING_CHARS + 1)
        );
        let p = parse("s.yaml", &long).unwrap();
        let w = p.warnings.join("\n");
        assert!(w.contains("“dude”: no meaning left"), "{w}");
        assert!(!w.contains("other than itself"), "{w}");
    }
}
