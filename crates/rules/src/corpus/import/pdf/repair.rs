//! A PDF whose cross-reference table does not lead to its objects, as
//! desktop viewers read it: by finding the objects themselves. `lopdf`
//! (0.42) reads only through the table the file's `startxref` points at
//! and looks for `%%EOF` in the last 512 bytes, so a file with bytes
//! appended after its end (a mail gateway's, a download's), one whose
//! line endings were changed (every offset moved), or one whose table or
//! `startxref` is wrong was refused or lost its pages. Here the objects
//! are found by scanning for `N G obj` and a new table and trailer are
//! appended, pointing at them; the parser then reads that.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::bytes::Regex;

/// `N G obj` at a line's start (or after the previous object's end on the
/// same line): the object's number, generation, and where it starts.
static OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:^|[\r\n>\]])[ \t\f\x00]*(\d{1,10})[ \t\r\n\f\x00]+(\d{1,5})[ \t\r\n\f\x00]+obj\b",
    )
    .expect("a valid pattern")
});
/// A stream's dictionary's end and keyword: its data starts after them.
static STREAM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r">>\s*stream(?:\r\n|\n|\r)").expect("a valid pattern"));
/// A direct length (`/Length 42`, not `/Length 7 0 R`).
static LENGTH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/Length\s+\d+(?:\s+\d+\s+R)?").expect("a valid pattern"));
/// The document's catalog as a trailer (or an xref stream) names it.
static ROOT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/Root\s*(\d{1,10})\s+(\d{1,5})\s+R").expect("a valid pattern"));
static INFO: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/Info\s*(\d{1,10})\s+(\d{1,5})\s+R").expect("a valid pattern"));
/// The encryption dictionary a trailer names (kept in the new trailer, so
/// the parser still tells an encrypted file; "/Encrypt" as words of the
/// text is no reference).
static ENCRYPT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"/Encrypt\s*(\d{1,10})\s+(\d{1,5})\s+R").expect("a valid pattern")
});
/// An object stream's type, its first object's offset and its count.
static OBJSTM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/Type\s*/ObjStm\b").expect("a valid pattern"));
static FIRST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/First\s+(\d{1,10})").expect("a valid pattern"));
static COUNT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/N\s+(\d{1,10})").expect("a valid pattern"));
/// A catalog object's own type, when no trailer names it.
static CATALOG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/Type\s*/Catalog\b").expect("a valid pattern"));

/// Whether every object the parsed table lists in the file itself starts
/// where the table says (`buffer` from `%PDF-` on, as the parser reads it).
pub(super) fn table_is_sound(doc: &pdf_extract::Document, buffer: &[u8]) -> bool {
    doc.reference_table.entries.iter().all(|(&id, entry)| {
        let pdf_extract::xref::XrefEntry::Normal { offset, generation } = *entry else {
            return true;
        };
        let at = buffer.get(offset as usize..).unwrap_or_default();
        let at = &at[..at.len().min(64)];
        let head = format!("{id} {generation} obj");
        let text: Vec<u8> = at
            .iter()
            .skip_while(|b| b.is_ascii_whitespace())
            .copied()
            .collect();
        // Any whitespace between the parts is the producer's own.
        let words: Vec<&[u8]> = text
            .split(|b| b.is_ascii_whitespace())
            .filter(|w| !w.is_empty())
            .take(3)
            .collect();
        let want: Vec<&[u8]> = head.as_bytes().split(|&b| b == b' ').collect();
        words.len() == 3 && words[..2] == want[..2] && words[2].starts_with(b"obj")
    })
}

