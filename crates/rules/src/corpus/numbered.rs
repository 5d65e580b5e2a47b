//! Numbered-section plain text: `13.1 - Step Moves` sections, `100. General`
//! sections, `100.1.` rules and `100.1a` sub-rules, `1.` lists (a
//! heading's items, or a rule's steps kept in its text), unnumbered
//! sub-headings ("Move Action"), `Example:` lines, and a `Glossary` of
//! term/definition paragraphs.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use regex::Regex;

use super::emit::{DocBuilder, item_title};
use super::{PassageIdx, PassageKind, WarningKind, clean};

static DASH_SECTION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*([0-9]+(?:\.[0-9]+)*)\s+[-–—]\s+(.+?)\s*$").unwrap());
static SINGLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\s*)([0-9]+)\.\s+(.+?)\s*$").unwrap());
/// `100.1`, and a rulebook's deeper levels (`2.1.1 Mulligan`), whose id
/// is its own number under its parent's (it had a slug of its title).
static RULE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*([0-9]+(?:\.[0-9]+)+)\.?\s+(.+?)\s*$").unwrap());
static SUBRULE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*([0-9]+\.[0-9]+[a-z])\.?\s+(.+?)\s*$").unwrap());

/// A heading of a Japanese or Chinese document's own numbering: "第1章",
/// "第２節 手番", "第3条（目的）", "第一編" (its number in digits, full-width
/// digits or numerals), alone on its line but for a title after a space or
/// in brackets: the part ("編", "部"), chapter ("章"), section ("節",
/// "节"), paragraph ("款") or article ("条", "條").
static ORDINAL_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*第\s*(?:[0-9０-９]+|[〇零一二三四五六七八九十百千两]+)\s*([編编部章節节款条條])(?:$|[\s（(「【『\[])").unwrap()
});

/// Whether a character is a full-width digit ("１").
fn is_wide_digit(c: char) -> bool {
    ('０'..='９').contains(&c)
}

/// Full-width digits written as ASCII ones ("第１章" → "第1章").
fn ascii_digits(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            c if is_wide_digit(c) => {
                char::from_digit(u32::from(c) - u32::from('０'), 10).unwrap_or(c)
            }
            c => c,
        })
        .collect()
}

/// A line with its leading number read in ASCII: full-width digits and
/// full stops, as Japanese and Chinese text writes them ("１．１ 手札",
/// "1．1 手札"), are the number "1.1". Only the number changes: the
/// patterns read the line so, while the text stored is the line as written
/// (and the id is the ASCII number, `1.1`, as "1.1 手札" would have).
pub(super) fn ascii_number(line: &str) -> Cow<'_, str> {
    let start = line.len() - line.trim_start().len();
    let end = line[start..]
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '．' || is_wide_digit(c)))
        .map_or(line.len(), |e| start + e);
    let number = &line[start..end];
    if number.is_ascii() {
        return Cow::Borrowed(line);
    }
    let ascii = ascii_digits(number).replace('．', ".");
    Cow::Owned(format!("{}{ascii}{}", &line[..start], &line[end..]))
}

/// The rank of a line that is a "第N章"-style heading ([`ORDINAL_HEADING`]),
/// its part first (0) and its article last (4); `None` for any other line,
/// and for one that ends a sentence or runs on ("第3条 プレイヤーは…。",
/// "第2章を参照", a wrapped "第2章、"): that is text.
pub(super) fn ordinal_heading(line: &str) -> Option<u8> {
    let c = ORDINAL_HEADING.captures(line)?;
    let t = line.trim();
    let heading = t.chars().count() <= 60
        && !ends_sentence(t)
        && !t.trim_end_matches(CLOSERS).ends_with([',', '、', '，']);
    let rank = match &c[1] {
        "編" | "编" | "部" => 0,
        "章" => 1,
        "節" | "节" => 2,
        "款" => 3,
        _ => 4,
    };
    heading.then_some(rank)
}

