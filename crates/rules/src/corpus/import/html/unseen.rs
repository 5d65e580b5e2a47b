//! Text a page does not show, or shows struck through, is left out and
//! said: an element with the `hidden` attribute, `display: none`,
//! `visibility: hidden`, Word's `mso-hide: all` or a zero `font-size` (in
//! its `style` or by
//! its classes' rules, `styles.rs`), and `<s>`, `<strike>`, `<del>` or
//! `text-decoration: line-through`. Decision (found by an outside
//! tester): a page's hidden text ("JUDGES ONLY: …", Word's hidden notes)
//! was imported and quoted to everyone, and an erratum's struck word read
//! as the rule's ("draws <del>seven</del> <ins>six</ins>" quoted "draws
//! seven six"). What the page hides may be meant to show on a click (an
//! accordion's answers): the preview counts the words left out and says
//! how to keep them, so nothing is lost without a word.

use markup5ever_rcdom::Node;

use super::styles::Classes;
use super::{count_words, tag};

/// Words left out, by why.
#[derive(Debug, Default)]
pub(super) struct LeftOut {
    hidden: usize,
    struck: usize,
}

impl LeftOut {
    /// The preview's notes on what was left out.
    pub(super) fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.hidden > 0 {
            notes.push(format!(
                "left out {} the page hides (the `hidden` attribute, `display: none`, \
                 `visibility: hidden`, a zero font size, Word's hidden text): if they are rules text shown \
                 on a click, show them on the page before saving it, or upload it as text",
                crate::text::count(self.hidden, "word")
            ));
        }
        if self.struck > 0 {
            notes.push(format!(
                "left out {} the page strikes through (<s>, <del>, line-through): \
                 text the page shows deleted is no rule",
                crate::text::count(self.struck, "word")
            ));
        }
        notes
    }
}

/// Tags whose text is struck through.
const STRUCK: [&str; 3] = ["s", "strike", "del"];

/// Takes hidden and struck-through elements out of the tree under `node`,
/// counting their words in `left`. Recursive: the page's depth was bounded
/// before it was parsed.
pub(super) fn drop_unseen(node: &Node, classes: &Classes, left: &mut LeftOut) {
    node.children.borrow_mut().retain(|child| {
        let Some(t) = tag(child) else {
            return true;
        };
        let shown = classes.shown(child);
        if shown.hidden || has_hidden_attribute(child) {
            left.hidden += count_words(child);
            false
        } else if shown.struck || STRUCK.contains(&t) {
            left.struck += count_words(child);
            false
        } else {
            true
        }
    });
    for child in node.children.borrow().iter() {
        drop_unseen(child, classes, left);
    }
}

/// Whether an element has the `hidden` attribute (any value but
/// `until-found`, which a browser's find-in-page shows).
fn has_hidden_attribute(node: &Node) -> bool {
    let markup5ever_rcdom::NodeData::Element { attrs, .. } = &node.data else {
        return false;
    };
    attrs
        .borrow()
        .iter()
        .any(|a| &*a.name.local == "hidden" && !a.value.eq_ignore_ascii_case("until-found"))
}

#[cfg(test)]
mod tests {
    use super::super::to_markdown;

    #[test]
    fn hidden_text_is_left_out_and_said() {
        let html = r#"<html><head><style>.judge{display:none} .c5{visibility:hidden}</style></head><body>
<p>1.1 Each player draws six cards.</p>
<p class="judge">JUDGES ONLY: let the first player mulligan twice.</p>
<p>1.2 Players <span style="display: none">secretly</span> shuffle.</p>
<p hidden>Hidden by attribute.</p>
<p>1.3 Keep <span style="mso-hide:all">word hidden note </span>your hand.<span style="font-size:0pt">tiny</span></p>
<p class="c5">Invisible words here.</p>
<p style="display:block" class="judge">Shown after all.</p>
</body></html>"#;
        let (md, notes) = to_markdown(html).unwrap();
        for gone in [
            "JUDGES",
            "secretly",
            "Hidden by",
            "word hidden",
            "Invisible",
        ] {
            assert!(!md.contains(gone), "{gone}: {md}");
        }
        assert!(md.contains("1.1 Each player draws six cards."), "{md}");
        assert!(md.contains("Shown after all."), "{md}");
        let said = notes.join("\n");
        assert!(said.contains("left out 19 words the page hides"), "{said}");
    }

    #[test]
    fn struck_text_is_left_out_and_said() {
        let html = r#"<html><head><style>.c2{text-decoration:line-through}</style></head><body>
<p>1.1 Each player draws <del>seven</del> <ins>six</ins> cards.</p>
<p>1.2 Shuffle <s>twice</s> <strike>thrice</strike> once, then <span class="c2">cut</span> deal.</p>
</body></html>"#;
        let (md, notes) = to_markdown(html).unwrap();
        assert!(md.contains("1.1 Each player draws six cards."), "{md}");
        assert!(
            !md.contains("seven") && !md.contains("twice") && !md.contains("thrice"),
            "{md}"
        );
        assert!(!md.contains("cut"), "{md}");
        let said = notes.join("\n");
        assert!(
            said.contains("left out 4 words the page strikes through"),
            "{said}"
        );
    }
}