/// The file rebuilt from the objects found in it (the last of a number
/// wins, as an incremental update's does), each copied to its `endobj`
/// with a stream's direct `/Length` set to where its `endstream` is
/// (line endings changed inside a stream moved it), under a new
/// cross-reference table and trailer; `None` when no catalog is found.
pub(super) fn rebuilt(bytes: &[u8]) -> Option<Vec<u8>> {
    let start = bytes.windows(5).position(|w| w == b"%PDF-")?;
    let buffer = &bytes[start..];
    let mut found: BTreeMap<u32, (u16, usize)> = BTreeMap::new();
    for object in OBJECT.captures_iter(buffer) {
        let (Some(number), Some(generation)) = (number(&object, 1), number(&object, 2)) else {
            continue;
        };
        let (Ok(number), Ok(generation)) = (u32::try_from(number), u16::try_from(generation))
        else {
            continue;
        };
        let offset = object.get(1).map_or(0, |m| m.start());
        if number > 0 {
            found.insert(number, (generation, offset));
        }
    }
    // Each object ends where the next begins, at the latest: a file with
    // no `endobj` is read once, not once an object.
    let mut starts: Vec<usize> = OBJECT
        .captures_iter(buffer)
        .filter_map(|c| c.get(1).map(|m| m.start()))
        .collect();
    starts.push(buffer.len());
    let whole = |offset: usize| &buffer[offset..starts[starts.partition_point(|&s| s <= offset)]];
    let packed = packed_objects(&found, whole);
    let known = |n: &u32| found.contains_key(n) || packed.contains_key(n);
    let root = last_reference(&ROOT, buffer).or_else(|| catalog(buffer, &found))?;
    if !known(&root.0) {
        return None;
    }
    let info = last_reference(&INFO, buffer).filter(|i| known(&i.0));
    let header_end = buffer.iter().position(|&b| b == b'\n' || b == b'\r')?;
    let mut out = buffer[..header_end].to_vec();
    out.extend_from_slice(b"\n%\xe2\xe3\xcf\xd3\n");
    let mut placed = BTreeMap::new();
    for (&n, &(generation, offset)) in &found {
        placed.insert(n, (generation, out.len()));
        out.extend_from_slice(&object_bytes(whole(offset)));
        out.extend_from_slice(b"\n");
    }
    for (&n, object) in &packed {
        placed.insert(n, (0, out.len()));
        out.extend_from_slice(format!("{n} 0 obj\n").as_bytes());
        out.extend_from_slice(object);
        out.extend_from_slice(b"\nendobj\n");
    }
    let table_at = out.len();
    out.extend_from_slice(&table(&placed));
    let size = placed.keys().last().map_or(1, |n| n + 1);
    let mut info = info.map_or_else(String::new, |(n, g)| format!(" /Info {n} {g} R"));
    if let Some((n, g)) = last_reference(&ENCRYPT, buffer) {
        info.push_str(&format!(" /Encrypt {n} {g} R"));
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {size} /Root {} {} R{info} >>\nstartxref\n{table_at}\n%%EOF\n",
            root.0, root.1
        )
        .as_bytes(),
    );
    Some(out)
}

/// The objects kept inside object streams (`/Type /ObjStm`, Flate or not
/// compressed), each as its own bytes, but those found as plain objects:
/// a table rebuilt of the plain objects alone lost them (a file saved
/// with object streams, its table damaged, lost its catalog and pages).
/// Each stream is inflated to [`MAX_PACKED`] bytes at most.
fn packed_objects<'a>(
    found: &BTreeMap<u32, (u16, usize)>,
    whole: impl Fn(usize) -> &'a [u8],
) -> BTreeMap<u32, Vec<u8>> {
    let mut packed = BTreeMap::new();
    for &(_, offset) in found.values() {
        let object = object_bytes(whole(offset));
        let Some(data_at) = STREAM.find(&object).map(|m| m.end()) else {
            continue;
        };
        let dict = &object[..data_at];
        if !OBJSTM.is_match(dict) {
            continue;
        }
        let end = find(&object[data_at..], b"endstream").map_or(object.len(), |i| data_at + i);
        let data = &object[data_at..end];
        let content = match find(dict, b"/FlateDecode") {
            Some(_) => inflate(data),
            None => data.to_vec(),
        };
        let field = |pattern: &Regex| {
            pattern
                .captures(dict)
                .and_then(|c| number(&c, 1))
                .and_then(|n| usize::try_from(n).ok())
        };
        let (Some(first), Some(count)) = (field(&FIRST), field(&COUNT)) else {
            continue;
        };
        let header = content.get(..first).unwrap_or_default();
        let numbers: Vec<usize> = header
            .split(|b| b.is_ascii_whitespace())
            .filter_map(|w| std::str::from_utf8(w).ok()?.parse().ok())
            .collect();
        let pairs: Vec<(usize, usize)> = numbers
            .chunks_exact(2)
            .take(count)
            .map(|p| (p[0], p[1]))
            .collect();
        for (k, &(n, at)) in pairs.iter().enumerate() {
            // Offsets are the file's numbers: added without overflow.
            let until = pairs
                .get(k + 1)
                .map_or(Some(content.len()), |p| first.checked_add(p.1));
            let bytes = first
                .checked_add(at)
                .zip(until)
                .and_then(|(from, until)| content.get(from..until));
            let (Ok(n), Some(bytes)) = (u32::try_from(n), bytes) else {
                continue;
            };
            if n > 0 && !found.contains_key(&n) {
                packed.entry(n).or_insert_with(|| bytes.to_vec());
            }
        }
    }
    packed
}

