//! Bounded values for boards and plays: a limit is stated once, on the
//! type. Reading a document checks it (the error names the field's path and
//! line:column, like any other reading error) and the JSON Schema states it
//! (`minimum`/`maximum`, `maxLength`, `minItems`/`maxItems`).
//!
//! The bounds are on what a document says. The engine may compute past them
//! (damage added to damage): [`Count`] and [`List`] dereference mutably to
//! their value, so a procedure changes them like the plain value.

use std::borrow::Cow;
use std::fmt;
use std::ops::{Deref, DerefMut};

use arbiter_text::is_direction_control;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{Error as _, Unexpected};
use serde::{Deserialize, Deserializer, Serialize};

use crate::document::{Refused, refuse};

/// A whole number from `MIN` to `MAX` (as read).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Count<const MIN: u32, const MAX: u32>(pub u32);

/// A round or turn number: from 1, which is also what a document that
/// leaves it out means.
pub type Round = Count<1, { u32::MAX }>;

/// The least value: a field left out (`#[serde(default)]`) starts there.
impl<const MIN: u32, const MAX: u32> Default for Count<MIN, MAX> {
    fn default() -> Self {
        Count(MIN)
    }
}

impl<const MIN: u32, const MAX: u32> Count<MIN, MAX> {
    /// `v`, or why it is outside the bounds.
    pub fn new(v: u32) -> Result<Self, String> {
        if v > MAX {
            Err(format!("{v} is not a plausible value; the limit is {MAX}"))
        } else if v < MIN {
            Err(format!("{v} is too small; the least is {MIN}"))
        } else {
            Ok(Count(v))
        }
    }

    pub const fn get(self) -> u32 {
        self.0
    }
}

impl<const MIN: u32, const MAX: u32> Deref for Count<MIN, MAX> {
    type Target = u32;
    fn deref(&self) -> &u32 {
        &self.0
    }
}

impl<const MIN: u32, const MAX: u32> DerefMut for Count<MIN, MAX> {
    fn deref_mut(&mut self) -> &mut u32 {
        &mut self.0
    }
}

impl<const MIN: u32, const MAX: u32> fmt::Display for Count<MIN, MAX> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<'de, const MIN: u32, const MAX: u32> Deserialize<'de> for Count<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_u64(CountVisitor::<MIN, MAX>)
    }
}

/// Reads a [`Count`] from any number, so every refusal names the field's
/// own bounds (`expecting` is "a whole number from 0 to 999"): read as a
/// `u32` first, a negative or a number past `u32` said "from 0 to
/// 4294967295", which no board may hold.
struct CountVisitor<const MIN: u32, const MAX: u32>;

impl<const MIN: u32, const MAX: u32> serde::de::Visitor<'_> for CountVisitor<MIN, MAX> {
    type Value = Count<MIN, MAX>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a whole number from {MIN} to {MAX}")
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
        match u32::try_from(v) {
            Ok(n) => Count::new(n).map_err(|why| E::custom(refuse(Refused::Number(n), why))),
            Err(_) => Err(E::invalid_value(Unexpected::Unsigned(v), &self)),
        }
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
        match u64::try_from(v) {
            Ok(n) => self.visit_u64(n),
            Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &self)),
        }
    }
}

impl<const MIN: u32, const MAX: u32> JsonSchema for Count<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        format!("Count_{MIN}_{MAX}").into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "integer", "format": "uint32", "minimum": MIN, "maximum": MAX})
    }
}

/// Unicode's line and paragraph separators: a line break no control test
/// sees.
fn is_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// A name: at least one letter or digit, no control or text-direction
/// character, at most `MAX` characters. With `LINES` ([`Prose`]), a text
/// that may break lines (a card's text as the board quotes it).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
#[serde(transparent)]
pub struct Name<const MAX: usize, const LINES: bool = false>(pub String);

/// A text of up to `MAX` characters that may hold line breaks and tabs,
/// but no other control or text-direction character.
pub type Prose<const MAX: usize> = Name<MAX, true>;