/// Whether a line looks like a numbered section or rule (for format detection).
pub(super) fn is_numbered_line(line: &str) -> bool {
    let line = ascii_number(line);
    DASH_SECTION.is_match(&line) || RULE.is_match(&line) || SUBRULE.is_match(&line)
}

/// Whether a line starts a numbered section, rule or list item ("100.1a",
/// "13.1 - Title", "2. An attribute…").
pub(super) fn starts_item(line: &str) -> bool {
    is_numbered_line(line) || SINGLE.is_match(&ascii_number(line))
}

/// Whether a line reads as the start of a rule or item, not as wrapped
/// text that happens to begin with a number: numbered ("1.2", "100.1a",
/// "13.1 - Title", "2.") and its text begins as a rule's does, with a
/// capital, a digit or a quote ("107.8 and rule 711." and "601.2c. (If…"
/// do not).
pub(super) fn starts_rule(line: &str) -> bool {
    let line = &*ascii_number(line);
    let text = DASH_SECTION
        .captures(line)
        .map(|c| c.get(2))
        .or_else(|| RULE.captures(line).map(|c| c.get(2)))
        .or_else(|| SUBRULE.captures(line).map(|c| c.get(2)))
        .or_else(|| SINGLE.captures(line).map(|c| c.get(3)))
        .flatten()
        .map_or("", |m| m.as_str());
    text.chars()
        .next()
        .is_some_and(|c| starts_capital(c) || c.is_ascii_digit() || "\"“‘'「『".contains(c))
}

/// Whether a letter begins a sentence or a title as a capital does: an
/// upper-case letter, or a letter of a script without case (Hebrew,
/// Arabic, Japanese), whose every sentence starts so.
fn starts_capital(c: char) -> bool {
    c.is_uppercase() || (c.is_alphabetic() && !c.is_lowercase())
}

/// What ends a sentence: the full stops, marks and colons of Latin text
/// and their CJK and full-width forms ("。", "！", "？").
const SENTENCE_ENDS: [char; 12] = [
    '.', '!', '?', ':', ';', '。', '！', '？', '：', '；', '．', '｡',
];

/// The first number of a numbered line ("117" of "117.2d Text").
fn top_number(line: &str) -> Option<u64> {
    let t = line.trim_start();
    let end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    t[..end].parse().ok()
}

/// Whether a numbered line's first number follows the last one read: the
/// same or the next ("1.2" after "1.1", "2.1" after "1.4"), or nothing was
/// numbered yet. "704." after "117.2d" is a wrapped reference ("See rule /
/// 704. They're dealt with…"), not rule 704.
fn in_order(st: &State, line: &str) -> bool {
    match (st.last_top, top_number(line)) {
        (Some(last), Some(n)) => n == last || n == last + 1,
        _ => true,
    }
}

/// The number a line gives itself as a rule or section ("100.1b" of
/// "100.1b. Text", "13.1" of "13.1 - Title"); not a list's "2.", which
/// lists repeat.
fn rule_number(line: &str) -> Option<&str> {
    DASH_SECTION
        .captures(line)
        .or_else(|| SUBRULE.captures(line))
        .or_else(|| RULE.captures(line))
        .and_then(|c| c.get(1))
        .map(|m| m.as_str())
}

/// For each rule number, the lines (0-based) that start it other than
/// directly after a line of running text that runs on. A numbered line
/// right after such text whose number another of these lines starts is
/// the wrapped text of a reference ("due to rule 100.1c and rule" /
/// "100.1b. Instead, …"): ids are unique in a document, and the rule is
/// the line that starts it as a rule does, before or after.
fn claimed_numbers<'a>(lines: &[&'a str]) -> HashMap<&'a str, Vec<usize>> {
    let mut claimed: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(number) = rule_number(line) else {
            continue;
        };
        let after_open = i
            .checked_sub(1)
            .map(|j| lines[j].trim())
            .is_some_and(|above| !above.is_empty() && runs_on(above));
        if !after_open {
            claimed.entry(number).or_default().push(i);
        }
    }
    claimed
}

