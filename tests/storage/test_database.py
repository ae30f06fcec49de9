"""The connection's pragmas, the migrations and the transaction helper, on a real SQLite file."""

import asyncio

import pytest

from storage.database import Database, discover_migrations, required


async def test_open_applies_every_migration_and_sets_the_pragmas(tmp_path):
    db = await Database.open(tmp_path / "sub" / "arena.sqlite3")
    try:
        assert (tmp_path / "sub" / "arena.sqlite3").exists()
        assert await db.schema_version() == len(discover_migrations())
        assert required(await db.fetch_one("PRAGMA journal_mode"))[0] == "wal"
        assert required(await db.fetch_one("PRAGMA foreign_keys"))[0] == 1
        assert required(await db.fetch_one("PRAGMA busy_timeout"))[0] == 5000
        tables = {r["name"] for r in await db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"bossfight_raids", "bossfight_attacks", "bossfight_decks", "guild_uploads"} <= tables
    finally:
        await db.close()


async def test_reopening_applies_nothing_twice(tmp_path):
    path = tmp_path / "arena.sqlite3"
    db = await Database.open(path)
    await db.connection.execute(
        "INSERT INTO bossfight_decks (guild_id, user_id, csv_text, file_name) VALUES (1, 2, 'x', 'y')"
    )
    await db.close()
    db = await Database.open(path)
    try:
        assert len(await db.fetch_all("SELECT * FROM bossfight_decks")) == 1
    finally:
        await db.close()


async def test_transaction_rolls_back_on_error(tmp_path):
    db = await Database.open(tmp_path / "arena.sqlite3")
    try:
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await conn.execute(
                    "INSERT INTO bossfight_decks (guild_id, user_id, csv_text, file_name) VALUES (1, 2, 'x', 'y')"
                )
                raise RuntimeError("abandon")
        assert await db.fetch_all("SELECT * FROM bossfight_decks") == []
    finally:
        await db.close()


def test_migrations_must_be_numbered_without_gaps(tmp_path):
    (tmp_path / "0001_a.sql").write_text("")
    (tmp_path / "0003_c.sql").write_text("")
    with pytest.raises(RuntimeError, match=r"without gaps, found \[1, 3\]"):
        discover_migrations(tmp_path)


async def test_a_read_never_sees_a_write_that_may_still_roll_back(tmp_path):
    db = await Database.open(tmp_path / "arena.sqlite3")
    try:
        inside_transaction = asyncio.Event()
        read_done = asyncio.Event()
        seen_during: list[int] = []

        async def write_then_roll_back() -> None:
            with pytest.raises(RuntimeError):
                async with db.transaction() as conn:
                    await conn.execute(
                        "INSERT INTO bossfight_decks (guild_id, user_id, csv_text, file_name) VALUES (1, 2, 'x', 'y')"
                    )
                    inside_transaction.set()
                    await read_done.wait()  # another task reads while this transaction is open
                    raise RuntimeError("the move failed after its write")

        async def read_meanwhile() -> None:
            await inside_transaction.wait()
            seen_during.append(len(await db.fetch_all("SELECT * FROM bossfight_decks")))
            read_done.set()

        await asyncio.gather(write_then_roll_back(), read_meanwhile())
        assert seen_during == [0]
        assert await db.fetch_all("SELECT * FROM bossfight_decks") == []
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO bossfight_decks (guild_id, user_id, csv_text, file_name) VALUES (1, 2, 'x', 'y')"
            )
        assert len(await db.fetch_all("SELECT * FROM bossfight_decks")) == 1  # a committed write is read at once
    finally:
        await db.close()
