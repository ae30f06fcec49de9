-- MMA Warriors: matches (a challenge, then a live match, then a result), every move, and per-guild records.

CREATE TABLE mma_matches (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    message_id    INTEGER,                -- the public match message, once posted
    player0_id    INTEGER NOT NULL,       -- the challenger (or the human against the AI); moves first
    player0_name  TEXT NOT NULL,
    player1_id    INTEGER,                -- NULL: the AI
    player1_name  TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('pending', 'live', 'over', 'declined', 'expired')),
    seed          INTEGER NOT NULL,
    state_json    TEXT,                   -- rules.mma.GameState.to_dict(); NULL while the challenge is pending
    feed_json     TEXT NOT NULL DEFAULT '[]',  -- the last lines of the action feed
    version       INTEGER NOT NULL DEFAULT 0,  -- bumped by every saved change; stale writes are refused
    last_move_at  REAL NOT NULL,          -- unix time of the last change, for idle claims
    winner_slot   INTEGER,                -- 0 or 1 once over; NULL for a draw
    result_reason TEXT,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX mma_matches_active ON mma_matches (channel_id, status);

CREATE TABLE mma_moves (
    match_id    INTEGER NOT NULL REFERENCES mma_matches (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,          -- the engine's move number
    slot        INTEGER NOT NULL,          -- 0 or 1
    action_json TEXT NOT NULL,             -- rules.mma.Action.to_dict()
    made_at     REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
);

CREATE TABLE mma_results (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    match_id    INTEGER NOT NULL REFERENCES mma_matches (id) ON DELETE CASCADE,
    outcome     TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    opponent_id INTEGER,                   -- NULL: the AI
    reason      TEXT NOT NULL,
    finished_at REAL NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX mma_results_by_player ON mma_results (guild_id, user_id);

CREATE TABLE mma_fielded (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    match_id INTEGER NOT NULL REFERENCES mma_matches (id) ON DELETE CASCADE,
    fighter  TEXT NOT NULL,                -- the fighter's name
    won      INTEGER NOT NULL,             -- 1 if this player won that match
    PRIMARY KEY (match_id, user_id, fighter)
);
CREATE INDEX mma_fielded_by_player ON mma_fielded (guild_id, user_id);
