//! Arbiter: a rules assistant for tabletop games.
//!
//! The core ([`corpus`], [`search`]) is I/O-free. [`load`] reads rule data
//! from disk; [`app`] turns requests into structured replies; [`render`]
//! turns replies into text. See `docs/ARCHITECTURE.md`.

pub mod app;
// The I/O-free core, in crates of their own (crates/): named here by the
// paths the rest of this crate uses.
pub use arbiter_engine as engine;
pub use arbiter_rules::{cards, corpus, search};
pub use arbiter_text as text;
pub mod bot;
pub mod heap;
pub mod load;
pub mod metrics;
pub mod render;
pub mod sandbox;
#[cfg(feature = "semantic")]
pub mod semantic;
pub mod store;

/// Every binary, test, bench and example of this package allocates with
/// mimalloc (the default `mimalloc` feature; docs/ARCHITECTURE.md,
/// "Allocator"), counted per thread by [`heap::Counting`] (what an index
/// keeps is measured, not estimated).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: heap::Counting<mimalloc::MiMalloc> = heap::Counting(mimalloc::MiMalloc);

#[cfg(not(feature = "mimalloc"))]
#[global_allocator]
static GLOBAL: heap::Counting<std::alloc::System> = heap::Counting(std::alloc::System);
