//! Arbiter: a rules assistant for tabletop games.
//!
//! The `arbiter` binary and its CLI, over the workspace's crates, which this
//! library re-exports: the I/O-free core ([`corpus`], [`search`],
//! [`engine`]); [`load`] reads rule data from disk; [`app`] turns requests
//! into structured replies; [`render`] turns replies into text; [`store`]
//! keeps matches; [`bot`] is the Discord transports and the console. See
//! `docs/ARCHITECTURE.md`.

// The crates of the workspace, by the paths the binary, the tests, the
// benches and the examples name them (docs/ARCHITECTURE.md, the crate table).
#[cfg(feature = "semantic")]
pub use arbiter_app::semantic;
pub use arbiter_app::{app, heap, load, render, sandbox};
pub use arbiter_bot as bot;
pub use arbiter_engine as engine;
pub use arbiter_metrics as metrics;
pub use arbiter_rules::{cards, corpus, search};
pub use arbiter_store as store;
pub use arbiter_text as text;

/// Every binary, test, bench and example of this package allocates with
/// mimalloc (the default `mimalloc` feature; docs/ARCHITECTURE.md,
/// `heap.rs` and "Decisions"), counted per thread by [`heap::Counting`] (what an index
/// keeps is measured, not estimated).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: heap::Counting<mimalloc::MiMalloc> = heap::Counting(mimalloc::MiMalloc);

#[cfg(not(feature = "mimalloc"))]
#[global_allocator]
static GLOBAL: heap::Counting<std::alloc::System> = heap::Counting(std::alloc::System);
