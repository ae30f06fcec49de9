-- The monster the Attack button hits is kept in the fight's state, which is what is read; this copy was written on
-- every click and never read.
ALTER TABLE andor_fights DROP COLUMN target;
