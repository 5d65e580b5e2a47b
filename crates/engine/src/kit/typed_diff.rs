//! A ruling's changes without serializing the board before the play.
//!
//! [`diff`] walks the typed board (through its `Serialize`) against the
//! state after the play and returns exactly what [`ruling::diff`] returns
//! for `serde_json::to_value(before)` and that state: the same paths, values
//! and order, lists of named things matched by name. Structs, lists and
//! scalars are walked in place; anything else (maps, enum variants with
//! data, tuples, a field the state has and the board does not) is
//! serialized where it sits and diffed as a value, which is the same
//! algorithm on the same values.

use serde::Serialize;
use serde::ser;
use serde_json::Value;

use crate::ruling::{self, Change};

/// The changes from `before` (typed) to `after`: `ruling::diff(&to_value(before), after)`.
pub fn diff<T: Serialize + ?Sized>(before: &T, after: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    diff_at(&mut String::new(), before, after, &mut out);
    out
}

/// Why a walk stopped.
#[derive(Debug)]
pub enum Fallback {
    /// The walk does not cover this value: it is serialized instead.
    Value,
    /// A struct was walked, and the state has fields it did not write
    /// (skipped when empty, say): the value diff lists them after the others.
    Added,
}

impl std::fmt::Display for Fallback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not walked in place")
    }
}

impl std::error::Error for Fallback {}

impl ser::Error for Fallback {
    fn custom<M: std::fmt::Display>(_: M) -> Fallback {
        Fallback::Value
    }
}

type R = Result<(), Fallback>;

static NULL: Value = Value::Null;

/// Appends the changes from `a` to `b` at `path` (left as it was).
fn diff_at<T: Serialize + ?Sized>(path: &mut String, a: &T, b: &Value, out: &mut Vec<Change>) {
    let (mark, len) = (out.len(), path.len());
    let walked = match b {
        Value::Object(m) => a.serialize(Fields { path, b: m, out }),
        Value::Array(ys) => seq(path, a, ys, out),
        _ => a.serialize(Leaf { path, b, out }),
    };
    let added = match (walked, b) {
        (Ok(()), _) => return,
        (Err(Fallback::Added), Value::Object(m)) => object::added(path, a, m, out),
        (Err(_), _) => Err(Fallback::Value),
    };
    if added.is_err() {
        out.truncate(mark);
        path.truncate(len);
        let av = serde_json::to_value(a).unwrap_or(Value::Null);
        ruling::diff_into(path, &av, b, out);
    }
}

/// `a` against a list: by name when both sides are lists of distinct
/// names, else item by item.
fn seq<T: Serialize + ?Sized>(path: &mut String, a: &T, ys: &[Value], out: &mut Vec<Change>) -> R {
    let mut names = Names::default();
    // Items are matched by name only if the state's are named too; by
    // index, the walk fails (and the list is diffed as a value) unless the
    // lengths agree.
    let ny = list::state_names(ys);
    let named = ny.is_some() && {
        a.serialize(Probe { names: &mut names })?;
        names.named()
    };
    let names = ny.as_deref().filter(|_| named).map(|ny| (&names, ny));
    a.serialize(Pass {
        path,
        ys,
        out,
        names,
    })
}

macro_rules! types {
    ($seq:ty, $strukt:ty) => {
        types!($seq, $strukt, Impossible<(), Fallback>);
    };
    ($seq:ty, $strukt:ty, $tuple:ty) => {
        type Ok = ();
        type Error = Fallback;
        type SerializeSeq = $seq;
        type SerializeTuple = $tuple;
        type SerializeTupleStruct = $tuple;
        type SerializeTupleVariant = Impossible<(), Fallback>;
        type SerializeMap = Impossible<(), Fallback>;
        type SerializeStruct = $strukt;
        type SerializeStructVariant = Impossible<(), Fallback>;
    };
}

macro_rules! scalars {
    ($res:expr) => {
        scalars!(@ $res; serialize_bool bool, serialize_i8 i8, serialize_i16 i16,
            serialize_i32 i32, serialize_i64 i64, serialize_u8 u8, serialize_u16 u16,
            serialize_u32 u32, serialize_u64 u64, serialize_f32 f32, serialize_f64 f64,
            serialize_char char, serialize_str &str, serialize_bytes &[u8]);
    };
    (@ $res:expr; $($f:ident $t:ty),*) => {
        $(fn $f(self, _: $t) -> R {
            $res
        })*
    };
}

macro_rules! units {
    ($res:expr) => {
        fn serialize_none(self) -> R {
            $res
        }
        fn serialize_unit(self) -> R {
            $res
        }
        fn serialize_unit_struct(self, _: &'static str) -> R {
            $res
        }
        fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> R {
            $res
        }
    };
}

/// `Some(x)` and newtypes serialize as `x`.
macro_rules! forward {
    () => {
        fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> R {
            v.serialize(self)
        }
        fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, v: &T) -> R {
            v.serialize(self)
        }
    };
}

/// Maps and enum variants with data.
macro_rules! others {
    () => {
        fn serialize_newtype_variant<T: ?Sized + Serialize>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> R {
            Err(Fallback::Value)
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, Fallback> {
            Err(Fallback::Value)
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Fallback> {
            Err(Fallback::Value)
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, Fallback> {
            Err(Fallback::Value)
        }
    };
}

/// Tuples serialize as lists.
macro_rules! tuple_as_seq {
    ($t:ty) => {
        impl SerializeTuple for $t {
            type Ok = ();
            type Error = Fallback;

            fn serialize_element<T: ?Sized + Serialize>(&mut self, v: &T) -> R {
                SerializeSeq::serialize_element(self, v)
            }

            fn end(self) -> R {
                SerializeSeq::end(self)
            }
        }

        impl SerializeTupleStruct for $t {
            type Ok = ();
            type Error = Fallback;

            fn serialize_field<T: ?Sized + Serialize>(&mut self, v: &T) -> R {
                SerializeSeq::serialize_element(self, v)
            }

            fn end(self) -> R {
                SerializeSeq::end(self)
            }
        }
    };
}

macro_rules! no_tuple {
    () => {
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Fallback> {
            Err(Fallback::Value)
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, Fallback> {
            Err(Fallback::Value)
        }
    };
}

macro_rules! no_seq {
    () => {
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Fallback> {
            Err(Fallback::Value)
        }
    };
}

macro_rules! no_struct {
    () => {
        fn serialize_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStruct, Fallback> {
            Err(Fallback::Value)
        }
    };
}

mod leaf;
mod list;
mod object;

use leaf::Leaf;
use list::{Names, Pass, Probe};
use object::Fields;

#[cfg(test)]
pub(crate) mod tests;
