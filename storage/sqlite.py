"""The SQLite backend (the default): a writing and a read-only aiosqlite connection to one file, their
pragmas, the migrations applied by PRAGMA user_version, and transactions one at a time."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncGenerator, Iterable
from contextlib import asynccontextmanager, suppress
from pathlib import Path

import aiosqlite

from storage.errors import STORAGE_FULL, OutageLog, StorageOutage, StorageUnavailable
from storage.protocol import Params, Row
from storage.rows import required
from storage.schema import check_not_newer, discover_migrations

log = logging.getLogger("arena.storage")

SQLITE_REASONS = {  # SQLite's message -> what the person running the bot can do about it
    "file is not a database": "the file is not an SQLite database (move it away, or point DATABASE_PATH elsewhere)",
    "database is locked": "another program holds a lock on it (is another copy of Arena running?)",
    "unable to open database file": "the file cannot be opened or created there (check the folder's permissions)",
    "attempt to write a readonly database": "it is read-only (check the file's and its folder's permissions)",
    "database or disk is full": "the disk is full",
    "disk I/O error": "reading or writing the file failed (is the disk full, or the file over a size limit?)",
}

SQLITE_FULL = "database or disk is full"

# milliseconds a statement waits for another connection's lock: briefly while starting (a lock held then is
# most likely another copy of Arena, and the person starting it should hear so at once), longer once running
# (a backup or a burst of writes from another process).
STARTUP_BUSY_TIMEOUT_MS = 1000
BUSY_TIMEOUT_MS = 5000


def _reason(error: sqlite3.Error) -> str:
    message = str(error)
    return next((reason for known, reason in SQLITE_REASONS.items() if known in message), message)


async def _connect(path: Path, opened: list[aiosqlite.Connection]) -> aiosqlite.Connection:
    connection = await aiosqlite.connect(path, isolation_level=None)
    opened.append(connection)
    connection.row_factory = aiosqlite.Row
    await connection.execute(
        f"PRAGMA busy_timeout={STARTUP_BUSY_TIMEOUT_MS}"
    )  # first: what follows may wait for a lock
    await connection.execute("PRAGMA foreign_keys=ON")
    return connection


class Transaction:
    """The statements of one transaction on SQLite (a `StorageTransaction`), as every repository writes them:
    SQL with `?` placeholders, rows read by column name. Repositories use only this and `Database.fetch_one` /
    `fetch_all`, never the driver."""

    def __init__(self, connection: aiosqlite.Connection):
        self._connection = connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run a statement; how many rows it changed."""
        async with self._connection.execute(sql, params) as cursor:
            return cursor.rowcount

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._connection.executemany(sql, rows)

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        async with self._connection.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._connection.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def fetch_required(self, sql: str, params: Params = ()) -> Row:
        """The row of a statement that always returns one (an aggregate, an INSERT ... RETURNING)."""
        return required(await self.fetch_one(sql, params))

    # SQLite has one writer: a transaction (BEGIN IMMEDIATE) already excludes every other write, so a
    # row it reads cannot change under it and no aggregate needs a lock of its own.
    async def fetch_locked(self, sql: str, params: Params = ()) -> Row | None:
        return await self.fetch_one(sql, params)

    async def lock(self, aggregate: str, key: int) -> None:
        return None


