//! The engines' tests, in one binary: each file of this folder is a module
//! (one game's engine each, and the open-game checks). A binary apart from
//! tests/it so that the two build side by side.

#[path = "../common/mod.rs"]
mod common;

mod engine_ashes;
mod engine_grand_archive;
mod engine_legion;
mod engine_magewinds;
mod engine_open;
mod engine_ti4;
