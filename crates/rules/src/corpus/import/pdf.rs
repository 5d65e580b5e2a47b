//! PDF text extraction with `pdf-extract` (pure Rust, on `lopdf`).

use super::ImportError;
use hyphens::{Spelling, push_wrapped};

mod bidi;
mod columns;
mod damage;
mod footnotes;
mod hyphens;
mod repair;

/// Whether the bytes are a PDF (`%PDF-` in the first kilobyte, as readers accept).
pub(super) fn is_pdf(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    head.windows(5).any(|w| w == b"%PDF-")
}

/// The PDF's text, page after page, and what was left out of it (running
/// headers and footers, said in the preview). A PDF with no text is
/// refused, and so is one the library cannot read — including one that
/// makes it panic, which is caught here so a corrupt upload never takes
/// the process down.
pub(super) fn extract(file: &str, bytes: &[u8]) -> Result<(String, Vec<String>), ImportError> {
    let bad = |reason: String| ImportError::BadPdf {
        file: file.to_string(),
        reason,
    };
    if !is_pdf(bytes) {
        return Err(bad(
            "it does not start as a PDF does, so it may be another kind of file named .pdf".into(),
        ));
    }
    let result = std::panic::catch_unwind(|| page_lines(bytes));
    let (text, notes) = match result {
        Ok(Ok(Pages::Locked)) => {
            return Err(ImportError::EncryptedPdf {
                file: file.to_string(),
            });
        }
        Ok(Ok(Pages::Read {
            mut pages,
            broken,
            unlocked,
        })) => {
            let mut notes = drop_running(&mut pages);
            notes.extend(unlocked.then(|| UNLOCKED.to_string()));
            notes.extend(pages_not_read(&broken, pages.len()));
            let unread: Vec<bool> = (1..=pages.len()).map(|n| broken.contains(&n)).collect();
            notes.extend(pages_without_text(&pages, &unread));
            let footnotes = footnotes::take(&mut pages);
            columns::read_columns(&mut pages);
            bidi::logical_order(&mut pages);
            let spelling = Spelling::of(&pages);
            let text = join_pages(&paragraphs(&pages, &spelling), &spelling);
            let (text, unplaced) = footnotes::place(&tidy(&text), footnotes);
            notes.extend(unplaced);
            (text, notes)
        }
        // The parser's own words name its internals, not what a sender
        // can do: the file was tried as written and as rebuilt from its
        // objects, so it is damaged past what can be mended here.
        Ok(Err(_)) | Err(_) => {
            return Err(bad(
                "it is damaged (its pages could not be found, even by searching the file for them)"
                    .into(),
            ));
        }
    };
    let text = tidy(&text);
    if !text.chars().any(char::is_alphanumeric) {
        // A file cut short or malformed is no scan: OCR would not help.
        if let Some(reason) = damage::reason(bytes) {
            return Err(bad(reason));
        }
        return Err(ImportError::NoTextLayer {
            file: file.to_string(),
        });
    }
    Ok((text, notes))
}

/// The pages with no text to read, said when others have some (a book with
/// some pages scanned lost them without a word, found by an outside
/// tester; a book with none is refused as a scan).
/// Pages the reader could not read (`broken`) are not counted as blank.
fn pages_without_text(pages: &[Vec<Line>], broken: &[bool]) -> Option<String> {
    let empty: Vec<usize> = pages
        .iter()
        .enumerate()
        .filter(|(i, lines)| {
            !broken[*i]
                && !lines
                    .iter()
                    .any(|l| l.text.chars().any(char::is_alphanumeric))
        })
        .map(|(i, _)| i + 1)
        .collect();
    if empty.is_empty() || empty.len() + broken.iter().filter(|b| **b).count() == pages.len() {
        return None;
    }
    let (noun, verb) = match empty.len() {
        1 => ("page", "holds"),
        _ => ("pages", "hold"),
    };
    Some(format!(
        "{noun} {} of {} {verb} no text that can be read (blank, or scanned images): anything printed there is not imported; run the file through OCR, or send its text",
        page_runs(&empty),
        pages.len()
    ))
}

/// The pages whose drawing the reader could not follow (a font the page's
/// resources do not hold): named, the rest read. One such page refused
/// the whole file as "damaged (its pages could not be found …)".
fn pages_not_read(broken: &[usize], total: usize) -> Option<String> {
    let (noun, verb, uses) = match broken.len() {
        0 => return None,
        1 => ("page", "is", "it uses"),
        _ => ("pages", "are", "each uses"),
    };
    Some(format!(
        "{noun} {} of {total} {verb} damaged ({uses} a font or a resource its page does not hold) and could not be read: anything printed there is not imported; the other pages were read",
        page_runs(broken)
    ))
}

/// Page numbers as runs ("2, 4–6").
fn page_runs(numbers: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for n in numbers.iter().copied() {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == n => *end = n,
            _ => runs.push((n, n)),
        }
    }
    let shown: Vec<String> = runs
        .iter()
        .map(|&(a, b)| match a == b {
            true => a.to_string(),
            false => format!("{a}–{b}"),
        })
        .collect();
    shown.join(", ")
}

/// The width taken for the space before a word that did not fit at a
/// line's end, in font sizes: a proportional font's space is near a third
/// (DejaVu 0.32, Helvetica 0.28), and a wrapping program measures with
/// its own rounding, so its right edge of text may stop short of the
/// furthest line's. A fifth (0.15 with its margin) left about 380 breaks
/// of an outside tester's left-aligned PDF inside sentences; justified
/// lines end at the edge, where any value joins.
const SPACE_EM: f64 = 0.45;

/// One printed line: its text, its largest glyph's size, how far below the
/// line before it it sits (none for a page's first line), how high on the
/// page it starts, where it starts and ends across the page, where its
/// first word ends, and where its page's left and right edges are, in
/// points. On a page set in columns, also the left and right edges of its
/// column, and whether it starts a column that goes on from the foot of
/// the one to its left (no gap above it tells, as at a page break).
#[derive(Debug, Clone, Default)]
struct Line {
    gap: Option<f64>,
    y: f64,
    size: f64,
    text: String,
    start: f64,
    end: f64,
    first_word_end: Option<f64>,
    page: (f64, f64),
    /// The runs of glyphs after a gap wider than [`columns::GAP_EM`]: where
    /// a line may be cut in two at a column's gutter.
    fragments: Vec<columns::Fragment>,
    column: Option<(f64, f64)>,
    turns_column: bool,
    /// The size of the line's first glyph with ink: a footnote's marker
    /// set smaller than its text ([`footnotes`]).
    first_size: f64,
    /// The baseline of the line's glyphs of its own size, and whether a
    /// superscript marker is open at the line's end ([`LineOutput::place`]).
    base: f64,
    in_mark: bool,
    /// Where in the text and across the page each run of glyphs after an
    /// inked gap wider than [`CELL_EM`] starts (spaces drawn as glyphs
    /// aside: LibreOffice draws one between a table's cells).
    cells: Vec<(usize, f64)>,
    /// Each word after the first. A table's narrow first column sets its
    /// cells closer than [`CELL_EM`] ([`aligned_cells`]).
    words: Vec<Word>,
}

