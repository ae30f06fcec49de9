"""Fresh seeds for runs the user did not seed: shown with the result so the run can be replayed."""

from __future__ import annotations

import os
import random
from enum import Enum

# Seeds fit a signed 32-bit integer: every engine (numba kernels included) and a Discord option take them.
MAX_SEED = 2**31 - 1


def new_seed() -> int:
    # 31 random bits from the OS: uniform over 0..MAX_SEED (the secrets module would cost its import)
    return int.from_bytes(os.urandom(4), "big") & MAX_SEED


def seed_or_new(seed: int | None) -> int:
    """The seed a user gave, or a fresh one."""
    return new_seed() if seed is None else seed


def seed_argument(text: str) -> int:
    """A command line's --seed: a whole number from 0 to MAX_SEED, as the bot's seed options take."""
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_SEED:
        import argparse  # here: the bot imports this module too, and never parses a command line

        raise argparse.ArgumentTypeError(f"'{text}' is not a seed: give a whole number from 0 to {MAX_SEED:,}")
    return int(text)


class ReplayStream(Enum):
    """How a turn-based game derives the random source of each move from its seed and the moves made so far, so a
    stored game goes on exactly as it would have without the save. A game's stream is fixed for as long as one
    of its games may be stored: MMA and Andor derived theirs differently before this one source existed, and
    each keeps its own (a new game takes TEXT)."""

    NUMERIC = "numeric"  # Random(seed * 1_000_003 + move): MMA
    TEXT = "text"  # Random("seed:move[:tag...]"): Andor; tags give a move draws apart from its dice (loot)


def move_rng(stream: ReplayStream, seed: int, move: int, *tags: str | int) -> random.Random:
    """The one replay random source of the turn-based games: move `move` of the game seeded `seed`."""
    if stream is ReplayStream.NUMERIC:
        if tags:
            raise ValueError("the numeric stream has no tagged draws")
        return random.Random(seed * 1_000_003 + move)
    return random.Random(":".join(str(part) for part in (seed, move, *tags)))
