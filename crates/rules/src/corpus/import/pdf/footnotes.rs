//! Footnotes at a page's foot, kept apart from the text that flows past
//! them: a rule running from one page onto the next reads unbroken, and
//! each note is put after the paragraph whose text carries its marker.

use super::Line;
use super::columns::body_size;

/// A footnote: its marker ("1", "*") and its text.
#[derive(Debug, PartialEq)]
pub(super) struct Note {
    pub(super) mark: String,
    pub(super) text: String,
}

/// Takes each page's footnotes out of its lines, in page order: the run
/// of its lowest lines that are set smaller than the page's text (by
/// 10%) or open with a marker set smaller than their own text ("¹Only in
/// tournaments."), from the highest of them that opens with a marker
/// (digits or "*", "†", "‡"), below some text of the page's own. Left in,
/// they were read as the text of whatever rule crossed the page break
/// ("…any counterattacking an" / "1 Footnote 1: …" / "damage or value").
/// A note set in the text's size with no smaller marker is not told from
/// the text, and stays where it stands.
pub(super) fn take(pages: &mut [Vec<Line>]) -> Vec<Note> {
    let refs = superscripts(pages);
    let mut notes = Vec::new();
    for lines in pages.iter_mut() {
        let inked: Vec<usize> = (0..lines.len())
            .filter(|&i| !lines[i].text.trim().is_empty())
            .collect();
        let body = body_size(&inked.iter().map(|&i| &lines[i]).collect::<Vec<_>>());
        let mut order = inked.clone();
        order.sort_by(|&a, &b| lines[a].y.total_cmp(&lines[b].y));
        let small =
            |l: &Line| l.size * 1.1 < body || marked(l) || (tabbed(l) && starts_mark(&l.text));
        let block: Vec<usize> = order
            .iter()
            .copied()
            .take_while(|&i| small(&lines[i]))
            .collect();
        // From the bottom up: the highest line that opens a note.
        // A note's marker stands in the text as a superscript somewhere:
        // a numbered list set small at a page's foot ("1. Draw a card")
        // is text, not notes (found in review).
        let Some(top) = block.iter().rposition(|&i| {
            opens(&lines[i], body) && refs.contains(split_mark(lines[i].text.trim()).0)
        }) else {
            continue;
        };
        if top + 1 >= inked.len() {
            continue;
        }
        let mut gone = vec![false; lines.len()];
        for &i in block[..=top].iter().rev() {
            gone[i] = true;
            let text = lines[i].text.trim();
            match (opens(&lines[i], body), notes.last_mut()) {
                (false, Some(Note { text: before, .. })) => {
                    before.push(' ');
                    before.push_str(text);
                }
                _ => {
                    let (mark, rest) = split_mark(text);
                    notes.push(Note {
                        mark: mark.to_string(),
                        text: rest.trim().to_string(),
                    });
                }
            }
        }
        super::drop_lines(lines, &gone);
    }
    notes
}

/// The markers the text carries as superscripts ("instead.[1]": a
/// bracketed marker inside a line, not opening it).
fn superscripts(pages: &[Vec<Line>]) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    for line in pages.iter().flatten() {
        let text = line.text.trim();
        for (at, _) in text.match_indices('[').filter(|&(at, _)| at > 0) {
            let inner = &text[at + 1..];
            let end = inner.find(|c: char| !is_mark(c)).unwrap_or(inner.len());
            if end > 0 && inner[end..].starts_with(']') {
                out.insert(inner[..end].to_string());
            }
        }
    }
    out
}

/// Whether a line opens with a marker set smaller than its own text.
fn marked(line: &Line) -> bool {
    line.first_size > 0.0 && line.first_size < line.size * 0.85 && starts_mark(&line.text)
}

/// Whether a line opens a note: a smaller marker, or a marker opening a
/// line set smaller than the page's text.
fn opens(line: &Line, body: f64) -> bool {
    marked(line) || ((line.size * 1.1 < body || tabbed(line)) && starts_mark(&line.text))
}

/// Whether a line's marker stands apart from its text, a tab away, as
/// LibreOffice sets a note's number in its footnote area (in the text's
/// own size): its first run of glyphs is the marker alone.
fn tabbed(line: &Line) -> bool {
    line.cells.first().is_some_and(|&(at, _)| {
        let head = line.text.get(..at).unwrap_or_default().trim();
        !head.is_empty() && head.chars().all(|c| is_mark(c) || "[]".contains(c))
    })
}

fn is_mark(c: char) -> bool {
    c.is_ascii_digit() || "*†‡".contains(c)
}

