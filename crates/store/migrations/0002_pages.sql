-- Pager pages of long replies (issue 14): kept in the database so that any
-- replica serves any ◀ Previous / Next ▶ button. One row per page; rows
-- older than 15 minutes (an interaction token's lifetime) are deleted as
-- new ones are written (see src/bot/pages.rs).

CREATE TABLE arbiter_pages (
    -- The pager key in the buttons' custom ids (16 hex digits, random).
    pager       TEXT    NOT NULL,
    -- 0-based page number.
    page        BIGINT  NOT NULL,
    -- Unix time in milliseconds.
    created_at  BIGINT  NOT NULL,
    -- JSON: the page as a message (title, body, footer, buttons).
    message     TEXT    NOT NULL,
    PRIMARY KEY (pager, page)
);

CREATE INDEX arbiter_pages_by_age ON arbiter_pages (created_at);
