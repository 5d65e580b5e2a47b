//! A page set in columns, read column by column: the columns found from
//! where the lines stand (a gutter no line crosses, lines on both sides
//! of it), the lines cut where a producer drew a row across the gutter,
//! and put in reading order (the left column top to bottom, then the
//! next; a line across the columns, a title, stays where it stands and
//! starts the columns below it anew).

use super::Line;

/// The gap between two glyphs of a line, in font sizes, past which a
/// line may be cut there into columns: a gutter is a space wider than a
/// word's (a proportional font's space is near a third of its size; a
/// justified line's stretched ones seldom reach 0.8), and a gutter under
/// this is no gutter a reader sees.
pub(super) const GAP_EM: f64 = 0.8;

/// The fewest lines a column holds on a page read in columns (fewer, and
/// the page is read in the columns of a page near it, if its lines stand
/// in them).
const MIN_COLUMN_LINES: usize = 5;

/// A run of a line's glyphs after a gap wider than [`GAP_EM`]: where in
/// the line's text it starts, where it starts and ends across the page,
/// its height, its largest glyph's size, where its first word ends, and
/// where the line before it ended and how large its glyphs were.
#[derive(Debug, Clone, Default)]
pub(super) struct Fragment {
    pub(super) at: usize,
    pub(super) start: f64,
    pub(super) end: f64,
    pub(super) y: f64,
    pub(super) size: f64,
    pub(super) first_word_end: Option<f64>,
    pub(super) end_before: f64,
    pub(super) size_before: f64,
    pub(super) inked: bool,
}

impl Fragment {
    /// A glyph of `size` at `x` is added (before it is written): the run
    /// starts at its first ink, and its first word ends at the first space
    /// after ink (`spaced_at`: the end of the glyph before a space).
    pub(super) fn glyph(&mut self, x: f64, size: f64, char: &str, spaced_at: Option<f64>) {
        if let Some(end) = spaced_at.filter(|_| self.inked) {
            self.first_word_end.get_or_insert(end);
        }
        if !self.inked && !char.trim().is_empty() {
            self.start = x;
        }
        self.size = self.size.max(size);
    }

    /// A glyph ending at `end` was written: ink, unless a space.
    pub(super) fn inked(&mut self, end: f64, char: &str) {
        if !char.trim().is_empty() {
            self.end = end;
            self.inked = true;
        }
    }
}

/// A page's columns, left to right: each one's left and right edge.
type Layout = Vec<(f64, f64)>;

/// Reads every page set in columns column by column (see [`arrange`]). A
/// page whose lines all stand in the columns of a page near it is read in
/// those (a last page that fills only its left column has no gutter to
/// find). Pages in one column are left as they are.
pub(super) fn read_columns(pages: &mut [Vec<Line>]) {
    let layouts: Vec<Option<Layout>> = pages.iter().map(|lines| layout(lines)).collect();
    let columned: Vec<usize> = (0..layouts.len())
        .filter(|&p| layouts[p].is_some())
        .collect();
    if columned.is_empty() {
        return;
    }
    for (p, lines) in pages.iter_mut().enumerate() {
        let found = layouts[p].clone().or_else(|| {
            let mut near = columned.clone();
            near.sort_by_key(|&q| q.abs_diff(p));
            near.into_iter()
                .filter_map(|q| layouts[q].as_ref())
                .find(|layout| stands_in(lines, layout))
                .cloned()
        });
        if let Some(layout) = found {
            *lines = arrange(std::mem::take(lines), &layout);
        }
    }
}

/// A line's extent cut at each of its fragments: (start, end, height).
fn pieces(line: &Line) -> Vec<(f64, f64, f64)> {
    let mut out = Vec::with_capacity(line.fragments.len() + 1);
    let mut start = (line.start, line.y);
    for f in &line.fragments {
        out.push((start.0, f.end_before, start.1));
        start = (f.start, f.y);
    }
    out.push((start.0, line.end, start.1));
    out
}

