-- /deck: every optimization while it runs, with its last checkpoint, so that a restart (clean or a crash) resumes
-- it where the checkpoint left it, with the result it would have had. A row goes when its job ends.

CREATE TABLE deck_jobs (
    id          TEXT PRIMARY KEY,   -- the job's id, in its Cancel button's custom id
    guild_id    INTEGER,            -- NULL: a direct message
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,            -- the progress message; NULL until it is posted
    user_id     INTEGER NOT NULL,
    requester   TEXT NOT NULL,      -- the member's display name when they started it, as the message shows it
    opponent_file TEXT,             -- the attached opponent's file name; NULL: a random deck from the seed
    state_json  TEXT NOT NULL,      -- the settings and the last checkpoint (storage.deck.JOB_STATE)
    seconds     REAL NOT NULL,      -- work done up to the checkpoint, by every process that ran it
    started_at  TEXT NOT NULL,
    saved_at    TEXT NOT NULL
);
CREATE INDEX deck_jobs_by_member ON deck_jobs (guild_id, user_id);
