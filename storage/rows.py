"""What the repositories do with rows and columns on either backend: a row that must be there, a dataclass read
from a row, and now as the timestamp columns hold it."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from storage.protocol import Row

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


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


D = TypeVar("D", bound="DataclassInstance")


def from_row(cls: type[D], row: Row, **converted: Any) -> D:
    """A dataclass from the row's columns of the same names; `converted` gives the fields stored otherwise
    (JSON, flags) or named differently."""
    names = {field.name for field in dataclasses.fields(cls)} - converted.keys()
    return cls(**{name: row[name] for name in names}, **converted)
