"""A database that is down, or full, says so: players are told what happened and that nothing changed, and the
log says it once per outage and again when it is over, through the real command tree."""

from __future__ import annotations

import logging

import pytest

from local_postgres.server import PostgresMissing, PostgresServer
from observability import MeasuredStorage
from offline_discord.harness import FakeDiscord, Harness, make_settings, start_bot
from storage.errors import DATABASE_UNREACHABLE, STORAGE_FULL
from storage.postgres import PostgresDatabase
from storage.rows import required
from storage.sqlite import Database


@pytest.fixture(autouse=True)
def storage_log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "arena.storage")


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "arena.storage" and r.levelno >= logging.INFO]


async def test_an_unreachable_postgresql_is_one_plain_reply_per_click_and_one_log_line(tmp_path, caplog):
    try:
        server = PostgresServer.start()  # its own: stopping the shared one would stop other tests
    except PostgresMissing as missing:
        pytest.skip(str(missing))
    try:
        fake = FakeDiscord()
        settings = make_settings(tmp_path / "unused.sqlite3", database_url=server.url)
        h = Harness(await start_bot(settings, fake), fake, settings)
        try:
            assert isinstance(h.bot.db, MeasuredStorage) and isinstance(h.bot.db.inner, PostgresDatabase)
            await h.run("andor character set", h.alice, attack_chance=90)
            server.pause()
            caplog.clear()
            for command, options in [("andor character set", {"attack_chance": 70}), ("andor character show", {})]:
                for _ in range(2):
                    (reply,) = await h.run(command, h.alice, **options)
                    assert reply.ephemeral and reply.content == f"⚠️ {DATABASE_UNREACHABLE}"
            (said,) = outage_lines(caplog)
            assert said.startswith(f"the PostgreSQL database postgresql://arena@127.0.0.1:{server.port}/postgres: ")
            assert said.endswith("; players are told to try again later")
            assert not [r for r in caplog.records if r.exc_info]  # no traceback per click

            server.resume()
            (shown,) = await h.run("andor character show", h.alice)
            assert shown.field("Attack chance (AC)") == "90"  # nothing was changed meanwhile
            said, back = outage_lines(caplog)
            assert back.startswith(f"the PostgreSQL database postgresql://arena@127.0.0.1:{server.port}/postgres ")
            assert "answers again (failing since " in back
        finally:
            await h.bot.close()
    finally:
        server.stop()


@pytest.mark.one_backend
async def test_a_full_sqlite_disk_is_one_plain_reply_and_one_log_line_naming_the_path(harness, caplog):
    h = harness
    assert isinstance(h.bot.db, MeasuredStorage) and isinstance(h.bot.db.inner, Database)
    database = h.bot.db.inner
    await h.run("andor character set", h.alice, attack_chance=90)
    (pages,) = required(await database.fetch_one("PRAGMA page_count"))
    # As a full disk does: SQLite refuses every page past this many with "database or disk is full".
    await database.connection.execute(f"PRAGMA max_page_count = {pages}")
    caplog.clear()
    deck = (
        b"token,trait,element,health,physical_damage,physical_penetration,physical_resistance,magical_damage,"
        b"magical_penetration,magical_resistance\n"
        + b"".join(f"Token {i},Trait,Fire,10,{i},N,N,0,N,N\n".encode() for i in range(400))
    )
    for _ in range(2):
        (refused,) = await h.run("bossfight deck save", h.alice, deck=("deck.csv", deck))
        assert refused.ephemeral and refused.content == f"⚠️ {STORAGE_FULL}"
    assert await database.fetch_one("SELECT 1 FROM bossfight_decks") is None
    (said,) = outage_lines(caplog)
    assert said.startswith(f"the SQLite database {database.path}: the disk holding {database.path} is full (")

    await database.connection.execute("PRAGMA max_page_count = 1073741823")
    (saved,) = await h.run("bossfight deck save", h.alice, deck=("deck.csv", deck))
    assert saved.content.startswith("✅ Saved deck.csv: 400 tokens"), saved.content
    assert "answers again" in outage_lines(caplog)[-1]
