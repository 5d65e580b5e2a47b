-- Passage vectors of the semantic stage, computed once for a server's
-- uploaded documents and kept here, so that a restart or another replica
-- does not embed them again (docs/IMPORT.md). Keyed by the model (its name
-- and a digest of its files) and the SHA-256 of the text embedded: a text
-- embeds to the same vector whichever server uploaded it, and no server
-- can choose a text whose key is another's. `vector` is the int8 vector as
-- lower-case hex (one format for SQLite and PostgreSQL).
CREATE TABLE arbiter_passage_vectors (
    model       TEXT NOT NULL,
    text_sha256 TEXT NOT NULL,
    vector      TEXT NOT NULL,
    PRIMARY KEY (model, text_sha256)
);
