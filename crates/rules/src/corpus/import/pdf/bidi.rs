//! Right-to-left lines (Hebrew, Arabic) in logical order.
//!
//! PDF producers draw a right-to-left line as it stands on the page
//! (LibreOffice draws each run's glyphs left to right, "םיפלק" for
//! "קלפים"), so a line read across the page is in visual order; the
//! Unicode Bidirectional Algorithm (`unicode-bidi`) gives it back in
//! the order it was written, numbers kept as they read ("1.1", "3").

use unicode_bidi::{BidiClass, BidiInfo, Level, bidi_class};

use super::Line;

/// Whether a character is a strong right-to-left letter (Hebrew, Arabic,
/// Syriac, Thaana and the like).
pub(super) fn is_rtl(c: char) -> bool {
    matches!(bidi_class(c), BidiClass::R | BidiClass::AL)
}

/// Whether a line holds a right-to-left letter.
pub(super) fn holds_rtl(text: &str) -> bool {
    text.chars().any(is_rtl)
}

/// Puts each line holding right-to-left letters in logical order. The
/// paragraph's direction decides where the neutrals and numbers at a
/// line's ends belong, and a PDF does not say it: a page's such lines
/// are read as set right to left (a Hebrew or Arabic book) unless they
/// line up on the left and not on the right (a left-to-right paragraph,
/// as a plain text file exported from a word processor is set); a line
/// that starts with a number read the other way only (a numbered rule,
/// "1.1 …", whose number would land at its end) is read that way, as
/// LibreOffice sets a right-to-left paragraph flush left when its HTML
/// says nothing of alignment.
pub(super) fn logical_order(pages: &mut [Vec<Line>]) {
    for lines in pages.iter_mut() {
        let rtl: Vec<usize> = (0..lines.len())
            .filter(|&i| holds_rtl(&lines[i].text))
            .collect();
        if rtl.is_empty() {
            continue;
        }
        let (level, other) = match left_aligned(lines, &rtl) {
            true => (Level::ltr(), Level::rtl()),
            false => (Level::rtl(), Level::ltr()),
        };
        let numbered = |s: &str| s.trim_start().starts_with(|c: char| c.is_ascii_digit());
        for i in rtl {
            let read = logical(&lines[i].text, level);
            lines[i].text = match numbered(&read) {
                true => read,
                false => Some(logical(&lines[i].text, other))
                    .filter(|r| numbered(r))
                    .unwrap_or(read),
            };
        }
    }
}

/// Whether the lines `rtl` of a page start at one place (within a font
/// size, from their column's left edge when in columns) and end at
/// several: set flush left. Two lines at least are needed to tell.
fn left_aligned(lines: &[Line], rtl: &[usize]) -> bool {
    let size = rtl.iter().map(|&i| lines[i].size).fold(0.0, f64::max);
    let spread = |edge: &dyn Fn(&Line) -> f64| {
        let values = rtl.iter().map(|&i| edge(&lines[i]));
        let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        high - low
    };
    let start = |l: &Line| l.start - l.column.map_or(0.0, |c| c.0);
    let end = |l: &Line| l.end - l.column.map_or(0.0, |c| c.0);
    rtl.len() >= 2 && spread(&start) <= size && spread(&end) > size
}

/// A line read left to right across the page, in logical order for a
/// paragraph of base direction `level` (the line being one paragraph:
/// a PDF's text holds no paragraph separators inside a printed line).
fn logical(visual: &str, level: Level) -> String {
    let info = BidiInfo::new(visual, Some(level));
    info.paragraphs
        .iter()
        .map(|para| info.reorder_line(para, para.range.clone()).into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Hebrew rule as LibreOffice draws it, right to left, reads as it
    /// was written, its number first and kept as it reads; set flush
    /// left, the number at the left is the line's start.
    #[test]
    fn a_visual_line_reads_in_logical_order() {
        let written = "1.1 כל שחקן מקבל 7 קלפים.";
        let drawn = ".םיפלק 7 לבקמ ןקחש לכ 1.1";
        assert_eq!(logical(drawn, Level::rtl()), written);
        let flush_left = "1.1 םיפלק 7 לבקמ ןקחש לכ.";
        assert_eq!(logical(flush_left, Level::ltr()), written);
    }
}
