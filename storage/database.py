"""The process's one SQLite connection, its pragmas, migrations and transactions."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite

log = logging.getLogger("arena.storage")

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def required(row: aiosqlite.Row | None) -> aiosqlite.Row:
    """The row of a statement that always returns one (an aggregate, an INSERT or UPDATE ... RETURNING of a
    row known to exist); its absence is a bug, not a user's mistake."""
    if row is None:
        raise RuntimeError("the statement returned no row")
    return row


class StaleUpdate(Exception):
    """A versioned row changed since it was read: someone else's update came first."""


def discover_migrations(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    found = []
    for path in directory.iterdir():
        match = MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..N without gaps, found {numbers}")
    return found


class Database:
    """Owns the connection. Writes go through `transaction()`, which serializes them across tasks."""

    def __init__(self, connection: aiosqlite.Connection, path: Path):
        self.connection = connection
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path | str) -> Database:
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(path, isolation_level=None)
        connection.row_factory = aiosqlite.Row
        await connection.execute("PRAGMA journal_mode=WAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        await connection.execute("PRAGMA busy_timeout=5000")
        await connection.execute("PRAGMA synchronous=NORMAL")
        database = cls(connection, path)
        await database.migrate()
        return database

    async def close(self) -> None:
        await self.connection.close()

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            (version,) = required(await cursor.fetchone())
        return version

    async def migrate(self) -> None:
        current = await self.schema_version()
        for number, path in discover_migrations():
            if number <= current:
                continue
            log.info("applying migration %s", path.name)
            script = path.read_text(encoding="utf-8")
            # executescript commits on its own, so the version bump rides in the same script.
            await self.connection.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception (StaleUpdate included)."""
        async with self._write_lock:
            await self.connection.execute("BEGIN IMMEDIATE")
            try:
                yield self.connection
            except BaseException:
                await self.connection.execute("ROLLBACK")
                raise
            else:
                await self.connection.execute("COMMIT")

    async def fetch_one(self, sql: str, params: tuple | dict = ()) -> aiosqlite.Row | None:
        async with self.connection.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetch_all(self, sql: str, params: tuple | dict = ()) -> list[aiosqlite.Row]:
        async with self.connection.execute(sql, params) as cursor:
            return list(await cursor.fetchall())
