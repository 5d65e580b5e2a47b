//! Why a PDF that gave no text lost it, when its own structure tells: a
//! file cut short, or an object the reader gives up on, is no scan, and
//! OCR would not help (an outside tester's truncated file and one with a
//! page dictionary nested 200 deep were both told to run it through OCR).

/// How deep `lopdf` (0.42, `reader::MAX_NESTING_DEPTH`, not exported)
/// reads arrays and dictionaries inside one another: an object nested
/// deeper is not read at all, and with it whatever it holds (a page).
const READER_DEPTH: usize = 100;

/// What is wrong with a PDF whose pages gave no text, in plain words, or
/// `None` when nothing is found (it may be a scan). Decided by the
/// parser's error kind (a table of objects the file's end does not lead
/// to: cut short) and by the objects its table lists that the parser did
/// not read (one nested past [`READER_DEPTH`]: malformed).
pub(super) fn reason(bytes: &[u8]) -> Option<String> {
    match pdf_extract::Document::load_mem(bytes) {
        Err(pdf_extract::Error::Xref(_)) => Some(
            "it does not end as a PDF does (no end-of-file marker leading to its list of objects), so it looks cut short or damaged, and what is left of it holds no text that can be read: send the whole file again".into(),
        ),
        Err(_) => Some(
            "its list of objects is damaged, and what could be found of it holds no text that can be read".into(),
        ),
        Ok(doc) => lost(&doc, bytes),
    }
}

/// The objects `doc`'s table lists that were not read, said by the
/// deepest of them when it is nested past what the reader follows.
fn lost(doc: &pdf_extract::Document, bytes: &[u8]) -> Option<String> {
    let start = bytes.windows(5).position(|w| w == b"%PDF-").unwrap_or(0);
    let buffer = &bytes[start..];
    let missing: Vec<(u32, usize)> = doc
        .reference_table
        .entries
        .iter()
        .filter_map(|(&id, entry)| match *entry {
            pdf_extract::xref::XrefEntry::Normal { offset, generation } => {
                (!doc.objects.contains_key(&(id, generation))).then_some((id, offset as usize))
            }
            _ => None,
        })
        .collect();
    let deepest = missing
        .iter()
        .map(|&(id, offset)| (depth(buffer.get(offset..).unwrap_or_default()), id))
        .max()?;
    Some(match deepest {
        (depth, id) if depth > READER_DEPTH => format!(
            "its object {id} nests lists inside one another {depth} deep, past the {READER_DEPTH} a PDF reader follows, so it is malformed and the page it belongs to could not be read"
        ),
        _ => format!(
            "{} of its objects could not be read (they are malformed), and with them the text of its pages",
            missing.len()
        ),
    })
}

/// How deep an object's arrays and dictionaries nest, read from its bytes
/// up to its `endobj` or its stream's data: literal strings and comments
/// are skipped, as brackets inside them are text.
fn depth(object: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut i = 0;
    while let Some(&b) = object.get(i) {
        match b {
            b'[' => depth += 1,
            b'<' if object.get(i + 1) == Some(&b'<') => {
                depth += 1;
                i += 1;
            }
            b']' => depth = depth.saturating_sub(1),
            b'>' if object.get(i + 1) == Some(&b'>') => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'(' => i = string_end(object, i),
            b'%' => {
                while object.get(i).is_some_and(|&c| c != b'\n' && c != b'\r') {
                    i += 1;
                }
            }
            b'e' if object[i..].starts_with(b"endobj") => break,
            b's' if object[i..].starts_with(b"stream") => break,
            _ => {}
        }
        deepest = deepest.max(depth);
        i += 1;
    }
    deepest
}

/// Where the literal string opening at `open` closes (its brackets
/// balanced, a backslash escaping the next byte), or the object's end.
fn string_end(object: &[u8], open: usize) -> usize {
    let mut level = 0usize;
    let mut i = open;
    while let Some(&b) = object.get(i) {
        match b {
            b'\\' => i += 1,
            b'(' => level += 1,
            b')' => {
                level -= 1;
                if level == 0 {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    object.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_objects_depth_skips_strings_and_stops_at_its_end() {
        assert_eq!(depth(b"3 0 obj << /A [[1] (((]]]) [2]] >> endobj [[[[["), 3);
        assert_eq!(depth(b"<< /Length 4 >> stream [[[[ endstream"), 1);
        assert_eq!(depth(b"[ % [[[[ a comment\n ]"), 1);
        let deep = format!("<< /P {}{} >>", "[".repeat(200), "]".repeat(200));
        assert_eq!(depth(deep.as_bytes()), 201);
    }
}
