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


def test_a_missing_server_skips_on_a_laptop_and_fails_where_it_is_required(monkeypatch):
    import pytest

    from local_postgres.server import INSTALL_HINT, PostgresMissing
    from tests.conftest import REQUIRE_POSTGRES, without_postgres

    monkeypatch.delenv(REQUIRE_POSTGRES, raising=False)
    with pytest.raises(pytest.skip.Exception, match="^" + INSTALL_HINT[:30]):
        without_postgres(PostgresMissing(INSTALL_HINT))
    monkeypatch.setenv(REQUIRE_POSTGRES, "1")  # what .ci/run sets
    with pytest.raises(pytest.fail.Exception) as failed:
        without_postgres(PostgresMissing(INSTALL_HINT))
    assert str(failed.value) == f"{INSTALL_HINT} (ARENA_REQUIRE_POSTGRES=1: the PostgreSQL tests must run here)"


def test_ci_requires_postgres():
    from pathlib import Path

    script = (Path(__file__).resolve().parents[2] / ".ci" / "run").read_text()
    assert "export ARENA_REQUIRE_POSTGRES=1" in script
