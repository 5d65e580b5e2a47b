//! The character encoding an HTML page declares, found as a browser finds
//! it (WHATWG's prescan, simplified): an XML declaration at the start
//! (`<?xml version="1.0" encoding="euc-kr"?>`), else the first `<meta
//! charset>` or `<meta http-equiv="Content-Type" content="…; charset=…">`
//! within the first 1024 bytes, comments skipped. A page saved in
//! Shift_JIS, GBK or KOI8-R was read as Windows-1252 whatever it declared.
//! The byte-order mark, read before this, wins over any declaration.

use encoding_rs::Encoding;

/// Bytes a browser scans for a declaration.
const PRESCAN: usize = 1024;

/// Labels offered when a declared one is unknown (a typo of one of them).
const COMMON: [&str; 18] = [
    "utf-8",
    "windows-1252",
    "iso-8859-1",
    "iso-8859-2",
    "iso-8859-15",
    "windows-1250",
    "windows-1251",
    "koi8-r",
    "koi8-u",
    "shift_jis",
    "euc-jp",
    "iso-2022-jp",
    "gbk",
    "gb2312",
    "gb18030",
    "big5",
    "euc-kr",
    "utf-16",
];

/// What a page declares.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Declared {
    /// An encoding `encoding_rs` knows (a UTF-16 label read as UTF-8, as
    /// browsers do: a page read as ASCII to find it is no UTF-16).
    Known(&'static Encoding),
    /// A label no encoding has, as written (cut to 40 characters).
    Unknown(String),
}

/// The encoding the page's first bytes declare, if any.
pub(super) fn declared(bytes: &[u8]) -> Option<Declared> {
    let head = &bytes[..bytes.len().min(PRESCAN)];
    let label = xml_encoding(head).or_else(|| meta_charset(head))?;
    let label = String::from_utf8_lossy(label).trim().to_string();
    Some(match Encoding::for_label(label.as_bytes()) {
        Some(e) if e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE => {
            Declared::Known(encoding_rs::UTF_8)
        }
        // The replacement encoding ("iso-2022-kr", "hz-gb-2312") decodes
        // every page to one U+FFFD, and "x-user-defined" is no text
        // encoding: read as no declaration would be, and said.
        Some(e) if e == encoding_rs::REPLACEMENT || e == encoding_rs::X_USER_DEFINED => {
            Declared::Unknown(label.chars().take(40).collect())
        }
        Some(e) => Declared::Known(e),
        None => Declared::Unknown(label.chars().take(40).collect()),
    })
}

/// Whether a label names a real encoding no page is read in
/// (`iso-2022-kr`, `hz-gb-2312`: the WHATWG's replacement encoding, and
/// `x-user-defined`): no typo of another, whose did-you-mean named
/// another language's encoding ("iso-2022-kr" → "iso-2022-jp").
pub(super) fn is_unsupported(label: &str) -> bool {
    Encoding::for_label(label.trim().as_bytes())
        .is_some_and(|e| e == encoding_rs::REPLACEMENT || e == encoding_rs::X_USER_DEFINED)
}

