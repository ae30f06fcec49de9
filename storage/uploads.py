"""A guild's uploads to a game's roster (bossfight bosses, andor monsters): one table, one repository per kind."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, Protocol, TypeVar

from storage.protocol import Storage
from storage.tables import Owned, Table, Tables


class Stored(Protocol):
    """What an upload is to storage: a pydantic model of the game's rules, stored as its JSON."""

    def model_dump_json(self) -> str: ...


M = TypeVar("M", bound=Stored)


class RosterFull(Exception):
    """An upload would give the guild more than `limit` entries of this kind; nothing was saved."""

    def __init__(self, total: int, limit: int):
        super().__init__(f"{total} uploaded; the limit is {limit}")
        self.total, self.limit = total, limit


class GuildUploads(Generic[M]):
    """The uploads of one `kind`, stored as JSON under the name keys the caller gives (rules.roster) and read
    back by `load` (the model's `model_validate_json`)."""

    def __init__(self, db: Storage, kind: str, load: Callable[[str], M]):
        self.db, self.kind, self.load = db, kind, load

    async def all(self, guild_id: int) -> list[M]:
        rows = await self.db.fetch_all(
            "SELECT name_key, entry_json FROM guild_uploads WHERE guild_id = ? AND kind = ?", (guild_id, self.kind)
        )
        # Sorted here, by code point as SQLite sorts: PostgreSQL's ORDER BY follows the database's collation.
        return [self.load(row["entry_json"]) for row in sorted(rows, key=lambda row: row["name_key"])]

    async def save(self, guild_id: int, entries: Sequence[tuple[str, M]], uploaded_by: int, *, limit: int) -> int:
        """Add or replace (by key) the `(name key, entry)` pairs; the guild's total after, or RosterFull."""
        async with self.db.transaction() as conn:
            await conn.lock(f"uploads {self.kind}", guild_id)  # two uploads at once cannot both pass the limit
            await conn.execute_many(
                "INSERT INTO guild_uploads (guild_id, kind, name_key, entry_json, uploaded_by) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, kind, name_key) DO UPDATE SET entry_json = excluded.entry_json, "
                "uploaded_by = excluded.uploaded_by, uploaded_at = excluded.uploaded_at",
                [(guild_id, self.kind, key, entry.model_dump_json(), uploaded_by) for key, entry in entries],
            )
            (total,) = await conn.fetch_required(
                "SELECT count(*) FROM guild_uploads WHERE guild_id = ? AND kind = ?", (guild_id, self.kind)
            )
            if total > limit:
                raise RosterFull(total, limit)  # rolls the upload back
        return total

    async def remove(self, guild_id: int, key: str) -> bool:
        """Remove the entry stored under `key`; False if the guild has none."""
        async with self.db.transaction() as conn:
            deleted = await conn.execute(
                "DELETE FROM guild_uploads WHERE guild_id = ? AND kind = ? AND name_key = ?", (guild_id, self.kind, key)
            )
            return deleted > 0


# An upload is its uploader's: erasing their data takes it off the server's roster.
TABLES = Tables(
    "uploads",
    (Table("guild_uploads", "uploaded bosses and monsters", members=(Owned("uploaded_by"),), order="kind, name_key"),),
)
