//! The module structure of `src/` and the core crates (docs/ARCHITECTURE.md, "Structure"):
//! no import cycles between sibling modules at any level, and the layers
//! point one way (the I/O-free core never reaches up into `app`, `store`,
//! `bot` or `render`; `app` names no game's module, nor does `render`
//! outside `render::pictures`, which draws each game's typed board).
//!
//! The scan reads the sources as text: `use` trees are expanded and every
//! `crate::…`, `super::…`, `self::…` path (and a path through a child module
//! a file declares) is resolved to the module it names. Comments and string
//! literals are removed first, so doc links do not count.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Module = Vec<String>;

/// Every source file's module path (as `arbiter` names it, through its
/// re-exports) and its cleaned text: `src/` (the binary), and each crate
/// of the workspace under the path `src/lib.rs` re-exports it by
/// (`crates/app`'s modules are `app`, `render`, `load`, …; `crates/bot` is
/// `bot`; `crates/rules`'s modules are `corpus`, `search` and `cards`).
fn sources() -> BTreeMap<Module, String> {
    let mut out = BTreeMap::new();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (dir, prefix) in SCANNED {
        let root = repo.join(dir);
        let lib = std::fs::read_to_string(root.join("lib.rs")).unwrap_or_default();
        let scan = Scan {
            prefix,
            reexported: &reexports(&clean(&lib)),
        };
        walk(&root, &root, &scan, &mut out);
    }
    out
}

/// How a crate's files are named: below `prefix`, except its `crate::x`
/// paths through what its root re-exports from other crates.
struct Scan<'a> {
    prefix: &'a [&'a str],
    reexported: &'a [String],
}

/// The names a crate root re-exports from our other crates (`pub(crate) use
/// arbiter_text as text;`, `pub(crate) use arbiter_rules::{cards, corpus};`).
fn reexports(lib: &str) -> Vec<String> {
    let mut out = Vec::new();
    for stmt in lib.split(';').map(str::trim) {
        let Some(path) = stmt.strip_prefix("pub(crate) use arbiter_") else {
            continue;
        };
        if let Some((_, name)) = path.split_once(" as ") {
            out.push(name.trim().to_string());
        } else if let Some((_, list)) = path.split_once("::{") {
            let list = list.trim_end_matches('}');
            out.extend(
                list.split(',')
                    .map(|n| n.trim().to_string())
                    .filter(|n| !n.is_empty()),
            );
        } else if let Some((_, name)) = path.rsplit_once("::") {
            out.push(name.trim().to_string());
        }
    }
    out
}

/// The source folders scanned, and the path `arbiter` names each by.
/// `crates/minilm` is not: it names nothing of ours (its manifest is
/// checked in `the_crate_graph_points_down_and_the_core_does_no_io`).
const SCANNED: &[(&str, &[&str])] = &[
    ("src", &[]),
    ("crates/app/src", &[]),
    ("crates/rules/src", &[]),
    ("crates/text/src", &["text"]),
    ("crates/metrics/src", &["metrics"]),
    ("crates/store/src", &["store"]),
    ("crates/engine/src", &["engine"]),
    ("crates/bot/src", &["bot"]),
];

/// A new crate is scanned and placed in the graph, or this fails.
#[test]
fn every_crate_is_scanned() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs: Vec<String> = std::fs::read_dir(repo.join("crates"))
        .expect("crates/")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    dirs.sort();
    let mut known: Vec<String> = SCANNED
        .iter()
        .filter_map(|(d, _)| d.strip_prefix("crates/")?.strip_suffix("/src"))
        .map(String::from)
        .chain(["minilm".to_string()])
        .collect();
    known.sort();
    assert_eq!(
        dirs, known,
        "crates/ against SCANNED in tests/it/structure.rs"
    );
}

/// Adds the files under `dir` as modules below `prefix`; a crate's root
/// file (`lib.rs`) is `prefix` itself, and the crate's own `crate::` paths
/// are rewritten to start at `prefix`.
fn walk(root: &Path, dir: &Path, scan: &Scan, out: &mut BTreeMap<Module, String>) {
    let prefix = scan.prefix;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(root, &path, scan, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap().with_extension("");
            let mut m: Module = prefix.iter().map(|s| s.to_string()).collect();
            m.extend(rel.iter().map(|s| s.to_string_lossy().into_owned()));
            if matches!(m.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                m.pop();
            }
            if rel == Path::new("main") {
                m = vec!["main".into()];
            }
            let mut text = clean(&std::fs::read_to_string(&path).unwrap());
            if !prefix.is_empty() {
                text = below(&text, &prefix.join("::"), scan.reexported);
            }
            // A crate root of re-exports (`crates/app/src/lib.rs`) is not
            // `src/lib.rs`, which comes first.
            out.entry(m).or_insert(text);
        }
    }
}

