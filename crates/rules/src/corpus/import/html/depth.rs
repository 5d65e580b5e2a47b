//! How deep a page's elements nest, estimated on its tags before it is
//! parsed: the converter walks the tree recursively, so a page nested past
//! [`super::super::MAX_HTML_DEPTH`] is refused first.
//!
//! The estimate follows the HTML parser's own rules where they close an
//! element the page leaves open (a `<li>` ends the `<li>` before it, a
//! `<p>` ends at the next block, a `<tr>` ends the row and its cells, an
//! `<option>` the option before it, …), and its reopening of formatting
//! elements (`<b>` left open across paragraphs is reopened in each), so a
//! list of 450 `<li>` without `</li>` is 3 deep, as a browser builds it,
//! not 453. An end tag closes only an element open in its scope (a stray
//! `</p>` or `</b>` closes nothing), and `<div/>` opens a `div` as the
//! parser reads it. Where the parser's rules are involved (misnested
//! formatting, foster parenting) the estimate may fall short of the tree
//! the parser builds; that tree's own depth is measured, without
//! recursion, before anything walks it (`html::to_markdown_within`), so
//! this estimate is what keeps a deep page from the parser (which slows
//! on some), not what keeps the stack safe. Each tag looks at most
//! [`SCAN`] open elements, and counting stops past the limit: linear in
//! the page.

/// Elements that never hold others (no closing tag).
const VOID: [&str; 16] = [
    "area", "base", "basefont", "bgsound", "br", "col", "embed", "hr", "img", "input", "keygen",
    "link", "meta", "param", "source", "track",
];

/// Elements whose text the parser reads as text, not tags.
const RAW_TEXT: [&str; 7] = [
    "script", "style", "textarea", "title", "xmp", "noembed", "noframes",
];

/// The parser's "special" elements: a `<li>` or `<dd>` does not close
/// one outside these (but `address`, `div` and `p`), and an unknown end
/// tag stops at one.
const SPECIAL: [&str; 82] = [
    "address",
    "applet",
    "area",
    "article",
    "aside",
    "base",
    "basefont",
    "bgsound",
    "blockquote",
    "body",
    "br",
    "button",
    "caption",
    "center",
    "col",
    "colgroup",
    "dd",
    "details",
    "dir",
    "div",
    "dl",
    "dt",
    "embed",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "frame",
    "frameset",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "iframe",
    "img",
    "input",
    "keygen",
    "li",
    "link",
    "listing",
    "main",
    "marquee",
    "menu",
    "meta",
    "nav",
    "noembed",
    "noframes",
    "noscript",
    "object",
    "ol",
    "p",
    "param",
    "plaintext",
    "pre",
    "script",
    "search",
    "section",
    "select",
    "source",
    "style",
    "summary",
    "table",
    "tbody",
    "td",
    "template",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "title",
    "tr",
    "track",
    "ul",
    "xmp",
];

/// Elements an end tag's scope stops at (the parser's "default scope",
/// with SVG's and MathML's text elements; `select` as html5ever 0.38
/// reads a select's content as a page's).
const SCOPE: [&str; 17] = [
    "select",
    "applet",
    "caption",
    "html",
    "table",
    "td",
    "th",
    "marquee",
    "object",
    "template",
    "mi",
    "mo",
    "mn",
    "ms",
    "mtext",
    "annotation-xml",
    "foreignobject",
];

/// Where an end tag (or a start tag closing an element) looks for the
/// element it closes: the parser's scopes, each the default scope's
/// elements and its own.
#[derive(Clone, Copy)]
enum Scope {
    Default,
    /// A `</p>`'s (and a block's looking for a `p` to close): and `button`.
    Button,
    /// A `</li>`'s: and `ol`, `ul`.
    List,
    /// A table part's: only `html`, `table`, `template`.
    Table,
}

impl Scope {
    /// Whether an open element `open` ends the search.
    fn stops_at(self, open: &str) -> bool {
        match self {
            Scope::Table => is(&["html", "table", "template"], open),
            Scope::Default => is(&SCOPE, open),
            Scope::Button => is(&SCOPE, open) || open == "button",
            Scope::List => is(&SCOPE, open) || open == "ol" || open == "ul",
        }
    }
}

