"""Engines run in the bot's bounded pool of worker threads, so the event loop keeps answering."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import TypeVar

import discord

T = TypeVar("T")


async def run_engine(client: discord.Client, func: Callable[..., T], /, *args, **kwargs) -> T:
    """Run `func(*args, **kwargs)` in `client.engine_executor` (see ArenaBot) and await its result."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(client.engine_executor, functools.partial(func, *args, **kwargs))
