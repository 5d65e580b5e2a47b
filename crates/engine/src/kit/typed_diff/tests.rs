//! The typed diff against the value diff it replaces, on shapes the boards
//! do not use yet; the helpers also serve `engine::typed_diff_examples`
//! (every example board of every game).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use super::diff;
use crate::ruling;

/// `diff(a, b)` is `ruling::diff(to_value(a), b)`, for `b` and every edit of `a`.
pub fn agrees<T: Serialize>(a: &T, b: &Value) -> usize {
    let av = serde_json::to_value(a).expect("serializable");
    let mut checked = 0;
    for b in std::iter::once(b.clone()).chain(edits(&av)) {
        assert_eq!(diff(a, &b), ruling::diff(&av, &b), "against {b}");
        checked += 1;
    }
    checked
}

/// Edits of `v` at every node: replaced, fields added and removed, lists
/// shortened, grown, reordered, an item renamed.
fn edits(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut at = |f: &dyn Fn(&mut Value)| {
        for p in pointers(v, String::new()) {
            let mut e = v.clone();
            if let Some(n) = e.pointer_mut(&p) {
                f(n);
                out.push(e);
            }
        }
    };
    at(&|n| *n = Value::Null);
    at(&|n| *n = json!(7));
    at(&|n| *n = json!("x"));
    at(&|n| match n {
        Value::Object(m) => {
            m.insert("zz".into(), json!(1));
            m.insert("aa".into(), json!([1]));
            let first = m.keys().nth(2).cloned().unwrap_or_default();
            m.remove(&first);
        }
        Value::Array(l) => {
            if let Some(first) = l.first().cloned() {
                l.push(first);
            }
            l.reverse();
        }
        _ => {}
    });
    at(&|n| match n {
        Value::Array(l) => {
            l.pop();
            if let Some(Value::Object(m)) = l.first_mut() {
                m.insert("name".into(), json!("Renamed"));
            }
        }
        Value::Object(m) => {
            m.clear();
        }
        _ => {}
    });
    out
}

/// JSON pointers of every node of `v`.
fn pointers(v: &Value, here: String) -> Vec<String> {
    let mut out = vec![here.clone()];
    let esc = |k: &str| k.replace('~', "~0").replace('/', "~1");
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.extend(pointers(x, format!("{here}/{}", esc(k))));
            }
        }
        Value::Array(l) => {
            for (i, x) in l.iter().enumerate() {
                out.extend(pointers(x, format!("{here}/{i}")));
            }
        }
        _ => {}
    }
    out
}

#[derive(Serialize)]
enum Kind {
    Plain,
    Wrapped(u8),
    Shaped { x: i32 },
}

#[derive(Serialize)]
struct Unit {
    name: String,
    life: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    kind: Kind,
}

#[derive(Serialize)]
struct Id(String);

#[derive(Serialize)]
struct Tagged {
    name: Id,
    at: [f64; 2],
}

/// Fields out of key order, skipped fields, enums, maps, tuples, named
/// lists with odd names.
#[derive(Serialize)]
struct Odd {
    zeta: Vec<Unit>,
    alpha: Option<u32>,
    mid: BTreeMap<String, u32>,
    pair: (u8, String),
    tags: Vec<Tagged>,
    unnamed: Vec<Value>,
    letters: Vec<char>,
    big: u128,
    ratio: f64,
    kinds: Vec<Kind>,
}

#[test]
fn shapes_the_boards_do_not_use_diff_as_their_value() {
    let unit = |name: &str, kind| Unit {
        name: name.into(),
        life: 3,
        note: None,
        kind,
    };
    let odd = Odd {
        zeta: vec![
            unit("B", Kind::Plain),
            unit("A", Kind::Wrapped(2)),
            unit("Ç \"q\"", Kind::Shaped { x: -1 }),
        ],
        alpha: None,
        mid: BTreeMap::from([("k".into(), 1), ("j".into(), 2)]),
        pair: (1, "p".into()),
        tags: vec![
            Tagged {
                name: Id("t".into()),
                at: [0.5, 1.0],
            },
            Tagged {
                name: Id("t".into()),
                at: [2.0, f64::NAN],
            },
        ],
        unnamed: vec![json!({"name": ""}), json!({"name": 3}), json!([1])],
        letters: vec!['a', 'é'],
        big: 5,
        ratio: f64::INFINITY,
        kinds: vec![Kind::Plain, Kind::Wrapped(1)],
    };
    let mut after = serde_json::to_value(&odd).expect("serializable");
    after["zeta"][0]["note"] = json!("new");
    after["alpha"] = json!(4);
    let n = agrees(&odd, &after);
    assert!(n > 100, "{n}");
}