/// Start tags that close an open `<p>` (in button scope).
const CLOSES_P: [&str; 37] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "details",
    "dialog",
    "dir",
    "div",
    "dl",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "header",
    "hgroup",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "search",
    "section",
    "summary",
    "ul",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "pre",
    "listing",
    "form",
    "li",
    "dd",
    "dt",
];

/// Formatting elements: reopened in the next paragraph when left open.
const FORMATTING: [&str; 14] = [
    "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
];

/// Elements that bound reopening (a cell's formatting stays in the cell).
const MARKERS: [&str; 7] = [
    "applet", "object", "marquee", "template", "td", "th", "caption",
];

/// How many open elements a tag looks through for the one it closes.
const SCAN: usize = 1_000;

fn is(set: &[&str], name: &str) -> bool {
    set.contains(&name)
}

/// One formatting element the parser keeps for reopening: its tag as
/// written (name and attributes), and whether it is open now.
enum Active {
    Marker,
    Element {
        tag: String,
        name: String,
        open: bool,
    },
}

/// The parser's open elements, as far as the estimate follows them.
#[derive(Default)]
struct Open {
    names: Vec<String>,
    active: Vec<Active>,
    foreign: usize,
    deepest: usize,
}

/// Deepest element nesting of a page (at most `limit + 1`: counting
/// stops there).
pub(in crate::corpus::import) fn nesting(html: &str, limit: usize) -> usize {
    let mut open = Open::default();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        if open.deepest > limit {
            break;
        }
        if !rest[..at].trim().is_empty() {
            open.reopen();
        }
        rest = &rest[at + 1..];
        if let Some(comment) = rest.strip_prefix("!--") {
            rest = comment.find("-->").map_or("", |end| &comment[end + 3..]);
            continue;
        }
        let end = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..end];
        rest = rest.get(end + 1..).unwrap_or("");
        if let Some(name) = tag.strip_prefix('/') {
            open.end(&name_of(name));
            continue;
        }
        let name = name_of(tag);
        if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue;
        }
        open.start(&name, tag);
        if is(&RAW_TEXT, &name) {
            rest = after_end_tag(rest, &name);
            open.pop_to(&name);
        }
    }
    open.deepest
}

/// A tag's name, lowercase.
fn name_of(tag: &str) -> String {
    let end = tag
        .find(|c: char| c.is_ascii_whitespace() || c == '/')
        .unwrap_or(tag.len());
    tag[..end].to_ascii_lowercase()
}

/// The text after a raw-text element's end tag (`</script>`).
fn after_end_tag<'a>(rest: &'a str, name: &str) -> &'a str {
    let close = format!("</{name}");
    let lower = rest.to_ascii_lowercase();
    match lower.find(&close) {
        Some(at) => rest[at..].find('>').map_or("", |end| &rest[at + end + 1..]),
        None => "",
    }
}

impl Open {
    fn start(&mut self, name: &str, tag: &str) {
        if is(&VOID, name) {
            if self.foreign == 0 && !is(&["hr", "link", "meta", "base", "col"], name) {
                self.reopen();
            }
            return;
        }
        if self.foreign > 0 && is(&BREAKOUT, name) {
            self.leave_foreign();
        }
        if self.foreign > 0 {
            // A drawing's elements close nothing (`<svg><tr>` is SVG's).
            if !tag.ends_with('/') {
                self.push(name);
            }
            return;
        }
        if tag.ends_with('/') && (name == "svg" || name == "math") {
            return;
        }
        if is(&TABLE_PARTS, name) && !self.names.iter().rev().take(SCAN).any(|n| n == "table") {
            // Outside a table the parser ignores a row or a cell.
            return;
        }
        if is(&["html", "head", "body"], name) && self.names.iter().take(3).any(|n| n == name) {
            return;
        }
        if name == "select" && self.in_scope("select", Scope::Default) {
            // A select in a select ends it, and opens none.
            return self.pop_to("select");
        }
        self.closes_before(name);
        if !is(&SPECIAL, name) || is(&REOPENS, name) {
            self.reopen();
        }
        if is(&FORMATTING, name) {
            self.remember(name, tag);
        }
        if is(&MARKERS, name) {
            self.active.push(Active::Marker);
        }
        self.push(name);
    }

