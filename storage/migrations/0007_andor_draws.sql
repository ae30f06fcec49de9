-- Andor's Trail fights can end as a draw (RULINGS 6: 20 rounds without damage). SQLite cannot change a
-- CHECK constraint in place, so the table is rebuilt with every row kept.
CREATE TABLE andor_fights_new (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    seed        INTEGER NOT NULL,       -- move n draws from random.Random(f"{seed}:{n}") (rules.andor.engine)
    version     INTEGER NOT NULL DEFAULT 0,
    status      TEXT NOT NULL CHECK (status IN ('live', 'won', 'lost', 'fled', 'draw')),
    target      INTEGER NOT NULL DEFAULT 0,  -- the monster the Attack button hits (also in the state)
    state_json  TEXT NOT NULL,          -- rules.andor.models.FightState
    xp_change   INTEGER,                -- once over: XP gained (or lost, negative)
    level_after INTEGER,
    xp_after    INTEGER,
    started_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ended_at    TEXT
);
INSERT INTO andor_fights_new SELECT * FROM andor_fights;
DROP TABLE andor_fights;
ALTER TABLE andor_fights_new RENAME TO andor_fights;
CREATE UNIQUE INDEX andor_one_live_fight_per_member ON andor_fights (guild_id, user_id) WHERE status = 'live';
