-- 0020_times_as_text.sql in PostgreSQL, which changes a column's type in place: each REAL (DOUBLE PRECISION)
-- unix time becomes ISO 8601 UTC text to the millisecond, as utc_now_text writes it.
ALTER TABLE mma_matches ALTER COLUMN last_move_at TYPE TEXT
    USING to_char(to_timestamp(last_move_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
ALTER TABLE mma_moves ALTER COLUMN made_at TYPE TEXT
    USING to_char(to_timestamp(made_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
ALTER TABLE mma_results ALTER COLUMN finished_at TYPE TEXT
    USING to_char(to_timestamp(finished_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
ALTER TABLE mma_ratings ALTER COLUMN updated_at TYPE TEXT
    USING to_char(to_timestamp(updated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
ALTER TABLE mma_rating_changes ALTER COLUMN rated_at TYPE TEXT
    USING to_char(to_timestamp(rated_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
ALTER TABLE mma_rating_models ALTER COLUMN recomputed_at TYPE TEXT
    USING to_char(to_timestamp(recomputed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
ALTER TABLE bossfight_players ALTER COLUMN last_attack_at TYPE TEXT
    USING to_char(to_timestamp(last_attack_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
ALTER TABLE guild_departures ALTER COLUMN left_at TYPE TEXT
    USING to_char(to_timestamp(left_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
