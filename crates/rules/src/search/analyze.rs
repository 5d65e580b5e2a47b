//! Text analysis shared by indexing and querying.

use std::borrow::Cow;

use bm25::{Language, Tokenizer};

use super::lexicon::Lexicon;
use super::{english, levers};

/// English analysis: Unicode normalisation, lower case and Snowball stemming
/// (the `bm25` crate's default tokenizer), with our own short stop list:
/// NLTK's drops words rules depend on ("same", "more", "once", "before").
pub struct Analyzer {
    inner: bm25::DefaultTokenizer,
    stemmer: rust_stemmers::Stemmer,
    /// Every word form seen by [`Analyzer::learn_stems`] with its stem, so
    /// questions rarely run the stemmer (~3,600 instructions a word), and
    /// the index's terms.
    lexicon: Lexicon,
}

const STOP: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "if", "then", "so", "of", "to", "in", "on", "at", "by",
    "for", "with", "from", "as", "into", "onto", "is", "are", "was", "were", "be", "been", "being",
    "am", "do", "does", "did", "doing", "has", "have", "had", "having", "i", "me", "my", "mine",
    "myself", "you", "your", "yours", "he", "him", "his", "she", "her", "hers", "it", "its",
    "itself", "we", "us", "our", "they", "them", "their", "theirs", "this", "that", "these",
    "those", "there", "here", "what", "which", "who", "whom", "whose", "when", "where", "why",
    "how", "can", "will", "shall", "would", "should", "could", "may", "might", "just", "about",
    "s", "t", "d", "ll", "ve", "re", "m",
];

/// A text that is one ASCII word (letters and digits only), lower-cased:
/// what the tokenizer makes of it (normalisation leaves ASCII as it is, and
/// Unicode word segmentation does not split a run of letters and digits).
fn plain_word(text: &str) -> Option<String> {
    (!text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric()))
        .then(|| text.to_ascii_lowercase())
}

/// Where Japanese and Chinese text has its words: a space at every change
/// between Hiragana, Katakana and Han (and to or from any other letter),
/// and format characters (a zero-width space inside "Block\u{200B}ade")
/// left out. Unspaced Japanese writes a term in Katakana between Hiragana
/// particles ("ターンにカードを引かない"): the tokenizer transliterates each
/// run whole, so "カード" was indexed as part of "nikadowo" and never found.
/// Han characters are transliterated one by one already.
pub fn script_words(text: &str) -> Cow<'_, str> {
    let special = |c: char| script(c) != Script::Other || crate::text::is_format(c);
    if !text.chars().any(special) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut last = Script::Other;
    for c in text.chars() {
        if crate::text::is_format(c) {
            continue;
        }
        let mut now = script(c);
        // The prolonged sound mark (ー) and iteration marks belong to the
        // run they follow.
        if matches!(
            c,
            '\u{30FC}' | '\u{3005}' | '\u{309D}' | '\u{309E}' | '\u{30FD}' | '\u{30FE}'
        ) && last != Script::Other
        {
            now = last;
        }
        if now != last && (now != Script::Other || last != Script::Other) && c.is_alphanumeric() {
            out.push(' ');
        }
        if !c.is_alphanumeric() {
            now = Script::Other;
        }
        out.push(c);
        last = now;
    }
    Cow::Owned(out)
}

/// The scripts [`script_words`] separates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Hiragana,
    Katakana,
    Han,
    Other,
}

fn script(c: char) -> Script {
    match c {
        '\u{3040}'..='\u{309F}' => Script::Hiragana,
        '\u{30A0}'..='\u{30FF}' | '\u{31F0}'..='\u{31FF}' | '\u{FF66}'..='\u{FF9F}' => {
            Script::Katakana
        }
        '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' => Script::Han,
        _ => Script::Other,
    }
}

/// Whether a question's word, absent from the searched game's rules but in
/// another game's, is no topic to name in the caveat: a number in digits
/// (rules write "two actions", a player "the 2 actions") or a word of
/// plain speech any text may do without ("no", "once"). Its weight is
/// nothing all the same.
pub fn is_plain_filler(word: &str) -> bool {
    const PLAIN: &[&str] = &[
        "again", "also", "even", "ever", "just", "never", "no", "not", "once", "only", "still",
        "yes",
    ];
    word.chars().all(|c| c.is_ascii_digit()) || PLAIN.contains(&word)
}

