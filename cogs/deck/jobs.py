"""The /deck job manager: which optimizations run, for whom, in which threads, and how they stop.

Threads. An optimization runs for up to about a minute, so it does not go through the bot's long-job pool
(`run_long_engine`): that pool's two workers serve every game's long work (/mfd battles and odds, /andor
simulations, /deck duel), which would wait behind two optimizations until they end, and a third
optimization would wait for one of them. Jobs run in this manager's own pool instead, one thread per job the
bot accepts (MAX_JOBS), so every accepted job starts at once. The threads share the cores through the fast
path's kernel lock, batch by batch, and the kernels release the GIL while they play, so the event loop keeps
answering during a job.

Restarts. Jobs live in memory, so a restart ends them. On a clean shutdown (`shutdown`) each job stops after
its current iteration and its message shows its result so far, marked as stopped by the restart, once it
is measured afresh like any run's final deck (at most 2 x 1,000,000 games at the bot's limits: about a
second alone, within SHUTDOWN_GRACE unless several jobs that large share the cores). After a crash nothing
can edit the message, so it says from the start that a restart stops the run. Job ids start with the
process's `boot` prefix, so when such a message's Cancel button is pressed the next process can tell that
the job was an earlier process's (`from_earlier_process`), and the cog marks the message stopped.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import threading
import time
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

from cogs.common import UserError, mention
from observability.metrics import Metrics
from rules.deck.chart import winrate_chart_png
from rules.deck.optimize import OptimizeResult, OptimizeSettings, Progress, optimize
from rules.text import plural

log = logging.getLogger("arena.deck")

MAX_JOBS = 4  # optimizations in the bot at once; each member has at most one
SHUTDOWN_GRACE = 5.0  # seconds a clean shutdown waits for running jobs to show where they stopped
REPORT_INTERVAL = 0.5  # seconds between a job's progress reports (its message is throttled further)


@dataclass
class Job:
    id: str
    user_id: int
    settings: OptimizeSettings
    opponent_file: str | None  # the attached opponent's file name; None: a random deck from the seed
    guild_id: int | None = None  # where it was started (None: a direct message), which its Cancel button checks
    channel_id: int | None = None
    cancel: threading.Event = field(default_factory=threading.Event)  # read by the job's thread
    stopped_by_shutdown: bool = False
    progress: Progress | None = None
    loading_engine: bool = False  # the first job since start-up loads the compiled engine before it plays
    finished: asyncio.Event = field(default_factory=asyncio.Event)  # set once its message shows the end


@dataclass(frozen=True)
class JobResult:
    result: OptimizeResult
    chart_png: bytes
    seconds: float


def compute_job(job: Job, report: Callable[[Progress], None]) -> JobResult:
    """The whole job, in a thread of the manager's pool: the optimization with its fresh measurement, then its
    chart. Progress is kept on the job and reported at most every REPORT_INTERVAL, and at every step of the
    fresh measurement."""
    started = time.perf_counter()
    load_engine()
    job.loading_engine = False
    last = 0.0

    def progress(p: Progress) -> None:
        nonlocal last
        job.progress = p
        now = time.monotonic()
        if now - last >= REPORT_INTERVAL or p.measuring:
            last = now
            report(p)

    result = optimize(job.settings, progress=progress, cancelled=job.cancel.is_set)
    seconds = time.perf_counter() - started
    return JobResult(result, winrate_chart_png(result, f"Deck optimization, seed {job.settings.seed}"), seconds)


ENGINE_READY = threading.Event()  # set once this process has loaded the compiled engine


def load_engine() -> None:
    """Import numba and load the compiled kernels (from the on-disk cache, or compile them once).

    Done on the first job, not at start-up: the bot starts faster and about 50 MB smaller, and only a process
    that runs /deck pays; that job's message says it is loading meanwhile.
    """
    if ENGINE_READY.is_set():
        return
    from rules.deck.fast import compile_kernels

    compile_kernels()
    ENGINE_READY.set()


class JobManager:
    """The optimizations running in this process: at most one per member and `max_jobs` in all."""

    def __init__(self, metrics: Metrics, max_jobs: int = MAX_JOBS):
        self.metrics = metrics
        self.max_jobs = max_jobs
        self.executor = ThreadPoolExecutor(max_jobs, thread_name_prefix="deck-job")
        self.by_user: dict[int, Job] = {}
        self.by_id: dict[str, Job] = {}
        self.reserved: set[int] = set()  # members whose job is being set up (between the checks and the start)
        self.boot = secrets.token_hex(2)  # the start of every job id of this process
        self.closing = False
        metrics.deck_jobs.set_function(lambda: len(self.by_id))

    @contextmanager
    def reservation(self, user_id: int) -> Generator[None, None, None]:
        """Hold a member's place while their job is set up (its options checked, the opponent read): a second
        job of theirs, or one past the limit, is refused meanwhile."""
        if user_id in self.by_user or user_id in self.reserved:
            raise UserError(
                "You already have an optimization running; wait for it to finish or press its Cancel button."
            )
        if len(self.by_id) + len(self.reserved) >= self.max_jobs:
            raise UserError(
                f"The bot is already running {plural(self.max_jobs, 'optimization')}; try again in a minute."
            )
        self.reserved.add(user_id)
        try:
            yield
        finally:
            self.reserved.discard(user_id)

    def register(
        self,
        user_id: int,
        settings: OptimizeSettings,
        opponent_file: str | None,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
    ) -> Job:
        """A new job of a member who holds a reservation, started in `channel_id` of `guild_id`."""
        if self.closing:  # the pool is shut down
            raise UserError("The bot is restarting; try again in a minute.")
        job = Job(
            self.new_job_id(),
            user_id,
            settings,
            opponent_file,
            guild_id,
            channel_id,
            loading_engine=not ENGINE_READY.is_set(),
        )
        self.by_user[user_id] = job
        self.by_id[job.id] = job
        return job

    def new_job_id(self) -> str:
        while (job_id := self.boot + secrets.token_hex(2)) in self.by_id:
            pass
        return job_id

    async def run(self, job: Job, report: Callable[[Progress], None]) -> JobResult:
        """The job's work in the pool; `report` is called from its thread."""
        return await self.metrics.pool_job("deck", functools.partial(compute_job, job, report)).run_in(self.executor)

    def finish(self, job: Job) -> None:
        """The job's message shows its end: it no longer counts."""
        self.by_user.pop(job.user_id, None)
        self.by_id.pop(job.id, None)
        job.finished.set()

    def from_earlier_process(self, job_id: str) -> bool:
        return not job_id.startswith(self.boot)

    def cancel(self, job: Job, user_id: int) -> None:
        """Stop the job after its current iteration, if `user_id` is the member who started it."""
        if user_id != job.user_id:
            raise UserError(f"Only {mention(job.user_id)}, who started this optimization, can cancel it.")
        job.cancel.set()

    async def shutdown(self, grace: float | None = None) -> None:
        """Stop every job after its current iteration and give its message `grace` seconds (SHUTDOWN_GRACE) to
        show their result so far; the cog marks a message that could not in time as stopped by the restart."""
        grace = SHUTDOWN_GRACE if grace is None else grace
        self.closing = True
        running = list(self.by_id.values())
        for job in running:
            job.stopped_by_shutdown = True
            job.cancel.set()
        if running:
            await asyncio.wait([asyncio.create_task(job.finished.wait()) for job in running], timeout=grace)
        self.executor.shutdown(wait=False, cancel_futures=True)