impl<const MAX: usize, const LINES: bool> Name<MAX, LINES> {
    /// `s`, or why it is no name.
    pub fn new(s: impl Into<String>) -> Result<Self, String> {
        let s = s.into();
        if !s.chars().any(char::is_alphanumeric) {
            Err("a name needs a letter or a digit".into())
        } else if s.chars().any(|c| {
            is_direction_control(c)
                || (c.is_control() || is_separator(c))
                    && !(LINES && matches!(c, '\n' | '\r' | '\t'))
        }) {
            // "Coal\u{202e}" displays as another text than it reads in
            // every prompt and result naming the seat.
            Err("a name may not hold control or text-direction characters; write it plainly".into())
        } else if s.chars().count() > MAX {
            Err(format!(
                "this name is too long; the limit is {MAX} characters"
            ))
        } else {
            Ok(Name(s))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<const MAX: usize, const LINES: bool> Deref for Name<MAX, LINES> {
    type Target = String;
    fn deref(&self) -> &String {
        &self.0
    }
}

impl<const MAX: usize, const LINES: bool> fmt::Display for Name<MAX, LINES> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<const MAX: usize, const LINES: bool> PartialEq<str> for Name<MAX, LINES> {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl<const MAX: usize, const LINES: bool> PartialEq<&str> for Name<MAX, LINES> {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl<'de, const MAX: usize, const LINES: bool> Deserialize<'de> for Name<MAX, LINES> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Name::new(s.clone()).map_err(|why| D::Error::custom(refuse(Refused::Text(s), why)))
    }
}

impl<const MAX: usize, const LINES: bool> JsonSchema for Name<MAX, LINES> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        match LINES {
            true => format!("Prose_{MAX}").into(),
            false => format!("Name_{MAX}").into(),
        }
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "minLength": 1, "maxLength": MAX})
    }
}

/// A list of `MIN` to `MAX` entries (as read).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct List<T, const MIN: usize, const MAX: usize>(pub Vec<T>);

impl<T, const MIN: usize, const MAX: usize> List<T, MIN, MAX> {
    /// `v`, or why it has too few or too many entries.
    pub fn new(v: Vec<T>) -> Result<Self, String> {
        if v.len() > MAX {
            Err(format!(
                "{} entries is too many; the limit is {MAX}",
                v.len()
            ))
        } else if v.len() < MIN {
            Err(format!("at least {MIN} needed; {} given", v.len()))
        } else {
            Ok(List(v))
        }
    }
}

impl<T, const MIN: usize, const MAX: usize> Default for List<T, MIN, MAX> {
    fn default() -> Self {
        List(Vec::new())
    }
}

impl<T, const MIN: usize, const MAX: usize> Deref for List<T, MIN, MAX> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T, const MIN: usize, const MAX: usize> DerefMut for List<T, MIN, MAX> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<'a, T, const MIN: usize, const MAX: usize> IntoIterator for &'a List<T, MIN, MAX> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'de, T: Deserialize<'de>, const MIN: usize, const MAX: usize> Deserialize<'de>
    for List<T, MIN, MAX>
{
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<T>::deserialize(d)?;
        let n = v.len();
        List::new(v).map_err(|why| D::Error::custom(refuse(Refused::Entries(n), why)))
    }
}