/// Whether a glossary paragraph's first line can be its term: not a
/// numbered definition ("1. Text on an object…") and not a sentence ("See
/// rule 407, "Ante.""). A PDF sets a blank line wherever the size changes,
/// so a definition set larger than its term stands a paragraph apart and
/// goes on with the entry (an outside tester's PDF made "1. A zone used
/// only…" an entry of its own and left "Ante" empty).
fn reads_as_term(line: &str) -> bool {
    !SINGLE.is_match(line) && !ends_sentence(line)
}

/// Whether a line ends a sentence: `.`, `!`, `?`, `:` or `;` (or a CJK
/// "。", "！", "？") before any closing quotes and brackets (`"Colors,"`
/// does not).
pub(super) fn ends_sentence(line: &str) -> bool {
    line.trim_end()
        .trim_end_matches(CLOSERS)
        .ends_with(SENTENCE_ENDS)
}

/// Closing quotes and brackets, which may follow a sentence's end.
const CLOSERS: [char; 10] = ['"', '”', '’', '\'', ')', ']', '」', '』', '）', '】'];

/// Whether a line of text runs on to the next: it does not end a sentence
/// and is not a title ("701.18. Scry" is a rule's heading).
pub(super) fn runs_on(line: &str) -> bool {
    !ends_sentence(line) && !title_like(line)
}

/// A line that reads as a heading rather than a sentence.
pub(super) fn title_like(s: &str) -> bool {
    let s = s.trim();
    let words = s.split_whitespace().count();
    !s.is_empty()
        && s.chars().count() <= 60
        && words <= 8
        && !s.trim_end_matches(CLOSERS).ends_with(SENTENCE_ENDS)
        && !s.trim_end_matches(CLOSERS).ends_with([',', '、', '，'])
        && s.chars()
            .next()
            .is_some_and(|c| starts_capital(c) || c.is_numeric())
}

/// A numbered list open in a numbered passage ("5.1 Attacking" / "1.
/// Choose an attacker."): the number its next step takes, whether its
/// steps are items of the heading above ("13.3 - Reactions" / "13.3.1")
/// rather than lines of the text above, and how far its first step is
/// indented (a line set further left is an outer list's, not a step).
#[derive(Clone, Copy)]
struct List {
    next: u64,
    items: bool,
    indent: usize,
}

/// A list's step as read: its number, how far it is indented, and whether
/// it opens a list (a "1." after numbered rules) or goes on with the open one.
#[derive(Clone, Copy)]
struct Step {
    number: u64,
    indent: usize,
    opens: bool,
}

struct State {
    /// Most recent numbered heading (receives list items and sub-headings).
    numbered: Option<PassageIdx>,
    /// Most recent top-level unnumbered heading.
    top: Option<PassageIdx>,
    /// Where plain text lines go.
    current: PassageIdx,
    glossary: Option<PassageIdx>,
    last_blank: bool,
    /// The first number of the last numbered line read ("117" of
    /// "117.2d"): a rule right after running text is one only in order.
    last_top: Option<u64>,
    /// The line before was running text that did not end its sentence: a
    /// line right after it that starts with a number ("See rule" /
    /// "107.8 and rule 711.", as hard-wrapped text breaks) goes on with it.
    open: bool,
    /// The numbered list whose steps are being read, if any.
    list: Option<List>,
    /// Open "第N章"-style headings, by rank ([`ordinal_heading`]).
    ordinals: Vec<(u8, PassageIdx)>,
}

