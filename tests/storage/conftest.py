"""Storage tests run on both backends: SQLite (a file) and PostgreSQL (a throwaway server, skipped with how
to install it where absent); each PostgreSQL database is migrated from empty, so the migrations are tested too."""

from __future__ import annotations

import pytest

from storage.sqlite import Database
from tests.conftest import fresh_postgres_database


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request, tmp_path):
    """An empty, migrated database of each backend."""
    if request.param == "sqlite":
        db = await Database.open(tmp_path / "arena.sqlite3")
    else:
        from storage.postgres import PostgresDatabase

        db = await PostgresDatabase.open(await fresh_postgres_database(request.getfixturevalue("postgres_server")))
    yield db
    await db.close()
