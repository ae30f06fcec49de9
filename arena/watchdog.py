"""Every click and form gets an answer.

A click no live view or persistent button handles is told so. discord.py drops some failures of the others
with only a log line (a dynamic item whose `from_custom_id` or check raises, a view item gone): whatever is
still unanswered shortly before Discord's 3 s limit gets an error id instead of "This interaction failed".
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Generator
from typing import Any, Protocol

import discord

from arena.discord_internals import has_component_handler, set_response
from arena.tree import report_error
from observability import answered

ANSWER_DEADLINE = 2.5  # seconds: Discord fails an interaction not answered within 3 s of being sent
ANSWER_RECHECK = 0.2  # seconds: how often the watchdog looks again at an answer still on its way


class WatchingBot(Protocol):
    """What the watchdog needs of the bot (arena.bot.ArenaBot), which imports the watchdog: its loop, how long a
    click may go unanswered, whether it is stopping, and where it keeps a task nobody awaits."""

    answer_deadline: float

    @property
    def loop(self) -> asyncio.AbstractEventLoop: ...

    @property
    def stopping(self) -> bool: ...

    def keep(self, task: asyncio.Future[Any]) -> None: ...


class UnansweredInteraction(RuntimeError):
    """A click or form that its handler left without an answer."""


class WatchedResponse(discord.InteractionResponse):
    """An interaction's response that also knows when an answer is on its way to Discord.

    discord.py marks a response done only after Discord has confirmed it, so an answer sent just before the
    watchdog's deadline would still look unanswered while it travels, and the watchdog would post an error id
    over a click that succeeded.
    """

    __slots__ = ("sending",)

    def __init__(self, parent: discord.Interaction):
        super().__init__(parent)
        self.sending = False

    @contextlib.contextmanager
    def _sending(self) -> Generator[None, None, None]:
        self.sending = True
        try:
            yield
        finally:
            self.sending = False
        answered(self._parent)  # reached only once Discord confirmed it

    async def defer(self, *args: Any, **kwargs: Any) -> Any:
        with self._sending():
            return await super().defer(*args, **kwargs)

    async def send_message(self, *args: Any, **kwargs: Any) -> Any:
        with self._sending():
            return await super().send_message(*args, **kwargs)

    async def edit_message(self, *args: Any, **kwargs: Any) -> Any:
        with self._sending():
            return await super().edit_message(*args, **kwargs)

    async def send_modal(self, *args: Any, **kwargs: Any) -> Any:
        with self._sending():
            return await super().send_modal(*args, **kwargs)


def watch_response(interaction: discord.Interaction) -> None:
    """Give a new interaction a `WatchedResponse` (before its handler runs, so the handler answers through it)."""
    set_response(interaction, WatchedResponse(interaction))


async def see_answered(bot: WatchingBot, interaction: discord.Interaction) -> None:
    """Answer a click nothing handles at once; give any other click or form until `bot.answer_deadline`."""
    if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
        return
    if interaction.type is discord.InteractionType.component and not has_component_handler(
        interaction.client, interaction
    ):
        if bot.stopping:  # the games' buttons are unregistered while the bot stops
            reply = "⏳ The bot is restarting: press the button again in a moment."
        else:
            reply = "⌛ These buttons are no longer active. Run the command again for fresh ones."
        await interaction.response.send_message(reply, ephemeral=True)
        return
    bot.loop.call_later(bot.answer_deadline, answer_if_unanswered, bot, interaction)


def answer_if_unanswered(bot: WatchingBot, interaction: discord.Interaction) -> None:
    response = interaction.response
    if response.is_done():
        return
    if isinstance(response, WatchedResponse) and response.sending:
        # An answer is on its way (discord.py marks it done only once Discord confirms): never answer over it.
        bot.loop.call_later(ANSWER_RECHECK, answer_if_unanswered, bot, interaction)
        return
    problem = UnansweredInteraction(f"no answer within {bot.answer_deadline} s (see the exception logged before)")
    bot.keep(bot.loop.create_task(report_error(interaction, problem)))
