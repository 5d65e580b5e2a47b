//! One-line play notation, e.g.
//! `activate Pyromancer attack Stonewarden with Fire Bolt; step 0.5`.
//!
//! ```text
//! line     := head (";" clause)*
//! head     := "activate" FIGHTER action | "react" FIGHTER REACTION
//! action   := "move" (NUMBER | "to" X "," Y) | "attack" TARGET ["with" ATTACK]
//!           | "guard" | ["action"] NAME
//! clause   := "step" NUMBER | "step to" X "," Y | "free" | "player" NAME
//!           | "visible" NAME ("," NAME)* | "trigger met" | "trigger not met"
//!           | "reaction" FIGHTER REACTION ["step" NUMBER]   (during an attack)
//! ```

use serde_json::{Map, Value, json};

use crate::engine::BoardError;
use crate::engine::legacy::resolve_name;
use crate::text::fold;

const MAX_LINE: usize = 500;
const KEYWORDS: [&str; 4] = ["move", "attack", "guard", "action"];

struct FighterInfo {
    name: String,
    owner: String,
    double: bool,
    attacks: Vec<String>,
    reactions: Vec<String>,
    actions: Vec<String>,
}

fn fighters(board: &Value) -> Vec<FighterInfo> {
    let mut out = Vec::new();
    let strings = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| {
                        x.as_str()
                            .map(str::to_string)
                            .or_else(|| x.get("name").and_then(Value::as_str).map(str::to_string))
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    for p in board
        .get("players")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let owner = p.get("name").and_then(Value::as_str).unwrap_or_default();
        for f in p
            .get("fighters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(name) = f.get("name").and_then(Value::as_str) else {
                continue;
            };
            out.push(FighterInfo {
                name: name.to_string(),
                owner: owner.to_string(),
                double: f.get("counter").and_then(Value::as_str) == Some("double"),
                attacks: strings(f.get("attacks")),
                reactions: strings(f.get("reactions")),
                actions: strings(f.get("actions")),
            });
        }
    }
    out
}

/// Splits on whitespace, keeping "quoted names" together.
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' | '“' | '”' => {
                if quoted || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                quoted = !quoted;
            }
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn number(s: &str, path: &str) -> Result<f64, BoardError> {
    let t = s
        .trim()
        .trim_end_matches(['"', '”', '\''])
        .trim_end_matches("inches")
        .trim_end_matches("in")
        .trim();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1000.0).contains(&v) => Ok(v),
        _ => Err(BoardError::semantic(
            path,
            format!("'{s}' is not a distance in inches (e.g. 4 or 0.5)"),
        )),
    }
}

fn point(s: &str, path: &str) -> Result<Value, BoardError> {
    let cleaned: String = s
        .chars()
        .map(|c| {
            if c == '[' || c == ']' || c == '(' || c == ')' || c == ',' {
                ' '
            } else {
                c
            }
        })
        .collect();
    let parts: Vec<&str> = cleaned.split_whitespace().collect();
    let bad = || {
        BoardError::semantic(
            path,
            format!(
                "'{}' is not a point; write it as x,y in inches (e.g. 10,12)",
                s.trim()
            ),
        )
    };
    let [x, y] = parts.as_slice() else {
        return Err(bad());
    };
    let x: f64 = x.parse().map_err(|_| bad())?;
    let y: f64 = y.parse().map_err(|_| bad())?;
    if !x.is_finite() || !y.is_finite() || x.abs() > 1000.0 || y.abs() > 1000.0 {
        return Err(bad());
    }
    Ok(json!([x, y]))
}

fn fighter_names(fs: &[FighterInfo]) -> Vec<&str> {
    fs.iter().map(|f| f.name.as_str()).collect()
}

