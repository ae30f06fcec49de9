"""storage.uploads: one table for every game's guild uploads, and the migration that filled it."""

import aiosqlite
import pytest

from rules.andor.bestiary import builtin_monsters
from rules.andor.models import Monster
from rules.bossfight import BUILTIN_BOSSES, Boss
from storage.schema import discover_migrations
from storage.sqlite import Database
from storage.uploads import GuildUploads, RosterFull


async def test_uploads_are_kept_apart_by_kind_and_guild_and_replaced_by_key(database):
    bosses, monsters = (
        GuildUploads(database, "boss", Boss.model_validate_json),
        GuildUploads(database, "monster", Monster.model_validate_json),
    )
    dogemon, wolf = BUILTIN_BOSSES[0], next(m for m in builtin_monsters() if m.name == "Wolf")
    assert await bosses.save(1, [("inu dogemon", dogemon)], uploaded_by=7, limit=2) == 1
    assert await monsters.save(1, [("wolf", wolf)], uploaded_by=7, limit=1) == 1
    stronger = dogemon.model_copy(update={"level": 9})
    assert await bosses.save(1, [("inu dogemon", stronger)], uploaded_by=8, limit=2) == 1
    assert await bosses.all(1) == [stronger] and await bosses.all(2) == []
    assert await monsters.all(1) == [wolf]
    with pytest.raises(RosterFull) as full:
        await monsters.save(1, [("wolf 2", wolf)], uploaded_by=7, limit=1)
    assert (full.value.total, full.value.limit) == (2, 1)
    assert await monsters.all(1) == [wolf]  # the refused upload was rolled back
    assert await bosses.remove(1, "wolf") is False
    assert await monsters.remove(1, "wolf") is True
    assert await monsters.all(1) == [] and await bosses.all(1) == [stronger]


async def test_uploads_are_listed_in_the_same_order_whatever_postgresqls_collation(postgres_server):
    """SQLite orders names by code point; a PostgreSQL database may sort by language rules (ICU en-US here)."""
    import asyncpg

    from storage.postgres import PostgresDatabase

    admin = await asyncpg.connect(postgres_server.url)
    try:
        await admin.execute(
            "CREATE DATABASE uploads_icu TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'"
        )
    finally:
        await admin.close()
    db = await PostgresDatabase.open(postgres_server.database_url("uploads_icu"))
    try:
        monsters = GuildUploads(db, "monster", Monster.model_validate_json)
        wolf = next(m for m in builtin_monsters() if m.name == "Wolf")
        named = [wolf.model_copy(update={"name": name}) for name in ("Éclair Beast", "Zombie")]
        await monsters.save(1, [(m.name.lower(), m) for m in named], uploaded_by=7, limit=10)
        assert [m.name for m in await monsters.all(1)] == ["Zombie", "Éclair Beast"]  # as on SQLite
    finally:
        await db.close()


async def test_the_migration_moves_both_games_uploads_into_one_table(tmp_path):
    path = tmp_path / "arena.sqlite3"
    dogemon, wolf = BUILTIN_BOSSES[0], next(m for m in builtin_monsters() if m.name == "Wolf")
    async with aiosqlite.connect(path) as conn:  # a database as the version before the table existed left it
        for number, script in discover_migrations():
            if number < 5:
                await conn.executescript(script.read_text(encoding="utf-8"))
        await conn.execute("PRAGMA user_version = 4")
        await conn.execute(
            "INSERT INTO bossfight_bosses (guild_id, name_key, boss_json, uploaded_by) VALUES (1, 'frost   wyrm', ?, 5)",
            (dogemon.model_copy(update={"name": "Frost   Wyrm"}).model_dump_json(),),
        )
        await conn.execute(
            "INSERT INTO andor_monsters (guild_id, name_key, monster_json, uploaded_by) VALUES (2, 'wolf', ?, 6)",
            (wolf.model_dump_json(),),
        )
        await conn.commit()
    db = await Database.open(path)
    try:
        rows = await db.fetch_all("SELECT guild_id, kind, name_key, uploaded_by FROM guild_uploads ORDER BY kind")
        assert [tuple(r) for r in rows] == [(1, "boss", "frost wyrm", 5), (2, "monster", "wolf", 6)]
        assert await GuildUploads(db, "monster", Monster.model_validate_json).all(2) == [wolf]
        tables = {r["name"] for r in await db.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert not {"bossfight_bosses", "andor_monsters"} & tables
    finally:
        await db.close()
