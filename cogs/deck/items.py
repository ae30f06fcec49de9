"""The persistent component of /deck: a running optimization's Cancel button, `deck:<job>:0:cancel`.

A job id is 8 hex digits (see `jobs.JobManager.new_job_id`). A job is cancelled once and never redrawn, so
its version is always 0. The template is registered at start-up: a Cancel button left on the message of a
process that crashed still reaches the cog, which marks that message stopped.
"""

from __future__ import annotations

from typing import ClassVar

import discord

from cogs.common.components import GameButton, component_template

GAME = "deck"
JOB_ID = r"[0-9a-f]{8}"
CANCEL = "cancel"
COG_NAME = "DeckOptimizer"


class DeckButton(GameButton, template=component_template(GAME, [CANCEL], ids=JOB_ID)):
    cog_name: ClassVar[str] = COG_NAME
    game_title: ClassVar[str] = "The deck optimizer"


def cancel_button(job_id: str) -> DeckButton:
    return DeckButton.make(GAME, job_id, 0, CANCEL, label="Cancel", style=discord.ButtonStyle.danger, emoji="⏹️")
