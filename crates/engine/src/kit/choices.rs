//! Helpers for the common shapes of a player's choice: yes or no, one of
//! several or none. A [`Choice`] says whose choice it is, its key, the
//! rules' default, the rule and the play field; it is settled by
//! [`Cx::choose_with`], so the question and its answers are built only when
//! the player is asked.

use serde_json::Value;

use super::{Chosen, Cx, Opt, Stop, Whose};
use crate::ruling::MAX_OPTIONS;

/// A choice that belongs to a player, without its question.
#[derive(Debug, Clone)]
pub struct Choice<T> {
    pub whose: Whose<T>,
    pub rule: &'static str,
    /// The play field the answer goes to (`play.counter`).
    pub path: String,
    /// The default is the engine's reading, not the quoted text's: the
    /// question says it is assumed ([`Cx::choose_assuming`]).
    pub assumed: bool,
}

impl<T: Clone + PartialEq> Choice<T> {
    /// `seat`'s choice `key` under `rule`, answered in the play at `path`;
    /// `default`: the rules' answer when the player says nothing, and why.
    pub fn new(
        seat: usize,
        key: impl Into<String>,
        default: Option<(T, &str)>,
        rule: &'static str,
        path: impl Into<String>,
    ) -> Choice<T> {
        let default = default.map(|(v, why)| (v, why.to_string()));
        let key = key.into();
        let path = path.into();
        Choice {
            whose: Whose { seat, key, default },
            rule,
            path,
            assumed: false,
        }
    }

    /// The same choice, its default the engine's reading where the quoted
    /// text gives none.
    pub fn assuming(self) -> Choice<T> {
        Choice {
            assumed: true,
            ..self
        }
    }

    /// Settles the choice: as `stated`, answered, by default, or asked with
    /// the question and answers `ask` builds.
    pub fn settle(
        self,
        cx: &mut Cx,
        stated: Option<T>,
        ask: impl FnOnce() -> (String, Vec<Opt<T>>),
    ) -> Result<Chosen<T>, Stop> {
        let Choice {
            whose,
            rule,
            path,
            assumed,
        } = self;
        let w = whose.clone();
        let ask = move || {
            let (question, options) = ask();
            w.ask(rule, path, question, options)
        };
        match assumed {
            true => cx.choose_assuming(stated, whose, ask),
            false => cx.choose_with(stated, whose, ask),
        }
    }
}

impl Choice<bool> {
    /// Yes or no: `ask` gives the question and the yes answer's label, `no`
    /// is the no answer's, `patch` the play change each answer makes.
    pub fn yes_no(
        self,
        cx: &mut Cx,
        stated: Option<bool>,
        ask: impl FnOnce() -> (String, String),
        no: &str,
        patch: impl Fn(bool) -> Value,
    ) -> Result<Chosen<bool>, Stop> {
        self.settle(cx, stated, || {
            let (question, yes) = ask();
            let answer = |label: String, v: bool| Opt {
                label,
                value: v,
                patch: patch(v),
            };
            (question, vec![answer(yes, true), answer(no.into(), false)])
        })
    }
}

/// One of `options` or `none`, the last answer: the options are cut so the
/// answers fit one menu ([`MAX_OPTIONS`]).
pub fn one_or_none<T>(mut options: Vec<Opt<T>>, none: Opt<T>) -> Vec<Opt<T>> {
    options.truncate(MAX_OPTIONS - 1);
    options.push(none);
    options
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::cx::Asking;

    #[test]
    fn a_yes_no_choice_is_asked_with_both_answers_and_its_default() {
        let asking = Asking::seat(0);
        let mut cx = Cx::new(&asking, vec!["A".into(), "B".into()]);
        let c = Choice::new(1, "counter", Some((false, "may")), "r", "play.counter");
        let ask = || ("B: counter?".to_string(), "counter".to_string());
        let patch = |v: bool| serde_json::json!({ "counter": v });
        match c.yes_no(&mut cx, None, ask, "do not counter", patch) {
            Err(Stop::Ask(d)) => {
                assert_eq!((d.key.as_str(), d.seat), ("counter", 1));
                assert_eq!(d.options[1].label, "do not counter");
                assert_eq!(d.options[0].patch, serde_json::json!({"counter": true}));
                assert_eq!(d.default, Some(1));
            }
            other => panic!("{other:?}"),
        }
        let many = (0..30).map(|i| Opt::field(i.to_string(), i, "x", Value::Null));
        let opts = one_or_none(many.collect(), Opt::field("none", -1, "x", Value::Null));
        assert_eq!((opts.len(), opts[MAX_OPTIONS - 1].value), (MAX_OPTIONS, -1));
    }
}
