-- Boss raid: the guild's uploaded bosses, saved decks, raids (one live per channel) and their attacks.

CREATE TABLE bossfight_bosses (
    guild_id    INTEGER NOT NULL,
    name_key    TEXT NOT NULL,          -- lower-cased name, for case-insensitive replacement
    boss_json   TEXT NOT NULL,          -- rules.bossfight.Boss
    uploaded_by INTEGER NOT NULL,
    uploaded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, name_key)
);

CREATE TABLE bossfight_decks (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    csv_text  TEXT NOT NULL,
    file_name TEXT NOT NULL,
    saved_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE bossfight_raids (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    boss_json    TEXT NOT NULL,         -- the boss as it was when spawned
    max_hp       REAL NOT NULL,
    hp           REAL NOT NULL CHECK (hp >= 0),
    status       TEXT NOT NULL CHECK (status IN ('live', 'defeated', 'replaced')),
    spawned_by   INTEGER NOT NULL,
    spawned_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at     TEXT
);
CREATE UNIQUE INDEX bossfight_one_live_raid_per_channel
    ON bossfight_raids (channel_id) WHERE status = 'live';

CREATE TABLE bossfight_attacks (
    id             INTEGER PRIMARY KEY,
    raid_id        INTEGER NOT NULL REFERENCES bossfight_raids (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    damage         REAL NOT NULL,
    deck_hp_after  REAL NOT NULL,
    boss_hp_after  REAL NOT NULL,
    attacked_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX bossfight_attacks_by_raid ON bossfight_attacks (raid_id);
