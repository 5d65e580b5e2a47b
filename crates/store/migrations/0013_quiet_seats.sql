-- Turn notices per seat: `match notify off` by a player silences that
-- player's own "your turn" pings (bit `1 << seat`); `notify` stays the
-- whole match's switch, a moderator's. One player had silenced the other's.
ALTER TABLE arbiter_matches ADD COLUMN quiet_seats BIGINT NOT NULL DEFAULT 0;
-- A match silenced before this switch was anyone's: each seat's own now
-- (at most 16 seats), so every player can turn theirs back on.
UPDATE arbiter_matches SET quiet_seats = 65535, notify = 1 WHERE notify = 0;
