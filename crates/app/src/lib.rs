//! Arbiter's application layer: [`app`] turns a request into a structured
//! reply, [`render`] turns replies into text and pictures, [`load`] reads
//! rule data from disk, [`sandbox`] converts untrusted documents in a child
//! process, [`heap`] counts what an index keeps, and `semantic` (feature
//! `semantic`) is the sentence encoder. Storage is `arbiter-store`; the
//! I/O-free core is `arbiter-rules` and `arbiter-engine`. See
//! `docs/ARCHITECTURE.md`.

pub mod app;
pub mod heap;
pub mod load;
pub mod render;
pub mod sandbox;
#[cfg(feature = "semantic")]
pub mod semantic;

// What this crate names by the paths it always used.
pub(crate) use arbiter_engine as engine;
pub(crate) use arbiter_metrics as metrics;
pub(crate) use arbiter_rules::{cards, corpus, search};
pub(crate) use arbiter_store as store;
pub(crate) use arbiter_text as text;

/// This crate's own unit tests count allocations as the binary does
/// (`arbiter`'s global allocator, which they do not link): `heap`'s tests
/// measure what an index keeps.
#[cfg(test)]
#[global_allocator]
static TESTS: heap::Counting<std::alloc::System> = heap::Counting(std::alloc::System);
