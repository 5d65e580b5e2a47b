//! Importing a document someone brings: a Markdown file (GitBook and wiki
//! exports too), numbered-section text like the MTG Comprehensive Rules, an
//! HTML page, or a PDF with a text layer. I/O-free: bytes in, the document
//! as Arbiter stores it (Markdown or numbered text) plus a preview out.
//!
//! Conversion only changes the container: HTML becomes Markdown, a PDF its
//! text. The existing Markdown and numbered parsers then index it exactly as
//! they index the shipped documents, so the preview shows the passages the
//! document will have once it is live.

mod amends;
mod attributes;
mod book_index;
mod bullets;
mod bytes;
mod charset;
mod contents;
pub mod data;
mod escapes;
mod html;
mod invisible;
mod markdown;
mod pdf;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::text::{Words, count};

use super::{
    Corpus, DocumentFormat, DocumentKind, DocumentManifest, GameManifest, Glossary, PassageKind,
    SourceDocument, SourceGame, WarningKind, clean,
};

/// Largest document accepted, in bytes.
pub const MAX_IMPORT_BYTES: usize = 5 * 1024 * 1024;
/// Most text a document may convert to (a compressed PDF inflates): what
/// is stored and indexed, and what a server's quota counts.
pub const MAX_TEXT_BYTES: usize = 8 * 1024 * 1024;
/// Most passages one document may have (the MTG rules have 3,421).
pub const MAX_PASSAGES: usize = 50_000;
/// Deepest nesting of passages below a document (MTG's is 3).
pub const MAX_DEPTH: usize = 24;
/// Deepest element nesting of an HTML page (a rules site's is under 40).
pub const MAX_HTML_DEPTH: usize = 400;
/// Most lines outside any section quoted in a warning.
const SAMPLE_LINES: usize = 3;

/// Why a file cannot be imported, in words for the person who sent it.
/// Serializable: a conversion run in a child process sends it back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum ImportError {
    /// Said in exact bytes and by how much it is over: "is 5120 KB;
    /// documents over 5 MB are refused", a file one byte over, read as one
    /// at the limit (found by an outside tester).
    #[error(
        "{file} is {}, {} over the limit of {} MB ({}). Split it into smaller documents.",
        bytes_said(*size),
        bytes_said(size.saturating_sub(*limit)),
        limit / (1024 * 1024),
        bytes_said(*limit)
    )]
    TooLarge {
        file: String,
        size: usize,
        limit: usize,
    },
    #[error("{file} is empty")]
    Empty { file: String },
    #[error("{file} holds only white space: there is no text to import")]
    Blank { file: String },
    #[error("{file} looks like {what}, which cannot be imported. {how}")]
    Unsupported {
        file: String,
        what: String,
        /// What to send instead: for a word processor's file, how to
        /// export it (`how_to_send`).
        #[serde(default)]
        how: String,
    },
    /// A card or slang list that is not text (a PDF, an image, an archive).
    #[error(
        "{file} looks like {what}, which cannot be read as a list. Send it as CSV, YAML or JSON text."
    )]
    NotAList { file: String, what: String },
    #[error(
        "{file} is not UTF-8 text (invalid byte at offset {offset}). Save it as UTF-8, or send it as Markdown, HTML or PDF."
    )]
    NotUtf8 { file: String, offset: usize },
    /// A PDF that could not be read even from the objects found in it;
    /// `reason` says what is wrong in plain words, never the parser's.
    #[error(
        "{file} cannot be read as a PDF: {reason}. If it opens in a PDF viewer, print it to a new PDF from there (“Print to PDF”, or a PDF printer) and send that, or export its text and send that."
    )]
    BadPdf { file: String, reason: String },
    #[error(
        "no text could be read from {file}: it may be a scan with no text layer (run it through OCR first), or its text is stored in a way the reader cannot follow (export it again as PDF, or send the text)."
    )]
    NoTextLayer { file: String },
    #[error(
        "{file} is an encrypted PDF (a password, or restrictions on copying): remove the protection and send it again, or send the text."
    )]
    EncryptedPdf { file: String },
    #[error("{file}: {reason}")]
    BadHtml { file: String, reason: String },
    #[error("the game name '{0}' holds no letters or digits")]
    BadGame(String),
    /// A new game's name within a typo of a loaded one: almost always the
    /// loaded game misspelt (a document of a new game would never reach it).
    #[error(
        "no loaded game is named '{typed}'; did you mean '{suggestion}'? (a new game needs a name of its own)"
    )]
    GameTypo { typed: String, suggestion: String },
    /// A card list that does not parse (the parser's position in `reason`,
    /// the fields it names as code apart from what the list gave).
    #[error("{file} is not a card list Arbiter can read: {reason}")]
    BadCards { file: String, reason: Words },
    /// A slang list that does not parse (the parser's position in `reason`,
    /// the keys it names as code apart from what the list gave).
    #[error("{file} is not a slang list Arbiter can read: {reason}")]
    BadSlang { file: String, reason: Words },
    /// A slang list names its game's rules' words: the game must be loaded.
    #[error(
        "no loaded game is named '{game}': a slang list maps players' words to a game's rules, so add the game's rules first, or name a loaded game"
    )]
    SlangWithoutRules { game: String },
    /// A title (given, or the file's name) that Discord would show as a
    /// mention or a link in every answer's citation path.
    #[error(
        "the title “{title}” holds a mention or a link, which every answer citing it would show; give a title in plain words (title:)"
    )]
    TitleLink { title: String },
    /// A new game's name holding a mention or a link.
    #[error(
        "the game's name “{game}” holds a mention or a link, which every answer citing its rules would show; give a name in plain words (game:)"
    )]
    GameLink { game: String },
    /// A new game's name that reads as a loaded game's (the same letters
    /// from another script): every answer citing it would look like the
    /// loaded game's.
    #[error(
        "the game's name “{typed}” looks like {imitates}'s (letters that read alike), and answers citing it would look like that game's: to add to {imitates}, use --game {id} (game:{id} on Discord); a new game needs a name of its own"
    )]
    GameLookalike {
        typed: String,
        imitates: String,
        id: String,
    },
    /// A control character or an invisible one (zero-width, a direction
    /// control) in a game's name or a given title: it would hide or reorder
    /// what every citation shows, or leave its visible rest behind
    /// ("\x1b[31mAshes" showed as "[31mAshes").
    #[error(
        "the {field} holds a hidden character ({code}) at column {column}: control characters, zero-width characters and direction controls hide or reorder what every citation shows; type it in plain characters ({option}:)"
    )]
    HiddenCharacter {
        field: String,
        option: String,
        column: usize,
        code: String,
    },
    /// A new game's name longer than [`MAX_TITLE_CHARS`].
    #[error(
        "the game's name “{start}…” is {chars} characters; the most is {MAX_TITLE_CHARS}, as every answer citing its rules shows it: give a shorter name (game:)"
    )]
    GameTooLong { start: String, chars: usize },
    /// A title longer than [`MAX_TITLE_CHARS`].
    #[error(
        "the title “{start}…” is {chars} characters; the most is {MAX_TITLE_CHARS}, as every answer citing the document shows it: give a shorter title (title:)"
    )]
    TitleTooLong { start: String, chars: usize },
    #[error(
        "{file} converts to {} MB of text; the limit is {} MB per document. Split it into smaller documents.",
        mb(*size), mb(*limit)
    )]
    TooMuchText {
        file: String,
        size: usize,
        limit: usize,
    },
    #[error(
        "{file} has {count} passages (headings, numbered rules and list items); the limit is {limit} per document. Split it into smaller documents."
    )]
    TooManyPassages {
        file: String,
        count: usize,
        limit: usize,
    },
    /// An HTML page opening more `<li>` than a document may have
    /// passages, refused before it is converted (`html::list_items`).
    #[error(
        "{file} has {count} list items; a document may have at most {limit} passages (headings, numbered rules and list items, each item one). Split it into smaller documents."
    )]
    TooManyItems {
        file: String,
        count: usize,
        limit: usize,
    },
    #[error(
        "{file} nests its sections and lists {depth} levels deep (near “{title}”); the limit is {limit}. Flatten the outline, or send it as plain text."
    )]
    TooDeep {
        file: String,
        depth: usize,
        limit: usize,
        title: String,
    },
    #[error(
        "{file} nests its HTML elements more than {limit} deep (as a browser builds the page: an end tag a page may leave out, as `</li>` or `</p>`, is read as a browser reads it). Save the page as text or Markdown, or send the part with the rules."
    )]
    HtmlTooDeep { file: String, limit: usize },
}

