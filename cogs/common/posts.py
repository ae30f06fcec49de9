"""What the bot posts or edits on its own, with no member waiting for an answer (a tournament's boards, its
standings): Discord's refusal is one warning line, and the stored state stands for the next step to draw."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TypeVar

import discord

log = logging.getLogger("arena.posts")

T = TypeVar("T")


async def done_or_logged(request: Awaitable[T], what: str, *args: object) -> T | None:
    """What Discord answered to `request`, or None after one warning line: "could not <what>: <Discord's
    reason>", `what` formatted with `args`."""
    try:
        return await request
    except discord.HTTPException as refused:
        log.warning("could not " + what + ": %s", *args, refused.text or refused.status)
        return None