/// A word of a line after its first: where it starts in the text and
/// across the page, the gap with no ink before it, and whether a space
/// glyph was drawn in that gap (LibreOffice draws one between words, none
/// between a table's cells).
#[derive(Debug, Clone, Copy)]
struct Word {
    at: usize,
    x: f64,
    gap: f64,
    spaced: bool,
}

impl Line {
    /// The gap above this line in the smaller of its and `above`'s sizes.
    fn spacing(&self, above: &Line) -> Option<f64> {
        let size = self.size.min(above.size);
        self.gap.filter(|_| size > 0.0).map(|gap| gap / size)
    }

    /// Whether this line is set in another size than `above` (a heading).
    fn resized(&self, above: &Line) -> bool {
        let (small, large) = (self.size.min(above.size), self.size.max(above.size));
        large > small * 1.15
    }

    /// How wide this line's first word is.
    fn first_word_width(&self) -> f64 {
        (self.first_word_end.unwrap_or(self.end) - self.start).max(0.0)
    }

    /// Whether `self` was broken where it is by the line wrapping, not by
    /// its writer: `next`'s first word would not have fit after it (a
    /// space, then the word, past the `margin`, the document's right edge
    /// of text, or `self`'s column's; the space taken as [`SPACE_EM`]), as
    /// a wrapping program decides, and `next` starts no further right than
    /// `self` (a wrapped paragraph goes on at its left edge; an indented
    /// line after a full one, an "Example:", is the writer's own), each
    /// measured from its column's left edge when both are in columns.
    fn wraps_into(&self, next: &Line, margin: Option<f64>) -> bool {
        let Some(margin) = margin else {
            return false;
        };
        let margin = self.column.map_or(margin, |(_, right)| right);
        let size = self.size.min(next.size).max(0.0);
        let room = margin - self.end;
        let (from, to) = match (self.column, next.column) {
            (Some(a), Some(b)) => (self.start - a.0, next.start - b.0),
            _ => (self.start, next.start),
        };
        !self.text.trim().is_empty()
            && !next.text.trim().is_empty()
            && room.is_finite()
            && next.first_word_width() + size * SPACE_EM > room
            && to <= from + size * 0.5
    }
}

/// The narrowest gap with no ink between a table's cells, in font sizes:
/// a space is a third of one or less; LibreOffice sets a table's cells
/// 0.5 apart and more ("Action", a space glyph stretched over the gap,
/// "Play cards"). Justified text's gaps may be as wide, but a table's
/// rows are told by their cells standing in line ([`same_table`]).
const CELL_EM: f64 = 0.45;

/// Whether a line starts with a run-in label: one capitalised word and a
/// colon ("Example:", "Note:").
fn starts_label(line: &str) -> bool {
    let line = line.trim_start();
    line.split_once(':').is_some_and(|(word, _)| {
        word.chars().next().is_some_and(char::is_uppercase) && word.chars().all(char::is_alphabetic)
    })
}

/// Whether the break between `above` and `below` is the wrapping's (see
/// [`Line::wraps_into`]), unless `below` starts like a rule ("1.2 The
/// first player…", whatever ends the line above: a rule with no full stop
/// may fill its line) or with a bullet's glyph ("•", "●", Word's U+F0B7:
/// no wrapped text starts with one; a line of justified text, filled to
/// the margin, took the item after it in as its own words), or
/// `above` ends a sentence and `below` starts a numbered item or a run-in
/// label ("Example:"): a line too full for those is still the writer's
/// own break before them. A bare number past 1 after a line that runs on
/// is the sentence's own ("starting life total is" / "25. In a
/// multiplayer game": the line break was kept in the rule's text).
fn wrapped(above: &Line, below: &Line, margin: Option<f64>) -> bool {
    use crate::corpus::numbered::{ends_sentence, starts_item, starts_rule};
    above.wraps_into(below, margin)
        && (!starts_rule(&below.text) || number_runs_on(&above.text, &below.text))
        && !super::bullets::starts_with_glyph(&below.text)
        && !(ends_sentence(&above.text) && (starts_item(&below.text) || starts_label(&below.text)))
}

/// Whether `below` starts with a bare number ("25.", not "1." that starts
/// a list, nor "100.1") that goes on with the sentence `above` leaves
/// open (no full stop, not a title).
fn number_runs_on(above: &str, below: &str) -> bool {
    use crate::corpus::numbered::{is_numbered_line, runs_on, starts_item};
    let number = below.trim_start().split('.').next().unwrap_or_default();
    starts_item(below)
        && !is_numbered_line(below)
        && number.parse::<u64>().is_ok_and(|n| n > 1)
        && runs_on(above)
}

/// The right edge of the document's text, if it was wrapped to its pages:
/// the furthest any line reaches. None (no break is the wrapping's) when a
/// line runs past its page's right edge (nothing wrapped it) or the text
/// stops short of two thirds of the page's width (lines that short are
/// their writer's: text wrapped to a page fills most of it).
fn right_margin(pages: &[Vec<Line>]) -> Option<f64> {
    let lines = || pages.iter().flatten().filter(|l| !l.text.trim().is_empty());
    let (left, right) = lines().next()?.page;
    let margin = lines().map(|l| l.end).fold(f64::NEG_INFINITY, f64::max);
    let fits = lines().all(|l| l.end <= l.page.1 + l.size * 0.5);
    (fits && margin.is_finite() && right > left && margin - left >= (right - left) * 2.0 / 3.0)
        .then_some(margin)
}

/// The preview's note on a PDF locked by an owner password only.
const UNLOCKED: &str = "the PDF is protected by an owner password only (restrictions on copying, printing or editing), which opens with no password: its text was read";

/// A PDF's pages as read, or that it is locked.
enum Pages {
    /// Encrypted with a password needed to open it: its text cannot be read.
    Locked,
    Read {
        pages: Vec<Vec<Line>>,
        /// Pages (1-based) whose drawing made the reader fail, left empty.
        broken: Vec<usize>,
        /// Encrypted with an owner password only, opened with none.
        unlocked: bool,
    },
}

