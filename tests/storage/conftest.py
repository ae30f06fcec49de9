"""Storage tests run on both backends: SQLite (a file) and PostgreSQL (a throwaway server, skipped with how
to install it where absent)."""

from __future__ import annotations

import itertools

import pytest

from storage.database import Database

_databases = itertools.count(1)


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request, tmp_path):
    """An empty, migrated database of each backend."""
    if request.param == "sqlite":
        db = await Database.open(tmp_path / "arena.sqlite3")
    else:
        import asyncpg

        from storage.postgres import PostgresDatabase

        server = request.getfixturevalue("postgres_server")
        name = f"storage_{next(_databases)}"
        admin = await asyncpg.connect(server.url)
        try:
            await admin.execute(f"CREATE DATABASE {name}")
        finally:
            await admin.close()
        db = await PostgresDatabase.open(server.database_url(name))
    yield db
    await db.close()
