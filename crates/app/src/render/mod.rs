//! Renderers: turn replies into terminal text. (JSON is the replies' serde
//! form; Discord rendering lives with the Discord transport.)

pub mod matches;
pub mod pictures;
pub mod text;
