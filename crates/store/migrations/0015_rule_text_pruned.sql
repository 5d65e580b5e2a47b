-- A server's history of replaced and removed documents may be pruned
-- (docs/IMPORT.md, "Per-server rule sets"): the text of an add that a later
-- change replaced or removed, when no open match pins a version it was
-- live at, is deleted (`body` set to NULL) and the row kept, with when, so
-- `rules versions` still lists the change and `rules history` says the
-- text is gone. NULL: the text is kept.
ALTER TABLE arbiter_rule_changes ADD COLUMN pruned_at BIGINT;