pub(super) fn parse(b: &mut DocBuilder, text: &str) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Lines as the patterns read them (a full-width number in ASCII); the
    // text stored is the line as written.
    let written: Vec<&str> = text.lines().collect();
    let ascii: Vec<Cow<str>> = written.iter().map(|l| ascii_number(l)).collect();
    let lines: Vec<&str> = ascii.iter().map(|l| l.as_ref()).collect();
    let claimed = claimed_numbers(&lines);
    let claimed_ids: HashSet<String> = claimed.keys().map(|k| b.absolute_id(k)).collect();
    let mut st = State {
        numbered: None,
        top: None,
        current: b.root,
        glossary: None,
        last_blank: true,
        last_top: None,
        open: false,
        list: None,
        ordinals: Vec::new(),
    };
    for (i, &line) in lines.iter().enumerate() {
        let n = i + 1;
        let trimmed = written[i].trim();
        if b.is_dropped(written[i]) {
            continue;
        }
        if trimmed.is_empty() {
            st.last_blank = true;
            continue;
        }
        let blank_before = std::mem::replace(&mut st.last_blank, false);
        let top_here = top_number(line);
        let next_blank = lines.get(i + 1).is_none_or(|l| l.trim().is_empty());
        let open = std::mem::replace(&mut st.open, false);
        if let Some(step) = list_step(&st, &lines, i) {
            let sep = if blank_before { "\n\n" } else { "\n" };
            add_step(b, &mut st, &claimed_ids, step, (trimmed, sep), n);
            continue;
        }
        if (blank_before || !open)
            && let Some(rank) = ordinal_heading(trimmed)
        {
            ordinal_section(b, &mut st, rank, trimmed, n);
            continue;
        }
        // Only a line that cannot start a rule, or whose rule another line
        // starts: a rule whose text ends with no full stop ("1.1 Each
        // player draws seven cards") is followed by its sibling, not by its
        // own wrapped text.
        let elsewhere = rule_number(line)
            .and_then(|number| claimed.get(number))
            .is_some_and(|at| at.iter().any(|&j| j != i));
        let cannot_start = !(starts_rule(line) && in_order(&st, line)) || elsewhere;
        if open && !blank_before && starts_item(line) && cannot_start {
            if !elsewhere && let Some(number) = rule_number(line) {
                number_as_text(b, n, number, trimmed);
            }
            b.append(st.current, trimmed, "\n");
            st.open = runs_on(trimmed);
            continue;
        }

        if starts_item(line) && st.glossary.is_none() {
            st.last_top = top_here.or(st.last_top);
            st.list = None;
        }
        if trimmed == "Glossary" || trimmed == "Credits" {
            let id = b.child_id(b.root, &clean::slug(trimmed));
            let idx = b.add(b.root, id, PassageKind::Section, trimmed.to_string(), n);
            st.glossary = (trimmed == "Glossary").then_some(idx);
            st.numbered = None;
            st.list = None;
            // Back matter never adopts numbered sections (a table of contents
            // lists "Glossary" and "Credits" before the rules start).
            st.top = None;
            st.current = idx;
            continue;
        }
        if let Some(g) = st.glossary {
            // Numbered definitions ("1. Text on an object…") stay in the entry;
            // only a rule number or section line ends the glossary.
            if DASH_SECTION.is_match(line) || RULE.is_match(line) || SUBRULE.is_match(line) {
                st.glossary = None;
            } else {
                if blank_before && reads_as_term(line) {
                    let (term, _) = clean::clean_inline(trimmed);
                    let id = b.child_id(g, &clean::slug(&term));
                    st.current = b.add(g, id, PassageKind::Glossary, term, n);
                } else {
                    b.append(
                        st.current,
                        written[i],
                        if blank_before { "\n\n" } else { "\n" },
                    );
                    st.open = runs_on(trimmed);
                }
                continue;
            }
        }
        if let Some(c) = DASH_SECTION.captures(line) {
            numbered_heading(b, &mut st, &c[1], &c[2], n);
            continue;
        }
        if let Some(c) = SUBRULE.captures(line).or_else(|| RULE.captures(line)) {
            let number = c[1].to_string();
            let parent = number_parent(b, &st, &number);
            let id = b.absolute_id(&number);
            let (t, _) = clean::clean_inline(&c[2]);
            let idx = b.add(parent, id, PassageKind::Item, item_title(&t), n);
            b.append(idx, &c[2], "\n");
            st.current = idx;
            // A rule's text that stops mid-sentence runs on even when it is
            // short enough to read as a title ("904.5. The archenemy's
            // starting life total is" / "40. Each other player's…").
            st.open = !ends_sentence(&c[2]);
            continue;
        }
        if let Some(c) = SINGLE.captures(line) {
            if title_like(&c[3]) {
                numbered_heading(b, &mut st, &c[2], &c[3], n);
            } else {
                list_item(b, &mut st, &c[2], &c[3], n);
            }
            continue;
        }
        if blank_before && next_blank && title_like(trimmed) {
            let (title, _) = clean::clean_inline(trimmed);
            if b.is_transparent(&title) {
                continue;
            }
            let parent = st.numbered.unwrap_or(b.root);
            let id = b.child_id(parent, &clean::slug(&title));
            let idx = b.add(parent, id, PassageKind::Section, title, n);
            if st.numbered.is_none() {
                st.top = Some(idx);
            }
            st.current = idx;
            st.list = None;
            continue;
        }
        // Text of the current passage. A sub-heading's text ends at the next
        // blank-line-separated paragraph only when a new heading starts, so
        // "Hint:" paragraphs stay with their section.
        b.append(
            st.current,
            trimmed,
            if blank_before { "\n\n" } else { "\n" },
        );
        st.open = runs_on(trimmed);
    }
}

