//! The semantic stage's sentence encoder (feature `semantic`): the
//! `minilm` crate (crates/minilm) behind the search's [`Encode`]; what the
//! search does with the vectors is in `search/semantic.rs`
//! (docs/SEARCH.md, "The semantic stage").

use crate::search::semantic::Encode;

pub use minilm::DIMS;

const _: () = assert!(DIMS == crate::search::semantic::DIMS);

/// The shipped encoder ([`minilm::Encoder`], whose methods it has) as the
/// search's [`Encode`].
pub struct Encoder(minilm::Encoder);

impl Encoder {
    /// [`minilm::Encoder::new`].
    pub fn new(weights: Vec<u8>, vocab: &str) -> Result<Encoder, String> {
        minilm::Encoder::new(weights, vocab).map(Encoder)
    }
}

impl std::ops::Deref for Encoder {
    type Target = minilm::Encoder;
    fn deref(&self) -> &minilm::Encoder {
        &self.0
    }
}

impl Encode for Encoder {
    fn encode(&self, text: &str) -> Vec<f32> {
        self.0.embed(text)
    }
}
