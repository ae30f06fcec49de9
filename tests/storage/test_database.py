"""The connection's pragmas, the migrations and the transaction helper, on a real SQLite file."""

import asyncio
import sqlite3

import pytest

from storage.__main__ import main as storage_main
from storage.rows import required
from storage.schema import discover_migrations
from storage.sqlite import Database


async def test_open_applies_every_migration_and_sets_the_pragmas(tmp_path):
    db = await Database.open(tmp_path / "sub" / "arena.sqlite3")
    try:
        assert (tmp_path / "sub" / "arena.sqlite3").exists()
        assert await db.schema_version() == len(discover_migrations())
        assert required(await db.fetch_one("PRAGMA journal_mode"))[0] == "wal"
        assert required(await db.fetch_one("PRAGMA foreign_keys"))[0] == 1
        assert required(await db.fetch_one("PRAGMA busy_timeout"))[0] == 5000
        async with db.connection.execute("PRAGMA busy_timeout") as cursor:  # the writer's too, after start-up
            assert required(await cursor.fetchone())[0] == 5000
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


async def test_a_database_arena_may_not_write_is_refused_when_it_opens(tmp_path, monkeypatch):
    from storage import sqlite as database_module
    from storage.errors import StorageUnavailable

    path = tmp_path / "arena.sqlite3"
    await (await Database.open(path)).close()  # migrated: opening it again writes nothing
    connect = database_module._connect

    async def read_only(*args):  # as a read-only file is (root ignores file modes, so the connection is made so)
        connection = await connect(*args)
        await connection.execute("PRAGMA query_only=ON")
        return connection

    monkeypatch.setattr(database_module, "_connect", read_only)
    with pytest.raises(StorageUnavailable, match="cannot be used as Arena's database: it is read-only"):
        await Database.open(path)
    with pytest.raises(StorageUnavailable, match=":memory: cannot be Arena's database: DATABASE_PATH must name a file"):
        await Database.open(":memory:")


async def test_a_database_a_newer_arena_migrated_is_refused(tmp_path):
    from storage.errors import StorageUnavailable

    path = tmp_path / "arena.sqlite3"
    db = await Database.open(path)
    known = await db.schema_version()
    await db.connection.execute(f"PRAGMA user_version = {known + 1}")  # as the next version's migration leaves it
    await db.close()
    with pytest.raises(StorageUnavailable) as refused:
        await Database.open(path)
    assert str(refused.value) == (
        f"{path} was last used by a newer Arena (schema {known + 1}; this one knows up to {known}): run that newer "
        "version, or restore a backup taken before it"
    )


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


async def test_a_commit_that_fails_ends_its_transaction_so_the_next_one_can_start(tmp_path, monkeypatch):
    import sqlite3

    db = await Database.open(tmp_path / "arena.sqlite3")
    execute, failed = db.connection.execute, []

    def busy_commit(sql, *args, **kwargs):  # SQLite may leave the transaction open when COMMIT fails
        if sql == "COMMIT" and not failed:
            failed.append(sql)
            raise sqlite3.OperationalError("database is locked")
        return execute(sql, *args, **kwargs)

    monkeypatch.setattr(db.connection, "execute", busy_commit)
    insert = "INSERT INTO bossfight_decks (guild_id, user_id, csv_text, file_name) VALUES (1, ?, 'x', 'y')"
    try:
        with pytest.raises(sqlite3.OperationalError):
            async with db.transaction() as conn:
                await conn.execute(insert, (1,))
        async with db.transaction() as conn:  # "cannot start a transaction within a transaction" before
            await conn.execute(insert, (2,))
        assert [r["user_id"] for r in await db.fetch_all("SELECT user_id FROM bossfight_decks")] == [2]
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