/// Names the crate's own `crate::x` paths `crate::<prefix>::x`, except
/// those through what its root re-exports from other crates (`crate::store`
/// in `arbiter-bot` is `arbiter::store`, not `arbiter::bot::store`; its own
/// `crate::text` is `bot::text`).
fn below(text: &str, prefix: &str, reexported: &[String]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("crate::") {
        let (head, tail) = rest.split_at(at + "crate::".len());
        out.push_str(head);
        let first: String = tail
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !reexported.contains(&first) {
            out.push_str(prefix);
            out.push_str("::");
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// The text without comments, string and char literals.
fn clean(src: &str) -> String {
    let b = src.as_bytes();
    let (mut out, mut i) = (String::with_capacity(src.len()), 0);
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = src[i..].find("*/").map_or(b.len(), |k| i + k + 2);
            }
            b'r' if raw_string_at(b, i).is_some() => {
                let hashes = raw_string_at(b, i).unwrap();
                let end = format!("\"{}", "#".repeat(hashes));
                let start = i + 2 + hashes;
                i = src[start..]
                    .find(&end)
                    .map_or(b.len(), |k| start + k + end.len());
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            b'\'' if char_literal_len(&src[i..]).is_some() => {
                i += char_literal_len(&src[i..]).unwrap();
                out.push_str("' '");
            }
            _ => {
                let c = src[i..].chars().next().unwrap();
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

/// `r"…"` or `r#"…"#` starting at `i` (not inside an identifier): its hashes.
fn raw_string_at(b: &[u8], i: usize) -> Option<usize> {
    if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_') {
        return None;
    }
    let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
    (b.get(i + 1 + hashes) == Some(&b'"')).then_some(hashes)
}

/// The byte length of a char literal at the start of `s` (not a lifetime).
fn char_literal_len(s: &str) -> Option<usize> {
    let rest = &s[1..];
    if let Some(esc) = rest.strip_prefix('\\') {
        let close = esc.find('\'')?;
        return (close <= 10).then_some(close + 3);
    }
    let c = rest.chars().next()?;
    rest[c.len_utf8()..]
        .starts_with('\'')
        .then_some(2 + c.len_utf8())
}

/// Every path the text names: `use` trees expanded, other paths as written.
fn paths(text: &str) -> Vec<Vec<String>> {
    let tokens = tokenize(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "use" {
            let mut j = i + 1;
            use_tree(&tokens, &mut j, Vec::new(), &mut out);
            i = j;
        } else if is_ident(&tokens[i]) && tokens.get(i + 1).is_some_and(|t| t == "::") {
            let mut p = vec![tokens[i].clone()];
            let mut j = i + 1;
            while tokens.get(j).is_some_and(|t| t == "::")
                && tokens.get(j + 1).is_some_and(|t| is_ident(t))
            {
                p.push(tokens[j + 1].clone());
                j += 2;
            }
            out.push(p);
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

fn use_tree(t: &[String], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    loop {
        match t.get(*i).map(String::as_str) {
            Some("{") => {
                *i += 1;
                while t.get(*i).is_some_and(|s| s != "}") {
                    use_tree(t, i, path.clone(), out);
                    if t.get(*i).is_some_and(|s| s == ",") {
                        *i += 1;
                    }
                }
                *i += 1;
                break;
            }
            Some("::") => *i += 1,
            Some(s) if is_ident(s) => {
                path.push(s.to_string());
                *i += 1;
                if t.get(*i).is_some_and(|s| s == "as") {
                    *i += 2;
                }
                if t.get(*i).is_none_or(|s| s != "::") {
                    out.push(path);
                    break;
                }
            }
            _ => {
                out.push(path);
                break;
            }
        }
    }
    if t.get(*i).is_some_and(|s| s == ";") {
        *i += 1;
    }
}

fn is_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut end = start + c.len_utf8();
            while let Some(&(k, d)) = chars.peek() {
                if !(d.is_alphanumeric() || d == '_') {
                    break;
                }
                end = k + d.len_utf8();
                chars.next();
            }
            out.push(text[start..end].to_string());
        } else if c == ':' && chars.peek().is_some_and(|&(_, d)| d == ':') {
            chars.next();
            out.push("::".into());
        } else if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    out
}

/// The module a path names, if it is one of ours.
fn resolve(
    from: &Module,
    children: &BTreeSet<String>,
    path: &[String],
    all: &BTreeSet<Module>,
) -> Option<Module> {
    let (mut base, rest) = match path.first().map(String::as_str)? {
        "crate" | "arbiter" => (Vec::new(), &path[1..]),
        "self" => (from.clone(), &path[1..]),
        "super" => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            (from[..from.len().checked_sub(ups)?].to_vec(), &path[ups..])
        }
        first if children.contains(first) => (from.clone(), path),
        _ => return None,
    };
    for seg in rest {
        let mut next = base.clone();
        next.push(seg.clone());
        if !all.contains(&next) {
            break;
        }
        base = next;
    }
    Some(base)
}

/// Module → modules it names (itself excluded).
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let src = sources();
    let all: BTreeSet<Module> = src.keys().cloned().collect();
    let mut g = BTreeMap::new();
    for (m, text) in &src {
        let children: BTreeSet<String> = all
            .iter()
            .filter(|c| c.len() == m.len() + 1 && c.starts_with(m))
            .map(|c| c.last().unwrap().clone())
            .collect();
        let deps: BTreeSet<Module> = paths(text)
            .iter()
            .filter_map(|p| resolve(m, &children, p, &all))
            .filter(|t| t != m && !t.is_empty())
            .collect();
        g.insert(m.clone(), deps);
    }
    g
}

/// Cycles among the children of each module: an edge A → B when anything
/// inside child A names anything inside sibling B.
fn sibling_cycles(g: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let parents: BTreeSet<Module> = g
        .keys()
        .filter(|m| !m.is_empty())
        .map(|m| m[..m.len() - 1].to_vec())
        .collect();
    let mut out = Vec::new();
    for p in parents {
        let child_of =
            |m: &Module| (m.len() > p.len() && m.starts_with(&p)).then(|| m[p.len()].clone());
        let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (m, deps) in g {
            let Some(a) = child_of(m) else { continue };
            for d in deps {
                if let Some(b) = child_of(d).filter(|b| *b != a) {
                    edges.entry(a.clone()).or_default().insert(b);
                }
            }
        }
        for (a, bs) in &edges {
            for b in bs {
                if a < b && reaches(&edges, b, a) {
                    out.push(format!("{}: {a} ↔ {b}", label(&p)));
                }
            }
        }
    }
    out
}

fn reaches(edges: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) -> bool {
    let (mut seen, mut stack) = (BTreeSet::new(), vec![from.to_string()]);
    while let Some(n) = stack.pop() {
        if n == to {
            return true;
        }
        if seen.insert(n.clone()) {
            stack.extend(edges.get(&n).into_iter().flatten().cloned());
        }
    }
    false
}

fn label(m: &Module) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

#[test]
fn no_import_cycles_between_sibling_modules() {
    let cycles = sibling_cycles(&graph());
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

/// The layers, bottom up; a module may name only its own layer or below.
const LAYERS: &[&[&str]] = &[
    &["text", "heap"],
    &["corpus", "search", "semantic", "engine", "cards"],
    &["load", "metrics", "store", "sandbox"],
    &["render", "app"],
    &["bot"],
    &[
        "main",
        "match_cli",
        "rules_cli",
        "feedback_cli",
        "semantic_cli",
    ],
];

fn layer(m: &Module) -> usize {
    let top = m.first().map(String::as_str).unwrap_or("");
    LAYERS
        .iter()
        .position(|l| l.contains(&top))
        .unwrap_or_else(|| panic!("module `{top}` is in no layer of tests/it/structure.rs"))
}

#[test]
fn layers_point_down() {
    let g = graph();
    let mut wrong = Vec::new();
    for (m, deps) in &g {
        if m.is_empty() {
            continue;
        }
        for d in deps {
            if layer(d) > layer(m) {
                wrong.push(format!("{} names {}", label(m), label(d)));
            }
        }
    }
    assert!(wrong.is_empty(), "upward imports:\n{}", wrong.join("\n"));
}

/// The crate graph is the architecture (docs/ARCHITECTURE.md, the crate
/// table): each crate depends only on the crates below it, so the compiler
/// keeps the core from naming `app`, `store` or `bot`, and `app` from
/// naming `bot`. What keeps the core I/O-free is its manifests: no
/// runtime, storage, network or Discord crate among the dependencies of
/// `arbiter-text`, `arbiter-rules` and `arbiter-engine`; and only the
/// transports' crate (`arbiter-bot`) has serenity, axum or hyper.
#[test]
fn the_crate_graph_points_down_and_the_core_does_no_io() {
    let io = [
        "tokio",
        "sqlx",
        "serenity",
        "axum",
        "hyper",
        "hyper-util",
        "reqwest",
        "libc",
        "tracing-subscriber",
    ];
    let discord = ["serenity", "axum", "hyper", "hyper-util", "http-body"];
    let core = ["arbiter-text", "arbiter-rules", "arbiter-engine"];
    // Each crate and the workspace crates it may depend on.
    let graph: &[(&str, &str, &[&str])] = &[
        ("minilm", "minilm", &[]),
        ("arbiter-text", "text", &[]),
        ("arbiter-rules", "rules", &["arbiter-text"]),
        ("arbiter-engine", "engine", &["arbiter-text"]),
        ("arbiter-metrics", "metrics", &[]),
        (
            "arbiter-store",
            "store",
            &["arbiter-text", "arbiter-rules", "arbiter-metrics"],
        ),
        (
            "arbiter-app",
            "app",
            &[
                "arbiter-text",
                "arbiter-rules",
                "arbiter-engine",
                "arbiter-metrics",
                "arbiter-store",
                "minilm",
            ],
        ),
        (
            "arbiter-bot",
            "bot",
            &[
                "arbiter-text",
                "arbiter-rules",
                "arbiter-engine",
                "arbiter-metrics",
                "arbiter-store",
                "arbiter-app",
                "minilm",
            ],
        ),
    ];
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (krate, dir, below) in graph {
        let manifest = std::fs::read_to_string(repo.join("crates").join(dir).join("Cargo.toml"))
            .expect("the crate's manifest");
        assert!(manifest.contains(&format!("name = \"{krate}\"")), "{krate}");
        let deps = dependency_names(&manifest);
        assert!(
            !deps.is_empty() || *krate == "arbiter-text",
            "{krate}: no dependencies read"
        );
        for d in &deps {
            if core.contains(krate) {
                assert!(!io.contains(&d.as_str()), "{krate} depends on {d}");
            }
            if *krate != "arbiter-bot" {
                assert!(!discord.contains(&d.as_str()), "{krate} depends on {d}");
            }
            let ours = graph.iter().any(|(name, _, _)| name == d);
            if ours {
                assert!(
                    below.contains(&d.as_str()),
                    "{krate} depends on {d}: the graph points down only"
                );
            }
        }
    }
}

/// The names under a manifest's `[dependencies]` (not dev- or build-).
fn dependency_names(manifest: &str) -> Vec<String> {
    let mut on = false;
    let mut out = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            on = line == "[dependencies]";
        } else if on && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or("");
            out.push(name.to_string());
        }
    }
    out
}

#[test]
fn the_manifest_reader_reads_names() {
    let m = "[package]\nname = \"x\"\n[dependencies]\n# c\nserde.workspace = true\ntokio = { version = \"1\" }\n[dev-dependencies]\nsqlx = \"0.8\"\n";
    assert_eq!(dependency_names(m), ["serde", "tokio"]);
}

#[test]
fn app_names_no_games_module() {
    let g = graph();
    let games = ["ashes", "ti4", "magewinds", "legion", "grand_archive"];
    let mut wrong = Vec::new();
    // The one exception: `render::pictures` draws each game's typed board
    // (a drawing per game, so the engines hold no drawing code).
    let pictures = |m: &Module| m.len() >= 2 && m[0] == "render" && m[1] == "pictures";
    for (m, deps) in g.iter().filter(|(m, _)| {
        m.first()
            .is_some_and(|t| t == "app" || t == "render" || t == "bot" || t == "store")
            && !pictures(m)
    }) {
        for d in deps {
            if d.len() >= 2 && d[0] == "engine" && games.contains(&d[1].as_str()) {
                wrong.push(format!("{} names {}", label(m), label(d)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "game modules named outside the engine:\n{}",
        wrong.join("\n")
    );
}

/// Only the Discord edge (`bot::discord`, `bot::http`, `bot::gateway`)
/// names serenity; the command registry (`bot::commands`) is plain data.
#[test]
fn only_the_discord_edge_names_serenity() {
    let edge = ["discord", "http", "gateway"];
    let named: Vec<String> = sources()
        .iter()
        .filter(|(m, text)| {
            let at_edge = m.len() == 2 && m[0] == "bot" && edge.contains(&m[1].as_str());
            !at_edge && tokenize(text).iter().any(|t| t == "serenity")
        })
        .map(|(m, _)| label(m))
        .collect();
    assert!(
        named.is_empty(),
        "serenity named outside the edge: {named:?}"
    );
}

/// The scanner itself: a cycle written in text is found, a comment is not.
#[test]
fn the_scanner_finds_what_it_should() {
    let text =
        clean("use crate::{a::b, c as d};\n// use crate::e;\nlet s = \"crate::f\"; super::g::h();");
    let p = paths(&text);
    assert!(
        p.contains(&vec!["crate".into(), "a".into(), "b".into()]),
        "{p:?}"
    );
    assert!(p.contains(&vec!["crate".into(), "c".into()]), "{p:?}");
    assert!(
        p.contains(&vec!["super".into(), "g".into(), "h".into()]),
        "{p:?}"
    );
    assert!(
        !p.iter()
            .any(|p| p.contains(&"e".to_string()) || p.contains(&"f".to_string())),
        "{p:?}"
    );
    let mut g = BTreeMap::new();
    let m = |s: &str| s.split("::").map(String::from).collect::<Module>();
    g.insert(m("x::a"), BTreeSet::from([m("x::b::c")]));
    g.insert(m("x::b::c"), BTreeSet::from([m("x::a")]));
    g.insert(m("x::b"), BTreeSet::new());
    assert_eq!(sibling_cycles(&g), vec!["x: a ↔ b".to_string()]);
    // The core crates are scanned, under the paths `arbiter` names them by.
    let s = sources();
    for m in [
        "engine::kit",
        "engine::ashes::procedure",
        "search::semantic",
        "corpus",
        "cards",
        "text",
    ] {
        let m: Module = m.split("::").map(String::from).collect();
        assert!(s.contains_key(&m), "{m:?} not scanned");
    }
    let m = |p: &str| p.split("::").map(String::from).collect::<Module>();
    assert!(s[&m("engine::ashes::procedure")].contains("crate::engine::kit"));
    assert!(s[&m("bot::matchcmd")].contains("crate::store::"));
    assert_eq!(
        reexports(
            "pub(crate) use arbiter_app::{app, render};\npub(crate) use arbiter_store as store;"
        ),
        ["app", "render", "store"]
    );
    assert_eq!(
        below(
            "crate::store::Store; crate::pages::x; crate::{a, b}",
            "bot",
            &["store".to_string()]
        ),
        "crate::store::Store; crate::bot::pages::x; crate::bot::{a, b}"
    );
}

/// A test file in a folder of modules (`tests/it`, `tests/engine`) is
/// built only when its binary's `main.rs` declares it: none is left out.
#[test]
fn every_test_file_is_a_declared_module() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut checked = 0;
    for folder in ["it", "engine"] {
        let dir = tests.join(folder);
        let main = std::fs::read_to_string(dir.join("main.rs")).expect("main.rs");
        for entry in std::fs::read_dir(&dir).expect("the folder") {
            let path = entry.expect("an entry").path();
            let Some(name) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".rs"))
            else {
                continue;
            };
            if name == "main" {
                continue;
            }
            assert!(
                main.lines().any(|l| l.trim() == format!("mod {name};")),
                "tests/{folder}/{name}.rs is not declared in tests/{folder}/main.rs: it is never built"
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked} test files checked");
}

/// Every game's folder holds the files docs/ADDING_A_GAME.md lists, and no
/// other: the template and the games stay one layout.
#[test]
fn every_game_folder_has_the_templates_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let guide = std::fs::read_to_string(root.join("docs/ADDING_A_GAME.md")).expect("the guide");
    let block = guide
        .split("crates/engine/src/<game>/\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the guide's folder block");
    let listed: BTreeSet<String> = block
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.ends_with(".rs"))
        .map(str::to_string)
        .collect();
    assert!(listed.len() >= 7, "{listed:?}");
    let engine = root.join("crates/engine/src");
    let mut games = 0;
    for entry in std::fs::read_dir(&engine).expect("crates/engine/src") {
        let dir = entry.expect("an entry").path();
        if !dir.is_dir() || dir.file_name().is_some_and(|n| n == "kit") {
            continue;
        }
        let files: BTreeSet<String> = std::fs::read_dir(&dir)
            .expect("a game folder")
            .map(|f| {
                f.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(
            files,
            listed,
            "{} differs from docs/ADDING_A_GAME.md",
            dir.display()
        );
        games += 1;
    }
    assert_eq!(games, 5, "five game folders");
}
