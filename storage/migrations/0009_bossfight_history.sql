-- Boss raid: a raid's record (RULINGS 7). Each attack keeps the part of its damage the boss's HP absorbed
-- (credited; the rest, damage - credited, is overkill) and whether it knocked its player out. A player's
-- totals in a raid, the final blow and a channel's finished raids are read from these rows, which stay
-- after the raid ends; bossfight_players keeps only what the player's next attack starts from.

ALTER TABLE bossfight_attacks ADD COLUMN credited REAL NOT NULL DEFAULT 0;
ALTER TABLE bossfight_attacks ADD COLUMN knocked_out INTEGER NOT NULL DEFAULT 0;

-- The attacks made before: one that left the boss above 0 was absorbed whole; the final blow is credited
-- with the HP the boss had left, which the raid's previous attack (or, for a first blow, its full HP) shows.
UPDATE bossfight_attacks SET credited = CASE
    WHEN boss_hp_after > 0 THEN damage
    ELSE coalesce(
        (SELECT earlier.boss_hp_after FROM bossfight_attacks AS earlier
         WHERE earlier.raid_id = bossfight_attacks.raid_id AND earlier.id < bossfight_attacks.id
         ORDER BY earlier.id DESC LIMIT 1),
        (SELECT raid.max_hp FROM bossfight_raids AS raid WHERE raid.id = bossfight_attacks.raid_id)
    )
END;
-- A deck left at 0 or below by the boss's damage knocked its player out (attacks made before the damage to
-- players counted have a deck_damage of 0 and knocked no one out).
UPDATE bossfight_attacks SET knocked_out = 1 WHERE deck_damage > 0 AND deck_hp_after <= 0;

-- A player's raids (a profile across raids) and a channel's finished raids, newest first.
CREATE INDEX bossfight_attacks_by_player ON bossfight_attacks (user_id, raid_id);
CREATE INDEX bossfight_raids_by_channel ON bossfight_raids (channel_id, id);
