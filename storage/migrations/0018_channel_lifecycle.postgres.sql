-- 0018_channel_lifecycle.sql in PostgreSQL, which changes a CHECK constraint in place (the constraints are
-- named as PostgreSQL names a column's CHECK: <table>_<column>_check).
ALTER TABLE mma_matches DROP CONSTRAINT mma_matches_status_check;
ALTER TABLE mma_matches ADD CONSTRAINT mma_matches_status_check
    CHECK (status IN ('pending', 'live', 'over', 'declined', 'expired', 'abandoned'));
CREATE INDEX mma_matches_abandoned ON mma_matches (guild_id, status);

ALTER TABLE bossfight_raids DROP CONSTRAINT bossfight_raids_status_check;
ALTER TABLE bossfight_raids ADD CONSTRAINT bossfight_raids_status_check
    CHECK (status IN ('live', 'defeated', 'replaced', 'closed'));

ALTER TABLE mfd_battles ADD COLUMN closed_at TEXT;
