-- Boss raid: the boss's damage to each player accumulates over a raid; a player at 0 or below is knocked
-- out until a GM revives them; a raid may set a cooldown between a player's attacks (RULINGS 6).

ALTER TABLE bossfight_raids ADD COLUMN cooldown_seconds INTEGER NOT NULL DEFAULT 0 CHECK (cooldown_seconds >= 0);

-- The damage the boss dealt the deck in that attack (0 for attacks made before this migration).
ALTER TABLE bossfight_attacks ADD COLUMN deck_damage REAL NOT NULL DEFAULT 0;

CREATE TABLE bossfight_players (
    raid_id        INTEGER NOT NULL REFERENCES bossfight_raids (id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL,
    damage_taken   REAL NOT NULL DEFAULT 0,     -- since the raid began, or since a GM's revive
    knocked_out    INTEGER NOT NULL DEFAULT 0,
    last_attack_at REAL,                        -- unix seconds of the player's last attack, for the cooldown
    version        INTEGER NOT NULL DEFAULT 0,  -- every change adds 1: two attacks at once cannot both apply
    PRIMARY KEY (raid_id, user_id)
);
