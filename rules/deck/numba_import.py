"""numba, imported without the coverage package when no coverage run is in progress, and with threads that
sleep when they wait.

numba imports `coverage` (about 25 ms where it is installed) only to report the lines it compiles to a
coverage run in progress; there is none when coverage is not imported yet, so the import is skipped. `fast`
takes numba's names from here.

The parallel kernels run on numba's OpenMP threading layer. GNU OpenMP's threads spin for a while at the
end of every parallel loop, waiting for the next: on a machine with other work (two CPU-bound processes, or
the bot's other jobs) that spinning takes the cores the work needs. Measured on 2 shared cores, a default
optimization took 5 to 30 s with the threads spinning (the default, or OMP_WAIT_POLICY=ACTIVE) and 1.2 to 2.2 s
with OMP_WAIT_POLICY=PASSIVE (benchmarks/deck_load.py compares the choices). So PASSIVE is the default here,
set before OpenMP loads; an operator's own OMP_WAIT_POLICY or NUMBA_THREADING_LAYER still wins.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

_skip_coverage = "coverage" not in sys.modules and "numba" not in sys.modules
if _skip_coverage:
    sys.modules["coverage"] = None  # pyright: ignore[reportArgumentType]  # None: "cannot be imported"
try:
    import numba
    from numba import njit, prange
    from numba.core.runtime.nrt import rtsys as numba_runtime
finally:
    if _skip_coverage:  # the blocker out again (nothing could import coverage meanwhile): a later import works
        del sys.modules["coverage"]

__all__ = ["njit", "numba", "numba_runtime", "prange"]
