"""Engines run in the bot's bounded pools of worker threads, so the event loop keeps answering.

Quick work (parsing a file, one move, one round) and long work (a whole battle, thousands of simulated
fights) have separate pools: a player's click never waits behind someone's simulation.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import Executor
from typing import TypeVar

import discord

T = TypeVar("T")


async def _run_in(executor: Executor, func: Callable[..., T], args, kwargs) -> T:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor, functools.partial(func, *args, **kwargs))


async def run_engine(client: discord.Client, func: Callable[..., T], /, *args, **kwargs) -> T:
    """Quick engine work, in `client.engine_executor` (see ArenaBot)."""
    return await _run_in(client.engine_executor, func, args, kwargs)


async def run_long_engine(client: discord.Client, func: Callable[..., T], /, *args, **kwargs) -> T:
    """Engine work that may take seconds (simulations, whole battles), in `client.long_job_executor`."""
    return await _run_in(client.long_job_executor, func, args, kwargs)