    fn push(&mut self, name: &str) {
        if name == "svg" || name == "math" {
            self.foreign += 1;
        }
        self.names.push(name.to_string());
        self.deepest = self.deepest.max(self.names.len());
    }

    /// Closes the innermost `svg` or `math` and what is open in it: an
    /// HTML element there ends the drawing (`<svg><li>`), and a `<path/>`
    /// after it opens a `path` the parser no longer reads as closed.
    fn leave_foreign(&mut self) {
        if let Some(at) = self
            .names
            .iter()
            .rev()
            .take(SCAN)
            .position(|n| n == "svg" || n == "math")
        {
            let depth = self.names.len() - at - 1;
            while self.names.len() > depth {
                self.pop();
            }
        }
    }

    /// What the parser closes before it opens `name`.
    fn closes_before(&mut self, name: &str) {
        if is(&CLOSES_P, name) && self.in_scope("p", Scope::Button) {
            self.pop_to("p");
        }
        match name {
            "li" => self.close_item(&["li"]),
            "dd" | "dt" => self.close_item(&["dd", "dt"]),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" if self.top_is(&HEADINGS) => self.pop(),
            "option" | "optgroup" if self.in_scope("select", Scope::Default) => {
                // In a select, the parser closes the elements an end tag
                // may be left out of (but an optgroup before an option).
                let kept: &[&str] = if name == "option" { &["optgroup"] } else { &[] };
                while self
                    .names
                    .last()
                    .is_some_and(|top| is(&IMPLIED_END, top) && !is(kept, top))
                {
                    self.pop();
                }
            }
            "option" | "optgroup" if self.top_is(&["option"]) => self.pop(),
            "rt" | "rp" if self.top_is(&["rt", "rp"]) => self.pop(),
            "table"
                if self.innermost(&["table", "td", "th", "caption", "template"])
                    == Some("table") =>
            {
                // A table straight in a table ends it: the parser opens
                // it after.
                self.pop_to("table");
            }
            "tr" => self.close_in_table(&["tr"], "tbody"),
            "td" | "th" => self.close_in_table(&["td", "th"], "tr"),
            "tbody" | "thead" | "tfoot" | "caption" | "colgroup" => self.close_to_table(),
            _ => {}
        }
    }

    /// A `<li>` (or `<dd>`, `<dt>`) closes the item open before it,
    /// unless a special element other than `address`, `div` or `p` is
    /// open inside that item (a nested list).
    fn close_item(&mut self, items: &[&str]) {
        for name in self.names.iter().rev().take(SCAN) {
            if is(items, name) {
                let name = name.clone();
                return self.pop_to(&name);
            }
            if is(&SPECIAL, name) && !is(&["address", "div", "p"], name) {
                return;
            }
        }
    }

    /// A row closes the row (and cells) open in its table, a cell the
    /// cell, a table section the section; a row or cell put straight in
    /// a table (or a section) opens the `parent` the parser adds for it.
    fn close_in_table(&mut self, closed: &[&str], parent: &str) {
        let found = self.names.iter().rev().take(SCAN).find(|name| {
            is(closed, name)
                || is(
                    &["table", "template", "tbody", "thead", "tfoot", "tr"],
                    name,
                )
        });
        match found.map(String::as_str) {
            Some(name) if is(closed, name) => {
                let name = name.to_string();
                self.pop_to(&name);
            }
            _ => {}
        }
        let wants_parent = match parent {
            "tbody" => self.top_is(&["table"]),
            _ => self.top_is(&["table", "tbody", "thead", "tfoot"]),
        };
        if wants_parent {
            if parent == "tr" && self.top_is(&["table"]) {
                self.push("tbody");
            }
            self.push(parent);
        }
    }

    /// A table section closes what is open in its table.
    fn close_to_table(&mut self) {
        let found = self
            .names
            .iter()
            .rev()
            .take(SCAN)
            .position(|name| is(&["table", "template"], name));
        if let Some(at) = found.filter(|&at| self.names[self.names.len() - 1 - at] == "table") {
            let keep = self.names.len() - at;
            while self.names.len() > keep {
                self.pop();
            }
        }
    }

