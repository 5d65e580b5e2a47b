//! HTML pages (a saved wiki page, an exported rules site) to Markdown, with
//! `htmd`; scripts, styles and page chrome are left out.

use std::sync::LazyLock;

use htmd::HtmlToMarkdown;
use htmd::options::{BulletListMarker, Options};

/// Elements that never hold rules text.
const SKIPPED: [&str; 9] = [
    "script", "style", "noscript", "nav", "header", "footer", "aside", "form", "iframe",
];

static CONVERTER: LazyLock<HtmlToMarkdown> = LazyLock::new(|| {
    HtmlToMarkdown::builder()
        .options(Options {
            bullet_list_marker: BulletListMarker::Dash,
            ul_bullet_spacing: 1,
            ol_number_spacing: 1,
            ..Options::default()
        })
        .skip_tags(SKIPPED.to_vec())
        .build()
});

/// Whether text starts like an HTML page rather than Markdown.
pub(super) fn looks_like_html(text: &str) -> bool {
    let head: String = text.trim_start().chars().take(512).collect();
    let head = head.to_lowercase();
    head.starts_with("<!doctype html") || head.starts_with("<html") || head.contains("<body")
}

/// The page as Markdown.
pub(super) fn to_markdown(html: &str) -> Result<String, String> {
    CONVERTER
        .convert(html)
        .map_err(|e| format!("cannot read the HTML: {e}"))
}
