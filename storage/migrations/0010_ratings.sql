-- MMA ratings (rules/rating.py): each member's rating in a server, and the change every rated match made to it.
-- A match is rated once: its changes are keyed by (match_id, user_id), written in the transaction that ends it.

CREATE TABLE mma_ratings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL NOT NULL,             -- the rating; players see it rounded
    sigma      REAL NOT NULL,             -- its deviation
    games      INTEGER NOT NULL,          -- rated games
    updated_at REAL NOT NULL,             -- unix time of the last rated match
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX mma_ratings_by_rating ON mma_ratings (guild_id, mu);

CREATE TABLE mma_rating_changes (
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
    rated_at     REAL NOT NULL,           -- unix time, as mma_results.finished_at
    UNIQUE (match_id, user_id)
);
CREATE INDEX mma_rating_changes_by_player ON mma_rating_changes (guild_id, user_id, rated_at);
