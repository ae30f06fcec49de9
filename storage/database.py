"""The process's one SQLite connection, its pragmas, migrations and transactions."""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import functools
import logging
import random
import re
import sqlite3
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, Protocol, TypeVar

import aiosqlite

log = logging.getLogger("arena.storage")

MIGRATIONS_DIR = Path(__file__).with_name("migrations")
MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class StorageUnavailable(Exception):
    """The database cannot be used; the text is one plain sentence naming the path and the problem."""


SQLITE_REASONS = {  # SQLite's message -> what the person running the bot can do about it
    "file is not a database": "the file is not an SQLite database (move it away, or point DATABASE_PATH elsewhere)",
    "database is locked": "another program holds a lock on it (is another copy of Arena running?)",
    "unable to open database file": "the file cannot be opened or created there (check the folder's permissions)",
    "attempt to write a readonly database": "it is read-only (check the file's and its folder's permissions)",
    "database or disk is full": "the disk is full",
    "disk I/O error": "reading or writing the file failed (is the disk full, or the file over a size limit?)",
}

SQLITE_FULL = "database or disk is full"

# PostgreSQL connections a process keeps open at most, so the transactions it runs at once (DATABASE_POOL_SIZE).
DEFAULT_POOL_SIZE = 10

# milliseconds a statement waits for another connection's lock: briefly while starting (a lock held then is
# most likely another copy of Arena, and the person starting it should hear so at once), longer once running
# (a backup or a burst of writes from another process).
STARTUP_BUSY_TIMEOUT_MS = 1000
BUSY_TIMEOUT_MS = 5000


def _reason(error: sqlite3.Error) -> str:
    message = str(error)
    return next((reason for known, reason in SQLITE_REASONS.items() if known in message), message)


def check_not_newer(version: int, database: str) -> None:
    """Refuse a database a newer Arena has migrated: this code would misread tables it does not know."""
    known = len(discover_migrations())
    if version > known:
        raise StorageUnavailable(
            f"{database} was last used by a newer Arena (schema {version}; this one knows up to {known}): run "
            "that newer version, or restore a backup taken before it"
        )


def utc_now_text() -> str:
    """Now, as the tables' timestamp columns hold it (ISO 8601 UTC to the millisecond, as SQLite's
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now') writes the defaults): computed here, so no statement depends on a
    database's own date functions."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


RowT = TypeVar("RowT")


def required(row: RowT | None) -> RowT:
    """The row of a statement that always returns one (an aggregate, an INSERT or UPDATE ... RETURNING of a
    row known to exist); its absence is a bug, not a user's mistake."""
    if row is None:
        raise RuntimeError("the statement returned no row")
    return row


if TYPE_CHECKING:
    from _typeshed import DataclassInstance

D = TypeVar("D", bound="DataclassInstance")


def from_row(cls: type[D], row: aiosqlite.Row, **converted: Any) -> D:
    """A dataclass from the row's columns of the same names; `converted` gives the fields stored otherwise
    (JSON, flags) or named differently."""
    names = {field.name for field in dataclasses.fields(cls)} - converted.keys()
    return cls(**{name: row[name] for name in names}, **converted)


class StaleUpdate(Exception):
    """A versioned row changed since it was read: someone else's update came first."""


async def save_versioned(
    conn: StorageTransaction,
    table: str,
    row_id: int,
    version: int,
    changes: Mapping[str, Any],
    *,
    status: str | None = None,
) -> Any:
    """The one versioned save of a game's row (a match, a fight, a battle): `changes` written and the version
    bumped only if the row is still at `version` (and, given `status`, still in it), returning the saved row.

    Otherwise StaleUpdate and nothing changes: another save came first. That is the one rule for a lost race,
    whichever process served the other click (no lock in memory keeps a game consistent): the loser reloads
    and either shows what came first (a click on an earlier moment) or plays its move again on it (a move
    that names no moment, such as a concession). `table` and the column names are the code's, never a user's.
    """
    assignments = "".join(f"{column} = ?, " for column in changes)
    sql = f"UPDATE {table} SET {assignments}version = version + 1 WHERE id = ? AND version = ?"
    params = [value.value if isinstance(value, enum.Enum) else value for value in changes.values()]
    params += [row_id, version]
    if status is not None:
        sql += " AND status = ?"
        params.append(str(status))
    row = await conn.fetch_one(sql + " RETURNING *", params)
    if row is None:
        raise StaleUpdate(row_id)
    return row


class WriteConflict(Exception):
    """A concurrent transaction stopped this one before it changed anything: PostgreSQL's serialization
    failure or deadlock, or a unique constraint that another transaction claimed first (two spawns in one
    channel). Running the whole unit of work again reads that transaction's write and acts on it
    (`retried_on_conflict`)."""


class StorageOutage(Exception):
    """The database cannot take any operation now; nothing was changed. The text is what a player is told;
    the database logs the outage once, and its end."""


DATABASE_UNREACHABLE = "The game's database is not reachable right now; nothing was changed, try again in a minute."
STORAGE_FULL = "The bot's storage is full; nothing was changed; tell the bot's operator."


