-- A game whose channel was deleted ends (docs/architecture.md, "Servers and channels come and go"): an MMA match
-- is abandoned (RULINGS 8: not rated, no longer live, shown as abandoned in history), a boss raid is closed, and
-- a Marked for Death battle is closed (closed_at set; it keeps its one row and its outcome). Every row is kept.
--
-- SQLite cannot change a CHECK constraint in place, so mma_matches and bossfight_raids are rebuilt with every
-- row kept (the migration runner turns foreign keys off while it migrates and checks them before committing, so
-- the moves, results, attacks and players that reference these tables stay as they are).

CREATE TABLE mma_matches_new (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    message_id      INTEGER,
    player0_id      INTEGER NOT NULL,
    player0_name    TEXT NOT NULL,
    player1_id      INTEGER,
    player1_name    TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'live', 'over', 'declined', 'expired', 'abandoned')),
    seed            INTEGER NOT NULL,
    state_json      TEXT,
    feed_json       TEXT NOT NULL DEFAULT '[]',
    version         INTEGER NOT NULL DEFAULT 0,
    last_move_at    REAL NOT NULL,          -- unix time of the last change (of the abandonment, for an abandoned match)
    winner_slot     INTEGER,
    result_reason   TEXT,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ping_message_id INTEGER
);
INSERT INTO mma_matches_new (id, guild_id, channel_id, message_id, player0_id, player0_name, player1_id,
    player1_name, status, seed, state_json, feed_json, version, last_move_at, winner_slot, result_reason,
    created_at, ping_message_id)
SELECT id, guild_id, channel_id, message_id, player0_id, player0_name, player1_id, player1_name, status, seed,
    state_json, feed_json, version, last_move_at, winner_slot, result_reason, created_at, ping_message_id
FROM mma_matches;
DROP TABLE mma_matches;
ALTER TABLE mma_matches_new RENAME TO mma_matches;
CREATE INDEX mma_matches_active ON mma_matches (channel_id, status);
-- A member's abandoned matches, for their history.
CREATE INDEX mma_matches_abandoned ON mma_matches (guild_id, status);

CREATE TABLE bossfight_raids_new (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    boss_json        TEXT NOT NULL,
    max_hp           REAL NOT NULL,
    hp               REAL NOT NULL CHECK (hp >= 0),
    status           TEXT NOT NULL CHECK (status IN ('live', 'defeated', 'replaced', 'closed')),
    spawned_by       INTEGER NOT NULL,
    spawned_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at         TEXT,
    cooldown_seconds INTEGER NOT NULL DEFAULT 0 CHECK (cooldown_seconds >= 0)
);
INSERT INTO bossfight_raids_new (id, guild_id, channel_id, boss_json, max_hp, hp, status, spawned_by, spawned_at,
    ended_at, cooldown_seconds)
SELECT id, guild_id, channel_id, boss_json, max_hp, hp, status, spawned_by, spawned_at, ended_at, cooldown_seconds
FROM bossfight_raids;
DROP TABLE bossfight_raids;
ALTER TABLE bossfight_raids_new RENAME TO bossfight_raids;
CREATE UNIQUE INDEX bossfight_one_live_raid_per_channel ON bossfight_raids (channel_id) WHERE status = 'live';
CREATE INDEX bossfight_raids_by_channel ON bossfight_raids (channel_id, id);

-- When the battle's channel was deleted (utc_now_text); NULL while the channel is there.
ALTER TABLE mfd_battles ADD COLUMN closed_at TEXT;