/// Says that line `n`, which starts like rule `number` and no other line
/// starts that rule, was read as the text of the line above: out of
/// order or starting in lower case, it is most likely wrapped text, but
/// a rule lost so went without a word (an outside tester's right-to-left
/// PDF read backwards lost its rules so).
fn number_as_text(b: &mut DocBuilder, n: usize, number: &str, line: &str) {
    let shown: String = line.chars().take(60).collect();
    let more = if shown.len() < line.len() { "…" } else { "" };
    b.warn(
        n,
        format!(
            "“{shown}{more}” starts like rule {number} but is read as the text of the line above (its number is out of order, or its text starts in lower case, right after a sentence that does not end): if it is a rule, put a blank line before it"
        ),
    );
    if let Some(w) = b.warnings.last_mut() {
        w.kind = WarningKind::NumberAsText;
    }
}

/// A numbered list's item: a child of the numbered heading above it
/// ("13.3 - Reactions" / "1. It has a trigger condition." is `13.3.1`).
fn list_item(b: &mut DocBuilder, st: &mut State, number: &str, text: &str, n: usize) {
    let parent = st.numbered.unwrap_or(st.current);
    let id = b.child_id(parent, number);
    let (t, _) = clean::clean_inline(text);
    let idx = b.add(parent, id, PassageKind::Item, item_title(&t), n);
    b.append(idx, text, "\n");
    st.current = idx;
    st.open = runs_on(text);
}

