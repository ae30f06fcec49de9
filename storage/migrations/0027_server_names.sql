-- Each server's name as Discord last told the bot (on joining it, on every start-up, and when it is renamed), so
-- that the server's web pages and the world boss's board can say which server they are about. Server data: erased
-- with the server.

CREATE TABLE server_names (
    guild_id INTEGER PRIMARY KEY,
    name     TEXT NOT NULL
);
