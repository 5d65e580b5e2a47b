//! A minimal PDF writer for the tests: text lines in Helvetica (a standard
//! font, WinAnsi encoding), one PDF line per text line, a blank line as an
//! empty line, 60 lines a page; or wrapped as a real page wraps them
//! ([`from_text_wrapped`]). Enough for a real PDF reader to extract the
//! text back; no dependency needed.

const LINES_PER_PAGE: usize = 60;

/// A PDF whose pages show `text`, line by line.
pub fn from_text(text: &str) -> Vec<u8> {
    let lines: Vec<&str> = text.lines().collect();
    let pages: Vec<String> = lines.chunks(LINES_PER_PAGE).map(page_content).collect();
    assemble(&pages)
}

/// A PDF of `text` wrapped as a word processor or fpdf2 wraps it: each text
/// line broken at spaces into printed lines of at most `columns`
/// characters (a word longer than that is cut), set in Courier (every
/// glyph 0.6 font sizes wide, so `columns` characters is a fixed width:
/// 95 at 10 points fill a letter page's 570-point measure, about what a
/// 10-point A4 page holds), 60 printed lines a page. The printed lines a
/// text line wraps into stand as close as the lines of a paragraph; a blank
/// line is an empty line.
pub fn from_text_wrapped(text: &str, columns: usize) -> Vec<u8> {
    let printed: Vec<String> = text.lines().flat_map(|l| wrap(l, columns)).collect();
    let lines: Vec<&str> = printed.iter().map(String::as_str).collect();
    let pages: Vec<String> = lines.chunks(LINES_PER_PAGE).map(page_content).collect();
    assemble_in(&pages, "Courier")
}

/// [`from_text_wrapped`] with a running header (`header`, 8 points, above
/// the text) and footer ("Page N", below it) on every page, the footer
/// drawn last, as fpdf2 draws them.
pub fn from_text_wrapped_running(text: &str, columns: usize, header: &str) -> Vec<u8> {
    from_text_wrapped_sided(text, columns, header, header)
}

/// [`from_text_wrapped_running`] with one header over the left pages (the
/// 2nd, 4th, …) and another over the right ones, as a book sets its title
/// and its chapter.
pub fn from_text_wrapped_sided(text: &str, columns: usize, right: &str, left: &str) -> Vec<u8> {
    let printed: Vec<String> = text.lines().flat_map(|l| wrap(l, columns)).collect();
    let lines: Vec<&str> = printed.iter().map(String::as_str).collect();
    let pages: Vec<String> = lines
        .chunks(LINES_PER_PAGE)
        .enumerate()
        .map(|(i, chunk)| {
            format!(
                "BT\n/F1 8 Tf\n40 778 Td\n({}) Tj\nET\n{}BT\n/F1 8 Tf\n290 30 Td\n(Page {}) Tj\nET\n",
                escape(if i % 2 == 0 { right } else { left }),
                page_content(chunk),
                i + 1
            )
        })
        .collect();
    assemble_in(&pages, "Courier")
}

/// A PDF of `text`, one printed line a text line as [`from_text`], each
/// set in the size `size` gives it (10 points for most, a larger one for
/// what a writer set bold and larger), 14 points apart.
pub fn from_text_sized(text: &str, size: impl Fn(&str) -> u32) -> Vec<u8> {
    let lines: Vec<&str> = text.lines().collect();
    let page = |lines: &[&str]| {
        let mut s = String::from("BT\n14 TL\n40 760 Td\n");
        for line in lines {
            s.push_str(&format!("/F1 {} Tf\n(", size(line)));
            s.push_str(&escape(line));
            s.push_str(") Tj T*\n");
        }
        s.push_str("ET\n");
        s
    };
    let pages: Vec<String> = lines.chunks(48).map(page).collect();
    assemble(&pages)
}

