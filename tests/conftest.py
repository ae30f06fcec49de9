"""Fixtures every test folder shares: the throwaway PostgreSQL server (local_postgres/server.py), and
Hypothesis without deadlines."""

from __future__ import annotations

import itertools
import os
from concurrent.futures import ThreadPoolExecutor
from typing import NoReturn

import pytest
from hypothesis import settings

from local_postgres.server import PostgresMissing, PostgresServer

# No time limit on a Hypothesis example: coverage's tracing (make test) and a busy machine slow them, and
# their speed is not what they test (the benchmarks measure it).
settings.register_profile("arena", deadline=None)
settings.load_profile("arena")

_databases = itertools.count(1)

# Set to 1 where the PostgreSQL tests must run (`.ci/run` sets it): there a missing server fails them.
REQUIRE_POSTGRES = "ARENA_REQUIRE_POSTGRES"


def without_postgres(missing: PostgresMissing) -> NoReturn:
    """Skip a test that needs PostgreSQL on a developer's machine without it; fail it where it must run."""
    if os.environ.get(REQUIRE_POSTGRES) == "1":
        pytest.fail(f"{missing} ({REQUIRE_POSTGRES}=1: the PostgreSQL tests must run here)", pytrace=False)
    pytest.skip(str(missing))


@pytest.fixture(scope="session")
def postgres_server():
    """One server per test process (each xdist worker has its own), stopped at the end."""
    try:
        server = PostgresServer.start()
    except PostgresMissing as missing:
        without_postgres(missing)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres_games_database(postgres_server) -> str:
    """The URL of a database holding every migration, one per test process: each test that needs one gets it
    back empty from `emptied` (much faster than creating or migrating a database for each)."""
    import asyncio

    from storage.postgres import PostgresDatabase

    async def make() -> None:
        database = await PostgresDatabase.open(await postgres_server.create_database("arena_games"))
        await database.close()

    # In a thread of its own: an async test asks for this fixture while its own event loop runs.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, make()).result()
    return postgres_server.database_url("arena_games")


async def emptied(url: str) -> str:
    """The migrated database at `url` as migrations left it: every game's rows deleted, its ids starting at 1
    again."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        async with connection.transaction():
            # As a replica would: no foreign-key triggers, so the tables empty in any order.
            await connection.execute("SET LOCAL session_replication_role = replica")
            tables = await connection.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'arena_schema'"
            )
            await connection.execute("".join(f"DELETE FROM {row[0]};" for row in tables))
            await connection.execute(
                "SELECT setval(format('%I', sequencename), 1, false) FROM pg_sequences WHERE schemaname = 'public'"
            )
    finally:
        await connection.close()
    return url


async def fresh_postgres_database(server: PostgresServer) -> str:
    """A new, empty database on the test server: its URL."""
    return await server.create_database(f"test_{next(_databases)}")
