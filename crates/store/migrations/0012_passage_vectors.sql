-- Passage vectors of the semantic stage, computed once for a server's
-- uploaded documents and kept here, so that a restart or another replica
-- does not embed them again (docs/IMPORT.md). Keyed by the model and the
-- 64-bit FNV-1a of the text embedded (as a signed BIGINT): a text embeds
-- to the same vector whichever server uploaded it. `vector` is the int8
-- vector as lower-case hex (one format for SQLite and PostgreSQL).
CREATE TABLE arbiter_passage_vectors (
    model    TEXT   NOT NULL,
    text_key BIGINT NOT NULL,
    vector   TEXT   NOT NULL,
    PRIMARY KEY (model, text_key)
);
