//! Discord markdown: user or rules text shown as typed. Here, below the
//! transports, so that a renderer of this crate (a match log's notes) and
//! the Discord transport escape the same way.

/// Escapes Discord markdown in quoted rules text.
pub fn escape_md(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    push_escaped(&mut out, s);
    out
}

/// A character that starts a new line where it is shown: a control
/// character, or Unicode's line and paragraph separators (U+2028, U+2029).
pub(crate) fn breaks_line(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// A user's text shown inline (a question in a summary): on one line (line
/// breaks and other controls become spaces, so no heading or list item can
/// be forged), markdown escaped, masked links (`[text](url)`) and
/// `<…>` mentions or links shown as typed.
pub fn escape_inline(s: &str) -> String {
    let line: String = s
        .chars()
        .map(|c| if breaks_line(c) { ' ' } else { c })
        .collect();
    let mut out = String::with_capacity(line.len() + 8);
    for c in escape_md(&line).chars() {
        if matches!(c, ']' | '>') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// [`escape_md`] appended to `out`: formatting marks, and `<` and `[`, so
/// that a mention, channel, timestamp or command (`<@…>`, `<#…>`, `<t:…>`,
/// `</rule:…>`) or a masked link (`[text](url)`) in an uploaded document
/// or card list shows as typed (found by an outside tester: they rendered
/// live in every answer quoting them).
pub fn push_escaped(out: &mut String, s: &str) {
    let mut copied = 0;
    // Runs of plain text copied whole (an ASCII byte is never inside a
    // multi-byte character, so every cut is on a character boundary).
    for (i, b) in s.bytes().enumerate() {
        if matches!(b, b'*' | b'_' | b'~' | b'`' | b'|' | b'\\' | b'<' | b'[') {
            out.push_str(&s[copied..i]);
            out.push('\\');
            copied = i;
        }
    }
    out.push_str(&s[copied..]);
}