/// Finds `FIGHTER REACTION` in words: the split where both resolve.
fn fighter_and_reaction(
    ws: &[String],
    fs: &[FighterInfo],
    path: &str,
) -> Result<(String, String), BoardError> {
    let names = fighter_names(fs);
    if ws.len() < 2 {
        return Err(BoardError::semantic(
            path,
            "write the fighter, then the reaction: `react Stonewarden dodge`",
        ));
    }
    let mut first_err = None;
    for k in (1..ws.len()).rev() {
        let f = ws[..k].join(" ");
        let rx = ws[k..].join(" ");
        match resolve_name(&f, &names, path, "fighter") {
            Ok(name) => {
                let info = fs.iter().find(|x| x.name == name);
                let refs: Vec<&str> = info
                    .map(|i| i.reactions.iter().map(String::as_str).collect())
                    .unwrap_or_default();
                match resolve_name(&rx, &refs, path, "reaction") {
                    Ok(r) => return Ok((name.to_string(), r.to_string())),
                    // Keep the typed reaction: the engine explains why it is not available.
                    Err(_) if k == 1 || first_err.is_none() => {
                        first_err.get_or_insert((name.to_string(), rx.clone()));
                    }
                    Err(_) => {}
                }
            }
            Err(e) if k == 1 && first_err.is_none() => return Err(e),
            Err(_) => {}
        }
    }
    first_err.ok_or_else(|| {
        BoardError::semantic(
            path,
            "write the fighter, then the reaction: `react Stonewarden dodge`",
        )
    })
}