/// The lines of every page, as `pdf-extract` reads them (its plain-text
/// output, keeping each line break's gap instead of deciding at once
/// whether it is a paragraph break). Reading stops at the first page that
/// cannot be read, as the library's own page loop does. Encryption is the
/// parser's to tell (the trailer's `/Encrypt`): a scan of the bytes for
/// "/Encrypt" refused a file whose text says the word, and left the
/// owner-password case (which the parser opens with the empty password)
/// unreachable. A page the reader panics on (a font its resources lack)
/// is left empty and named, as a page with no content is; the others are
/// read (this runs in the conversion's child process, whose panic hook
/// says the panic and lets it unwind to here).
fn page_lines(bytes: &[u8]) -> Result<Pages, pdf_extract::OutputError> {
    let doc = load(bytes)?;
    // The parser removes `/Encrypt` from the trailer once the empty
    // password opened the file; still there, a password is needed.
    if doc.trailer.get(b"Encrypt").is_ok() {
        return Ok(Pages::Locked);
    }
    // The page tree, read once: a page it reaches again (a tree that
    // loops back on itself) is read once (it was stored three times,
    // 1.1, 1.1~2 and 1.1~3; found by an outside tester), and the pages
    // are counted before any is read (a tree that cannot be read is no
    // page at all, not a panic for every page number after the last).
    let tree = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| doc.get_pages()));
    let numbers = distinct_pages(&tree.unwrap_or_default());
    let (mut pages, mut broken) = (Vec::new(), Vec::new());
    for page in numbers {
        let mut out = LineOutput::default();
        let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pdf_extract::output_doc_page(&doc, &mut out, page)
        }));
        match drawn {
            Ok(Ok(())) => pages.push(out.finish()),
            Ok(Err(_)) => break,
            Err(_) => {
                broken.push(pages.len() + 1);
                pages.push(Vec::new());
            }
        }
    }
    Ok(Pages::Read {
        pages,
        broken,
        unlocked: doc.was_encrypted(),
    })
}

/// The page numbers of a page tree, in order, each page object once.
fn distinct_pages(tree: &std::collections::BTreeMap<u32, (u32, u16)>) -> Vec<u32> {
    let mut seen = std::collections::HashSet::new();
    tree.iter()
        .filter(|(_, id)| seen.insert(**id))
        .map(|(n, _)| *n)
        .collect()
}

/// The document as the parser reads it through its cross-reference table,
/// or, when that fails or the table does not lead to the objects (bytes
/// after `%%EOF`, line endings changed, offsets or `startxref` wrong: files
/// every desktop viewer opens), as read from the objects found in the file
/// ([`repair`]).
fn load(bytes: &[u8]) -> Result<pdf_extract::Document, pdf_extract::Error> {
    let start = bytes.windows(5).position(|w| w == b"%PDF-").unwrap_or(0);
    let first = pdf_extract::Document::load_mem(bytes);
    if let Ok(doc) = &first
        && repair::table_is_sound(doc, &bytes[start..])
    {
        return first;
    }
    match repair::rebuilt(bytes).map(|fixed| pdf_extract::Document::load_mem(&fixed)) {
        Some(Ok(doc)) => Ok(doc),
        _ => first,
    }
}

/// A glyph as drawn: where it starts and ends across the page, its
/// baseline, its size and its text.
#[derive(Debug)]
struct Glyph {
    x: f64,
    y: f64,
    end: f64,
    size: f64,
    char: String,
}

/// A glyph as it reads left to right across the page: one standing for
/// several right-to-left letters (an Arabic ligature, "لا") maps to them
/// in logical order, which reading the line in logical order again would
/// reverse ("ال").
fn visual(glyph: &Glyph) -> Glyph {
    let char = match glyph.char.chars().any(bidi::is_rtl) {
        true => glyph.char.chars().rev().collect(),
        false => glyph.char.clone(),
    };
    Glyph { char, ..*glyph }
}

/// Whether `glyph` is a footnote's marker set as a superscript on `line`:
/// a digit or a note's symbol ("*", "†") set smaller than the line's
/// text (by 15%) and raised off its baseline (by 15% of its size), as a
/// word processor sets "instead.¹". Such a marker reads "[1]", apart from
/// the word it is glued to, as a Markdown footnote's reference does.
fn superscript(line: &Line, glyph: &Glyph) -> bool {
    let noted = glyph
        .char
        .chars()
        .all(|c| c.is_ascii_digit() || "*†‡".contains(c));
    !glyph.char.is_empty()
        && noted
        && line.size > 0.0
        && !line.text.trim().is_empty()
        && glyph.size < line.size * 0.85
        && glyph.y > line.base + line.size * 0.15
        && glyph.y < line.base + line.size
}

/// Collects a page's characters into [`Line`]s.
#[derive(Default)]
struct LineOutput {
    lines: Vec<Line>,
    /// The glyphs of the page's lines holding right-to-left letters
    /// (`rtl_lines`) and of the line being read, each with the index of
    /// its line: those lines are read again from them
    /// ([`LineOutput::finish`]).
    glyphs: Vec<(usize, Glyph)>,
    rtl_lines: std::collections::BTreeSet<usize>,
    /// Every glyph goes on the one line (reading a line again).
    one_line: bool,
    /// The page's left and right edges.
    page: (f64, f64),
    last_end: f64,
    /// Where the last glyph with ink ended.
    last_ink: f64,
    last_y: f64,
    first_char: bool,
    /// Whether a space glyph was drawn since the last glyph with ink.
    drawn_space: bool,
}

impl pdf_extract::OutputDev for LineOutput {
    fn begin_page(
        &mut self,
        _: u32,
        media_box: &pdf_extract::MediaBox,
        _: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), pdf_extract::OutputError> {
        self.page = (
            media_box.llx.min(media_box.urx),
            media_box.llx.max(media_box.urx),
        );
        Ok(())
    }
    fn end_page(&mut self) -> Result<(), pdf_extract::OutputError> {
        Ok(())
    }
    fn output_character(
        &mut self,
        trm: &pdf_extract::Transform,
        width: f64,
        _: f64,
        font_size: f64,
        char: &str,
    ) -> Result<(), pdf_extract::OutputError> {
        // The glyph's size on the page: the side of the square as large as
        // its transformed box (as `pdf-extract` measures it).
        let size_x = font_size * (trm.m11 + trm.m21);
        let size_y = font_size * (trm.m12 + trm.m22);
        let size = (size_x * size_y).abs().sqrt();
        let glyph = Glyph {
            x: trm.m31,
            y: trm.m32,
            end: trm.m31 + width * size,
            size,
            char: char.to_string(),
        };
        self.place(&glyph);
        let line = self.lines.len().saturating_sub(1);
        if char.chars().any(bidi::is_rtl) {
            self.rtl_lines.insert(line);
        }
        // Only right-to-left lines are read again: the glyphs of a line
        // ended without any are let go (a page of Latin text keeps one
        // line's).
        while let Some(&(before, _)) = self.glyphs.last() {
            if before == line || self.rtl_lines.contains(&before) {
                break;
            }
            self.glyphs.pop();
        }
        self.glyphs.push((line, glyph));
        self.first_char = false;
        Ok(())
    }
    fn begin_word(&mut self) -> Result<(), pdf_extract::OutputError> {
        self.first_char = true;
        Ok(())
    }
    fn end_word(&mut self) -> Result<(), pdf_extract::OutputError> {
        Ok(())
    }
    fn end_line(&mut self) -> Result<(), pdf_extract::OutputError> {
        Ok(())
    }
}

