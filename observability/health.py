"""Whether the process is ready (/readyz) and alive (/healthz), as container platforms tell them apart.

Ready: every shard of this process is connected to Discord and the database answers a trivial query within
HEALTH_DATABASE_TIMEOUT, now. Alive: no problem has lasted longer than HEALTH_GRACE_SECONDS. Discord asks every
bot to reconnect from time to time, and a PostgreSQL restart takes seconds: both heal by themselves, and a
liveness probe that failed on them would restart a bot for nothing. Start-up counts as a reconnect: a shard
not yet connected is within the grace from the moment the bot was made.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from discord.ext import commands

from observability.metrics import shard_states
from observability.storage import MeasuredStorage
from storage.protocol import Storage

HEALTH_DATABASE_TIMEOUT = 1.0  # seconds the database has to answer the probes' query
STOPPING = "stopping"
DATABASE = "database"


def shard_key(shard: int | str) -> str:
    return f"shard {shard}"


class Health:
    """The problems of one bot, and since when each has lasted (`clock`: monotonic seconds; tests set it)."""

    def __init__(
        self,
        bot: commands.Bot,
        storage: Callable[[], Storage],
        grace: float,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.bot = bot
        self.storage = storage
        self.grace = grace
        self.clock = clock
        started = clock()
        self.since = {shard_key(shard_id): started for shard_id in shard_states(bot)}  # a problem -> first seen

    def gateway_event(self, event: str, shard: str) -> None:
        """A disconnect starts the shard's grace at once, even between two probes; a new session or a resume ends it."""
        if event == "disconnect":
            self.since.setdefault(shard_key(shard), self.clock())
        else:
            self.since.pop(shard_key(shard), None)

    async def problems(self) -> dict[str, str]:
        """What keeps the process from being ready now, in plain sentences, by key; none when it is ready."""
        if self.bot.is_closed():
            found = {STOPPING: "the bot is stopping"}
        else:
            found = {
                shard_key(shard_id): f"shard {shard_id} is not connected to Discord"
                for shard_id, state in sorted(shard_states(self.bot).items())
                if not state.connected
            }
            problem = await database_problem(self.storage)
            if problem is not None:
                found[DATABASE] = problem
        now = self.clock()
        self.since = {key: self.since.get(key, now) for key in found}
        return found

    async def readiness(self) -> list[str]:
        return list((await self.problems()).values())

    async def liveness(self) -> list[str]:
        """The problems that have lasted longer than the grace (stopping needs none), each with how long."""
        problems = await self.problems()
        now = self.clock()
        return [
            text
            if key == STOPPING
            else f"{text}, for {now - self.since[key]:.0f} s (HEALTH_GRACE_SECONDS: {self.grace:g})"
            for key, text in problems.items()
            if key == STOPPING or now - self.since[key] >= self.grace
        ]


async def database_problem(opened: Callable[[], Storage]) -> str | None:
    """What is wrong with the storage `opened` gives (RuntimeError: none is open yet), or None."""
    try:
        storage = opened()
    except RuntimeError:
        return "the database is not open"
    # Asked directly, not through the measured storage: the probes would swamp the games' figures.
    inner = storage.inner if isinstance(storage, MeasuredStorage) else storage
    try:
        await asyncio.wait_for(inner.fetch_one("SELECT 1"), HEALTH_DATABASE_TIMEOUT)
    except TimeoutError:
        return f"the database did not answer within {HEALTH_DATABASE_TIMEOUT:g} s"
    except Exception as exc:
        return f"the database did not answer: {type(exc).__name__}: {exc}"
    return None