pub fn parse(line: &str, board: &Value) -> Result<Value, BoardError> {
    if line.len() > MAX_LINE {
        return Err(BoardError::refused(format!(
            "the play is {} characters long; the limit is {MAX_LINE}",
            line.len()
        )));
    }
    let fs = fighters(board);
    let names = fighter_names(&fs);
    let mut clauses = line.split(';');
    let head = words(clauses.next().unwrap_or_default());
    let mut play = Map::new();
    let mut nested: Vec<Value> = Vec::new();
    let Some(verb) = head.first() else {
        return Err(BoardError::semantic(
            "play",
            "empty play; start with `activate <fighter> ...` or `react <fighter> <reaction>`",
        ));
    };
    match fold(verb).as_str() {
        "activate" | "act" => {
            let rest = &head[1..];
            let kw = rest
                .iter()
                .position(|w| KEYWORDS.contains(&fold(w).as_str()));
            // No keyword: the first word(s) naming a fighter, then a named action.
            let (fighter_words, action_words): (&[String], &[String]) = match kw {
                Some(i) => (&rest[..i], &rest[i..]),
                None => {
                    let mut split = None;
                    for k in (1..rest.len()).rev() {
                        if resolve_name(&rest[..k].join(" "), &names, "play.activate", "fighter")
                            .is_ok()
                        {
                            split = Some(k);
                            break;
                        }
                    }
                    match split {
                        Some(k) => (&rest[..k], &rest[k..]),
                        None => (rest, &[]),
                    }
                }
            };
            if fighter_words.is_empty() {
                return Err(BoardError::semantic(
                    "play.activate",
                    "name the fighter to activate: `activate Pyromancer guard`",
                ));
            }
            let fname = resolve_name(&fighter_words.join(" "), &names, "play.activate", "fighter")?;
            play.insert("activate".into(), json!(fname));
            let info = fs.iter().find(|f| f.name == fname);
            let Some(a) = action_words.first() else {
                return Err(BoardError::semantic(
                    "play.action",
                    format!("say what {fname} does: move, attack, guard or another action"),
                ));
            };
            let args = &action_words[1..];
            match fold(a).as_str() {
                "move" => {
                    play.insert("action".into(), json!("move"));
                    match args.first().map(|w| fold(w)) {
                        Some(w) if w == "to" => {
                            play.insert("to".into(), point(&args[1..].join(" "), "play.to")?);
                        }
                        Some(_) => {
                            play.insert(
                                "distance".into(),
                                json!(number(&args.join(""), "play.distance")?),
                            );
                        }
                        None => {
                            return Err(BoardError::semantic(
                                "play.distance",
                                "how far? `move 4` or `move to 10,12`",
                            ));
                        }
                    }
                }
                "attack" => {
                    play.insert("action".into(), json!("attack"));
                    let with = args.iter().position(|w| fold(w) == "with");
                    let (t, atk) = match with {
                        Some(i) => (&args[..i], Some(&args[i + 1..])),
                        None => (args, None),
                    };
                    if t.is_empty() {
                        return Err(BoardError::semantic(
                            "play.target",
                            "attack whom? `attack Stonewarden with Fire Bolt`",
                        ));
                    }
                    play.insert(
                        "target".into(),
                        json!(resolve_name(
                            &t.join(" "),
                            &names,
                            "play.target",
                            "fighter"
                        )?),
                    );
                    if let Some(atk) = atk {
                        let typed = atk.join(" ");
                        let refs: Vec<&str> = info
                            .map(|i| i.attacks.iter().map(String::as_str).collect())
                            .unwrap_or_default();
                        let chosen = resolve_name(&typed, &refs, "play.attack", "attack")
                            .map(str::to_string)
                            .unwrap_or(typed);
                        play.insert("attack".into(), json!(chosen));
                    }
                }
                "guard" => {
                    play.insert("action".into(), json!("guard"));
                }
                _ => {
                    let words = if fold(a) == "action" {
                        args
                    } else {
                        action_words
                    };
                    if words.is_empty() {
                        return Err(BoardError::semantic(
                            "play.action",
                            "name the action: `activate Pyromancer action Fireball`",
                        ));
                    }
                    let typed = words.join(" ");
                    let refs: Vec<&str> = info
                        .map(|i| i.actions.iter().map(String::as_str).collect())
                        .unwrap_or_default();
                    let chosen = resolve_name(&typed, &refs, "play.action", "action")
                        .map(str::to_string)
                        .unwrap_or(typed);
                    play.insert("action".into(), json!(chosen));
                }
            }
        }
        "react" | "reaction" => {
            let (f, rx) = fighter_and_reaction(&head[1..], &fs, "play.react")?;
            play.insert("react".into(), json!(rx));
            play.insert("fighter".into(), json!(f));
        }
        other => {
            return Err(BoardError::semantic(
                "play",
                format!(
                    "'{other}' is not a play; start with `activate <fighter> ...` or `react <fighter> <reaction>`"
                ),
            ));
        }
    }
    for clause in clauses {
        let ws = words(clause);
        let Some(k) = ws.first() else { continue };
        let rest = &ws[1..];
        match fold(k).as_str() {
            "step" => {
                if rest.first().is_some_and(|w| fold(w) == "to") {
                    play.insert(
                        "step_to".into(),
                        point(&rest[1..].join(" "), "play.step_to")?,
                    );
                } else {
                    play.insert("step".into(), json!(number(&rest.join(""), "play.step")?));
                }
            }
            "free" => {
                play.insert("free".into(), json!(true));
            }
            "player" | "by" => {
                let ps = crate::engine::legacy::names_at(board, "players");
                let refs: Vec<&str> = ps.iter().map(String::as_str).collect();
                play.insert(
                    "player".into(),
                    json!(resolve_name(
                        &rest.join(" "),
                        &refs,
                        "play.player",
                        "player"
                    )?),
                );
            }
            "visible" | "sees" => {
                let joined = rest.join(" ");
                let mut list = Vec::new();
                for n in joined.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    list.push(json!(resolve_name(n, &names, "play.visible", "fighter")?));
                }
                play.insert("visible".into(), Value::Array(list));
            }
            "trigger" => {
                let met = !rest.iter().any(|w| fold(w) == "not");
                play.insert("trigger_met".into(), json!(met));
            }
            "reaction" | "react" => {
                let path = format!("play.reactions[{}]", nested.len());
                let step_at = rest.iter().position(|w| fold(w) == "step");
                let (who, step) = match step_at {
                    Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                    None => (rest, None),
                };
                let (f, rx) = fighter_and_reaction(who, &fs, &path)?;
                let mut m = Map::new();
                m.insert("react".into(), json!(rx));
                m.insert("fighter".into(), json!(f));
                if let Some(s) = step {
                    m.insert(
                        "step".into(),
                        json!(number(&s.join(""), &format!("{path}.step"))?),
                    );
                }
                nested.push(Value::Object(m));
            }
            other => {
                return Err(BoardError::semantic(
                    "play",
                    format!(
                        "unknown clause '{other}'; clauses are: step, step to, free, player, visible, trigger met, reaction"
                    ),
                ));
            }
        }
    }
    if !nested.is_empty() {
        play.insert("reactions".into(), Value::Array(nested));
    }
    Ok(Value::Object(play))
}

fn filter(cands: Vec<String>, prefix: &str) -> Vec<String> {
    let p = fold(prefix);
    let mut out: Vec<String> = cands
        .into_iter()
        .filter(|c| fold(c).starts_with(&p))
        .collect();
    out.dedup();
    out
}

