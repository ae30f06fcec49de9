"""A unit of work run again when a concurrent transaction stopped it (`WriteConflict`)."""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from storage.errors import WriteConflict

CONFLICT_ATTEMPTS = 5
P = ParamSpec("P")
T = TypeVar("T")


def retried_on_conflict(unit: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """A repository method that is one unit of work (it opens its own transaction), run again when a
    concurrent transaction made it fail with WriteConflict; the last conflict is raised after
    CONFLICT_ATTEMPTS tries. A short random pause lets the winner commit and keeps the retries apart."""

    @functools.wraps(unit)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        for attempt in range(1, CONFLICT_ATTEMPTS):
            try:
                return await unit(*args, **kwargs)
            except WriteConflict:
                await asyncio.sleep(random.uniform(0, 0.002 * attempt))
        return await unit(*args, **kwargs)

    return run