/// A common label one or two edits from an unknown one ("shift-jiss").
pub(super) fn near_label(label: &str) -> Option<&'static str> {
    let label = label.to_ascii_lowercase();
    COMMON
        .iter()
        .filter_map(|c| Some((crate::text::edit_distance(&label, c, 2)?, *c)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The `encoding` of an XML declaration opening the page.
fn xml_encoding(head: &[u8]) -> Option<&[u8]> {
    let decl = head.strip_prefix(b"<?xml")?;
    let decl = &decl[..find(decl, b"?>")?];
    let at = find_ci(decl, b"encoding")?;
    let rest = skip_space(&decl[at + 8..]).strip_prefix(b"=")?;
    value(skip_space(rest)).map(|(v, _)| v)
}

/// The charset of the first `<meta>` declaring one, comments skipped.
fn meta_charset(head: &[u8]) -> Option<&[u8]> {
    let mut rest = head;
    while let Some(at) = rest.iter().position(|&b| b == b'<') {
        rest = &rest[at..];
        if rest.starts_with(b"<!--") {
            rest = &rest[find(&rest[4..], b"-->").map_or(rest.len(), |e| e + 7)..];
            continue;
        }
        let is_meta = rest.len() > 5
            && rest[1..5].eq_ignore_ascii_case(b"meta")
            && (rest[5].is_ascii_whitespace() || rest[5] == b'/');
        if !is_meta {
            rest = &rest[1..];
            continue;
        }
        let (charset, after) = meta_attributes(&rest[5..]);
        if charset.is_some() {
            return charset;
        }
        rest = after;
    }
    None
}

/// A `<meta>`'s declared charset, read from its attributes, and the bytes
/// after the tag. Each attribute is read once, moving on.
fn meta_attributes(mut rest: &[u8]) -> (Option<&[u8]>, &[u8]) {
    let (mut charset, mut content, mut content_type) = (None, None, false);
    loop {
        rest = skip_space(rest);
        match rest.first() {
            None => break,
            Some(b'>') => {
                rest = &rest[1..];
                break;
            }
            Some(b'/') => {
                rest = &rest[1..];
                continue;
            }
            _ => {}
        }
        let name_len = rest
            .iter()
            .position(|&b| b.is_ascii_whitespace() || matches!(b, b'=' | b'>' | b'/'))
            .unwrap_or(rest.len())
            .max(1);
        let name = &rest[..name_len];
        rest = skip_space(&rest[name_len..]);
        let mut val: &[u8] = b"";
        if let Some(after) = rest.strip_prefix(b"=") {
            let (v, after) = value(skip_space(after)).unwrap_or((b"", b""));
            val = v;
            rest = after;
        }
        if name.eq_ignore_ascii_case(b"charset") {
            charset.get_or_insert(val);
        } else if name.eq_ignore_ascii_case(b"content") {
            content.get_or_insert(val);
        } else if name.eq_ignore_ascii_case(b"http-equiv") {
            content_type |= val.eq_ignore_ascii_case(b"content-type");
        }
    }
    let from_content = content.filter(|_| content_type).and_then(content_charset);
    (charset.filter(|c| !c.is_empty()).or(from_content), rest)
}

/// The `charset=` of a Content-Type value (`text/html; charset=koi8-r`).
fn content_charset(content: &[u8]) -> Option<&[u8]> {
    let at = find_ci(content, b"charset")?;
    let rest = skip_space(&content[at + 7..]).strip_prefix(b"=")?;
    let rest = skip_space(rest);
    if let Some((v, _)) = value(rest).filter(|_| matches!(rest.first(), Some(b'"' | b'\''))) {
        return Some(v);
    }
    let end = rest
        .iter()
        .position(|&b| b.is_ascii_whitespace() || b == b';')
        .unwrap_or(rest.len());
    (end > 0).then_some(&rest[..end])
}

/// An attribute value, quoted or not, and the bytes after it.
fn value(rest: &[u8]) -> Option<(&[u8], &[u8])> {
    match rest.first()? {
        &q @ (b'"' | b'\'') => {
            let body = &rest[1..];
            let end = body.iter().position(|&b| b == q)?;
            Some((&body[..end], &body[end + 1..]))
        }
        _ => {
            let end = rest
                .iter()
                .position(|&b| b.is_ascii_whitespace() || b == b'>')
                .unwrap_or(rest.len());
            Some((&rest[..end], &rest[end..]))
        }
    }
}

fn skip_space(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &s[n..]
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn find_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_found_as_a_browser_finds_them() {
        let known = |s: &str| match declared(s.as_bytes()) {
            Some(Declared::Known(e)) => Some(e.name()),
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(known("<meta charset=shift_jis>"), Some("Shift_JIS"));
        assert_eq!(
            known("<META HTTP-EQUIV='content-type' CONTENT='text/html; charset=\"koi8-r\"'>"),
            Some("KOI8-R")
        );
        assert_eq!(
            known("<meta content=\"text/html;charset=windows-1251\" http-equiv=Content-Type />"),
            Some("windows-1251")
        );
        assert_eq!(
            known("<?xml version=\"1.0\" encoding='GBK'?><html>"),
            Some("GBK")
        );
        assert_eq!(known("<meta charset=\"utf-16le\">"), Some("UTF-8"));
        // A comment's meta, a content without http-equiv, and a meta past
        // the first kilobyte declare nothing.
        assert_eq!(declared(b"<!-- <meta charset=gbk> --><p>x"), None);
        assert_eq!(declared(b"<meta content=\"charset=gbk\">"), None);
        let late = format!("{}<meta charset=gbk>", " ".repeat(1100));
        assert_eq!(declared(late.as_bytes()), None);
        assert_eq!(
            declared(b"<meta charset=shift-jiss>"),
            Some(Declared::Unknown("shift-jiss".into()))
        );
        assert_eq!(near_label("shift-jiss"), Some("shift_jis"));
        assert_eq!(near_label("klingon"), None);
        // Labels of the replacement encoding, which would turn the whole
        // page into one U+FFFD, are no declaration to follow.
        for label in ["iso-2022-kr", "hz-gb-2312", "x-user-defined"] {
            let page = format!("<meta charset={label}><p>Rules");
            assert_eq!(
                declared(page.as_bytes()),
                Some(Declared::Unknown(label.into()))
            );
            // Not a typo of another language's encoding.
            assert!(is_unsupported(label), "{label}");
        }
        assert!(!is_unsupported("shift-jiss"));
    }
}
