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
    let mut at = Position { line: 1, column: 0 };
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
        at.pass(good);
        rest = &rest[good.len() + bad.len()..];
        for &b in bad {
            stray.push((at.line, at.column + 1, b));
            let byte = [b];
            let (c, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&byte);
            out.push_str(&c);
            at.pass(&c);
        }
        if rest.is_empty() {
            break;
        }
    }
    let valid = (out.chars().filter(|c| !c.is_ascii()).count()).saturating_sub(stray.len());
    (!stray.is_empty() && stray.len() <= valid).then_some((out, stray))
}

/// The line (from 1) and column (from 0) reached in the text read so far,
/// moved on as it is read: a file of many stray bytes is read in one pass.
struct Position {
    line: usize,
    column: usize,
}

impl Position {
    fn pass(&mut self, text: &str) {
        match text.rfind('\n') {
            Some(last) => {
                self.line += text.bytes().filter(|&b| b == b'\n').count();
                self.column = text[last + 1..].chars().count();
            }
            None => self.column += text.chars().count(),
        }
    }
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

/// UTF-32 text with its byte-order mark (`FF FE 00 00` little-endian,
/// `00 00 FE FF` big-endian), decoded, and how many of its units are no
/// character (each read as "\u{FFFD}"). `encoding_rs` knows no UTF-32:
/// the little-endian mark read as UTF-16's, and a character past U+FFFF
/// became another ("🔥" as U+F525).
pub(super) fn utf32(bytes: &[u8]) -> Option<(String, usize)> {
    let little = bytes.starts_with(&[0xFF, 0xFE, 0, 0]);
    if !little && !bytes.starts_with(&[0, 0, 0xFE, 0xFF]) {
        return None;
    }
    let mut bad = 0;
    let text = bytes[4..]
        .chunks(4)
        .map(|unit| {
            let code = match (unit.try_into(), little) {
                (Ok(u), true) => Some(u32::from_le_bytes(u)),
                (Ok(u), false) => Some(u32::from_be_bytes(u)),
                (Err(_), _) => None,
            };
            code.and_then(char::from_u32).unwrap_or_else(|| {
                bad += 1;
                '\u{FFFD}'
            })
        })
        .collect();
    Some((text, bad))
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
    fn stray_bytes_are_placed_in_one_pass_over_many_lines() {
        let mut bytes = Vec::new();
        for _ in 0..20_000 {
            bytes.extend("é \x01\n".as_bytes());
        }
        for b in bytes.iter_mut().filter(|b| **b == 1) {
            *b = 0x96;
        }
        let t = std::time::Instant::now();
        let (_, stray) = mostly_utf8(&bytes).expect("as many valid characters as stray bytes");
        assert!(
            t.elapsed() < std::time::Duration::from_secs(2),
            "{:?}",
            t.elapsed()
        );
        assert_eq!(stray.len(), 20_000);
        assert_eq!(stray[1], (2, 3, 0x96));
        assert_eq!(stray[19_999], (20_000, 3, 0x96));
    }

    #[test]
    fn latin1_text_is_not_mostly_utf8() {
        let (latin1, _, _) = encoding_rs::WINDOWS_1252.encode("Règles du café – été");
        assert!(mostly_utf8(&latin1).is_none());
        assert!(mostly_utf8("valid UTF-8 é".as_bytes()).is_none());
    }

    #[test]
    fn utf32_is_read_by_its_mark_and_counts_units_that_are_no_character() {
        let mut le = vec![0xFF, 0xFE, 0, 0];
        for code in [0x41, 0x1F525, 0xD800, 0x11_0000] {
            le.extend_from_slice(&u32::to_le_bytes(code));
        }
        le.extend_from_slice(&[0x42, 0]);
        assert_eq!(utf32(&le), Some(("A🔥\u{FFFD}\u{FFFD}\u{FFFD}".into(), 3)));
        assert_eq!(
            utf32(&[0, 0, 0xFE, 0xFF, 0, 0, 0, 0x41]),
            Some(("A".into(), 0))
        );
        // UTF-16's mark alone is not UTF-32's.
        assert_eq!(utf32(&[0xFF, 0xFE, 0x41, 0]), None);
    }

    #[test]
    fn positions_name_a_few_then_count() {
        let list: Vec<(usize, usize)> = (1..=8).map(|i| (i, 1)).collect();
        assert_eq!(positions(&list), "1:1, 2:1, 3:1, 4:1, 5:1 and 3 more");
        assert_eq!(nul_positions("ab\nc\0d\0"), vec![(2, 2), (2, 4)]);
    }
}