impl<T: JsonSchema, const MIN: usize, const MAX: usize> JsonSchema for List<T, MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        format!("List_{}_{MIN}_{MAX}", T::schema_name()).into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let items = generator.subschema_for::<T>();
        json_schema!({"type": "array", "items": items, "minItems": MIN, "maxItems": MAX})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize, JsonSchema)]
    struct Doc {
        life: Count<1, 999>,
        name: Name<10>,
        units: List<Count<0, 5>, 1, 2>,
    }

    fn read(v: serde_json::Value) -> Result<Doc, String> {
        crate::document::typed::<Doc>(&v, "", None)
            .map_err(|e| format!("{}: {}", e.path.unwrap_or_default(), e.message))
    }

    #[test]
    fn bounds_are_checked_where_read_with_the_path() {
        let ok = serde_json::json!({"life": 3, "name": "Aradel", "units": [0, 5]});
        let d = read(ok).unwrap();
        assert_eq!((*d.life, d.name.as_str(), d.units.len()), (3, "Aradel", 2));
        let high = serde_json::json!({"life": 1000, "name": "a", "units": [1]});
        assert_eq!(
            read(high).unwrap_err(),
            "life: 1000 is not a plausible value; the limit is 999"
        );
        let low = serde_json::json!({"life": 0, "name": "a", "units": [1]});
        assert_eq!(
            read(low).unwrap_err(),
            "life: 0 is too small; the least is 1"
        );
        let long = serde_json::json!({"life": 1, "name": "abcdefghijk", "units": [1]});
        assert!(
            read(long)
                .unwrap_err()
                .starts_with("name: this name is too long")
        );
        let blank = serde_json::json!({"life": 1, "name": " - ", "units": [1]});
        assert_eq!(
            read(blank).unwrap_err(),
            "name: a name needs a letter or a digit"
        );
        // A seat named "Coal" with a direction override reads as another
        // name in every prompt (an outside tester's); a control character too.
        for hidden in ["Coal\u{202e}", "Co\u{2066}al", "Coal\n#2", "Coal\u{2028}#2"] {
            let v = serde_json::json!({"life": 1, "name": hidden, "units": [1]});
            assert_eq!(
                read(v).unwrap_err(),
                "name: a name may not hold control or text-direction characters; write it plainly",
                "{hidden:?}"
            );
        }
        let many = serde_json::json!({"life": 1, "name": "a", "units": [1, 2, 3]});
        assert_eq!(
            read(many).unwrap_err(),
            "units: 3 entries is too many; the limit is 2"
        );
        let none = serde_json::json!({"life": 1, "name": "a", "units": []});
        assert_eq!(read(none).unwrap_err(), "units: at least 1 needed; 0 given");
        // A number of any kind names the field's own bounds, not a u32's
        // (it said "from 0 to 4294967295" for a field whose limit is 999).
        for wrong in [
            serde_json::json!(-3),
            serde_json::json!(99_999_999_999_u64),
            serde_json::json!("fifteen"),
            serde_json::json!(1e20),
        ] {
            let v = serde_json::json!({"life": wrong, "name": "a", "units": [1]});
            let e = read(v).unwrap_err();
            assert!(e.contains("a whole number from 1 to 999"), "{e}");
            assert!(!e.contains("4294967295"), "{e}");
        }
        let inner = serde_json::json!({"life": 1, "name": "a", "units": [6]});
        assert_eq!(
            read(inner).unwrap_err(),
            "units[0]: 6 is not a plausible value; the limit is 5"
        );
    }

    #[derive(Debug, Deserialize)]
    #[serde(tag = "action", rename_all = "kebab-case")]
    #[allow(dead_code)]
    enum Play {
        Attack {
            with: List<Name<5>, 0, 3>,
            target: Name<5>,
            power: Option<Count<0, 9>>,
        },
    }

    /// Inside an internally tagged enum serde gives no path below the
    /// variant; the reader finds the refused value there.
    #[test]
    fn a_refused_field_of_a_tagged_variant_is_named() {
        let path = |v: serde_json::Value| {
            crate::document::typed::<Play>(&v, "play", None)
                .unwrap_err()
                .path
                .unwrap_or_default()
        };
        let long =
            serde_json::json!({"action": "attack", "with": ["ab", "abcdefg"], "target": "x"});
        assert_eq!(path(long), "play.with[1]");
        let target = serde_json::json!({"action": "attack", "with": [], "target": "abcdefg"});
        assert_eq!(path(target), "play.target");
        let power = serde_json::json!({"action": "attack", "with": [], "target": "x", "power": 12});
        assert_eq!(path(power), "play.power");
        let many =
            serde_json::json!({"action": "attack", "with": ["a", "b", "c", "d"], "target": "x"});
        assert_eq!(path(many), "play.with");
        // Not a bounded value's refusal: the path serde gives.
        let unknown =
            serde_json::json!({"action": "attack", "with": [], "target": "x", "power": "high"});
        assert_eq!(path(unknown), "play");
    }

    #[test]
    fn the_schema_states_the_bounds() {
        let s = serde_json::to_value(schemars::schema_for!(Doc)).unwrap();
        let p = &s["properties"];
        assert_eq!(
            (p["life"]["minimum"].as_u64(), p["life"]["maximum"].as_u64()),
            (Some(1), Some(999))
        );
        assert_eq!(p["name"]["maxLength"].as_u64(), Some(10));
        assert_eq!(
            (
                p["units"]["minItems"].as_u64(),
                p["units"]["maxItems"].as_u64()
            ),
            (Some(1), Some(2))
        );
        assert_eq!(p["units"]["items"]["maximum"].as_u64(), Some(5));
    }
}
