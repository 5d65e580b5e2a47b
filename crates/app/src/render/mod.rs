//! Renderers: turn replies into terminal text. (JSON is the replies' serde
//! form; Discord rendering lives with the Discord transport, but for the
//! markdown escapes, `markdown`, which a match log's notes need here too.)

pub mod markdown;
pub mod matches;
pub mod pictures;
pub mod text;
