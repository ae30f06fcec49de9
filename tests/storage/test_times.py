"""One way to keep a moment (storage/times.py), and migration 0020, which turned the times kept as REAL unix
seconds into ISO 8601 UTC text: the same instants, on both backends."""

from __future__ import annotations

import sqlite3

import asyncpg

from storage.postgres import PostgresDatabase, numbered, postgres_migration
from storage.schema import discover_migrations
from storage.sqlite import Database
from storage.times import stored_time, unix_time
from tests.conftest import fresh_postgres_database
from tests.storage.migrated import migrate_before

GUILD, CHANNEL = 10, 20
AT, LATER = 1700000000.25, 1700000001.5  # whole milliseconds: both databases convert them exactly

# A row with a unix time in every column that kept one, as a database at migration 0019 holds them.
AT_0019 = (
    (
        "INSERT INTO mma_matches (id, guild_id, channel_id, player0_id, player0_name, player1_id, player1_name, "
        "status, seed, last_move_at) VALUES (1, ?, ?, 100, 'A', 200, 'B', 'over', 7, ?)",
        (GUILD, CHANNEL, AT),
    ),
    ("INSERT INTO mma_moves (match_id, seq, slot, action_json, made_at) VALUES (1, 0, 0, '{}', ?)", (AT,)),
    (
        "INSERT INTO mma_results (guild_id, user_id, match_id, outcome, opponent_id, reason, finished_at) "
        "VALUES (?, 100, 1, 'win', 200, 'Conceded', ?)",
        (GUILD, LATER),
    ),
    (
        "INSERT INTO mma_ratings (guild_id, user_id, mu, sigma, games, updated_at) VALUES (?, 100, 1500, 80, 1, ?)",
        (GUILD, LATER),
    ),
    (
        "INSERT INTO mma_rating_changes (match_id, user_id, guild_id, opponent_id, result, reason, mu_before, "
        "sigma_before, mu_after, sigma_after, games_after, rated_at) "
        "VALUES (1, 100, ?, 200, 'win', 'Conceded', 1500, 90, 1510, 80, 1, ?)",
        (GUILD, LATER),
    ),
    ("INSERT INTO mma_rating_models (model, recomputed_at, matches) VALUES ('elo', ?, 1)", (AT,)),
    (
        "INSERT INTO bossfight_raids (id, guild_id, channel_id, boss_json, max_hp, hp, status, spawned_by) "
        "VALUES (3, ?, ?, '{}', 1000, 600, 'live', 1)",
        (GUILD, CHANNEL),
    ),
    ("INSERT INTO bossfight_players (raid_id, user_id, last_attack_at) VALUES (3, 100, ?)", (AT,)),
    ("INSERT INTO bossfight_players (raid_id, user_id) VALUES (3, 200)", ()),  # never attacked: no time
    ("INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?)", (GUILD + 1, AT)),
)

# Each converted column, and the text it holds after 0020.
AFTER_0020 = (
    ("SELECT last_move_at FROM mma_matches", [stored_time(AT)]),
    ("SELECT made_at FROM mma_moves", [stored_time(AT)]),
    ("SELECT finished_at FROM mma_results", [stored_time(LATER)]),
    ("SELECT updated_at FROM mma_ratings", [stored_time(LATER)]),
    ("SELECT rated_at FROM mma_rating_changes", [stored_time(LATER)]),
    ("SELECT recomputed_at FROM mma_rating_models", [stored_time(AT)]),
    ("SELECT last_attack_at FROM bossfight_players ORDER BY user_id", [stored_time(AT), None]),
    ("SELECT left_at FROM guild_departures", [stored_time(AT)]),
)


def test_a_stored_time_is_utc_text_to_the_millisecond_and_reads_back_as_the_same_instant():
    assert stored_time(AT) == "2023-11-14T22:13:20.250Z"
    assert unix_time(stored_time(AT)) == AT
    assert stored_time(990.0004) == "1970-01-01T00:16:30.000Z"  # cut, never later than the moment
    moments = [0.0, 9.999, 10.0, 999.5, 1000.25, AT, LATER]
    assert sorted(stored_time(m) for m in reversed(moments)) == [stored_time(m) for m in moments]  # text order


async def assert_converted(db) -> None:
    for select, expected in AFTER_0020:
        assert [row[0] for row in await db.fetch_all(select)] == expected, select


async def test_migration_0020_turns_the_real_times_into_utc_text_on_sqlite(tmp_path):
    path = tmp_path / "arena.sqlite3"
    with sqlite3.connect(path) as old:
        migrate_before(old, 20)
        for sql, params in AT_0019:
            old.execute(sql, params)
    db = await Database.open(path)
    try:
        await assert_converted(db)
        columns = await db.fetch_all("SELECT name, type FROM pragma_table_info('mma_matches')")
        assert {row["name"]: row["type"] for row in columns}["last_move_at"] == "TEXT"
        assert [tuple(r) for r in await db.fetch_all("PRAGMA foreign_key_check")] == []
    finally:
        await db.close()


async def test_migration_0020_turns_the_real_times_into_utc_text_on_postgres(postgres_server):
    url = await fresh_postgres_database(postgres_server)
    old = await asyncpg.connect(url)
    try:
        await old.execute("CREATE TABLE arena_schema (version BIGINT NOT NULL)")
        for number, migration in discover_migrations():
            if number < 20:
                await old.execute(postgres_migration(migration))
                await old.execute("INSERT INTO arena_schema (version) VALUES ($1)", number)
        for sql, params in AT_0019:
            await old.execute(numbered(sql), *params)
    finally:
        await old.close()
    db = await PostgresDatabase.open(url)
    try:
        await assert_converted(db)
    finally:
        await db.close()
