-- Each server's own settings (RULINGS 8, "Servers"): its game-master role, by id. A server without a row, or
-- with a NULL role, takes the bot's GM_ROLE setting (a role name); Manage Server always counts.

CREATE TABLE guild_settings (
    guild_id   INTEGER NOT NULL,
    gm_role_id INTEGER,                 -- NULL: the bot's GM_ROLE
    updated_at TEXT NOT NULL,
    PRIMARY KEY (guild_id)
);
