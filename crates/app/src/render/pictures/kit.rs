//! The shared drawing kit: a canvas of fixed size, shapes, arrows and text
//! in the shipped font (DejaVu Sans Condensed, `assets/fonts/`; a
//! character it lacks, Chinese or Japanese, from Droid Sans Fallback
//! beside it, an emoji or symbol from a subset of Symbola), encoded as PNG. Pure Rust and deterministic: the same calls give the same bytes.
//!
//! Every drawing fits the canvas: text is cut to a width with "…", a
//! string is measured on its first [`MAX_CHARS`] characters only, and the
//! canvas itself is at most [`MAX_WIDTH`] × [`MAX_HEIGHT`].

use std::sync::OnceLock;

use tiny_skia::{
    Color, FillRule, LineCap, Paint, Path, PathBuilder, Pixmap, Rect, Stroke, StrokeDash, Transform,
};

/// The font every picture is written in (licence beside it).
pub const FONT: &[u8] = include_bytes!("../../../../../assets/fonts/DejaVuSansCondensed.ttf");
/// The font for the characters [`FONT`] lacks (CJK; licence beside it):
/// seats named 石炭 and 火山 were both drawn "??", and the turn badge
/// with them (found by an outside tester).
pub const FALLBACK_FONT: &[u8] =
    include_bytes!("../../../../../assets/fonts/DroidSansFallback.ttf");
/// The font for symbols and emoji neither of the others has (a subset of
/// Symbola, monochrome; licence beside it): a name's 🔥 or 🐉 was drawn
/// "?" while the alt text kept it (found by an outside judge).
pub const SYMBOL_FONT: &[u8] = include_bytes!("../../../../../assets/fonts/SymbolaEmoji.ttf");
/// The widest canvas a drawing may ask for, in pixels.
pub const MAX_WIDTH: u32 = 1600;
/// The tallest canvas a drawing may ask for, in pixels.
pub const MAX_HEIGHT: u32 = 1600;
/// The tallest canvas a drawing of many seats is laid out on
/// ([`Canvas::tall`]): cropped taller than [`MAX_HEIGHT`], it is shrunk
/// to fit, so every seat is drawn (an eight-seat Ashes board drew four).
pub const MAX_LAYOUT_HEIGHT: u32 = 3200;
/// Characters of one string that are ever laid out.
pub const MAX_CHARS: usize = 240;

/// An opaque colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

pub const PAPER: Rgb = Rgb(0xf6, 0xf3, 0xec);
pub const INK: Rgb = Rgb(0x22, 0x22, 0x28);
pub const MUTED: Rgb = Rgb(0x6b, 0x6b, 0x75);
pub const LINE: Rgb = Rgb(0xc9, 0xc4, 0xb8);
pub const CARD: Rgb = Rgb(0xff, 0xff, 0xff);
pub const SPENT: Rgb = Rgb(0xd9, 0xd6, 0xcf);
pub const RED: Rgb = Rgb(0xc6, 0x28, 0x28);
pub const BLUE: Rgb = Rgb(0x1f, 0x5f, 0xbf);
pub const GREEN: Rgb = Rgb(0x2e, 0x7d, 0x32);
pub const GOLD: Rgb = Rgb(0xe0, 0x8a, 0x00);
pub const PURPLE: Rgb = Rgb(0x6a, 0x3d, 0x9a);

/// Seat colours, in seat order (repeating past the last).
pub const SEATS: [Rgb; 8] = [
    Rgb(0x1f, 0x5f, 0xbf),
    Rgb(0xb2, 0x3a, 0x48),
    Rgb(0x2e, 0x7d, 0x32),
    Rgb(0x8e, 0x5a, 0x00),
    Rgb(0x6a, 0x3d, 0x9a),
    Rgb(0x00, 0x7c, 0x89),
    Rgb(0x5d, 0x40, 0x37),
    Rgb(0x45, 0x5a, 0x64),
];

/// The colour of seat `i`.
pub fn seat(i: usize) -> Rgb {
    SEATS[i % SEATS.len()]
}