impl LineOutput {
    /// Adds a glyph to the page's lines: on the line being read, after a
    /// space when it stands clear of the glyph before, or on a new line
    /// when it starts a word down a line (unless `one_line`).
    fn place(&mut self, glyph: &Glyph) {
        let Glyph {
            x,
            y,
            end,
            size,
            ref char,
        } = *glyph;
        let char = char.as_str();
        let mark = !self.one_line && self.lines.last().is_some_and(|l| superscript(l, glyph));
        if !mark {
            self.close_mark();
        }
        let dy = (y - self.last_y).abs();
        if self.lines.is_empty() {
            self.lines.push(Line {
                start: x,
                y,
                page: self.page,
                ..Line::default()
            });
        } else if self.first_char {
            // Down a line and back to the left, or well below the line.
            let down = dy > size * 1.5 || (x < self.last_end && dy > size * 0.5);
            if down && !self.one_line {
                self.close_mark();
                self.lines.push(Line {
                    gap: Some(dy),
                    y,
                    start: x,
                    page: self.page,
                    ..Line::default()
                });
            } else if x > self.last_end + size * 0.1 && !mark {
                self.push(" ");
                if x > self.last_end + size * columns::GAP_EM {
                    self.open_fragment(x, y);
                }
            }
        }
        let last_end = self.last_end;
        if let Some(line) = self.lines.last_mut() {
            // The first word ends at the first space after some text (the
            // font's own space or a gap read as one).
            let spaced = line.text.ends_with(' ') || char.trim().is_empty();
            if spaced && line.first_word_end.is_none() && !line.text.trim().is_empty() {
                line.first_word_end = Some(last_end);
            }
            if line.text.trim().is_empty() && !char.trim().is_empty() {
                line.start = x;
            }
            if let Some(fragment) = line.fragments.last_mut() {
                fragment.glyph(x, size, char, spaced.then_some(last_end));
            }
        }
        let last_ink = self.last_ink;
        if let Some(line) = self.lines.last_mut()
            && !char.trim().is_empty()
        {
            if !line.text.trim().is_empty() && x > last_ink + size * CELL_EM {
                line.cells.push((line.text.len(), x));
            }
            if !line.text.trim().is_empty() && x > last_ink + size * 0.1 {
                line.words.push(Word {
                    at: line.text.len(),
                    x,
                    gap: x - last_ink,
                    spaced: self.drawn_space,
                });
            }
            self.last_ink = end;
        }
        self.drawn_space = match char.is_empty() {
            true => self.drawn_space,
            false => char.trim().is_empty(),
        };
        if mark && self.lines.last().is_some_and(|l| !l.in_mark) {
            self.push("[");
            if let Some(line) = self.lines.last_mut() {
                line.in_mark = true;
            }
        }
        self.push(char);
        if let Some(line) = self.lines.last_mut() {
            if !mark && size >= line.size * 0.95 {
                line.base = y;
            }
            if line.first_size == 0.0 && !char.trim().is_empty() {
                line.first_size = size;
            }
            line.size = line.size.max(size);
            if !char.trim().is_empty() {
                line.end = end;
            }
            if let Some(fragment) = line.fragments.last_mut() {
                fragment.inked(end, char);
            }
        }
        if !mark {
            self.last_y = y;
        }
        self.last_end = end;
    }

    /// Ends the superscript marker open at the last line's end, if any.
    fn close_mark(&mut self) {
        if let Some(line) = self.lines.last_mut()
            && std::mem::take(&mut line.in_mark)
        {
            line.text.push(']');
        }
    }

    /// The page's lines, each holding right-to-left letters read again
    /// from its glyphs left to right across the page: a producer draws
    /// such a line's runs in any order (LibreOffice draws a rule's number,
    /// then its full stop at the far left, then its words), so the stream
    /// order is neither the visual nor the logical one; [`bidi`] then puts
    /// the visual line in logical order.
    fn finish(mut self) -> Vec<Line> {
        self.close_mark();
        let mut glyphs = std::mem::take(&mut self.glyphs);
        glyphs.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.x.total_cmp(&b.1.x)));
        for run in glyphs.chunk_by(|a, b| a.0 == b.0) {
            let i = run[0].0;
            if !self.rtl_lines.contains(&i) {
                continue;
            }
            let mut again = LineOutput {
                page: self.page,
                one_line: true,
                ..LineOutput::default()
            };
            for (_, glyph) in run {
                again.first_char = true;
                again.place(&visual(glyph));
            }
            if let (Some(line), Some(read)) = (self.lines.get_mut(i), again.lines.pop()) {
                *line = Line {
                    gap: line.gap,
                    y: line.y,
                    ..read
                };
            }
        }
        self.lines
    }

    fn push(&mut self, s: &str) {
        if let Some(line) = self.lines.last_mut() {
            line.text.push_str(s);
        }
    }

    /// Starts a run of glyphs at `x`, `y` after a wide gap in the line (the
    /// space read for the gap already pushed): the run before it has its
    /// first word end where its last glyph does, if not before.
    fn open_fragment(&mut self, x: f64, y: f64) {
        let last_end = self.last_end;
        if let Some(line) = self.lines.last_mut() {
            if let Some(before) = line.fragments.last_mut() {
                before.first_word_end.get_or_insert(last_end);
            }
            line.fragments.push(columns::Fragment {
                at: line.text.len(),
                start: x,
                end: x,
                y,
                size: 0.0,
                first_word_end: None,
                end_before: line.end,
                size_before: line.size,
                inked: false,
            });
        }
    }
}

/// How many lines at a page's top, and at its bottom, may be a running
/// header or footer (a title and a page number above each other).
const EDGE_LINES: usize = 2;

/// A line as a running header or footer repeats it: its words, each run of
/// digits as `N` ("Page 4" and "Page 5" are "Page N", "4 of 120" is
/// "N of N"). Empty for a line with no letter or digit.
fn running_key(text: &str) -> String {
    if !text.chars().any(char::is_alphanumeric) {
        return String::new();
    }
    let mut key = String::new();
    for word in text.split_whitespace() {
        if !key.is_empty() {
            key.push(' ');
        }
        let mut digits = false;
        for c in word.chars() {
            if !c.is_ascii_digit() {
                key.push(c);
            } else if !digits {
                key.push('N');
            }
            digits = c.is_ascii_digit();
        }
    }
    key
}

/// The indices of a page's top and bottom lines ([`EDGE_LINES`] each,
/// highest and lowest on the page, whatever order they were drawn in),
/// each with whether it is at the top.
fn edge_lines(lines: &[Line]) -> Vec<(usize, bool)> {
    let mut order: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].text.trim().is_empty())
        .collect();
    order.sort_by(|&a, &b| lines[b].y.total_cmp(&lines[a].y));
    let top = order.iter().take(EDGE_LINES).map(|&i| (i, true));
    let skip = order.len().saturating_sub(EDGE_LINES).max(EDGE_LINES);
    let bottom = order.iter().skip(skip).map(|&i| (i, false));
    top.chain(bottom).collect()
}

