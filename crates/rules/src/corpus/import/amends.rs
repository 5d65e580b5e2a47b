//! What an upload amends in its game's rules, looked up where the game is
//! ([`super::Import::new`]), and what its preview says of it: an errata's
//! rule number that names no rule, or one of several, and the errata
//! already live that amend the same rules. An errata amending 1.2, 2.1 and
//! a 9.9 the game lacks said "amends 2 rules" and nothing of 9.9; one
//! amending a 2.1 printed twice attached to the first without a word; a
//! second errata of 1.2 was shown beside the first with nothing saying
//! which holds (found by an outside tester).

use std::collections::HashSet;

use super::{MoreWarnings, Preview, WARNINGS_PER_KIND};
use crate::corpus::{Corpus, DocumentKind, PassageIdx, RuleNumbers, is_rule_number};
use crate::text::count;

/// The rules of the known game a preview's passages name
/// ([`Preview::rule_names`]), each once, in the order first named.
pub(super) fn amended_rules(known: &Corpus, preview: &Preview) -> Vec<String> {
    let numbers = known.rule_numbers();
    let mut seen = HashSet::new();
    let mut out: Vec<String> = Vec::new();
    for name in preview.rule_names.iter().flat_map(|(_, names)| names) {
        if let Some(i) = known.named_rule(&numbers, &preview.game, name)
            && seen.insert(i)
        {
            out.push(known.passages[i].id.clone());
        }
    }
    out
}

/// Did-you-means a name that names no rule offers at most.
const NEAR: usize = 3;

/// An errata's names of rules ([`Preview::rule_names`]) that amend no rule
/// of its game or pick one of several, each warned once by name, the
/// first [`WARNINGS_PER_KIND`] listed and the rest counted. Only an
/// errata's: an FAQ or house rules may mention a number in passing, an
/// errata exists to amend.
pub(super) fn name_warnings(
    known: &Corpus,
    preview: &Preview,
) -> (Vec<String>, Option<MoreWarnings>) {
    if preview.kind != DocumentKind::Errata || preview.new_game {
        return (Vec::new(), None);
    }
    let numbers = known.rule_numbers();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (passage, names) in &preview.rule_names {
        for name in names {
            // Past the warnings listed, a name is only counted: no
            // did-you-mean is looked for (an errata of 100,000 unknown
            // numbers compared each with every rule; found in review).
            let listed = out.len() < WARNINGS_PER_KIND;
            if seen.insert(name.as_str())
                && let Some(w) = name_warning(known, &numbers, preview, name, listed)
            {
                out.push(format!("{passage}: {w}"));
            }
        }
    }
    let more = out.len().saturating_sub(WARNINGS_PER_KIND);
    out.truncate(WARNINGS_PER_KIND);
    let more = (more > 0).then(|| MoreWarnings {
        what: "rules an errata names that it cannot amend".into(),
        count: more,
    });
    (out, more)
}

/// What a preview says of one name ("9.9", `kitchen:9.9`, `kitchen:2.1~2`)
/// an errata gives: `None` when it amends the one rule it can only mean.
fn name_warning(
    known: &Corpus,
    numbers: &RuleNumbers<'_>,
    preview: &Preview,
    name: &str,
    suggest: bool,
) -> Option<String> {
    let game = preview.game.as_str();
    let number = match name.split_once(':') {
        Some((g, local)) if g == game => local,
        // Another game's id is not this errata's to amend.
        Some(_) => return None,
        None => name,
    };
    // A reference ("see 4.1", named `ti4:4.1`) resolves in the live game
    // as a number does.
    let rule = known.named_rule(numbers, game, name);
    if let Some(i) = rule.or_else(|| numbers.find(game, number)) {
        return repeated(known, i, name);
    }
    if let Some(other) = known.get(&format!("{game}:{number}")) {
        let doc = known.document_of(other).map_or("", |d| d.title.as_str());
        return Some(format!(
            "“{name}” is a passage of “{doc}”, not a rule of {}'s rules: an errata amends rules only, so it amends nothing there",
            preview.game_name
        ));
    }
    let several = numbers.ending_with(game, number);
    if several.len() > 1 {
        let ids: Vec<&str> = several
            .iter()
            .map(|&i| known.passages[i].id.as_str())
            .collect();
        return Some(format!(
            "“{name}” ends the ids of {} of {} ({}), so it amends none of them: name the one meant by its id",
            count(ids.len(), "rule"),
            preview.game_name,
            listed(&ids)
        ));
    }
    let near = match suggest && is_rule_number(number) {
        true => numbers.near(game, number, NEAR),
        false => Vec::new(),
    };
    let mean = match near.as_slice() {
        [] => String::new(),
        near => format!(" (did you mean {}?)", near.join(" or ")),
    };
    Some(format!(
        "“{name}” names no rule of {}, so it amends nothing{mean}",
        preview.game_name
    ))
}