impl ImportError {
    /// The words with the file's name and every value a list's reason
    /// quotes passed through `shown` (Discord's reply escapes them), the
    /// fields and keys it names kept as code; `None` for an error escaped
    /// whole. Escaped whole, "unknown field `atack`" showed its backticks.
    pub fn with_values(&self, shown: &dyn Fn(&str) -> String) -> Option<String> {
        let (file, what, reason) = match self {
            ImportError::BadCards { file, reason } => (file, "card", reason),
            ImportError::BadSlang { file, reason } => (file, "slang", reason),
            _ => return None,
        };
        let lead = Words::fill(
            "{} is not a {} list Arbiter can read: ",
            vec![file.clone(), what.to_string()],
        );
        Some(reason.clone().after(lead).shown(shown))
    }
}

/// Megabytes with one decimal where it matters ("8", "8.4").
fn mb(bytes: usize) -> String {
    let v = bytes as f64 / (1024.0 * 1024.0);
    if (v - v.round()).abs() < 0.05 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// What the file was before conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceFormat {
    Markdown,
    Text,
    Html,
    Pdf,
}

impl SourceFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            SourceFormat::Markdown => "Markdown",
            SourceFormat::Text => "plain text",
            SourceFormat::Html => "HTML",
            SourceFormat::Pdf => "PDF",
        }
    }
}

/// A file converted to the text Arbiter indexes.
#[derive(Debug, Clone)]
pub struct Text {
    pub source_format: SourceFormat,
    /// How the parsers read `text`.
    pub format: DocumentFormat,
    pub text: String,
    /// How bytes that were not UTF-8 were read (a preview warning).
    pub decoded: Option<String>,
    /// What reading the file left out (a PDF's running headers and
    /// footers, a table of contents): preview warnings.
    pub notes: Vec<String>,
    /// Markdown whose headings have no text under any of them: how many
    /// (their words are kept as the document's text, one passage).
    pub empty_headings: usize,
}

/// What to import, and as what.
#[derive(Debug, Clone)]
pub struct ImportRequest<'a> {
    /// The file's name as sent (for messages and format detection).
    pub file_name: &'a str,
    pub bytes: &'a [u8],
    /// Game id, name or alias; a new id starts a new game.
    pub game: &'a str,
    pub kind: DocumentKind,
    /// Document title (default: from the file name).
    pub title: Option<&'a str>,
}

/// One passage of the preview.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct PreviewEntry {
    pub id: String,
    pub kind: PassageKind,
    pub title: String,
    /// Depth below the document root (1 = top-level section).
    pub depth: usize,
}

/// What a document will add once it is live.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Preview {
    pub game: String,
    pub game_name: String,
    /// Whether the game is new (not one Arbiter already knows).
    pub new_game: bool,
    pub document: String,
    pub title: String,
    pub kind: DocumentKind,
    pub source_format: SourceFormat,
    pub format: DocumentFormat,
    /// Size of the file as sent.
    pub bytes: usize,
    /// SHA-256 of the file as sent.
    pub source_sha256: String,
    /// Every passage of the document, in document order (the root excluded).
    pub passages: Vec<PreviewEntry>,
    /// A card list: its cards ("Ice Golem (Ally)"), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<String>,
    /// A slang list: its entries ("sac → sacrifice"), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<String>,
    /// An FAQ's, errata's or house rules' passages and what each names
    /// as the rules it amends ([`Corpus::rule_names`]), read in the
    /// conversion; looked up in the game's rules by [`Import::new`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rule_names: Vec<(String, Vec<String>)>,
    /// The rules of the game this document amends (their ids, in order),
    /// shown beside them in answers once it is live.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub amends: Vec<String>,
    pub warnings: Vec<String>,
    /// Warnings past the first [`WARNINGS_PER_KIND`] of their kind:
    /// counted, not listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_warnings: Vec<MoreWarnings>,
}

/// Warnings of one kind a preview lists before it counts the rest: a
/// hostile document's preview listed 17,190 lines.
pub const WARNINGS_PER_KIND: usize = 20;

/// Warnings of a kind past the first [`WARNINGS_PER_KIND`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoreWarnings {
    /// The kind in words ("duplicate passage ids").
    pub what: String,
    pub count: usize,
}

impl Preview {
    /// Every warning, listed or counted.
    pub fn warning_count(&self) -> usize {
        self.warnings.len() + self.more_warnings.iter().map(|m| m.count).sum::<usize>()
    }

    /// A data document's items (cards, terms) and what one is called;
    /// `None` for a document of passages.
    pub fn items(&self) -> Option<(&[String], &'static str)> {
        let noun = self.kind.item_noun()?;
        Some(match self.kind {
            DocumentKind::Slang => (&self.entries, noun),
            _ => (&self.cards, noun),
        })
    }

    /// Headings only (sections), for a short table of contents.
    pub fn headings(&self) -> impl Iterator<Item = &PreviewEntry> {
        self.passages
            .iter()
            .filter(|p| p.kind == PassageKind::Section)
    }
}

/// A converted document, ready to be written out or stored, with its preview.
#[derive(Debug, Clone)]
pub struct Import {
    /// The game as it will be loaded: manifest, empty glossary, the document.
    pub game: SourceGame,
    pub preview: Preview,
}

impl Import {
    /// The document as stored (its manifest entry and converted text).
    pub fn document(&self) -> &SourceDocument {
        &self.game.documents[0]
    }
}

/// SHA-256 of bytes, as 64 lower-case hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A count of bytes as a reader reads it: "1 byte", "5,242,881 bytes".
fn bytes_said(n: usize) -> String {
    let digits = n.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(d);
    }
    match n {
        1 => "1 byte".to_string(),
        _ => format!("{grouped} bytes"),
    }
}

