-- Whether the match's replies carry a picture of the board (issue 31):
-- `match pictures on|off`; off leaves a "Picture" button instead.
ALTER TABLE arbiter_matches ADD COLUMN pictures BIGINT NOT NULL DEFAULT 1;
