"""Progress of long work shown by editing one message, at most once per interval, and the word shown when the bot
stops during it."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager, suppress
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

    An edit on its way is never cancelled: `close()` waits for it. discord.py's webhook adapter holds the
    message's rate-limit lock while it sleeps out an exhausted bucket, and a task cancelled in that sleep never
    releases it, so every later request for the interaction (the work's final answer) would wait for ever.
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
        self._editing = False  # an edit is on its way: it is waited for, never cancelled
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
            self._editing = True
            try:
                await edit()
            except discord.HTTPException:
                log.warning("could not show the progress of %s", self._what, exc_info=True)
            finally:
                self._editing = False
                # Counted from the end of an edit, so edits are at least min_interval apart however slow they are.
                self._last_shown = self._clock()
            if self._latest is not None:
                await asyncio.sleep(self._min_interval)

    async def close(self) -> None:
        """Stop showing progress (the caller shows the final result itself): a wait for the next edit ends at once,
        an edit on its way is let finish first, so the caller's own edit comes after it."""
        self._closed = True
        pending = self._pending
        if pending is None or pending.done():
            return
        if not self._editing:
            pending.cancel()
        try:
            # Shielded: a caller cancelled while it waits (a shutdown) still leaves the edit to finish.
            await asyncio.shield(pending)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():  # the caller's own cancellation goes on
                raise
        except Exception:  # the task's own failure: progress is a courtesy
            log.warning("the progress of %s ended with an error", self._what, exc_info=True)


INVALID_WEBHOOK_TOKEN = 50027  # Discord's error code for an interaction token past its 15 minutes


async def show_result(
    interaction: discord.Interaction,
    *,
    embed: discord.Embed,
    files: Callable[[], Sequence[discord.File]] = list,
    view: discord.ui.View | None = None,
    what: str,
) -> None:
    """The end of long work, on the interaction's response. Work that outlived the interaction's token (Discord
    takes answers for 15 minutes) comes as a new message in the channel, saying whose `what` it is; `files` is
    a factory because a file an edit has read cannot be sent again."""
    try:
        await interaction.edit_original_response(embed=embed, attachments=files(), view=view)
        return
    except discord.HTTPException as error:
        if error.code != INVALID_WEBHOOK_TOKEN:
            raise
    channel = interaction.client.get_partial_messageable(interaction.channel_id or 0, guild_id=interaction.guild_id)
    note = f"{interaction.user.mention}'s {what} ran past the 15 minutes Discord gives an answer, so here it is anew."
    try:
        await channel.send(note, embed=embed, files=files(), view=view or discord.utils.MISSING)
    except discord.HTTPException as refused:
        log.warning(
            "the result of %s in channel %s outlived its interaction and could not be posted: %s",
            what,
            interaction.channel_id,
            refused.text or refused.status,
        )


@asynccontextmanager
async def told_if_stopped(
    interaction: discord.Interaction, what: str, *, stopped: Callable[[], discord.Embed] | None = None
) -> AsyncGenerator[None, None]:
    """Wrap long work after a deferral: when the bot stops while it runs (its shutdown cancels the handler once
    the grace is over), the reply says so instead of "thinking…" (or its last progress) until Discord gives up
    on it. `stopped` builds the embed to show instead of the plain sentence. Close a ProgressMessage inside."""
    try:
        yield
    except asyncio.CancelledError:
        sentence = f"⏹️ The bot restarted during {what}, which ended it; run it again."
        with suppress(discord.HTTPException):
            await interaction.edit_original_response(
                content=None if stopped else sentence,
                embed=stopped() if stopped else None,
                attachments=[],
                view=None,
            )
        raise
