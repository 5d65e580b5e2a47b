//! A typed list against a list of the state. A first pass ([`Probe`])
//! reads each item's `name` (skipping every other field) so the list is
//! matched as the value diff matches it: by name when both sides are lists
//! of distinct names, else item by item; a second pass ([`Pass`]) walks
//! the items.

use serde::Serialize;
use serde::ser::{
    Impossible, SerializeSeq, SerializeStruct, SerializeTuple, SerializeTupleStruct, Serializer,
};
use serde_json::Value;

use super::{Fallback, R, diff_at};
use crate::ruling::{Change, distinct_names, name_of, push_name, within};

/// Each item's name (`""`: none), in order, in one buffer.
#[derive(Default)]
pub struct Names {
    text: String,
    ends: Vec<usize>,
}

impl Names {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    fn iter(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// As `ruling::distinct_names`, read from the buffer without collecting.
    pub fn named(&self) -> bool {
        (0..self.len()).all(|i| {
            let n = self.get(i);
            !n.is_empty() && !(0..i).any(|j| self.get(j) == n)
        })
    }
}

/// The names of the state's items, read once, when they are all distinct
/// names (`ruling::distinct_names`; an empty list counts); `None` otherwise.
pub fn state_names(ys: &[Value]) -> Option<Vec<&str>> {
    if !matches!(ys.first(), Some(Value::Object(_)) | None) {
        return None;
    }
    let ny: Vec<&str> = ys.iter().map(name_of).collect();
    distinct_names(&ny).then_some(ny)
}

/// Reads the names of a list's items; fails on anything but a list.
pub struct Probe<'a> {
    pub names: &'a mut Names,
}

impl<'a> Serializer for Probe<'a> {
    types!(Probe<'a>, Impossible<(), Fallback>, Probe<'a>);
    scalars!(Err(Fallback::Value));
    units!(Err(Fallback::Value));
    forward!();
    others!();
    no_struct!();

    fn serialize_seq(self, _: Option<usize>) -> Result<Probe<'a>, Fallback> {
        Ok(self)
    }

    fn serialize_tuple(self, _: usize) -> Result<Probe<'a>, Fallback> {
        Ok(self)
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Probe<'a>, Fallback> {
        Ok(self)
    }
}

tuple_as_seq!(Probe<'_>);

impl SerializeSeq for Probe<'_> {
    type Ok = ();
    type Error = Fallback;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> R {
        value.serialize(NameOf {
            text: &mut self.names.text,
        })?;
        self.names.ends.push(self.names.text.len());
        Ok(())
    }

    fn end(self) -> R {
        Ok(())
    }
}

/// An item's name, appended to `text`: a struct's `name` field when it is
/// a string; nothing for a scalar. Fails on shapes it does not read.
struct NameOf<'a> {
    text: &'a mut String,
}

impl<'a> Serializer for NameOf<'a> {
    types!(Skip, NameOf<'a>, Skip);
    scalars!(Ok(()));
    units!(Ok(()));
    forward!();
    others!();

    fn serialize_seq(self, _: Option<usize>) -> Result<Skip, Fallback> {
        Ok(Skip)
    }

    fn serialize_tuple(self, _: usize) -> Result<Skip, Fallback> {
        Ok(Skip)
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Skip, Fallback> {
        Ok(Skip)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<NameOf<'a>, Fallback> {
        Ok(self)
    }
}

impl SerializeStruct for NameOf<'_> {
    type Ok = ();
    type Error = Fallback;

    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> R {
        if key == "name" {
            let start = self.text.len();
            if value.serialize(NameStr { text: self.text }).is_err() {
                self.text.truncate(start);
            }
        }
        Ok(())
    }

    fn end(self) -> R {
        Ok(())
    }
}

/// A list item that is itself a list: it has no name.
struct Skip;

impl SerializeSeq for Skip {
    type Ok = ();
    type Error = Fallback;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, _: &T) -> R {
        Ok(())
    }

    fn end(self) -> R {
        Ok(())
    }
}

tuple_as_seq!(Skip);

/// A `name` field's value when it serializes as a string.
struct NameStr<'a> {
    text: &'a mut String,
}