/// Drops running headers and footers before the text is read: a line
/// among a page's top or bottom lines that, its numbers aside, stands in
/// the same place on most pages (more than half, three at least), seldom
/// anywhere else (fewer times than a quarter of those pages: formulaic
/// rules repeat whole lines, at a page's edge too) and does not start like
/// a numbered rule or item: a running title, "Page 4", "4", "4 of 120". Left in, they broke sentences at
/// every page ("A limited / Page 4 / … / deck may contain") and read as
/// rules. A document of two pages has too few to tell by count: there a
/// line on both pages, nowhere else, and set smaller than each page's text
/// or standing outermost on them ([`outermost`])
/// is one (a two-page book's "Page 1 of 2" split a rule's sentence).
/// Returns a preview note for each one dropped.
fn drop_running(pages: &mut [Vec<Line>]) -> Vec<String> {
    let mut seen = std::collections::BTreeMap::<(bool, String), usize>::new();
    // The same by the page's side: a book sets its title over the left
    // pages and its chapter over the right ones.
    let mut seen_side = std::collections::BTreeMap::<(usize, bool, String), usize>::new();
    let mut elsewhere = std::collections::BTreeMap::<String, usize>::new();
    // Whether a key's every line is set smaller than its page's text.
    let mut small = std::collections::BTreeMap::<(bool, String), bool>::new();
    let edges: Vec<Vec<(usize, bool)>> = pages.iter().map(|l| edge_lines(l)).collect();
    for (p, (lines, edges)) in pages.iter().zip(&edges).enumerate() {
        let body = columns::body_size(
            &lines
                .iter()
                .filter(|l| !l.text.trim().is_empty())
                .collect::<Vec<_>>(),
        );
        let keys: std::collections::BTreeSet<(bool, String)> = edges
            .iter()
            .filter(|&&(i, _)| !crate::corpus::numbered::starts_item(&lines[i].text))
            .map(|&(i, top)| {
                let key = (top, running_key(&lines[i].text));
                let smaller = lines[i].size * 1.1 < body || outermost(lines, i, top);
                small
                    .entry(key.clone())
                    .and_modify(|s| *s &= smaller)
                    .or_insert(smaller);
                key
            })
            .filter(|(_, key)| !key.is_empty())
            .collect();
        for key in keys {
            *seen_side.entry((p % 2, key.0, key.1.clone())).or_default() += 1;
            *seen.entry(key).or_default() += 1;
        }
        let inner = (0..lines.len()).filter(|i| !edges.iter().any(|(e, _)| e == i));
        for i in inner {
            *elsewhere.entry(running_key(&lines[i].text)).or_default() += 1;
        }
    }
    let total = pages.len();
    let on_side = |side: usize| (total + 1 - side) / 2;
    let running = |key: &(bool, String)| {
        let inside = elsewhere.get(&key.1).copied().unwrap_or(0);
        let most = |n: usize, of: usize| n >= 3 && n * 2 > of && inside * 4 < n;
        let two_pages = total == 2 && inside == 0 && small.get(key) == Some(&true);
        seen.get(key)
            .is_some_and(|&n| most(n, total) || (two_pages && n == 2))
            || (0..2).any(|side| {
                seen_side
                    .get(&(side, key.0, key.1.clone()))
                    .is_some_and(|&n| most(n, on_side(side)))
            })
    };
    let mut dropped = std::collections::BTreeMap::<(bool, String), usize>::new();
    for (lines, edges) in pages.iter_mut().zip(&edges) {
        let mut gone = vec![false; lines.len()];
        for &(i, top) in edges {
            let key = (top, running_key(&lines[i].text));
            if running(&key) && !gone[i] {
                gone[i] = true;
                *dropped.entry(key).or_default() += 1;
            }
        }
        drop_lines(lines, &gone);
    }
    dropped
        .into_iter()
        .map(|((top, key), n)| {
            let what = if top { "header" } else { "footer" };
            format!("dropped a running {what} (“{key}”) on {n} pages")
        })
        .collect()
}

/// Whether line `i` is its page's highest (`top`) or lowest line, set
/// off from the text next to it by more than a paragraph's gap or
/// holding a number (a page's, as "Page 2" sits a line below the text): where a
/// running header or footer stands in the body's own size (LibreOffice's
/// "Emberfall Rulebook" over each page and "Page 1" under it, read as a
/// heading and a reference in a two-page document).
fn outermost(lines: &[Line], i: usize, top: bool) -> bool {
    let inked = || lines.iter().filter(|l| !l.text.trim().is_empty());
    let ys = inked().map(|l| l.y);
    let edge = match top {
        true => ys.fold(f64::NEG_INFINITY, f64::max),
        false => ys.fold(f64::INFINITY, f64::min),
    };
    let line = &lines[i];
    let next = inked()
        .map(|l| (l.y - line.y).abs())
        .filter(|d| *d > 0.5)
        .fold(f64::INFINITY, f64::min);
    let numbered = line.text.chars().any(|c| c.is_ascii_digit());
    line.y == edge && next.is_finite() && (numbered || next > line.size * 1.5)
}

/// Removes the lines marked `gone`; a line that followed one is measured
/// from the line now above it (none: it starts the page).
fn drop_lines(lines: &mut Vec<Line>, gone: &[bool]) {
    let mut kept: Vec<Line> = Vec::with_capacity(lines.len());
    let mut after_gone = false;
    for (mut line, gone) in std::mem::take(lines).into_iter().zip(gone) {
        if *gone {
            after_gone = true;
            continue;
        }
        if std::mem::take(&mut after_gone) {
            line.gap = kept.last().map(|above| (above.y - line.y).abs());
        }
        kept.push(line);
    }
    *lines = kept;
}

/// The gap between lines above which lines are a paragraph apart, in
/// font sizes: 1.5, as `pdf-extract` decides, unless the document is set
/// wider. Its line spacing is the smallest gap (to 0.05) that at least a
/// twentieth of its line breaks (two at least) have: most breaks are within
/// paragraphs. When that is near 1.5 or over (1.4 to 2: 1.5 or 1.7
/// spacing), only a gap clearly wider (by 30%) is a paragraph, if the
/// document has such gaps: below 1.4 the lines stay clear of 1.5 and a
/// paragraph set 1.5 apart is one (a review found 1.27 spacing with
/// paragraphs 1.55 apart merged); with no wider gaps, or a spacing past 2
/// (one-line paragraphs a blank line apart), the gaps cannot tell, and 1.5
/// is kept.
fn paragraph_gap(pages: &[Vec<Line>]) -> f64 {
    let mut counts = std::collections::BTreeMap::<u64, usize>::new();
    let gaps = pages
        .iter()
        .flat_map(|lines| lines.windows(2).filter_map(|w| w[1].spacing(&w[0])));
    for gap in gaps.filter(|g| g.is_finite()) {
        *counts.entry((gap * 20.0).round() as u64).or_default() += 1;
    }
    let total: usize = counts.values().sum();
    let spacing = counts
        .iter()
        .find(|(_, n)| **n >= 2 && **n * 20 >= total)
        .map(|(bucket, _)| *bucket as f64 / 20.0);
    let widest = counts.keys().next_back().map_or(0.0, |b| *b as f64 / 20.0);
    match spacing {
        Some(s) if (1.4..=2.0).contains(&s) && widest > s * 1.3 => s * 1.3,
        _ => 1.5,
    }
}

