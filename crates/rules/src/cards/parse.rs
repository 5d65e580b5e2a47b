//! Card lists from text: YAML (serde-saphyr, with budgets), JSON
//! (serde_json) or CSV (the `csv` crate). A list is a sequence of cards, or
//! a mapping with `cards:` (and optionally `game:`). Errors carry the
//! parser's own position; problems that leave the rest usable (a card with
//! no name, a name given twice) are warnings.

use std::collections::HashMap;

use crate::corpus::import::data::{
    MAX_DATA_DEPTH, json_too_deep, position, too_deep, unclosed_quote, yaml_error, yaml_options,
};
use crate::text::Words;
use serde::{Deserialize, Deserializer};

use super::{Card, MAX_CARDS};

/// Why a card list cannot be read, and where. The message keeps the
/// fields and columns it names as code apart from what the list gave
/// ([`Words`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", position(*line, *column))]
pub struct CardError {
    pub message: Words,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl CardError {
    fn new(message: Words) -> CardError {
        CardError {
            message,
            line: None,
            column: None,
        }
    }

    /// The error's words, its position first, as `Display` writes them.
    pub fn words(&self) -> Words {
        let at = position(self.line, self.column);
        self.message.clone().after(Words::given(at))
    }
}

/// The cards read, and what was left out or doubtful.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Parsed {
    pub cards: Vec<Card>,
    pub warnings: Vec<String>,
}

/// The mapping form: `game:` (optional, informative) and `cards:`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CardFile {
    #[serde(default)]
    #[allow(dead_code)]
    game: Option<String>,
    cards: Vec<Card>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Yaml,
    Json,
    /// Delimited text: its separator (`,`, `;` as European Excel saves
    /// CSV, a tab as "Text (Tab delimited)" and `.tsv` do).
    Csv(u8),
}

/// The separators a spreadsheet saves a list with.
const SEPARATORS: [u8; 3] = [b',', b';', b'\t'];

/// Whether a header line separated by `sep` has a `name` column.
fn names_by(header: &str, sep: u8) -> bool {
    header.contains(sep as char)
        && header
            .split(sep as char)
            .any(|h| h.trim().trim_matches('"').eq_ignore_ascii_case("name"))
}

/// The separator of a delimited list's header line: the one whose fields
/// hold a `name` column, else the one it holds most of (a comma when it
/// holds none). An outside tester's European Excel list, "name;type;cost",
/// was refused as having no `name` column.
fn separator(header: &str) -> u8 {
    let count = |sep: u8| header.bytes().filter(|&b| b == sep).count();
    SEPARATORS
        .into_iter()
        .find(|&sep| names_by(header, sep))
        .or_else(|| {
            SEPARATORS
                .into_iter()
                .filter(|&sep| count(sep) > 0)
                .max_by_key(|&sep| count(sep))
        })
        .unwrap_or(b',')
}

fn format_of(file_name: &str, text: &str) -> Format {
    let ext = file_name.rsplit_once('.').map(|(_, e)| e.to_lowercase());
    let header = text.lines().next().unwrap_or("");
    match ext.as_deref() {
        Some("csv") => Format::Csv(separator(header)),
        Some("tsv" | "tab") => Format::Csv(b'\t'),
        Some("json") => Format::Json,
        Some("yaml" | "yml") => Format::Yaml,
        _ if text.trim_start().starts_with(['[', '{']) => Format::Json,
        // A header line with a `name` column is a delimited list, whatever
        // the file is called (a `.txt` Excel saved).
        _ if SEPARATORS.into_iter().any(|sep| names_by(header, sep)) => {
            Format::Csv(separator(header))
        }
        _ => Format::Yaml,
    }
}

/// Reads a card list. Never panics on any input.
pub fn parse(file_name: &str, text: &str) -> Result<Parsed, CardError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(CardError::new(Words::fixed("the card list is empty")));
    }
    let (cards, lines) = match format_of(file_name, text) {
        Format::Yaml => (read_yaml(text)?, Vec::new()),
        Format::Json => (read_json(text)?, Vec::new()),
        Format::Csv(sep) => read_csv(text, sep)?.into_iter().unzip(),
    };
    if cards.len() > MAX_CARDS {
        return Err(CardError::new(Words::given(format!(
            "{} cards; a list may hold at most {MAX_CARDS}. Split it by set.",
            cards.len()
        ))));
    }
    Ok(check(cards, &lines))
}

