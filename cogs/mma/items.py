"""The persistent components of /mma: `mma:<match>:<version>:<action>` buttons and the `mma:<match>:<version>:pick`
hand select; the Play button carries its card in the action (`play-<card>`); a tournament's `mmat:<id>:0:<action>`
buttons.

They are registered at start-up, so a button on any match message works after a restart; the handler loads
the match from storage. The version is the match's version when the message was drawn: a move carrying an
older one is stale and changes nothing (the buttons that only show something, like My hand, ignore it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

import discord

from cogs.common import UserError
from cogs.common.components import GameButton, GameSelect, component_template

GAME = "mma"
COG_NAME = "MMA"
GAME_TITLE = "MMA Warriors"
PLAY = "play"
PICK = "pick"
BUTTON_ACTIONS = ("hand", "draw", "skip", "end", "concede", "resign", "claim", "accept", "decline", "again", PLAY)
PLAY_CARD = re.compile(r"play-(?P<card>[0-9]{1,3})")


@dataclass(frozen=True)
class MatchClick:
    """A click on any /mma component."""

    match_id: int
    action: str
    version: int
    card: int | None = None  # the card of a Play button, or the one chosen in the hand select


class MatchButton(GameButton, template=component_template(GAME, BUTTON_ACTIONS, extra_actions=PLAY_CARD.pattern)):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = GAME_TITLE

    def click(self) -> MatchClick:
        played = PLAY_CARD.fullmatch(self.action)
        if played:
            return MatchClick(self.numeric_id, PLAY, self.version, int(played["card"]))
        return MatchClick(self.numeric_id, self.action, self.version)


class HandSelect(GameSelect, template=component_template(GAME, [PICK])):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = GAME_TITLE

    def click(self) -> MatchClick:
        values = self.values
        if not values or not values[0].isdecimal():
            raise UserError("Choose a card from the list.")
        return MatchClick(self.numeric_id, PICK, self.version, int(values[0]))


def match_button(
    match_id: int,
    version: int,
    action: str,
    *,
    card: int | None = None,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> MatchButton:
    action = f"{PLAY}-{card}" if action == PLAY and card is not None else action
    return MatchButton.make(
        GAME, match_id, version, action, label=label[:80], style=style, emoji=emoji, disabled=disabled, row=row
    )


def hand_select(
    match_id: int, version: int, options: list[discord.SelectOption], placeholder: str, row: int
) -> HandSelect:
    return HandSelect.make(GAME, match_id, version, PICK, options, placeholder=placeholder[:150], row=row)


TOURNAMENT = "mmat"
TOURNAMENT_ACTIONS = ("join", "leave", "table")  # sign up, take one's name off, the crosstable as a picture


class TournamentButton(GameButton, template=component_template(TOURNAMENT, TOURNAMENT_ACTIONS)):
    """`mmat:<tournament>:0:<action>`: a tournament's buttons act on what is stored when clicked (a join after
    the start is refused by the stored status), so they carry no version."""

    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = GAME_TITLE


def tournament_button(
    tournament_id: int,
    action: str,
    *,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
) -> TournamentButton:
    return TournamentButton.make(TOURNAMENT, tournament_id, 0, action, label=label, style=style, emoji=emoji)


COMPONENTS = (MatchButton, HandSelect, TournamentButton)
