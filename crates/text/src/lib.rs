//! Text helpers shared by every layer (corpus, search, engine, app): the
//! bottom of the module graph; depends on nothing in the crate.

mod words;

pub use words::Words;

/// Marks and overrides of text direction (U+061C, U+200E–200F,
/// U+202A–202E, U+2066–2069): a name or text holding one can display as
/// another ("Golem Ice" shown for a name spelt backwards).
pub fn is_direction_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` on one line: every run of whitespace (line breaks included) one
/// space, none at the ends.
pub fn single_spaced(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Case-, accent- and punctuation-insensitive key for comparing names.
pub fn fold(s: &str) -> String {
    if s.is_ascii() {
        return ascii_folded(s).map(char::from).collect();
    }
    folded(s).collect()
}

/// [`folded`] for ASCII text: the same characters, byte by byte.
fn ascii_folded(s: &str) -> impl Iterator<Item = u8> + '_ {
    s.bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(|b| b.to_ascii_lowercase())
}

/// The characters of [`fold`]`(s)`, without building the string: a Latin
/// letter's accents are dropped ("Lim-Dûl" is "limdul"); other scripts keep
/// their marks ("й" is not "и", "が" not "か").
fn folded(s: &str) -> impl Iterator<Item = char> + '_ {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    let mut after_latin = false;
    s.nfd()
        .filter(move |&c| {
            if is_combining_mark(c) {
                return !after_latin;
            }
            after_latin = is_latin(c);
            c.is_alphanumeric()
        })
        .flat_map(char::to_lowercase)
        .flat_map(|c| {
            let (first, second) = spelt_out(c);
            std::iter::once(first).chain(second)
        })
}

/// A Latin letter that canonical decomposition leaves whole, as the
/// letters it is typed as on a keyboard without it: æ ae, œ oe, ß ss,
/// ø o, ł l, đ and ð d, þ th (in lower case). "Æther Vial" was not found
/// as "Aether Vial" while "Lim-Dûl" was as "Lim-Dul" (found by an outside
/// tester). Decision: only these, the ones of Latin-script card names;
/// not `deunicode`, which would also spell other scripts in Latin ("й"
/// would be "i").
fn spelt_out(c: char) -> (char, Option<char>) {
    match c {
        'æ' => ('a', Some('e')),
        'œ' => ('o', Some('e')),
        'ß' => ('s', Some('s')),
        'þ' => ('t', Some('h')),
        'ø' => ('o', None),
        'ł' => ('l', None),
        'đ' | 'ð' => ('d', None),
        c => (c, None),
    }
}

/// Latin letters: Basic Latin to Latin Extended-B, and Latin Extended
/// Additional.
fn is_latin(c: char) -> bool {
    matches!(u32::from(c), 0..=0x24F | 0x1E00..=0x1EFF)
}

/// `fold(a) == fold(b)`, without allocating.
pub fn fold_eq(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    if a.is_ascii() && b.is_ascii() {
        return ascii_folded(a).eq(ascii_folded(b));
    }
    folded(a).eq(folded(b))
}

/// Whether two names can be taken for each other on screen: the same
/// Unicode TR39 skeleton (`unicode-security`: look-alike letters of other
/// scripts such as a Cyrillic А for a Latin A, and invisible characters
/// such as U+200B dropped), compared as written and in lower case, after
/// NFKC (fullwidth letters read as their ASCII ones). A seat named so
/// reads as the other in the log and on the decision buttons.
pub fn confusable(a: &str, b: &str) -> bool {
    use unicode_normalization::UnicodeNormalization;
    use unicode_security::skeleton;
    let (a, b): (String, String) = (a.nfkc().collect(), b.nfkc().collect());
    skeleton(&a).eq(skeleton(&b)) || skeleton(&a.to_lowercase()).eq(skeleton(&b.to_lowercase()))
}

/// A name's look-alike key: its TR39 skeleton in lower case, after NFKC,
/// so names [`confusable`] in lower case share it; found in a map where
/// comparing every pair would not do (a card list of 35,000 names).
pub fn skeleton_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let name: String = name.nfkc().collect();
    unicode_security::skeleton(&name.to_lowercase()).collect()
}

/// Whether two names read alike whatever their spacing and punctuation:
/// [`confusable`] on their letters and digits. A new game named so
/// ("Аshes Reborn" with a Cyrillic А, "twilight іmperium 4" with a
/// Cyrillic і) would be cited as the loaded game it imitates.
pub fn reads_as(a: &str, b: &str) -> bool {
    let letters = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
    };
    let (a, b) = (letters(a), letters(b));
    !a.is_empty() && confusable(&a, &b)
}

/// A Unicode format character (general category Cf, Unicode 15): zero-width
/// space and joiners, word joiner, BOM, soft hyphen, direction marks, tags.
pub fn is_format(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061C}'
            | '\u{06DD}'
            | '\u{070F}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08E2}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{110BD}'
            | '\u{110CD}'
            | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0001}'
            | '\u{E0020}'..='\u{E007F}'
    )
}

/// Levenshtein distance with transpositions, or `None` when above `max`.
pub fn edit_distance(a: &str, b: &str, max: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev2 = vec![0usize; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0usize; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    (prev[b.len()] <= max).then_some(prev[b.len()])
}

/// The name of `known` nearest to `typed` when compared folded, within
/// `max` edits: the smallest distance, then the first alphabetically. The
/// one primitive behind every "did you mean".
pub fn closest<'a>(
    typed: &str,
    known: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Option<&'a str> {
    let key = fold(typed);
    known
        .into_iter()
        .filter_map(|k| Some((edit_distance(&key, &fold(k), max)?, k)))
        .min()
        .map(|(_, k)| k)
}

/// Edits a typed name may be from a known one and still be read as its
/// typo: a third of its letters, 1 to 3 ("ashs" is Ashes; "chess" is not).
/// The rule behind every game-name "did you mean".
pub fn typo_budget(typed: &str) -> usize {
    (fold(typed).chars().count() / 3).clamp(1, 3)
}

/// "1 unit", "3 units", "0 units": a count with its noun (regular plural).
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// FNV-1a, 64 bits, of a text's UTF-8 bytes: the evaluation file's split
/// rule (tests/eval) and the key of a text embedded for the semantic stage.
pub fn fnv1a64(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Longest reference [`short_ref`] leaves whole, in bytes: a button's
/// custom id ("sectionat:" + a version + ":" + this) and an autocomplete
/// value stay within Discord's 100 characters.
pub const SHORT_REF_MAX: usize = 64;

/// `id` as it travels in a button or an autocomplete value: whole when at
/// most [`SHORT_REF_MAX`] bytes; otherwise its first 40 bytes (cut at a
/// character) and `~` with the 16 hex digits of its FNV-1a-64, which
/// [`is_short_ref_of`] matches back to the id.
pub fn short_ref(id: &str) -> std::borrow::Cow<'_, str> {
    if id.len() <= SHORT_REF_MAX {
        return id.into();
    }
    let mut cut = 40;
    while !id.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}~{:016x}", &id[..cut], fnv1a64(id)).into()
}

/// Whether `typed` is the [`short_ref`] of a long `id` (letter case aside).
pub fn is_short_ref_of(typed: &str, id: &str) -> bool {
    id.len() > SHORT_REF_MAX && short_ref(id).eq_ignore_ascii_case(typed.trim())
}

/// Whether `typed` looks like a [`short_ref`] of a long id: worth a search.
pub fn looks_like_short_ref(typed: &str) -> bool {
    typed
        .trim()
        .rsplit_once('~')
        .is_some_and(|(_, h)| h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ligatures_and_letters_without_a_decomposition_fold_as_typed() {
        assert_eq!(fold("Æther Vial"), fold("Aether Vial"));
        assert_eq!(fold("Œuvre Noire"), "oeuvrenoire");
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("Ørsted, Łódź"), "orstedlodz");
        assert!(fold_eq("ÆTHER", "aether"));
        // Other scripts keep their letters.
        assert_ne!(fold("й"), fold("и"));
    }

    #[test]
    fn a_typo_is_a_third_of_the_letters_at_most() {
        assert_eq!(typo_budget("ti"), 1);
        assert_eq!(typo_budget("ashs"), 1);
        assert_eq!(typo_budget("chess"), 1);
        assert!(edit_distance("chess", "ashes", typo_budget("chess")).is_none());
        assert_eq!(typo_budget("Twilight Imperim"), 3);
    }

    #[test]
    fn a_long_id_travels_short_and_is_matched_back() {
        let long = format!("house:{}.{}", "a".repeat(60), "é".repeat(30));
        let r = short_ref(&long);
        assert!(r.len() <= 40 + 17, "{r}");
        assert!(looks_like_short_ref(&r));
        assert!(is_short_ref_of(&r, &long));
        assert!(is_short_ref_of(&r.to_uppercase(), &long));
        assert!(!is_short_ref_of(&r, &format!("{long}x")));
        assert_eq!(short_ref("ashes:attack-a-unit.3"), "ashes:attack-a-unit.3");
        assert!(!is_short_ref_of(
            "ashes:attack-a-unit.3",
            "ashes:attack-a-unit.3"
        ));
    }

    #[test]
    fn closest_is_the_nearest_folded_name_within_the_limit() {
        let known = ["rules", "rule", "judge"];
        assert_eq!(closest("RUL", known, 2), Some("rule"));
        // A tie goes to the first alphabetically, whatever the list's order.
        assert_eq!(closest("ab", ["ac", "aa"], 1), Some("aa"));
        assert_eq!(closest("frobnicate", known, 2), None);
        assert_eq!(closest("Hit-Points", ["hit_points"], 0), Some("hit_points"));
    }

    #[test]
    fn accents_fold_away_and_other_scripts_stay() {
        assert_eq!(fold("Lim-Dûl's Vault"), fold("Lim-Dul's Vault"));
        assert_eq!(fold("Æther Vial"), "aethervial");
        assert!(fold_eq("Jötun Grunt", "jotun grunt"));
        // A Cyrillic letter is not its Latin look-alike, and other scripts
        // keep their marks.
        assert!(!fold_eq("Вen", "Ben"));
        assert!(!fold_eq("й", "и"));
        assert!(!fold_eq("が", "か"));
        assert!(fold_eq("が", "か\u{3099}"), "one letter, two spellings");
    }

    #[test]
    fn ascii_folding_agrees_with_unicode_folding() {
        let names = [
            "Iron Worker",
            "iron-worker",
            "IRONWORKER",
            "Iron Worker 2",
            "Çà va",
            "ca va",
            "",
            "--",
        ];
        for a in names {
            let slow: String = folded(a).collect();
            assert_eq!(fold(a), slow, "{a}");
            for b in names {
                assert_eq!(
                    fold_eq(a, b),
                    slow == folded(b).collect::<String>(),
                    "{a} / {b}"
                );
            }
        }
    }

    #[test]
    fn look_alike_names_are_confusable() {
        // A Cyrillic А, invisible characters, case and width.
        for twin in [
            "\u{410}lice",
            "Al\u{200b}ice",
            "Ali\u{200c}ce",
            "Alic\u{200d}e",
            "\u{2060}Alice",
            "Alice\u{feff}",
            "alice",
            "ALICE",
            "\u{ff21}lice",
        ] {
            assert!(confusable("Alice", twin), "{twin:?}");
        }
        assert!(confusable("Ivy", "lvy"), "I and l");
        for other in ["Alicia", "Bob", "Alice 2", "Al ice"] {
            assert!(!confusable("Alice", other), "{other}");
        }
        assert!(is_format('\u{200b}') && is_format('\u{E0041}') && !is_format(' '));
    }

    #[test]
    fn edit_distance_counts_transpositions() {
        assert_eq!(edit_distance("phoenixborn", "phoenixbron", 2), Some(1));
        assert_eq!(edit_distance("guard", "gaurd", 1), Some(1));
        assert_eq!(edit_distance("attack", "defend", 2), None);
    }

    #[test]
    fn counts_read_as_words() {
        assert_eq!(count(1, "unit"), "1 unit");
        assert_eq!(count(0, "attacker"), "0 attackers");
    }

    #[test]
    fn fold_ignores_case_and_punctuation() {
        assert_eq!(fold("Iron-Worker’s"), "ironworkers");
    }
}

#[cfg(test)]
mod reads_as_tests {
    use super::reads_as;

    #[test]
    fn names_of_other_scripts_cases_and_spacing_that_read_alike() {
        assert!(reads_as("\u{0410}shes Reborn", "Ashes Reborn"));
        assert!(reads_as("\u{0430}shes reborn", "Ashes Reborn"));
        assert!(reads_as("ASHES-REBORN", "Ashes Reborn"));
        // A Cyrillic і in lower case against a capital I: the skeletons
        // of "I" and "i" differ, so case is compared apart.
        assert!(reads_as(
            "twilight \u{0456}mperium 4",
            "Twilight Imperium 4"
        ));
        assert!(!reads_as("Ashes Rising", "Ashes Reborn"));
        assert!(!reads_as("Twilight Imperium 3", "Twilight Imperium 4"));
    }
}