    /// An end tag closes its element when it is open in scope; a
    /// formatting element's closes it where the parser would.
    fn end(&mut self, name: &str) {
        if self.foreign > 0 && (name == "p" || name == "br") {
            self.leave_foreign();
        }
        if is(&FORMATTING, name) && self.end_formatting(name) {
            return;
        }
        if is(&["html", "body"], name) {
            return;
        }
        let scope = match name {
            "p" => Scope::Button,
            "li" => Scope::List,
            _ if is(&TABLE, name) => Scope::Table,
            _ => Scope::Default,
        };
        if is(&SPECIAL, name) || name == "svg" || name == "math" {
            if self.in_scope(name, scope) {
                self.pop_to(name);
                if is(&["applet", "marquee", "object"], name) {
                    self.clear_to_marker();
                }
            }
            return;
        }
        for open in self.names.iter().rev().take(SCAN) {
            if open == name {
                return self.pop_to(name);
            }
            if is(&SPECIAL, open) {
                return;
            }
        }
    }

    /// A formatting element's end tag: closes it (and what is open in
    /// it) when nothing special is; else the parser moves it (its
    /// "adoption agency"), read here as closing it alone. False when it
    /// is no formatting element the parser keeps (an ordinary end tag).
    fn end_formatting(&mut self, name: &str) -> bool {
        let Some(at) = self.last_active(name) else {
            return false;
        };
        let open = matches!(self.active[at], Active::Element { open: true, .. });
        self.active.remove(at);
        if !open {
            return true;
        }
        let Some(above) = self.reach(name) else {
            return true;
        };
        let depth = self.names.len() - 1 - above;
        if self.names[depth + 1..]
            .iter()
            .any(|open| is(&SPECIAL, open))
        {
            self.names.remove(depth);
            return true;
        }
        while self.names.len() > depth + 1 {
            self.pop();
        }
        self.names.pop();
        true
    }

    /// The last formatting element of this name kept since the last marker.
    fn last_active(&self, name: &str) -> Option<usize> {
        for (at, entry) in self.active.iter().enumerate().rev().take(SCAN) {
            match entry {
                Active::Marker => return None,
                Active::Element { name: kept, .. } if kept == name => return Some(at),
                Active::Element { .. } => {}
            }
        }
        None
    }

    /// Keeps a formatting element for reopening: at most three of the
    /// same tag since the last marker, as the parser keeps.
    fn remember(&mut self, name: &str, tag: &str) {
        let same: Vec<usize> = self
            .active
            .iter()
            .enumerate()
            .rev()
            .take(SCAN)
            .take_while(|(_, entry)| !matches!(entry, Active::Marker))
            .filter(|(_, entry)| matches!(entry, Active::Element { tag: kept, .. } if kept == tag))
            .map(|(at, _)| at)
            .collect();
        if same.len() >= 3 {
            self.active.remove(same[same.len() - 1]);
        }
        self.active.push(Active::Element {
            tag: tag.to_string(),
            name: name.to_string(),
            open: true,
        });
    }

    /// Reopens the formatting elements closed since they were kept, as
    /// the parser does before text or an element.
    fn reopen(&mut self) {
        let closed = self
            .active
            .iter()
            .rev()
            .take_while(|entry| matches!(entry, Active::Element { open: false, .. }))
            .count();
        let from = self.active.len() - closed;
        let mut names = Vec::with_capacity(closed);
        for entry in &mut self.active[from..] {
            if let Active::Element { name, open, .. } = entry {
                *open = true;
                names.push(name.clone());
            }
        }
        for name in names {
            self.push(&name);
        }
    }

    /// The innermost open element of `names`.
    fn innermost(&self, names: &[&str]) -> Option<&str> {
        let found = self.names.iter().rev().take(SCAN).find(|n| is(names, n));
        found.map(String::as_str)
    }

    fn top_is(&self, names: &[&str]) -> bool {
        self.names.last().is_some_and(|top| is(names, top))
    }