/// Candidates for the next word of a partly typed play.
pub fn completions(partial: &str, board: &Value) -> Vec<String> {
    if partial.len() > MAX_LINE {
        return Vec::new();
    }
    let fs = fighters(board);
    let clauses: Vec<&str> = partial.split(';').collect();
    let last = clauses.last().copied().unwrap_or_default();
    let ended = last.ends_with(char::is_whitespace) || last.is_empty();
    let ws = words(last);
    let (done, cur): (&[String], &str) = if ended || ws.is_empty() {
        (&ws[..], "")
    } else {
        (
            &ws[..ws.len() - 1],
            ws.last().map(String::as_str).unwrap_or_default(),
        )
    };
    if clauses.len() > 1 {
        if done.is_empty() {
            let c = [
                "step",
                "step to",
                "free",
                "player",
                "visible",
                "trigger met",
                "reaction",
            ];
            return filter(c.iter().map(|s| s.to_string()).collect(), cur);
        }
        return match fold(&done[0]).as_str() {
            "player" => filter(crate::engine::legacy::names_at(board, "players"), cur),
            "visible" | "reaction" => filter(fs.iter().map(|f| f.name.clone()).collect(), cur),
            _ => Vec::new(),
        };
    }
    let Some(verb) = done.first() else {
        return filter(vec!["activate".into(), "react".into()], cur);
    };
    let rest = &done[1..];
    let rest_text = rest.join(" ");
    let typed = if rest_text.is_empty() {
        cur.to_string()
    } else {
        format!("{rest_text} {cur}")
    };
    let known = |text: &str| fs.iter().find(|f| fold(&f.name) == fold(text.trim()));
    // Fighters that can be activated now: the turn player's, if the board says.
    let turn = board.get("turn").and_then(Value::as_str).map(fold);
    let activatable: Vec<String> = {
        let ready = fs.iter().filter(|f| !f.double);
        let mine: Vec<String> = ready
            .clone()
            .filter(|f| turn.as_ref().is_some_and(|t| *t == fold(&f.owner)))
            .map(|f| f.name.clone())
            .collect();
        if mine.is_empty() {
            ready.map(|f| f.name.clone()).collect()
        } else {
            mine
        }
    };
    match fold(verb).as_str() {
        "activate" => {
            let kw = rest
                .iter()
                .position(|w| KEYWORDS.contains(&fold(w).as_str()));
            match kw {
                None => {
                    if let Some(f) = known(&rest_text) {
                        let mut c: Vec<String> = ["move", "attack", "guard"]
                            .iter()
                            .map(|s| s.to_string())
                            .collect();
                        c.extend(f.actions.iter().cloned());
                        let mut out = filter(c, cur);
                        if !cur.is_empty() {
                            out.extend(filter(activatable.clone(), &typed));
                        }
                        return out;
                    }
                    filter(activatable, &typed)
                }
                Some(i) => {
                    let who = known(&rest[..i].join(" "));
                    let args = &rest[i + 1..];
                    match fold(&rest[i]).as_str() {
                        "move" if args.is_empty() => filter(vec!["to".into()], cur),
                        "attack" => {
                            if let Some(w) = args.iter().position(|w| fold(w) == "with") {
                                let _ = w;
                                return filter(
                                    who.map(|f| f.attacks.clone()).unwrap_or_default(),
                                    &{
                                        let after = args[w + 1..].join(" ");
                                        if after.is_empty() {
                                            cur.to_string()
                                        } else {
                                            format!("{after} {cur}")
                                        }
                                    },
                                );
                            }
                            let t = args.join(" ");
                            if !t.is_empty() && known(&t).is_some() {
                                return filter(vec!["with".into()], cur);
                            }
                            let tt = if t.is_empty() {
                                cur.to_string()
                            } else {
                                format!("{t} {cur}")
                            };
                            filter(
                                fs.iter()
                                    .filter(|f| who.is_none_or(|w| w.name != f.name))
                                    .map(|f| f.name.clone())
                                    .collect(),
                                &tt,
                            )
                        }
                        _ => Vec::new(),
                    }
                }
            }
        }
        "react" => {
            for k in (1..=rest.len()).rev() {
                if let Some(f) = known(&rest[..k].join(" ")) {
                    let after = rest[k..].join(" ");
                    let t = if after.is_empty() {
                        cur.to_string()
                    } else {
                        format!("{after} {cur}")
                    };
                    return filter(f.reactions.clone(), &t);
                }
            }
            filter(
                fs.iter()
                    .filter(|f| !f.reactions.is_empty())
                    .map(|f| f.name.clone())
                    .collect(),
                &typed,
            )
        }
        _ => Vec::new(),
    }
}