/// A character's width in Helvetica, in thousandths of a font size (its
/// AFM metrics; 556, a digit's, for what is not listed).
fn helvetica_width(c: char) -> u32 {
    match c {
        ' ' | 'f' | 't' | 'I' | '.' | ',' | ':' | ';' | '!' | '/' => 278,
        'i' | 'j' | 'l' => 222,
        'r' | '(' | ')' | '-' => 333,
        'c' | 'k' | 's' | 'v' | 'x' | 'y' | 'z' | 'J' => 500,
        'm' | 'M' => 833,
        'w' | 'C' | 'D' | 'H' | 'N' | 'R' | 'U' => 722,
        'A' | 'B' | 'E' | 'K' | 'P' | 'S' | 'V' | 'X' | 'Y' => 667,
        'F' | 'T' | 'Z' => 611,
        'G' | 'O' | 'Q' => 778,
        'W' => 944,
        'L' => 556,
        '\'' => 191,
        '"' => 355,
        _ => 556,
    }
}

/// A PDF of `text` wrapped as a word processor wraps left-aligned text in
/// a proportional font: each text line broken at spaces into printed lines
/// at most `measure` points wide in 10-point Helvetica, their right edge
/// ragged, 60 printed lines a page.
pub fn from_text_ragged(text: &str, measure: f64) -> Vec<u8> {
    let printed = ragged(text, measure);
    let lines: Vec<&str> = printed.iter().map(String::as_str).collect();
    let pages: Vec<String> = lines.chunks(LINES_PER_PAGE).map(page_content).collect();
    assemble(&pages)
}

/// `text`'s lines broken at spaces into printed lines at most `measure`
/// points wide in 10-point Helvetica.
fn ragged(text: &str, measure: f64) -> Vec<String> {
    let width = |s: &str| s.chars().map(helvetica_width).sum::<u32>() as f64 / 100.0;
    let mut printed: Vec<String> = Vec::new();
    for line in text.lines() {
        let mut current = String::new();
        for word in line.split(' ') {
            let longer = if current.is_empty() {
                word.to_string()
            } else {
                format!("{current} {word}")
            };
            if width(&longer) > measure && !current.is_empty() {
                printed.push(std::mem::replace(&mut current, word.to_string()));
            } else {
                current = longer;
            }
        }
        printed.push(current);
    }
    printed
}

/// How a page set in columns is drawn: each column top to bottom, then the
/// next (most producers), or row by row across the columns (a line of
/// each column drawn one after the other, as some producers draw tables).
#[derive(Clone, Copy, PartialEq)]
pub enum DrawOrder {
    Columns,
    Rows,
}

/// Rows of printed lines a column holds on a page of [`from_text_in_columns`].
const COLUMN_ROWS: usize = 20;

/// A PDF of `text` set as rulebooks are, in `columns` columns of ragged
/// 10-point Helvetica `measure` points wide, 18 points apart, 12-point
/// rows, [`COLUMN_ROWS`] a page, under a running header and over a
/// "Page N of M" footer. A text line for which `across` holds (a title, a
/// chapter's heading) is set in 14 points above the columns, from their
/// left edge (as wide as it is), the columns above it balanced (as a
/// layout balances them before a heading across); otherwise the text fills
/// each column to its foot, then the next, then the next page's, so
/// sentences run from one column and one page into the next. A blank line
/// is an empty row.
pub fn from_text_in_columns(
    text: &str,
    (columns, measure): (usize, f64),
    across: impl Fn(&str) -> bool,
    order: DrawOrder,
) -> Vec<u8> {
    let mut pages: Vec<String> = vec![String::new()];
    let mut row = 0;
    let mut band: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            band.push(String::new());
            continue;
        } else if !across(line) {
            band.extend(ragged(line, measure));
            continue;
        }
        set_band(
            &mut pages,
            &mut row,
            std::mem::take(&mut band),
            (columns, measure),
            order,
        );
        if row + 3 > COLUMN_ROWS {
            pages.push(String::new());
            row = 0;
        }
        let y = 740 - 12 * row;
        let last = pages.len() - 1;
        pages[last].push_str(&format!(
            "BT\n/F1 14 Tf\n40 {y} Td\n({}) Tj\nET\n",
            escape(line)
        ));
        row += 2;
    }
    set_band(&mut pages, &mut row, band, (columns, measure), order);
    let total = pages.len();
    let pages: Vec<String> = pages
        .into_iter()
        .enumerate()
        .map(|(i, body)| {
            format!(
                "BT\n/F1 8 Tf\n40 770 Td\n(Skyforge Rules of Play) Tj\nET\n{body}BT\n/F1 8 Tf\n290 30 Td\n(Page {} of {total}) Tj\nET\n",
                i + 1
            )
        })
        .collect();
    assemble(&pages)
}

