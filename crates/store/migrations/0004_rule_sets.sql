-- Per-server rule sets (issue 16): documents a server's moderators add
-- (`/rules add`, `arbiter rules add`). Append-only: every add or removal is
-- a new version of the server's rule set; no row is ever deleted, so any
-- version can be rebuilt (see docs/IMPORT.md).

CREATE TABLE arbiter_rule_changes (
    guild       TEXT    NOT NULL,
    -- The server's rule-set version this change made: 1, 2, … per guild.
    version     BIGINT  NOT NULL,
    -- 'add' or 'remove'.
    action      TEXT    NOT NULL,
    -- The document's id, `game:slug` (its root passage id).
    document    TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    -- JSON, for 'add': the game's name and the document's manifest entry
    -- (kind, title, source with the upload's SHA-256, sha256 of `body`).
    manifest    TEXT,
    -- For 'add': the converted document, as indexed and quoted.
    body        TEXT,
    actor       TEXT    NOT NULL,
    -- Unix time in milliseconds.
    at          BIGINT  NOT NULL,
    PRIMARY KEY (guild, version)
);

CREATE INDEX arbiter_rule_changes_by_document ON arbiter_rule_changes (guild, document, version);

-- Uploads waiting for Confirm: a preview was shown, nothing is live. Any
-- replica can confirm; rows older than 15 minutes are deleted.
CREATE TABLE arbiter_rule_pending (
    token       TEXT    NOT NULL PRIMARY KEY,
    guild       TEXT    NOT NULL,
    actor       TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    -- JSON: the game's name and the document's manifest entry.
    manifest    TEXT    NOT NULL,
    body        TEXT    NOT NULL
);

CREATE INDEX arbiter_rule_pending_by_age ON arbiter_rule_pending (created_at);
