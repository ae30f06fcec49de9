-- Marked for Death: each channel's battle (at most one), stored after every run so a GM can continue it.

CREATE TABLE mfd_battles (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL UNIQUE,   -- a new battle in the channel replaces the old one
    state_zlib     BLOB NOT NULL,             -- zlib-compressed JSON of rules.mfd.models.BattleState
    seed           INTEGER NOT NULL,
    rounds_fought  INTEGER NOT NULL CHECK (rounds_fought >= 0),
    outcome        TEXT NOT NULL CHECK (outcome IN ('heroes', 'villains', 'draw', 'round_limit')),
    heroes_left    INTEGER NOT NULL,
    villains_left  INTEGER NOT NULL,
    version        INTEGER NOT NULL DEFAULT 1, -- bumped by every run, so two runs at once cannot both apply
    started_by     INTEGER NOT NULL,
    updated_by     INTEGER NOT NULL,
    started_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
