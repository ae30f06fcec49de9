"""Fixtures every test folder shares: the throwaway PostgreSQL server (tests/storage/postgres.py)."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.storage.postgres import PostgresMissing, PostgresServer

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server():
    """One server per test process (each xdist worker has its own), stopped at the end."""
    try:
        server = PostgresServer.start()
    except PostgresMissing as missing:
        pytest.skip(str(missing))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres_template(postgres_server) -> str:
    """A database holding every migration, copied for each test that needs an empty one (much faster than
    migrating each)."""
    import asyncio

    import asyncpg

    from storage.postgres import PostgresDatabase

    async def make() -> None:
        admin = await asyncpg.connect(postgres_server.url)
        try:
            await admin.execute("CREATE DATABASE arena_template")
        finally:
            await admin.close()
        database = await PostgresDatabase.open(postgres_server.database_url("arena_template"))
        await database.close()

    # In a thread of its own: an async test asks for this fixture while its own event loop runs.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, make()).result()
    return "arena_template"


async def fresh_postgres_database(server: PostgresServer, template: str | None = None) -> str:
    """A new database on the test server, empty or a copy of `template` (a migrated one): its URL."""
    import asyncpg

    name = f"test_{next(_databases)}"
    admin = await asyncpg.connect(server.url)
    try:
        await admin.execute(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
    finally:
        await admin.close()
    return server.database_url(name)