/// Sets `lines` in columns from `row` down: balanced when they fit on the
/// page, else filling its columns and going on on the next page.
fn set_band(
    pages: &mut Vec<String>,
    row: &mut usize,
    mut lines: Vec<String>,
    (columns, measure): (usize, f64),
    order: DrawOrder,
) {
    while !lines.is_empty() {
        let room = COLUMN_ROWS - *row;
        let per_column = lines.len().div_ceil(columns).min(room);
        let rest = lines.split_off((per_column * columns).min(lines.len()));
        let set: Vec<&[String]> = lines.chunks(per_column.max(1)).collect();
        let at = |c: usize, r: usize| {
            let x = 40.0 + c as f64 * (measure + 18.0);
            let y = 740 - 12 * (*row + r);
            format!(
                "BT\n/F1 10 Tf\n{x} {y} Td\n({}) Tj\nET\n",
                escape(&set[c][r])
            )
        };
        let mut body = String::new();
        match order {
            DrawOrder::Columns => (0..set.len())
                .flat_map(|c| (0..set[c].len()).map(move |r| (c, r)))
                .for_each(|(c, r)| body.push_str(&at(c, r))),
            DrawOrder::Rows => (0..per_column)
                .flat_map(|r| (0..set.len()).map(move |c| (c, r)))
                .filter(|&(c, r)| r < set[c].len())
                .for_each(|(c, r)| body.push_str(&at(c, r))),
        }
        let last = pages.len() - 1;
        pages[last].push_str(&body);
        *row += per_column;
        lines = rest;
        if !lines.is_empty() {
            pages.push(String::new());
            *row = 0;
        }
    }
}

/// `line` broken into lines of at most `columns` characters: at the last
/// run of spaces that leaves the line that short (the run dropped, as a
/// wrapping program drops it), else cut at `columns`. Leading spaces (an
/// indent) stay on the first line.
pub fn wrap(line: &str, columns: usize) -> Vec<String> {
    let columns = columns.max(1);
    let mut out = Vec::new();
    let mut rest: Vec<char> = line.trim_end().chars().collect();
    while rest.len() > columns {
        let indent = if out.is_empty() {
            rest.iter().take_while(|c| **c == ' ').count()
        } else {
            0
        };
        // The last space at or before `columns` after the indent, where
        // the text before it fits.
        let cut = (indent + 1..=columns)
            .rev()
            .find(|&i| rest[i] == ' ' && rest[i - 1] != ' ');
        let (head, tail) = match cut {
            Some(i) => {
                let after = (i..rest.len())
                    .find(|&j| rest[j] != ' ')
                    .unwrap_or(rest.len());
                (rest[..i].to_vec(), rest[after..].to_vec())
            }
            None => (rest[..columns].to_vec(), rest[columns..].to_vec()),
        };
        out.push(head.into_iter().collect());
        rest = tail;
    }
    out.push(rest.into_iter().collect());
    out
}

/// A PDF with pages that draw only a rectangle: what a scan without a text
/// layer looks like to a text extractor.
pub fn without_text(pages: usize) -> Vec<u8> {
    let content = "0.5 g 50 50 500 700 re f\n".to_string();
    assemble(&vec![content; pages.max(1)])
}

fn page_content(lines: &[&str]) -> String {
    let mut s = String::from("BT\n/F1 10 Tf\n12 TL\n40 760 Td\n");
    for line in lines {
        s.push('(');
        s.push_str(&escape(line));
        s.push_str(") Tj T*\n");
    }
    s.push_str("ET\n");
    s
}

