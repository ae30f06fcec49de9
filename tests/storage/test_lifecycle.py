"""Servers and channels come and go: the storage side (storage/lifecycle.py and its migrations)."""

from __future__ import annotations

import sqlite3

from storage.bossfight import RaidStatus
from storage.lifecycle import ERASED, KEPT_AS_FORMER, OF_NO_SERVER, LifecycleRepository
from storage.mma import MatchStatus
from storage.sqlite import Database
from tests.storage.migrated import migrate_before

GUILD, CHANNEL = 10, 20


async def test_migration_0018_rebuilds_two_tables_and_keeps_the_rows_that_reference_them(tmp_path):
    # SQLite rebuilds mma_matches and bossfight_raids to change their CHECK; with foreign keys on, dropping the
    # old table would have deleted the moves, results, attacks and players with it.
    path = tmp_path / "arena.sqlite3"
    with sqlite3.connect(path) as old:
        old.execute("PRAGMA foreign_keys=ON")
        migrate_before(old, 18)
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
            (1, MatchStatus.OVER, 55)
        ]
        for table in ("mma_moves", "mma_results", "bossfight_attacks", "bossfight_players"):
            assert [tuple(r) for r in await db.fetch_all(f"SELECT count(*) FROM {table}")] == [(1,)], table
        (raid,) = await db.fetch_all("SELECT status, cooldown_seconds FROM bossfight_raids")
        assert tuple(raid) == (RaidStatus.LIVE, 30)
        async with db.transaction() as conn:  # the new statuses are allowed, and the old checks still hold
            await conn.execute("UPDATE bossfight_raids SET status = ?", (RaidStatus.CLOSED,))
            await conn.execute("UPDATE mma_matches SET status = ?", (MatchStatus.ABANDONED,))
        assert [tuple(r) for r in await db.fetch_all("PRAGMA foreign_key_check")] == []
    finally:
        await db.close()


