-- A match pins the rule-set version of its server it started with
-- (issue 16): its citations resolve against that version after later
-- uploads, and `/match board` says when a newer one exists. Additive:
-- matches started before have neither (they use the server's current set).

-- The server (guild id, or the console's rule set) the match was started in.
ALTER TABLE arbiter_matches ADD COLUMN guild TEXT;
-- That server's rule-set version when the match started (0: no documents).
ALTER TABLE arbiter_matches ADD COLUMN rule_set_version BIGINT;