async def test_a_backup_taken_while_the_bot_writes_is_a_consistent_copy(tmp_path, capsys):
    db = await Database.open(tmp_path / "arena.sqlite3")
    target = tmp_path / "backup.sqlite3"
    try:
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO bossfight_decks (guild_id, user_id, csv_text, file_name) VALUES (1, 2, 'x', 'y')"
            )
        await db.connection.execute("BEGIN IMMEDIATE")  # the bot in the middle of a write
        await db.connection.execute(
            "INSERT INTO bossfight_decks (guild_id, user_id, csv_text, file_name) VALUES (1, 3, 'z', 'w')"
        )
        assert storage_main(["backup", str(target), "--database", str(db.path)]) == 0
        await db.connection.execute("ROLLBACK")
    finally:
        await db.close()
    assert capsys.readouterr().out.startswith(f"copied {tmp_path / 'arena.sqlite3'} to {target} (")
    copy = await Database.open(target)  # a complete database: it opens and migrates nothing more
    try:
        assert [tuple(r) for r in await copy.fetch_all("SELECT user_id FROM bossfight_decks")] == [(2,)]
        assert await copy.schema_version() == len(discover_migrations())
    finally:
        await copy.close()
    with pytest.raises(SystemExit, match="already exists"):
        storage_main(["backup", str(target), "--database", str(tmp_path / "arena.sqlite3")])
    with pytest.raises(SystemExit, match="there is no database at"):
        storage_main(["backup", str(tmp_path / "other.sqlite3"), "--database", str(tmp_path / "missing.sqlite3")])
    # a folder that does not exist yet is made (README's own command names backups/)
    assert storage_main(["backup", str(tmp_path / "backups" / "a.sqlite3"), "--database", str(db.path)]) == 0
    (tmp_path / "taken").write_text("a file where a folder should be")
    with pytest.raises(SystemExit, match="error: the backup cannot be written to "):
        storage_main(["backup", str(tmp_path / "taken" / "a.sqlite3"), "--database", str(db.path)])


def test_a_copy_from_a_file_that_is_not_arenas_database_is_refused_and_leaves_it_alone(tmp_path):
    other = tmp_path / "notes.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    connection.close()
    before = other.read_bytes()
    with pytest.raises(SystemExit, match="is not an Arena database; --from names the bot's DATABASE_PATH file"):
        storage_main(["copy", "--from", str(other), "--to", "postgresql://arena@127.0.0.1:1/arena"])
    assert other.read_bytes() == before
    with pytest.raises(SystemExit, match="there is no database at"):
        storage_main(["copy", "--from", str(tmp_path / "missing.sqlite3"), "--to", "postgresql://127.0.0.1:1/a"])


async def test_a_transaction_offers_the_statements_every_repository_writes(tmp_path):
    db = await Database.open(tmp_path / "arena.sqlite3")
    try:
        async with db.transaction() as tx:
            await tx.execute_many(
                "INSERT INTO guild_uploads (guild_id, kind, name_key, entry_json, uploaded_by) VALUES (?, ?, ?, ?, ?)",
                [(1, "boss", f"b{i}", "{}", 7) for i in range(3)],
            )
            assert await tx.execute("UPDATE guild_uploads SET uploaded_by = 8 WHERE name_key != 'b0'") == 2
            assert [r["name_key"] for r in await tx.fetch_all("SELECT name_key FROM guild_uploads ORDER BY 1")] == [
                "b0",
                "b1",
                "b2",
            ]
            assert (await tx.fetch_required("SELECT count(*) AS n FROM guild_uploads"))["n"] == 3
            assert await tx.fetch_one("SELECT * FROM guild_uploads WHERE name_key = 'none'") is None
            with pytest.raises(RuntimeError, match="the statement returned no row"):
                await tx.fetch_required("SELECT * FROM guild_uploads WHERE name_key = 'none'")
        assert required(await db.fetch_one("SELECT count(*) FROM guild_uploads WHERE uploaded_by = 8"))[0] == 2
    finally:
        await db.close()


async def test_timestamps_written_from_python_read_as_the_column_defaults(tmp_path):
    import re

    from storage.rows import utc_now_text

    db = await Database.open(tmp_path / "arena.sqlite3")
    try:
        (default,) = required(await db.fetch_one("SELECT strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"))
        shape = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
        assert shape.fullmatch(default) and shape.fullmatch(utc_now_text())
        assert abs(len(default) - len(utc_now_text())) == 0 and utc_now_text()[:16] >= default[:16]
    finally:
        await db.close()