/// The warning for a rule named by a number its rulebook prints more than
/// once (`kitchen:2.1`, then `kitchen:2.1~2`): which one it amends and
/// how to name the others. `None` when the number is printed once, or the
/// name is a repeat's own id.
fn repeated(known: &Corpus, first: PassageIdx, name: &str) -> Option<String> {
    let id = &known.passages[first].id;
    let repeats: Vec<&str> = (2..)
        .map_while(|n| known.get(&format!("{id}~{n}")))
        .filter(|p| known.document_of(p).is_some_and(|d| d.kind.is_rules()))
        .map(|p| p.id.as_str())
        .collect();
    if repeats.is_empty() {
        return None;
    }
    Some(format!(
        "“{name}” is the number of {} in the game's rules ({id}, {}): this errata amends the first, {id}; to amend {}, name it by its id (“Errata to {}: …”)",
        count(repeats.len() + 1, "rule"),
        listed(&repeats),
        if repeats.len() == 1 {
            "the other"
        } else {
            "another"
        },
        repeats[0],
    ))
}

/// Ids as a preview lists them: the first five, then how many more.
fn listed(ids: &[&str]) -> String {
    let shown = ids.iter().take(5).copied().collect::<Vec<_>>().join(", ");
    match ids.len().saturating_sub(5) {
        0 => shown,
        n => format!("{shown} and {n} more"),
    }
}

