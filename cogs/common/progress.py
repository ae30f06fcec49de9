"""Progress of long work shown by editing one message, at most once per interval."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Generic, ParamSpec

import discord

log = logging.getLogger("arena.progress")


def progress_bar(fraction: float, width: int = 20) -> str:
    fraction = min(max(fraction, 0.0), 1.0)
    filled = int(fraction * width)
    return f"`{'█' * filled}{'░' * (width - filled)}` {fraction * 100:.0f}%"


P = ParamSpec("P")


class ProgressMessage(Generic[P]):
    """Collects progress reports from any thread and shows the latest one, throttled.

    `report(...)` is safe to call from a worker thread; the edit itself runs on the event loop. An edit Discord
    refuses (the message deleted, a hiccup) is logged and the work goes on: progress is a courtesy.
    """

    def __init__(
        self,
        edit: Callable[P, Awaitable[object]],
        *,
        what: str,
        min_interval: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self._edit = edit
        self._what = what
        self._min_interval = min_interval
        self._clock = clock  # a parameter so a test can pin the spacing of edits without waiting for it
        self._loop = asyncio.get_running_loop()
        # Edits run in the creator's context (a worker thread's own context variables are empty).
        self._context = contextvars.copy_context()
        self._latest: Callable[[], Awaitable[object]] | None = None  # the edit of the latest report
        self._last_shown = 0.0
        self._pending: asyncio.Task[None] | None = None
        self._closed = False

    def report(self, *args: P.args, **kwargs: P.kwargs) -> None:
        self._latest = functools.partial(self._edit, *args, **kwargs)
        self._loop.call_soon_threadsafe(self._schedule, context=self._context)

    def _schedule(self) -> None:
        if self._closed or (self._pending is not None and not self._pending.done()):
            return
        delay = max(0.0, self._last_shown + self._min_interval - self._clock())
        self._pending = self._loop.create_task(self._show_after(delay))

    async def _show_after(self, delay: float) -> None:
        await asyncio.sleep(delay)
        # A report that arrives while an edit is on its way is shown by this task too, an interval later.
        while not self._closed and self._latest is not None:
            edit, self._latest = self._latest, None
            try:
                await edit()
            except discord.HTTPException:
                log.warning("could not show the progress of %s", self._what, exc_info=True)
            finally:
                # Counted from the end of an edit, so edits are at least min_interval apart however slow they are.
                self._last_shown = self._clock()
            if self._latest is not None:
                await asyncio.sleep(self._min_interval)

    async def close(self) -> None:
        """Stop showing progress (the caller shows the final result itself)."""
        self._closed = True
        if self._pending is not None and not self._pending.done():
            self._pending.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._pending