/// Whether the text is a bare sequence (`- name: …` / `[…]`) rather than a
/// mapping with `cards:`.
fn is_sequence(text: &str) -> bool {
    text.lines()
        .map(str::trim_start)
        .find(|l| !l.is_empty() && !l.starts_with('#') && *l != "---")
        .is_some_and(|l| l.starts_with('-') || l.starts_with('['))
}

fn read_yaml(text: &str) -> Result<Vec<Card>, CardError> {
    let located = |e: serde_saphyr::Error| {
        let (message, line, column) = yaml_error(e, "card list");
        CardError {
            message,
            line,
            column,
        }
    };
    if is_sequence(text) {
        serde_saphyr::from_str_with_options(text, yaml_options()).map_err(located)
    } else {
        serde_saphyr::from_str_with_options::<CardFile>(text, yaml_options())
            .map(|f| f.cards)
            .map_err(located)
    }
}

fn read_json(text: &str) -> Result<Vec<Card>, CardError> {
    let located = |e: serde_json::Error| {
        let raw = e.to_string();
        CardError {
            // serde_json appends " at line L column C"; the position is kept apart.
            message: Words::given(raw.split(" at line ").next().unwrap_or(&raw)),
            line: Some(e.line()),
            column: Some(e.column()),
        }
    };
    if let Some((line, column)) = json_too_deep(text, MAX_DATA_DEPTH) {
        return Err(CardError {
            message: too_deep("card list"),
            line: Some(line),
            column: Some(column),
        });
    }
    if is_sequence(text) {
        serde_json::from_str(text).map_err(located)
    } else {
        serde_json::from_str::<CardFile>(text)
            .map(|f| f.cards)
            .map_err(located)
    }
}

/// Columns with a meaning; any other column is a stat.
const CSV_FIELDS: [&str; 6] = ["name", "type", "cost", "text", "rulings", "aliases"];

/// The cards of a CSV list, each with the line its row starts on.
fn read_csv(text: &str, separator: u8) -> Result<Vec<(Card, usize)>, CardError> {
    if let Some(line) = unclosed_quote(text) {
        return Err(CardError {
            message: Words::fixed(
                "a quote opened on this line is never closed, so the rest of the list would be one field; close it (a quote inside a field is written twice: \"\")",
            ),
            line: Some(line),
            column: None,
        });
    }
    let at = |e: &csv::Error| CardError {
        message: Words::given(match e.kind() {
            csv::ErrorKind::UnequalLengths {
                expected_len, len, ..
            } => format!("this row has {len} fields; the header has {expected_len}"),
            _ => e.to_string(),
        }),
        line: e.position().map(|p| row_line(text, p)),
        column: None,
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(separator)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| at(&e))?
        .iter()
        .map(|h| h.to_lowercase())
        .collect();
    if !headers.iter().any(|h| h == "name") {
        if let Some(mark) = text
            .trim_start()
            .chars()
            .next()
            .filter(|c| matches!(c, '[' | '{'))
        {
            // Its "header" is JSON's first line, lower-cased and cut at
            // commas: no listing of it helps (found by an outside tester).
            return Err(CardError {
                message: Words::fill(
                    "this looks like JSON (it starts with `{}`), not CSV; name the file .json, or save the list as CSV with a `name` column",
                    vec![mark.to_string()],
                ),
                line: Some(1),
                column: None,
            });
        }
        let shown = headers.join(&(separator as char).to_string());
        return Err(CardError {
            message: Words::fill(
                "the header row has no `name` column (it has: {}, separated by {}); columns: name, type, cost, text, rulings, aliases, and any stat",
                vec![
                    shown,
                    match separator {
                        b'\t' => "tabs".to_string(),
                        sep => format!("'{}'", sep as char),
                    },
                ],
            ),
            line: Some(1),
            column: None,
        });
    }
    if let Some(e) = header_fault(text, &headers, separator) {
        return Err(e);
    }
    // Streamed: past MAX_CARDS rows the list is refused before it is held.
    let mut cards = Vec::new();
    let mut record = csv::StringRecord::new();
    while reader.read_record(&mut record).map_err(|e| at(&e))? {
        if cards.len() == MAX_CARDS {
            return Err(CardError {
                message: Words::given(format!(
                    "more than {MAX_CARDS} cards; a list may hold at most {MAX_CARDS}. Split it by set."
                )),
                line: record.position().map(|p| row_line(text, p)),
                column: None,
            });
        }
        let line = record.position().map_or(0, |p| row_line(text, p));
        cards.push((csv_card(&headers, &record), line));
    }
    Ok(cards)
}

