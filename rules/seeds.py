"""Fresh seeds for runs the user did not seed: shown with the result so the run can be replayed."""

from __future__ import annotations

import secrets

# Seeds fit a signed 32-bit integer: every engine (numba kernels included) and a Discord option take them.
MAX_SEED = 2**31 - 1


def new_seed() -> int:
    return secrets.randbelow(MAX_SEED + 1)


def seed_or_new(seed: int | None) -> int:
    """The seed a user gave, or a fresh one."""
    return new_seed() if seed is None else seed
