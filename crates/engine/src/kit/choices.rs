//! Helpers for the common shapes of a player's choice: yes or no, one of
//! several or none, several ([`repeats`]), an order ([`misordered`]). A
//! [`Choice`] says whose choice it is, its key, the rules' default, the
//! rule and the play field; it is settled by [`Cx::choose_with`], so the
//! question and its answers are built only when the player is asked.

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
    /// The rules give no default: in a match its owner is asked whenever it
    /// is unstated, on their own play too ([`Cx::choose_owners`]).
    pub owners: bool,
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
            owners: false,
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

    /// The same choice, which the quoted text gives no default: in a match
    /// its owner is asked whenever the play leaves it out (whoever wrote the
    /// play); the default, the engine's reading, is taken (labelled assumed)
    /// only outside a match, and offered as assumed when asked.
    pub fn owners(self) -> Choice<T> {
        Choice {
            assumed: true,
            owners: true,
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
            owners,
        } = self;
        let w = whose.clone();
        let ask = move || {
            let (question, options) = ask();
            w.ask(rule, path, question, options)
        };
        match (owners, assumed) {
            (true, _) => cx.choose_owners(stated, whose, ask),
            (false, true) => cx.choose_assuming(stated, whose, ask),
            (false, false) => cx.choose_with(stated, whose, ask),
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

/// Several picked ("attack with these units"): the positions of the picks
/// that repeat an earlier one. What a repeat means is the game's to say.
pub fn repeats<T: PartialEq>(picked: &[T]) -> Vec<usize> {
    (0..picked.len())
        .filter(|&k| picked[..k].contains(&picked[k]))
        .collect()
}

/// What is wrong with an order a player states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misordered<T> {
    /// The item at this position of the play's list was already ordered.
    Twice(usize, T),
    /// An item the order must hold is not in it.
    Missing(T),
}

/// An order of every item of `all`, stated as `(position in the play's
/// list, item)`: each repeat, in the list's order, then each item left out,
/// in `all`'s order. Empty when the order holds each item once.
pub fn misordered<T: PartialEq + Copy>(stated: &[(usize, T)], all: &[T]) -> Vec<Misordered<T>> {
    let items: Vec<T> = stated.iter().map(|&(_, t)| t).collect();
    let twice = repeats(&items).into_iter().map(|k| {
        let (at, item) = stated[k];
        Misordered::Twice(at, item)
    });
    let missing = all.iter().filter(|a| !items.contains(a));
    twice
        .chain(missing.map(|&a| Misordered::Missing(a)))
        .collect()
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

    #[test]
    fn repeats_and_orders_are_found_where_they_are() {
        assert_eq!(repeats(&["a", "b", "a", "a"]), vec![2, 3]);
        assert!(repeats::<u8>(&[]).is_empty());
        let all = [1, 2, 3];
        assert!(misordered(&[(0, 3), (1, 1), (2, 2)], &all).is_empty());
        // Positions are the play's, even where an entry did not resolve.
        assert_eq!(
            misordered(&[(0, 2), (2, 2)], &all),
            vec![
                Misordered::Twice(2, 2),
                Misordered::Missing(1),
                Misordered::Missing(3)
            ]
        );
    }
}