/// Each page's text, a blank line where lines are a paragraph apart: more
/// than one and a half font sizes, and clearly more (by 30%) than the
/// document's own line spacing, so that text set at 1.5 or double spacing
/// is not read as a paragraph a line; or set in another size (a heading).
/// A line the wrapping broke (see [`Line::wraps_into`]) goes on with a
/// space, not a line break, so the paragraph reads as it was written: a
/// wrapped line starting "107.8 and rule 711" is not a rule. Each page
/// comes with how its last line goes on to the next page's first.
fn paragraphs(pages: &[Vec<Line>], spelling: &Spelling) -> Vec<(String, PageEnd)> {
    let threshold = paragraph_gap(pages);
    let margin = right_margin(pages);
    pages
        .iter()
        .enumerate()
        .map(|(p, lines)| {
            let aligned = aligned_cells(lines);
            let lines = aligned.as_slice();
            let mut page = String::new();
            for (i, line) in lines.iter().enumerate() {
                let row = |j: usize| {
                    let near = |k: usize| lines.get(k).is_some_and(|o| same_table(&lines[j], o));
                    j.checked_sub(1).is_some_and(near) || near(j + 1)
                };
                if row(i) {
                    if i > 0 && row(i - 1) && same_table(&lines[i - 1], line) {
                        page.push('\n');
                    } else if i > 0 {
                        page.push_str("\n\n");
                    }
                    page.push_str(&cells(line));
                    continue;
                }
                if let Some(above) = i.checked_sub(1).map(|i| &lines[i]) {
                    let next = (page.as_str(), &lines[i..]);
                    match joint(next, above, threshold, margin) {
                        Turn::Wrap => {
                            push_wrapped(&mut page, line.text.trim_end(), spelling);
                            continue;
                        }
                        Turn::Paragraph => page.push_str("\n\n"),
                        Turn::Line => page.push('\n'),
                    }
                }
                page.push_str(line.text.trim_end());
            }
            let next_first = pages[p + 1..].iter().find_map(|l| l.first());
            let wraps = match (lines.last(), next_first) {
                (Some(last), Some(first)) => !first.resized(last) && wrapped(last, first, margin),
                _ => false,
            };
            let columned = lines.last().is_some_and(|l| l.column.is_some());
            (page, PageEnd { wraps, columned })
        })
        .collect()
}

/// The page's lines, a line beside a table's row given the cells that
/// stand in line with the row's: LibreOffice sizes a narrow first column
/// to its widest word, which then stands closer to the next cell than
/// [`CELL_EM`] ("Upkeep" 0.41 font sizes from "Roll the weather die"),
/// and that row, read as one run of words, broke the table: its rows
/// were read as headings with no text under them and left out. A word
/// starts a cell where it starts within a quarter of a font size of the
/// row's cell, after a gap with no space glyph drawn in it, and either
/// every other gap of its line holds one (LibreOffice draws a space
/// between words, none between cells) or the gap is wider than a space
/// (0.35 font sizes) and than every other gap of its line by 15% (a
/// producer that draws no spaces; justified text spaces a line's words
/// evenly). Done again until no line changes, so a table of several such
/// rows is read whole.
fn aligned_cells(lines: &[Line]) -> Vec<Line> {
    let mut out = lines.to_vec();
    loop {
        let mut changed = false;
        for i in 0..out.len() {
            let near = [i.checked_sub(1), Some(i + 1)];
            let found = near
                .into_iter()
                .flatten()
                .filter_map(|j| out.get(j))
                .find_map(|row| cells_in_line(&out[i], row));
            if let Some(cells) = found {
                out[i].cells = cells;
                changed = true;
            }
        }
        if !changed {
            return out;
        }
    }
}

/// The cells `line` has where `row`'s stand (see [`aligned_cells`]), when
/// it has fewer of its own and every one of `row`'s is found.
fn cells_in_line(line: &Line, row: &Line) -> Option<Vec<(usize, f64)>> {
    let size = line.size.max(row.size);
    let near = (line.y - row.y).abs() < size * 4.0
        && line.column.is_none()
        && row.column.is_none()
        && (line.start - row.start).abs() < size * 0.25;
    if !near || row.cells.is_empty() || line.cells.len() >= row.cells.len() {
        return None;
    }
    let in_line = |x: f64| row.cells.iter().any(|c| (c.1 - x).abs() < size * 0.25);
    let others = || line.words.iter().filter(|w| !in_line(w.x));
    let spaced = others().all(|w| w.spaced);
    let widest = others().map(|w| w.gap).fold(0.0, f64::max);
    let cell = |x: f64| {
        line.words.iter().find(|w| {
            (w.x - x).abs() < size * 0.25
                && !w.spaced
                && (spaced || (w.gap > size * 0.35 && w.gap > widest * 1.15))
        })
    };
    row.cells
        .iter()
        .map(|&(_, x)| cell(x).map(|w| (w.at, w.x)))
        .collect()
}

/// The starts across the page of a line's cells: its runs of text after
/// gaps wider than [`CELL_EM`], the first at the line's start.
fn cell_starts(line: &Line) -> Vec<f64> {
    let runs = line.cells.iter().map(|c| c.1);
    std::iter::once(line.start).chain(runs).collect()
}

/// Whether `a` and `b` are rows of one table (a word processor's table,
/// LibreOffice's "Phase | What happens"): each has two cells or more, the
/// cells after the first starting where the other's do, they start at the
/// same place, less than four font sizes apart, a cell of one of them
/// holding words (not a monospaced font's lines, [`worded`]). Set
/// apart by the cells' padding, such rows were each a paragraph, read as
/// headings with no text under them and left out (a rulebook's only
/// hand-limit rule, "End | Discard to 7 cards", was lost so).
fn same_table(a: &Line, b: &Line) -> bool {
    let (sa, sb) = (cell_starts(a), cell_starts(b));
    let size = a.size.max(b.size);
    let close = |x: f64, y: f64| (x - y).abs() < size * 0.25;
    sa.len() >= 2
        && sa.len() == sb.len()
        && !a.text.trim().is_empty()
        && !b.text.trim().is_empty()
        && sa.iter().zip(&sb).all(|(x, y)| close(*x, *y))
        && a.column.is_none()
        && b.column.is_none()
        && (a.y - b.y).abs() < size * 4.0
        && (worded(a) || worded(b))
}

/// Whether a cell of the line holds more than one word: in a monospaced
/// font (Courier's space is 0.6 of its size) every word stands a cell
/// apart, and its lines' words stand in line.
fn worded(line: &Line) -> bool {
    cells(line).split(" | ").any(|c| c.trim().contains(' '))
}

/// A table row's text: its cells joined by " | ", as a Markdown table's
/// row reads.
fn cells(line: &Line) -> String {
    let mut out = String::new();
    let mut from = 0;
    for &(at, _) in &line.cells {
        let cell = line.text.get(from..at).unwrap_or_default().trim();
        if !cell.is_empty() {
            out.push_str(cell);
            out.push_str(" | ");
        }
        from = at;
    }
    out.push_str(line.text.get(from..).unwrap_or_default().trim());
    out
}

/// How a page's text ends: whether its last line wraps into the next
/// page's first, and whether it stands in a column.
#[derive(Clone, Copy, Default)]
struct PageEnd {
    wraps: bool,
    columned: bool,
}

