"""Servers and channels come and go: the storage side (storage/lifecycle.py and its migrations)."""

from __future__ import annotations

import sqlite3

from storage.database import Database, discover_migrations

GUILD, CHANNEL = 10, 20


async def test_migration_0018_rebuilds_two_tables_and_keeps_the_rows_that_reference_them(tmp_path):
    # SQLite rebuilds mma_matches and bossfight_raids to change their CHECK; with foreign keys on, dropping the
    # old table would have deleted the moves, results, attacks and players with it.
    path = tmp_path / "arena.sqlite3"
    with sqlite3.connect(path) as old:
        old.execute("PRAGMA foreign_keys=ON")
        for number, migration in discover_migrations():
            if number < 18:
                old.executescript(migration.read_text(encoding="utf-8"))
        old.execute("PRAGMA user_version = 17")
        old.execute(
            "INSERT INTO mma_matches (id, guild_id, channel_id, player0_id, player0_name, player1_id, player1_name, "
            "status, seed, state_json, last_move_at, ping_message_id) "
            "VALUES (1, ?, ?, 100, 'A', 200, 'B', 'over', 7, '{}', 1.5, 55)",
            (GUILD, CHANNEL),
        )
        old.execute("INSERT INTO mma_moves (match_id, seq, slot, action_json, made_at) VALUES (1, 0, 0, '{}', 1.5)")
        old.execute(
            "INSERT INTO mma_results (guild_id, user_id, match_id, outcome, opponent_id, reason, finished_at) "
            "VALUES (?, 100, 1, 'win', 200, 'Conceded', 1.5)",
            (GUILD,),
        )
        old.execute(
            "INSERT INTO bossfight_raids (id, guild_id, channel_id, boss_json, max_hp, hp, status, spawned_by, "
            "cooldown_seconds) VALUES (3, ?, ?, '{}', 1000, 600, 'live', 1, 30)",
            (GUILD, CHANNEL),
        )
        old.execute(
            "INSERT INTO bossfight_attacks (raid_id, user_id, damage, deck_hp_after, boss_hp_after) "
            "VALUES (3, 100, 400, 1000, 600)"
        )
        old.execute("INSERT INTO bossfight_players (raid_id, user_id, damage_taken) VALUES (3, 100, 200)")
    db = await Database.open(path)
    try:
        assert [tuple(r) for r in await db.fetch_all("SELECT id, status, ping_message_id FROM mma_matches")] == [
            (1, "over", 55)
        ]
        for table in ("mma_moves", "mma_results", "bossfight_attacks", "bossfight_players"):
            assert [tuple(r) for r in await db.fetch_all(f"SELECT count(*) FROM {table}")] == [(1,)], table
        (raid,) = await db.fetch_all("SELECT status, cooldown_seconds FROM bossfight_raids")
        assert tuple(raid) == ("live", 30)
        async with db.transaction() as conn:  # the new statuses are allowed, and the old checks still hold
            await conn.execute("UPDATE bossfight_raids SET status = 'closed'")
            await conn.execute("UPDATE mma_matches SET status = 'abandoned'")
        assert [tuple(r) for r in await db.fetch_all("PRAGMA foreign_key_check")] == []
    finally:
        await db.close()
