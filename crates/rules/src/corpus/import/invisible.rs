//! Characters that show as nothing inside a word (a zero-width space, a
//! soft hyphen, a word joiner), left out of an upload's text before it is
//! read: a heading "Sp\u{200B}eed" took an id and a title no one could type
//! or search, and "tw\u{AD}ice" was indexed as a word no question holds.
//! Left out at import, so the stored text is the text quoted (a quote is
//! verbatim to the stored text), and said in the preview.

/// Left out wherever they stand.
fn always(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{2060}' | '\u{00AD}' | '\u{FEFF}' | '\u{180E}' | '\u{2061}'..='\u{2064}'
    )
}

/// A zero-width joiner or non-joiner: meaningful in an emoji sequence and
/// in scripts that join letters (Persian's non-joiner), so left out only
/// between two ASCII letters or digits ("Fire\u{200D}ball").
fn joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}')
}

/// The text without those characters, and each one's line and column.
pub(super) fn strip(text: &str) -> (String, Vec<(usize, usize)>) {
    if !text.chars().any(|c| always(c) || joiner(c)) {
        return (text.to_string(), Vec::new());
    }
    let ascii = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    strip_by(text, |chars, i| {
        let c = chars[i];
        always(c) || (joiner(c) && ascii(shown(chars, i, -1)) && ascii(shown(chars, i, 1)))
    })
}

/// The first character from `i` in the direction `step` that shows.
fn shown(chars: &[char], i: usize, step: isize) -> Option<char> {
    let mut j = i as isize + step;
    while j >= 0 && (j as usize) < chars.len() {
        let c = chars[j as usize];
        if !always(c) && !joiner(c) {
            return Some(c);
        }
        j += step;
    }
    None
}

/// The text without Unicode's noncharacters (U+FDD0–U+FDEF, U+FFFE,
/// U+FFFF …: never text; the cleaner used the first 32 as stand-ins and a
/// document's own came back as "[", "(", "@"), and each one's line and
/// column.
pub(super) fn strip_noncharacters(text: &str) -> (String, Vec<(usize, usize)>) {
    let non = crate::corpus::clean::is_noncharacter;
    if !text.chars().any(non) {
        return (text.to_string(), Vec::new());
    }
    strip_by(text, |chars, i| non(chars[i]))
}

/// The text without the characters `left_out` picks (from its line's
/// characters, by index), and each one's line and column.
fn strip_by(
    text: &str,
    left_out: impl Fn(&[char], usize) -> bool,
) -> (String, Vec<(usize, usize)>) {
    let mut out = String::with_capacity(text.len());
    let mut at = Vec::new();
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let chars: Vec<char> = line.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            if left_out(&chars, i) {
                at.push((n + 1, i + 1));
            } else {
                out.push(c);
            }
        }
    }
    (out, at)
}

#[cfg(test)]
mod tests {
    #[test]
    fn invisible_characters_inside_words_are_left_out_and_emoji_keep_their_joiners() {
        let (text, at) =
            super::strip("# Sp\u{200B}eed\n\ntw\u{AD}ice Fire\u{200D}\u{2060}ball 👨\u{200D}👩");
        assert_eq!(text, "# Speed\n\ntwice Fireball 👨\u{200D}👩");
        assert_eq!(at, [(1, 5), (3, 3), (3, 12), (3, 13)]);
        assert_eq!(super::strip("plain").1, []);
    }
}