/// Whether `text` ends with a heading of its own: a title-like line a
/// paragraph apart from the text before it. At a column's foot it is
/// kept apart from the paragraph at the next column's head (a heading set
/// in the body's size has no gap below it there to tell), unless the
/// wrapping broke it there: a rule's first line ("3.1 Wind hull harbor
/// airs-") reads title-like too, and was left broken ("airs- hip").
fn ends_with_heading(text: &str) -> bool {
    let text = text.trim_end_matches('\n');
    let last = text.rsplit('\n').next().unwrap_or_default();
    let before = &text[..text.len() - last.len()];
    (before.is_empty() || before.ends_with("\n\n")) && crate::corpus::numbered::title_like(last)
}

/// How the text goes on from one printed line to the next.
#[derive(Debug, PartialEq)]
enum Turn {
    /// The wrapping broke it: joined with a space.
    Wrap,
    /// On the next line of the same paragraph.
    Line,
    /// A paragraph apart.
    Paragraph,
}

/// How the first of `lines` goes on from `above` on a page whose text so
/// far is `page`: a paragraph apart by their gap or sizes, else joined
/// where the wrapping broke the line; at the head of a column after the
/// first, as across a page break ([`turn`], with the paragraph the column
/// starts: no gap tells there), unless their sizes differ (a heading at
/// the column's foot or head).
fn joint(
    (page, lines): (&str, &[Line]),
    above: &Line,
    threshold: f64,
    margin: Option<f64>,
) -> Turn {
    let Some(line) = lines.first() else {
        return Turn::Line;
    };
    let wraps = wrapped(above, line, margin);
    if line.turns_column && ends_with_heading(page) && !wraps {
        return Turn::Paragraph;
    }
    if line.turns_column && !line.resized(above) {
        let last = page.lines().next_back().unwrap_or_default();
        return turn(last, &run_on(lines, threshold, margin), wraps);
    }
    if line.spacing(above).is_some_and(|s| s > threshold) || line.resized(above) {
        Turn::Paragraph
    } else if wraps {
        Turn::Wrap
    } else {
        Turn::Line
    }
}

/// The first of `lines` with the lines the wrapping broke off it, as one
/// line: what a column's head reads as (a printed line "The automa never
/// trades, never feeds its" is no title).
fn run_on(lines: &[Line], threshold: f64, margin: Option<f64>) -> String {
    let mut out = lines
        .first()
        .map(|l| l.text.trim_end().to_string())
        .unwrap_or_default();
    for (i, line) in lines.iter().enumerate().skip(1) {
        if line.turns_column
            || joint(("", &lines[i..]), &lines[i - 1], threshold, margin) != Turn::Wrap
        {
            break;
        }
        out.push(' ');
        out.push_str(line.text.trim());
    }
    out
}

/// How the text goes on across a page break (or a column's) from the line
/// `last` to `first`, where no gap between lines tells: joined when the
/// wrapping broke `last` (`wraps`) unless a sentence ends before a title;
/// a paragraph apart when a sentence or a heading ends before a title or a
/// numbered rule (a heading at a page's foot, "8.3 Fog Cards", before a
/// sub-heading at the next one's head is a heading of its own); else on
/// the next line.
fn turn(last: &str, first: &str, wraps: bool) -> Turn {
    use crate::corpus::numbered::{ends_sentence, is_numbered_line, title_like};
    let title = title_like(first);
    let starts_anew = title || is_numbered_line(first);
    let ends = last
        .trim_end()
        .ends_with(['.', '!', '?', ':', ';', '"', '”', ')']);
    if wraps && !(ends_sentence(last) && title) {
        Turn::Wrap
    } else if (ends || title_like(last)) && starts_anew {
        Turn::Paragraph
    } else {
        Turn::Line
    }
}

/// The pages as one text. A page break is not a paragraph break (see
/// [`turn`]).
fn join_pages(pages: &[(String, PageEnd)], spelling: &Spelling) -> String {
    let mut out = String::new();
    let mut ended = PageEnd::default();
    for (page, end) in pages {
        let page = tidy(page);
        let page = page.trim_matches('\n');
        if page.is_empty() {
            continue;
        }
        if let Some(last) = out.lines().next_back() {
            let first = page.lines().next().unwrap_or_default();
            let heading = ended.columned && !ended.wraps && ends_with_heading(&out);
            match turn(last, first, ended.wraps && !heading) {
                Turn::Wrap => {
                    // `out` ends with a line break: the wrapped line goes on.
                    out.pop();
                    push_wrapped(&mut out, page, spelling);
                    out.push('\n');
                    ended = *end;
                    continue;
                }
                _ if heading => out.push('\n'),
                Turn::Paragraph => out.push('\n'),
                Turn::Line => {}
            }
        }
        out.push_str(page);
        out.push('\n');
        ended = *end;
    }
    out
}