async def tables(db) -> set[str]:
    if isinstance(db, Database):
        rows = await db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    else:
        rows = await db.fetch_all(
            "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    return {row["name"] for row in rows} - {"arena_schema"}  # PostgreSQL's record of the migrations applied


async def test_erasing_a_server_names_every_table(database):
    # A new table must say how a server's rows in it are erased (ERASED) or kept anonymized (KEPT_AS_FORMER), or
    # that it has none (OF_NO_SERVER).
    named = {table for table, _ in ERASED} | {table for table, _ in KEPT_AS_FORMER} | set(OF_NO_SERVER)
    assert named == await tables(database)


async def fill(db, guild_id: int, first_id: int) -> None:
    """A row in every table, for the server."""
    i = first_id
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO mma_matches (id, guild_id, channel_id, player0_id, player0_name, player1_id, player1_name, "
            "status, seed, last_move_at) VALUES (?, ?, ?, 100, 'A', 200, 'B', 'over', 7, '1970-01-01T00:00:01.500Z')",
            (i, guild_id, CHANNEL),
        )
        await conn.execute(
            "INSERT INTO mma_moves (match_id, seq, slot, action_json, made_at) VALUES (?, 0, 0, '{}', ?)",
            (i, "1970-01-01T00:00:01.000Z"),
        )
        await conn.execute(
            "INSERT INTO mma_results (guild_id, user_id, match_id, outcome, opponent_id, reason, finished_at) "
            "VALUES (?, 100, ?, 'win', 200, 'conceded', '1970-01-01T00:00:01.500Z')",
            (guild_id, i),
        )
        await conn.execute(
            "INSERT INTO mma_fielded (guild_id, user_id, match_id, fighter, won) VALUES (?, 100, ?, 'X', 1)",
            (guild_id, i),
        )
        await conn.execute(
            "INSERT INTO mma_ratings (guild_id, user_id, mu, sigma, games, updated_at) VALUES (?, 100, 25, 8, 1, ?)",
            (guild_id, "1970-01-01T00:00:01.000Z"),
        )
        await conn.execute(
            "INSERT INTO mma_rating_changes (match_id, user_id, guild_id, opponent_id, result, reason, mu_before, "
            "sigma_before, mu_after, sigma_after, games_after, rated_at) "
            "VALUES (?, 100, ?, 200, 'win', 'conceded', 25, 8, 26, 7, 1, ?)",
            (i, guild_id, "1970-01-01T00:00:01.000Z"),
        )
        await conn.execute(
            "INSERT INTO mma_tournaments (id, guild_id, channel_id, created_by, status, created_at) "
            "VALUES (?, ?, ?, 1, 'finished', 'now')",
            (i, guild_id, CHANNEL + i),
        )
        await conn.execute(
            "INSERT INTO mma_tournament_entrants (tournament_id, user_id, name, joined_at) VALUES (?, 100, 'A', 'now')",
            (i,),
        )
        await conn.execute(
            "INSERT INTO mma_tournament_games (tournament_id, round, board, match_id) VALUES (?, 1, 1, ?)", (i, i)
        )
        await conn.execute(
            "INSERT INTO andor_characters (guild_id, user_id, character_json) VALUES (?, 100, '{}')", (guild_id,)
        )
        await conn.execute(
            "INSERT INTO andor_fights (id, guild_id, channel_id, user_id, seed, status, state_json) "
            "VALUES (?, ?, ?, 100, 1, 'won', '{}')",
            (i, guild_id, CHANNEL),
        )
        await conn.execute(
            "INSERT INTO andor_parties (id, guild_id, channel_id, opener_id, status, monster_json, monster_count, seed, "
            "monsters_first, deadline, created_at) VALUES (?, ?, ?, 100, 'won', '{}', 2, 1, 0, 'now', 'now')",
            (i, guild_id, CHANNEL),
        )
        await conn.execute(
            "INSERT INTO andor_party_members (party_id, guild_id, user_id, position, name, in_fight) "
            "VALUES (?, ?, 100, 0, 'A', 0)",
            (i, guild_id),
        )
        await conn.execute(
            "INSERT INTO bossfight_raids (id, guild_id, channel_id, boss_json, max_hp, hp, status, spawned_by) "
            "VALUES (?, ?, ?, '{}', 1000, 600, 'live', 1)",
            (i, guild_id, CHANNEL + i),
        )
        await conn.execute(
            "INSERT INTO bossfight_attacks (raid_id, user_id, damage, deck_hp_after, boss_hp_after) "
            "VALUES (?, 100, 400, 1000, 600)",
            (i,),
        )
        await conn.execute("INSERT INTO bossfight_players (raid_id, user_id) VALUES (?, 100)", (i,))
        await conn.execute(
            "INSERT INTO bossfight_decks (guild_id, user_id, csv_text, file_name) VALUES (?, 100, 'x', 'd.csv')",
            (guild_id,),
        )
        await conn.execute(
            "INSERT INTO mfd_battles (guild_id, channel_id, state_zlib, seed, rounds_fought, outcome, heroes_left, "
            "villains_left, started_by, updated_by) VALUES (?, ?, ?, 1, 1, 'heroes', 1, 0, 1, 1)",
            (guild_id, CHANNEL + i, b"x"),
        )
        await conn.execute(
            "INSERT INTO guild_uploads (guild_id, kind, name_key, entry_json, uploaded_by) VALUES (?, 'boss', 'x', '{}', 1)",
            (guild_id,),
        )
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, gm_role_id, updated_at) VALUES (?, 555, 'now')", (guild_id,)
        )
        if i == 1:  # one world boss, fought by both servers
            await conn.execute(
                "INSERT INTO world_bosses (id, boss_json, max_hp_micro, hp_micro, status, spawned_by, spawned_at, "
                "ends_at) VALUES (1, '{}', 5000000, 2000000, 'live', 1, 'now', 'later')"
            )
        await conn.execute(
            "INSERT INTO world_boss_attacks (boss_id, guild_id, user_id, damage, deck_damage, deck_hp_after, "
            "stored_at, outcome, credited_micro, hp_after_micro) VALUES (1, ?, 100, 1.5, 0, 9, 'now', 'credited', "
            "1500000, 0)",
            (guild_id,),
        )
        await conn.execute(
            "INSERT INTO world_boss_players (boss_id, guild_id, user_id) VALUES (1, ?, 100)", (guild_id,)
        )
        await conn.execute(
            "INSERT INTO world_boss_posts (boss_id, guild_id, kind, channel_id, posted_at) VALUES (1, ?, 'spawn', ?, "
            "'now')",
            (guild_id, CHANNEL),
        )
        await conn.execute(
            "INSERT INTO web_hidden_members (guild_id, user_id, hidden_at) VALUES (?, 100, 'now')", (guild_id,)
        )
        await conn.execute(
            "INSERT INTO deck_results (guild_id, user_id, seed, iterations, iterations_done, games, wins, losses, ties, "
            "winrate, finished_at) VALUES (?, 100, 1, 1, 1, 1, 1, 0, 0, 1, 'now')",
            (guild_id,),
        )
        await conn.execute(
            "INSERT INTO deck_jobs (id, guild_id, channel_id, user_id, requester, state_json, seconds, started_at, "
            "saved_at) VALUES (?, ?, 1, 100, 'x', '{}', 0, 'now', 'now')",
            (f"job{i}", guild_id),
        )
        await conn.execute("INSERT INTO server_names (guild_id, name) VALUES (?, 'The Pit')", (guild_id,))


