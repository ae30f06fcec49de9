"""DATABASE_URL: the bot on PostgreSQL, through the real command tree (issue 15)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import asyncpg
import pytest

from local_postgres.server import free_port
from observability import MeasuredStorage
from offline_discord.harness import FakeDiscord, Harness, make_settings, start_bot
from storage.errors import StorageUnavailable
from storage.postgres import PostgresDatabase
from storage.schema import discover_migrations
from tests.conftest import fresh_postgres_database

ROOT = Path(__file__).resolve().parents[2]


async def test_the_bot_plays_on_postgresql_and_keeps_what_it_stored_across_a_restart(postgres_server, tmp_path):
    url = await fresh_postgres_database(postgres_server)
    settings = make_settings(tmp_path / "unused.sqlite3", database_url=url, database_pool_size=3)
    fake = FakeDiscord()
    h = Harness(await start_bot(settings, fake), fake, settings)
    try:
        assert isinstance(h.bot.db, MeasuredStorage) and isinstance(h.bot.db.inner, PostgresDatabase)
        assert h.bot.db.inner.pool.get_max_size() == 3  # DATABASE_POOL_SIZE
        assert h.bot.db.backend == "postgresql" and not (tmp_path / "unused.sqlite3").exists()
        (saved,) = await h.run("andor character set", h.alice, attack_chance=90, potions=5)
        assert saved.embed.title == "✅ Saved: attack_chance 90, potions 5"
        await h.restart()
        (shown,) = await h.run("andor character show", h.alice)
        assert shown.field("Attack chance (AC)") == "90" and shown.field("Potions").startswith("5,")
    finally:
        await h.bot.close()
    stored = await asyncpg.connect(url)
    try:
        assert await stored.fetchval("SELECT count(*) FROM andor_characters WHERE user_id = $1", h.alice.id) == 1
    finally:
        await stored.close()


async def test_a_start_waiting_for_another_process_migration_says_so(postgres_server, caplog):
    from storage.postgres import MIGRATION_LOCK

    url = await fresh_postgres_database(postgres_server)
    other = await asyncpg.connect(url)  # another Arena process, migrating
    try:
        await other.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        opening = asyncio.ensure_future(PostgresDatabase.open(url))
        said = "waiting for another Arena process to finish migrating"
        for _ in range(600):  # 30 s at most
            if any(said in record.getMessage() for record in caplog.records):
                break
            assert not opening.done()
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the start waited without a word")
        await other.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        await (await asyncio.wait_for(opening, 30)).close()
    finally:
        await other.close()


async def test_a_server_that_cannot_be_reached_is_named_without_its_password():
    port = free_port()  # nothing listens there
    with pytest.raises(StorageUnavailable) as refused:
        await PostgresDatabase.open(f"postgresql://arena:secret@127.0.0.1:{port}/arena")
    message = str(refused.value)
    assert message.startswith(f"the PostgreSQL database postgresql://arena@127.0.0.1:{port}/arena cannot be used (")
    assert "secret" not in message and message.endswith("; check DATABASE_URL")


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://arena:4821/Zq@127.0.0.1:1/arena", "postgresql://arena@127.0.0.1:1/arena"),
        ("postgresql://arena:pw#Se@cret@127.0.0.1:1/arena?sslmode=disable", "postgresql://arena@127.0.0.1:1/arena"),
        ("postgresql://127.0.0.1:1/arena?password=secret", "postgresql://127.0.0.1:1/arena"),
        ("postgresql://arena:secretpw@127.0.0.1:abc/arena", "postgresql://arena@127.0.0.1:abc/arena"),
    ],
)
async def test_a_url_is_shown_without_its_password_however_it_is_written(url, shown):
    with pytest.raises(StorageUnavailable) as refused:  # each one malformed, or refused at once (port 1)
        await PostgresDatabase.open(url)
    message = str(refused.value)
    assert message.startswith(f"the PostgreSQL database {shown} cannot be used (")
    assert all(secret not in message for secret in ("4821", "Zq", "cret", "secretpw"))


async def test_a_populated_sqlite_installation_moves_over_and_the_bot_plays_on(postgres_server, tmp_path, capsys):
    from storage.__main__ import copy

    path = tmp_path / "arena.sqlite3"
    fake, settings = FakeDiscord(), make_settings(path)
    h = Harness(await start_bot(settings, fake), fake, settings)
    await h.run("andor character set", h.alice, attack_chance=90)
    posted = await h.run("mma ai", h.alice)
    (board,) = [m for m in posted if m.embeds]
    await h.click(board, "Skip draw", h.alice)
    await h.bot.close()

    url = await fresh_postgres_database(postgres_server)
    counts = await copy(path, url)
    assert counts["andor_characters"] == 1 and counts["mma_matches"] == 1 and counts["mma_moves"] == 1

    moved = make_settings(tmp_path / "unused.sqlite3", database_url=url)
    h = Harness(await start_bot(moved, fake), fake, moved)
    try:
        (shown,) = await h.run("andor character show", h.alice)
        assert shown.field("Attack chance (AC)") == "90"
        (again,) = await h.run("mma ai", h.alice)  # the match going in SQLite goes on in PostgreSQL
        assert again.content.startswith("You already have a match going here (match #1)")
        await h.click(again, "End turn", h.alice)
        assert len(await h.bot.db.fetch_all("SELECT * FROM mma_moves")) >= 2
        (other,) = await h.run("mma ai", h.bob)  # a new match gets the next id, after the copied ones
        assert "match #2" in str(other.embed.footer.text)
    finally:
        await h.bot.close()
    with pytest.raises(SystemExit, match="already holds Arena data"):
        await copy(path, url)


SHARD_PROCESS = """
import asyncio, sys
from pathlib import Path
from arena.bot import ShardedArenaBot
from offline_discord.harness import FakeDiscord, Harness, make_settings, start_bot

async def main():
    url, shard, folder = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    fake = FakeDiscord()
    settings = make_settings(folder / "unused.sqlite3", database_url=url, shard_count=2, shard_ids=shard)
    h = Harness(await start_bot(settings, fake), fake, settings)
    try:
        assert isinstance(h.bot, ShardedArenaBot) and h.bot.shard_ids == [int(shard)] and h.bot.shard_count == 2
        player = h.alice if shard == "0" else h.bob
        posted = await h.run("mma ai", player)
        (board,) = [m for m in posted if m.embeds]
        await h.click(board, "Skip draw", player)
        await h.click(board, "End turn", player)
        print("played", board.embed.footer.text)
    finally:
        await h.bot.close()

asyncio.run(main())
"""


async def test_two_processes_serving_two_shards_play_on_one_postgresql(postgres_server, tmp_path):
    url = await fresh_postgres_database(postgres_server)

    async def shard_process(shard: int) -> tuple[int, str, str]:
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-c", SHARD_PROCESS, url, str(shard), str(tmp_path),
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(child.communicate(), 60)
        return child.returncode or 0, out.decode(), err.decode()

    # Both at once: one migrates while the other waits for the lock, then each plays in its own process.
    for code, out, err in await asyncio.gather(shard_process(0), shard_process(1)):
        assert code == 0, err
        assert out.startswith("played seed ")
    stored = await asyncpg.connect(url)
    try:
        rows = await stored.fetch("SELECT player0_id, version FROM mma_matches ORDER BY player0_id")
        assert len(rows) == 2 and all(row["version"] >= 2 for row in rows)  # each process played its moves
        # every migration applied once
        assert await stored.fetchval("SELECT count(*) FROM arena_schema") == len(discover_migrations())
    finally:
        await stored.close()