/// Refuses a file over [`MAX_IMPORT_BYTES`] or with nothing in it.
fn size_check(file: &str, bytes: &[u8]) -> Result<(), ImportError> {
    if bytes.len() > MAX_IMPORT_BYTES {
        return Err(ImportError::TooLarge {
            file: file.to_string(),
            size: bytes.len(),
            limit: MAX_IMPORT_BYTES,
        });
    }
    if bytes.is_empty() {
        return Err(ImportError::Empty {
            file: file.to_string(),
        });
    }
    if blank(bytes) {
        return Err(ImportError::Blank {
            file: file.to_string(),
        });
    }
    Ok(())
}

/// Whether a file's text is only white space, byte-order marks and other
/// invisible format characters (a file of a BOM, spaces and tabs): it
/// would be a live document with an empty passage (found by an outside
/// tester: "Added cinder-pact:table-notes"). Bytes that are not UTF-8
/// (nor UTF-16 with its mark) are not blank; they are judged later.
fn blank(bytes: &[u8]) -> bool {
    if let Some((text, _)) = bytes::utf32(bytes) {
        return text
            .chars()
            .all(|c| c.is_whitespace() || super::clean::is_format(c));
    }
    let text = match encoding_rs::Encoding::for_bom(bytes) {
        Some((enc, _)) => enc.decode_with_bom_removal(bytes).0,
        None => match std::str::from_utf8(bytes) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => return false,
        },
    };
    text.chars()
        .all(|c| c.is_whitespace() || super::clean::is_format(c))
}

/// Converts a file to indexable text. Never panics on any input.
pub fn convert(file_name: &str, bytes: &[u8]) -> Result<Text, ImportError> {
    let mut text = convert_any(file_name, bytes)?;
    text.text = plain_lines(&text.text);
    Ok(text)
}

/// Line breaks as `\n` (a lone `\r`, old Mac text, too: it was no break and
/// ran a heading into its rule), and no hidden characters
/// ([`super::clean::is_hidden`]: a NUL PostgreSQL refuses, an escape
/// sequence that retitles an operator's terminal, a direction override).
fn plain_lines(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    if !text.chars().any(super::clean::is_hidden) {
        return text;
    }
    text.chars()
        .filter(|c| !super::clean::is_hidden(*c))
        .collect()
}

/// The text without Unicode's noncharacters, each said with its line and
/// column ([`invisible::strip_noncharacters`]).
fn repaired(text: &str, notes: &mut Vec<String>) -> String {
    let (text, non) = invisible::strip_noncharacters(text);
    if !non.is_empty() {
        notes.push(format!(
            "left out {} (U+FDD0–U+FDEF, U+FFFE, U+FFFF: no text) at line:column {}",
            count(non.len(), "Unicode noncharacter"),
            bytes::positions(&non)
        ));
    }
    text
}

/// Whether an upload is converted as a PDF: `%PDF-` in its first
/// kilobyte, or a `.pdf` name on bytes no other format's mark starts (a
/// Word file or a ZIP named `.pdf` is named as what it is, as it is under
/// any other name, not "does not start as a PDF does").
pub fn reads_as_pdf(file_name: &str, bytes: &[u8]) -> bool {
    pdf::is_pdf(bytes)
        || (file_name.to_lowercase().ends_with(".pdf") && magic_kind(bytes).is_none())
}

fn convert_any(file_name: &str, bytes: &[u8]) -> Result<Text, ImportError> {
    let file = file_name.to_string();
    size_check(&file, bytes)?;
    let lower = file_name.to_lowercase();
    if reads_as_pdf(file_name, bytes) {
        let (text, mut notes) = pdf::extract(&file, bytes)?;
        let text = repaired(&text, &mut notes);
        let (text, contents) = contents::drop_contents(&text);
        notes.extend(contents);
        let (text, index) = book_index::drop_index(&text);
        notes.extend(index);
        return Ok(Text {
            notes,
            ..from_text(SourceFormat::Pdf, text)
        });
    }
    // UTF-16 text (Windows' "Unicode") is full of zero bytes: not binary.
    let utf16 = encoding_rs::Encoding::for_bom(bytes).is_some_and(|(e, _)| e != encoding_rs::UTF_8)
        || bytes::utf32(&bytes[..bytes.len().min(4)]).is_some();
    if let Some(what) = document_binary_kind(bytes).filter(|_| !utf16) {
        let what = match what == BINARY {
            true => format!("{what}{}", nuls_in_text(bytes).unwrap_or_default()),
            false => what.to_string(),
        };
        let how = how_to_send(bytes).to_string();
        return Err(ImportError::Unsupported { file, what, how });
    }
    let (text, decoded, mut notes) = decode(bytes, html::is_html(&lower, bytes));
    let nuls = bytes::nul_positions(&text);
    if !nuls.is_empty() {
        notes.push(format!(
            "left out {} (hidden characters, no text) at line:column {}",
            count(nuls.len(), "NUL byte"),
            bytes::positions(&nuls)
        ));
    }
    let (text, escapes, first) = escapes::strip(&text);
    notes.extend(first.map(|at| escapes::note(escapes, at)));
    let (text, invisible) = invisible::strip(&text);
    if !invisible.is_empty() {
        notes.push(format!(
            "left out {} that show as nothing (zero-width spaces, soft hyphens, word joiners) at line:column {}, so headings, ids and quotes read as the text shows",
            count(invisible.len(), "character"),
            bytes::positions(&invisible)
        ));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let text = &repaired(text, &mut notes);
    if lower.ends_with(".html") || lower.ends_with(".htm") || html::looks_like_html(text) {
        let (text, attributes) = attributes::cap(text);
        if attributes > 0 {
            notes.push(attributes::note(attributes));
        }
        let items = html::list_items(&text);
        if items > MAX_PASSAGES {
            return Err(ImportError::TooManyItems {
                file,
                count: items,
                limit: MAX_PASSAGES,
            });
        }
        if html::nesting(&text, MAX_HTML_DEPTH) > MAX_HTML_DEPTH {
            return Err(ImportError::HtmlTooDeep {
                file,
                limit: MAX_HTML_DEPTH,
            });
        }
        let (markdown, chrome) =
            html::to_markdown_within(&text, MAX_HTML_DEPTH).map_err(|e| match e {
                Some(reason) => ImportError::BadHtml {
                    file: file.clone(),
                    reason,
                },
                None => ImportError::HtmlTooDeep {
                    file: file.clone(),
                    limit: MAX_HTML_DEPTH,
                },
            })?;
        notes.extend(chrome);
        let (markdown, index) = book_index::drop_index(&markdown);
        notes.extend(index);
        return Ok(Text {
            source_format: SourceFormat::Html,
            format: DocumentFormat::Markdown,
            text: markdown,
            decoded,
            notes,
            empty_headings: 0,
        });
    }
    let source_format = if lower.ends_with(".md") || lower.ends_with(".markdown") {
        SourceFormat::Markdown
    } else {
        SourceFormat::Text
    };
    let text = plain_lines(text);
    // Plain text holds no markup: what looks like it is the text's own; a
    // table of contents, printed as text, is left out as a page's is.
    // Markdown is read as a viewer shows it.
    let mut empty_headings = 0;
    let text = match source_format {
        SourceFormat::Text => {
            let (text, contents) = contents::drop_contents(&text);
            notes.extend(contents);
            let (text, index) = book_index::drop_index(&text);
            notes.extend(index);
            let text = clean::escape_markup(&text);
            match super::builder::detect_format(&text) {
                DocumentFormat::Numbered => text,
                _ => bullets::read(&text),
            }
        }
        _ => {
            let (text, left_out) = markdown::prepare(&text);
            notes.extend(left_out);
            let (text, index) = book_index::drop_index(&text);
            notes.extend(index);
            empty_headings = markdown::empty_headings(&text);
            match empty_headings {
                0 => text,
                _ => markdown::headings_as_text(&text),
            }
        }
    };
    Ok(Text {
        source_format,
        format: super::builder::detect_format(&text),
        text,
        decoded,
        notes,
        empty_headings,
    })
}

/// An upload's text: UTF-8 (a BOM is skipped later), UTF-16 with its
/// byte-order mark (as Windows saves "Unicode" text), an HTML page's
/// declared encoding ([`declared_decode`]), UTF-8 but for a few stray bytes
/// (each read as Windows-1252, and named in a note), or, when the bytes
/// are not UTF-8, Windows-1252 (Latin-1, as older editors save); how it
/// was read when not UTF-8, and the notes on stray bytes or on an unknown
/// declaration. Markdown and plain text declare nothing: `html` is false.
type Decoded<'a> = (std::borrow::Cow<'a, str>, Option<String>, Vec<String>);

