-- Feedback on `/rule` answers (issue 29). What was asked and shown is kept
-- under the key its 👍/👎 buttons carry, so a press on any replica finds
-- the question; each verdict is a row of its own, per server. Read by
-- `arbiter feedback export` (the evaluation file's format) and by the
-- moderators' `/feedback summary`. Additive: no existing table changes.

CREATE TABLE arbiter_feedback_asks (
    key         TEXT    NOT NULL PRIMARY KEY,
    guild       TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    question    TEXT    NOT NULL,
    game        TEXT,
    -- JSON array of the passage ids shown, best first.
    shown       TEXT    NOT NULL,
    -- The reply's label: answer, closest or none.
    confidence  TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);

CREATE INDEX arbiter_feedback_asks_by_user ON arbiter_feedback_asks (guild, channel, user_id, created_at);

CREATE TABLE arbiter_feedback (
    guild       TEXT    NOT NULL,
    ask         TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    -- 'up', 'down', or 'right': the user named the rule that answers.
    verdict     TEXT    NOT NULL,
    -- For 'right': the passage id the user gave.
    rule        TEXT,
    question    TEXT    NOT NULL,
    game        TEXT,
    shown       TEXT    NOT NULL,
    confidence  TEXT    NOT NULL,
    at          BIGINT  NOT NULL
);

CREATE INDEX arbiter_feedback_by_guild ON arbiter_feedback (guild, at);