/// Whether a token (lower case) is on the stop list: a function word
/// ("the", "you", "may").
pub fn is_stop(token: &str) -> bool {
    static SORTED: std::sync::OnceLock<Vec<&str>> = std::sync::OnceLock::new();
    let sorted = SORTED.get_or_init(|| {
        let mut v = STOP.to_vec();
        v.sort_unstable();
        v
    });
    sorted.binary_search(&token).is_ok()
}

impl Default for Analyzer {
    fn default() -> Self {
        Self::new()
    }
}

impl Analyzer {
    pub fn new() -> Analyzer {
        let inner = bm25::DefaultTokenizer::builder()
            .language_mode(Language::English)
            .normalization(true)
            .stemming(false)
            .stopwords(false)
            .build();
        Analyzer {
            inner,
            stemmer: rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English),
            lexicon: Lexicon::default(),
        }
    }

    pub fn tokens(&self, text: &str) -> Vec<String> {
        let mut tokens = self.stems(text);
        add_base_forms(&mut tokens);
        tokens
    }

    /// The stemmed words of a text, stop words removed, in order (without
    /// `add_base_forms`). Context-free across sentence ends: the stems of a
    /// text are those of its sentences, one after the other.
    pub fn stems(&self, text: &str) -> Vec<String> {
        let mut words = self.split(text);
        die_senses(&mut words);
        words
            .into_iter()
            .filter(|t| !is_stop(t))
            .map(|t| self.stem(&t).into_owned())
            .collect()
    }

    /// Lower-cased, normalised words (the `bm25` tokenizer, no stemming).
    /// One plain word skips the tokenizer's normalisation and Unicode word
    /// segmentation: most of a question's analysis is single words.
    fn split(&self, text: &str) -> Vec<String> {
        match plain_word(text) {
            Some(word) => vec![word],
            None => self.inner.tokenize(&script_words(&symbol_words(text))),
        }
    }

    pub fn lexicon(&self) -> &Lexicon {
        &self.lexicon
    }

    pub fn lexicon_mut(&mut self) -> &mut Lexicon {
        &mut self.lexicon
    }

    /// [`Analyzer::stems`], remembering each word form's stem for later
    /// texts (the same stems: a table of the stemmer's answers).
    pub fn learn_stems(&mut self, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut words = self.split(text);
        die_senses(&mut words);
        for t in words {
            if is_stop(&t) {
                continue;
            }
            let stem = match self.lexicon.stem(&t) {
                Some(s) => s.to_string(),
                None => {
                    let s = self.stemmer.stem(&t).into_owned();
                    self.lexicon.learn(&t, &s);
                    s
                }
            };
            out.push(stem);
        }
        out
    }

    fn stem<'a>(&'a self, token: &'a str) -> Cow<'a, str> {
        match self.lexicon.stem(token) {
            Some(s) => Cow::Borrowed(s),
            None => self.stemmer.stem(token),
        }
    }
}

/// Words before "die" that make it one of the dice: "a die", "the planar
/// die", "a six-sided die", "a basic die" (sorted: searched by halves).
const DIE_NOUN_BEFORE: &[&str] = &[
    "a",
    "an",
    "another",
    "any",
    "basic",
    "ceremonial",
    "charm",
    "class",
    "control",
    "divine",
    "each",
    "her",
    "his",
    "illusion",
    "its",
    "my",
    "natural",
    "nature",
    "one",
    "other",
    "party",
    "planar",
    "power",
    "same",
    "sided",
    "single",
    "sympathy",
    "the",
    "their",
    "time",
    "your",
];

/// Words after "die" that make it one of the dice: "die roll", "die result".
const DIE_NOUN_AFTER: &[&str] = &[
    "face", "faces", "result", "results", "roll", "rolled", "rolls", "showing", "shows", "side",
    "sides",
];