/// A PDF of `text` set as word processors set wide spacing: 10-point
/// lines `leading` points apart (17 is 1.7 spacing), a blank line not an
/// empty line but `blank` points more between the paragraphs around it.
pub fn from_text_spaced(text: &str, leading: f64, blank: f64) -> Vec<u8> {
    let lines: Vec<&str> = text.lines().collect();
    let per_page = (700.0 / leading) as usize;
    let page = |lines: &[&str]| {
        let mut s = format!("BT\n/F1 10 Tf\n{leading} TL\n40 760 Td\n");
        for line in lines {
            if line.trim().is_empty() {
                s.push_str(&format!("0 -{blank} Td\n"));
                continue;
            }
            s.push('(');
            s.push_str(&escape(line));
            s.push_str(") Tj T*\n");
        }
        s.push_str("ET\n");
        s
    };
    let pages: Vec<String> = lines.chunks(per_page.max(1)).map(page).collect();
    assemble(&pages)
}

/// `text` as the PDFs here can show it: the characters WinAnsi lacks as `?`.
pub fn as_winansi(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\r' | '\t' | ' '..='~' | '\u{a0}'..='\u{ff}' => c,
            '•' | '’' | '‘' | '“' | '”' | '–' | '—' | '…' => c,
            _ => '?',
        })
        .collect()
}

/// A PDF string body in WinAnsi: `(`, `)` and `\` escaped, bytes above 127 as
/// octal escapes, characters WinAnsi lacks as `?`.
fn escape(line: &str) -> String {
    let mut out = String::new();
    for c in line.chars() {
        let byte = match c {
            '(' | ')' | '\\' => {
                out.push('\\');
                out.push(c);
                continue;
            }
            ' '..='~' => {
                out.push(c);
                continue;
            }
            '•' => 0x95,
            '’' => 0x92,
            '‘' => 0x91,
            '“' => 0x93,
            '”' => 0x94,
            '–' => 0x96,
            '—' => 0x97,
            '…' => 0x85,
            '\u{a0}'..='\u{ff}' => c as u32 as u8,
            _ => b'?',
        };
        out.push_str(&format!("\\{byte:03o}"));
    }
    out
}

/// Catalog, page tree, font, then a page and its content stream per page,
/// with a correct cross-reference table.
fn assemble(pages: &[String]) -> Vec<u8> {
    assemble_in(pages, "Helvetica")
}

/// [`assemble`] with another of the standard fonts.
fn assemble_in(pages: &[String], font: &str) -> Vec<u8> {
    let mut objects: Vec<String> = Vec::new();
    let kids: Vec<String> = (0..pages.len())
        .map(|i| format!("{} 0 R", 4 + 2 * i))
        .collect();
    objects.push("<< /Type /Catalog /Pages 2 0 R >>".into());
    objects.push(format!(
        "<< /Type /Pages /Kids [{}] /Count {} >>",
        kids.join(" "),
        pages.len()
    ));
    objects.push(format!(
        "<< /Type /Font /Subtype /Type1 /BaseFont /{font} /Encoding /WinAnsiEncoding >>"
    ));
    for (i, content) in pages.iter().enumerate() {
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents {} 0 R >>",
            5 + 2 * i
        ));
        objects.push(format!(
            "<< /Length {} >>\nstream\n{content}endstream",
            content.len()
        ));
    }
    let objects: Vec<Vec<u8>> = objects.into_iter().map(String::into_bytes).collect();
    with_objects(&objects)
}

/// A PDF of `objects` (numbered from 1; the first is the catalog) with a
/// correct cross-reference table.
pub fn with_objects(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
    for o in offsets {
        table.push_str(&format!("{o:010} 00000 n \n"));
    }
    table.push_str(&format!(
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        objects.len() + 1
    ));
    out.extend_from_slice(table.as_bytes());
    out
}
