"""What the repositories ask of a database, whichever backend serves it: `Storage` (reads of committed data and
transactions), `StorageTransaction` (the statements of one transaction) and the `Row` they return."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, overload

Params = Sequence[Any] | Mapping[str, Any]

# PostgreSQL connections a process keeps open at most, so the transactions it runs at once (DATABASE_POOL_SIZE).
# Here rather than in storage.postgres, so the settings read it without loading asyncpg.
DEFAULT_POOL_SIZE = 10


class Row(Protocol):
    """A row as either backend returns it (SQLite's `sqlite3.Row`, PostgreSQL's `asyncpg.Record`): read by
    column name or position, unpacked in order, its column names from `keys()`."""

    @overload
    def __getitem__(self, key: str, /) -> Any: ...

    @overload
    def __getitem__(self, key: int, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...

    def keys(self) -> Iterable[str]: ...


class StorageTransaction(Protocol):
    """What a repository may do inside a transaction, on either backend (`storage.sqlite.Transaction` and
    `storage.postgres.PostgresTransaction`). Rows are read by column name (or unpacked in order)."""

    async def execute(self, sql: str, params: Params = ()) -> int: ...

    async def execute_many(self, sql: str, rows: Iterable[Params]) -> None: ...

    # A Row or None; Any while callers read the row of a statement that always returns one without `required`.
    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None: ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetch_required(self, sql: str, params: Params = ()) -> Row: ...

    async def fetch_locked(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a plain SELECT of one table, locked until the transaction ends: a concurrent
        transaction that locks or changes that row waits, and then reads what this one wrote. For a
        read-modify-write of a row that no single UPDATE can express."""
        ...

    async def lock(self, aggregate: str, key: int) -> None:
        """Hold the lock of one aggregate (`"mma seats", channel_id`) until the transaction ends, for a
        check-then-insert that no row or constraint can guard; other aggregates never wait for it."""
        ...


class Storage(Protocol):
    """A database the repositories use: SQLite (`storage.sqlite.Database`, the default) or PostgreSQL
    (`storage.postgres.PostgresDatabase`)."""

    def transaction(self) -> AbstractAsyncContextManager[StorageTransaction]: ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None: ...

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def close(self) -> None: ...