impl Serializer for NameStr<'_> {
    types!(Impossible<(), Fallback>, Impossible<(), Fallback>);
    scalars!(@ Err(Fallback::Value); serialize_bool bool, serialize_i8 i8, serialize_i16 i16,
        serialize_i32 i32, serialize_i64 i64, serialize_u8 u8, serialize_u16 u16,
        serialize_u32 u32, serialize_u64 u64, serialize_f32 f32, serialize_f64 f64,
        serialize_bytes &[u8]);
    forward!();
    others!();
    no_tuple!();
    no_seq!();
    no_struct!();

    fn serialize_str(self, v: &str) -> R {
        self.text.push_str(v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> R {
        self.text.push(v);
        Ok(())
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> R {
        self.serialize_str(variant)
    }

    fn serialize_none(self) -> R {
        Err(Fallback::Value)
    }

    fn serialize_unit(self) -> R {
        Err(Fallback::Value)
    }

    fn serialize_unit_struct(self, _: &'static str) -> R {
        Err(Fallback::Value)
    }
}

/// Walks a list's items against the state's: by name (`names` set: the
/// board's and the state's) or by index.
pub struct Pass<'a> {
    pub path: &'a mut String,
    pub ys: &'a [Value],
    pub out: &'a mut Vec<Change>,
    pub names: Option<(&'a Names, &'a [&'a str])>,
}

impl<'a> Serializer for Pass<'a> {
    types!(PassSeq<'a>, Impossible<(), Fallback>, PassSeq<'a>);
    scalars!(Err(Fallback::Value));
    units!(Err(Fallback::Value));
    forward!();
    others!();
    no_struct!();

    fn serialize_seq(self, _: Option<usize>) -> Result<PassSeq<'a>, Fallback> {
        Ok(PassSeq { pass: self, i: 0 })
    }

    fn serialize_tuple(self, _: usize) -> Result<PassSeq<'a>, Fallback> {
        Ok(PassSeq { pass: self, i: 0 })
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<PassSeq<'a>, Fallback> {
        Ok(PassSeq { pass: self, i: 0 })
    }
}

tuple_as_seq!(PassSeq<'_>);

pub struct PassSeq<'a> {
    pass: Pass<'a>,
    i: usize,
}

impl SerializeSeq for PassSeq<'_> {
    type Ok = ();
    type Error = Fallback;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> R {
        let (i, p) = (self.i, &mut self.pass);
        self.i += 1;
        match p.names {
            Some((names, ny)) if i < names.len() => by_name(p, names.get(i), ny, value),
            None if i < p.ys.len() => {
                let (vb, out) = (&p.ys[i], &mut *p.out);
                within(p.path, format_args!("[{i}]"), |p| {
                    diff_at(p, value, vb, out)
                });
                Ok(())
            }
            _ => Err(Fallback::Value),
        }
    }

    fn end(self) -> R {
        let p = self.pass;
        let Some((names, ny)) = p.names else {
            return match self.i == p.ys.len() {
                true => Ok(()),
                false => Err(Fallback::Value),
            };
        };
        if self.i != names.len() {
            return Err(Fallback::Value);
        }
        for (vb, &name) in p.ys.iter().zip(ny) {
            if !names.iter().any(|n| n == name) {
                let mut path = p.path.clone();
                push_name(&mut path, name);
                p.out.push(Change {
                    path,
                    before: Value::Null,
                    after: vb.clone(),
                });
            }
        }
        Ok(())
    }
}

/// One named item: walked against the state's item of that name, or removed.
fn by_name<T: ?Sized + Serialize>(p: &mut Pass, name: &str, ny: &[&str], value: &T) -> R {
    let len = p.path.len();
    push_name(p.path, name);
    match ny.iter().position(|n| *n == name) {
        Some(j) => diff_at(p.path, value, &p.ys[j], p.out),
        None => p.out.push(Change {
            path: p.path.clone(),
            before: serde_json::to_value(value).map_err(|_| Fallback::Value)?,
            after: Value::Null,
        }),
    }
    p.path.truncate(len);
    Ok(())
}
