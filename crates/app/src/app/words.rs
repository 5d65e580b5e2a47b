//! A refusal's words with the values in it kept apart from its template.
//!
//! The template is ours, a literal: the commands and fields it names are
//! written as code (`` `/rules list` ``). The values are what someone gave
//! (an id, a title, a card or game name): a transport that marks text up
//! escapes them and only them. Escaped whole, a Discord reply showed the
//! template's code spans as "\`/rules list\`" (found by an outside tester);
//! left whole, a value's `[x](https://…)` would be a live link.

use std::fmt;

/// A template (`{}` for each value) and its values, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    template: &'static str,
    values: Vec<String>,
}

impl Words {
    /// The template's `{}` each filled, in order, by a value as given.
    pub fn fill(template: &'static str, values: Vec<String>) -> Words {
        debug_assert_eq!(template.matches("{}").count(), values.len(), "{template}");
        Words { template, values }
    }

    /// Fixed words with no value in them.
    pub fn fixed(template: &'static str) -> Words {
        Words::fill(template, Vec::new())
    }

    /// The words with every value passed through `shown` (Discord escapes
    /// them) and the template as written.
    pub fn shown(&self, shown: &dyn Fn(&str) -> String) -> String {
        let mut out = String::with_capacity(self.template.len() + 32);
        let mut values = self.values.iter();
        let mut pieces = self.template.split("{}");
        out.push_str(pieces.next().unwrap_or_default());
        for piece in pieces {
            out.push_str(&values.next().map(|v| shown(v)).unwrap_or_default());
            out.push_str(piece);
        }
        out
    }
}

impl fmt::Display for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown(&|v| v.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each value goes through `shown` once, in its place; the template's
    /// own marks (a value's `{}` too) are left as written.
    #[test]
    fn only_the_values_are_shown_through() {
        let w = Words::fill(
            "`{}` is {}; see `/rules list`",
            vec!["a{}b".into(), "*x*".into()],
        );
        assert_eq!(w.to_string(), "`a{}b` is *x*; see `/rules list`");
        let upper = w.shown(&|v| v.to_uppercase());
        assert_eq!(upper, "`A{}B` is *X*; see `/rules list`");
        assert_eq!(Words::fixed("no `values`").to_string(), "no `values`");
    }
}