/// Horizontal placement of text at its `x`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// How a shape is painted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    pub fill: Option<Rgb>,
    pub stroke: Option<Rgb>,
    pub width: f32,
    pub dashed: bool,
}

impl Style {
    pub fn fill(c: Rgb) -> Style {
        Style {
            fill: Some(c),
            stroke: None,
            width: 0.0,
            dashed: false,
        }
    }
    pub fn stroke(c: Rgb, width: f32) -> Style {
        Style {
            fill: None,
            stroke: Some(c),
            width,
            dashed: false,
        }
    }
    pub fn both(fill: Rgb, stroke: Rgb, width: f32) -> Style {
        Style {
            fill: Some(fill),
            stroke: Some(stroke),
            width,
            dashed: false,
        }
    }
    pub fn dashed(mut self) -> Style {
        self.dashed = true;
        self
    }
}

/// A picture being drawn.
pub struct Canvas {
    pix: Pixmap,
}

fn face() -> Option<&'static ttf_parser::Face<'static>> {
    static FACE: OnceLock<Option<ttf_parser::Face<'static>>> = OnceLock::new();
    FACE.get_or_init(|| ttf_parser::Face::parse(FONT, 0).ok())
        .as_ref()
}

fn fallback_face() -> Option<&'static ttf_parser::Face<'static>> {
    static FACE: OnceLock<Option<ttf_parser::Face<'static>>> = OnceLock::new();
    FACE.get_or_init(|| ttf_parser::Face::parse(FALLBACK_FONT, 0).ok())
        .as_ref()
}

fn symbol_face() -> Option<&'static ttf_parser::Face<'static>> {
    static FACE: OnceLock<Option<ttf_parser::Face<'static>>> = OnceLock::new();
    FACE.get_or_init(|| ttf_parser::Face::parse(SYMBOL_FONT, 0).ok())
        .as_ref()
}

/// The face and glyph a character is drawn with: the shipped font's, else
/// the CJK fallback's, else the symbol font's, else the shipped font's "?".
fn glyph_of(face: &'static ttf_parser::Face<'static>, ch: char) -> Glyph {
    if let Some(id) = face.glyph_index(ch) {
        return Glyph { face, id };
    }
    if let Some(fb) = fallback_face()
        && let Some(id) = fb.glyph_index(ch)
    {
        return Glyph { face: fb, id };
    }
    if let Some(sym) = symbol_face()
        && let Some(id) = sym.glyph_index(ch)
    {
        return Glyph { face: sym, id };
    }
    Glyph {
        face,
        id: face.glyph_index('?').unwrap_or(ttf_parser::GlyphId(0)),
    }
}

/// A glyph in its face.
struct Glyph {
    face: &'static ttf_parser::Face<'static>,
    id: ttf_parser::GlyphId,
}

impl Glyph {
    /// Its advance at `size` pixels.
    fn advance(&self, size: f32) -> f32 {
        f32::from(self.face.glyph_hor_advance(self.id).unwrap_or(0)) * scale_of(self.face, size)
    }
}

fn scale_of(face: &ttf_parser::Face, size: f32) -> f32 {
    size / f32::from(face.units_per_em().max(1))
}

fn paint(c: Rgb) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0, c.1, c.2, 255);
    p.anti_alias = true;
    p
}

/// A finite coordinate inside a generous frame around any canvas.
fn clamp(v: f32) -> f32 {
    if v.is_finite() {
        v.clamp(-10_000.0, 10_000.0)
    } else {
        0.0
    }
}

impl Canvas {
    /// A canvas of `width` × `height` (each cut to its maximum, at least 1).
    pub fn new(width: u32, height: u32, background: Rgb) -> Canvas {
        let (w, h) = (width.clamp(1, MAX_WIDTH), height.clamp(1, MAX_HEIGHT));
        let mut pix = Pixmap::new(w, h).unwrap_or_else(|| {
            // Both sides are within 1..=1600, which tiny-skia always accepts.
            unreachable!("a canvas within the maximum size")
        });
        pix.fill(Color::from_rgba8(
            background.0,
            background.1,
            background.2,
            255,
        ));
        Canvas { pix }
    }