/// "die" the noun is read as "dice", so that it no longer shares the
/// verb's stem: "does it die" is about dying ("dies", 700.4 in Magic), not
/// about "a d20 is a twenty-sided die". The noun is told by its neighbour
/// (a determiner or a kind of die before it, "roll" or "result" after);
/// anything else is the verb ("would die", "does the 5/5 die"). Applied
/// alike to indexed text and to questions.
pub fn die_senses(words: &mut [String]) {
    for i in 0..words.len() {
        if words[i] != "die" {
            continue;
        }
        let before = i.checked_sub(1).map(|j| words[j].as_str());
        let after = words.get(i + 1).map(String::as_str);
        let noun = before.is_some_and(|w| DIE_NOUN_BEFORE.binary_search(&w).is_ok())
            || after.is_some_and(|w| DIE_NOUN_AFTER.binary_search(&w).is_ok());
        if noun {
            words[i] = "dice".to_string();
        }
    }
}

/// Stems that start with "un" without being "un" and a word.
const NOT_PREFIXED: &[&str] = &[
    "under", "uniqu", "union", "unit", "univers", "unless", "until",
];

/// "unexhausted" is about exhaustion too, and "untapped" about tapping:
/// appends the base of every "un…" stem.
pub fn add_base_forms(tokens: &mut Vec<String>) {
    let extra: Vec<String> = tokens
        .iter()
        .filter_map(|t| {
            t.strip_prefix("un")
                .filter(|rest| rest.len() >= 3 && !NOT_PREFIXED.contains(&t.as_str()))
                .map(str::to_string)
        })
        .collect();
    tokens.extend(extra);
}

/// Text that is already analysed: tokens separated by single spaces.
#[derive(Default)]
pub struct PreTokenized;

impl Tokenizer for PreTokenized {
    fn tokenize(&self, input_text: &str) -> Vec<String> {
        input_text
            .split(' ')
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    }
}

/// Chat abbreviations and their words, sorted (searched by halves).
const ABBREVIATIONS: &[(&str, &str)] = &[
    ("abil", "ability"),
    ("abils", "abilities"),
    ("amt", "amount"),
    ("atk", "attack"),
    ("atks", "attacks"),
    ("b4", "before"),
    ("def", "defense"),
    ("dmg", "damage"),
    ("eff", "effect"),
    ("lvl", "level"),
    ("max", "maximum"),
    ("min", "minimum"),
    ("num", "number"),
    ("opp", "opponent"),
    ("oppo", "opponent"),
    ("opps", "opponents"),
    ("plyr", "player"),
    ("plyrs", "players"),
    ("prio", "priority"),
    ("pts", "points"),
    ("req", "requirement"),
    ("reqs", "requirements"),
    ("resp", "response"),
];

/// What a common chat abbreviation stands for ("max" → maximum, "dmg" →
/// damage, "opp" → opponent), in any game: questions use them where rules
/// never do. Only for a word no indexed rule uses (a rulebook that writes
/// "max" keeps its own word), and reported as a reading. A game's own
/// slang ("pb", "gy") is its glossary's (docs/RULES_DATA.md).
pub fn abbreviation(word: &str) -> Option<&'static str> {
    ABBREVIATIONS
        .binary_search_by_key(&word, |(short, _)| short)
        .ok()
        .map(|i| ABBREVIATIONS[i].1)
}

