"""DATABASE_URL: the bot on PostgreSQL, through the real command tree (issue 15)."""

from __future__ import annotations

import asyncpg
import pytest

from storage.database import StorageUnavailable
from storage.postgres import PostgresDatabase
from tests.cogs.harness import FakeDiscord, Harness, make_settings, start_bot
from tests.storage.postgres import free_port


async def fresh_database(server, name: str) -> str:
    admin = await asyncpg.connect(server.url)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    return server.url.rsplit("/", 1)[0] + f"/{name}"


async def test_the_bot_plays_on_postgresql_and_keeps_what_it_stored_across_a_restart(postgres_server, tmp_path):
    url = await fresh_database(postgres_server, "bot_on_postgres")
    fake, settings = FakeDiscord(), make_settings(tmp_path / "unused.sqlite3", database_url=url)
    h = Harness(await start_bot(settings, fake), fake, settings)
    try:
        assert isinstance(h.bot.db, PostgresDatabase) and not (tmp_path / "unused.sqlite3").exists()
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


async def test_a_server_that_cannot_be_reached_is_named_without_its_password():
    port = free_port()  # nothing listens there
    with pytest.raises(StorageUnavailable) as refused:
        await PostgresDatabase.open(f"postgresql://arena:secret@127.0.0.1:{port}/arena")
    message = str(refused.value)
    assert message.startswith(f"the PostgreSQL database postgresql://arena@127.0.0.1:{port}/arena cannot be used (")
    assert "secret" not in message


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

    url = await fresh_database(postgres_server, "moved_over")
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
        assert "match #2" in other.embed.footer.text
    finally:
        await h.bot.close()
    with pytest.raises(SystemExit, match="already holds Arena data"):
        await copy(path, url)