class OutageLog:
    """One warning when a database starts failing and one line when it answers again, instead of a traceback
    for every click in between."""

    def __init__(self, what: str):
        self.what = what
        self.down_since: str | None = None

    def down(self, problem: str) -> None:
        if self.down_since is None:
            self.down_since = utc_now_text()
            log.warning("%s: %s; players are told to try again later", self.what, problem)

    def up(self) -> None:
        if self.down_since is not None:
            log.info("%s answers again (failing since %s)", self.what, self.down_since)
            self.down_since = None


CONFLICT_ATTEMPTS = 5
P = ParamSpec("P")
T = TypeVar("T")


def retried_on_conflict(unit: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """A repository method that is one unit of work (it opens its own transaction), run again when a
    concurrent transaction made it fail with WriteConflict; the last conflict is raised after
    CONFLICT_ATTEMPTS tries. A short random pause lets the winner commit and keeps the retries apart."""

    @functools.wraps(unit)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        for attempt in range(1, CONFLICT_ATTEMPTS):
            try:
                return await unit(*args, **kwargs)
            except WriteConflict:
                await asyncio.sleep(random.uniform(0, 0.002 * attempt))
        return await unit(*args, **kwargs)

    return run


def discover_migrations(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    found: list[tuple[int, Path]] = []
    for path in directory.iterdir():
        match = MIGRATION_NAME.match(path.name)
        if match:
            found.append((int(match.group(1)), path))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..N without gaps, found {numbers}")
    return found


async def _connect(path: Path, opened: list[aiosqlite.Connection]) -> aiosqlite.Connection:
    connection = await aiosqlite.connect(path, isolation_level=None)
    opened.append(connection)
    connection.row_factory = aiosqlite.Row
    await connection.execute(
        f"PRAGMA busy_timeout={STARTUP_BUSY_TIMEOUT_MS}"
    )  # first: what follows may wait for a lock
    await connection.execute("PRAGMA foreign_keys=ON")
    return connection


Params = Sequence[Any] | Mapping[str, Any]


class StorageTransaction(Protocol):
    """What a repository may do inside a transaction, on either backend (`Transaction` here, and
    `storage.postgres.PostgresTransaction`). Rows are read by column name (or unpacked in order)."""

    async def execute(self, sql: str, params: Params = ()) -> int: ...

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None: ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Any: ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Any]: ...

    async def fetch_required(self, sql: str, params: Params = ()) -> Any: ...

    async def fetch_locked(self, sql: str, params: Params = ()) -> Any:
        """The first row of a plain SELECT of one table, locked until the transaction ends: a concurrent
        transaction that locks or changes that row waits, and then reads what this one wrote. For a
        read-modify-write of a row that no single UPDATE can express."""
        ...

    async def lock(self, aggregate: str, key: int) -> None:
        """Hold the lock of one aggregate (`"mma seats", channel_id`) until the transaction ends, for a
        check-then-insert that no row or constraint can guard; other aggregates never wait for it."""
        ...


class Storage(Protocol):
    """A database the repositories use: SQLite (`Database`, the default) or PostgreSQL
    (`storage.postgres.PostgresDatabase`)."""

    def transaction(self) -> AbstractAsyncContextManager[StorageTransaction]: ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Any: ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Any]: ...

    async def close(self) -> None: ...


class Transaction:
    """The statements of one transaction, as every repository writes them: SQL with `?` placeholders, rows read
    by column name. Repositories use only this and `Database.fetch_one` / `fetch_all`, never the driver, so a
    second backend needs only its own connection layer."""

    def __init__(self, connection: aiosqlite.Connection):
        self._connection = connection

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run a statement; how many rows it changed."""
        async with self._connection.execute(sql, params) as cursor:
            return cursor.rowcount

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._connection.executemany(sql, rows)

    async def fetch_one(self, sql: str, params: Params = ()) -> aiosqlite.Row | None:
        async with self._connection.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def fetch_all(self, sql: str, params: Params = ()) -> list[aiosqlite.Row]:
        async with self._connection.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def fetch_required(self, sql: str, params: Params = ()) -> aiosqlite.Row:
        """The row of a statement that always returns one (an aggregate, an INSERT ... RETURNING)."""
        return required(await self.fetch_one(sql, params))

    # SQLite has one writer: a transaction (BEGIN IMMEDIATE) already excludes every other write, so a
    # row it reads cannot change under it and no aggregate needs a lock of its own.
    async def fetch_locked(self, sql: str, params: Params = ()) -> aiosqlite.Row | None:
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

    async def fetch_one(self, sql: str, params: Params = ()) -> aiosqlite.Row | None:
        """One row of committed data (the first, where the statement gives more)."""
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Params = ()) -> list[aiosqlite.Row]:
        """Every row of committed data, as of the last commit before the read began.

        The statement runs and is read to its end in one call on the reader's thread: a cursor left open
        between calls would keep its read transaction (an old snapshot) open, and with reads overlapping on
        one connection a read could start inside another's snapshot and miss a commit made since."""
        return list(await self.reader.execute_fetchall(sql, params))
