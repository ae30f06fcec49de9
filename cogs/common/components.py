"""Persistent buttons and selects, built one way for every game.

Every custom_id is `<game>:<id>:<version>:<action>`: the game, the stored thing it acts on (a match, a fight, a
battle, a job), that thing's version when the message was drawn, and what the component does. The handler
loads the thing from storage; a click carrying an older version is stale and changes nothing.

A game declares one `GameButton` (and, if it needs one, one `GameSelect`) subclass with `component_template`,
registers it with `bot.add_dynamic_items` in `cog_load`, and gives its cog an `on_component(interaction,
component)` coroutine. The template matches on every start, so the components work after a restart.

A custom id is only a string a client sends back, so nothing in it is trusted: its numbers are bounded by the
template (a number that does not fit gets the reply of any unknown id), and the handler checks with
`require_here` that the thing it loaded belongs to the server (and, where it matters, the channel) the click
came from before it acts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

import discord
from discord.ext import commands

from arena.tree import UserError, error_reply
from cogs.common.cog import GameCog

MAX_ID = 2**63 - 1  # the databases' signed 64-bit integers; Discord's snowflakes (19 digits since 2022) fit


def at_most(limit: int) -> str:
    """A regular expression of the whole numbers from 0 to `limit`, without leading zeros: a larger number does
    not match (rather than overflow the query it would reach)."""
    digits = str(limit)
    shorter = [f"[1-9][0-9]{{0,{len(digits) - 2}}}"] if len(digits) > 1 else []
    # as long as `limit`: its first i digits, then a smaller digit, then any digits
    same_length = [
        f"{digits[:i]}[{1 if i == 0 else 0}-{int(digit) - 1}][0-9]{{{len(digits) - i - 1}}}"
        for i, digit in enumerate(digits)
        if int(digit) > (1 if i == 0 else 0)
    ]
    return "|".join(["0", *shorter, *same_length, digits])


# Every number a custom id carries as an id (a match, a member ...): a larger one is an unknown id.
NUMERIC_ID = f"(?:{at_most(MAX_ID)})"
VERSION = r"[0-9]{1,9}"


def stored_id(text: str) -> int | None:
    """The id a user typed (`12`), or None if it is not one a database can hold."""
    return int(text) if re.fullmatch(NUMERIC_ID, text) else None


Button = discord.ui.Button[discord.ui.View]
Select = discord.ui.Select[discord.ui.View]
ItemT = TypeVar("ItemT", Button, Select)


def custom_id(game: str, item_id: int | str, version: int, action: str) -> str:
    return f"{game}:{item_id}:{version}:{action}"


def component_template(game: str, actions: Iterable[str], *, ids: str = NUMERIC_ID, extra_actions: str = "") -> str:
    """The regular expression of a game's custom ids, with the groups `id`, `version` and `action`.
    `extra_actions` is a pattern of actions that carry a value (MMA's `play-<card>`)."""
    choices = "|".join([re.escape(action) for action in actions] + ([extra_actions] if extra_actions else []))
    return rf"{re.escape(game)}:(?P<id>{ids}):(?P<version>{VERSION}):(?P<action>{choices})"


def stale(what: str) -> UserError:
    """The one refusal of a click on components drawn for an earlier moment of `what` (a match, a fight ...)."""
    return UserError(
        f"These buttons are from an earlier moment of this {what}, so nothing was changed. Use the latest ones."
    )


def redrawn(what: str) -> str:
    """Said privately after a click on components drawn for an earlier moment of `what`, once the message has
    been brought up to the stored state (a double click, or a move saved before the message could show it)."""
    return (
        f"⌛ These buttons were from an earlier moment of this {what}, so nothing was changed. The message now "
        f"shows the {what} as it is: use its buttons."
    )


class Placed(Protocol):
    """Where a stored thing a component acts on was started: its server (None: a direct message) and channel."""

    @property
    def guild_id(self) -> int | None: ...

    @property
    def channel_id(self) -> int | None: ...


def require_here(interaction: discord.Interaction, what: str, placed: Placed, *, channel: bool = False) -> None:
    """The one refusal of a click on `what` (a match, a fight ...) from another server, or with `channel`
    another channel, than the one it belongs to: a replayed or forged custom id never acts there."""
    if placed.guild_id != interaction.guild_id:
        raise UserError(f"This {what} belongs to another server, so nothing was changed.")
    if channel and placed.channel_id != interaction.channel_id:
        raise UserError(f"This {what} belongs to another channel, so nothing was changed.")


def running_cog(interaction: discord.Interaction, cog_name: str, game_title: str) -> GameCog[Any]:
    """The cog that handles a game's components; a polite refusal while it is not loaded (start-up, reload)."""
    cog = interaction.client.get_cog(cog_name) if isinstance(interaction.client, commands.Bot) else None
    if not isinstance(cog, GameCog):
        raise UserError(f"{game_title} is not running right now; try again in a moment.")
    return cast("GameCog[Any]", cog)


class GameComponent(Generic[ItemT]):
    """What a game's button and select share: the parsed custom id and the dispatch to the game's cog."""

    cog_name: ClassVar[str]
    game_title: ClassVar[str]
    item: ItemT

    def _parse(self, template: re.Pattern[str]) -> None:
        match = template.fullmatch(self.item.custom_id or "")
        if match is None:  # only a programming mistake gets here: discord.py matched the template to route it
            raise ValueError(f"custom_id {self.item.custom_id!r} does not fit {template.pattern}")
        self.item_id: str = match["id"]
        self.version = int(match["version"])
        self.action: str = match["action"]

    @property
    def numeric_id(self) -> int:
        return int(self.item_id)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with error_reply(interaction):
            await running_cog(interaction, self.cog_name, self.game_title).on_component(interaction, self)


class GameButton(GameComponent[Button], discord.ui.DynamicItem[Button], template=r"(?!)"):
    """Base of a game's persistent button (the base's own template never matches)."""

    def __init__(self, button: Button, *, row: int | None = None):
        super().__init__(button, row=row)
        self._parse(self.template)

    @classmethod
    def make(
        cls,
        game: str,
        item_id: int | str,
        version: int,
        action: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> Self:
        button: Button = discord.ui.Button(
            label=label,
            style=style,
            emoji=emoji,
            disabled=disabled,
            custom_id=custom_id(game, item_id, version, action),
        )
        return cls(button, row=row)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        if not isinstance(item, discord.ui.Button):  # discord.py routes by the template, which only buttons carry
            raise TypeError(f"a button's custom id on a {type(item).__name__}")
        return cls(cast(Button, item))


class GameSelect(GameComponent[Select], discord.ui.DynamicItem[Select], template=r"(?!)"):
    """Base of a game's persistent select (one choice); `values` are what the member chose."""

    def __init__(self, select: Select, *, row: int | None = None):
        super().__init__(select, row=row)
        self._parse(self.template)

    @classmethod
    def make(
        cls, game: str, item_id: int | str, version: int, action: str, options: list[discord.SelectOption], *,
        placeholder: str | None = None, row: int | None = None,
    ) -> Self:  # fmt: skip
        select: Select = discord.ui.Select(
            custom_id=custom_id(game, item_id, version, action), options=options, placeholder=placeholder
        )
        return cls(select, row=row)

    @property
    def values(self) -> list[str]:
        return self.item.values

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        if not isinstance(item, discord.ui.Select):  # discord.py routes by the template, which only selects carry
            raise TypeError(f"a select's custom id on a {type(item).__name__}")
        return cls(cast(Select, item))