fn decode(bytes: &[u8], html: bool) -> Decoded<'_> {
    if let Some((text, bad)) = bytes::utf32(bytes) {
        let notes = match bad {
            0 => Vec::new(),
            n => vec![format!(
                "{} of its UTF-32 text {} no character and {} as “�”",
                count(n, "unit"),
                if n == 1 { "is" } else { "are" },
                if n == 1 { "shows" } else { "show" }
            )],
        };
        let how = "read as UTF-32 text, as its byte-order mark says".to_string();
        return (text.into(), Some(how), notes);
    }
    if let Some((enc, _)) = encoding_rs::Encoding::for_bom(bytes)
        && enc != encoding_rs::UTF_8
    {
        let (text, _) = enc.decode_with_bom_removal(bytes);
        return (
            text,
            Some("read as UTF-16 text, as its byte-order mark says".into()),
            Vec::new(),
        );
    }
    let mut notes = Vec::new();
    let bom = encoding_rs::Encoding::for_bom(bytes).is_some();
    if html && !bom {
        match declared_decode(bytes) {
            Ok(Some(decoded)) => return decoded,
            Ok(None) => {}
            Err(note) => notes.push(note),
        }
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (text.into(), None, notes);
    }
    if let Some((text, stray)) = bytes::mostly_utf8(bytes) {
        notes.push(bytes::stray_note(&stray));
        return (text.into(), None, notes);
    }
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
    (
        text,
        Some(
            "not UTF-8: read as Windows-1252 (Latin-1); save it as UTF-8 if a character looks wrong"
                .into(),
        ),
        notes,
    )
}

/// An HTML page read in the encoding it declares ([`charset::declared`]),
/// said in the preview; `None` when it declares none, or UTF-8 (read as
/// any upload is), or when its bytes are UTF-8 all the same (decision: a
/// page's text that is valid UTF-8 with non-ASCII characters is UTF-8,
/// whatever it declares: Shift_JIS, GBK or KOI8-R text is almost never
/// valid UTF-8 by chance, while a page re-saved as UTF-8 often keeps its
/// old declaration; said too). An unknown label is an `Err` note naming it.
fn declared_decode(bytes: &[u8]) -> Result<Option<Decoded<'_>>, String> {
    let enc = match charset::declared(bytes) {
        None => return Ok(None),
        Some(charset::Declared::Unknown(label)) => {
            if charset::is_unsupported(&label) {
                return Err(format!(
                    "the page declares the character encoding “{label}”, which Arbiter does not read (browsers no longer do either): read as if it declared none; save the page as UTF-8 and send it again if its letters look wrong"
                ));
            }
            let near = charset::near_label(&label)
                .map(|l| format!(" (did you mean “{l}”?)"))
                .unwrap_or_default();
            return Err(format!(
                "the page declares the character encoding “{label}”, which is no encoding Arbiter knows{near}: read as if it declared none"
            ));
        }
        Some(charset::Declared::Known(enc)) => enc,
    };
    if enc == encoding_rs::UTF_8 {
        return Ok(None);
    }
    if let Ok(text) = std::str::from_utf8(bytes)
        && !text.is_ascii()
    {
        let note = format!(
            "the page declares the character encoding {}, but its text is UTF-8: read as UTF-8",
            enc.name()
        );
        return Ok(Some((text.into(), None, vec![note])));
    }
    let (text, malformed) = enc.decode_without_bom_handling(bytes);
    let how = match malformed {
        false => format!("read as {}, as the page declares", enc.name()),
        true => format!(
            "read as {}, as the page declares; some bytes are not {0} and show as “�”",
            enc.name()
        ),
    };
    Ok(Some((text, Some(how), Vec::new())))
}

/// Whether a file holding NUL bytes is text all the same: a few of them
/// (at most [`bytes::MAX_NULS`], dropped as hidden characters are) in
/// bytes that are otherwise UTF-8, or nearly so. A binary file holds more,
/// among bytes that are no UTF-8.
fn text_with_nuls(bytes: &[u8]) -> bool {
    bytes.iter().filter(|&&b| b == 0).count() <= bytes::MAX_NULS
        && (std::str::from_utf8(bytes).is_ok() || bytes::mostly_utf8(bytes).is_some())
}

/// What makes text with too many NULs a binary file, as a preview of
/// fewer names them: "(9 NUL bytes, the first at line:column 1:8; a text
/// may hold at most 8)". `None` when the rest is no text.
fn nuls_in_text(bytes: &[u8]) -> Option<String> {
    let without: Vec<u8> = bytes.iter().copied().filter(|&b| b != 0).collect();
    if std::str::from_utf8(&without).is_err() && bytes::mostly_utf8(&without).is_none() {
        return None;
    }
    let first = bytes.iter().position(|&b| b == 0)?;
    let before = String::from_utf8_lossy(&bytes[..first]);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let nuls = bytes.iter().filter(|&&b| b == 0).count();
    Some(format!(
        " ({}, the first at line:column {line}:{column}; a text may hold at most {}, which are left out)",
        count(nuls, "NUL byte"),
        bytes::MAX_NULS
    ))
}

/// Text with no markup (a PDF's): numbered text if it is numbered, else
/// Markdown with stand-alone title lines made headings.
fn from_text(source_format: SourceFormat, text: String) -> Text {
    let text = clean::escape_markup(&text);
    let format = super::builder::detect_format(&text);
    let text = match format {
        DocumentFormat::Numbered => text,
        _ => pdf::promote_headings(&bullets::read(&text)),
    };
    Text {
        source_format,
        format,
        text,
        decoded: None,
        notes: Vec::new(),
        empty_headings: 0,
    }
}

/// A file with NULs in its first 8 KB and no known format's start.
const BINARY: &str = "a binary file";

/// Common binary formats someone may send by mistake.
fn binary_kind(bytes: &[u8]) -> Option<&'static str> {
    magic_kind(bytes).or_else(|| early_nul(bytes).then_some(BINARY))
}

