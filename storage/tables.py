"""What a game declares of each of its tables, beside its repository (`TABLES` in storage/mma/tables.py,
storage/andor.py, ...; storage/games.py lists them): the column naming the server, the columns naming a member
and what becomes of them when the member erases their data (RULINGS 8), the rows a table hangs off, what is live
in it, and what the game shows on a member's profile.

Server erasure (storage/lifecycle.py), /arena my-data and /arena forget-me (storage/member_data.py) and /arena
profile (storage/profile.py) are derived from these declarations; tests/storage/test_tables.py checks them
against the schema of both backends, so a table or a member column no game declares fails the suite.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from storage.protocol import Storage, StorageTransaction

FORMER_MEMBER = 0  # no Discord id is 0: it stands for a member who erased their data, where others' rows keep them
FORMER_MEMBER_NAME = "a former member"
FORMER_SERVER = 0  # no Discord id is 0: a server that was erased, where the world's records keep it
SERVER = "guild_id"

T = TypeVar("T")


@dataclass(frozen=True)
class Owned:
    """The row is the member's own: handed to them, and deleted when they erase their data."""

    column: str


@dataclass(frozen=True)
class Kept:
    """The row is the member's and also the others' (a match, a raid's attack, a battle a GM ran): handed to
    them, and kept for the others with their id as FORMER_MEMBER (and `name`, a column of their display name, as
    FORMER_MEMBER_NAME)."""

    column: str
    name: str | None = None


@dataclass(frozen=True)
class Mentioned:
    """Another member's row names the member (an opponent): not theirs to take, their id becomes FORMER_MEMBER."""

    column: str


@dataclass(frozen=True)
class Operator:
    """The bot's owner who acted for the whole installation (spawned a world boss): no server's member data, so
    neither handed out nor erased by a member."""

    column: str


MemberColumn = Owned | Kept | Mentioned | Operator


@dataclass(frozen=True)
class Parent:
    """Rows hanging off another table's row (a raid's attacks): the server's rows are those of its rows."""

    column: str  # this table's column holding the parent's key
    table: Table
    key: str = "id"


@dataclass(frozen=True)
class Going:
    """A live row the member is in holds back their erasure (it would end a game the others play on)."""

    noun: str  # one live row, as the refusal counts them
    nouns: str
    member: str | None = None  # the condition naming the member (one `?`); None: the table's member columns
    advice: str | None = None  # how to end one, beside the ways every refusal gives


@dataclass(frozen=True)
class InPlay:
    """The rows of a game going on in a channel (the table has a channel_id): `where`, with `params`."""

    where: str
    params: tuple[object, ...] = ()
    going: Going | None = None


Forget = Callable[[StorageTransaction, int, int], Awaitable[None]]


@dataclass(frozen=True)
class Table:
    """One table of a game. `server`: the column naming the server; None for rows that hang off a `parent`,
    or for a table of the whole installation (neither). `label`: what the member's rows are called in their
    copy (every table with an Owned or Kept column has one)."""

    name: str
    label: str | None = None
    server: str | None = SERVER
    parent: Parent | None = None
    members: tuple[MemberColumn, ...] = ()
    references: tuple[str, ...] = ()  # tables its foreign keys reference, beside its parent
    columns: str = "*"  # the columns handed out, as SQL lists them (leave out what is not the member's)
    order: str | None = None  # the order of the member's rows in their copy
    mentions_in: str | None = None  # a text column holding members' mentions, reworded where a member is anonymized
    alone_when: str | None = None  # Kept rows meeting it are the member's alone (against the AI): deleted
    in_play: InPlay | None = None
    forget_first: Forget | None = None  # what columns cannot say, done before any row of the member changes
    # The world's records keep the rows when their server is erased (a world boss's attacks, whose credit adds up
    # to its HP): the server and its members become FORMER_SERVER instead.
    outlives_server: bool = False

    def __post_init__(self) -> None:
        if self.server is not None and self.parent is not None:
            raise ValueError(f"{self.name}: a table hangs off its parent or names its server, not both")
        if self.label is None and self.exported:
            raise ValueError(f"{self.name}: a member's rows here are handed to them, so they need a label")

    @property
    def of_server(self) -> str | None:
        """The condition picking the server's rows (one `?`, the server's id); None: the installation's table."""
        if self.parent is not None:
            parent = self.parent.table.of_server
            return f"{self.parent.column} IN (SELECT {self.parent.key} FROM {self.parent.table.name} WHERE {parent})"
        return None if self.server is None else f"{self.server} = ?"

    @property
    def exported(self) -> tuple[str, ...]:
        """The columns whose member gets the row in their copy."""
        return tuple(c.column for c in self.members if isinstance(c, Owned | Kept))

    @property
    def depends_on(self) -> tuple[str, ...]:
        """The tables this one's rows reference: erased after it."""
        return (*(() if self.parent is None else (self.parent.table.name,)), *self.references)

    def member_condition(self) -> str:
        """The member's rows (one `?`, their id), by the columns that give them the row."""
        columns = self.exported
        return f"{columns[0]} = ?" if len(columns) == 1 else f"? IN ({', '.join(columns)})"


class ProfilePart(Protocol):
    """What a game shows of a member on /arena profile (cogs/arena/render.py words it)."""

    @property
    def empty(self) -> bool: ...


class InWorker(Protocol):
    """Runs CPU work off the event loop (an engine worker)."""

    def __call__(self, work: Callable[[], T], /) -> Awaitable[T]: ...


ReadProfile = Callable[[Storage, int, int, InWorker], Awaitable[ProfilePart]]


@dataclass(frozen=True)
class Tables:
    """A game's (or a part of Arena's) tables, in the order a member's copy lists them, and what its profile
    part reads (guild id, user id)."""

    owner: str
    tables: tuple[Table, ...]
    profile: ReadProfile | None = None


def erasure_order(declared: tuple[Tables, ...]) -> list[Table]:
    """Every declared table, each before the tables its rows reference (so deleting never breaks a key)."""
    tables = [table for owner in declared for table in owner.tables]
    referencing = {table.name: [t for t in tables if table.name in t.depends_on] for table in tables}
    ordered: list[Table] = []

    def place(table: Table) -> None:
        if table in ordered:
            return
        for child in referencing[table.name]:
            place(child)
        ordered.append(table)

    for table in tables:
        place(table)
    return ordered


__all__ = [
    "FORMER_MEMBER",
    "FORMER_MEMBER_NAME",
    "FORMER_SERVER",
    "Going",
    "InPlay",
    "InWorker",
    "Kept",
    "MemberColumn",
    "Mentioned",
    "Operator",
    "Owned",
    "Parent",
    "ProfilePart",
    "ReadProfile",
    "Table",
    "Tables",
    "erasure_order",
]