/// The typical glyph size of a page's lines (the median), in points.
pub(super) fn body_size(lines: &[&Line]) -> f64 {
    let mut sizes: Vec<f64> = lines.iter().map(|l| l.size).filter(|s| *s > 0.0).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.get(sizes.len() / 2).copied().unwrap_or(0.0)
}

/// The columns of a page, if it is set in two or more: gutters (spans
/// across the page at least [`GAP_EM`] wide that no line narrower than
/// 60% of the text crosses, but a twentieth of them, with lines on both
/// sides), between which each column holds [`MIN_COLUMN_LINES`] lines or
/// more, mostly starting at its left edge and ending near its right one,
/// and is a quarter of the text's width at least (text wrapped to the
/// column: a table's short cells or a few indented lines are not
/// columns), the columns side by side.
fn layout(lines: &[Line]) -> Option<Layout> {
    let inked: Vec<&Line> = lines.iter().filter(|l| !l.text.trim().is_empty()).collect();
    let em = body_size(&inked);
    let all: Vec<(f64, f64, f64)> = inked.iter().flat_map(|l| pieces(l)).collect();
    let left = all.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let right = all.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let span = right - left;
    if !(span.is_finite() && span > 0.0 && em > 0.0) {
        return None;
    }
    let narrow: Vec<(f64, f64, f64)> = all
        .into_iter()
        .filter(|p| p.1 - p.0 < span * 0.6 && p.1 >= p.0)
        .collect();
    let gutters = gutters(&narrow, (left, right), em);
    if gutters.is_empty() {
        return None;
    }
    let starts: Vec<f64> = std::iter::once(left)
        .chain(gutters.iter().map(|g| g.1))
        .collect();
    let columns: Vec<Vec<(f64, f64, f64)>> = (0..starts.len())
        .map(|i| {
            let inside = |p: &&(f64, f64, f64)| in_column((p.0, p.1), &starts, i, em * 0.5);
            narrow.iter().filter(inside).copied().collect()
        })
        .collect();
    let layout: Option<Layout> = columns.iter().map(|c| column_edges(c, em)).collect();
    let side_by_side = columns.windows(2).all(|w| overlap(&w[0], &w[1]));
    let wide = |layout: &Layout| layout.iter().all(|(l, r)| r - l >= span / 4.0);
    layout.filter(|layout| side_by_side && wide(layout))
}

/// Whether what spans `(start, end)` stands in the `i`th of the columns
/// that start at `starts`: it starts in that column and ends before the
/// next one starts (a line across the gutter is in none).
fn in_column((start, end): (f64, f64), starts: &[f64], i: usize, slack: f64) -> bool {
    let Some(from) = starts.get(i) else {
        return false;
    };
    match starts.get(i + 1) {
        Some(next) => start >= from - slack && end < next - slack,
        None => start >= from - slack,
    }
}

/// The spans across `(left, right)` at least [`GAP_EM`] font sizes wide
/// that at most a twentieth of the `pieces` cross (a title across the
/// columns, a line longer than the others), strictly inside (text on both
/// sides).
fn gutters(pieces: &[(f64, f64, f64)], (left, right): (f64, f64), em: f64) -> Vec<(f64, f64)> {
    let allowed = pieces.len() / 20;
    let mut events: Vec<(f64, i32)> = pieces.iter().flat_map(|p| [(p.0, 1), (p.1, -1)]).collect();
    // At one place, a piece ending before one starting: touching is not crossing.
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut out = Vec::new();
    let mut depth = 0i64;
    let mut open: Option<f64> = None;
    for (x, delta) in events {
        depth += i64::from(delta);
        let clear = depth <= allowed as i64;
        match (clear, open) {
            (true, None) => open = Some(x),
            (false, Some(from)) => {
                if from > left && x < right && x - from >= em * GAP_EM {
                    out.push((from, x));
                }
                open = None;
            }
            _ => {}
        }
    }
    out
}