/// [`binary_kind`] for a document, which may hold a few NULs in text
/// ([`text_with_nuls`]); a data list may not.
fn document_binary_kind(bytes: &[u8]) -> Option<&'static str> {
    magic_kind(bytes).or_else(|| (early_nul(bytes) && !text_with_nuls(bytes)).then_some(BINARY))
}

/// The format a file's first bytes name.
fn magic_kind(bytes: &[u8]) -> Option<&'static str> {
    if is_epub(bytes) {
        return Some("an EPUB e-book");
    }
    const MAGIC: [(&[u8], &str); 7] = [
        (b"PK\x03\x04", "a ZIP archive (or a Word/OpenDocument file)"),
        (b"\x89PNG", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"\xd0\xcf\x11\xe0", "an old Microsoft Office file"),
        (b"\x1f\x8b", "a gzip archive"),
        (b"{\\rtf", "an RTF file"),
    ];
    MAGIC
        .iter()
        .find(|(m, _)| bytes.starts_with(m))
        .map(|&(_, what)| what)
}

/// What to send instead of a file that cannot be imported: a word
/// processor's file (Word's `.docx` and `.doc`, OpenDocument's `.odt`,
/// both ZIP archives or Office's old container, and RTF) with the steps
/// that export it; anything else, the formats read. A `.docx` was refused
/// naming the formats, not how to get one from Word or Google Docs.
fn how_to_send(bytes: &[u8]) -> &'static str {
    const WORD_PROCESSOR: [&[u8]; 3] = [b"PK\x03\x04", b"\xd0\xcf\x11\xe0", b"{\\rtf"];
    if is_epub(bytes) {
        return "Convert it to a PDF or plain text and send that: in Calibre, Convert books › Output format › PDF or TXT; or print it to PDF from an e-book reader. Markdown and HTML are read too.";
    }
    match WORD_PROCESSOR.iter().any(|m| bytes.starts_with(m)) {
        true => {
            "If it is a document, export it as a PDF or a web page and send that: in Word or LibreOffice, File › Save As (or Export) › PDF or Web Page (.html); in Google Docs, File › Download › PDF Document (.pdf), Markdown (.md) or Plain Text (.txt) (its Web Page (.html, zipped) is a ZIP archive too: unzip it and send the .html inside). Markdown and plain text are read too."
        }
        false => "Send Markdown, plain text, HTML or a PDF with a text layer.",
    }
}

/// Whether a ZIP archive is an EPUB: its first entry is `mimetype`,
/// stored uncompressed, holding `application/epub+zip` (the EPUB
/// container's rule, which lets a reader tell it from its first bytes).
/// An EPUB was named "a ZIP archive (or a Word/OpenDocument file)", with
/// Word's and LibreOffice's steps (found by an outside tester).
fn is_epub(bytes: &[u8]) -> bool {
    let field = |at: usize| -> usize {
        bytes
            .get(at..at + 2)
            .map_or(0, |b| usize::from(u16::from_le_bytes([b[0], b[1]])))
    };
    let (name_len, extra_len) = (field(26), field(28));
    let name = bytes.get(30..30 + name_len);
    let data = 30 + name_len + extra_len;
    bytes.starts_with(b"PK\x03\x04")
        && field(8) == 0
        && name == Some(b"mimetype".as_slice())
        && bytes
            .get(data..)
            .is_some_and(|d| d.starts_with(b"application/epub+zip"))
}

/// Whether a NUL stands in the first 8 KB.
fn early_nul(bytes: &[u8]) -> bool {
    bytes.iter().take(8192).any(|&b| b == 0)
}

/// The game an import belongs to: a known game by id, name or alias (the
/// document extends it), else a new id made from the name.
fn resolve_game(
    known: &Corpus,
    game: &str,
    kind: DocumentKind,
) -> Result<(String, String, bool), ImportError> {
    // A direction override or a control character in a game's name would
    // reorder or hide what follows it wherever the name is shown; taken
    // out, it left its visible rest ("\x1b[2J\x1b[31mAshes" became the
    // game "[2J[31mAshes"; found by an outside tester).
    hidden_character(game, "game's name", "game")?;
    if let Some(g) = known.resolve_game(game) {
        return Ok((g.id.clone(), g.name.clone(), false));
    }
    let base = short_slug(clean::slug(game));
    if base.is_empty() {
        return Err(ImportError::BadGame(game.to_string()));
    }
    // A new game's name is shown in every citation of its passages, as a
    // title is: plain words (`@everyone`, a masked link and a web address
    // were taken, found by an outside tester), as long at most (a 4,800-character name was taken from the
    // command line and the HTTP endpoint, where Discord's own limit does
    // not hold).
    if clean::holds_link(game) {
        return Err(ImportError::GameLink {
            game: game.trim().to_string(),
        });
    }
    let chars = game.trim().chars().count();
    if chars > MAX_TITLE_CHARS {
        return Err(ImportError::GameTooLong {
            start: game.trim().chars().take(40).collect(),
            chars,
        });
    }
    // Letters of another script that read as a loaded game's name would
    // cite the new game as that one ("Аshes Reborn" with a Cyrillic А;
    // found by an outside tester).
    if let Some(g) = look_alike_game(known, game) {
        return Err(ImportError::GameLookalike {
            typed: game.trim().to_string(),
            imitates: g.name.clone(),
            id: g.id.clone(),
        });
    }
    // A rulebook may start a game whose name is near a loaded one
    // ("Twilight Imperium 3"); an FAQ, errata, house rules or a card list
    // amend a game, so a name near a loaded one is that game misspelt.
    if kind != DocumentKind::Rules
        && let Some(suggestion) = near_game(known, game)
    {
        return Err(ImportError::GameTypo {
            typed: game.trim().to_string(),
            suggestion,
        });
    }
    // Two long names cut to the same id are two games.
    let mut id = base.clone();
    let mut n = 2;
    while known.game(&id).is_some() {
        id = format!("{base}-{n}");
        n += 1;
    }
    Ok((id, game.trim().to_string(), true))
}

/// The loaded game whose id, name or alias is one or two edits from
/// `typed` ("ashs", "Twilight Imperum"); names under 4 letters have none.
fn near_game(known: &Corpus, typed: &str) -> Option<String> {
    let key = crate::text::fold(typed);
    if key.chars().count() < 4 {
        return None;
    }
    let max = if key.chars().count() >= 10 { 2 } else { 1 };
    known
        .games
        .iter()
        .flat_map(|g| {
            [&g.id, &g.name]
                .into_iter()
                .chain(&g.aliases)
                .map(move |n| (g, crate::text::fold(n)))
        })
        // Another number is another game ("Twilight Imperium 3").
        .filter(|(_, n)| digits(n) == digits(&key))
        .filter_map(|(g, n)| Some((crate::text::edit_distance(&key, &n, max)?, g)))
        .filter(|(d, _)| *d > 0)
        .min_by_key(|(d, _)| *d)
        .map(|(_, g)| g.id.clone())
}

/// The loaded game whose id, name or alias reads as `typed`
/// ([`crate::text::reads_as`]: Unicode TR39 skeletons).
fn look_alike_game<'a>(known: &'a Corpus, typed: &str) -> Option<&'a crate::corpus::Game> {
    known.games.iter().find(|g| {
        [&g.id, &g.name]
            .into_iter()
            .chain(&g.aliases)
            .any(|n| crate::text::reads_as(typed, n))
    })
}

