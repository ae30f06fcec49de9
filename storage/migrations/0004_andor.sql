-- Andor's Trail: characters per guild member, the guild's uploaded monsters, and fights (one live fight
-- per member per guild; every click is one versioned update).

CREATE TABLE andor_characters (
    guild_id       INTEGER NOT NULL,
    user_id        INTEGER NOT NULL,
    character_json TEXT NOT NULL,       -- rules.andor.models.Character
    updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE andor_monsters (
    guild_id     INTEGER NOT NULL,
    name_key     TEXT NOT NULL,         -- lower-cased name: an upload replaces a monster of the same name
    monster_json TEXT NOT NULL,         -- rules.andor.models.Monster
    uploaded_by  INTEGER NOT NULL,
    uploaded_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, name_key)
);

CREATE TABLE andor_fights (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    seed        INTEGER NOT NULL,       -- click n draws from random.Random(f"{seed}:{n}")
    version     INTEGER NOT NULL DEFAULT 0,
    status      TEXT NOT NULL CHECK (status IN ('live', 'won', 'lost', 'fled')),
    target      INTEGER NOT NULL DEFAULT 0,  -- the monster the Attack button hits
    state_json  TEXT NOT NULL,          -- rules.andor.models.FightState
    xp_change   INTEGER,                -- once over: XP gained (or lost, negative)
    level_after INTEGER,
    xp_after    INTEGER,
    started_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at    TEXT
);
CREATE UNIQUE INDEX andor_one_live_fight_per_member ON andor_fights (guild_id, user_id) WHERE status = 'live';