/// A column's left and right edges, if its pieces read as text wrapped
/// to it: [`MIN_COLUMN_LINES`] at least, half of them starting within a
/// font size of its left edge and half ending within a fifth of its width
/// of its right edge.
fn column_edges(pieces: &[(f64, f64, f64)], em: f64) -> Option<(f64, f64)> {
    let left = pieces.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let right = pieces.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let width = right - left;
    let starting = pieces.iter().filter(|p| p.0 <= left + em).count();
    let ending = pieces.iter().filter(|p| p.1 >= right - width / 5.0).count();
    let half = pieces.len().div_ceil(2);
    (pieces.len() >= MIN_COLUMN_LINES && width > 0.0 && starting >= half && ending >= half)
        .then_some((left, right))
}

/// Whether two columns stand side by side: their heights overlap.
fn overlap(a: &[(f64, f64, f64)], b: &[(f64, f64, f64)]) -> bool {
    let range = |c: &[(f64, f64, f64)]| {
        let low = c.iter().map(|p| p.2).fold(f64::INFINITY, f64::min);
        let high = c.iter().map(|p| p.2).fold(f64::NEG_INFINITY, f64::max);
        (low, high)
    };
    let ((a_low, a_high), (b_low, b_high)) = (range(a), range(b));
    a_low.max(b_low) <= a_high.min(b_high)
}

/// Whether every line of a page stands in one of `layout`'s columns.
fn stands_in(lines: &[Line], layout: &Layout) -> bool {
    let inked: Vec<&Line> = lines.iter().filter(|l| !l.text.trim().is_empty()).collect();
    !inked.is_empty() && inked.iter().all(|l| column_of(l, layout).is_some())
}

/// Which of `layout`'s columns a line stands in, if one (see [`in_column`]).
fn column_of(line: &Line, layout: &Layout) -> Option<usize> {
    let starts: Vec<f64> = layout.iter().map(|c| c.0).collect();
    let span = (line.start, line.end);
    (0..starts.len()).find(|&i| in_column(span, &starts, i, line.size * 0.5))
}

/// The page's lines in reading order: each line drawn across a gutter cut
/// there; a line in no column (a title across them) stays where it stands
/// and separates the columns above it from those below; between such
/// lines, each column's lines (top to bottom, as drawn) before the next
/// column's. The first line of a column after the first goes on from the
/// column before as after a page break ([`Line::turns_column`]); every
/// other line's gap is measured from the line now above it. Blank lines
/// (no ink) are left out: gaps tell paragraphs.
fn arrange(lines: Vec<Line>, layout: &Layout) -> Vec<Line> {
    let cut: Vec<Line> = lines
        .into_iter()
        .flat_map(|l| split_at_gutters(l, layout))
        .collect();
    let (order, columns) = reading_order(&cut, layout);
    let mut lines: Vec<Option<Line>> = cut.into_iter().map(Some).collect();
    let mut out: Vec<Line> = Vec::with_capacity(lines.len());
    for i in order {
        let Some(mut line) = lines.get_mut(i).and_then(Option::take) else {
            continue;
        };
        line.column = columns[i].and_then(|c| layout.get(c).copied());
        let above = out.last();
        line.turns_column = match (above.and_then(|a| a.column), line.column) {
            (Some(a), Some(c)) => a != c,
            _ => false,
        };
        line.gap = above
            .filter(|_| !line.turns_column)
            .map(|a| (a.y - line.y).abs());
        out.push(line);
    }
    out
}