/// Refuses a control character, a format character (zero-width, direction
/// marks) or a direction control in `value`, naming its column (1-based,
/// in characters) and code point.
fn hidden_character(
    value: &str,
    field: &'static str,
    option: &'static str,
) -> Result<(), ImportError> {
    let at = value
        .chars()
        .enumerate()
        .find(|&(_, c)| c.is_control() || clean::is_hidden(c) || clean::is_format(c));
    match at {
        Some((i, c)) => Err(ImportError::HiddenCharacter {
            field: field.to_string(),
            option: option.to_string(),
            column: i + 1,
            code: format!("U+{:04X}", u32::from(c)),
        }),
        None => Ok(()),
    }
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// Most characters of a document's title: every answer citing the
/// document shows it in its citation path (an outside tester's title of
/// 5,000 characters pushed the quoted rule out of the reply).
pub const MAX_TITLE_CHARS: usize = 100;

/// Most characters of a new game's id or a document's slug: a passage id
/// (`game:slug.section.1`) must fit Discord's 100 characters of a button
/// or an autocomplete value, or it cannot be pressed or removed.
pub const MAX_SLUG_CHARS: usize = 32;

/// `slug` cut at a word (a `-`) within [`MAX_SLUG_CHARS`].
fn short_slug(slug: String) -> String {
    if slug.chars().count() <= MAX_SLUG_CHARS {
        return slug;
    }
    let cut: String = slug.chars().take(MAX_SLUG_CHARS).collect();
    match cut.rfind('-') {
        Some(i) if i > 0 => cut[..i].to_string(),
        _ => cut,
    }
}

/// A document slug from the title, unique among the game's documents and
/// its passage ids: a house rule titled "Attack a Unit" never takes or
/// shadows the shipped `ashes:attack-a-unit` (it becomes `attack-a-unit-2`),
/// decided here, before the preview, so that the ids previewed are stored.
fn unique_slug(known: &Corpus, game: &str, title: &str) -> String {
    let base = match short_slug(clean::slug(title)) {
        s if s.is_empty() => "document".to_string(),
        s => s,
    };
    let taken = |s: &str| {
        known
            .game(game)
            .is_some_and(|g| g.documents.iter().any(|d| d.slug == s))
            || known.has_id_under(&format!("{game}:{s}"))
            || known
                .data_documents
                .iter()
                .any(|(g, d)| g == game && d == s)
    };
    let mut slug = base.clone();
    let mut n = 2;
    while taken(&slug) {
        slug = format!("{base}-{n}");
        n += 1;
    }
    slug
}

/// A title from a file name: the stem, without a Notion id at its end
/// ([`without_notion_id`]), with `_`/`-` as spaces.
fn title_from_file(file_name: &str) -> String {
    let name = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let title = without_notion_id(stem).replace(['_', '-'], " ");
    match title.trim() {
        "" => "Imported document".to_string(),
        t => t.to_string(),
    }
}

/// Length of the page id Notion's export puts after every page's name
/// ("Ember Court Rules 3f2a9c0d1e2b4a5c8d7e6f5a4b3c2d1e.md").
const NOTION_ID_CHARS: usize = 32;

/// A file name's stem without the Notion page id at its end (a space, or
/// `_`/`-`, then 32 hexadecimal digits), when a name stands before it: the
/// id was the document's title and slug, in every citation's path
/// ("Notion Rules 3f2a9c0d…"). A stem that is only an id keeps it.
fn without_notion_id(stem: &str) -> &str {
    let Some((name, id)) = stem.rsplit_once([' ', '_', '-']) else {
        return stem;
    };
    let is_id = id.len() == NOTION_ID_CHARS && id.bytes().all(|b| b.is_ascii_hexdigit());
    match is_id && !name.trim().is_empty() {
        true => name,
        false => stem,
    }
}

/// Where an import goes: its game, document slug and title, decided
/// against the games Arbiter already knows before the file is read (a
/// conversion in a child process gets this and the bytes, nothing else).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Target {
    /// The file's name as sent.
    pub file_name: String,
    pub game: String,
    pub game_name: String,
    /// Whether the game is new (not one Arbiter already knows).
    pub new_game: bool,
    pub slug: String,
    pub title: String,
    pub kind: DocumentKind,
    /// The id prefix of the document this one replaces (`/rules add
    /// replace:`), kept so its passages keep their ids; `None` decides it
    /// as for a new document.
    #[serde(default)]
    pub id_prefix: Option<String>,
}

/// A document converted and previewed, as a conversion sends it back: the
/// manifest entry and text as stored, and the preview (without the
/// warnings that need the known games: `known_warnings`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Converted {
    pub manifest: DocumentManifest,
    pub text: String,
    pub preview: Preview,
}

impl Target {
    /// A preview of this target with nothing in it yet.
    fn preview(
        &self,
        source_format: SourceFormat,
        format: DocumentFormat,
        bytes: &[u8],
        source_sha256: String,
    ) -> Preview {
        Preview {
            game: self.game.clone(),
            game_name: self.game_name.clone(),
            new_game: self.new_game,
            document: self.slug.clone(),
            title: self.title.clone(),
            kind: self.kind,
            source_format,
            format,
            bytes: bytes.len(),
            source_sha256,
            passages: Vec::new(),
            cards: Vec::new(),
            entries: Vec::new(),
            rule_names: Vec::new(),
            amends: Vec::new(),
            warnings: Vec::new(),
            more_warnings: Vec::new(),
        }
    }
}

/// Decides where `req` goes among the known games (cheap: the file is not read).
pub fn target(known: &Corpus, req: &ImportRequest) -> Result<Target, ImportError> {
    let (game, game_name, new_game) = resolve_game(known, req.game, req.kind)?;
    if new_game && req.kind == DocumentKind::Slang {
        return Err(ImportError::SlangWithoutRules {
            game: game_name.trim().to_string(),
        });
    }
    if let Some(t) = req.title {
        hidden_character(t.trim(), "title", "title")?;
    }
    let title = req
        .title
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map_or_else(|| title_from_file(req.file_name), str::to_string);
    // On one line, without hidden or zero-width characters: a title is
    // in every answer's citation path.
    let title = match clean::tidy(&title) {
        t if t.is_empty() => title_from_file(req.file_name),
        t => t,
    };
    if clean::holds_link(&title) {
        return Err(ImportError::TitleLink { title });
    }
    let chars = title.chars().count();
    let given = req.title.is_some_and(|t| !t.trim().is_empty());
    if chars > MAX_TITLE_CHARS && given {
        return Err(ImportError::TitleTooLong {
            start: title.chars().take(40).collect(),
            chars,
        });
    }
    // One taken from the file's name, which nobody chose as a title, is
    // cut instead (found by a review).
    let title = match chars > MAX_TITLE_CHARS {
        true => {
            let cut: String = title.chars().take(MAX_TITLE_CHARS - 1).collect();
            format!("{}…", cut.trim_end())
        }
        false => title,
    };
    let slug = unique_slug(known, &game, &title);
    // A rulebook of a game that has none loaded (a server's rulebook
    // removed while its errata stay) owns the id space again, as the
    // first did: added back, its rules are `kitchen-table:1.1` again and
    // the errata naming them amend them again (they were prefixed,
    // `kitchen-table:core-rules.1.1`, and the amendments silently lost).
    let id_prefix =
        (req.kind.is_rules() && !new_game && !has_rulebook(known, &game)).then(String::new);
    Ok(Target {
        file_name: req.file_name.to_string(),
        game,
        game_name,
        new_game,
        slug,
        title,
        kind: req.kind,
        id_prefix,
    })
}

