-- Andor's Trail party fights (RULINGS 9): 2 to 4 members against one group of monsters in one message of a
-- channel. The engine's whole state is stored after every action (a member's click, a turn run out, a game
-- master's removal), with the moment the sign-up lapses or the turn runs out, so a restart resumes the fight and
-- runs out a turn that ran out while the bot was down.

CREATE TABLE andor_parties (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    opener_id       INTEGER NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('signup', 'live', 'won', 'lost', 'fled', 'draw', 'lapsed')),
    monster_json    TEXT NOT NULL,           -- rules.andor.models.Monster as the fight was opened
    monster_count   INTEGER NOT NULL,
    seed            INTEGER NOT NULL,        -- action n draws from random.Random(f"{seed}:{n}")
    monsters_first  INTEGER NOT NULL,        -- 1: the monsters take the first turn
    state_json      TEXT,                    -- rules.andor.party.PartyState; NULL while signing up
    deadline        TEXT NOT NULL,           -- the sign-up lapses, or the turn runs out, at this moment
    message_id      INTEGER,                 -- the one message that shows the party
    ping_message_id INTEGER,                 -- the latest "your turn" call
    version         INTEGER NOT NULL DEFAULT 0,  -- bumped by every saved change; stale writes are refused
    created_at      TEXT NOT NULL,
    ended_at        TEXT
);
CREATE INDEX andor_parties_open ON andor_parties (status, channel_id);

-- Who is in a party, in join order; `in_fight` is 1 while signed up or standing in the fight (a member is in
-- one fight at a time), and the character's change is kept once their part of the fight is over.
CREATE TABLE andor_party_members (
    party_id    INTEGER NOT NULL REFERENCES andor_parties (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    position    INTEGER NOT NULL,
    name        TEXT NOT NULL,
    in_fight    INTEGER NOT NULL DEFAULT 1,
    xp_change   INTEGER,
    level_after INTEGER,
    xp_after    INTEGER,
    PRIMARY KEY (party_id, user_id)
);
CREATE INDEX andor_party_members_by_member ON andor_party_members (guild_id, user_id, in_fight);

-- A server's party turn time in seconds (15 to 300); NULL: 60.
ALTER TABLE guild_settings ADD COLUMN party_turn_seconds INTEGER;