/// The number of a bare numbered line ("1. Choose an attacker.") that is a
/// step of a list rather than a chapter: it restarts at 1 after numbered
/// rules were read, out of sequence with the chapters (the next chapter
/// after chapter 5 is 6, and a chapter 1 comes first), or it is the open
/// list's next number. A title is the chapter all the same when its own
/// sections follow ("2. Turns" / "2.1 Order"), or when it stands as a
/// paragraph of its own and its number is the next chapter's ("4. Terrain"
/// after chapter 3, a list's "3." before it); the glossary's numbered
/// definitions are its own.
fn list_step(st: &State, lines: &[&str], i: usize) -> Option<Step> {
    if st.glossary.is_some() {
        return None;
    }
    let c = SINGLE.captures(lines.get(i)?)?;
    let number: u64 = c[2].parse().ok()?;
    let opens = number == 1 && st.last_top.is_some_and(|top| top != 0);
    let indent = c[1].chars().count();
    let goes_on = st
        .list
        .is_some_and(|l| l.next == number && indent >= l.indent);
    if !(opens || goes_on) {
        return None;
    }
    let next_chapter = st
        .last_top
        .is_some_and(|top| top.checked_add(1) == Some(number));
    let chapter = title_like(&c[3])
        && (heads_its_sections(lines, i, number)
            || next_chapter
                && (stands_alone(lines, i)
                    || prose_follows(lines, i) && !numbered_again(lines, i, number)));
    (!chapter).then_some(Step {
        number,
        indent,
        opens: !goes_on,
    })
}

/// Whether running text follows line `i` on the next line: a sentence
/// that starts with a capital, not a step, a sub-step or a title. A title
/// of the next chapter's number so followed heads that text ("3. Playing
/// the Game" / "On your turn, …" after a list's "1."–"2." was taken for
/// the list's third step, and chapter 3 lost; found by a review); a step
/// is followed by the next step, a sub-step or a blank line.
fn prose_follows(lines: &[&str], i: usize) -> bool {
    let Some(next) = lines.get(i + 1).map(|l| l.trim()) else {
        return false;
    };
    next.chars().next().is_some_and(starts_capital)
        && !title_like(next)
        && next.trim_end_matches(CLOSERS).ends_with(SENTENCE_ENDS)
}

/// Whether a later line starts with `number` again ("2. Play a card" in
/// chapter 1's list, then "2. Turns"): then line `i` is a step, its number
/// the later line's to take.
/// The scan stops at a higher number: chapters go up, so none after it
/// can take `number`, and a long document is not read again per line.
fn numbered_again(lines: &[&str], i: usize, number: u64) -> bool {
    let tops = lines[i + 1..].iter().filter_map(|l| {
        let c = SINGLE.captures(l)?;
        c[1].is_empty().then(|| c[2].parse::<u64>().ok())?
    });
    tops.take_while(|&n| n <= number).any(|n| n == number)
}

/// Whether line `i` is a paragraph of its own: blank lines (or the text's
/// ends) before and after it.
fn stands_alone(lines: &[&str], i: usize) -> bool {
    let blank = |j: Option<usize>| {
        j.and_then(|j| lines.get(j))
            .is_none_or(|l| l.trim().is_empty())
    };
    blank(i.checked_sub(1)) && blank(i.checked_add(1))
}

/// Whether the next numbered line after line `i` is a section of chapter
/// `number`: "2. Turns" before "2.1 Order", MTG's "1. Game Concepts"
/// before "100. General" (a number of three digits or more sits under its
/// leading digits, as `number_parent` files it). A step ("2. Play a card")
/// is followed by the next step or other rules.
fn heads_its_sections(lines: &[&str], i: usize, number: u64) -> bool {
    let Some(next) = lines.iter().skip(i + 1).find(|l| starts_item(l)) else {
        return false;
    };
    let chapter = number.to_string();
    match SINGLE.captures(next) {
        Some(c) => c[2].len() >= 3 && c[2].starts_with(&chapter),
        None => rule_number(next).is_some() && top_number(next) == Some(number),
    }
}

