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

/// A user's text shown inline (a question in a summary, a name a refusal
/// quotes): on one line (line breaks and other controls become spaces, so
/// no heading or list item can be forged), markdown escaped, masked links
/// (`[text](url)`) and `<…>` mentions or links shown as typed, and a web
/// address broken after its scheme as [`escape_unlinked`] breaks it (a
/// card name typed as `https://…` was a live link in `/card`'s refusal).
pub fn escape_inline(s: &str) -> String {
    let line: String = s
        .chars()
        .map(|c| if breaks_line(c) { ' ' } else { c })
        .collect();
    let mut out = String::with_capacity(line.len() + 8);
    for c in escape_unlinked(&line).chars() {
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

/// Text for a message that also names players as mentions the bot wrote
/// (a match's replies, a turn notice): [`escape_md`], except that a user
/// mention `<@digits>` or `<@!digits>` stays a mention (a match refuses a
/// typed one in every name, note, reason and play, so each is the bot's),
/// and a web address is broken after its scheme (`https:\/\/…`, shown as
/// typed) so that it is neither a link nor, in a message's content, a
/// preview. Found by an outside tester: a reason's **bold** and
/// ||spoiler|| rendered in `/match board` and in the turn notice, whose
/// "https://…" Discord previewed. Line breaks are kept.
pub fn escape_keeping_mentions(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(len) = mention_len(rest) {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        let first = rest.chars().next().map_or(1, char::len_utf8);
        let next = rest[first..].find('<').map_or(rest.len(), |i| i + first);
        let (chunk, tail) = rest.split_at(next);
        push_unlinked(&mut out, chunk);
        rest = tail;
    }
    out
}

/// A user's text shown as typed where it is not the bot's to link (a
/// board's names in `/judge`'s ruling, found by an outside tester: a unit
/// named with a bare `https://…` was a live link in the embed):
/// [`escape_md`], and a web address broken after its scheme
/// (`https:\/\/…`) so that it is neither a link nor a preview, as in a
/// match's messages. Line breaks are kept.
pub fn escape_unlinked(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    push_unlinked(&mut out, s);
    out
}

/// [`push_escaped`], with each `://` written `:\/\/`: Discord links (and
/// previews) a bare address only with its slashes as typed, and shows an
/// escaped slash as a slash.
fn push_unlinked(out: &mut String, s: &str) {
    let mut pieces = s.split("://");
    push_escaped(out, pieces.next().unwrap_or_default());
    for piece in pieces {
        out.push_str(":\\/\\/");
        push_escaped(out, piece);
    }
}

/// The length of the user mention `s` starts with (`<@123>`, `<@!123>`).
fn mention_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix("<@")?;
    let digits_at = usize::from(body.starts_with('!'));
    let digits = body[digits_at..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    (digits > 0 && body[digits_at + digits..].starts_with('>'))
        .then_some(2 + digits_at + digits + 1)
}

/// A zero-width joiner: put between two backticks, it keeps them from
/// reading as one run (a fence) while the text still looks as typed.
const ZWJ: char = '\u{200D}';

/// Text in a code span (`` `…` ``): a board's field path or a value that
/// holds a user's names. A backslash does not escape inside a span, so a
/// name's backticks would close it early and what follows would render (a
/// masked link, a mention: found by an outside tester in `/judge`'s
/// changes). Text without a backtick is fenced by one as before; otherwise
/// a zero-width joiner goes between adjacent backticks (no run is longer
/// than one, so none can read as a fence, ``` included), the fence is two
/// backticks, and a space pads a backtick at either end (Discord, as
/// CommonMark, drops one such space). The text shows as typed; copied, it
/// carries the joiners. Line breaks become spaces: a span is one line.
pub fn code_span(s: &str) -> String {
    let line: String = s
        .chars()
        .map(|c| if breaks_line(c) { ' ' } else { c })
        .collect();
    if !line.contains('`') {
        return format!("`{line}`");
    }
    let inner = split_backtick_runs(&line, 1);
    let pad_start = if inner.starts_with('`') { " " } else { "" };
    let pad_end = if inner.ends_with('`') { " " } else { "" };
    format!("``{pad_start}{inner}{pad_end}``")
}

/// The body of a fenced code block (```` ```yaml ````): Discord ends a
/// block at the first three backticks anywhere, so a name holding ```
/// would close the board's block and render what follows. A zero-width
/// joiner goes after every second backtick of a run; the text looks as
/// typed (a board pasted back carries the joiners in that name).
pub fn code_block_body(s: &str) -> String {
    if !s.contains("```") {
        return s.to_string();
    }
    split_backtick_runs(s, 2)
}

/// `s` with a zero-width joiner after every `longest` backticks in a row,
/// so that no run of backticks is longer than `longest`.
fn split_backtick_runs(s: &str, longest: usize) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut run = 0;
    for c in s.chars() {
        if c == '`' {
            if run == longest {
                out.push(ZWJ);
                run = 0;
            }
            run += 1;
        } else {
            run = 0;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The longest run of backticks in `s`.
    fn longest_run(s: &str) -> usize {
        s.split(|c| c != '`').map(str::len).max().unwrap_or(0)
    }

    #[test]
    fn a_code_span_cannot_be_closed_by_its_text() {
        let name = "Anchor ``` [click](http://evil.example) <@2> ```";
        let span = code_span(&format!("units[\"{name}\"]"));
        assert!(span.starts_with("``") && span.ends_with("``"), "{span}");
        let inner = &span[2..span.len() - 2];
        assert_eq!(longest_run(inner), 1, "{span}");
        assert_eq!(inner.replace(ZWJ, ""), format!("units[\"{name}\"]"));
        assert_eq!(code_span("plain.path"), "`plain.path`");
        let edge = code_span("`x`");
        assert_eq!(edge, "`` `x` ``");
        assert_eq!(code_span("a\nb"), "`a b`");
    }

    #[test]
    fn a_code_block_body_holds_no_fence() {
        let body = "name: Anchor ``` [click](x) `````";
        let safe = code_block_body(body);
        assert!(!safe.contains("```"), "{safe}");
        assert_eq!(safe.replace(ZWJ, ""), body);
        assert_eq!(code_block_body("a: `b`"), "a: `b`");
    }

    #[test]
    fn the_bots_mentions_stay_and_a_users_markup_and_links_show_as_typed() {
        let s = "Coal (<@123>) proposes: I won https://evil.example/p **bold** ||x|| <@!9> <@x>";
        let out = escape_keeping_mentions(s);
        assert!(out.starts_with("Coal (<@123>) proposes"), "{out}");
        assert!(out.contains("<@!9>"), "{out}");
        assert!(out.contains("\\<@x"), "{out}");
        for live in ["https://", "**bold**", "||x||"] {
            assert!(!out.contains(live), "{live} in {out}");
        }
        assert_eq!(escape_keeping_mentions("a\nb: c"), "a\nb: c");
    }

    /// A user's text shown inline or as typed links nowhere: its web
    /// addresses are broken after the scheme (each of them), its markup and
    /// mentions escaped; the rest reads as typed.
    #[test]
    fn a_users_web_address_is_no_link_inline_or_as_typed() {
        let s =
            "Free https://evil.example/a and http://b.example **x** <@2> [c](https://d.example)";
        for out in [escape_inline(s), escape_unlinked(s)] {
            for live in ["://", "**x**", " <@2>", " [c]("] {
                assert!(!out.contains(live), "{live} in {out}");
            }
            assert!(out.contains("https:\\/\\/evil.example/a"), "{out}");
            assert!(out.contains("http:\\/\\/b.example"), "{out}");
        }
        assert_eq!(escape_unlinked("a\nb: c"), "a\nb: c");
        assert_eq!(escape_inline("a\nb: c"), "a b: c");
    }
}
