-- Andor's Trail: the public message that shows a fight, so `/andor fight` during a fight brings that one
-- message up to date instead of posting a second board (NULL for fights started before).
ALTER TABLE andor_fights ADD COLUMN message_id INTEGER;
