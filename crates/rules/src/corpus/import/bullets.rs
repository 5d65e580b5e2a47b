//! Bullets that Word, PDFs and other editors write for `•`, in plain text
//! and a PDF's text: read as `•` is, a list item ([`read`]).

use crate::corpus::numbered::ends_sentence;

/// Marks read as `•` at a line's start before white space: the bullet of
/// Word's Symbol font, in Unicode's private use area (U+F0B7, as a PDF
/// whose font maps no Unicode gives it), and the circles and square that
/// Google Docs and Word set at a list's levels.
const BULLETS: [char; 5] = ['\u{F0B7}', '●', '○', '▪', '◦'];

/// The en dash, read as `•` only where a list item may start (see
/// [`read`]): it is also a sentence's dash, which a wrapped line may
/// start with.
const DASH: char = '–';

/// Plain text with a line starting with one of [`BULLETS`], or the en
/// dash, then white space and text, written with `•` for its mark, so the
/// document's parser reads it as a list item, as it reads `•` (its
/// indentation kept: a deeper line nests under the one above). The dash
/// is a mark only where a list item may start: first in its paragraph
/// (after a blank line), after another item, or after a line that ends a
/// sentence or a lead-in (".", ":", ";"), not on a line that goes on with
/// a sentence the line above leaves open ("wins the game" / "– unless a
/// heron is still flying –"). Other lines are kept as they are.
pub(super) fn read(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut may_start = true;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let body = line.trim_start();
        let item = match mark(body) {
            Some(c) if BULLETS.contains(&c) || may_start => Some(c),
            _ => None,
        };
        match item {
            Some(c) => {
                out.push_str(&line[..line.len() - body.len()]);
                out.push('•');
                out.push_str(&body[c.len_utf8()..]);
            }
            None => out.push_str(line),
        }
        may_start = body.is_empty()
            || item.is_some()
            || body.starts_with(['•', '-', '»'])
            || ends_sentence(body);
    }
    out
}

/// Whether a line starts with a bullet's glyph, `•` or one of
/// [`BULLETS`] (not a dash, which wrapped text may start with), white
/// space after it or not.
pub(super) fn starts_with_glyph(line: &str) -> bool {
    line.trim_start()
        .starts_with(|c| c == '•' || BULLETS.contains(&c))
}

/// The mark a line's text starts with, if it is one of [`BULLETS`] or
/// the dash followed by white space and more text.
fn mark(body: &str) -> Option<char> {
    let c = body.chars().next()?;
    let rest = &body[c.len_utf8()..];
    (BULLETS.contains(&c) || c == DASH)
        .then_some(c)
        .filter(|_| rest.starts_with(char::is_whitespace) && !rest.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn marks_become_bullets_and_a_dash_only_where_an_item_may_start() {
        assert_eq!(read("\u{F0B7}\tFive cards"), "•\tFive cards");
        assert_eq!(read("  ○ Fly"), "  • Fly");
        assert_eq!(
            read("Take:\n– a deck\n– a board"),
            "Take:\n• a deck\n• a board"
        );
        // A dash going on with the sentence above, a dash before a number,
        // and a bullet with no text after it stay as written.
        for kept in ["wins the game\n– unless it flies", "–5 power", "●", "● "] {
            assert_eq!(read(kept), kept);
        }
    }
}
