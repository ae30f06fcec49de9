"""numba, imported without the coverage package when no coverage run is in progress, on one pool of threads
for the whole process.

numba imports `coverage` (about 25 ms where it is installed) only to report the lines it compiles to a
coverage run in progress; there is none when coverage is not imported yet, so the import is skipped. `fast`
takes numba's names from here.

The parallel kernels run on numba's TBB threading layer (the `tbb` package, pinned in requirements.txt). TBB
keeps one pool of threads for the whole process, whichever thread launches a kernel; GNU OpenMP keeps a pool per
launching thread, and once the bot's job threads had pools of their own (more threads than cores) its waiting
threads slept at once, missed the next batch (1,000 games, half a millisecond, about 20 us apart) and played
no faster on 2 threads than on one. Measured on 2 cores with `python -m benchmarks.deck_load`: TBB, one job
alone 0.32-0.34 s, four together 1.15-1.17 x four times that, beside two CPU-bound processes 2.1 x; OpenMP
with passive waits, 0.32-0.56 s alone, four together 1.5-1.7 x (2.2 s, the threads' pools counted).

The tbb wheel puts its library in the environment's lib folder, which the loader does not search: it is
loaded here first, by its path, so that numba's TBB pool finds it by name. Without it numba falls back to
OpenMP, whose threads then sleep when they wait (OMP_WAIT_POLICY=PASSIVE): spinning threads took the cores
a machine's other work needed (a default optimization beside two CPU-bound processes took 5 to 30 s). An
operator's own NUMBA_THREADING_LAYER or OMP_WAIT_POLICY still wins.
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

TBB_LIBRARY = Path(sys.prefix) / "lib" / "libtbb.so.12"  # where the tbb wheel installs it on Linux

if TBB_LIBRARY.exists():
    ctypes.CDLL(str(TBB_LIBRARY))
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
