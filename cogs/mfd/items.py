"""The persistent component of /mfd: the "Fight one more round" button, `mfd:<battle>:<version>:next`.

The battle is the channel's stored battle, and the version is the battle's version when the message was
drawn: a click carrying an older one is stale and fights nothing. The template is registered at start-up,
so the button works after a restart, on messages posted before this layout became the shared one too (it
was already this one).
"""

from __future__ import annotations

from typing import ClassVar

import discord

from cogs.common.components import GameButton, component_template

GAME = "mfd"
NEXT = "next"
COG_NAME = "MarkedForDeath"


class MfdButton(GameButton, template=component_template(GAME, [NEXT])):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = "Marked for Death"


def next_round_button(battle_id: int, version: int) -> MfdButton:
    return MfdButton.make(
        GAME, battle_id, version, NEXT, label="Fight one more round", emoji="⚔️", style=discord.ButtonStyle.primary
    )
