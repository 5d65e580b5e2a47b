//! Arbiter: a rules assistant for tabletop games.
//!
//! The core ([`corpus`], [`search`]) is I/O-free. [`load`] reads rule data
//! from disk; [`app`] turns requests into structured replies; [`render`]
//! turns replies into text. See `docs/ARCHITECTURE.md`.

pub mod app;
pub mod bot;
pub mod cards;
pub mod corpus;
pub mod engine;
pub mod heap;
pub mod load;
pub mod metrics;
pub mod render;
pub mod sandbox;
pub mod search;
#[cfg(feature = "semantic")]
pub mod semantic;
pub mod store;
pub mod text;

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
