-- MMA Warriors Swiss tournaments (docs/rules/tournament.md): a game master opens one in a channel, members sign
-- up, and the bot pairs each round as member matches. The engine's whole state is stored after every step (a
-- round paired, a result, a withdrawal), so a restart, even a kill mid-round, resumes where it was.

CREATE TABLE mma_tournaments (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL,
    channel_id        INTEGER NOT NULL,
    created_by        INTEGER NOT NULL,        -- the game master who opened it
    status            TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    rounds            INTEGER,                 -- asked for; NULL: what the field needs (rules.tournament.default_rounds)
    starts_at         TEXT,                    -- when it starts on its own (ISO 8601 UTC); NULL: when the GM starts it
    message_id        INTEGER,                 -- the sign-up message, which becomes the live standings
    podium_message_id INTEGER,                 -- the podium, once posted
    state_json        TEXT,                    -- rules.tournament.TournamentState; NULL while signing up
    version           INTEGER NOT NULL DEFAULT 0,  -- bumped by every saved change; stale writes are refused
    created_at        TEXT NOT NULL,
    ended_at          TEXT                     -- finished or cancelled
);
CREATE UNIQUE INDEX mma_tournaments_one_open_per_channel ON mma_tournaments (channel_id)
    WHERE status IN ('signup', 'running');
CREATE INDEX mma_tournaments_by_guild ON mma_tournaments (guild_id, status);

-- Who signed up, in order; the field is fixed in the state when the tournament starts.
CREATE TABLE mma_tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES mma_tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    name          TEXT NOT NULL,
    joined_at     TEXT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

-- The member match each board of each round is played as.
CREATE TABLE mma_tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES mma_tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    match_id      INTEGER NOT NULL UNIQUE REFERENCES mma_matches (id),
    PRIMARY KEY (tournament_id, round, board)
);
