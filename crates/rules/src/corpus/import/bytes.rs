//! An upload's bytes as text: UTF-8 with a few stray bytes is still UTF-8
//! (a Word en dash, 0x96, pasted into a UTF-8 file turned its French,
//! German and Japanese into mojibake once the whole file was read as
//! Windows-1252), and a few NULs in a text file are dropped, not taken for
//! a binary file's.

/// Most NUL bytes a text file may hold (each dropped) before it is taken
/// for a binary file.
pub(super) const MAX_NULS: usize = 8;
/// Positions named in a warning before the rest are counted.
const NAMED: usize = 5;

/// A stray byte: its line and column (from 1), and its value.
pub(super) type Stray = (usize, usize, u8);

/// Text that is UTF-8 but for a few bytes: each stray byte read as
/// Windows-1252 would read it (0x96 is "–"), and where it stood (line,
/// column, both from 1). `None` when the bytes are valid UTF-8, or when
/// the invalid bytes outnumber the valid non-ASCII characters (then the
/// file is in another encoding, Latin-1 most often).
pub(super) fn mostly_utf8(bytes: &[u8]) -> Option<(String, Vec<Stray>)> {
    let mut out = String::with_capacity(bytes.len() + 16);
    let mut stray = Vec::new();
    let mut rest = bytes;
    loop {
        let (good, bad) = match std::str::from_utf8(rest) {
            Ok(s) => (s, &[][..]),
            Err(e) => {
                let (good, tail) = rest.split_at(e.valid_up_to());
                let len = e.error_len().unwrap_or(tail.len());
                // `good` is valid up to `valid_up_to` by the error's word.
                (std::str::from_utf8(good).unwrap_or_default(), &tail[..len])
            }
        };
        out.push_str(good);
        rest = &rest[good.len() + bad.len()..];
        for &b in bad {
            let (line, column) = position_at_end(&out);
            stray.push((line, column + 1, b));
            let byte = [b];
            let (c, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&byte);
            out.push_str(&c);
        }
        if rest.is_empty() {
            break;
        }
    }
    let valid = out.chars().filter(|c| !c.is_ascii()).count() - stray.len();
    (!stray.is_empty() && stray.len() <= valid).then_some((out, stray))
}

/// The line and column (from 1 and 0) after the last character of `text`.
/// Called once per stray byte, of which a file read this way has few (they
/// are at most its valid non-ASCII characters, and a warning names them).
fn position_at_end(text: &str) -> (usize, usize) {
    let line = text.bytes().filter(|&b| b == b'\n').count() + 1;
    let start = text.rfind('\n').map_or(0, |i| i + 1);
    (line, text[start..].chars().count())
}

/// Where each NUL of a text stands (line, column, from 1).
pub(super) fn nul_positions(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (n, line) in text.split('\n').enumerate() {
        for (col, c) in line.chars().enumerate() {
            if c == '\0' {
                out.push((n + 1, col + 1));
            }
        }
    }
    out
}

/// "4:18, 9:2 and 3 more": the first few positions, then a count.
pub(super) fn positions(list: &[(usize, usize)]) -> String {
    let named: Vec<String> = list
        .iter()
        .take(NAMED)
        .map(|(l, c)| format!("{l}:{c}"))
        .collect();
    match list.len().saturating_sub(NAMED) {
        0 => named.join(", "),
        more => format!("{} and {more} more", named.join(", ")),
    }
}

/// The preview's note on stray bytes read in UTF-8 text.
pub(super) fn stray_note(stray: &[Stray]) -> String {
    let at: Vec<(usize, usize)> = stray.iter().map(|&(l, c, _)| (l, c)).collect();
    let bytes: Vec<String> = stray
        .iter()
        .take(NAMED)
        .map(|(_, _, b)| format!("0x{b:02X}"))
        .collect();
    format!(
        "read as UTF-8; {} not UTF-8 {} read as Windows-1252 would read {} ({}), at line:column {}; save the file as UTF-8 if a character looks wrong",
        crate::text::count(stray.len(), "byte"),
        if stray.len() == 1 { "was" } else { "were" },
        if stray.len() == 1 { "it" } else { "them" },
        bytes.join(", "),
        positions(&at)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_stray_byte_leaves_utf8_text_utf8() {
        let bytes = "Règles\nÜber straße 日本語\nStray \u{0} here"
            .replace('\u{0}', "\u{1}")
            .into_bytes();
        let mut bytes = bytes;
        let at = bytes.iter().position(|&b| b == 1).unwrap();
        bytes[at] = 0x96;
        let (text, stray) = mostly_utf8(&bytes).expect("mostly UTF-8");
        assert!(text.contains("Über straße 日本語"), "{text}");
        assert!(text.contains("Stray – here"), "{text}");
        assert_eq!(stray, vec![(3, 7, 0x96)]);
    }

    #[test]
    fn latin1_text_is_not_mostly_utf8() {
        let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode("Règles du café – été");
        assert!(mostly_utf8(&latin1).is_none());
        assert!(mostly_utf8("valid UTF-8 é".as_bytes()).is_none());
    }

    #[test]
    fn positions_name_a_few_then_count() {
        let list: Vec<(usize, usize)> = (1..=8).map(|i| (i, 1)).collect();
        assert_eq!(positions(&list), "1:1, 2:1, 3:1, 4:1, 5:1 and 3 more");
        assert_eq!(nul_positions("ab\nc\0d\0"), vec![(2, 2), (2, 4)]);
    }
}
