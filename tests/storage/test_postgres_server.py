"""The throwaway PostgreSQL server the storage tests will run against (issue 15)."""

from __future__ import annotations

from tests.conftest import fresh_postgres_database


async def test_a_throwaway_server_answers_on_its_port_and_takes_a_schema(postgres_server):
    import asyncpg

    postgres = postgres_server
    connection = await asyncpg.connect(await fresh_postgres_database(postgres))
    try:
        await connection.execute("CREATE TABLE probe (id BIGINT PRIMARY KEY, name TEXT NOT NULL)")
        await connection.execute("INSERT INTO probe VALUES ($1, $2)", 1, "Wolf")
        row = await connection.fetchrow("SELECT name, current_setting('port') AS port FROM probe WHERE id = $1", 1)
        assert (row["name"], int(row["port"])) == ("Wolf", postgres.port)
    finally:
        await connection.close()
