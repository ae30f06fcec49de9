"""A GM's roster file, attached to a command, read into a roster.

Size: a roster file may be up to 3 MiB, three times the shared attachment limit, because a 20,000-fighter
roster with names of twenty-odd characters is about 1.3 MiB (the issue's largest battles are 20,000 a side).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from cogs.common import UserError, markdown_safe, read_text_attachment, run_long_engine
from rules.mfd.log import mib
from rules.mfd.models import Roster
from rules.mfd.roster import read_roster

if TYPE_CHECKING:
    from arena.bot import ArenaBot

ROSTER_LIMIT_MIB = 3  # see the module docstring
ROSTER_LIMIT_BYTES = ROSTER_LIMIT_MIB * 1024 * 1024
ROSTER_LIMIT_TEXT = f"{ROSTER_LIMIT_MIB} MiB"  # beside rules.mfd.roster.MAX_FIGHTERS, the limit on fighters


async def roster(bot: ArenaBot, attachment: discord.Attachment, side: str) -> Roster:
    """The attached roster of `side`, read in a long-work thread; a refusal for a file over the limit."""
    if attachment.size > ROSTER_LIMIT_BYTES:
        raise UserError(
            f"{markdown_safe(attachment.filename)} is {mib(attachment.size)}; a roster file may "
            f"be at most {ROSTER_LIMIT_TEXT}."
        )
    text = await read_text_attachment(attachment, limit=ROSTER_LIMIT_BYTES)
    # a roster of tens of thousands takes seconds to read: long work, so clicks never wait behind it
    return await run_long_engine(bot, read_roster, text, attachment.filename, side)


async def optional_roster(bot: ArenaBot, attachment: discord.Attachment | None, side: str) -> Roster | None:
    return await roster(bot, attachment, side) if attachment is not None else None