/// Words of questions that carry no rules content ("how many", "am I allowed
/// to", "what is the rule for"). Dropped from queries only, never from text.
pub fn is_question_filler(word: &str) -> bool {
    const FILLER: &[&str] = &[
        "many",
        "much",
        "get",
        "gets",
        "got",
        "getting",
        "allowed",
        "allow",
        "kind",
        "kinds",
        "happen",
        "happens",
        "happened",
        "work",
        "works",
        "able",
        "way",
        "ways",
        "need",
        "needs",
        "let",
        "lets",
        "say",
        "says",
        "said",
        "still",
        "ok",
        "okay",
        "possible",
        "exactly",
        "actually",
        "really",
        "also",
        "like",
        "want",
        "wants",
        "go",
        "goes",
        "going",
        "thing",
        "things",
        "someone",
        "something",
        "anything",
        "everything",
        "several",
        "somebody",
        "else",
        "elses",
        "mean",
        "means",
        "rule",
        "rules",
        "ruling",
        "question",
        "know",
        "tell",
        "please",
        "right",
        "correct",
        "supposed",
        "hey",
        "guys",
        "anyone",
        "wondering",
        "happening",
        "turned",
        "out",
        "vs",
        "while",
        "whilst",
        "though",
        "although",
        "since",
        "because",
        "versus",
        "whats",
        "what's",
        "hows",
        "whos",
        "i'm",
        "im",
        "dont",
        "doesnt",
        "doesn't",
        "don't",
        "cant",
        "can't",
        "isnt",
        "isn't",
        "hasnt",
        "hasn't",
        "havent",
        "haven't",
        "wasnt",
        "wasn't",
        "arent",
        "aren't",
        "didnt",
        "didn't",
        "wont",
        "won't",
        "would",
        "could",
        "should",
        "might",
        // Chat words.
        "yo",
        "lol",
        "lmao",
        "pls",
        "plz",
        "tho",
        "rn",
        "ngl",
        "bro",
        "btw",
        "idk",
        "imo",
        "imho",
        "iirc",
        "afaik",
        "tbh",
        "ty",
        "thx",
        "thanks",
        "hi",
        "hello",
        "quick",
        "dumb",
        "stupid",
        "noob",
        "newbie",
        "help",
        "confused",
        "literally",
        "basically",
        "just",
        "ever",
        "exactly",
        "diff",
        "difference",
        "legal",
        "sure",
        "wait",
        "um",
        "uh",
        "ok",
    ];
    FILLER.contains(&word)
}

/// Drops contraction endings ("i've" → "i", "opponent's" → "opponent");
/// negations ("doesn't") carry nothing a ranking can use: `None`.
pub fn strip_contraction(word: &str) -> Option<&str> {
    match word.find(['\'', '’']) {
        None => Some(word),
        Some(i) => {
            let quote_len = word[i..].chars().next().map_or(1, char::len_utf8);
            let (head, tail) = (&word[..i], &word[i + quote_len..]);
            if tail == "t" { None } else { Some(head) }
        }
    }
}

/// Other forms of a word with common English suffixes removed, for matching
/// inflections the stemmer keeps apart. An agent noun also gives its verb
/// with a final "e" ("striker" → strike, "trampler" → trample; "blocker" →
/// block comes from the suffix alone).
pub fn variants(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    for suffix in ["ers", "er", "ed", "d", "ing", "es", "s"] {
        if let Some(stem) = word.strip_suffix(suffix)
            && stem.len() >= 3
        {
            out.push(stem.to_string());
            if matches!(suffix, "ers" | "er") && levers::get().agent_nouns {
                out.push(format!("{stem}e"));
            }
        }
    }
    out
}

/// Symbols games print, kept as words the tokenizer does not split or drop:
/// "+1/+1" → `plus1plus1`, "-1/-1" → `minus1minus1`, a power/toughness
/// "0/1" → `pt0x1` ("*/*" → `ptstarxstar`), "{T}" → `tapsymbol`, "{Q}" →
/// `untapsymbol`, hybrid "{W/U}" → `hybridsymbol`, Phyrexian "{W/P}" →
/// `phyrexiansymbol`. The same rewrite runs on indexed text and questions.
pub fn symbol_words(text: &str) -> Cow<'_, str> {
    if !levers::get().symbols || !text.contains(['/', '{']) {
        return Cow::Borrowed(text);
    }
    static PT: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    static BRACED: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let pt = PT.get_or_init(|| {
        regex::Regex::new(r"(^|[^\w/{])([+-]?)(\d{1,2}|[Xx*])/([+-]?)(\d{1,2}|[Xx*])($|[^\w/])")
            .expect("a valid pattern")
    });
    let braced = BRACED.get_or_init(|| {
        regex::Regex::new(r"\{([TtQq]|[WUBRGC2]/[Pp]|[WUBRG2]/[WUBRG])\}").expect("a valid pattern")
    });
    let text = braced.replace_all(text, |c: &regex::Captures| {
        let s = c[1].to_ascii_uppercase();
        let word = match s.as_str() {
            "T" => "tapsymbol",
            "Q" => "untapsymbol",
            _ if s.ends_with("/P") => "phyrexiansymbol",
            _ => "hybridsymbol",
        };
        format!(" {word} ")
    });
    let out = pt.replace_all(&text, |c: &regex::Captures| {
        let part = |sign: &str, n: &str| {
            let n = if n == "*" {
                "star".to_string()
            } else {
                n.to_ascii_lowercase()
            };
            match sign {
                "+" => format!("plus{n}"),
                "-" => format!("minus{n}"),
                _ => n,
            }
        };
        let (a, b) = (part(&c[2], &c[3]), part(&c[4], &c[5]));
        if c[2].is_empty() && c[4].is_empty() {
            format!("{} pt{a}x{b} {}", &c[1], &c[6])
        } else {
            format!("{} {a}{b} {}", &c[1], &c[6])
        }
    });
    Cow::Owned(out.into_owned())
}

