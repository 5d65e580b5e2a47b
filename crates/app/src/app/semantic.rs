//! The semantic stage's files: the shipped model (feature `semantic`;
//! `models/all-minilm-l6-v2`, found the way `rules_data` is), the embedding
//! of passages, and the
//! passage vectors computed ahead for shipped rule data
//! (`semantic-vectors.bin` in a rule folder), read here and handed to the
//! I/O-free search (`search/semantic.rs`). docs/SEARCH.md, "The semantic stage".

use std::path::{Path, PathBuf};
#[cfg(feature = "semantic")]
use std::sync::{Arc, OnceLock};

use crate::corpus::{Corpus, PassageIdx};
use crate::search::semantic::{self, Encode, Known};

/// The vectors file in a rule folder.
pub const VECTORS_FILE: &str = "semantic-vectors.bin";
/// The model's folder name under `models/`, and the name its stored
/// passage vectors are kept under (`Store::passage_vectors`).
pub const MODEL: &str = "all-minilm-l6-v2";

/// The model as stored vectors name it: its folder name and a digest of its
/// files (configuration, vocabulary, the weights' size and first and last
/// 64 KiB), so that other weights under the same name never read vectors
/// another model made. Computed once, from [`default_model_dir`].
pub fn model_key() -> &'static str {
    static KEY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    KEY.get_or_init(|| {
        let dir = default_model_dir();
        let mut bytes = Vec::new();
        for file in ["config.json", "vocab.txt"] {
            bytes.extend(std::fs::read(dir.join(file)).unwrap_or_default());
        }
        if let Ok(edges) = weight_edges(&dir.join("model.f16.safetensors")) {
            bytes.extend(edges);
        }
        let digest = crate::corpus::import::sha256_hex(&bytes);
        format!("{MODEL}:{}", &digest[..16])
    })
}

/// A weights file's size and its first and last 64 KiB, read without the
/// 45 MB between (the encoder reads those once, elsewhere).
fn weight_edges(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let edge = len.min(64 * 1024);
    let mut out = len.to_le_bytes().to_vec();
    let mut head = vec![0; edge as usize];
    file.read_exact(&mut head)?;
    let mut tail = vec![0; edge as usize];
    file.seek(SeekFrom::Start(len - edge))?;
    file.read_exact(&mut tail)?;
    out.extend(head);
    out.extend(tail);
    Ok(out)
}

/// The model's folder: `$ARBITER_MODEL`, else `./models/all-minilm-l6-v2`,
/// else `models/all-minilm-l6-v2` beside the executable, else the source
/// tree's.
pub fn default_model_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("ARBITER_MODEL") {
        return PathBuf::from(dir);
    }
    let cwd = Path::new("models").join(MODEL);
    if cwd.is_dir() {
        return cwd;
    }
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|p| p.join("models").join(MODEL)))
        && dir.is_dir()
    {
        return dir;
    }
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("models")
        .join(MODEL)
}

/// Loads the encoder from a model folder (`model.f16.safetensors`, `vocab.txt`).
#[cfg(feature = "semantic")]
pub fn load_encoder(dir: &Path) -> Result<crate::semantic::Encoder, String> {
    let weights = std::fs::read(dir.join("model.f16.safetensors"))
        .map_err(|e| format!("{}: {e}", dir.join("model.f16.safetensors").display()))?;
    let vocab = std::fs::read_to_string(dir.join("vocab.txt"))
        .map_err(|e| format!("{}: {e}", dir.join("vocab.txt").display()))?;
    crate::semantic::Encoder::new(weights, &vocab)
}

/// The process's encoder, loaded once from [`default_model_dir`]; `None`
/// (the search stays lexical, with a warning) when it cannot be loaded.
#[cfg(feature = "semantic")]
pub fn encoder() -> Option<Arc<dyn Encode>> {
    static ENCODER: OnceLock<Option<Arc<dyn Encode>>> = OnceLock::new();
    ENCODER
        .get_or_init(|| {
            let dir = default_model_dir();
            match load_encoder(&dir) {
                Ok(e) => Some(Arc::new(e) as Arc<dyn Encode>),
                Err(e) => {
                    tracing::warn!(error = %e, "no semantic model: the search is lexical only");
                    None
                }
            }
        })
        .clone()
}

/// The vectors computed ahead in these rule folders (a folder without the
/// file, or with an unreadable one, adds none).
pub fn read_vectors(dirs: &[&Path]) -> Known {
    let mut known = Known::default();
    for dir in dirs {
        let path = dir.join(VECTORS_FILE);
        match std::fs::read(&path).map(|b| semantic::read_known(&b)) {
            Ok(Ok(k)) => known.extend(k),
            Ok(Err(e)) => tracing::warn!(path = %path.display(), error = %e, "vectors ignored"),
            Err(_) => {}
        }
    }
    known
}

/// The texts embedded for these passages of `corpus` (those
/// `search::semantic::missing` found without a vector), each once.
pub fn missing_texts(corpus: &Corpus, missing: &[PassageIdx]) -> Vec<String> {
    let mut texts: Vec<String> = missing
        .iter()
        .map(|&i| semantic::passage_text(corpus, i))
        .collect();
    texts.sort_unstable();
    texts.dedup();
    texts
}

/// The vectors of `texts` by the key of their text, embedded on `threads`
/// threads (one: on the calling thread, at its priority).
pub fn embed(texts: &[String], encoder: &dyn Encode, threads: usize) -> Known {
    let one = |t: &String| (semantic::key(t), semantic::quantize(&encoder.encode(t)));
    if threads <= 1 {
        return texts.iter().map(one).collect();
    }
    let chunk = texts.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = texts
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().map(one).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            // A thread that panicked panics here too: never a vectors file
            // that silently lacks its passages.
            .flat_map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    })
}

/// Exactly the vectors of `corpus`'s passages: from `old` when their text
/// is unchanged, the others embedded on `threads` threads (`arbiter
/// semantic vectors`); with how many were embedded.
pub fn complete(
    corpus: &Corpus,
    old: &Known,
    encoder: &dyn Encode,
    threads: usize,
) -> (Known, usize) {
    let mut known: Known = (0..corpus.passages.len())
        .filter_map(|i| {
            let k = semantic::key(&semantic::passage_text(corpus, i));
            old.get(&k).map(|v| (k, *v))
        })
        .collect();
    let todo = missing_texts(corpus, &semantic::missing(corpus, &known));
    let done = embed(&todo, encoder, threads);
    let embedded = done.len();
    known.extend(done);
    (known, embedded)
}
