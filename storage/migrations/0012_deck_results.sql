-- /deck: the result of every optimization that ended in a server (finished, cancelled or stopped by a restart),
-- as measured afresh after the run: the result deck's wins, losses and ties, from which its winrate and 95%
-- interval follow. A member's best is their profile's (/arena profile); runs before this migration were not kept.

CREATE TABLE deck_results (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    user_id         INTEGER NOT NULL,
    seed            INTEGER NOT NULL,   -- replays the run
    iterations      INTEGER NOT NULL,   -- asked for
    iterations_done INTEGER NOT NULL,   -- fewer when cancelled or stopped
    games           INTEGER NOT NULL,   -- per iteration
    opponent_file   TEXT,               -- the attached opponent's file name; NULL: a random deck from the seed
    wins            INTEGER NOT NULL,   -- the result deck's fresh measurement against the opponent
    losses          INTEGER NOT NULL,
    ties            INTEGER NOT NULL,
    winrate         REAL NOT NULL,      -- wins / (wins + losses + ties), kept to order by
    finished_at     TEXT NOT NULL
);
CREATE INDEX deck_results_by_member ON deck_results (guild_id, user_id, winrate);
