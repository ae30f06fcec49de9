"""The persistent components of /mma: every custom_id is `mma:<match id>:<action>[:<version>[:<card>]]`.

They are DynamicItem templates registered at start-up, so a button on any match message works after a
restart; the handler loads the match from storage. The version is the match's version when the message
was drawn: a click carrying an older one is stale and changes nothing.
"""

from __future__ import annotations

import discord

from cogs.common import UserError, error_reply

BUTTON_ACTIONS = ("hand", "draw", "skip", "end", "concede", "resign", "claim", "accept", "decline", "again", "play")
BUTTON_TEMPLATE = (
    r"mma:(?P<match>[0-9]{1,18}):(?P<action>"
    + "|".join(BUTTON_ACTIONS)
    + r")(?::(?P<version>[0-9]{1,18}))?(?::(?P<card>[0-9]{1,3}))?"
)
SELECT_TEMPLATE = r"mma:(?P<match>[0-9]{1,18}):pick:(?P<version>[0-9]{1,18})"
COG_NAME = "MMA"


def custom_id(match_id: int, action: str, version: int | None = None, card: int | None = None) -> str:
    parts = ["mma", str(match_id), action]
    if version is not None:
        parts.append(str(version))
        if card is not None:
            parts.append(str(card))
    return ":".join(parts)


def _number(text: str | None) -> int | None:
    return int(text) if text is not None else None


def _cog(interaction: discord.Interaction):
    cog = interaction.client.get_cog(COG_NAME)
    if cog is None:
        raise UserError("MMA Warriors is not running right now; try again in a moment.")
    return cog


class MatchButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    def __init__(
        self,
        match_id: int,
        action: str,
        version: int | None = None,
        card: int | None = None,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        emoji: str | None = None,
        row: int | None = None,
    ):
        super().__init__(
            discord.ui.Button(
                label=label[:80] or None,
                style=style,
                disabled=disabled,
                emoji=emoji,
                custom_id=custom_id(match_id, action, version, card),
            ),
            row=row,
        )
        self.match_id = match_id
        self.action = action
        self.version = version
        self.card = card

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match) -> MatchButton:
        return cls(
            int(match["match"]),
            match["action"],
            _number(match["version"]),
            _number(match["card"]),
            label=item.label or "",
            style=item.style,
            disabled=item.disabled,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with error_reply(interaction):
            await _cog(interaction).on_button(interaction, self.match_id, self.action, self.version, self.card)


class HandSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    def __init__(
        self,
        match_id: int,
        version: int,
        options: list[discord.SelectOption],
        *,
        placeholder: str,
        row: int | None = None,
    ):
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id(match_id, "pick", version),
                options=options,
                placeholder=placeholder[:150],
                min_values=1,
                max_values=1,
            ),
            row=row,
        )
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match) -> HandSelect:
        return cls(
            int(match["match"]),
            int(match["version"]),
            list(item.options) or [discord.SelectOption(label="?")],
            placeholder=item.placeholder or "",
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        async with error_reply(interaction):
            values = self.item.values
            if not values or not values[0].isdigit():
                raise UserError("Choose a card from the list.")
            await _cog(interaction).on_pick(interaction, self.match_id, self.version, int(values[0]))
