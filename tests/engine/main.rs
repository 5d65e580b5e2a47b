//! The engines' tests, in one binary: each file of this folder is a module
//! (one game's engine each, the open-game checks, the example boards, and
//! the ruling snapshots all of them keep in `snapshots/`). A binary apart
//! from tests/it so that the two build side by side.

#[path = "../common/mod.rs"]
mod common;

mod board_errors;
mod engine_ashes;
mod engine_grand_archive;
mod engine_legion;
mod engine_magewinds;
mod engine_open;
mod engine_ti4;
mod examples;
mod snapshot;
