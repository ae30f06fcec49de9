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
