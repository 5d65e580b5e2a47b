//! Cleaning rule text of markup while keeping its words verbatim.

use std::sync::LazyLock;

use regex::Regex;

static IMG_TAG: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<img\b[^>]*>").unwrap());
/// Tags whose words are the text's: the tags go, the words stay (a
/// collapsible `<details>`/`<summary>` block shows its words when opened).
static HTML_TAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"</?(?:br|p|span|div|em|strong|b|i|u|sup|sub|details|summary)\b[^>]*>").unwrap()
});
static MD_IMAGE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"!\[[^\]]*\]\([^)]*\)").unwrap());
static MD_LINK: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\[([^\]]+)\]\(([^)]*)\)").unwrap());
/// A scraped page's image left as its alt text and file name in
/// brackets ("(Card Action icon-2.png)"), on one line.
static IMAGE_NAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)[ \t]*\([^()\n]*\.(?:png|jpe?g|gif|svg|webp)\)").unwrap());
static EMPHASIS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(\*\*|__)(\S(?:.*?\S)?)(\*\*|__)|\*(\S(?:[^*]*?\S)?)\*").unwrap()
});
static ENTITY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});").unwrap());
static SPACES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[ \t\u{a0}]{2,}").unwrap());

/// A markdown link found while cleaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub label: String,
    pub url: String,
}

/// Cleans one line (or paragraph) of markup: images, HTML tags, links (kept
/// as their label), emphasis, entities, mis-encoded UTF-8 and runs of spaces.
/// Returns the text and the links it held. Unicode's noncharacters
/// (U+FDD0–U+FDEF, the stand-ins of escaped marks below, and U+FFFE/U+FFFF)
/// are no text and are left out: a document's own U+FDE6 came back as "["
/// (a masked link).
pub fn clean_inline(raw: &str) -> (String, Vec<Link>) {
    let raw = without_noncharacters(raw);
    if raw.trim_start().starts_with('|') && raw.contains("\\|") {
        return clean_row(&raw);
    }
    let mut s = fix_mojibake(&protect_escapes(&raw));
    s = decode_entities(&s);
    s = IMG_TAG.replace_all(&s, "").into_owned();
    s = HTML_TAG.replace_all(&s, "").into_owned();
    s = MD_IMAGE.replace_all(&s, "").into_owned();
    let mut links = Vec::new();
    s = MD_LINK
        .replace_all(&s, |c: &regex::Captures| {
            // A label's escapes (a footnote's `[\[1\]](#cite-1)`) are put
            // back as the text's are: the stand-ins never reach a reply.
            links.push(Link {
                label: restore_escapes(&c[1]),
                url: restore_escapes(&c[2]),
            });
            c[1].to_string()
        })
        .into_owned();
    // Emphasis may nest (**Note**: *A Phoenixborn...*): strip until stable.
    // Marks between two letters or digits ("2*3*4", "__init__" within a
    // word) are the text's own, not emphasis.
    loop {
        let next = EMPHASIS
            .replace_all(&s, |c: &regex::Captures| {
                let all = c.get(0).map_or(0..0, |m| m.range());
                let before = s[..all.start].chars().next_back();
                let after = s[all.end..].chars().next();
                if before.is_some_and(char::is_alphanumeric)
                    && after.is_some_and(char::is_alphanumeric)
                {
                    return c[0].to_string();
                }
                c.get(2)
                    .or_else(|| c.get(4))
                    .map_or("", |m| m.as_str())
                    .to_string()
            })
            .into_owned();
        if next == s {
            break;
        }
        s = next;
    }
    // A trailing backslash is a markdown hard line break.
    let s = s.replace("\\\n", "\n");
    let s = s.trim_end_matches('\\');
    let s = SPACES.replace_all(s, " ");
    (restore_escapes(s.trim()), links)
}

