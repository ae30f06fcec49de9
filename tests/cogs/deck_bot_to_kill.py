"""A bot in a process of its own, for the test that kills it with SIGKILL (tests/cogs/test_deck_restarts.py):
`python -m tests.cogs.deck_bot_to_kill '<json>'`, the JSON naming the test's Discord (`discord`: the address of
the fake Discord the test's process serves), its database (`database_path`, `database_url`) and the options of
the `/deck optimize` Alice runs (`options`). The bot starts that job and runs until it is killed.

Its iterations are slowed (ITERATION_DELAY) so the kill lands mid-run whatever the machine's speed, and it
stores a checkpoint every CHECKPOINT_INTERVAL; neither changes what the job computes."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

from cogs.deck import jobs as jobs_module
from offline_discord.fake_discord import FakeDiscord
from offline_discord.harness import Harness, make_settings, start_bot
from rules.deck import optimize as deck_optimize

ITERATION_DELAY = 0.01  # seconds added to each iteration
CHECKPOINT_INTERVAL = 0.05  # seconds between checkpoints (the bot's own: 5 s)


def slowed(propose_swap):
    def each_iteration(*args):
        time.sleep(ITERATION_DELAY)
        return propose_swap(*args)

    return each_iteration


async def run_until_killed(given: dict) -> None:
    fake = FakeDiscord(served_elsewhere=given["discord"])
    overrides = {"database_url": given["database_url"]} if given["database_url"] else {}
    settings = make_settings(Path(given["database_path"]), **overrides)
    jobs_module.CHECKPOINT_INTERVAL = CHECKPOINT_INTERVAL
    deck_optimize.propose_swap = slowed(deck_optimize.propose_swap)
    h = Harness(await start_bot(settings, fake), fake, settings)
    await h.run("deck optimize", h.alice, wait=False, **given["options"])
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(run_until_killed(json.loads(sys.argv[1])))
