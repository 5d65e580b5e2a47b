//! PDF text extraction with `pdf-extract` (pure Rust, on `lopdf`).

use super::ImportError;

/// Whether the bytes are a PDF (`%PDF-` in the first kilobyte, as readers accept).
pub(super) fn is_pdf(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    head.windows(5).any(|w| w == b"%PDF-")
}

/// The PDF's text, page after page. A PDF with no text is refused, and so is
/// one the library cannot read — including one that makes it panic, which is
/// caught here so a corrupt upload never takes the process down.
pub(super) fn extract(file: &str, bytes: &[u8]) -> Result<String, ImportError> {
    let bad = |reason: String| ImportError::BadPdf {
        file: file.to_string(),
        reason,
    };
    if !is_pdf(bytes) {
        return Err(bad("it has no %PDF- header".into()));
    }
    // An encryption dictionary in the trailer: the reader would fail on it
    // with a password error nobody asked for.
    if bytes.windows(8).any(|w| w == b"/Encrypt") {
        return Err(ImportError::EncryptedPdf {
            file: file.to_string(),
        });
    }
    let result = std::panic::catch_unwind(|| pdf_extract::extract_text_from_mem_by_pages(bytes));
    let text = match result {
        Ok(Ok(pages)) => join_pages(&pages),
        Ok(Err(e)) => return Err(bad(e.to_string())),
        Err(_) => return Err(bad("its structure is damaged".into())),
    };
    let text = tidy(&text);
    if !text.chars().any(char::is_alphanumeric) {
        return Err(ImportError::NoTextLayer {
            file: file.to_string(),
        });
    }
    Ok(text)
}

/// The pages as one text. A page break is not a paragraph break: a page
/// ending mid-sentence or on a heading continues on the next; one ending a
/// sentence before a title or a numbered rule starts a new paragraph.
fn join_pages(pages: &[String]) -> String {
    let mut out = String::new();
    for page in pages {
        let page = tidy(page);
        let page = page.trim_matches('\n');
        if page.is_empty() {
            continue;
        }
        if let Some(last) = out.lines().next_back() {
            let first = page.lines().next().unwrap_or_default();
            let ends_sentence = last
                .trim_end()
                .ends_with(['.', '!', '?', ':', ';', '"', '”', ')']);
            let starts_anew = crate::corpus::numbered::title_like(first)
                || crate::corpus::numbered::is_numbered_line(first);
            out.push_str(if ends_sentence && starts_anew {
                "\n\n"
            } else {
                "\n"
            });
        }
        out.push_str(page);
    }
    out.push('\n');
    out
}

/// Trailing spaces off, page breaks and runs of blank lines down to one blank line.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blanks = 0;
    for line in text.lines() {
        let line = line.replace('\u{c}', "");
        let line = line.trim_end();
        if line.trim().is_empty() {
            blanks += 1;
            continue;
        }
        if blanks > 0 && !out.is_empty() {
            out.push('\n');
        }
        blanks = 0;
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Text with no markup: a line that reads as a title and stands alone (blank
/// lines around it) becomes a `##` heading, so the Markdown parser gives the
/// document sections.
pub(super) fn promote_headings(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let blank = |i: Option<usize>| {
        i.and_then(|i| lines.get(i))
            .is_none_or(|l| l.trim().is_empty())
    };
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in lines.iter().enumerate() {
        let alone = blank(i.checked_sub(1)) && blank(Some(i + 1));
        let listy = line
            .trim_start()
            .starts_with(['•', '-', '*', '»', '#', '>']);
        if alone && !listy && crate::corpus::numbered::title_like(line) {
            out.push_str("## ");
            out.push_str(line.trim());
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}
