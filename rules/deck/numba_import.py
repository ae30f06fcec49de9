"""numba, imported without the coverage package when no coverage run is in progress.

numba imports `coverage` (about 25 ms where it is installed) only to report the lines it compiles to a
coverage run in progress; there is none when coverage is not imported yet, so the import is skipped. `fast`
takes numba's names from here.
"""

from __future__ import annotations

import sys

_skip_coverage = "coverage" not in sys.modules and "numba" not in sys.modules
if _skip_coverage:
    sys.modules["coverage"] = None  # pyright: ignore[reportArgumentType]  # None: "cannot be imported"
try:
    import numba
    from numba import njit, prange
finally:
    if _skip_coverage:  # the blocker out again (nothing could import coverage meanwhile): a later import works
        del sys.modules["coverage"]

__all__ = ["njit", "numba", "prange"]
