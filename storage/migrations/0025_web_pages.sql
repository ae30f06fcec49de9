-- Arena on the web (web/): a server's pages exist only once its game master turns them on in /arena-settings
-- (off by default), and a member may hide their own pages there (/arena web-pages).

ALTER TABLE guild_settings ADD COLUMN web_pages INTEGER NOT NULL DEFAULT 0;  -- 1: the server's pages are served

-- The members of a server who hid their pages: no page of theirs, their name on no other page.
CREATE TABLE web_hidden_members (
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    hidden_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
