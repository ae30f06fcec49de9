-- The monsters a fight's player killed, written when the fight ends, so a member's kills are a sum and not a
-- decoding of every fight they ever had. Fights that ended before this migration keep NULL: their kills are
-- counted from their stored state.
ALTER TABLE andor_fights ADD COLUMN kills INTEGER;
