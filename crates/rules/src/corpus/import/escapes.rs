//! Terminal escape sequences (ECMA-48) left in a text, as a log or a
//! console's output pasted into a document holds them: each is left out
//! whole. Only their ESC was dropped as a hidden character, so
//! "\x1b[31mmust\x1b[0m" was stored as "[31mmust[0m".

use std::borrow::Cow;

const ESC: char = '\u{1b}';
const BEL: char = '\u{7}';

/// The text without its escape sequences; how many there were, and the
/// line and column (from 1) of the first. One pass over the text.
pub(super) fn strip(text: &str) -> (Cow<'_, str>, usize, Option<(usize, usize)>) {
    if !text.contains(ESC) {
        return (text.into(), 0, None);
    }
    let mut out = String::with_capacity(text.len());
    let (mut count, mut first) = (0, None);
    let (mut line, mut column) = (1, 0);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != ESC {
            out.push(c);
            match c {
                '\n' => (line, column) = (line + 1, 0),
                _ => column += 1,
            }
            continue;
        }
        first.get_or_insert((line, column + 1));
        count += 1;
        skip_sequence(&mut chars);
    }
    (out.into(), count, first)
}

/// Consumes the rest of a sequence after its ESC: a control sequence
/// (`[`, parameters, intermediates, a final byte), a control string (`]`
/// OSC, `P` DCS, `X`, `^`, `_`: to BEL or ESC `\`, or its line's end when
/// never ended), or ESC, intermediates and one final character. A line
/// break always ends a sequence and stays.
fn skip_sequence(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    let Some(&kind) = chars.peek() else { return };
    match kind {
        '[' => {
            chars.next();
            while chars
                .next_if(|c| ('\u{20}'..='\u{3f}').contains(c))
                .is_some()
            {}
            chars.next_if(|c| ('\u{40}'..='\u{7e}').contains(c));
        }
        ']' | 'P' | 'X' | '^' | '_' => {
            chars.next();
            while let Some(c) = chars.next_if(|c| *c != '\n') {
                if c == BEL {
                    break;
                }
                if c == ESC && chars.next_if_eq(&'\\').is_some() {
                    break;
                }
            }
        }
        _ => {
            while chars
                .next_if(|c| ('\u{20}'..='\u{2f}').contains(c))
                .is_some()
            {}
            chars.next_if(|c| ('\u{30}'..='\u{7e}').contains(c));
        }
    }
}

/// The preview's note on the sequences left out.
pub(super) fn note(count: usize, (line, column): (usize, usize)) -> String {
    format!(
        "left out {} (a terminal's colours and links, as in “ESC[31m”), the first at line:column {line}:{column}",
        crate::text::count(count, "escape sequence")
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn sequences_go_whole_and_the_first_is_placed() {
        let (out, n, first) =
            super::strip("ab\ncd\x1b[1;31mred\x1b[m \x1b]0;title\x07t \x1b(Bx\x1b]8;;u");
        assert_eq!(out, "ab\ncdred t x");
        assert_eq!((n, first), (5, Some((2, 3))));
        let (out, n, _) = super::strip("a\x1b]2;never ended\nnext\x1b");
        assert_eq!((&*out, n), ("a\nnext", 2));
    }
}
