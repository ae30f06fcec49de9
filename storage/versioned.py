"""The one versioned save of a game's row, and the StaleUpdate of the save that lost the race."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

from storage.protocol import Row, StorageTransaction


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
) -> Row:
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
