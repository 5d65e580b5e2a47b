-- Match tracking: one row per match, plus an append-only log of events.
-- One set for SQLite and PostgreSQL: only BIGINT and TEXT columns, ids
-- assigned by the application (no AUTOINCREMENT/SERIAL), JSON kept as TEXT
-- (see docs/MATCHES.md).

CREATE TABLE arbiter_matches (
    id          BIGINT  NOT NULL PRIMARY KEY,
    channel     TEXT    NOT NULL,
    game        TEXT    NOT NULL,
    -- JSON array of user ids, in seat order.
    players     TEXT    NOT NULL,
    -- 'active' or 'ended'.
    status      TEXT    NOT NULL,
    -- seq of the last event (0 before any): the optimistic-concurrency version.
    version     BIGINT  NOT NULL,
    started_by  TEXT    NOT NULL,
    started_at  BIGINT  NOT NULL,
    ended_at    BIGINT
);

-- At most one active match per channel or thread.
CREATE UNIQUE INDEX arbiter_matches_one_active
    ON arbiter_matches (channel) WHERE status = 'active';
CREATE INDEX arbiter_matches_by_channel ON arbiter_matches (channel, id);

CREATE TABLE arbiter_match_events (
    match_id  BIGINT NOT NULL REFERENCES arbiter_matches (id),
    seq       BIGINT NOT NULL,
    -- 'setup', 'play', 'undo' or 'end'.
    kind      TEXT   NOT NULL,
    actor     TEXT   NOT NULL,
    -- The line as typed (notation or YAML), for the log.
    input     TEXT,
    -- JSON: the play value, the ruling.
    play      TEXT,
    ruling    TEXT,
    -- JSON: the board after this event (without a play).
    state     TEXT   NOT NULL,
    -- For 'undo': the seq of the play it undoes.
    undoes    BIGINT,
    -- Unix time in milliseconds.
    at        BIGINT NOT NULL,
    PRIMARY KEY (match_id, seq)
);