/// The errata already in the game that amend rules this errata amends
/// too, one note for each: both are shown beside the rule in the order
/// they were added (shipped documents first, then a server's, oldest
/// first), and the later reads after the earlier, holding where they
/// differ (decision: an errata is sent to correct what came before it).
pub(super) fn earlier_errata(known: &Corpus, preview: &Preview) -> Vec<String> {
    if preview.kind != DocumentKind::Errata || preview.amends.is_empty() {
        return Vec::new();
    }
    let earlier = known.game_amendments(&preview.game);
    // (game's document index, its title, the rules both amend)
    let mut docs: Vec<(usize, &str, Vec<&str>)> = Vec::new();
    for id in &preview.amends {
        let Some(rule) = known.index_of(id) else {
            continue;
        };
        for &a in earlier.get(&rule).into_iter().flatten() {
            let p = &known.passages[a];
            let Some(doc) = known
                .document_of(p)
                .filter(|d| d.kind == DocumentKind::Errata)
            else {
                continue;
            };
            let at = match docs.iter().position(|(d, _, _)| *d == p.document) {
                Some(at) => at,
                None => {
                    docs.push((p.document, doc.title.as_str(), Vec::new()));
                    docs.len() - 1
                }
            };
            if !docs[at].2.contains(&id.as_str()) {
                docs[at].2.push(id);
            }
        }
    }
    docs.into_iter()
        .map(|(_, title, rules)| {
            format!(
                "the errata “{title}”, added before this one, amends {} too ({}): answers show both beside the rule, “{title}” first and this errata after it, which reads after it and holds where they differ",
                if rules.len() == 1 { "this rule" } else { "these rules" },
                listed(&rules)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{Import, ImportRequest, import};
    use crate::corpus::{Corpus, DocumentKind, SourceGame};

    /// A rulebook that prints 1.1 and 2.1 twice, as an outside tester's
    /// did (the repeats are `kitchen:1.1~2` and `kitchen:2.1~2`).
    const DUP: &str = "Kitchen Rules\n\n1. Setup\n\n1.1 Each player draws seven cards.\n\n1.2 The youngest player goes first.\n\n1.1 Each player also takes three gold.\n\n2. Play\n\n2.1 On your turn, draw a card then play one card.\n\n2.1 On your turn you may also trade one card.\n";

    fn add(known: &[SourceGame], file: &str, text: &str, kind: DocumentKind) -> Import {
        import(
            &Corpus::build(known.to_vec()),
            &ImportRequest {
                file_name: file,
                bytes: text.as_bytes(),
                game: "Kitchen",
                kind,
                title: None,
            },
        )
        .unwrap()
    }

    fn kitchen() -> Vec<SourceGame> {
        vec![add(&[], "dup.txt", DUP, DocumentKind::Rules).game]
    }

    fn warned(imp: &Import) -> String {
        imp.preview.warnings.join("\n")
    }

    #[test]
    fn each_number_an_errata_names_that_the_game_lacks_is_warned_by_name() {
        let errata = "# Errata 2025\n\nRule 1.2 now reads: The oldest player goes first.\n\nRule 9.9 now reads: Nothing happens.\n\nRule 1.3 now reads: Something else.\n";
        let imp = add(&kitchen(), "errata1.md", errata, DocumentKind::Errata);
        assert_eq!(imp.preview.amends, ["kitchen:1.2"]);
        let said = warned(&imp);
        assert!(said.contains("“9.9” names no rule of Kitchen"), "{said}");
        assert!(!said.contains("“1.2”"), "{said}");
        // A close number is offered.
        let line = said.lines().find(|l| l.contains("“1.3”")).expect(&said);
        assert!(line.contains("did you mean 1.1 or 1.2?"), "{line}");
        // The rulebook's number is not a did-you-mean of 9.9.
        let line = said.lines().find(|l| l.contains("“9.9”")).unwrap();
        assert!(!line.contains("did you mean"), "{line}");
    }

    #[test]
    fn a_number_printed_twice_says_which_rule_it_amends_and_how_to_name_the_other() {
        let errata = "# Errata 2025\n\nErrata to 2.1: Draw two cards instead.\n";
        let imp = add(&kitchen(), "errata1.md", errata, DocumentKind::Errata);
        assert_eq!(imp.preview.amends, ["kitchen:2.1"]);
        let said = warned(&imp);
        let line = said.lines().find(|l| l.contains("“2.1”")).expect(&said);
        assert!(
            line.contains("amends the first, kitchen:2.1") && line.contains("kitchen:2.1~2"),
            "{line}"
        );
        // Named so, the other is amended, with no warning.
        let errata = "# Errata 2025\n\nErrata to kitchen:2.1~2: Trade two cards.\n";
        let imp = add(&kitchen(), "errata1.md", errata, DocumentKind::Errata);
        assert_eq!(imp.preview.amends, ["kitchen:2.1~2"]);
        assert!(!warned(&imp).contains("2.1"), "{}", warned(&imp));
    }

    #[test]
    fn a_second_errata_of_a_rule_says_it_reads_after_the_first() {
        let mut games = kitchen();
        let first = "# Errata 2025\n\nRule 1.2 now reads: The oldest player goes first.\n";
        let imp = add(&games, "errata1.md", first, DocumentKind::Errata);
        assert!(!warned(&imp).contains("added before"), "{}", warned(&imp));
        games.push(imp.game);
        let second = "# Errata 2026\n\nRule 1.2 now reads: The tallest player goes first.\n\nErrata to 1.1: Draw eight.\n";
        let imp = add(&games, "errata2.md", second, DocumentKind::Errata);
        let said = warned(&imp);
        let line = said
            .lines()
            .find(|l| l.contains("added before"))
            .expect(&said);
        assert!(
            line.contains("“errata1”") && line.contains("(kitchen:1.2)"),
            "{line}"
        );
        // An FAQ is not an errata: nothing to say of which holds.
        let faq = "# FAQ\n\nRule 1.2: who is oldest? The one born first.\n";
        let imp = add(&games, "faq.md", faq, DocumentKind::Faq);
        assert!(!warned(&imp).contains("added before"), "{}", warned(&imp));
    }
}