    /// A canvas laid out up to [`MAX_LAYOUT_HEIGHT`] tall, for a drawing
    /// of many seats: [`Canvas::crop`] shrinks what it keeps to at most
    /// [`MAX_HEIGHT`], the text smaller rather than seats left out.
    pub fn tall(width: u32, height: u32, background: Rgb) -> Canvas {
        let (w, h) = (
            width.clamp(1, MAX_WIDTH),
            height.clamp(1, MAX_LAYOUT_HEIGHT),
        );
        match Pixmap::new(w, h) {
            Some(mut pix) => {
                pix.fill(Color::from_rgba8(
                    background.0,
                    background.1,
                    background.2,
                    255,
                ));
                Canvas { pix }
            }
            None => Canvas::new(w, MAX_HEIGHT, background),
        }
    }

    pub fn width(&self) -> f32 {
        self.pix.width() as f32
    }

    pub fn height(&self) -> f32 {
        self.pix.height() as f32
    }

    fn paint_path(&mut self, path: &Path, style: Style) {
        if let Some(f) = style.fill {
            self.pix.fill_path(
                path,
                &paint(f),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
        if let Some(s) = style.stroke {
            let mut stroke = Stroke {
                width: style.width.max(0.5),
                line_cap: LineCap::Round,
                ..Stroke::default()
            };
            if style.dashed {
                stroke.dash = StrokeDash::new(vec![6.0, 4.0], 0.0);
            }
            self.pix
                .stroke_path(path, &paint(s), &stroke, Transform::identity(), None);
        }
    }

    /// A rectangle with corners rounded by `radius`.
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, radius: f32, style: Style) {
        let (x, y, w, h) = (clamp(x), clamp(y), clamp(w).max(0.0), clamp(h).max(0.0));
        let r = radius.clamp(0.0, w.min(h) / 2.0);
        let mut pb = PathBuilder::new();
        pb.move_to(x + r, y);
        pb.line_to(x + w - r, y);
        pb.quad_to(x + w, y, x + w, y + r);
        pb.line_to(x + w, y + h - r);
        pb.quad_to(x + w, y + h, x + w - r, y + h);
        pb.line_to(x + r, y + h);
        pb.quad_to(x, y + h, x, y + h - r);
        pb.line_to(x, y + r);
        pb.quad_to(x, y, x + r, y);
        pb.close();
        if let Some(path) = pb.finish() {
            self.paint_path(&path, style);
        }
    }

    /// A circle.
    pub fn circle(&mut self, cx: f32, cy: f32, r: f32, style: Style) {
        if let Some(path) = PathBuilder::from_circle(clamp(cx), clamp(cy), clamp(r).max(0.1)) {
            self.paint_path(&path, style);
        }
    }

    /// A straight line.
    pub fn line(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, style: Style) {
        let mut pb = PathBuilder::new();
        pb.move_to(clamp(x1), clamp(y1));
        pb.line_to(clamp(x2), clamp(y2));
        if let Some(path) = pb.finish() {
            self.paint_path(&path, style);
        }
    }

    /// An arrow from (x1, y1) to (x2, y2), its head at the end, in colour
    /// `c`; `dashed` for what was declared but not done.
    pub fn arrow(&mut self, from: (f32, f32), to: (f32, f32), c: Rgb, width: f32, dashed: bool) {
        let (x1, y1, x2, y2) = (clamp(from.0), clamp(from.1), clamp(to.0), clamp(to.1));
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1.0 {
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let head = (width * 4.0).max(10.0);
        let (bx, by) = (x2 - ux * head, y2 - uy * head);
        let mut style = Style::stroke(c, width);
        style.dashed = dashed;
        self.line(x1, y1, bx, by, style);
        let mut pb = PathBuilder::new();
        pb.move_to(x2, y2);
        pb.line_to(bx - uy * head * 0.5, by + ux * head * 0.5);
        pb.line_to(bx + uy * head * 0.5, by - ux * head * 0.5);
        pb.close();
        if let Some(path) = pb.finish() {
            self.paint_path(&path, Style::fill(c));
        }
    }

    /// Writes `s` with its baseline at `y`, cut with "…" to `max_width`
    /// (when given); returns the width drawn. `bold` thickens the strokes.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        x: f32,
        y: f32,
        size: f32,
        c: Rgb,
        s: &str,
        max_width: Option<f32>,
        align: Align,
        bold: bool,
    ) -> f32 {
        let Some(face) = face() else { return 0.0 };
        let s = match max_width {
            Some(w) => fit(s, size, w),
            None => s.chars().take(MAX_CHARS).collect(),
        };
        let width = text_width(&s, size);
        let x0 = match align {
            Align::Left => x,
            Align::Center => x - width / 2.0,
            Align::Right => x - width,
        };
        let mut out = Outline {
            pb: PathBuilder::new(),
            x: clamp(x0),
            y: clamp(y),
            scale: scale_of(face, size),
        };
        for ch in s.chars() {
            let g = glyph_of(face, ch);
            out.scale = scale_of(g.face, size);
            g.face.outline_glyph(g.id, &mut out);
            out.x += g.advance(size);
        }
        if let Some(path) = out.pb.finish() {
            let style = if bold {
                Style::both(c, c, size * 0.045)
            } else {
                Style::fill(c)
            };
            self.paint_path(&path, style);
        }
        width
    }

    /// Cuts the canvas to its first `height` rows (when shorter), then
    /// shrinks a [`Canvas::tall`] one that is still taller than
    /// [`MAX_HEIGHT`] to fit it.
    pub fn crop(&mut self, height: f32) {
        let h = (height.ceil().max(1.0) as u32).min(self.pix.height());
        if h < self.pix.height()
            && let Some(r) = tiny_skia::IntRect::from_xywh(0, 0, self.pix.width(), h)
            && let Some(p) = self.pix.clone_rect(r)
        {
            self.pix = p;
        }
        self.shrink_to_fit();
    }

    /// Scales the whole canvas down to [`MAX_HEIGHT`] rows (bicubic, on
    /// the background's colour, so it stays opaque).
    fn shrink_to_fit(&mut self) {
        let (w, h) = (self.pix.width(), self.pix.height());
        if h <= MAX_HEIGHT {
            return;
        }
        let scale = MAX_HEIGHT as f32 / h as f32;
        let nw = ((w as f32 * scale).round() as u32).max(1);
        let Some(mut small) = Pixmap::new(nw, MAX_HEIGHT) else {
            return;
        };
        if let Some(bg) = self.pix.pixel(0, 0) {
            small.fill(Color::from_rgba8(bg.red(), bg.green(), bg.blue(), 255));
        }
        let paint = tiny_skia::PixmapPaint {
            quality: tiny_skia::FilterQuality::Bicubic,
            ..tiny_skia::PixmapPaint::default()
        };
        small.draw_pixmap(
            0,
            0,
            self.pix.as_ref(),
            &paint,
            Transform::from_scale(scale, scale),
            None,
        );
        self.pix = small;
    }

    /// The picture as PNG bytes, with fast compression (default
    /// compression took 13 times as long for a third fewer bytes). Every
    /// canvas is opaque (filled at creation, drawn on in opaque colours),
    /// so its premultiplied pixels are the plain RGBA the PNG holds.
    pub fn png(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(128 * 1024);
        let mut e = png::Encoder::new(&mut out, self.pix.width(), self.pix.height());
        e.set_color(png::ColorType::Rgba);
        e.set_depth(png::BitDepth::Eight);
        e.set_compression(png::Compression::Fast);
        // Encoding an in-memory buffer into a Vec does not fail; if it
        // did, tiny-skia's own encoder is the fallback.
        let written = e
            .write_header()
            .and_then(|mut w| w.write_image_data(self.pix.data()));
        match written {
            Ok(()) => out,
            Err(_) => self.pix.encode_png().unwrap_or_default(),
        }
    }

    /// A player's heading in a side list: the seat's colour mark and name
    /// (cut to 200 px) at `y`; returns where the next badge goes.
    pub fn seat_heading(&mut self, x: f32, y: f32, i: usize, name: &str) -> f32 {
        let colour = seat(i);
        self.block(x, y + 4.0, 5.0, 20.0, colour);
        let w = self.text(
            x + 12.0,
            y + 20.0,
            17.0,
            colour,
            name,
            Some(200.0),
            Align::Left,
            true,
        );
        x + 12.0 + w + 8.0
    }

    /// Fills a rectangle without anti-aliasing (grid cells, bars).
    pub fn block(&mut self, x: f32, y: f32, w: f32, h: f32, c: Rgb) {
        if let Some(r) = Rect::from_xywh(clamp(x), clamp(y), clamp(w).max(0.1), clamp(h).max(0.1)) {
            self.pix
                .fill_rect(r, &paint(c), Transform::identity(), None);
        }
    }
}

/// Glyph outlines appended to one path, placed at (x, y) and scaled.
struct Outline {
    pb: PathBuilder,
    x: f32,
    y: f32,
    scale: f32,
}

impl Outline {
    fn at(&self, x: f32, y: f32) -> (f32, f32) {
        (self.x + x * self.scale, self.y - y * self.scale)
    }
}

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.at(x, y);
        self.pb.move_to(x, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.at(x, y);
        self.pb.line_to(x, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let ((x1, y1), (x, y)) = (self.at(x1, y1), self.at(x, y));
        self.pb.quad_to(x1, y1, x, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let ((x1, y1), (x2, y2), (x, y)) = (self.at(x1, y1), self.at(x2, y2), self.at(x, y));
        self.pb.cubic_to(x1, y1, x2, y2, x, y);
    }
    fn close(&mut self) {
        self.pb.close();
    }
}

/// The width of `s` at `size` (its first [`MAX_CHARS`] characters).
pub fn text_width(s: &str, size: f32) -> f32 {
    let Some(face) = face() else { return 0.0 };
    s.chars()
        .take(MAX_CHARS)
        .map(|ch| glyph_of(face, ch).advance(size))
        .sum()
}

/// `s` cut with "…" so that it is at most `max_width` wide at `size`
/// (control characters shown as spaces; one pass over the characters).
pub fn fit(s: &str, size: f32, max_width: f32) -> String {
    let chars: Vec<char> = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_CHARS)
        .collect();
    let Some(face) = face() else {
        return String::new();
    };
    let advance = |c: char| glyph_of(face, c).advance(size);
    let total: f32 = chars.iter().map(|c| advance(*c)).sum();
    if total <= max_width {
        return chars.into_iter().collect();
    }
    let room = max_width - advance('…');
    let mut used = 0.0;
    let mut keep = 0;
    for c in &chars {
        used += advance(*c);
        if used > room {
            break;
        }
        keep += 1;
    }
    let cut: String = chars[..keep].iter().collect();
    if keep == 0 && room < 0.0 {
        return String::new();
    }
    format!("{}…", cut.trim_end())
}

/// `s` broken into lines at most `max_width` wide, at most `max_lines`
/// (the last cut with "…" when more is left).
pub fn wrap(s: &str, size: f32, max_width: f32, max_lines: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in s.split_whitespace().take(MAX_CHARS) {
        let next = if cur.is_empty() {
            word.to_string()
        } else {
            format!("{cur} {word}")
        };
        if text_width(&next, size) <= max_width || cur.is_empty() {
            cur = next;
        } else {
            lines.push(std::mem::replace(&mut cur, word.to_string()));
        }
        if lines.len() >= max_lines {
            break;
        }
    }
    if !cur.is_empty() && lines.len() < max_lines {
        lines.push(cur);
    } else if lines.len() >= max_lines
        && let Some(last) = lines.last_mut()
    {
        *last = fit(&format!("{last} …"), size, max_width);
    }
    lines.iter().map(|l| fit(l, size, max_width)).collect()
}

/// A count as "1 unit" / "3 units".
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// A rectangle on the canvas.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Area {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Area {
    pub fn center(&self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    /// The point where a line from the centre toward `p` leaves the area.
    pub fn edge_toward(&self, p: (f32, f32)) -> (f32, f32) {
        let (cx, cy) = self.center();
        let (dx, dy) = (p.0 - cx, p.1 - cy);
        if dx.abs() < 1e-3 && dy.abs() < 1e-3 {
            return (cx, cy);
        }
        let sx = if dx.abs() > 1e-3 {
            (self.w / 2.0) / dx.abs()
        } else {
            f32::MAX
        };
        let sy = if dy.abs() > 1e-3 {
            (self.h / 2.0) / dy.abs()
        } else {
            f32::MAX
        };
        let s = sx.min(sy);
        (cx + dx * s, cy + dy * s)
    }
}

/// Where named things were drawn, to point arrows at them.
#[derive(Debug, Default)]
pub struct Places(Vec<(String, Area)>);

impl Places {
    pub fn put(&mut self, name: &str, a: Area) {
        self.0.push((crate::text::fold(name), a));
    }

