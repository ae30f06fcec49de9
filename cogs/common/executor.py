"""Engines run in the bot's bounded pools of worker threads, so the event loop keeps answering.

Quick work (a move, a deck or a small roster file) and long work (anything that can take seconds: a battle or
one round of a large one, a roster of thousands, thousands of simulated fights) have separate pools: a
player's click never waits behind someone's simulation.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, ParamSpec, TypeVar

if TYPE_CHECKING:
    from arena.bot import ArenaBot

P = ParamSpec("P")
T = TypeVar("T")


async def run_engine(bot: ArenaBot, func: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Quick engine work, in `bot.engine_executor`."""
    job = bot.observer.metrics.pool_job("engine", functools.partial(func, *args, **kwargs))
    return await job.run_in(bot.engine_executor)


async def run_long_engine(bot: ArenaBot, func: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Engine work that may take seconds (simulations, whole battles), in `bot.long_job_executor`."""
    job = bot.observer.metrics.pool_job("long-job", functools.partial(func, *args, **kwargs))
    return await job.run_in(bot.long_job_executor)