    /// Whether `name` is open with none of `scope` (the boundaries of
    /// the parser's scope for it) open inside it.
    fn in_scope(&self, name: &str, scope: Scope) -> bool {
        for open in self.names.iter().rev().take(SCAN) {
            if open == name {
                return true;
            }
            if scope.stops_at(open) {
                return false;
            }
        }
        false
    }

    /// How many elements are open inside the innermost open `name`.
    fn reach(&self, name: &str) -> Option<usize> {
        self.names.iter().rev().take(SCAN).position(|n| n == name)
    }

    /// Closes the innermost open `name` and everything open in it.
    fn pop_to(&mut self, name: &str) {
        if let Some(at) = self.reach(name) {
            let depth = self.names.len() - at - 1;
            while self.names.len() > depth {
                self.pop();
            }
        }
    }

    /// Closes the current element: a formatting element stays kept for
    /// reopening; a marker's element forgets those kept inside it.
    fn pop(&mut self) {
        let Some(name) = self.names.pop() else {
            return;
        };
        if name == "svg" || name == "math" {
            self.foreign = self.foreign.saturating_sub(1);
        }
        if is(&["td", "th", "caption"], &name) {
            self.clear_to_marker();
        } else if is(&FORMATTING, &name) {
            self.close_active(&name);
        }
    }

    /// Forgets the formatting elements kept since the last marker (and
    /// it): the parser does when a cell or caption closes, or an end tag
    /// closes an `object` (an `object` closed by another's end tag
    /// leaves its marker, and what it kept before it is reopened later).
    fn clear_to_marker(&mut self) {
        while let Some(entry) = self.active.pop() {
            if matches!(entry, Active::Marker) {
                break;
            }
        }
    }

    fn close_active(&mut self, name: &str) {
        for entry in self.active.iter_mut().rev().take(SCAN) {
            match entry {
                Active::Marker => return,
                Active::Element {
                    name: kept, open, ..
                } if kept == name && *open => {
                    *open = false;
                    return;
                }
                Active::Element { .. } => {}
            }
        }
    }
}

/// HTML elements that end the SVG or MathML drawing they appear in.
const BREAKOUT: [&str; 44] = [
    "b",
    "big",
    "blockquote",
    "body",
    "br",
    "center",
    "code",
    "dd",
    "div",
    "dl",
    "dt",
    "em",
    "embed",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "hr",
    "i",
    "img",
    "li",
    "listing",
    "menu",
    "meta",
    "nobr",
    "ol",
    "p",
    "pre",
    "ruby",
    "s",
    "small",
    "span",
    "strong",
    "strike",
    "sub",
    "sup",
    "table",
    "tt",
    "u",
    "ul",
    "var",
];

/// Special elements before which the parser reopens formatting elements
/// as before any other element.
const REOPENS: [&str; 9] = [
    "applet", "marquee", "object", "select", "xmp", "button", "svg", "math", "iframe",
];

/// Elements the parser closes where their end tag is implied.
const IMPLIED_END: [&str; 10] = [
    "dd", "dt", "li", "optgroup", "option", "p", "rb", "rp", "rt", "rtc",
];

/// Elements the parser reads only in a table.
const TABLE_PARTS: [&str; 8] = [
    "caption", "colgroup", "tbody", "thead", "tfoot", "tr", "td", "th",
];

/// Table elements: their end tags' scope is the table.
const TABLE: [&str; 7] = ["table", "tbody", "thead", "tfoot", "tr", "td", "th"];

const HEADINGS: [&str; 6] = ["h1", "h2", "h3", "h4", "h5", "h6"];

#[cfg(test)]
mod tests {
    use markup5ever_rcdom::{Handle, NodeData};

    /// How deep the parser the converter uses nests the page's elements.
    fn parsed(html: &str) -> usize {
        fn deepest(node: &Handle) -> usize {
            let own = usize::from(matches!(node.data, NodeData::Element { .. }));
            let children = node.children.borrow();
            own + children.iter().map(deepest).max().unwrap_or(0)
        }
        deepest(&super::super::CONVERTER.html_to_tree(html).unwrap())
    }

    fn estimate(html: &str) -> usize {
        super::nesting(html, usize::MAX - 1)
    }