/// Whether a text opens with a marker and goes on with some text.
fn starts_mark(text: &str) -> bool {
    let (mark, rest) = split_mark(text.trim_start());
    !mark.is_empty() && rest.chars().any(char::is_alphabetic)
}

/// A note's text split into its marker ("1", or "[1]" as a superscript
/// reads) and the rest.
fn split_mark(text: &str) -> (&str, &str) {
    let inner = text.strip_prefix('[').unwrap_or(text);
    let end = inner.find(|c: char| !is_mark(c)).unwrap_or(inner.len());
    let rest = &inner[end..];
    let rest = match inner.len() < text.len() {
        true => rest.strip_prefix(']').unwrap_or(rest),
        false => rest,
    };
    (&inner[..end], rest.trim_start_matches(['.', ')', ' ']))
}

/// The text with each note a paragraph of its own, "[1] …", after the
/// paragraph holding its marker as a superscript reads ("instead.[1]"),
/// the first found after the last note's (numbers restart on a page or a
/// chapter); a note whose marker is not found is left out and said.
pub(super) fn place(text: &str, notes: Vec<Note>) -> (String, Vec<String>) {
    let mut from = 0;
    let mut lost = Vec::new();
    let mut inserts: Vec<(usize, String)> = Vec::new();
    for note in notes {
        let key = format!("[{}]", note.mark);
        let Some(at) = text[from..].find(&key).map(|at| from + at) else {
            lost.push(note);
            continue;
        };
        let end = text[at..]
            .find("\n\n")
            .map_or(text.trim_end().len(), |e| at + e);
        inserts.push((end, format!("\n\n{key} {}", note.text)));
        from = at + key.len();
    }
    // Stable: notes after one paragraph keep their order.
    inserts.sort_by_key(|(at, _)| *at);
    let mut out = String::with_capacity(text.len() + inserts.len() * 80);
    let mut done = 0;
    for (at, para) in inserts {
        out.push_str(&text[done..at]);
        out.push_str(&para);
        done = at;
    }
    out.push_str(&text[done..]);
    let warning = (!lost.is_empty()).then(|| {
        let shown: Vec<String> = lost.iter().take(3).map(|n| format!("“{} {}”", n.mark, n.text)).collect();
        format!(
            "left out {} footnote{} at a page's foot whose marker was not found in the text (a marker set as a superscript is): {}",
            lost.len(),
            if lost.len() == 1 { "" } else { "s" },
            shown.join(", ")
        )
    });
    (out, warning.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(mark: &str, text: &str) -> Note {
        Note {
            mark: mark.into(),
            text: text.into(),
        }
    }

    fn line(text: &str, y: f64, size: f64) -> Line {
        Line {
            text: text.into(),
            y,
            size,
            first_size: size,
            ..Line::default()
        }
    }

    /// Small lines at a page's foot are notes only when the text carries
    /// their markers as superscripts: a numbered list set small there is
    /// text (it was taken out and left out as unplaced notes).
    #[test]
    fn a_small_numbered_list_is_no_footnotes_without_markers_in_the_text() {
        let page = |body: &str| {
            vec![
                line(body, 700.0, 12.0),
                line("Then the round ends for everyone.", 680.0, 12.0),
                line("1. Draw a card.", 60.0, 9.0),
                line("2. Play a unit.", 48.0, 9.0),
            ]
        };
        let mut pages = vec![page("Each player in turn does as follows:")];
        assert!(take(&mut pages).is_empty());
        assert_eq!(pages[0].len(), 4);
        let mut pages = vec![page("Each player draws.[1] Then plays.[2]")];
        let notes = take(&mut pages);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert_eq!(pages[0].len(), 2);
    }

    /// Notes go after the paragraph holding their marker, in order, each
    /// found after the one before (numbers restart); a note with no
    /// marker in the text is left out and said.
    #[test]
    fn notes_follow_the_paragraph_that_marks_them() {
        let text = "1.1 Draw.[1] Then play.[2]\nStill 1.1.\n\n1.2 Pass.[1]\n";
        let notes = vec![
            note("1", "Only once."),
            note("2", "Any card."),
            note("1", "Or end."),
            note("9", "Lost."),
        ];
        let (out, warned) = place(text, notes);
        assert_eq!(
            out,
            "1.1 Draw.[1] Then play.[2]\nStill 1.1.\n\n[1] Only once.\n\n[2] Any card.\n\n1.2 Pass.[1]\n\n[1] Or end.\n"
        );
        assert_eq!(warned.len(), 1);
        assert!(warned[0].contains("“9 Lost.”"), "{warned:?}");
        assert_eq!(split_mark("[12] Note."), ("12", "Note."));
        assert_eq!(split_mark("3 Note."), ("3", "Note."));
    }
}