/// A table row holding an escaped pipe (`| Hold the Throne \| at end | 5
/// |`), cleaned a cell at a time: GFM splits a row at its pipes but an
/// escaped one, which is a pipe of the cell's text. Decision: the quoted
/// row writes that pipe escaped, as the document does, so its cells are
/// the document's ("Hold the Throne | at end", "5"); the backslash went
/// with the other escapes' and the row read as three cells
/// ("| Hold the Throne | at end | 5 |", found by an outside tester).
fn clean_row(raw: &str) -> (String, Vec<Link>) {
    let (mut cells, mut cell) = (Vec::new(), String::new());
    let mut chars = raw.trim().chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cell.push(c);
                cell.extend(chars.next_if(char::is_ascii_punctuation));
            }
            '|' => cells.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
    }
    cells.push(cell);
    // The row's outer pipes leave an empty cell before and after it.
    let opens = cells.first().is_some_and(|c| c.trim().is_empty());
    let closes = cells.len() > 2 && cells.last().is_some_and(|c| c.trim().is_empty());
    let inner = &cells[usize::from(opens)..cells.len() - usize::from(closes)];
    let mut links = Vec::new();
    let written: Vec<String> = inner
        .iter()
        .map(|cell| {
            let (text, found) = clean_inline(cell);
            links.extend(found);
            text.replace('|', "\\|")
        })
        .collect();
    let mut out = written.join(" | ");
    if opens {
        out.insert_str(0, "| ");
    }
    if closes {
        out.push_str(" |");
    }
    (out.trim().to_string(), links)
}

/// A document's text without the image leftovers a scraped page kept
/// ("preceded by a card action (Card Action icon-2.png) icon"): only for
/// a shipped document whose manifest says it holds them
/// (`drop_image_names`), as such brackets in any other text are its words
/// ("(JPG or PNG, e.g. deck.jpg)" was cut out of an uploaded rule).
pub fn drop_image_names(text: &str) -> String {
    IMAGE_NAME.replace_all(text, "").into_owned()
}

/// Whether `c` is one of Unicode's noncharacters: never text, and the
/// first 32 stand in for escaped marks while a line is cleaned.
pub fn is_noncharacter(c: char) -> bool {
    let code = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE
}

fn without_noncharacters(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(is_noncharacter) {
        return s.into();
    }
    s.chars().filter(|c| !is_noncharacter(*c)).collect()
}

/// ASCII's 32 punctuation marks, each stood in for by one of Unicode's 32
/// noncharacters U+FDD0–U+FDEF while markup is cleaned (`\*` is a star,
/// never emphasis): the text's own are left out first ([`clean_inline`]),
/// so nothing else is mapped back.
const PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const ESCAPED: u32 = 0xFDD0;

/// Markdown's backslash escapes (`\*`, `\[`, `\_`, `\.`, as converters
/// write them and as plain text is stored): each mark set aside so that no
/// markup rule reads it, and put back by [`restore_escapes`].
fn protect_escapes(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('\\') {
        return s.into();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&next) if c == '\\' && next.is_ascii_punctuation() => {
                let i = PUNCTUATION.find(next).unwrap_or(0) as u32;
                out.extend(char::from_u32(ESCAPED + i));
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out.into()
}

fn restore_escapes(s: &str) -> String {
    s.chars()
        .map(|c| match (c as u32).checked_sub(ESCAPED) {
            Some(i) if i < 32 => PUNCTUATION.as_bytes()[i as usize] as char,
            _ => c,
        })
        .collect()
}

/// Plain text (a `.txt` upload, a PDF's text) stored as Markdown: every
/// mark Markdown would read as markup is escaped, so that the text quoted
/// is the document's ("2*3*4" stays, "# of cards" is no heading).
pub fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let body = line.trim_start();
        out.push_str(&line[..line.len() - body.len()]);
        if body.starts_with(['#', '>', '{']) {
            out.push('\\');
        }
        for c in body.chars() {
            if matches!(c, '\\' | '*' | '_' | '[' | ']' | '`' | '<' | '&' | '~') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// Decodes HTML character references (`&#x20;`, `&amp;`, `&rsquo;`).
pub fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    ENTITY
        .replace_all(s, |c: &regex::Captures| {
            let body = &c[1];
            let ch = if let Some(hex) = body.strip_prefix("#x").or_else(|| body.strip_prefix("#X"))
            {
                u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
            } else if let Some(dec) = body.strip_prefix('#') {
                dec.parse().ok().and_then(char::from_u32)
            } else {
                named_entity(body)
            };
            // A control character ("&#0;", "&#x1b;") is not text: the
            // entity stays as written.
            ch.filter(|ch| !is_hidden(*ch))
                .map_or_else(|| c[0].to_string(), |ch| ch.to_string())
        })
        .into_owned()
}

/// A character that is no visible text and can change how the rest shows:
/// control characters other than line breaks and tabs (NUL, ESC and the
/// terminal sequences it starts, C1 controls), and the direction
/// overrides and isolates (U+202A–202E, U+2066–2069).
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn named_entity(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        "rsquo" => '’',
        "lsquo" => '‘',
        "rdquo" => '”',
        "ldquo" => '“',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "bull" => '•',
        "raquo" => '»',
        "laquo" => '«',
        "middot" => '·',
        "times" => '×',
        _ => return None,
    })
}

