"""The persistent components of /andor: `andor:<fight>:<version>:<action>` buttons (attack, potion, flee, draw, end)
and the `andor:<fight>:<version>:target` select; a party fight's are the same under `andorparty:<party>:...`.

The fight is loaded from storage, and the version is the fight's version when the message was drawn: a click
carrying an older one is stale and changes nothing. The templates are registered at start-up, so the
components work after a restart, on messages drawn before this layout became the shared one too (it was
already this one).
"""

from __future__ import annotations

from typing import ClassVar

import discord

from cogs.common.components import GameButton, GameSelect, component_template

GAME = "andor"
COG_NAME = "Andor"
BUTTON_ACTIONS = ("attack", "potion", "flee", "draw", "end")
TARGET = "target"


class FightButton(GameButton, template=component_template(GAME, BUTTON_ACTIONS)):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = "Andor's Trail"


class TargetSelect(GameSelect, template=component_template(GAME, [TARGET])):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = "Andor's Trail"


PARTY_GAME = "andorparty"
PARTY_ACTIONS = ("join", "leave", "start", "attack", "potion", "flee", "end")


class PartyButton(GameButton, template=component_template(PARTY_GAME, PARTY_ACTIONS)):
    """`andorparty:<party>:<version>:<action>`: the sign-up's Join, Leave and Start, and the fight's buttons."""

    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = "Andor's Trail"


class PartyTargetSelect(GameSelect, template=component_template(PARTY_GAME, [TARGET])):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = "Andor's Trail"


def party_button(
    party_id: int, version: int, action: str, label: str, style: discord.ButtonStyle, *, enabled: bool = True
) -> PartyButton:
    return PartyButton.make(
        PARTY_GAME, party_id, version, action, label=label, style=style, disabled=not enabled, row=1
    )


def party_target_select(party_id: int, version: int, options: list[discord.SelectOption]) -> PartyTargetSelect:
    return PartyTargetSelect.make(
        PARTY_GAME, party_id, version, TARGET, options, placeholder="Choose whom to attack", row=0
    )


def fight_button(
    fight_id: int, version: int, action: str, label: str, style: discord.ButtonStyle, *, enabled: bool
) -> FightButton:
    return FightButton.make(GAME, fight_id, version, action, label=label, style=style, disabled=not enabled, row=1)


def target_select(fight_id: int, version: int, options: list[discord.SelectOption]) -> TargetSelect:
    return TargetSelect.make(GAME, fight_id, version, TARGET, options, placeholder="Choose whom to attack", row=0)
