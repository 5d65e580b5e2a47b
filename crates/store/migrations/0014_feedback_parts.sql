-- The parts of a multi-part `/rule` question as answered (JSON array of
-- {"question", "best"}: each part's words and the passage shown first for
-- it), so a 👍 on such an answer is exported part by part, each in its own
-- game (it was exported as one question of the first part's game). NULL
-- for a one-part question. Additive.
ALTER TABLE arbiter_feedback_asks ADD COLUMN parts TEXT;
ALTER TABLE arbiter_feedback ADD COLUMN parts TEXT;
