"""How a database fails, on either backend: the errors a repository or the bot sees, the sentences a player is
told, and the one log line an outage writes when it starts and when it ends."""

from __future__ import annotations

import logging

from storage.rows import utc_now_text

log = logging.getLogger("arena.storage")


class StorageUnavailable(Exception):
    """The database cannot be used; the text is one plain sentence naming the path and the problem."""


class WriteConflict(Exception):
    """A concurrent transaction stopped this one before it changed anything: PostgreSQL's serialization
    failure or deadlock, or a unique constraint that another transaction claimed first (two spawns in one
    channel). Running the whole unit of work again reads that transaction's write and acts on it
    (`storage.retry.retried_on_conflict`)."""


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