class Database:
    """Owns the connections. Writes go through `transaction()`, one at a time on the writing connection;
    `fetch_one` and `fetch_all` read on a second connection, which under WAL sees only committed data, never
    another task's transaction that may still roll back, and (each read running to its end in one call) every
    commit made before the read began."""

    def __init__(self, connection: aiosqlite.Connection, reader: aiosqlite.Connection, path: Path):
        self.connection = connection  # the writer
        self.reader = reader
        self.path = path
        self._write_lock = asyncio.Lock()
        self.outages = OutageLog(f"the SQLite database {path}")

    @classmethod
    async def open(cls, path: Path | str) -> Database:
        """Open (creating it and its folder if need be) and migrate; StorageUnavailable, with the connections
        closed, when the file cannot serve as the database."""
        path = Path(path)
        if str(path) == ":memory:":  # each connection would get its own, and a restart would lose every game
            raise StorageUnavailable(":memory: cannot be Arena's database: DATABASE_PATH must name a file")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageUnavailable(f"the folder {path.parent} cannot be created ({exc.strerror})") from None
        opened: list[aiosqlite.Connection] = []
        try:
            # Opened once directly first: aiosqlite's worker thread, when its own connect fails, outlives the
            # event loop and dies with a traceback of its own.
            sqlite3.connect(path).close()
            writer = await _connect(path, opened)
            await writer.execute("PRAGMA journal_mode=WAL")
            await writer.execute("PRAGMA synchronous=NORMAL")
            reader = await _connect(path, opened)
            await reader.execute("PRAGMA query_only=ON")
            database = cls(writer, reader, path)
            await database.migrate()
            await database.check_writable()
            for connection in opened:
                await connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            return database
        except (sqlite3.Error, StorageUnavailable) as exc:
            for connection in opened:
                await connection.close()  # its worker thread would otherwise keep the process alive
            if isinstance(exc, StorageUnavailable):
                raise
            raise StorageUnavailable(f"{path} cannot be used as Arena's database: {_reason(exc)}") from None

    async def check_writable(self) -> None:
        """A write that changes nothing, rolled back: a read-only file fails here, not at a player's first move
        (with the schema current, migrating writes nothing)."""
        version = await self.schema_version()
        await self.connection.execute("BEGIN IMMEDIATE")
        try:
            await self.connection.execute(f"PRAGMA user_version = {version}")
        finally:
            await self.connection.execute("ROLLBACK")

    async def close(self) -> None:
        await self.reader.close()
        await self.connection.close()

    async def schema_version(self) -> int:
        async with self.connection.execute("PRAGMA user_version") as cursor:
            (version,) = required(await cursor.fetchone())
        return version

    async def migrate(self) -> None:
        current = await self.schema_version()
        check_not_newer(current, str(self.path))
        # Foreign keys are off while migrating, as SQLite's way of rebuilding a table asks (a DROP TABLE would
        # otherwise delete the rows that reference it); each migration checks them before it commits.
        await self.connection.execute("PRAGMA foreign_keys=OFF")
        try:
            for number, path in discover_migrations():
                if number > current:
                    log.info("applying migration %s", path.name)
                    await self._apply(number, path.name, path.read_text(encoding="utf-8"))
        finally:
            await self.connection.execute("PRAGMA foreign_keys=ON")

    async def _apply(self, number: int, name: str, script: str) -> None:
        # executescript leaves the transaction it began open, with the version bump in it.
        await self.connection.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};")
        broken = await self.connection.execute_fetchall("PRAGMA foreign_key_check")
        if broken:
            await self.connection.execute("ROLLBACK")
            raise RuntimeError(f"migration {name} breaks foreign keys: {[tuple(row) for row in broken]}")
        await self.connection.execute("COMMIT")

    @asynccontextmanager
    async def transaction(self) -> AsyncGenerator[Transaction, None]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception (StaleUpdate included); StorageOutage when
        the disk is full."""
        async with self._write_lock:
            try:
                await self.connection.execute("BEGIN IMMEDIATE")
                try:
                    yield Transaction(self.connection)
                    await self.connection.execute("COMMIT")
                except BaseException:
                    # Also after a failed COMMIT, which SQLite can leave open (busy, disk full): left open, every
                    # later BEGIN would fail until a restart.
                    if self.connection.in_transaction:
                        with suppress(sqlite3.Error):
                            await self.connection.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as exc:
                if SQLITE_FULL not in str(exc):
                    raise
                self.outages.down(f"the disk holding {self.path} is full ({exc})")
                raise StorageOutage(STORAGE_FULL) from None
        self.outages.up()

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        """One row of committed data (the first, where the statement gives more)."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of committed data, as of the last commit before the read began.

        The statement runs and is read to its end in one call on the reader's thread: a cursor left open
        between calls would keep its read transaction (an old snapshot) open, and with reads overlapping on
        one connection a read could start inside another's snapshot and miss a commit made since."""
        return list(await self.reader.execute_fetchall(sql, params))
