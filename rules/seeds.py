"""Fresh seeds for runs the user did not seed: shown with the result so the run can be replayed."""

from __future__ import annotations

import os

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