    /// The area drawn for `name` (compared as the engines compare names).
    /// A name typed short (`Lorraine` for `Lorraine, Wandering Warrior`)
    /// finds the one thing it begins.
    pub fn get(&self, name: &str) -> Option<Area> {
        let key = crate::text::fold(name);
        if key.is_empty() {
            return None;
        }
        if let Some((_, a)) = self.0.iter().find(|(n, _)| *n == key) {
            return Some(*a);
        }
        let mut starts = self.0.iter().filter(|(n, _)| n.starts_with(&key));
        match (starts.next(), starts.next()) {
            (Some((_, a)), None) => Some(*a),
            _ => None,
        }
    }

    /// An arrow from the thing named `from` to the thing named `to`, edge
    /// to edge, when both were drawn.
    /// `side` moves the arrow sideways (pixels, to its right), so that
    /// arrows between the same two things stay apart.
    pub fn arrow(&self, c: &mut Canvas, from: &str, to: &str, colour: Rgb, side: f32) -> bool {
        let (Some(a), Some(b)) = (self.get(from), self.get(to)) else {
            return false;
        };
        let start = a.edge_toward(b.center());
        let end = b.edge_toward(a.center());
        let (dx, dy) = (end.0 - start.0, end.1 - start.1);
        let len = (dx * dx + dy * dy).sqrt().max(1.0);
        let (ox, oy) = (-dy / len * side, dx / len * side);
        c.arrow(
            (start.0 + ox, start.1 + oy),
            (end.0 + ox, end.1 + oy),
            colour,
            3.0,
            false,
        );
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drawn(s: &str) -> Vec<u8> {
        let mut c = Canvas::new(200, 40, PAPER);
        c.text(4.0, 30.0, 20.0, INK, s, None, Align::Left, false);
        c.png()
    }

    /// Names in a script the shipped font lacks are drawn, each as itself:
    /// seats named 石炭 and 火山 were both "??".
    #[test]
    fn cjk_names_are_drawn_from_the_fallback_font() {
        assert_ne!(drawn("石炭"), drawn("火山"));
        assert_ne!(drawn("石炭"), drawn("??"));
        let face = face().unwrap();
        assert!(face.glyph_index('石').is_none());
        assert!(text_width("石炭", 20.0) > 30.0);
        // A Latin name keeps the shipped font's glyphs and widths.
        let a = glyph_of(face, 'a');
        assert!(std::ptr::eq(a.face, face));
    }

    /// Emoji in a name are drawn as themselves (they were "?", the alt
    /// text keeping them): 🔥 and 🐉 differ from each other and from "?".
    #[test]
    fn emoji_are_drawn_from_the_symbol_font() {
        assert_ne!(drawn("Maeoni 🔥"), drawn("Maeoni 🐉"));
        assert_ne!(drawn("Maeoni 🔥"), drawn("Maeoni ?"));
        let g = glyph_of(face().unwrap(), '🔥');
        assert!(std::ptr::eq(g.face, symbol_face().unwrap()));
        // A variation selector is the shipped font's zero-width glyph.
        assert_eq!(text_width("🔥\u{fe0f}", 20.0), text_width("🔥", 20.0));
    }
}