/// The order to read the inked `lines` in (see [`arrange`]), and each
/// line's column (none: across the columns). A column's first lines that
/// stand above every other column of their band by more than a line (a
/// chapter's heading set above the columns, as wide as one) are read as
/// across the columns too.
fn reading_order(lines: &[Line], layout: &Layout) -> (Vec<usize>, Vec<Option<usize>>) {
    let mut columns: Vec<Option<usize>> = lines.iter().map(|l| column_of(l, layout)).collect();
    let inked = |i: &usize| !lines[*i].text.trim().is_empty();
    let mut across: Vec<usize> = (0..lines.len())
        .filter(|i| inked(i) && columns[*i].is_none())
        .collect();
    // A line's band: how many lines across stand above it.
    let bands = |across: &[usize]| -> Vec<usize> {
        let mut heights: Vec<f64> = across.iter().map(|&i| lines[i].y).collect();
        heights.sort_by(|a, b| b.total_cmp(a));
        let above = |l: &Line| heights.partition_point(|&y| y > l.y);
        lines.iter().map(above).collect()
    };
    let band = bands(&across);
    let edges = centred_edges(lines, layout, &columns);
    for line in [
        heads(lines, &band, &columns),
        feet(lines, &band, &columns),
        edges,
    ]
    .concat()
    {
        columns[line] = None;
        across.push(line);
    }
    across.sort_by(|&a, &b| lines[b].y.total_cmp(&lines[a].y));
    let band = bands(&across);
    let mut order: Vec<usize> = Vec::with_capacity(lines.len());
    for b in 0..=across.len() {
        for column in 0..layout.len() {
            let here = |i: &usize| inked(i) && band[*i] == b && columns[*i] == Some(column);
            order.extend((0..lines.len()).filter(here));
        }
        order.extend(across.get(b));
    }
    (order, columns)
}

/// The lines in a column that are centred across all the columns, not set
/// from their column's left edge, and stand above or below every other
/// line in a column by more than their size: a page's centred footer or
/// header ("Page 1 of 2" under the middle of three columns was read as
/// that column's last line, a heading splitting a rule).
fn centred_edges(lines: &[Line], layout: &Layout, columns: &[Option<usize>]) -> Vec<usize> {
    let (Some(first), Some(last)) = (layout.first(), layout.last()) else {
        return Vec::new();
    };
    let centre = (first.0 + last.1) / 2.0;
    let inked = |i: &usize| !lines[*i].text.trim().is_empty() && columns[*i].is_some();
    let placed: Vec<usize> = (0..lines.len()).filter(inked).collect();
    let centred = |i: usize| {
        let (line, left) = (
            &lines[i],
            columns[i].and_then(|c| layout.get(c)).map(|c| c.0),
        );
        ((line.start + line.end) / 2.0 - centre).abs() < line.size
            && left.is_some_and(|left| line.start > left + line.size)
    };
    let apart = |i: usize| {
        let (y, size) = (lines[i].y, lines[i].size);
        let others = placed.iter().filter(|&&j| j != i).map(|&j| lines[j].y);
        let (low, high) = others.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), y| {
            (l.min(y), h.max(y))
        });
        low.is_finite() && (y < low - size || y > high + size)
    };
    placed
        .iter()
        .copied()
        .filter(|&i| centred(i) && apart(i))
        .collect()
}

/// The lines of each band's first column that stand above every line of
/// the band's other columns by more than their own size.
fn heads(lines: &[Line], band: &[usize], columns: &[Option<usize>]) -> Vec<usize> {
    let top_beside = beside(lines, band, columns, |y| y);
    (0..lines.len())
        .filter(|&i| columns[i] == Some(0) && !lines[i].text.trim().is_empty())
        .filter(|&i| {
            let top = top_beside.get(band[i]).copied().unwrap_or(f64::NAN);
            top.is_finite() && lines[i].y > top + lines[i].size
        })
        .collect()
}

