-- One table for every game's uploads to a guild's roster (bossfight bosses, andor monsters), keyed by the
-- game's kind and rules.roster.name_key; it replaces bossfight_bosses and andor_monsters.

CREATE TABLE guild_uploads (
    guild_id    INTEGER NOT NULL,
    kind        TEXT NOT NULL,          -- 'boss' or 'monster'
    name_key    TEXT NOT NULL,          -- rules.roster.name_key of the entry's name
    entry_json  TEXT NOT NULL,          -- rules.bossfight.Boss or rules.andor.models.Monster
    uploaded_by INTEGER NOT NULL,
    uploaded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (guild_id, kind, name_key)
);

-- Monster keys were already name_key; boss keys were only lower-cased, so runs of spaces are collapsed
-- here (a name with more than eight spaces in a row keeps some, which only means retyping them).
INSERT OR REPLACE INTO guild_uploads (guild_id, kind, name_key, entry_json, uploaded_by, uploaded_at)
SELECT guild_id, 'boss', replace(replace(replace(trim(name_key), '  ', ' '), '  ', ' '), '  ', ' '),
       boss_json, uploaded_by, uploaded_at
FROM bossfight_bosses;

INSERT INTO guild_uploads (guild_id, kind, name_key, entry_json, uploaded_by, uploaded_at)
SELECT guild_id, 'monster', name_key, monster_json, uploaded_by, uploaded_at FROM andor_monsters;

DROP TABLE bossfight_bosses;
DROP TABLE andor_monsters;