async def counts(db) -> dict[str, int]:
    return {
        table: (await db.fetch_one(f"SELECT count(*) AS n FROM {table}"))["n"]
        for table, _ in ERASED
        if table != "guild_departures"
    }


async def test_a_server_that_removed_the_bot_is_erased_after_the_retention_and_kept_before(database):
    repo = LifecycleRepository(database)
    await fill(database, GUILD, 1)
    await fill(database, GUILD + 1, 2)  # a server the bot is still in
    assert set((await counts(database)).values()) == {2}
    day = 86400.0

    await repo.guild_left(GUILD, 1000.0)
    await repo.guild_left(GUILD, 5000.0)  # a second GUILD_DELETE does not move the start of the retention
    assert await repo.erase_departed(1000.0 + 30 * day - 1, 30 * day) == []
    assert set((await counts(database)).values()) == {2}

    assert await repo.erase_departed(1000.0 + 30 * day, 30 * day) == [GUILD]
    assert set((await counts(database)).values()) == {1}
    for table, rows_of_guild in ERASED:
        row = await database.fetch_one(f"SELECT count(*) AS n FROM {table} WHERE {rows_of_guild}", (GUILD,))
        assert row["n"] == 0, table
    # A former server keeps its credited damage in the world boss's total (RULINGS 9), named by no id.
    kept = await database.fetch_all("SELECT guild_id, user_id, credited_micro FROM world_boss_attacks ORDER BY id")
    assert [tuple(row) for row in kept] == [(0, 0, 1_500_000), (GUILD + 1, 100, 1_500_000)]
    assert await repo.erase_departed(1000.0 + 60 * day, 30 * day) == []  # once


async def test_a_server_that_invites_the_bot_again_within_the_retention_keeps_everything(database):
    repo = LifecycleRepository(database)
    await fill(database, GUILD, 1)
    await repo.guild_left(GUILD, 1000.0)
    assert await repo.guild_here(GUILD, "The Pit")
    assert not await repo.guild_here(GUILD, None)  # unavailable: its name is not known now
    assert await repo.erase_departed(1000.0 + 365 * 86400.0, 30 * 86400.0) == []
    assert set((await counts(database)).values()) == {1}


async def test_a_server_keeps_the_name_discord_last_gave_it(database):
    repo = LifecycleRepository(database)
    await repo.guild_here(GUILD, "The Pit")
    await repo.guild_here(GUILD + 1, "Другой сервер")
    await repo.guild_renamed(GUILD, "The Pit 🔥")
    await repo.guild_here(GUILD + 1, None)
    rows = await database.fetch_all("SELECT guild_id, name FROM server_names ORDER BY guild_id")
    assert [tuple(row) for row in rows] == [(GUILD, "The Pit 🔥"), (GUILD + 1, "Другой сервер")]
