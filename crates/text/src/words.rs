//! A refusal's words with the values in it kept apart from its template.
//!
//! The template is ours: the commands and fields it names are written as
//! code (`` `/rules list` ``). The values are what someone gave (an id, a
//! title, a card or game name, a field of an uploaded list): a transport
//! that marks text up escapes them and only them. Escaped whole, a Discord
//! reply showed the template's code spans as "\`/rules list\`" (found by an
//! outside tester); left whole, a value's `[x](https://…)` would be a live
//! link. Here, at the bottom of the crate graph, so that the rules crate's
//! card and slang list errors ("unknown field `{}`") carry them too.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A template (`{}` for each value) and its values, in order.
/// Serializable: an import's error comes back from a child process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Words {
    template: Cow<'static, str>,
    values: Vec<String>,
}

impl Words {
    /// The template's `{}` each filled, in order, by a value as given.
    pub fn fill(template: &'static str, values: Vec<String>) -> Words {
        debug_assert_eq!(template.matches("{}").count(), values.len(), "{template}");
        Words {
            template: Cow::Borrowed(template),
            values,
        }
    }

    /// Fixed words with no value in them.
    pub fn fixed(template: &'static str) -> Words {
        Words::fill(template, Vec::new())
    }

    /// Words nobody wrote as a template (a parser's own message, which may
    /// quote the input): all of them one value, shown escaped whole.
    pub fn given(text: impl Into<String>) -> Words {
        Words::fill("{}", vec![text.into()])
    }

    /// These words after `lead`'s (a position given as a value, "line
    /// 3:5: "; a file's name and what it is not).
    pub fn after(self, lead: Words) -> Words {
        let mut values = lead.values;
        values.extend(self.values);
        Words {
            template: Cow::Owned(format!("{}{}", lead.template, self.template)),
            values,
        }
    }

    /// The words with every value passed through `shown` (Discord escapes
    /// them) and the template as written. A value the template puts in a
    /// code span (`` `{}` ``) is inert there already, and escaped it would
    /// show its backslashes (`nam\_e`): it goes in as given, on one line,
    /// a backtick in it (which would end the span) shown as `ˋ`.
    pub fn shown(&self, shown: &dyn Fn(&str) -> String) -> String {
        let mut out = String::with_capacity(self.template.len() + 32);
        let mut values = self.values.iter();
        let mut pieces = self.template.split("{}");
        let mut before = pieces.next().unwrap_or_default();
        out.push_str(before);
        for piece in pieces {
            let in_code = before.ends_with('`') && piece.starts_with('`');
            let value = values.next().map(String::as_str).unwrap_or_default();
            out.push_str(&if in_code { code(value) } else { shown(value) });
            out.push_str(piece);
            before = piece;
        }
        out
    }
}

/// A value as a code span shows it: on one line, no backtick to end it.
fn code(value: &str) -> String {
    value
        .chars()
        .map(|c| match c {
            '`' => 'ˋ',
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') => ' ',
            c => c,
        })
        .collect()
}

impl fmt::Display for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut values = self.values.iter();
        let mut pieces = self.template.split("{}");
        f.write_str(pieces.next().unwrap_or_default())?;
        for piece in pieces {
            f.write_str(values.next().map(String::as_str).unwrap_or_default())?;
            f.write_str(piece)?;
        }
        Ok(())
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
            "'{}' is {}; see `/rules list`",
            vec!["a{}b".into(), "*x*".into()],
        );
        assert_eq!(w.to_string(), "'a{}b' is *x*; see `/rules list`");
        let upper = w.shown(&|v| v.to_uppercase());
        assert_eq!(upper, "'A{}B' is *X*; see `/rules list`");
        assert_eq!(Words::fixed("no `values`").to_string(), "no `values`");
        let led = Words::given("*x*").after(Words::given("line 1: "));
        assert_eq!(led.to_string(), "line 1: *x*");
        assert_eq!(led.shown(&|v| v.to_uppercase()), "LINE 1: *X*");
    }

    /// A value inside the template's code span is shown as given, but
    /// cannot end the span or break the line; the words as text keep it.
    #[test]
    fn a_value_in_a_code_span_stays_inside_it() {
        let w = Words::fill(
            "field `{}`, not {}",
            vec!["a_b`\n[x](y)".into(), "_c".into()],
        );
        let escaped = w.shown(&|v| v.replace('_', "\\_"));
        assert_eq!(escaped, "field `a_bˋ [x](y)`, not \\_c");
        assert_eq!(w.to_string(), "field `a_b`\n[x](y)`, not _c");
    }
}
