//! The semantic stage's sentence encoder (feature `semantic`): the
//! `minilm` crate (crates/minilm) behind the search's [`Encode`]; what the
//! search does with the vectors is in `search/semantic.rs`
//! (docs/SEARCH.md, "The semantic stage").

use crate::search::semantic::Encode;

pub use minilm::{DIMS, Encoder};

const _: () = assert!(DIMS == crate::search::semantic::DIMS);

impl Encode for Encoder {
    fn encode(&self, text: &str) -> Vec<f32> {
        self.embed(text)
    }
}