/// How many bytes an object stream is inflated to at most (a stream that
/// inflates past it is cut there: its later objects are lost, not the
/// process's memory).
const MAX_PACKED: u64 = 16 << 20;

/// Flate data inflated, as far as it reads and to [`MAX_PACKED`] bytes.
fn inflate(data: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    let _partial = flate2::read::ZlibDecoder::new(data)
        .take(MAX_PACKED)
        .read_to_end(&mut out);
    out
}

/// An object's bytes from its `N G obj` to its `endobj` (or the file's
/// end), a stream's direct `/Length` made its data's.
fn object_bytes(from: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let end = find(from, b"endobj").map_or(from.len(), |i| i + 6);
    let Some(data) = STREAM.find(&from[..end]).map(|m| m.end()) else {
        return from[..end].into();
    };
    let Some(data_end) = find(&from[data..], b"endstream").map(|i| data + i) else {
        return from.into();
    };
    let end = find(&from[data_end..], b"endobj").map_or(from.len(), |i| data_end + i + 6);
    let mut length = data_end - data;
    for eol in [&b"\r\n"[..], b"\n", b"\r"] {
        if from[data..data_end].ends_with(eol) {
            length -= eol.len();
            break;
        }
    }
    let dict = &from[..data];
    match LENGTH.find(dict) {
        Some(m) => {
            let mut out = dict[..m.start()].to_vec();
            out.extend_from_slice(format!("/Length {length}").as_bytes());
            out.extend_from_slice(&from[m.end()..end]);
            out.into()
        }
        None => from[..end].into(),
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// A cross-reference table of `objects`, one subsection per run of
/// consecutive numbers (a hostile `4000000000 0 obj` costs one line).
fn table(objects: &BTreeMap<u32, (u16, usize)>) -> Vec<u8> {
    let mut out = b"xref\n0 1\n0000000000 65535 f \n".to_vec();
    let numbers: Vec<u32> = objects.keys().copied().collect();
    for run in numbers.chunk_by(|a, b| b.checked_sub(*a) == Some(1)) {
        out.extend_from_slice(format!("{} {}\n", run[0], run.len()).as_bytes());
        for n in run {
            let (generation, offset) = objects[n];
            out.extend_from_slice(format!("{offset:010} {generation:05} n \n").as_bytes());
        }
    }
    out
}

fn number(found: &regex::bytes::Captures<'_>, group: usize) -> Option<u64> {
    std::str::from_utf8(found.get(group)?.as_bytes())
        .ok()?
        .parse()
        .ok()
}

/// The last `/Root n g R` (or `/Info`) in the file: the newest trailer's.
fn last_reference(pattern: &Regex, buffer: &[u8]) -> Option<(u32, u16)> {
    let found = pattern.captures_iter(buffer).last()?;
    let n = u32::try_from(number(&found, 1)?).ok()?;
    let g = u16::try_from(number(&found, 2)?).ok()?;
    Some((n, g))
}

/// The object holding the last `/Type /Catalog`, when no trailer is left.
fn catalog(buffer: &[u8], objects: &BTreeMap<u32, (u16, usize)>) -> Option<(u32, u16)> {
    let at = CATALOG.find_iter(buffer).last()?.start();
    objects
        .iter()
        .filter(|(_, (_, offset))| *offset < at)
        .max_by_key(|(_, (_, offset))| *offset)
        .map(|(&n, &(g, _))| (n, g))
}

#[cfg(test)]
mod tests {
    /// An object stream's header gives each object's offset: one past any
    /// number the machine adds is skipped, not an overflow (a debug build
    /// panicked, a release build wrapped).
    #[test]
    fn an_offset_past_any_number_is_skipped() {
        let header = format!("2 0 3 {} ", usize::MAX);
        let first = header.len();
        let content = format!("{header}<< /A 1 >>\n<< /B 2 >>");
        let pdf = format!(
            "%PDF-1.5\n1 0 obj\n<< /Type /ObjStm /N 2 /First {first} /Length {} >>\nstream\n{content}\nendstream\nendobj\ntrailer\n<< /Root 2 0 R >>\n%%EOF\n",
            content.len()
        );
        // Nothing to assert but that it returns: the objects are unreadable.
        let _ = super::rebuilt(pdf.as_bytes());
    }
}
