-- Whole-game matches: decisions, advance, adjust, notes, results, turn
-- notices, and exactly-once writes per interaction (docs/MATCHES.md).

-- JSON: what an event needs besides its play and ruling (who asked and
-- what was answered for a play waiting on a decision; an adjustment's field,
-- value and reason; a note's text; a result).
ALTER TABLE arbiter_match_events ADD COLUMN context TEXT;
-- The Discord interaction (or client request) id that wrote the event: a
-- replayed interaction finds its first result instead of writing again.
ALTER TABLE arbiter_match_events ADD COLUMN interaction TEXT;
-- Unix ms after which a decision this event waits on takes the rules' default.
ALTER TABLE arbiter_match_events ADD COLUMN deadline BIGINT;
CREATE UNIQUE INDEX arbiter_match_events_interaction ON arbiter_match_events (interaction);
CREATE INDEX arbiter_match_events_deadline ON arbiter_match_events (deadline);

-- 1: ping whose turn or decision it is after each recorded event; 0: do not.
ALTER TABLE arbiter_matches ADD COLUMN notify BIGINT NOT NULL DEFAULT 1;
-- JSON: how the match ended (winner, reason, rule), when it has a result.
ALTER TABLE arbiter_matches ADD COLUMN result TEXT;