/// Repairs UTF-8 text that was decoded as Windows-1252 (`championâ€™s` →
/// `champion’s`). Only runs that decode back to valid UTF-8 are changed.
pub fn fix_mojibake(s: &str) -> String {
    if !s.contains(['Ã', 'Â', 'â']) {
        return s.to_string();
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        if matches!(chars[i], 'Ã' | 'Â' | 'â') {
            // Collect the longest run of chars that map to single cp1252 bytes.
            let mut bytes = Vec::new();
            let mut j = i;
            while j < chars.len() && j - i < 4 {
                match cp1252_byte(chars[j]) {
                    Some(b) if b >= 0x80 => bytes.push(b),
                    _ => break,
                }
                j += 1;
            }
            // Try the longest prefix that is exactly one UTF-8 character.
            let mut fixed = false;
            for len in (2..=bytes.len()).rev() {
                if let Ok(t) = std::str::from_utf8(&bytes[..len])
                    && t.chars().count() == 1
                {
                    out.push_str(t);
                    i += len;
                    fixed = true;
                    break;
                }
            }
            if fixed {
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// The Windows-1252 byte for a char, if it has one.
fn cp1252_byte(c: char) -> Option<u8> {
    let code = c as u32;
    if code < 0x80 || (0xA0..=0xFF).contains(&code) {
        return Some(code as u8);
    }
    const HIGH: [(char, u8); 27] = [
        ('€', 0x80),
        ('‚', 0x82),
        ('ƒ', 0x83),
        ('„', 0x84),
        ('…', 0x85),
        ('†', 0x86),
        ('‡', 0x87),
        ('ˆ', 0x88),
        ('‰', 0x89),
        ('Š', 0x8A),
        ('‹', 0x8B),
        ('Œ', 0x8C),
        ('Ž', 0x8E),
        ('‘', 0x91),
        ('’', 0x92),
        ('“', 0x93),
        ('”', 0x94),
        ('•', 0x95),
        ('–', 0x96),
        ('—', 0x97),
        ('˜', 0x98),
        ('™', 0x99),
        ('š', 0x9A),
        ('›', 0x9B),
        ('œ', 0x9C),
        ('ž', 0x9E),
        ('Ÿ', 0x9F),
    ];
    HIGH.iter().find(|(ch, _)| *ch == c).map(|&(_, b)| b)
}

/// Lower-case slug: letters and digits, words joined by `-`.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    let mut dash = false;
    for c in s.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c);
        } else if c != '\'' && c != '’' {
            dash = true;
        }
    }
    out
}

/// Whether a phrase would show on Discord as a mention or a link: a user,
/// role or channel mention, a command mention, `@everyone`/`@here`, a
/// masked link or a web address.
pub fn holds_link(s: &str) -> bool {
    let lower = s.to_lowercase();
    [
        "<@",
        "<#",
        "</",
        "@everyone",
        "@here",
        "](",
        "http://",
        "https://",
        "www.",
        "discord.gg/",
    ]
    .iter()
    .any(|m| lower.contains(m))
}

