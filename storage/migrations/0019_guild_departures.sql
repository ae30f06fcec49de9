-- The servers that removed the bot (GUILD_DELETE without `unavailable`), and when: their data is kept for
-- GUILD_RETENTION_DAYS, so a quick re-invite loses nothing, then erased (storage/lifecycle.py). A re-invite
-- deletes the row.
CREATE TABLE guild_departures (
    guild_id INTEGER NOT NULL PRIMARY KEY,
    left_at  REAL NOT NULL                 -- unix time
);
CREATE INDEX guild_departures_by_time ON guild_departures (left_at);