/// The lines at the foot of each band's first column that stand below
/// every line of the band's other columns by more than their own size,
/// set off from the column's text above by more than two sizes and set
/// smaller than the page's text, or by more than four (a footnote, a page
/// number under the columns; a longer column's last lines go on at its
/// own spacing and size, a heading among them a paragraph apart, larger,
/// and the rule under that heading in the text's size: measured against
/// the heading, a last page's rules under "8. Advanced Play" were read
/// as a footnote after its short right column), and those below them.
fn feet(lines: &[Line], band: &[usize], columns: &[Option<usize>]) -> Vec<usize> {
    let inked: Vec<&Line> = lines.iter().filter(|l| !l.text.trim().is_empty()).collect();
    let body = body_size(&inked);
    let low_beside = beside(lines, band, columns, |y| -y);
    let low = |i: usize| low_beside.get(band[i]).map_or(f64::NAN, |l| -l);
    let first = (0..lines.len()).filter(|&i| columns[i] == Some(0));
    let first: Vec<usize> = first
        .filter(|&i| !lines[i].text.trim().is_empty())
        .collect();
    let feet: Vec<usize> = first
        .iter()
        .copied()
        .filter(|&i| low(i).is_finite() && lines[i].y < low(i) - lines[i].size)
        .collect();
    // Set off from the nearest line above it in its column, foot or not.
    let set_off = |foot: &usize| {
        let line = &lines[*foot];
        let above = first
            .iter()
            .filter(|&&i| band[i] == band[*foot] && lines[i].y > line.y)
            .min_by(|&&a, &&b| lines[a].y.total_cmp(&lines[b].y));
        above.is_some_and(|&i| {
            let (gap, size) = (lines[i].y - line.y, line.size);
            gap > size * 2.0 && (size * 1.1 < body || gap > size * 4.0)
        })
    };
    let tops: Vec<(usize, f64)> = feet
        .iter()
        .filter(|i| set_off(i))
        .map(|&i| (band[i], lines[i].y))
        .collect();
    feet.into_iter()
        .filter(|&i| tops.iter().any(|&(b, y)| b == band[i] && lines[i].y <= y))
        .collect()
}

/// For each band, the highest `key` of a line's height among its columns
/// after the first (none: minus infinity).
fn beside(
    lines: &[Line],
    band: &[usize],
    columns: &[Option<usize>],
    key: impl Fn(f64) -> f64,
) -> Vec<f64> {
    let mut out = vec![f64::NEG_INFINITY; lines.len() + 1];
    for i in (0..lines.len()).filter(|&i| !lines[i].text.trim().is_empty()) {
        if let (Some(top), true) = (out.get_mut(band[i]), columns[i] > Some(0)) {
            *top = top.max(key(lines[i].y));
        }
    }
    out
}

/// `line` cut where it crosses a gutter between two of `layout`'s columns
/// (a producer that draws a page row by row draws a line of each column
/// as one); a line that does not is returned whole.
fn split_at_gutters(line: Line, layout: &Layout) -> Vec<Line> {
    let slack = line.size * 0.5;
    let cuts: Vec<usize> = (0..line.fragments.len())
        .filter(|&k| {
            let f = &line.fragments[k];
            layout.windows(2).any(|w| {
                f.end_before < w[1].0 - slack
                    && f.end_before >= w[0].0 - slack
                    && f.start >= w[1].0 - slack
            })
        })
        .collect();
    if cuts.is_empty() {
        return vec![line];
    }
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut from: Option<usize> = None;
    for to in cuts.iter().copied().map(Some).chain([None]) {
        out.push(piece(&line, from, to));
        from = to;
    }
    out
}

