"""What Arena keeps about one member in one server: handed to them (`export`, /arena my-data) and erased on
their word (`forget`, /arena forget-me), in one transaction.

RULINGS 8: a member who erases their data leaves the leaderboard and loses their profile there; the matches they
played stay in their opponents' histories as played against "a former member", and the rating changes those
matches gave the opponents stand. So the member's own rows are deleted, and in rows that are also someone
else's (an MMA match, an opponent's result and rating change, a raid's attacks, a battle a GM ran) their id
becomes FORMER_MEMBER and their name FORMER_MEMBER_NAME: a raid's credited damage still adds up to the boss's
HP, and a match still replays. Live games are not ended for them: `forget` refuses while one is going
(`LiveGames`), since ending one would decide a result the opponent did not play for.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from storage.games import ERASURE_ORDER, TABLES
from storage.protocol import Storage, StorageTransaction
from storage.retry import retried_on_conflict
from storage.rows import required
from storage.tables import FORMER_MEMBER, FORMER_MEMBER_NAME, Going, Kept, Mentioned, Owned, Table

# Everything below is derived from the games' declarations (storage/tables.py): each statement takes the
# parameters (guild_id, user_id), an anonymization that rewords mentions the member's mention before them.


def _export(table: Table) -> str:
    order = f" ORDER BY {table.order}" if table.order else ""
    return f"SELECT {table.columns} FROM {table.name} WHERE {table.of_server} AND {table.member_condition()}{order}"


def _erasure(table: Table) -> list[tuple[str, bool]]:
    """The member's own rows of the table deleted, and their id in the rows kept for the others anonymized;
    each statement with whether it takes the member's mention first."""
    here = table.of_server
    statements = [
        (f"DELETE FROM {table.name} WHERE {here} AND {column.column} = ?", False)
        for column in table.members
        if isinstance(column, Owned)
    ]
    if table.alone_when is not None:
        statements.append(
            (f"DELETE FROM {table.name} WHERE {here} AND {table.member_condition()} AND ({table.alone_when})", False)
        )
    for column in table.members:
        if isinstance(column, Kept | Mentioned):
            sets = [f"{column.column} = {FORMER_MEMBER}"]
            if isinstance(column, Kept) and column.name is not None:
                sets.append(f"{column.name} = '{FORMER_MEMBER_NAME}'")
            if table.mentions_in is not None:
                sets.append(f"{table.mentions_in} = replace({table.mentions_in}, ?, '{FORMER_MEMBER_NAME}')")
            statement = f"UPDATE {table.name} SET {', '.join(sets)} WHERE {here} AND {column.column} = ?"
            statements.append((statement, table.mentions_in is not None))
    return statements


EXPORTED = tuple((table, _export(table)) for table in TABLES if table.exported)
# In order, a row before the rows it references. The AI's matches are the member's alone.
ERASURE = tuple(statement for table in ERASURE_ORDER for statement in _erasure(table))
# The games going on that hold back an erasure, each counting the member's live rows.
GOING = tuple(
    (
        table.name,
        in_play.going,
        f"SELECT count(*) AS n FROM {table.name} WHERE {table.of_server} "
        f"AND {in_play.going.member or table.member_condition()} AND ({in_play.where})",
        in_play.params,
    )
    for table in TABLES
    if (in_play := table.in_play) is not None and in_play.going is not None
)

Rows = dict[str, list[dict[str, Any]]]


@dataclass(frozen=True)
class MemberData:
    """Every row about the member in the server, by table (tables without one are left out)."""

    guild_id: int
    user_id: int
    rows: Rows

    @property
    def empty(self) -> bool:
        return not self.rows

    def counts(self) -> list[tuple[str, int]]:
        """(label, rows) of each table holding some, in the order of the games' declarations."""
        return [
            (table.label or table.name, len(self.rows[table.name])) for table, _ in EXPORTED if table.name in self.rows
        ]

    def to_json(self) -> str:
        return json.dumps(
            {"guild_id": self.guild_id, "user_id": self.user_id, "tables": self.rows}, indent=1, default=str
        )

    @property
    def fingerprint(self) -> int:
        """A 9-digit digest of every row: a confirmation drawn for this data erases only this data."""
        digest = hashlib.blake2b(self.to_json().encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") % 1_000_000_000


class LiveGames(Exception):
    """The member has games going in the server that would end without them (the games' `Going` rows): how many
    of each, in the order of the declarations."""

    def __init__(self, going: list[tuple[str, Going, int]]):
        super().__init__(", ".join(f"{count} live {kind.nouns}" for _, kind, count in going))
        self.going = going  # (table, what its live rows are, how many name the member)

    def of(self, table: str) -> int:
        """How many of the table's live rows name the member."""
        return sum(count for name, _, count in self.going if name == table)

    def __bool__(self) -> bool:
        return any(count for _, _, count in self.going)


class ChangedSinceAsked(Exception):
    """The member's data is not what the confirmation was drawn for (already erased, or changed since)."""

    def __init__(self, now: MemberData):
        super().__init__("the member's data changed since the confirmation")
        self.now = now


def _plain(value: Any) -> Any:
    return value.hex() if isinstance(value, bytes | bytearray | memoryview) else value


async def _collect(reader: Storage | StorageTransaction, guild_id: int, user_id: int) -> MemberData:
    rows: Rows = {}
    for table, select in EXPORTED:
        found = await reader.fetch_all(select, (guild_id, user_id))
        if found:
            rows[table.name] = [{key: _plain(value) for key, value in dict(row).items()} for row in found]
    return MemberData(guild_id, user_id, rows)


async def _live(reader: Storage | StorageTransaction, guild_id: int, user_id: int) -> LiveGames:
    # Counts: each statement returns one row.
    return LiveGames(
        [
            (table, kind, int(required(await reader.fetch_one(count, (guild_id, user_id, *params)))["n"]))
            for table, kind, count, params in GOING
        ]
    )


class MemberDataRepository:
    def __init__(self, db: Storage):
        self.db = db

    async def export(self, guild_id: int, user_id: int) -> MemberData:
        return await _collect(self.db, guild_id, user_id)

    async def live_games(self, guild_id: int, user_id: int) -> LiveGames:
        """What the member has going in the server (false when nothing)."""
        return await _live(self.db, guild_id, user_id)

    @retried_on_conflict
    async def forget(self, guild_id: int, user_id: int, fingerprint: int) -> MemberData:
        """Erase the member's data in the server, in one transaction, if it is still what `fingerprint` was taken
        of (ChangedSinceAsked otherwise, LiveGames while a game goes on: nothing changed); returns what was
        erased."""
        async with self.db.transaction() as conn:
            live = await _live(conn, guild_id, user_id)
            if live:
                raise live
            data = await _collect(conn, guild_id, user_id)
            if data.empty or data.fingerprint != fingerprint:
                raise ChangedSinceAsked(data)
            for table in TABLES:
                if table.forget_first is not None:
                    await table.forget_first(conn, guild_id, user_id)
            for sql, reworded in ERASURE:
                await conn.execute(sql, (f"<@{user_id}>", guild_id, user_id) if reworded else (guild_id, user_id))
            return data


__all__ = [
    "FORMER_MEMBER",
    "FORMER_MEMBER_NAME",
    "ChangedSinceAsked",
    "LiveGames",
    "MemberData",
    "MemberDataRepository",
]