/// Whether a known game has a rules document loaded (shipped games do).
fn has_rulebook(known: &Corpus, game: &str) -> bool {
    known
        .game(game)
        .is_some_and(|g| g.documents.iter().any(|d| d.kind.is_rules()))
}

/// Converts a file and previews it against the games Arbiter already knows
/// (`known`): a new game, or a new document of a known one. In process:
/// untrusted files go through `app::sandbox` instead, which runs
/// [`convert_to`] in a child process.
pub fn import(known: &Corpus, req: &ImportRequest) -> Result<Import, ImportError> {
    let target = target(known, req)?;
    let converted = convert_to(&target, req.bytes)?;
    Ok(Import::new(known, &target, converted))
}

/// Reads the file's bytes for `target`: converts, parses and previews
/// them, and refuses output past [`MAX_TEXT_BYTES`], [`MAX_PASSAGES`] or
/// [`MAX_DEPTH`]. The part of an import that reads untrusted input.
pub fn convert_to(target: &Target, bytes: &[u8]) -> Result<Converted, ImportError> {
    let text = convert(&target.file_name, bytes)?;
    let file = || target.file_name.clone();
    if text.text.len() > MAX_TEXT_BYTES {
        return Err(ImportError::TooMuchText {
            file: file(),
            size: text.text.len(),
            limit: MAX_TEXT_BYTES,
        });
    }
    let slug = &target.slug;
    let ext = match text.format {
        DocumentFormat::Numbered => "txt",
        _ => "md",
    };
    let source_sha256 = sha256_hex(bytes);
    let manifest = DocumentManifest {
        file: format!("{slug}.{ext}"),
        sha256: Some(sha256_hex(text.text.as_bytes())),
        slug: slug.clone(),
        title: target.title.clone(),
        source: format!(
            "Imported from {} ({}, SHA-256 {source_sha256})",
            target.file_name,
            text.source_format.as_str()
        ),
        format: text.format,
        kind: target.kind,
        // A new game's rules own the id space (`mtg:702.19b`); anything added
        // to a game is prefixed with its slug so it never takes a live id.
        id_prefix: match &target.id_prefix {
            Some(kept) => kept.clone(),
            None if target.new_game && target.kind.is_rules() => String::new(),
            None => slug.clone(),
        },
        ..DocumentManifest::default()
    };
    let source = one_document_game(
        &target.game,
        &target.game_name,
        manifest.clone(),
        text.text.clone(),
    );
    let built = Corpus::build(vec![source]);
    check_shape(&target.file_name, &built)?;
    let (mut warnings, more_warnings) = built_warnings(&built);
    shape_warnings(&built, text.empty_headings, &mut warnings);
    warnings.extend(left_out_headings(&built));
    warnings.extend(
        text.decoded
            .as_ref()
            .map(|d| format!("{}: {d}", target.file_name)),
    );
    let file = &target.file_name;
    warnings.extend(text.notes.iter().map(|n| format!("{file}: {n}")));
    // An FAQ, errata or house rules for a game nobody added the rules of
    // amends nothing: it starts a game of its own.
    if target.new_game && !target.kind.is_rules() {
        warnings.push(format!(
            "no game here is named “{}”: this document starts a game of its own with no rulebook, and amends nothing; check the game's name, or add its rulebook",
            target.game_name
        ));
    }
    let rule_names = match target.kind.is_rules() {
        true => Vec::new(),
        false => (0..built.passages.len())
            .map(|i| (built.passages[i].id.clone(), built.rule_names(i)))
            .filter(|(_, names)| !names.is_empty())
            .collect(),
    };
    let preview = Preview {
        passages: entries(&built),
        rule_names,
        warnings,
        more_warnings,
        ..target.preview(text.source_format, text.format, bytes, source_sha256)
    };
    Ok(Converted {
        manifest,
        text: text.text,
        preview,
    })
}

/// Refuses a parsed document with more passages than [`MAX_PASSAGES`] or
/// deeper than [`MAX_DEPTH`].
fn check_shape(file: &str, built: &Corpus) -> Result<(), ImportError> {
    let count = built.passages.len().saturating_sub(1);
    if count > MAX_PASSAGES {
        return Err(ImportError::TooManyPassages {
            file: file.to_string(),
            count,
            limit: MAX_PASSAGES,
        });
    }
    let deepest = (0..built.passages.len()).max_by_key(|&i| built.depth(i));
    if let Some(i) = deepest.filter(|&i| built.depth(i) > MAX_DEPTH) {
        return Err(ImportError::TooDeep {
            file: file.to_string(),
            depth: built.depth(i),
            limit: MAX_DEPTH,
            title: short(&built.passages[i].title, 40),
        });
    }
    Ok(())
}

impl Import {
    /// A converted document as it goes live, its preview warned of ids
    /// the known games already use.
    pub fn new(known: &Corpus, target: &Target, converted: Converted) -> Import {
        let Converted {
            manifest,
            text,
            mut preview,
        } = converted;
        preview.warnings.extend(known_warnings(known, &preview));
        preview.amends = amends::amended_rules(known, &preview);
        if preview.kind == DocumentKind::Errata && preview.amends.is_empty() && !preview.new_game {
            preview.warnings.push(format!(
                "this errata amends no rule of {}: none of its passages names one (“See rule 1.1: …”, “Rule 1.1 now reads: …”, a heading “1.1 Opening hand”, or the id written out, `{}:1.1`), so answers will not show it beside the rule it corrects",
                preview.game_name, preview.game
            ));
        }
        let (named, more) = amends::name_warnings(known, &preview);
        preview.warnings.extend(named);
        preview.more_warnings.extend(more);
        let earlier = amends::earlier_errata(known, &preview);
        preview.warnings.extend(earlier);
        Import {
            game: one_document_game(&target.game, &target.game_name, manifest, text),
            preview,
        }
    }
}

/// A data document already read by its own parser (a card list): the
/// bytes as sent, the text as stored (`ext` its extension), what the
/// preview lists and the parser's warnings. Named and attached to a game
/// as [`import`] does; it adds no passages.
pub struct DataDocument {
    pub text: String,
    pub ext: &'static str,
    pub items: Vec<String>,
    pub warnings: Vec<String>,
}