/// The part of `line` from its fragment `from` (none: its start) to its
/// fragment `to` (none: its end).
fn piece(line: &Line, from: Option<usize>, to: Option<usize>) -> Line {
    let fragment = |k: Option<usize>| k.and_then(|k| line.fragments.get(k));
    let (first, last) = (fragment(from), fragment(to));
    let at = first.map_or(0, |f| f.at);
    let until = last.map_or(line.text.len(), |f| f.at);
    let text = line.text.get(at..until).unwrap_or_default();
    let size = match first {
        None => last.map_or(line.size, |f| f.size_before),
        Some(_) => line.fragments[from.unwrap_or(0)..to.unwrap_or(line.fragments.len())]
            .iter()
            .map(|f| f.size)
            .fold(0.0, f64::max),
    };
    Line {
        gap: None,
        y: first.map_or(line.y, |f| f.y),
        size,
        text: text.trim_end().to_string(),
        start: first.map_or(line.start, |f| f.start),
        end: last.map_or(line.end, |f| f.end_before),
        first_word_end: match first {
            None => line.first_word_end,
            Some(f) => f.first_word_end,
        },
        page: line.page,
        fragments: Vec::new(),
        column: None,
        first_size: line.first_size,
        base: line.base,
        in_mark: false,
        cells: Vec::new(),
        words: Vec::new(),
        turns_column: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 10-point line of `text` from `start` to `end`, `y` points up.
    fn line(text: &str, start: f64, end: f64, y: f64) -> Line {
        Line {
            text: text.into(),
            size: 10.0,
            start,
            end,
            y,
            page: (0.0, 612.0),
            ..Line::default()
        }
    }

    /// Two columns of wrapped text are found, each with its own edges; a
    /// page in one column, one with a table of short cells beside longer
    /// text, and one whose lines on the right are a few indented notes are
    /// not read in columns.
    #[test]
    fn columns_are_found_only_where_text_is_wrapped_to_them() {
        let rows = |x: f64, ends: &[f64]| -> Vec<Line> {
            let top = 700.0;
            (0..ends.len())
                .map(|i| line("words of a rule", x, x + ends[i], top - 12.0 * i as f64))
                .collect()
        };
        let full = [250.0, 248.0, 246.0, 250.0, 120.0, 249.0, 250.0, 247.0];
        let mut two = rows(40.0, &full);
        two.extend(rows(310.0, &full));
        assert_eq!(layout(&two), Some(vec![(40.0, 290.0), (310.0, 560.0)]));
        let one = rows(40.0, &[520.0, 518.0, 300.0, 520.0, 519.0, 100.0]);
        assert_eq!(layout(&one), None);
        // Short cells ("Cost", "Move") beside their wrapped text.
        let mut table = rows(40.0, &[30.0, 28.0, 30.0, 28.0, 30.0]);
        table.extend(rows(150.0, &full[..5]));
        assert_eq!(layout(&table), None);
        // Two notes indented far right of a page of full lines.
        let mut notes = rows(40.0, &[200.0, 90.0, 40.0, 150.0]);
        notes.extend(rows(400.0, &[60.0, 30.0]));
        assert_eq!(layout(&notes), None);
    }

    /// A title across the columns stays above them; the columns are read
    /// left then right; the right column's head turns from the left's foot.
    #[test]
    fn a_page_in_columns_reads_left_column_then_right() {
        let mut page = vec![line(
            "The Title Across Both Columns Here",
            40.0,
            400.0,
            740.0,
        )];
        for i in 0..6 {
            let y = 700.0 - 12.0 * i as f64;
            page.push(line(&format!("left {i}"), 40.0, 290.0, y));
            page.push(line(&format!("right {i}"), 310.0, 560.0, y));
        }
        let layout = layout(&page).expect("two columns");
        let read = arrange(page, &layout);
        let texts: Vec<&str> = read.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts[0], "The Title Across Both Columns Here");
        let left: Vec<String> = (0..6).map(|i| format!("left {i}")).collect();
        let right: Vec<String> = (0..6).map(|i| format!("right {i}")).collect();
        assert_eq!(texts[1..7], left);
        assert_eq!(texts[7..], right);
        assert!(read[7].turns_column && read[7].gap.is_none());
        assert_eq!(read[2].gap, Some(12.0));
        assert_eq!(read[1].column, Some((40.0, 290.0)));
    }

    /// A footnote set off below the left column, under the end of the
    /// right one, is read after both columns; a left column that is only
    /// longer than the right one is read whole before it, a heading a
    /// paragraph apart in its longer part too (a LibreOffice book's "9.3
    /// Renown" was read after the right column).
    #[test]
    fn a_footnote_under_the_columns_is_read_after_them() {
        let columns = |left_rows: usize, right_rows: usize| {
            let mut page = Vec::new();
            for i in 0..left_rows {
                page.push(line(
                    &format!("left {i}"),
                    40.0,
                    290.0,
                    700.0 - 12.0 * i as f64,
                ));
            }
            for i in 0..right_rows {
                page.push(line(
                    &format!("right {i}"),
                    310.0,
                    560.0,
                    700.0 - 12.0 * i as f64,
                ));
            }
            page
        };
        let mut page = columns(8, 8);
        let note = Line {
            size: 8.0,
            ..line("1 A note under the columns.", 40.0, 200.0, 580.0)
        };
        page.push(note);
        let layout = layout(&page).expect("two columns");
        let read = arrange(page, &layout);
        assert_eq!(
            read.last().map(|l| l.text.as_str()),
            Some("1 A note under the columns.")
        );
        let read = arrange(columns(10, 6), &layout);
        let texts: Vec<&str> = read.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts[9..11], ["left 9", "right 0"]);
        // A heading a paragraph apart in the longer left column is its own.
        let mut page = columns(6, 6);
        let heading = Line {
            size: 11.0,
            ..line("9.3 Renown", 40.0, 120.0, 700.0 - 12.0 * 5.0 - 26.0)
        };
        page.extend([
            heading,
            line("left 6", 40.0, 290.0, 700.0 - 12.0 * 5.0 - 40.0),
        ]);
        let read = arrange(page, &layout);
        let texts: Vec<&str> = read.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts[5..8], ["left 5", "9.3 Renown", "left 6"]);
    }

    /// A last page's short right column beside a longer left one whose
    /// chapter heading, set larger, stands a paragraph above the rules
    /// under it: those rules are the left column's, read before the right
    /// column (measured against the heading they were read as a footnote,
    /// after it, and left unjoined).
    #[test]
    fn rules_under_a_larger_heading_in_a_longer_left_column_stay_in_it() {
        let mut page = Vec::new();
        for i in 0..5 {
            let y = 700.0 - 12.0 * i as f64;
            page.push(line(&format!("left {i}"), 40.0, 290.0, y));
            page.push(line(&format!("right {i}"), 310.0, 560.0, y));
        }
        let heading = Line {
            size: 12.0,
            ..line("8. Advanced Play", 40.0, 150.0, 700.0 - 12.0 * 4.0 - 26.0)
        };
        page.push(heading);
        for i in 0..4 {
            let y = 700.0 - 12.0 * 4.0 - 26.0 - 22.0 - 12.0 * i as f64;
            page.push(line(&format!("rule {i}"), 40.0, 290.0, y));
        }
        let layout = layout(&page).expect("two columns");
        let read = arrange(page, &layout);
        let texts: Vec<&str> = read.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts[4..11],
            [
                "left 4",
                "8. Advanced Play",
                "rule 0",
                "rule 1",
                "rule 2",
                "rule 3",
                "right 0"
            ]
        );
        assert_eq!(read[6].column, Some((40.0, 290.0)));
    }

    /// A page number centred under three columns, under the middle one, is
    /// read after them, in no column (it was the middle column's last line).
    #[test]
    fn a_centred_footer_under_the_columns_is_in_none() {
        let mut page = Vec::new();
        for i in 0..6 {
            let y = 700.0 - 12.0 * i as f64;
            for x in [40.0, 220.0, 400.0] {
                page.push(line(&format!("text {x} {i}"), x, x + 160.0, y));
            }
        }
        page.push(Line {
            size: 7.0,
            ..line("Page 1 of 2", 280.0, 320.0, 560.0)
        });
        let layout = layout(&page).expect("three columns");
        let read = arrange(page, &layout);
        let last = read.last().expect("lines");
        assert_eq!((last.text.as_str(), last.column), ("Page 1 of 2", None));
        assert_eq!(read[17].text, "text 400 5");
    }
}