/// A header naming a column twice, or a column not at all, refused at its
/// place: a row's value under the second `attack` replaced the first's
/// without a word, a second `name` column's value took the card's name
/// (card Alpha of `name,name` was lost), and a nameless column's value
/// was shown as a stat named "" ("cost 2 ·  7").
fn header_fault(text: &str, headers: &[String], separator: u8) -> Option<CardError> {
    let line = text.lines().next().unwrap_or("");
    let columns: Vec<usize> = std::iter::once(0)
        .chain(
            line.char_indices()
                .filter(|&(_, c)| c == separator as char)
                .map(|(i, _)| line[..i].chars().count() + 1),
        )
        .collect();
    let at = |i: usize, message: Words| CardError {
        message,
        line: Some(1),
        column: columns.get(i).map(|c| c + 1),
    };
    for (i, h) in headers.iter().enumerate() {
        if h.is_empty() {
            return Some(at(
                i,
                Words::fill(
                    "column {} of the header has no name; name it (a stat's name) or remove the column",
                    vec![(i + 1).to_string()],
                ),
            ));
        }
        if let Some(first) = headers[..i].iter().position(|earlier| earlier == h) {
            return Some(at(
                i,
                Words::fill(
                    "the header names the column `{}` twice (columns {} and {}); each column needs a name of its own: rename or remove one",
                    vec![h.clone(), (first + 1).to_string(), (i + 1).to_string()],
                ),
            ));
        }
    }
    None
}

/// The line a row starts on. The `csv` reader's position of a row is
/// where the row before it ended: at a CRLF's "\n" (it ends a row at the
/// "\r") and before any blank lines, whose line breaks it has not yet
/// counted; those are counted here. An outside tester's CRLF list named
/// each card a line too low ("card #6 (line 8)" of a card on line 9).
fn row_line(text: &str, at: &csv::Position) -> usize {
    let start = usize::try_from(at.byte()).unwrap_or(usize::MAX);
    let breaks = text
        .as_bytes()
        .get(start..)
        .unwrap_or_default()
        .iter()
        .take_while(|&&b| b == b'\r' || b == b'\n')
        .filter(|&&b| b == b'\n')
        .count();
    at.line() as usize + breaks
}

/// One CSV row as a card: rulings and aliases separated by `|`; a number
/// in a stat column is a number.
fn csv_card(headers: &[String], record: &csv::StringRecord) -> Card {
    let mut card = Card {
        name: String::new(),
        card_type: String::new(),
        cost: String::new(),
        stats: Default::default(),
        text: String::new(),
        rulings: Vec::new(),
        aliases: Vec::new(),
    };
    let list = |v: &str| -> Vec<String> {
        v.split('|')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    };
    for (h, v) in headers.iter().zip(record.iter()) {
        match h.as_str() {
            "name" => card.name = v.to_string(),
            "type" => card.card_type = v.to_string(),
            "cost" => card.cost = v.to_string(),
            "text" => card.text = v.to_string(),
            "rulings" => card.rulings = list(v),
            "aliases" => card.aliases = list(v),
            _ if v.is_empty() || CSV_FIELDS.contains(&h.as_str()) => {}
            stat => {
                let value = v
                    .parse::<i64>()
                    .map(serde_json::Value::from)
                    .unwrap_or_else(|_| serde_json::Value::from(v));
                card.stats.insert(stat.to_string(), value);
            }
        }
    }
    card
}

/// Most characters of a card's name (`/card name:` reads up to 200).
pub const MAX_NAME_CHARS: usize = 200;
/// Most characters of a card's text: every `/card` and every answer naming
/// the card quotes it.
pub const MAX_TEXT_CHARS: usize = 20_000;

/// A card's text, rulings and cost without hidden characters
/// ([`crate::corpus::clean::is_hidden`] and the direction marks): quoted in
/// every answer naming the card, they would reorder or hide what follows.
/// Its type is a label, tidied as a name is ([`clean_names`]).
fn clean_text(card: &mut Card) {
    let hidden =
        |c: char| crate::corpus::clean::is_hidden(c) || arbiter_text::is_direction_control(c);
    let strip = |s: &mut String| {
        if s.contains(hidden) {
            s.retain(|c| !hidden(c));
        }
    };
    strip(&mut card.text);
    strip(&mut card.cost);
    card.rulings.iter_mut().for_each(strip);
    card.card_type = crate::corpus::clean::tidy(&card.card_type);
}

/// Whether a name holds a character [`crate::corpus::clean::tidy`] takes
/// out: a control, a direction control, or a format character (zero-width
/// space and joiners, word joiner, BOM, soft hyphen).
fn holds_invisible(s: &str) -> bool {
    use crate::corpus::clean::{is_format, is_hidden};
    s.chars().any(|c| is_hidden(c) || is_format(c))
}

