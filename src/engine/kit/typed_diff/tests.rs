//! The typed diff against the value diff it replaces: on every example
//! board of every game (the state the engine judged, and many edits of the
//! board), and on shapes the boards do not use yet.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Value, json};

use super::diff;
use crate::engine::kit::{Asking, Game, Kit};
use crate::engine::{ashes, document, grand_archive, legion, magewinds, ruling, ti4};

/// `diff(a, b)` is `ruling::diff(to_value(a), b)`, for `b` and every edit of `a`.
fn agrees<T: Serialize>(a: &T, b: &Value) -> usize {
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

/// Every example board of `G`: the ruling's changes are the value diff of
/// the board before and the state, and the typed diff agrees on edits.
fn examples<G: Game>(dir: &str) -> usize {
    let path = format!("{}/examples/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&path)
        .expect("examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        let doc = document::parse_value(&text).expect("parses");
        let ruling = Kit::<G>::new()
            .judge_value(doc.clone(), Some(&text), &Asking::judge())
            .expect("judged");
        let (board_doc, _) = Kit::<G>::split(doc).expect("split");
        let board = Kit::<G>::board(&board_doc, None).expect("valid");
        let before = serde_json::to_value(&board).expect("serializable");
        let want = ruling::diff(&before, &ruling.state);
        assert_eq!(ruling.changes, want, "{}", f.display());
        checked += agrees(&board, &ruling.state);
    }
    assert!(files.len() >= 5, "{path}: {} boards", files.len());
    checked
}

#[test]
fn every_example_board_diffs_as_its_value() {
    let n = examples::<ashes::Ashes>("ashes")
        + examples::<ti4::Ti4>("ti4")
        + examples::<magewinds::Magewinds>("magewinds")
        + examples::<legion::Legion>("legion")
        + examples::<grand_archive::GrandArchive>("grand-archive");
    assert!(n > 10_000, "{n} states compared");
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
