-- How an MMA match ended is kept as a code (rules.mma.state.EndReason's values), not as the words its end screen
-- shows (EndReason's labels): rewording a label then changes no row. The match's state keeps its code too; the
-- states stored before read through their codec's upgrade (storage/mma.py, version 2 -> 3).
UPDATE mma_matches SET result_reason = CASE result_reason
    WHEN 'Health depleted' THEN 'health_depleted'
    WHEN 'No fighters in hand' THEN 'no_fighters'
    WHEN 'Deck Out' THEN 'deck_out'
    WHEN 'Judges'' decision' THEN 'judges'
    WHEN 'Conceded' THEN 'conceded'
    WHEN 'Opponent idle' THEN 'idle'
    WHEN 'channel deleted' THEN 'channel_deleted'
    ELSE result_reason END
WHERE result_reason IS NOT NULL;

UPDATE mma_results SET reason = CASE reason
    WHEN 'Health depleted' THEN 'health_depleted'
    WHEN 'No fighters in hand' THEN 'no_fighters'
    WHEN 'Deck Out' THEN 'deck_out'
    WHEN 'Judges'' decision' THEN 'judges'
    WHEN 'Conceded' THEN 'conceded'
    WHEN 'Opponent idle' THEN 'idle'
    ELSE reason END;

UPDATE mma_rating_changes SET reason = CASE reason
    WHEN 'Health depleted' THEN 'health_depleted'
    WHEN 'No fighters in hand' THEN 'no_fighters'
    WHEN 'Deck Out' THEN 'deck_out'
    WHEN 'Judges'' decision' THEN 'judges'
    WHEN 'Conceded' THEN 'conceded'
    WHEN 'Opponent idle' THEN 'idle'
    ELSE reason END;
