//! Arbiter's sentence encoder: all-MiniLM-L6-v2 (shipped as
//! models/all-minilm-l6-v2, Apache-2.0) run in plain Rust from bytes the
//! caller has read (no I/O here). A crate of its own so that debug builds
//! compile it optimised (Cargo.toml's `profile.dev.package.minilm`): the
//! tests that ask questions embed each one.

mod bert;
mod wordpiece;

pub use wordpiece::WordPiece;

/// Dimensions of a vector.
pub const DIMS: usize = bert::HIDDEN;
/// Word pieces a text is cut to, `[CLS]` and `[SEP]` included (the model's
/// `max_seq_length`).
pub const MAX_TOKENS: usize = 256;

/// The encoder: tokenizer and model.
pub struct Encoder {
    tokenizer: WordPiece,
    model: bert::Bert,
}

impl Encoder {
    /// From the model file's bytes (f16 safetensors; kept, the matrices
    /// are read in place) and `vocab.txt`.
    pub fn new(weights: Vec<u8>, vocab: &str) -> Result<Encoder, String> {
        let tokenizer = WordPiece::new(vocab)?;
        let model = bert::Bert::from_safetensors(weights, vocab.lines().count())?;
        Ok(Encoder { tokenizer, model })
    }

    /// The token ids the model reads for `text`: `[CLS]`, its pieces, `[SEP]`.
    pub fn token_ids(&self, text: &str) -> Vec<u32> {
        let max = MAX_TOKENS.min(self.model.max_positions) - 2;
        let mut ids = vec![self.tokenizer.cls];
        ids.extend(self.tokenizer.ids(text, max));
        ids.push(self.tokenizer.sep);
        ids
    }

    /// The text's unit vector ([`DIMS`] dimensions).
    pub fn embed(&self, text: &str) -> Vec<f32> {
        self.model.embed(&self.token_ids(text))
    }
}