/// A card's name and aliases as a slang term is read
/// ([`crate::corpus::clean::tidy`]): invisible characters out, spaces
/// single; an alias left empty is dropped. A name changed so is a warning
/// naming it as kept: an outside tester's "Hammer\u{200B} Knight" showed
/// as "Hammer Knight", was kept with its zero-width space, and its "/card"
/// hid the real card's row below it. Direction controls are taken out as
/// before, so a name cannot display as another ("Golem Ice" for a name
/// spelt backwards).
fn clean_names(card: &mut Card, n: &str, warnings: &mut Vec<String>) {
    use crate::corpus::clean::tidy;
    const WHAT: &str = "invisible characters (direction controls, zero-width spaces and joiners, word joiners, byte-order marks, soft hyphens)";
    let (name, aliases) = (
        holds_invisible(&card.name),
        card.aliases.iter().any(|a| holds_invisible(a)),
    );
    card.name = tidy(&card.name);
    card.aliases = card
        .aliases
        .iter()
        .map(|a| tidy(a))
        .filter(|a| !a.is_empty())
        .collect();
    // A name of nothing but such characters is said to be no name.
    let name = name && !card.name.is_empty();
    let whose = match (name, aliases) {
        (false, false) => return,
        (true, false) => "its name",
        (false, true) => "its aliases",
        (true, true) => "its name and aliases",
    };
    warnings.push(format!(
        "card #{n} '{}': {WHAT} taken out of {whose}",
        card.name
    ));
}

/// Cards with no name, a name over [`MAX_NAME_CHARS`] or text over
/// [`MAX_TEXT_CHARS`] are left out; invisible characters are taken out of
/// names and aliases ([`clean_names`]); names and aliases given twice as
/// [`unique_names`] says, on the names so cleaned. All are warnings, each
/// naming the card by its number in the list and, when `lines` has them
/// (a CSV list), the line its row starts on.
fn check(cards: Vec<Card>, lines: &[usize]) -> Parsed {
    let mut out = Parsed::default();
    let mut kept = Vec::new();
    for (i, mut card) in cards.into_iter().enumerate() {
        let n = match lines.get(i) {
            Some(line) => format!("{} (line {line})", i + 1),
            None => (i + 1).to_string(),
        };
        clean_names(&mut card, &n, &mut out.warnings);
        clean_text(&mut card);
        if crate::text::fold(&card.name).is_empty() {
            out.warnings
                .push(format!("card #{n} has no name; it is left out"));
            continue;
        }
        if links_out(&mut card, &n, &mut out.warnings) {
            continue;
        }
        let (name_chars, text_chars) = (card.name.chars().count(), card.text.chars().count());
        if name_chars > MAX_NAME_CHARS || text_chars > MAX_TEXT_CHARS {
            out.warnings.push(format!(
                "card #{n}: its name is {name_chars} characters and its text {text_chars}; the limits are {MAX_NAME_CHARS} and {MAX_TEXT_CHARS}; it is left out"
            ));
            continue;
        }
        kept.push((n, card));
    }
    unique_names(kept, &mut out);
    out
}

/// Why a card's name or alias that would show on Discord as a mention or
/// a link (`[text](url)`, `<@…>`, `@everyone`, a web address;
/// [`crate::corpus::clean::holds_link`]) is taken out, as a title that
/// would is refused: every answer naming the card, and every "did you
/// mean", shows it (an outside tester's `[Free Nitro](https://evil.example)`
/// was taken with no word). Such an alias is dropped; such a name leaves
/// the card out (`true`).
fn links_out(card: &mut Card, n: &str, warnings: &mut Vec<String>) -> bool {
    use crate::corpus::clean::holds_link;
    const SHOWS: &str = "would show on Discord as a mention or a link (`<@…>`, `@everyone`, `[text](url)`, a web address)";
    if holds_link(&card.name) {
        warnings.push(format!("card #{n}: its name {SHOWS}; it is left out"));
        return true;
    }
    let before = card.aliases.len();
    card.aliases.retain(|a| !holds_link(a));
    if card.aliases.len() < before {
        warnings.push(format!(
            "card #{n} '{}': an alias {SHOWS}; the alias is dropped",
            card.name
        ));
    }
    false
}

