//! Arbiter's rule text, I/O-free: the corpus of citable passages and the
//! conversion of uploaded documents into it ([`corpus`]), the search index
//! over it ([`search`]) and the games' card lists ([`cards`]). Files are
//! read by the application crate (`arbiter::load`); this crate sees bytes
//! and strings only, and its manifest names no runtime, storage, network or
//! Discord crate.

pub mod cards;
pub mod corpus;
pub mod search;

/// The text helpers, under the path the modules here name them by.
pub(crate) use arbiter_text as text;
