-- One way to keep a moment (storage/times.py): the times MMA, the ratings, the raid's cooldowns and the servers'
-- departures kept as REAL unix seconds become ISO 8601 UTC text to the millisecond, as every other table keeps
-- them (strftime('%Y-%m-%dT%H:%M:%fZ', ...)): fixed width with a Z, so the text orders as the moments do.
--
-- SQLite cannot change a column's type in place, so each table is rebuilt with every row kept, its time
-- converted (the migration runner turns foreign keys off while it migrates and checks them before committing).

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
    last_move_at    TEXT NOT NULL,          -- the last change (of the abandonment, for an abandoned match)
    winner_slot     INTEGER,
    result_reason   TEXT,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    ping_message_id INTEGER
);
INSERT INTO mma_matches_new (id, guild_id, channel_id, message_id, player0_id, player0_name, player1_id,
    player1_name, status, seed, state_json, feed_json, version, last_move_at, winner_slot, result_reason,
    created_at, ping_message_id)
SELECT id, guild_id, channel_id, message_id, player0_id, player0_name, player1_id, player1_name, status, seed,
    state_json, feed_json, version, strftime('%Y-%m-%dT%H:%M:%fZ', last_move_at, 'unixepoch'), winner_slot,
    result_reason, created_at, ping_message_id
FROM mma_matches;
DROP TABLE mma_matches;
ALTER TABLE mma_matches_new RENAME TO mma_matches;
CREATE INDEX mma_matches_active ON mma_matches (channel_id, status);
CREATE INDEX mma_matches_abandoned ON mma_matches (guild_id, status);

CREATE TABLE mma_moves_new (
    match_id    INTEGER NOT NULL REFERENCES mma_matches (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,          -- the engine's move number
    slot        INTEGER NOT NULL,          -- 0 or 1
    action_json TEXT NOT NULL,             -- rules.mma.Action.to_dict()
    made_at     TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
);
INSERT INTO mma_moves_new (match_id, seq, slot, action_json, made_at)
SELECT match_id, seq, slot, action_json, strftime('%Y-%m-%dT%H:%M:%fZ', made_at, 'unixepoch') FROM mma_moves;
DROP TABLE mma_moves;
ALTER TABLE mma_moves_new RENAME TO mma_moves;

CREATE TABLE mma_results_new (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    match_id    INTEGER NOT NULL REFERENCES mma_matches (id) ON DELETE CASCADE,
    outcome     TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    opponent_id INTEGER,                   -- NULL: the AI
    reason      TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
INSERT INTO mma_results_new (guild_id, user_id, match_id, outcome, opponent_id, reason, finished_at)
SELECT guild_id, user_id, match_id, outcome, opponent_id, reason,
    strftime('%Y-%m-%dT%H:%M:%fZ', finished_at, 'unixepoch')
FROM mma_results;
DROP TABLE mma_results;
ALTER TABLE mma_results_new RENAME TO mma_results;
CREATE INDEX mma_results_by_player ON mma_results (guild_id, user_id);

CREATE TABLE mma_ratings_new (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL NOT NULL,             -- the rating; players see it rounded
    sigma      REAL NOT NULL,             -- its deviation
    games      INTEGER NOT NULL,          -- rated games
    updated_at TEXT NOT NULL,             -- the last rated match
    PRIMARY KEY (guild_id, user_id)
);
INSERT INTO mma_ratings_new (guild_id, user_id, mu, sigma, games, updated_at)
SELECT guild_id, user_id, mu, sigma, games, strftime('%Y-%m-%dT%H:%M:%fZ', updated_at, 'unixepoch') FROM mma_ratings;
DROP TABLE mma_ratings;
ALTER TABLE mma_ratings_new RENAME TO mma_ratings;
CREATE INDEX mma_ratings_by_rating ON mma_ratings (guild_id, mu);

CREATE TABLE mma_rating_changes_new (
    match_id     INTEGER NOT NULL REFERENCES mma_matches (id),
    user_id      INTEGER NOT NULL,
    guild_id     INTEGER NOT NULL,
    opponent_id  INTEGER NOT NULL,
    result       TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
    reason       TEXT NOT NULL,           -- how the match ended (rules.mma.state.EndReason)
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    games_after  INTEGER NOT NULL,        -- rated games, this one included
    rated_at     TEXT NOT NULL,           -- as mma_results.finished_at
    UNIQUE (match_id, user_id)
);
INSERT INTO mma_rating_changes_new (match_id, user_id, guild_id, opponent_id, result, reason, mu_before,
    sigma_before, mu_after, sigma_after, games_after, rated_at)
SELECT match_id, user_id, guild_id, opponent_id, result, reason, mu_before, sigma_before, mu_after, sigma_after,
    games_after, strftime('%Y-%m-%dT%H:%M:%fZ', rated_at, 'unixepoch')
FROM mma_rating_changes;
DROP TABLE mma_rating_changes;
ALTER TABLE mma_rating_changes_new RENAME TO mma_rating_changes;
CREATE INDEX mma_rating_changes_by_player ON mma_rating_changes (guild_id, user_id, rated_at);

CREATE TABLE mma_rating_models_new (
    model         TEXT PRIMARY KEY,       -- rules.rating.MODEL_NAME the stored ratings were computed with
    recomputed_at TEXT NOT NULL,
    matches       INTEGER NOT NULL        -- rated matches recomputed
);
INSERT INTO mma_rating_models_new (model, recomputed_at, matches)
SELECT model, strftime('%Y-%m-%dT%H:%M:%fZ', recomputed_at, 'unixepoch'), matches FROM mma_rating_models;
DROP TABLE mma_rating_models;
ALTER TABLE mma_rating_models_new RENAME TO mma_rating_models;

CREATE TABLE bossfight_players_new (
    raid_id        INTEGER NOT NULL REFERENCES bossfight_raids (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    damage_taken   REAL NOT NULL DEFAULT 0,     -- since the raid began, or since a GM's revive
    knocked_out    INTEGER NOT NULL DEFAULT 0,
    last_attack_at TEXT,                        -- the player's last attack, for the cooldown
    version        INTEGER NOT NULL DEFAULT 0,  -- every change adds 1: two attacks at once cannot both apply
    PRIMARY KEY (raid_id, user_id)
);
INSERT INTO bossfight_players_new (raid_id, user_id, damage_taken, knocked_out, last_attack_at, version)
SELECT raid_id, user_id, damage_taken, knocked_out, strftime('%Y-%m-%dT%H:%M:%fZ', last_attack_at, 'unixepoch'),
    version
FROM bossfight_players;
DROP TABLE bossfight_players;
ALTER TABLE bossfight_players_new RENAME TO bossfight_players;

CREATE TABLE guild_departures_new (
    guild_id INTEGER NOT NULL PRIMARY KEY,
    left_at  TEXT NOT NULL
);
INSERT INTO guild_departures_new (guild_id, left_at)
SELECT guild_id, strftime('%Y-%m-%dT%H:%M:%fZ', left_at, 'unixepoch') FROM guild_departures;
DROP TABLE guild_departures;
ALTER TABLE guild_departures_new RENAME TO guild_departures;
CREATE INDEX guild_departures_by_time ON guild_departures (left_at);
