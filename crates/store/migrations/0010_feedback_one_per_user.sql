-- One vote (👍 or 👎) and one right rule per user per answer, held by the
-- database itself so that two replicas, or a press and Discord's retry of
-- an older one, cannot count twice: `vote_key` names the user's vote on
-- the answer (server, answer key, user, and `vote` or `right`), unique;
-- `Store::add_feedback` writes with ON CONFLICT, the newest press winning.
-- Rows from before keep their latest per key; rows tied at the same
-- millisecond keep no key (they stay as they were, counted as before).

ALTER TABLE arbiter_feedback ADD COLUMN vote_key TEXT;

UPDATE arbiter_feedback
SET vote_key = guild || '|' || ask || '|' || user_id || '|'
    || CASE WHEN verdict = 'right' THEN 'right' ELSE 'vote' END;

DELETE FROM arbiter_feedback
WHERE at < (SELECT MAX(f2.at) FROM arbiter_feedback f2 WHERE f2.vote_key = arbiter_feedback.vote_key);

UPDATE arbiter_feedback SET vote_key = NULL
WHERE vote_key IN (
    SELECT vote_key FROM arbiter_feedback GROUP BY vote_key HAVING COUNT(*) > 1
);

CREATE UNIQUE INDEX arbiter_feedback_one_per_user ON arbiter_feedback (vote_key);
