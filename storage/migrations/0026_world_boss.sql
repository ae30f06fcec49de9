-- The world boss (RULINGS 9): one boss fought by every server at once. Its attacks are appended to
-- world_boss_attacks (an attack is acknowledged once that insert commits) and applied to the boss's HP in
-- batches, in the order they were stored, by one process at a time: the one holding the boss's lease
-- (applier, lease_until), under the boss row's lock. HP and credit are whole micro-HP, so they add up exactly.

CREATE TABLE world_bosses (
    id               INTEGER PRIMARY KEY,
    boss_json        TEXT NOT NULL,
    max_hp_micro     INTEGER NOT NULL CHECK (max_hp_micro > 0),
    hp_micro         INTEGER NOT NULL CHECK (hp_micro >= 0),
    status           TEXT NOT NULL CHECK (status IN ('live', 'felled', 'expired')),
    spawned_by       INTEGER NOT NULL,
    spawned_at       TEXT NOT NULL,
    ends_at          TEXT NOT NULL,
    cooldown_seconds INTEGER NOT NULL DEFAULT 0 CHECK (cooldown_seconds >= 0),
    final_attack_id  INTEGER,                -- the final blow, once it fell
    ended_at         TEXT,
    applied          INTEGER NOT NULL DEFAULT 0,  -- attacks applied so far
    applier          TEXT,                   -- the process applying its attacks, until lease_until
    lease_until      TEXT
);
-- One world boss at a time.
CREATE UNIQUE INDEX world_bosses_one_live ON world_bosses (status) WHERE status = 'live';

CREATE TABLE world_boss_attacks (
    id             INTEGER PRIMARY KEY,
    boss_id        INTEGER NOT NULL REFERENCES world_bosses (id),
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    damage         REAL NOT NULL,            -- dealt, before the boss's HP could absorb it
    deck_damage    REAL NOT NULL,            -- the boss's damage to the deck
    deck_hp_after  REAL NOT NULL,
    knocked_out    INTEGER NOT NULL DEFAULT 0,
    stored_at      TEXT NOT NULL,
    outcome        TEXT CHECK (outcome IN ('credited', 'final_blow', 'after_fall', 'after_end')),  -- NULL: pending
    credited_micro INTEGER,                  -- the HP it removed, once applied
    hp_after_micro INTEGER
);
CREATE INDEX world_boss_attacks_pending ON world_boss_attacks (boss_id, id) WHERE outcome IS NULL;
CREATE INDEX world_boss_attacks_by_guild ON world_boss_attacks (boss_id, guild_id, user_id);

-- What a member's next attack starts from (a revive by their server's game master resets it).
CREATE TABLE world_boss_players (
    boss_id        INTEGER NOT NULL REFERENCES world_bosses (id),
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    damage_taken   REAL NOT NULL DEFAULT 0,
    knocked_out    INTEGER NOT NULL DEFAULT 0,
    last_attack_at TEXT,
    version        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (boss_id, guild_id, user_id)
);

-- The announcements made in a server (its spawn, its end): the process that inserts the row posts it.
CREATE TABLE world_boss_posts (
    boss_id    INTEGER NOT NULL REFERENCES world_bosses (id),
    guild_id   INTEGER NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('spawn', 'end')),
    channel_id INTEGER NOT NULL,
    posted_at  TEXT NOT NULL,
    PRIMARY KEY (boss_id, guild_id, kind)
);

-- A server takes part once a game master chooses its world-boss channel.
ALTER TABLE guild_settings ADD COLUMN world_boss_channel_id INTEGER;
