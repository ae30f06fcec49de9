-- The short message that pings the player a match waits for (issue 12); the next ping deletes it.
ALTER TABLE mma_matches ADD COLUMN ping_message_id INTEGER;