    #[test]
    fn end_tags_a_page_may_leave_out_close_as_a_browser_closes_them() {
        let items = "<li>an item\n".repeat(450);
        let paragraphs = "<p>a paragraph\n".repeat(450);
        let rows = "<tr><td>a cell<td>another\n".repeat(450);
        let terms = "<dt>term<dd>definition\n".repeat(450);
        let options = "<option>one\n".repeat(450);
        for page in [
            format!("<html><body><ul>{items}</ul><p>after</body></html>"),
            format!("<html><body>{paragraphs}</body></html>"),
            format!("<html><body><table>{rows}</table></body></html>"),
            format!("<html><body><dl>{terms}</dl></body></html>"),
            format!("<html><body><select>{options}</select></body></html>"),
            format!("<html><body><p><b>bold{paragraphs}</body></html>"),
        ] {
            let (guess, built) = (estimate(&page), parsed(&page));
            assert!(
                guess < 10,
                "{guess} for a page the parser nests {built} deep"
            );
            assert!(guess + 3 >= built, "{guess} < {built}");
        }
    }

    #[test]
    fn deep_pages_are_counted_deep_whatever_tags_they_use() {
        for page in [
            "<div>".repeat(1_000),
            "<div/>".repeat(1_000),
            "<b>".repeat(1_000),
            "<div></b></p></span>".repeat(1_000),
            "<ul><li>".repeat(1_000),
            "<table><tr><td>".repeat(1_000),
            "<div></body></html>".repeat(1_000),
            (0..1_000).map(|n| format!("<p><b id={n}>x")).collect(),
        ] {
            assert!(super::nesting(&page, 400) > 400, "{}", &page[..40]);
        }
    }

    #[test]
    fn a_parsed_tree_deeper_than_the_limit_is_refused_before_it_is_walked() {
        let page = "<div><div><div>deep</div></div></div>";
        assert!(super::super::to_markdown_within(page, 5).is_ok());
        assert_eq!(
            super::super::to_markdown_within(page, 4),
            Err(None),
            "html, body and three divs"
        );
    }

    #[test]
    fn counting_stops_past_the_limit_and_a_void_or_closed_element_adds_nothing() {
        assert_eq!(super::nesting(&"<div>".repeat(100_000), 400), 401);
        assert_eq!(
            estimate("<html><body><p>a<br>b</p><p>c</p></body></html>"),
            3
        );
        assert_eq!(estimate("<img src=x/><hr/><input><svg><path/></svg>"), 1);
        assert_eq!(estimate("<script>if (a<b) {}</script><!-- <div> -->"), 1);
    }

    /// Tag soup from a seed: the estimate is never far shallower than the
    /// parser's tree (it follows the parser's rules only as far as they
    /// matter to real pages: the parsed tree's own depth is checked before
    /// it is walked, `to_markdown_within`, so this bounds only what the
    /// parser is given). Formatting elements misnested are left out: the
    /// parser moves them about (its "adoption agency").
    #[test]
    fn an_estimate_is_never_much_shallower_than_the_parsed_tree() {
        const TAGS: [&str; 40] = [
            "<li>",
            "</li>",
            "<p>",
            "</p>",
            "<b>x</b>",
            "<div>",
            "</div>",
            "<ul>",
            "</ul>",
            "<table>",
            "</table>",
            "<tr>",
            "</tr>",
            "<td>",
            "</td>",
            "<tbody>",
            "<dd>",
            "<dt>",
            "<option>",
            "<select>",
            "x",
            "x",
            "<span>",
            "</span>",
            "<h1>",
            "</h1>",
            "</body>",
            "<div/>",
            "<svg>",
            "<path/>",
            "</svg>",
            "<th>",
            "<caption>",
            "<dl>",
            "</dl>",
            "<em>x</em>",
            "<optgroup>",
            "</select>",
            "<ol>",
            "</ol>",
        ];
        let mut seed = 0x2545_f491_u64;
        for _ in 0..500 {
            let mut page = String::from("<html><body>");
            for _ in 0..300 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                page.push_str(TAGS[(seed >> 33) as usize % TAGS.len()]);
            }
            let (guess, built) = (estimate(&page), parsed(&page));
            assert!(2 * guess + 3 >= built, "{guess} < {built}: {page}");
        }
    }
}
