//! Card lists (divan): a 5,000-card list read and previewed as an upload
//! (CSV and YAML), the index built over it, `/card` by name, and name
//! autocomplete, and the cards a question names. Run: `cargo bench --bench
//! cards`. Figures: docs/IMPORT.md.

use std::sync::OnceLock;

use arbiter::app::App;
use arbiter::corpus::import::ImportRequest;
use arbiter::corpus::{CardList, DocumentKind, DocumentManifest};
use divan::Bencher;

const CARDS: usize = 5_000;

fn main() {
    divan::main();
}

fn app() -> &'static App {
    static APP: OnceLock<App> = OnceLock::new();
    APP.get_or_init(|| {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rules_data");
        let mut sources = arbiter::load::load_dir(&dir).expect("rules_data loads");
        let ashes = sources
            .iter_mut()
            .find(|g| g.manifest.game == "ashes")
            .unwrap();
        ashes.documents.push(arbiter::corpus::SourceDocument {
            manifest: manifest("big.csv"),
            text: csv().to_string(),
        });
        App::new(arbiter::corpus::Corpus::build(sources))
    })
}

fn manifest(file: &str) -> DocumentManifest {
    DocumentManifest {
        file: file.into(),
        slug: "big".into(),
        title: "Big".into(),
        kind: DocumentKind::Cards,
        ..DocumentManifest::default()
    }
}

/// `CARDS` made-up cards (names "Card 1 Ember Knight" …), each with text
/// naming a rule and a ruling.
fn csv() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let words = ["Ember", "Frost", "Iron", "Mist", "Storm", "Stone", "Ash", "Blood"];
        let kinds = ["Knight", "Golem", "Spirit", "Bear", "Archer", "Worker", "Mage"];
        let mut s = String::from("name,type,cost,attack,life,text,rulings\n");
        for i in 0..CARDS {
            let name = format!("Card {i} {} {}", words[i % 8], kinds[i % 7]);
            s.push_str(&format!(
                "{name},Ally,{},{},{},\"Unit Guard. When this unit is destroyed, Attack a Unit.\",Ruling for card {i}.\n",
                i % 5,
                i % 4,
                1 + i % 6
            ));
        }
        s
    })
}

fn yaml() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let cards = arbiter::cards::parse("big.csv", csv()).unwrap().cards;
        serde_saphyr::to_string(&cards).unwrap()
    })
}

fn preview(file_name: &str, text: &str) -> usize {
    let req = ImportRequest {
        file_name,
        bytes: text.as_bytes(),
        game: "ashes",
        kind: DocumentKind::Cards,
        title: None,
    };
    app().import(&req).expect("imports").preview.cards.len()
}

#[divan::bench(sample_count = 20)]
fn upload_preview_5000_cards_csv(b: Bencher) {
    b.bench(|| preview("big.csv", divan::black_box(csv())));
}

#[divan::bench(sample_count = 20)]
fn upload_preview_5000_cards_yaml(b: Bencher) {
    b.bench(|| preview("big.yaml", divan::black_box(yaml())));
}

#[divan::bench(sample_count = 20)]
fn index_5000_cards(b: Bencher) {
    let lists = [CardList {
        game: "ashes".into(),
        manifest: manifest("big.csv"),
        text: csv().to_string(),
    }];
    b.bench(|| {
        arbiter::cards::Cards::build(divan::black_box(&lists))
            .entries
            .len()
    });
}

#[divan::bench]
fn card_by_name_with_linked_rules(b: Bencher) {
    let app = app();
    b.bench(|| {
        app.card(divan::black_box("card 4321 frost spirit"), None)
            .unwrap()
    });
}

#[divan::bench]
fn card_name_autocomplete(b: Bencher) {
    let app = app();
    b.bench(|| {
        app.complete_cards(divan::black_box("frst gol"), None, 25)
            .len()
    });
}

/// The MTG fixture's whole card list (34,953 real cards, two CSV lists).
fn mtg_cards() -> &'static arbiter::cards::Cards {
    static CARDS: OnceLock<arbiter::cards::Cards> = OnceLock::new();
    CARDS.get_or_init(|| {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mtg");
        let lists: Vec<CardList> = ["cards-a-l.csv", "cards-m-z.csv"]
            .into_iter()
            .map(|file| CardList {
                game: "mtg".into(),
                manifest: manifest(file),
                text: std::fs::read_to_string(dir.join(file)).expect("the MTG card lists"),
            })
            .collect();
        arbiter::cards::Cards::build(&lists)
    })
}

/// Autocomplete over the MTG fixture's 34,953 cards: a misspelt prefix, and
/// three letters that most names hold.
#[divan::bench(args = ["lightn bol", "sol"])]
fn card_name_autocomplete_mtg(b: Bencher, typed: &str) {
    let cards = mtg_cards();
    b.bench(|| {
        cards
            .complete(divan::black_box(typed), Some("mtg"), 25)
            .len()
    });
}

/// The cards a question names, with "did you mean" for a misspelt one.
#[divan::bench]
fn cards_a_question_names(b: Bencher) {
    let app = app();
    let q = "my Card 4321 Frost Spirit blocks a Card 17 Embr Knight, who is exhausted";
    b.bench(|| {
        app.cards
            .named_in(divan::black_box(q), None, |w| app.index.word_use(w, None))
            .near
            .len()
    });
}

/// 400 characters of capitalised words no rule uses: the spans tried as
/// misspelt names are bounded (`MAX_NEAR_SPANS`).
#[divan::bench]
fn cards_a_title_case_question_names(b: Bencher) {
    let app = app();
    let q: String = (0..80)
        .map(|i| format!("Zorv{}q ", (b'a' + (i % 26) as u8) as char))
        .collect::<String>()
        .chars()
        .take(400)
        .collect();
    b.bench(|| {
        app.cards
            .named_in(divan::black_box(&q), None, |w| app.index.word_use(w, None))
            .near
            .len()
    });
}
