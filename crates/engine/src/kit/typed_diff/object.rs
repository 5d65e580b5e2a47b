//! A typed struct against an object of the state, field by field. The
//! value diff visits keys in sorted order (serde_json maps are sorted), so
//! the changes of fields declared out of order are put back in key order.

use serde::Serialize;
use serde::ser::{Impossible, SerializeStruct, Serializer};
use serde_json::{Map, Value};

use super::{Fallback, NULL, R, diff_at};
use crate::ruling::{self, Change, within_key};

pub struct Fields<'a> {
    pub path: &'a mut String,
    pub b: &'a Map<String, Value>,
    pub out: &'a mut Vec<Change>,
}

impl<'a> Serializer for Fields<'a> {
    types!(Impossible<(), Fallback>, Walk<'a>);
    scalars!(Err(Fallback::Value));
    units!(Err(Fallback::Value));
    forward!();
    others!();
    no_tuple!();
    no_seq!();

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Walk<'a>, Fallback> {
        let base = self.out.len();
        Ok(Walk {
            path: self.path,
            b: self.b,
            out: self.out,
            base,
            matched: 0,
            last: None,
            sorted: true,
            segments: Vec::new(),
        })
    }
}

/// One struct being walked.
pub struct Walk<'a> {
    path: &'a mut String,
    b: &'a Map<String, Value>,
    out: &'a mut Vec<Change>,
    /// Where this struct's changes start in `out`.
    base: usize,
    /// Fields the state has too.
    matched: usize,
    last: Option<&'static str>,
    /// The fields came in key order so far.
    sorted: bool,
    /// Fields with changes: key and range in `out`.
    segments: Vec<(&'static str, usize, usize)>,
}

impl SerializeStruct for Walk<'_> {
    type Ok = ();
    type Error = Fallback;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> R {
        let vb = match self.b.get(key) {
            Some(v) => {
                self.matched += 1;
                v
            }
            None => &NULL,
        };
        match self.last {
            Some(last) if last == key => return Err(Fallback::Value),
            Some(last) if last > key => self.sorted = false,
            _ => {}
        }
        self.last = Some(key);
        let start = self.out.len();
        let out = &mut *self.out;
        within_key(self.path, key, |p| diff_at(p, value, vb, out));
        if self.out.len() > start {
            self.segments.push((key, start, self.out.len()));
        }
        Ok(())
    }

    fn end(mut self) -> R {
        if !self.sorted && self.segments.len() > 1 {
            self.reorder();
        }
        match self.matched == self.b.len() {
            true => Ok(()),
            false => Err(Fallback::Added),
        }
    }
}

/// After a walk of `a` against `b` ended in [`Fallback::Added`]: the fields
/// of `b` that `a` does not write, as additions.
pub fn added<T: Serialize + ?Sized>(
    path: &mut String,
    a: &T,
    b: &Map<String, Value>,
    out: &mut Vec<Change>,
) -> R {
    let mut keys = Vec::new();
    a.serialize(Keys { keys: &mut keys })?;
    for (k, vb) in b.iter().filter(|(k, _)| !keys.contains(&k.as_str())) {
        within_key(path, k, |p| ruling::diff_into(p, &NULL, vb, out));
    }
    Ok(())
}

/// The fields a struct writes.
struct Keys<'a> {
    keys: &'a mut Vec<&'static str>,
}

impl<'a> Serializer for Keys<'a> {
    types!(Impossible<(), Fallback>, Keys<'a>);
    scalars!(Err(Fallback::Value));
    units!(Err(Fallback::Value));
    forward!();
    others!();
    no_tuple!();
    no_seq!();

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Keys<'a>, Fallback> {
        Ok(self)
    }
}

impl SerializeStruct for Keys<'_> {
    type Ok = ();
    type Error = Fallback;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, _: &T) -> R {
        self.keys.push(key);
        Ok(())
    }

    fn end(self) -> R {
        Ok(())
    }
}

impl Walk<'_> {
    /// Puts the fields' changes in key order.
    fn reorder(&mut self) {
        let mut tail: Vec<Option<Change>> = self.out.drain(self.base..).map(Some).collect();
        self.segments.sort_by_key(|s| s.0);
        for &(_, start, end) in &self.segments {
            for c in &mut tail[start - self.base..end - self.base] {
                if let Some(c) = c.take() {
                    self.out.push(c);
                }
            }
        }
    }
}
