"""Work set for a moment to come, one timer per key (a match's idle claim opening, a tournament's start time).

The timers are in memory: a cog sets them again from storage when it loads. A timer that fires runs its work
as a task the cog keeps until it ends; a failure there is logged with its traceback, never lost, and the
stored state it acts on is read again by whatever comes next (a click, the next start)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Hashable
from typing import Any, Generic, TypeVar

log = logging.getLogger("arena.timers")

K = TypeVar("K", bound=Hashable)
Work = Callable[[], Coroutine[Any, Any, None]]


class Timers(Generic[K]):
    def __init__(self, what: str):
        """`what`: "redraw match %s as its idle claim opened"."""
        self.what = what  # what a timer does, for its failure's log line, with %s for the key
        self.delay: Callable[[float], float] = lambda seconds: seconds  # a test shortens the waits
        self.timers: dict[K, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def set(self, key: K, seconds: float, work: Work) -> None:
        """Run `work` in `seconds` (at once if none are left), replacing the key's timer if it has one."""
        self.cancel(key)
        loop = asyncio.get_running_loop()
        self.timers[key] = loop.call_later(self.delay(max(0.0, seconds)), self._fire, key, work)

    def cancel(self, key: K) -> None:
        if (timer := self.timers.pop(key, None)) is not None:
            timer.cancel()

    def close_all(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()

    def _fire(self, key: K, work: Work) -> None:
        self.timers.pop(key, None)
        task = asyncio.get_running_loop().create_task(self._run(key, work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, key: K, work: Work) -> None:
        try:
            await work()
        except Exception:
            log.warning("could not " + self.what, key, exc_info=True)
