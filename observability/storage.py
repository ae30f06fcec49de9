"""The open storage, measured: every transaction and read timed, and failures of the database counted, by backend.

A wrapper around whichever `Storage` the bot opened, so the backends themselves know nothing of metrics.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from storage.errors import StorageOutage, StorageUnavailable
from storage.protocol import Params, Row, Storage, StorageTransaction

if TYPE_CHECKING:
    from observability.metrics import Metrics

BACKENDS = {"Database": "sqlite", "PostgresDatabase": "postgresql"}  # the class the bot opened -> the label


def backend_of(storage: Storage) -> str:
    name = type(storage).__name__
    return BACKENDS.get(name, name.lower())


def database_failure(error: BaseException) -> bool:
    """An error of the database or the way to it; not a stale update, a user's mistake, or a cancellation."""
    if isinstance(error, (sqlite3.Error, OSError, TimeoutError, StorageUnavailable, StorageOutage)):
        return True
    return type(error).__module__.split(".")[0] == "asyncpg"  # its errors, loaded only with PostgreSQL


class MeasuredStorage:
    """A `Storage` that times each operation of the one it wraps (`inner`)."""

    def __init__(self, inner: Storage, metrics: Metrics):
        self.inner = inner
        self.backend = backend_of(inner)
        self._seconds = {
            operation: metrics.database_seconds.labels(self.backend, operation)
            for operation in ("transaction", "fetch_one", "fetch_all")
        }
        self._errors = {
            operation: metrics.database_errors.labels(self.backend, operation) for operation in self._seconds
        }

    @asynccontextmanager
    async def _measuring(self, operation: str) -> AsyncGenerator[None, None]:
        started = time.perf_counter()
        try:
            yield
        except BaseException as error:
            if database_failure(error):
                self._errors[operation].inc()
            raise
        finally:
            self._seconds[operation].observe(time.perf_counter() - started)

    @asynccontextmanager
    async def transaction(self) -> AsyncGenerator[StorageTransaction, None]:
        async with self._measuring("transaction"), self.inner.transaction() as transaction:
            yield transaction

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        async with self._measuring("fetch_one"):
            return await self.inner.fetch_one(sql, params)

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._measuring("fetch_all"):
            return await self.inner.fetch_all(sql, params)

    async def close(self) -> None:
        await self.inner.close()