/// A card whose name is an earlier card's name (or alias) is left out, the
/// first kept; an alias that is another card's name, or an earlier card's
/// alias, is dropped from its card alone (names compared folded). An
/// outside tester's card was left out whole because one of its aliases
/// folded to another card's alias ("golem 1", "golem-1").
fn unique_names(cards: Vec<(String, Card)>, out: &mut Parsed) {
    let fold = crate::text::fold;
    let mut names: HashMap<String, (String, String)> = HashMap::new();
    let mut kept = Vec::new();
    for (n, card) in cards {
        if let Some((first, other)) = names.get(&fold(&card.name)) {
            out.warnings.push(format!(
                "card #{n} '{}': the name '{}' is already card #{first} '{other}'; the first is kept",
                card.name, card.name
            ));
            continue;
        }
        names.insert(fold(&card.name), (n.clone(), card.name.clone()));
        kept.push((n, card));
    }
    let mut aliases: HashMap<String, (String, String)> = HashMap::new();
    for (n, mut card) in kept {
        let own = fold(&card.name);
        card.aliases.retain(|alias| {
            let key = fold(alias);
            let taken = names
                .get(&key)
                .filter(|_| key != own)
                .or_else(|| aliases.get(&key).filter(|(first, _)| *first != n));
            if let Some((first, other)) = taken {
                out.warnings.push(format!(
                    "card #{n} '{}': its alias '{alias}' is already card #{first} '{other}'; the alias is dropped",
                    card.name
                ));
                return false;
            }
            aliases.insert(key, (n.clone(), card.name.clone()));
            true
        });
        out.cards.push(card);
    }
}