/// Trailing spaces off, page breaks and runs of blank lines down to one blank line.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blanks = 0;
    for line in text.lines() {
        let line = line.replace('\u{c}', "");
        let line = line.trim_end();
        if line.trim().is_empty() {
            blanks += 1;
            continue;
        }
        if blanks > 0 && !out.is_empty() {
            out.push('\n');
        }
        blanks = 0;
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Text with no markup: a line that reads as a title and stands alone (blank
/// lines around it) becomes a `##` heading, so the Markdown parser gives the
/// document sections.
pub(super) fn promote_headings(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let blank = |i: Option<usize>| {
        i.and_then(|i| lines.get(i))
            .is_none_or(|l| l.trim().is_empty())
    };
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in lines.iter().enumerate() {
        let alone = blank(i.checked_sub(1)) && blank(Some(i + 1));
        let listy = line
            .trim_start()
            .starts_with(['•', '-', '*', '»', '#', '>']);
        if alone && !listy && crate::corpus::numbered::title_like(line) {
            out.push_str("## ");
            out.push_str(line.trim());
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(gaps: &[f64]) -> Vec<Line> {
        let line = |gap| Line {
            gap,
            size: 10.0,
            text: "x".into(),
            ..Line::default()
        };
        std::iter::once(line(None))
            .chain(gaps.iter().map(|g| line(Some(g * 10.0))))
            .collect()
    }

    /// A 10-point line at `start`..`end` on a 612-point page, its first
    /// word `word` wide.
    fn at(text: &str, start: f64, end: f64, word: f64) -> Line {
        Line {
            gap: Some(12.0),
            size: 10.0,
            text: text.into(),
            start,
            end,
            first_word_end: Some(start + word),
            page: (0.0, 612.0),
            ..Line::default()
        }
    }

    /// A page of body lines from 700 down, a page number drawn first at
    /// the bottom (as some writers draw it) and a title at the top.
    fn numbered_page(n: usize, body: &[&str]) -> Vec<Line> {
        let line = |text: String, y: f64| Line {
            gap: Some(12.0),
            size: 10.0,
            text,
            y,
            ..Line::default()
        };
        let mut lines = vec![line(format!("{n} of 12"), 30.0)];
        lines.push(line("Our League Rules".into(), 760.0));
        for (i, text) in body.iter().enumerate() {
            lines.push(line((*text).into(), 700.0 - 12.0 * i as f64));
        }
        lines
    }

    /// A page number and a title on most pages, at the top or the bottom
    /// whatever order they were drawn in, are dropped and said once each;
    /// a body line repeated on every page is kept, even at a page's edge.
    #[test]
    fn pages_without_text_are_named_when_others_have_some() {
        let page = |text: &str| vec![at(text, 72.0, 300.0, 100.0)];
        let pages = vec![
            page("1. Setup"),
            vec![],
            vec![],
            page(""),
            page("3. Scoring"),
            vec![],
        ];
        let note = pages_without_text(&pages, &[false; 6]).unwrap();
        assert!(note.starts_with("pages 2–4, 6 of 6 hold no text"), "{note}");
        assert!(pages_without_text(&[page("1. Setup")], &[false]).is_none());
        assert!(pages_without_text(&[vec![], vec![]], &[false; 2]).is_none());
        // A page the reader could not read is named apart, not as blank.
        let mut broken = [false; 6];
        broken[1] = true;
        let note = pages_without_text(&pages, &broken).unwrap();
        assert!(note.starts_with("pages 3–4, 6 of 6 hold no text"), "{note}");
        let note = pages_not_read(&[2, 4, 5], 6).unwrap();
        assert!(note.starts_with("pages 2, 4–5 of 6 are damaged"), "{note}");
    }

    #[test]
    fn running_headers_and_footers_are_dropped_wherever_drawn() {
        assert_eq!(running_key("Page 4"), running_key("Page 17"));
        assert_eq!(running_key("4 of 120"), "N of N");
        assert_eq!(running_key("— · —"), "");
        let body = [
            "Each player draws.",
            "Then play passes on.",
            "Each player draws.",
            "Each player draws.",
            "1.2 Draw.",
        ];
        let mut pages: Vec<Vec<Line>> = (1..=4).map(|n| numbered_page(n, &body)).collect();
        pages.push(numbered_page(5, &["Each player draws."]));
        let notes = drop_running(&mut pages);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes.iter().all(|n| n.ends_with("on 5 pages")), "{notes:?}");
        let texts: Vec<&str> = pages[0].iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, body);
        assert!(pages[0][0].gap.is_none(), "the page's first line now");
        assert_eq!(pages[4].len(), 1);
    }

    /// A line is the wrapping's when the next one's first word would not
    /// have fit after it and the next starts no further right; not when
    /// it ends a sentence before a numbered item or a label, and never in
    /// a document whose lines run off the page or stay in its left half.
    #[test]
    fn a_break_is_the_wrappings_only_where_the_next_word_did_not_fit() {
        let full = at("See rule", 40.0, 560.0, 40.0);
        let number = at("107.8 and rule 711.", 40.0, 150.0, 25.0);
        let margin = Some(570.0);
        assert!(wrapped(&full, &number, margin));
        let short = at("See rule", 40.0, 400.0, 40.0);
        assert!(!wrapped(&short, &number, margin));
        let indented = at("Example: a rule.", 80.0, 200.0, 45.0);
        assert!(!wrapped(&full, &indented, margin));
        let sentence = at("as appropriate.", 40.0, 560.0, 40.0);
        assert!(!wrapped(
            &sentence,
            &at("2. An item.", 40.0, 150.0, 12.0),
            margin
        ));
        assert!(!wrapped(
            &sentence,
            &at("Example: x.", 40.0, 150.0, 45.0),
            margin
        ));
        assert!(wrapped(
            &sentence,
            &at("And so on.", 40.0, 150.0, 20.0),
            margin
        ));
        assert!(!wrapped(&full, &number, None));
        // A justified line fills its width: nothing fits after it, but
        // no wrapped line starts with a bullet.
        let justified = at("each player takes all of", 40.0, 569.0, 20.0);
        assert!(wrapped(
            &justified,
            &at("the herons.", 40.0, 150.0, 12.0),
            margin
        ));
        for item in ["\u{F0B7}\tfive energy tokens;", "• one nest board."] {
            assert!(!wrapped(&justified, &at(item, 40.0, 150.0, 4.0), margin));
        }
        let page = |end| vec![at("a", 40.0, end, 5.0), at("b", 40.0, 100.0, 5.0)];
        assert_eq!(right_margin(&[page(560.0)]), Some(560.0));
        assert_eq!(right_margin(&[page(700.0)]), None);
        assert_eq!(right_margin(&[page(300.0)]), None);
    }

    /// Lines 1.27 apart, paragraphs 1.55: the paragraphs stay (they were
    /// merged when any spacing under 2 raised the threshold); lines 1.5
    /// apart, paragraphs 2.2: the lines are not paragraphs.
    #[test]
    fn the_paragraph_gap_follows_the_documents_own_spacing() {
        let mut single = vec![1.27; 40];
        single.extend([1.55, 1.55, 1.55, 2.4]);
        assert_eq!(paragraph_gap(&[page(&single)]), 1.5);
        let mut wide = vec![1.5; 40];
        wide.extend([2.2, 2.2, 2.2]);
        let gap = paragraph_gap(&[page(&wide)]);
        assert!(gap > 1.5 && gap < 2.2, "{gap}");
    }

    /// A rule's first line at a column's foot reads title-like ("3.1 Wind
    /// hull harbor airs-"); when the wrapping broke it, it goes on into the
    /// next column's head, and across a page break, as one word ("airs- /
    /// hip" was kept apart as a heading's end).
    #[test]
    fn a_rules_first_line_broken_at_a_columns_foot_goes_on() {
        let above = Line {
            column: Some((40.0, 290.0)),
            ..at("3.1 Wind hull harbor airs-", 40.0, 288.0, 20.0)
        };
        let head = Line {
            column: Some((310.0, 560.0)),
            turns_column: true,
            gap: None,
            ..at("hip token crew signal.", 310.0, 420.0, 15.0)
        };
        let page = "3. Turn Structure\n\n3.1 Wind hull harbor airs-";
        let lines = [head];
        assert_eq!(joint((page, &lines), &above, 1.5, Some(560.0)), Turn::Wrap);
        // A short heading at the foot stays apart.
        let heading = Line {
            column: Some((40.0, 290.0)),
            ..at("Trading", 40.0, 80.0, 40.0)
        };
        assert_eq!(
            joint(("x.\n\nTrading", &lines), &heading, 1.5, Some(560.0)),
            Turn::Paragraph
        );
        let end = |wraps| PageEnd {
            wraps,
            columned: true,
        };
        let pages = [
            (page.to_string(), end(true)),
            ("hip token crew signal.".to_string(), end(false)),
        ];
        let text = join_pages(&pages, &Spelling::default());
        assert!(
            text.contains("3.1 Wind hull harbor airship token"),
            "{text}"
        );
        let pages = [
            ("x.\n\nTrading".to_string(), end(false)),
            ("Players may trade.".to_string(), end(false)),
        ];
        assert!(join_pages(&pages, &Spelling::default()).contains("Trading\n\nPlayers"));
    }
}