/// Reads a list's step. A list right under a numbered heading is the
/// heading's items, numbered under it ("13.3.1"), unless the document
/// gives that number to a rule of its own ("5. Combat" / "1. Declare the
/// fight." before "5.1 Attacking"); any other list (under a rule, "5.1
/// Attacking" / "1. Choose an attacker.") is lines of the text above, kept
/// with their line breaks: its steps took the chapters' ids ("1~2") or
/// their section's ("5.1~2").
fn add_step(
    b: &mut DocBuilder,
    st: &mut State,
    claimed_ids: &HashSet<String>,
    step: Step,
    (line, sep): (&str, &str),
    n: usize,
) {
    let list = match st.list {
        Some(list) if !step.opens => list,
        _ => List {
            next: step.number,
            items: st.numbered == Some(st.current) && {
                let id = b.child_id(st.current, &step.number.to_string());
                !claimed_ids.contains(&id) && !b.by_id.contains_key(&id)
            },
            indent: step.indent,
        },
    };
    let items = list.items;
    st.list = Some(List {
        next: step.number.saturating_add(1),
        ..list
    });
    let ascii = ascii_number(line);
    match SINGLE.captures(&ascii) {
        Some(c) if items => list_item(b, st, &c[2], &c[3], n),
        _ => b.append(st.current, line, sep),
    }
    // A step is a sentence of its list, never a heading: a short one
    // ("2. Choose a target; see rule") runs on to a wrapped line as long
    // text does ("5.2 for how the defender may respond.").
    st.open = !ends_sentence(line);
}

/// A "第N章"-style heading: a section under the nearest open one of a
/// higher rank (an article under its chapter), titled as written, its id
/// the slug of its words with the digits in ASCII (`第1章-総則`: its number
/// alone would be shared by chapter 1 and article 1). Numbered rules and
/// lists under it are its own, as under a numbered heading.
fn ordinal_section(b: &mut DocBuilder, st: &mut State, rank: u8, line: &str, n: usize) {
    while st.ordinals.last().is_some_and(|&(r, _)| r >= rank) {
        st.ordinals.pop();
    }
    let parent = st.ordinals.last().map_or(b.root, |&(_, idx)| idx);
    let (title, _) = clean::clean_inline(line);
    let id = b.child_id(parent, &clean::slug(&ascii_digits(&title)));
    let idx = b.add(parent, id, PassageKind::Section, title, n);
    st.ordinals.push((rank, idx));
    st.numbered = Some(idx);
    st.top = Some(idx);
    st.current = idx;
    st.glossary = None;
    st.list = None;
}

fn numbered_heading(b: &mut DocBuilder, st: &mut State, number: &str, title: &str, n: usize) {
    let parent = number_parent(b, st, number);
    let id = b.absolute_id(number);
    let (title, _) = clean::clean_inline(title);
    let idx = b.add(parent, id, PassageKind::Section, title, n);
    st.numbered = Some(idx);
    st.current = idx;
    st.glossary = None;
}

/// The parent of a numbered passage: the longest existing number it extends
/// (`100.1a` → `100.1` → `100` → `1`), or `13.0` for `13.1`; otherwise the
/// current top-level heading or the document. Only a number of three
/// digits or more sits in the section of its leading digit (MTG's rule 100
/// in section 1): a rulebook's chapter 10 is chapter 1's sibling.
fn number_parent(b: &DocBuilder, st: &State, number: &str) -> PassageIdx {
    let exists = |n: &str| b.by_id.get(&b.absolute_id(n)).copied();
    let top_digits = number.chars().take_while(char::is_ascii_digit).count();
    let mut cur = number.to_string();
    loop {
        // Numbers are ASCII (the patterns say [0-9]), but never slice blindly.
        let mut chars = cur.chars();
        let shorter = if cur.ends_with(|c: char| c.is_ascii_lowercase()) {
            chars.next_back();
            chars.as_str().to_string()
        } else if let Some((head, _)) = cur.rsplit_once('.') {
            head.to_string()
        } else if cur.chars().count() > 1 && top_digits >= 3 {
            chars.next_back();
            chars.as_str().to_string()
        } else {
            break;
        };
        if let Some(idx) = exists(&shorter) {
            return idx;
        }
        if !shorter.contains('.')
            && let Some(idx) = exists(&format!("{shorter}.0"))
            && format!("{shorter}.0") != number
        {
            return idx;
        }
        cur = shorter;
    }
    st.top.unwrap_or(b.root)
}
