//! A tag's attributes past the first [`MAX_ATTRIBUTES`] left out before
//! the page is parsed: the HTML parser (html5ever) compares each attribute
//! with every one before it in its tag (duplicates are dropped), so a tag
//! of 12,500 attributes took 10 s and one of 50,000 took 132 s (debug
//! build). No page's tag needs more; none of those past it holds text.
//! Read in one pass, as the parser's tokenizer reads tags (quoted values
//! may hold `>`; comments and the text of `script`, `style` and the like
//! are no tags).

use std::borrow::Cow;

/// Most attributes kept on one tag (a rules site's tags have a handful;
/// a framework's, a few dozen).
pub(super) const MAX_ATTRIBUTES: usize = 64;

/// Elements whose text is no markup: a `<` in it opens no tag.
const RAW_TEXT: [&[u8]; 8] = [
    b"script",
    b"style",
    b"textarea",
    b"title",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
];

/// A tag read from its name on.
struct Tag {
    /// Where the name ends (bytes).
    name_end: usize,
    /// Where the last attribute kept ends, when some were left out.
    cut: Option<usize>,
    attributes: usize,
    /// Just past its `>` (or the end of the page).
    end: usize,
}

/// The page with each tag's attributes past [`MAX_ATTRIBUTES`] left out,
/// and how many were.
pub(super) fn cap(html: &str) -> (Cow<'_, str>, usize) {
    let b = html.as_bytes();
    let (mut out, mut copied, mut dropped) = (String::new(), 0, 0);
    let mut i = 0;
    while let Some(off) = b[i..].iter().position(|&c| c == b'<') {
        let at = i + off;
        if b[at + 1..].starts_with(b"!--") {
            i = html[at + 4..]
                .find("-->")
                .map_or(b.len(), |e| at + 4 + e + 3);
            continue;
        }
        let from = at + 1 + usize::from(b.get(at + 1) == Some(&b'/'));
        if !b.get(from).is_some_and(u8::is_ascii_alphabetic) {
            i = at + 1;
            continue;
        }
        let tag = read_tag(b, from);
        if let Some(cut) = tag.cut {
            out.push_str(&html[copied..cut]);
            out.push('>');
            copied = tag.end;
            dropped += tag.attributes - MAX_ATTRIBUTES;
        }
        i = tag.end;
        let name = &b[from..tag.name_end];
        if from == at + 1 && RAW_TEXT.iter().any(|r| r.eq_ignore_ascii_case(name)) {
            i = raw_text_end(b, i, name);
        }
    }
    if dropped == 0 {
        return (html.into(), 0);
    }
    out.push_str(&html[copied..]);
    (out.into(), dropped)
}

/// Reads a tag from its name (at `from`) to its `>`.
fn read_tag(b: &[u8], from: usize) -> Tag {
    let space_or = |c: u8, ends: &[u8]| c.is_ascii_whitespace() || ends.contains(&c);
    let mut i = from;
    while i < b.len() && !space_or(b[i], b"/>") {
        i += 1;
    }
    let mut tag = Tag {
        name_end: i,
        cut: None,
        attributes: 0,
        end: b.len(),
    };
    // Where the attributes read so far end.
    let mut kept_end = i;
    loop {
        while i < b.len() && space_or(b[i], b"/") {
            i += 1;
        }
        if i >= b.len() {
            return tag;
        }
        if b[i] == b'>' {
            tag.end = i + 1;
            return tag;
        }
        if tag.attributes == MAX_ATTRIBUTES {
            tag.cut.get_or_insert(kept_end);
        }
        // The name: its first character may be `=`.
        i += 1;
        while i < b.len() && !space_or(b[i], b"/>=") {
            i += 1;
        }
        tag.attributes += 1;
        kept_end = i;
        let mut j = i;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if b.get(j) != Some(&b'=') {
            continue;
        }
        j += 1;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        i = match b.get(j) {
            Some(&q @ (b'"' | b'\'')) => b[j + 1..]
                .iter()
                .position(|&c| c == q)
                .map_or(b.len(), |e| j + 1 + e + 1),
            _ => {
                let len = b[j..].iter().position(|&c| space_or(c, b">"));
                len.map_or(b.len(), |e| j + e)
            }
        };
        kept_end = i;
    }
}

/// Where a raw-text element's text ends: its `</name`, or the page's end.
fn raw_text_end(b: &[u8], from: usize, name: &[u8]) -> usize {
    let mut i = from;
    while let Some(off) = b[i..].windows(2).position(|w| w == b"</") {
        let at = i + off;
        let close = &b[at + 2..];
        if close.len() >= name.len() && close[..name.len()].eq_ignore_ascii_case(name) {
            return at;
        }
        i = at + 2;
    }
    b.len()
}

/// The preview's note on the attributes left out.
pub(super) fn note(dropped: usize) -> String {
    format!(
        "left out {} of tags holding more than {MAX_ATTRIBUTES} (past their first {MAX_ATTRIBUTES}; no text is in them)",
        crate::text::count(dropped, "attribute")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tags_attributes_past_the_cap_go_and_the_rest_stays() {
        let many: String = (0..70).map(|i| format!(" a{i}=\"x>y\"")).collect();
        let html = format!("<p{many} class=c>Text</p><!-- <b{many}> --><br/>");
        let (out, dropped) = cap(&html);
        assert_eq!(dropped, 7);
        assert!(out.starts_with("<p a0=\"x>y\""), "{out}");
        assert!(out.contains(" a63=\"x>y\">Text</p>"), "{out}");
        let p = out.split(">Text").next().unwrap_or_default();
        assert!(!p.contains("a64=") && !p.contains("class=c"), "{out}");
        assert!(out.contains(&format!("<!-- <b{many}> --><br/>")), "{out}");
        // A script's text is no tag, up to its end tag.
        let script = format!("<script>if (a<b{}) x</script><p{many}>", " c".repeat(80));
        let (out, dropped) = cap(&script);
        assert_eq!(dropped, 6);
        assert!(out.contains(" c) x</script><p a0="), "{out}");
        let few = "<a href=x title=y>link</a>";
        assert_eq!(cap(few), (few.into(), 0));
    }
}