/// A word [`symbol_words`] made, as the symbol it stands for ("-3/-3" for
/// `minus3minus3`, "0/1" for `pt0x1`, "{T}" for `tapsymbol`), for a reply
/// that names a question's words; any other word as it is.
pub fn symbol_shown(word: &str) -> Cow<'_, str> {
    static PAIR: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let pair = PAIR.get_or_init(|| {
        regex::Regex::new(r"^(?:(plus|minus)(\d{1,2}|x|star)(plus|minus)(\d{1,2}|x|star)|pt(\d{1,2}|x|star)x(\d{1,2}|x|star))$")
            .expect("a valid pattern")
    });
    match word {
        "tapsymbol" => return Cow::Borrowed("{T}"),
        "untapsymbol" => return Cow::Borrowed("{Q}"),
        "phyrexiansymbol" => return Cow::Borrowed("a Phyrexian mana symbol"),
        "hybridsymbol" => return Cow::Borrowed("a hybrid mana symbol"),
        _ => {}
    }
    let Some(c) = pair.captures(word) else {
        return Cow::Borrowed(word);
    };
    let n = |m: Option<regex::Match>| match m.map_or("", |m| m.as_str()) {
        "star" => "*".to_string(),
        "x" => "X".to_string(),
        other => other.to_string(),
    };
    let sign = |m: Option<regex::Match>| match m.map_or("", |m| m.as_str()) {
        "plus" => "+",
        "minus" => "-",
        _ => "",
    };
    Cow::Owned(if c.get(5).is_some() {
        format!("{}/{}", n(c.get(5)), n(c.get(6)))
    } else {
        format!(
            "{}{}/{}{}",
            sign(c.get(1)),
            n(c.get(2)),
            sign(c.get(3)),
            n(c.get(4))
        )
    })
}

/// Whether a word is one [`symbol_words`] made (never a typo to repair).
pub fn is_symbol_word(word: &str) -> bool {
    word.ends_with("symbol") && !english::is_word(word)
        || (word.starts_with("plus") || word.starts_with("minus") || word.starts_with("pt"))
            && word.chars().any(|c| c.is_ascii_digit() || c == 'x')
}

/// A word of a question, lower-cased, and whether it was written with a
/// capital inside a sentence (a card or unit name: never "repaired").
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    pub text: String,
    pub proper: bool,
}

/// The words of a question, as [`words`] splits them, with capitalisation.
pub fn question_words(text: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut sentence_start = true;
    for raw in text.split(|c: char| c.is_whitespace()) {
        for piece in
            raw.split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '\'' || c == '’'))
        {
            let w = piece.trim_matches(|c: char| c == '.' || c == '\'' || c == '’');
            if w.is_empty() {
                continue;
            }
            let proper = !sentence_start && w.chars().next().is_some_and(char::is_uppercase);
            out.push(Word {
                text: w.to_lowercase(),
                proper,
            });
            sentence_start = false;
        }
        if raw.ends_with(['.', '?', '!', ':', ';']) {
            sentence_start = true;
        }
    }
    let mut texts: Vec<String> = out.iter().map(|w| w.text.clone()).collect();
    die_senses(&mut texts);
    for (w, text) in out.iter_mut().zip(texts) {
        w.text = text;
    }
    out
}