/// A string, number or boolean as text (a cost may be written `3`).
pub(super) fn scalar<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => Ok(s),
        serde_json::Value::Null => Ok(String::new()),
        v @ (serde_json::Value::Number(_) | serde_json::Value::Bool(_)) => Ok(v.to_string()),
        _ => Err(serde::de::Error::custom(
            "expected a cost as text or a number",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_formats_read_the_same_card() {
        let yaml = "cards:\n  - name: Ice Golem\n    type: Ally\n    cost: 2\n    stats: { attack: 2, life: 4 }\n    text: 'Unit Guard'\n    aliases: [Golem]\n";
        let json = r#"[{"name": "Ice Golem", "type": "Ally", "cost": "2", "stats": {"attack": 2, "life": 4}, "text": "Unit Guard", "aliases": ["Golem"]}]"#;
        let csv =
            "name,type,cost,attack,life,text,aliases\nIce Golem,Ally,2,2,4,Unit Guard,Golem\n";
        let a = parse("c.yaml", yaml).unwrap();
        assert_eq!(a.cards, parse("c.json", json).unwrap().cards);
        assert_eq!(a.cards, parse("c.csv", csv).unwrap().cards);
        assert_eq!(a.cards[0].stats["life"], 4);
    }

    #[test]
    fn oversized_cards_are_left_out_and_direction_controls_taken_out() {
        let long = "x".repeat(MAX_TEXT_CHARS + 1);
        let csv = format!(
            "name,text\nBig,{long}\n\u{202E}meloG eci,Unit Guard\n{},x\nIce Golem,Unit Guard\n",
            "n".repeat(MAX_NAME_CHARS + 1)
        );
        let p = parse("c.csv", &csv).unwrap();
        let names: Vec<&str> = p.cards.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["meloG eci", "Ice Golem"]);
        assert!(
            p.warnings.iter().any(|w| w.contains("direction controls")),
            "{:?}",
            p.warnings
        );
        assert_eq!(
            p.warnings.iter().filter(|w| w.contains("left out")).count(),
            2
        );
    }

    #[test]
    fn a_json_list_named_csv_is_said_to_look_like_json() {
        let e = parse("c.csv", r#"[{"name":"a",type:"unit"}]"#).unwrap_err();
        assert!(e.message.to_string().contains("looks like JSON"), "{e}");
        assert!(!e.message.to_string().contains("it has:"), "{e}");
    }

    #[test]
    fn a_rows_line_is_where_it_starts_in_crlf_and_after_blank_lines() {
        for nl in ["\n", "\r\n"] {
            let csv = ["name,text", "A,x", "", "A,y", "B,z,extra"].join(nl) + nl;
            let warnings = match parse("c.csv", &csv) {
                Err(e) => {
                    assert_eq!(e.line, Some(5), "{nl:?}: {e}");
                    let ok = csv.replace(",extra", "");
                    parse("c.csv", &ok).unwrap().warnings
                }
                Ok(p) => panic!("{nl:?}: the long row is refused: {p:?}"),
            };
            assert_eq!(
                warnings,
                [
                    "card #2 (line 4) 'A': the name 'A' is already card #1 (line 2) 'A'; the first is kept"
                ],
                "{nl:?}"
            );
        }
    }

    #[test]
    fn a_name_that_would_show_as_a_link_leaves_its_card_out_and_such_an_alias_is_dropped() {
        let csv = "name,text,aliases\n[Free Nitro](https://evil.example),x,\n<@123> Golem,x,\nIce Golem,Unit Guard,Golem|see www.evil.example\n";
        let p = parse("c.csv", csv).unwrap();
        let names: Vec<&str> = p.cards.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Ice Golem"]);
        assert_eq!(p.cards[0].aliases, ["Golem"]);
        assert_eq!(
            p.warnings
                .iter()
                .filter(|w| w.contains("mention or a link"))
                .count(),
            3,
            "{:?}",
            p.warnings
        );
    }

    #[test]
    fn hidden_characters_are_taken_out_of_text_and_rulings() {
        let yaml = r#"- name: Ice Golem
  type: "\u202eUnit"
  text: "\u202etext reversed\u202c, \u001b[31mred"
  rulings: ["\u2067ruling\u2069"]
"#;
        let p = parse("c.yaml", yaml).unwrap();
        let card = &p.cards[0];
        assert_eq!(card.text, "text reversed, [31mred");
        assert_eq!(card.card_type, "Unit");
        assert_eq!(card.rulings, ["ruling"]);
        let csv = "name,text\nGolem,\"\u{202E}text reversed\u{202C}\"\n";
        assert_eq!(parse("c.csv", csv).unwrap().cards[0].text, "text reversed");
    }

    #[test]
    fn invisible_characters_are_taken_out_of_names_aliases_and_types() {
        // An outside tester's look-alike row: a zero-width space after
        // "Hammer" kept it apart from the real card, whose row it hid.
        let csv = "name,type,text,aliases\n\
                   Hammer\u{200B} Knight,Un\u{00AD}it,look-alike,Ham\u{2060}mer|\u{FEFF}\n\
                   Hammer Knight,Unit,real,\n\
                   Ice\u{200C}\u{200D} Golem,Unit,x,Go\u{200B}lem\n";
        let p = parse("c.csv", csv).unwrap();
        let cards: Vec<(&str, &str, Vec<&str>)> = p
            .cards
            .iter()
            .map(|c| {
                let aliases = c.aliases.iter().map(String::as_str).collect();
                (c.name.as_str(), c.card_type.as_str(), aliases)
            })
            .collect();
        assert_eq!(
            cards,
            [
                ("Hammer Knight", "Unit", vec!["Hammer"]),
                ("Ice Golem", "Unit", vec!["Golem"]),
            ]
        );
        let w = p.warnings.join("\n");
        assert!(
            w.contains("card #1 (line 2) 'Hammer Knight': invisible characters")
                && w.contains("taken out of its name and aliases")
                && w.contains("card #3 (line 4) 'Ice Golem': invisible characters")
                && w.contains(
                    "card #2 (line 3) 'Hammer Knight': the name 'Hammer Knight' is already card #1 (line 2) 'Hammer Knight'"
                ),
            "{w}"
        );
        assert!(!w.chars().any(crate::corpus::clean::is_format), "{w:?}");
        // Only such characters: no name, said once.
        let p = parse("c.csv", "name,text\n\u{200B}\u{2060},x\nBear,y\n").unwrap();
        assert_eq!(p.warnings, ["card #1 (line 2) has no name; it is left out"]);
    }

    #[test]
    fn an_alias_bomb_is_refused_in_words() {
        let big = "x".repeat(400_000);
        let aliases: String = (0..60)
            .map(|i| format!("  - name: C{i}\n    text: *t\n"))
            .collect();
        let yaml = format!("cards:\n  - name: A\n    text: &t {big}\n{aliases}");
        let e = parse("c.yaml", &yaml).unwrap_err();
        assert!(
            e.message
                .to_string()
                .contains("anchors and aliases are written out"),
            "{}",
            e.message
        );
        assert!(
            !e.message.to_string().contains("ScalarBytes"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_list_nested_too_deep_is_refused_in_our_words_with_where() {
        // Brackets 300 deep: the YAML parser's own "recursion limit
        // exceeded" (and serde_json's, for JSON) reached the user; 40
        // levels of indentation were "too large once its YAML anchors and
        // aliases are written out".
        let flow = format!(
            "cards:\n  - name: A\n    stats: {{ attack: {} }}\n",
            "[".repeat(300)
        );
        let block: String = (0..40)
            .map(|i| format!("{}k{i}:\n", "  ".repeat(i + 4)))
            .collect();
        let block = format!("cards:\n  - name: A\n    stats:\n      attack:\n{block}");
        let json = format!(
            "{{\"cards\": [{{\"name\": \"A\", \"stats\": {{\"attack\": {}",
            "[".repeat(200)
        );
        for (name, text) in [("c.yaml", &flow), ("c.yaml", &block), ("c.json", &json)] {
            let e = parse(name, text).unwrap_err();
            let words = e.message.to_string();
            assert!(
                words.contains("more than 16 levels deep"),
                "{name}: {words}"
            );
            assert!(!words.contains("recursion"), "{name}: {words}");
            assert!(!words.contains("anchors"), "{name}: {words}");
            assert!(e.line.is_some() && e.column.is_some(), "{name}: {e}");
        }
        let e = parse("c.json", &json).unwrap_err();
        assert_eq!((e.line, e.column), (Some(1), Some(58)), "{e}");
        // A list as deep as it may be is not refused for its depth.
        let ok = format!(
            "- name: A\n  stats: {{ attack: {}1{} }}\n",
            "[".repeat(13),
            "]".repeat(13)
        );
        if let Err(e) = parse("c.yaml", &ok) {
            assert!(!e.to_string().contains("deep"), "{e}");
        }
    }

    #[test]
    fn errors_say_where() {
        let e = parse("c.yaml", "cards:\n  - name: A\n    atack: 2\n").unwrap_err();
        assert_eq!((e.line, e.column), (Some(3), Some(5)), "{e}");
        assert!(
            e.to_string().starts_with("line 3:5: ") && e.message.to_string().contains("atack"),
            "{e}"
        );
        let e = parse("c.json", "[{\"name\": \"A\",}]").unwrap_err();
        assert_eq!(e.line, Some(1), "{e}");
        let e = parse("c.csv", "name,life\nA,1\nB,2,3\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(
            e.message.to_string().contains("3 fields; the header has 2"),
            "{e}"
        );
        let e = parse("c.csv", "title,life\nA,1\n").unwrap_err();
        assert!(e.message.to_string().contains("no `name` column"), "{e}");
    }

    #[test]
    fn a_spreadsheet_s_semicolons_and_tabs_separate_columns() {
        // As European Excel saves CSV, and as "Text (Tab delimited)" and
        // `.tsv` do: refused before as no `name` column, or read as YAML.
        let want = parse(
            "c.csv",
            "name,type,cost,text\nIce Golem,Unit,2,Unit Guard\n",
        )
        .unwrap()
        .cards;
        for (file, text) in [
            (
                "c.csv",
                "name;type;cost;text\nIce Golem;Unit;2;Unit Guard\n",
            ),
            (
                "c.tsv",
                "name\ttype\tcost\ttext\nIce Golem\tUnit\t2\tUnit Guard\n",
            ),
            (
                "c.txt",
                "name\ttype\tcost\ttext\nIce Golem\tUnit\t2\tUnit Guard\n",
            ),
            (
                "c.csv",
                "\"name\";\"text\";cost;type\nIce Golem;\"Unit Guard\";2;Unit\n",
            ),
        ] {
            let got = parse(file, text).unwrap_or_else(|e| panic!("{file} {text:?}: {e}"));
            assert_eq!(got.cards, want, "{file} {text:?}");
        }
        // A comma inside a field of a list separated by semicolons is text.
        let p = parse(
            "c.csv",
            "name;text\nFire Archer;Deals 1 damage, then exhausts.\n",
        )
        .unwrap();
        assert_eq!(p.cards[0].text, "Deals 1 damage, then exhausts.");
        let e = parse("c.csv", "title;type\nA;b\n").unwrap_err();
        assert!(e.message.to_string().contains("separated by ';'"), "{e}");
    }

    #[test]
    fn a_column_or_stat_named_twice_or_a_nameless_column_is_refused_where_it_stands() {
        let e = parse(
            "c.csv",
            "name , type,cost,attack,attack,text\nTroll,Unit,2,3,4,Slow\n",
        )
        .unwrap_err();
        let said = e.to_string();
        assert!(said.contains("`attack` twice (columns 4 and 5)"), "{said}");
        assert_eq!((e.line, e.column), (Some(1), Some(25)), "{said}");
        let e = parse("c.csv", "name,name,type,,cost\nAlpha,Beta,Unit,7,2\n").unwrap_err();
        assert!(e.to_string().contains("`name` twice"), "{e}");
        let e = parse("c.csv", "name,type,,cost\nAlpha,Unit,7,2\n").unwrap_err();
        assert!(
            e.to_string().contains("column 3 of the header has no name"),
            "{e}"
        );
        let e = parse(
            "c.json",
            r#"[{"name":"Zeta","type":"Unit","stats":{"attack":2,"attack":9}}]"#,
        )
        .unwrap_err();
        assert!(
            e.to_string().contains("the stat `attack` is given twice"),
            "{e}"
        );
        assert_eq!(e.line, Some(1), "{e}");
    }

    #[test]
    fn nameless_and_duplicate_cards_are_warnings() {
        let p = parse(
            "c.yaml",
            "- name: Ice Golem\n- name: ''\n- name: ice golem\n- name: Frost\n  aliases: [Ice Golem]\n- name: Bear\n",
        )
        .unwrap();
        let names: Vec<&str> = p.cards.iter().map(|c| c.name.as_str()).collect();
        // Frost keeps its card; only the alias another card's name has goes.
        assert_eq!(names, ["Ice Golem", "Frost", "Bear"]);
        assert!(p.cards[1].aliases.is_empty());
        assert_eq!(p.warnings.len(), 3, "{:?}", p.warnings);
        assert!(
            p.warnings[1].contains("already card #1 'Ice Golem'; the first is kept")
                && p.warnings[2].contains("its alias 'Ice Golem' is already card #1"),
            "{:?}",
            p.warnings
        );
    }

    #[test]
    fn an_unclosed_quote_is_refused_at_its_line_and_an_inch_mark_is_text() {
        let e = parse("c.csv", "name,text\nA,\"never closed\nB,x\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.message.to_string().contains("never closed"), "{e}");
        let p = parse(
            "c.csv",
            "name,text\nA,moves 5\" then \"said \"\"hi\"\"\"\nB,x\n",
        )
        .unwrap();
        assert_eq!(p.cards.len(), 2, "{:?}", p.cards);
        assert!(parse("c.csv", "name,text\nA,\"two\nlines\"\n").is_ok());
        // Old Mac line ends; a quote after a space is text, as the reader has it.
        let e = parse("c.csv", "name,text\r\"Bear,x\rB,y\r").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(parse("c.csv", "name,text\nA, \"Ouch\nB,x\n").is_ok());
    }

    #[test]
    fn a_csv_lists_warnings_name_the_row_s_line() {
        // A quoted field over two lines: the next row starts on line 5.
        let p = parse(
            "c.csv",
            "name,text\nIce Golem,Cold\n,nameless\n\"Bear\",\"two\nlines\"\nice golem,again\n",
        )
        .unwrap();
        assert_eq!(
            p.warnings,
            [
                "card #2 (line 3) has no name; it is left out",
                "card #4 (line 6) 'ice golem': the name 'ice golem' is already card #1 (line 2) 'Ice Golem'; the first is kept",
            ]
        );
    }

    #[test]
    fn an_alias_another_card_has_is_dropped_not_its_card() {
        let p = parse(
            "c.yaml",
            "cards:\n- {name: Fire Golem, aliases: [FG, golem-1]}\n\
             - {name: Ice Golem, aliases: [golem 1, IG, fire golem]}\n\
             - {name: FG, text: a card named like an alias}\n",
        )
        .unwrap();
        let names: Vec<(&str, Vec<&str>)> = p
            .cards
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.aliases.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            names,
            [
                ("Fire Golem", vec!["golem-1"]),
                ("Ice Golem", vec!["IG"]),
                ("FG", vec![]),
            ]
        );
        assert_eq!(
            p.warnings,
            [
                "card #1 'Fire Golem': its alias 'FG' is already card #3 'FG'; the alias is dropped",
                "card #2 'Ice Golem': its alias 'golem 1' is already card #1 'Fire Golem'; the alias is dropped",
                "card #2 'Ice Golem': its alias 'fire golem' is already card #1 'Fire Golem'; the alias is dropped",
            ]
        );
    }

    #[test]
    fn anything_else_is_refused_without_a_panic() {
        for text in [
            "",
            "   ",
            "just words",
            "- [1, 2]",
            "{",
            "cards: 3",
            "\u{0}\u{1}",
        ] {
            let _ = parse("c.yaml", text);
            let _ = parse("c.json", text);
            let _ = parse("c.csv", text);
        }
        let bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c]\ncards: [*d, *d, *d, *d, *d, *d, *d, *d]\n";
        assert!(parse("c.yaml", bomb).is_err());
    }
}
