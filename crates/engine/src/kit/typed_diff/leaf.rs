//! A typed value against a scalar of the state (`null`, a bool, a number,
//! a string): scalars are compared as `serde_json::to_value` writes them;
//! anything composite falls back (it differs, as a whole).

use serde::Serialize;
use serde::ser::{Impossible, Serializer};
use serde_json::Value;

use super::{Fallback, R};
use crate::ruling::Change;

pub struct Leaf<'a> {
    pub path: &'a mut String,
    pub b: &'a Value,
    pub out: &'a mut Vec<Change>,
}

impl Leaf<'_> {
    /// `a` as `serde_json`'s value serializer writes it.
    fn value(self, a: Result<Value, serde_json::Error>) -> R {
        let a = a.map_err(|_| Fallback::Value)?;
        if a != *self.b {
            self.change(a);
        }
        Ok(())
    }

    fn string(self, a: &str) -> R {
        if self.b.as_str() != Some(a) {
            self.change(Value::String(a.to_owned()));
        }
        Ok(())
    }

    fn change(self, before: Value) {
        self.out.push(Change {
            path: self.path.clone(),
            before,
            after: self.b.clone(),
        });
    }
}

macro_rules! exact {
    ($($f:ident $t:ty),*) => {
        $(fn $f(self, v: $t) -> R {
            self.value(serde_json::value::Serializer.$f(v))
        })*
    };
}

impl Serializer for Leaf<'_> {
    types!(Impossible<(), Fallback>, Impossible<(), Fallback>);
    exact!(serialize_bool bool, serialize_i8 i8, serialize_i16 i16, serialize_i32 i32,
        serialize_i64 i64, serialize_u8 u8, serialize_u16 u16, serialize_u32 u32,
        serialize_u64 u64, serialize_f32 f32, serialize_f64 f64, serialize_char char);
    forward!();
    others!();
    no_tuple!();
    no_seq!();
    no_struct!();

    fn serialize_str(self, v: &str) -> R {
        self.string(v)
    }

    fn serialize_bytes(self, _: &[u8]) -> R {
        Err(Fallback::Value)
    }

    fn serialize_none(self) -> R {
        self.value(Ok(Value::Null))
    }

    fn serialize_unit(self) -> R {
        self.value(Ok(Value::Null))
    }

    fn serialize_unit_struct(self, _: &'static str) -> R {
        self.value(Ok(Value::Null))
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> R {
        self.string(variant)
    }
}