/// The bytes of a data document as text, refused as [`convert`] refuses
/// (too large, empty, binary, not UTF-8). UTF-16 with its byte-order mark
/// is text, as it is for documents: Excel's "Unicode Text" saves a
/// spreadsheet so (it was refused as a binary file for its NULs).
pub fn data_text<'a>(
    file_name: &str,
    bytes: &'a [u8],
) -> Result<std::borrow::Cow<'a, str>, ImportError> {
    let file = file_name.to_string();
    size_check(&file, bytes)?;
    if let Some((enc, _)) = encoding_rs::Encoding::for_bom(bytes)
        && enc != encoding_rs::UTF_8
    {
        let (text, _) = enc.decode_with_bom_removal(bytes);
        return Ok(text);
    }
    if pdf::is_pdf(bytes) {
        return Err(ImportError::NotAList {
            file,
            what: "a PDF".into(),
        });
    }
    if let Some(what) = binary_kind(bytes) {
        let what = what.to_string();
        return Err(ImportError::NotAList { file, what });
    }
    std::str::from_utf8(bytes)
        .map(std::borrow::Cow::Borrowed)
        .map_err(|e| ImportError::NotUtf8 {
            file,
            offset: e.valid_up_to(),
        })
}

/// A game holding one document (as an import writes it), with an empty glossary.
fn one_document_game(
    game: &str,
    game_name: &str,
    manifest: DocumentManifest,
    text: String,
) -> SourceGame {
    SourceGame {
        manifest: GameManifest {
            game: game.to_string(),
            name: game_name.to_string(),
            aliases: Vec::new(),
            glossary: Some("glossary.yaml".into()),
            documents: vec![manifest.clone()],
        },
        glossary: Glossary::default(),
        documents: vec![SourceDocument { manifest, text }],
    }
}

/// A data document (a card list, a slang list) as a document of its game;
/// see [`DataDocument`].
pub fn import_data(
    known: &Corpus,
    req: &ImportRequest,
    data: DataDocument,
) -> Result<Import, ImportError> {
    let target = target(known, req)?;
    Ok(Import::new(
        known,
        &target,
        data_to(&target, req.bytes, data),
    ))
}

/// A data document read for `target` (from `bytes`, as sent), ready to be
/// sent back from a conversion; see [`DataDocument`].
pub fn data_to(target: &Target, bytes: &[u8], data: DataDocument) -> Converted {
    let slug = &target.slug;
    let source_sha256 = sha256_hex(bytes);
    let manifest = DocumentManifest {
        file: format!("{slug}.{}", data.ext),
        sha256: Some(sha256_hex(data.text.as_bytes())),
        slug: slug.clone(),
        title: target.title.clone(),
        source: format!(
            "Imported from {} (SHA-256 {source_sha256})",
            target.file_name
        ),
        kind: target.kind,
        ..DocumentManifest::default()
    };
    let (cards, entries) = match target.kind {
        DocumentKind::Slang => (Vec::new(), data.items),
        _ => (data.items, Vec::new()),
    };
    let preview = Preview {
        cards,
        entries,
        warnings: data.warnings,
        ..target.preview(
            SourceFormat::Text,
            DocumentFormat::Auto,
            bytes,
            source_sha256,
        )
    };
    Converted {
        manifest,
        text: data.text,
        preview,
    }
}

/// At most `max` characters of a line, with … when cut.
fn short(line: &str, max: usize) -> String {
    let line = line.trim();
    match line.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

/// The passages a preview lists: all but the document's own, unless that
/// is the only one (a document with no structure is one passage).
fn entries(built: &Corpus) -> Vec<PreviewEntry> {
    let whole = built.passages.len() == 1;
    built
        .passages
        .iter()
        .enumerate()
        .filter(|(_, p)| whole || p.kind != PassageKind::Document)
        .map(|(i, p)| PreviewEntry {
            id: p.id.clone(),
            kind: p.kind,
            title: p.title.clone(),
            depth: built.depth(i),
        })
        .collect()
}

/// The parsers' warnings (duplicate ids, unclosed blocks), the first
/// [`WARNINGS_PER_KIND`] of each kind and the rest counted, then the
/// import's own: no structure, text outside any section.
fn built_warnings(built: &Corpus) -> (Vec<String>, Vec<MoreWarnings>) {
    let mut out = Vec::new();
    let mut seen: Vec<(WarningKind, usize)> = Vec::new();
    for w in &built.warnings {
        let at = match seen.iter().position(|(k, _)| *k == w.kind) {
            Some(at) => at,
            None => {
                seen.push((w.kind, 0));
                seen.len() - 1
            }
        };
        seen[at].1 += 1;
        if seen[at].1 <= WARNINGS_PER_KIND {
            out.push(match w.line {
                0 => w.message.clone(),
                line => format!("line {line}: {}", w.message),
            });
        }
    }
    let more = seen
        .into_iter()
        .filter(|(_, n)| *n > WARNINGS_PER_KIND)
        .map(|(kind, n)| MoreWarnings {
            what: kind.plural().to_string(),
            count: n - WARNINGS_PER_KIND,
        })
        .collect();
    (out, more)
}

/// The headings left out for holding no text and no section with text
/// ("## Chapter One" right above "## Section A"), named.
fn left_out_headings(built: &Corpus) -> Option<String> {
    let titles = &built.empty_headings;
    if titles.is_empty() {
        return None;
    }
    let shown: Vec<String> = titles
        .iter()
        .take(SAMPLE_LINES)
        .map(|t| format!("“{}”", short(t, 60)))
        .collect();
    let more = match titles.len().saturating_sub(SAMPLE_LINES) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    Some(format!(
        "left out {} with no text under {} (nothing to quote): {}{more}",
        count(titles.len(), "heading"),
        if titles.len() == 1 { "it" } else { "them" },
        shown.join(", ")
    ))
}

/// The import's own warnings: no structure (or headings with no text
/// under any: `empty_headings` of them), text outside any section.
fn shape_warnings(built: &Corpus, empty_headings: usize, out: &mut Vec<String>) {
    let Some(root) = built.passages.first() else {
        return;
    };
    if built.passages.len() == 1 && empty_headings > 0 {
        out.push(format!(
            "{} but no text under any of {}, so the document has no sections: {} kept as its text, one passage",
            count(empty_headings, "heading"),
            if empty_headings == 1 { "it" } else { "them" },
            if empty_headings == 1 { "its words are" } else { "their words are" },
        ));
    } else if built.passages.len() == 1 {
        out.push(
            "no recognisable structure: no headings, numbered rules or lists were found, so the whole document is one passage".into(),
        );
    } else if !root.text.is_empty() {
        let lines: Vec<&str> = root.text.lines().filter(|l| !l.trim().is_empty()).collect();
        let sample: Vec<String> = lines
            .iter()
            .take(SAMPLE_LINES)
            .map(|l| format!("“{}”", short(l, 60)))
            .collect();
        out.push(format!(
            "{} {} before any heading or numbered rule and {} kept as the document's introduction: {}",
            count(lines.len(), "line"),
            if lines.len() == 1 { "comes" } else { "come" },
            if lines.len() == 1 { "is" } else { "are" },
            sample.join(", ")
        ));
    }
}

/// Passage ids of the preview that the known games already use.
fn known_warnings(known: &Corpus, preview: &Preview) -> Option<String> {
    let taken: Vec<&str> = preview
        .passages
        .iter()
        .filter(|p| known.get(&p.id).is_some())
        .map(|p| p.id.as_str())
        .collect();
    if taken.is_empty() {
        return None;
    }
    Some(format!(
        "{} already {} in this game and would be ambiguous: {}",
        count(taken.len(), "passage id"),
        if taken.len() == 1 { "exists" } else { "exist" },
        taken.iter().take(5).copied().collect::<Vec<_>>().join(", ")
    ))
}