/// Lower-case words of a text, punctuation removed (for phrase matching).
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '.' || c == '\'' || c == '’'))
        .map(|w| {
            w.trim_matches(|c: char| c == '.' || c == '\'' || c == '’')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether the sentence starting at byte `start` of `text` belongs to an
/// example: its line opens with "Example" (MTG's "Example: …", the five
/// games' "Example 1 …", each of its sentences), or the sentence itself
/// with "For example" or "Example".
///
/// The sentence's line starts at byte `line`: sentences taken in order
/// find it without searching back (a passage of one long line would be
/// searched again for each sentence).
pub fn in_example(text: &str, line: usize, start: usize) -> bool {
    let opens = |s: &str| {
        let s = s.trim_start();
        s.starts_with("Example") || s.starts_with("For example")
    };
    opens(&text[line..]) || opens(&text[start..])
}

/// Splits text into sentences (and lines), keeping each sentence verbatim:
/// their byte ranges.
pub fn sentence_ranges(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut start = 0;
    let mut out = Vec::new();
    // Inside a quotation ("Cascade" means "When you cast this spell, exile
    // … value. You may cast …"), a full stop does not end the sentence
    // that quotes; the quotation's closing mark after it does.
    let mut quoted = false;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let after = i + c.len_utf8();
        let end_here = match c {
            '\n' => {
                quoted = false;
                true
            }
            // A straight quote opens a quotation only when another closes
            // it on the same line: an inch mark ("Range 6\" or less. Then
            // …") does not join the rest of the line into one sentence.
            '"' if !quoted => {
                // Up to the next quote or line end only: linear in the text.
                quoted = text[after..]
                    .find(['"', '\n'])
                    .is_some_and(|at| text[after + at..].starts_with('"'));
                false
            }
            '"' => {
                quoted = false;
                closes_sentence(text, start, i) && next.is_none_or(char::is_whitespace)
            }
            '“' => {
                quoted = true;
                false
            }
            '”' => {
                quoted = false;
                closes_sentence(text, start, i) && next.is_none_or(char::is_whitespace)
            }
            '。' | '！' | '？' => true,
            '.' | '?' | '!' => {
                !quoted
                    && next.is_some_and(|n| n == ' ' || n == '\n')
                    && !is_abbreviation(&text[start..after], &text[after..])
            }
            _ => false,
        };
        if end_here {
            if !text[start..after].trim().is_empty() {
                out.push(start..after);
            }
            start = after;
        }
    }
    if start < text.len() && !text[start..].trim().is_empty() {
        out.push(start..text.len());
    }
    out
}

/// Whether a quotation closing at byte `quote` ends its sentence: a full
/// stop, question or exclamation mark right before it ("… its text."").
fn closes_sentence(text: &str, start: usize, quote: usize) -> bool {
    text[start..quote]
        .chars()
        .next_back()
        .is_some_and(|c| matches!(c, '.' | '?' | '!'))
        && !is_abbreviation(
            &text[start..quote],
            text[quote..].trim_start_matches(['"', '”']),
        )
}

fn is_abbreviation(s: &str, rest: &str) -> bool {
    let tail = s.rsplit(' ').next().unwrap_or("").to_lowercase();
    // A rule number such as "2.d." or "13.4." does not end a sentence
    // ("in step 2.d. after it is selected"), unless a capital opens the
    // next word ("… in 2.e. Bulwark Sword, on the other hand, …").
    let capital_next = rest.trim_start().starts_with(char::is_uppercase);
    matches!(tail.as_str(), "e.g." | "i.e." | "etc." | "vs." | "cf.")
        || (!capital_next
            && tail.contains(|c: char| c.is_ascii_digit())
            && tail.chars().all(|c| c.is_ascii_alphanumeric() || c == '.'))
}

#[cfg(test)]
mod tests {
    #[test]
    fn die_the_noun_is_dice_and_die_the_verb_is_dying() {
        let a = super::Analyzer::new();
        let dying = a.tokens("the creature dies");
        let verb = a.tokens("does it die");
        assert!(verb.contains(&dying[1]), "{verb:?} {dying:?}");
        let noun = a.tokens("roll a six-sided die");
        assert!(!noun.contains(&dying[1]), "{noun:?}");
        assert_eq!(a.tokens("a planar die"), a.tokens("a planar dice"));
        let asked = super::question_words("does it die or roll the die");
        let texts: Vec<&str> = asked.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(texts, ["does", "it", "die", "or", "roll", "the", "dice"]);
    }

    #[test]
    fn an_un_word_carries_its_base_but_until_and_unless_do_not() {
        let a = super::Analyzer::new();
        let tapped = a.tokens("tapped");
        assert!(a.tokens("untapped").contains(&tapped[0]), "{tapped:?}");
        for word in ["until", "unless", "under", "unit", "unique"] {
            let tokens = a.tokens(word);
            assert_eq!(tokens.len(), 1, "{word}: {tokens:?}");
        }
    }

    #[test]
    fn abbreviations_are_found_by_binary_search() {
        // The table is searched by halves: it must be sorted.
        assert!(super::ABBREVIATIONS.windows(2).all(|w| w[0].0 < w[1].0));
        for (short, long) in super::ABBREVIATIONS {
            assert_eq!(super::abbreviation(short), Some(*long));
        }
        assert_eq!(super::abbreviation("maximum"), None);
        assert_eq!(
            super::abbreviation("Max"),
            None,
            "questions are lower-cased first"
        );
    }

    #[test]
    fn a_plain_word_is_tokenized_as_the_tokenizer_does() {
        let inner = super::Analyzer::new().inner;
        for w in [
            "Guard",
            "exhausted",
            "ETB",
            "702",
            "4player",
            "x",
            "Phoenixborn",
            "a1b2",
            "THE",
        ] {
            assert_eq!(super::plain_word(w), inner.tokenize(w).pop(), "{w}");
            assert_eq!(inner.tokenize(w).len(), 1, "{w}");
        }
        for w in ["", "don't", "re-roll", "é", "two words", "a.b"] {
            assert_eq!(super::plain_word(w), None, "{w}");
        }
    }

    use super::*;

    #[test]
    fn sentences_keep_text_verbatim() {
        let text = "E.g., If a player must. Then stop (see 2.d. below).\nNext";
        let s: Vec<&str> = sentence_ranges(text)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(
            s,
            vec![
                "E.g., If a player must.",
                " Then stop (see 2.d. below).",
                "\n",
                "Next"
            ]
            .into_iter()
            .filter(|x| !x.trim().is_empty())
            .collect::<Vec<_>>()
        );
    }
    #[test]
    fn a_step_reference_ends_its_sentence_before_a_capital() {
        let text = "It is paid in 2.e. Bulwark Sword is paid in step 2.c. after it is chosen.";
        let s: Vec<&str> = sentence_ranges(text)
            .into_iter()
            .map(|r| text[r].trim())
            .collect();
        assert_eq!(
            s,
            [
                "It is paid in 2.e.",
                "Bulwark Sword is paid in step 2.c. after it is chosen."
            ]
        );
    }

    #[test]
    fn example_sentences_are_told_from_the_rule() {
        let text =
            "Rule text. For example, Han attacks. Then more.\nExample: A casts B. Then C.\nLast.";
        let examples: Vec<(&str, bool)> = sentence_ranges(text)
            .into_iter()
            .map(|r| {
                let line = text[..r.start].rfind('\n').map_or(0, |at| at + 1);
                (text[r.clone()].trim(), in_example(text, line, r.start))
            })
            .collect();
        assert_eq!(
            examples,
            [
                ("Rule text.", false),
                ("For example, Han attacks.", true),
                ("Then more.", false),
                ("Example: A casts B.", true),
                ("Then C.", true),
                ("Last.", false),
            ]
        );
    }

    #[test]
    fn digits_and_plain_words_are_no_topic() {
        assert!(is_plain_filler("2") && is_plain_filler("no") && is_plain_filler("once"));
        assert!(!is_plain_filler("phoenixborn") && !is_plain_filler("2nd"));
    }

    #[test]
    fn a_quotation_is_not_cut_at_its_full_stops() {
        let text = "702.85a \"Cascade\" means \"When you cast this spell, exile cards. You may cast it.\" Then stop. 先に引く。次に";
        let s: Vec<&str> = sentence_ranges(text)
            .into_iter()
            .map(|r| text[r].trim())
            .collect();
        assert_eq!(
            s,
            [
                "702.85a \"Cascade\" means \"When you cast this spell, exile cards. You may cast it.\"",
                "Then stop.",
                "先に引く。",
                "次に"
            ]
        );
        let inch = "Range 6\" or less. Then roll.";
        let s: Vec<&str> = sentence_ranges(inch)
            .into_iter()
            .map(|r| inch[r].trim())
            .collect();
        assert_eq!(s, ["Range 6\" or less.", "Then roll."]);
        let curly = "It says “Draw a card. Then discard.” Next one.";
        let s: Vec<&str> = sentence_ranges(curly)
            .into_iter()
            .map(|r| curly[r].trim())
            .collect();
        assert_eq!(s, ["It says “Draw a card. Then discard.”", "Next one."]);
    }
}

#[cfg(test)]
mod script_tests {
    use super::*;

    #[test]
    fn a_katakana_term_between_particles_is_its_own_word() {
        let a = Analyzer::new();
        let card = a.tokens("カード");
        assert_eq!(card.len(), 1, "{card:?}");
        let sentence = a.tokens("先攻プレイヤーは最初のターンにカードを引かない。");
        assert!(sentence.contains(&card[0]), "{card:?} in {sentence:?}");
        let player = a.tokens("プレイヤー");
        assert!(sentence.contains(&player[0]), "{player:?} in {sentence:?}");
        // English is untouched.
        assert_eq!(script_words("Attack a Phoenixborn"), "Attack a Phoenixborn");
    }

    #[test]
    fn a_zero_width_character_inside_a_word_is_left_out() {
        let a = Analyzer::new();
        assert_eq!(a.tokens("Block\u{200B}ade"), a.tokens("Blockade"));
        assert_eq!(a.tokens("guard\u{2060}ed"), a.tokens("guarded"));
    }
}

#[cfg(test)]
mod symbol_tests {
    use super::*;

    #[test]
    fn symbols_become_words_on_both_sides() {
        let a = Analyzer::new();
        let q = a.tokens("do +1/+1 and -1/-1 counters cancel on a 0/1?");
        for t in ["plus1plus1", "minus1minus1", "pt0x1"] {
            assert!(q.iter().any(|x| x == t), "{t} in {q:?}");
        }
        let rule = a.tokens("The tap symbol is {T}. {W/P} can be paid with 2 life.");
        assert!(rule.iter().any(|x| x == "tapsymbol"), "{rule:?}");
        assert!(rule.iter().any(|x| x == "phyrexiansymbol"), "{rule:?}");
        assert_eq!(a.tokens("*/* creature"), a.tokens("ptstarxstar creature"));
    }

    #[test]
    fn symbol_words_are_shown_as_their_symbols() {
        for (typed, word) in [
            ("-3/-3", "minus3minus3"),
            ("+1/+1", "plus1plus1"),
            ("+X/-2", "plusxminus2"),
            ("0/1", "pt0x1"),
            ("*/*", "ptstarxstar"),
            ("{T}", "tapsymbol"),
        ] {
            let made = symbol_words(&format!("a {typed} b")).into_owned();
            assert!(made.contains(word), "{typed} → {made}");
            assert_eq!(symbol_shown(word), typed);
        }
        for plain in ["minus", "pt", "attack", "plus1", "ptx"] {
            assert_eq!(symbol_shown(plain), plain);
        }
        // Dates and rule numbers are left alone.
        assert_eq!(
            symbol_words("effective 2022/04/29, see 702.19b"),
            "effective 2022/04/29, see 702.19b"
        );
    }

    #[test]
    fn an_agent_noun_offers_its_verb() {
        assert!(variants("striker").contains(&"strike".to_string()));
        assert!(variants("blockers").contains(&"block".to_string()));
        assert!(variants("deathtoucher").contains(&"deathtouch".to_string()));
    }
}