/// One phrase as search reads it: hidden characters (controls, direction
/// overrides, every format character) out, spaces single. Also a
/// document's title (`import::target`) and a slang list's phrases.
pub(crate) fn tidy(s: &str) -> String {
    let shown: String = s
        .chars()
        .filter(|c| !is_hidden(*c) && !is_format(*c))
        .collect();
    arbiter_text::single_spaced(&shown)
}

pub(crate) use crate::text::is_format;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repairs_windows_1252_mojibake() {
        assert_eq!(fix_mojibake("a championâ€™s intent"), "a champion’s intent");
        assert_eq!(fix_mojibake("cafÃ©"), "café");
        assert_eq!(fix_mojibake("plain â alone"), "plain â alone");
    }

    #[test]
    fn a_bracket_ending_in_an_image_name_is_the_texts_own_words() {
        let rule = "Upload your deck photo (JPG or PNG, e.g. deck.jpg) to the channel.";
        assert_eq!(clean_inline(rule).0, rule);
        assert_eq!(
            clean_inline("Print the sheet (sheet.png) first.").0,
            "Print the sheet (sheet.png) first."
        );
        // A shipped document that says it holds image leftovers.
        assert_eq!(
            drop_image_names("a card action (Card Action icon-2.png) icon\n(a.png"),
            "a card action icon\n(a.png"
        );
    }

    #[test]
    fn a_documents_noncharacters_never_become_markup() {
        let (t, links) = clean_inline(
            "Claim: \u{FDE6}Free Nitro\u{FDE8}\u{FDD7}https://evil.example\u{FDD8} now \u{FDD5}everyone.",
        );
        assert_eq!(t, "Claim: Free Nitrohttps://evil.example now everyone.");
        assert!(links.is_empty());
        assert!(is_noncharacter('\u{FFFE}') && is_noncharacter('\u{10FFFF}'));
        assert!(!is_noncharacter('\u{FFFD}') && !is_noncharacter('\u{FDCF}'));
    }

    #[test]
    fn cleans_markdown_and_html() {
        let (t, links) =
            clean_inline("**Note**: *A Phoenixborn can guard even if it is exhausted.*");
        assert_eq!(t, "Note: A Phoenixborn can guard even if it is exhausted.");
        assert!(links.is_empty());
        let (t, _) = clean_inline(r#"<img src="x.jpg" alt="">![](https://a/b.jpg)\"#);
        assert_eq!(t, "");
        let (t, _) = clean_inline("at the same time.&#x20;");
        assert_eq!(t, "at the same time.");
        let (t, links) = clean_inline(" - [Active Player](/rules/r_active_player)");
        assert_eq!(t, "- Active Player");
        assert_eq!(links[0].url, "/rules/r_active_player");
        let (t, _) =
            clean_inline("<details open><summary>On otters</summary> Otters swim.</details>");
        assert_eq!(t, "On otters Otters swim.");
    }

    #[test]
    fn escaped_marks_in_a_link_come_back_as_written() {
        let (t, links) = clean_inline(r"to hit.[\[1\]](#cite-1) and [a\_b](/x\_y)");
        assert_eq!(t, "to hit.[1] and a_b");
        assert_eq!(links[0].label, "[1]");
        assert_eq!(links[1].label, "a_b");
        assert_eq!(links[1].url, "/x_y");
        let stand_in = |c: char| ('\u{FDD0}'..='\u{FDEF}').contains(&c);
        assert!(!links.iter().any(|l| l.label.contains(stand_in)));
    }

    #[test]
    fn slugs_are_typable() {
        assert_eq!(slug("Attack a Phoenixborn"), "attack-a-phoenixborn");
        assert_eq!(slug("General Rules:"), "general-rules");
        assert_eq!(
            slug("Combat Phase - Attack Declaration"),
            "combat-phase-attack-declaration"
        );
        assert_eq!(slug("Player’s Turn"), "players-turn");
    }
}
