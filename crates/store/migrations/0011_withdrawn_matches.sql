-- Matches withdrawn before anything was recorded in them (`match undo` on
-- an empty match that followed another in its channel), by the interaction
-- that withdrew them: the same interaction delivered again answers as the
-- first did instead of undoing the match before.
CREATE TABLE arbiter_withdrawn_matches (
    interaction TEXT PRIMARY KEY,
    channel     TEXT NOT NULL,
    match_id    BIGINT NOT NULL,
    at          BIGINT NOT NULL
);
