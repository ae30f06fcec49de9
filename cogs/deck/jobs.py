"""The /deck job manager: which optimizations run, for whom, in which threads, and how they stop.

Threads. An optimization runs for up to about a minute, so it does not go through the bot's long-job pool
(`run_long_engine`): that pool's two workers serve every game's long work (/mfd battles and odds, /andor
simulations, /deck duel), which would wait behind two optimizations until they end, and a third
optimization would wait for one of them. Jobs run in this manager's own pool instead, one thread per job the
bot accepts (MAX_JOBS), so every accepted job starts at once. The jobs' threads take turns (`Turns`) of up to
TURN seconds each, so several jobs cost what one does; a duel shares the cores with them through the fast
path's kernel lock, batch by batch. The kernels release the GIL while they play, so the event loop keeps
answering during a job. A job's slot is freed once its work is done, before its result is shown, so its
member may start the next at once.

Restarts. A job is stored when it starts and its checkpoint (`rules.deck.optimize.Checkpoint`) replaced at
least every CHECKPOINT_INTERVAL seconds, written on the event loop while the job's thread plays on (the latest
one only, so a slow database never holds the job back). On a clean shutdown (`shutdown`) each job pauses after
its current iteration, stores that checkpoint and says on its message that it resumes. The next process
resumes every stored job from its checkpoint (the cog's `resume_jobs`), under its own id, so its Cancel button
keeps working; after a crash the job goes on from its last periodic checkpoint. Either way it ends with the
result a run never stopped would have had: the engine's search goes on from a checkpoint exactly.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Generator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field

from cogs.common import UserError, mention
from observability.metrics import Metrics
from rules.deck.chart import winrate_chart_png
from rules.deck.optimize import Checkpoint, OptimizeResult, OptimizeSettings, Progress, Search
from rules.text import plural

log = logging.getLogger("arena.deck")

MAX_JOBS = 4  # optimizations in the bot at once; each member has at most one
SHUTDOWN_GRACE = 5.0  # seconds a clean shutdown waits for running jobs to show where they stopped
REPORT_INTERVAL = 0.5  # seconds between a job's progress reports (its message is throttled further)
CHECKPOINT_INTERVAL = 5.0  # seconds between a job's checkpoints: the most work a crash loses
ABANDON_AFTER = 24 * 3600.0  # seconds: a job older than this when the bot comes back is not resumed


@dataclass(eq=False)  # each job is itself (kept in sets), whatever its fields
class Job:
    id: str
    user_id: int
    settings: OptimizeSettings
    opponent_file: str | None  # the attached opponent's file name; None: a random deck from the seed
    guild_id: int | None = None  # where it was started (None: a direct message), which its Cancel button checks
    channel_id: int | None = None
    requester: str = ""  # the display name of the member who started it, as its message shows it
    started_at: float = 0.0  # unix time
    message_id: int | None = None  # its progress message, once posted
    resumed: bool = False  # started by an earlier process
    resume_from: Checkpoint | None = None  # where an earlier process left it (None: before its first checkpoint)
    seconds_before: float = 0.0  # the work earlier processes did on it
    cancel: threading.Event = field(default_factory=threading.Event)  # the member's Cancel; read by the job's thread
    pause: threading.Event = field(default_factory=threading.Event)  # the bot stops: keep the checkpoint, resume later
    progress: Progress | None = None
    loading_engine: bool = False  # the first job since start-up loads the compiled engine before it plays
    finished: asyncio.Event = field(default_factory=asyncio.Event)  # set once its message shows the end


@dataclass(frozen=True)
class JobResult:
    result: OptimizeResult
    chart_png: bytes
    seconds: float  # the work of every process that ran it


@dataclass(frozen=True)
class Paused:
    """A job stopped for a restart: where it stands, for the next process."""

    checkpoint: Checkpoint
    seconds: float


class Turns:
    """The jobs' threads take turns, in the order they asked, for up to TURN seconds of iterations each.

    A job's iteration is a short batch without the GIL and some Python with it. Several jobs' threads at once
    pass the GIL and the kernels to and fro after every batch (a default batch is under a millisecond, Python's
    switch interval 5 ms), which measured four jobs together at about twice four times one alone; in turns
    they cost what one job does, and each still moves on every few turns' time."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._queue: deque[object] = deque()  # the thread whose turn it is first, then those waiting

    def take(self) -> None:
        ticket = object()
        with self._changed:
            self._queue.append(ticket)
            self._changed.wait_for(lambda: self._queue[0] is ticket)

    def give(self) -> None:
        with self._changed:
            self._queue.popleft()
            self._changed.notify_all()

    def others_waiting(self) -> bool:
        return len(self._queue) > 1


TURN = 0.02  # seconds of iterations a job plays before it gives its turn to a job waiting


def compute_job(
    job: Job, report: Callable[[Progress], None], save: Callable[[Checkpoint, float], None], turns: Turns
) -> JobResult | Paused:
    """The whole job, in a thread of the manager's pool: the optimization with its fresh measurement, then its
    chart; or, when the bot stops, the iterations up to a checkpoint. Progress is kept on the job and reported
    at most every REPORT_INTERVAL, and at every step of the fresh measurement; a checkpoint is handed to `save`
    (with the seconds of work so far) every CHECKPOINT_INTERVAL. The iterations, the measurement and the chart
    run in `turns` with the other jobs'."""
    started = time.perf_counter()
    load_engine()
    job.loading_engine = False
    last_report = 0.0
    last_save = time.monotonic()

    def seconds() -> float:
        return job.seconds_before + time.perf_counter() - started

    def progress(p: Progress) -> None:
        nonlocal last_report
        job.progress = p
        now = time.monotonic()
        if now - last_report >= REPORT_INTERVAL or p.measuring:
            last_report = now
            report(p)

    turn_started = 0.0

    def after_each(search: Search) -> None:
        nonlocal last_save, turn_started
        now = time.monotonic()
        if now - last_save >= CHECKPOINT_INTERVAL:
            last_save = now
            save(search.checkpoint(), seconds())
        if now - turn_started >= TURN and turns.others_waiting():
            turns.give()
            turns.take()
            turn_started = time.monotonic()

    turns.take()
    try:
        turn_started = time.monotonic()
        search = Search(job.settings, job.resume_from)
        stopped = search.run(progress, lambda: job.cancel.is_set() or job.pause.is_set(), after_each)
        if stopped and not job.cancel.is_set():
            return Paused(search.checkpoint(), seconds())
        result = search.result(progress, cancelled=stopped)
        # in its turn too: a chart is Python holding the GIL, which a job iterating meanwhile waits for each batch
        chart = winrate_chart_png(result, f"Deck optimization, seed {job.settings.seed}")
    finally:
        turns.give()
    return JobResult(result, chart, seconds())


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
        self.ending: set[Job] = set()  # jobs whose slot is free, still showing how they ended
        self.turns = Turns()
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
        requester: str = "",
        started_at: float = 0.0,
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
            requester=requester,
            started_at=started_at,
            loading_engine=not ENGINE_READY.is_set(),
        )
        return self.add(job)

    def add(self, job: Job) -> Job:
        """Count a job as running: a new one, or one an earlier process left (which keeps its id and may pass
        the limit, having been accepted once)."""
        job.loading_engine = not ENGINE_READY.is_set()
        self.by_user[job.user_id] = job
        self.by_id[job.id] = job
        return job

    def new_job_id(self) -> str:
        while (job_id := self.boot + secrets.token_hex(2)) in self.by_id:
            pass
        return job_id

    async def run(
        self, job: Job, report: Callable[[Progress], None], save: Callable[[Checkpoint, float], None]
    ) -> JobResult | Paused:
        """The job's work in the pool; `report` and `save` are called from its thread."""
        work = functools.partial(compute_job, job, report, save, self.turns)
        return await self.metrics.pool_job("deck", work).run_in(self.executor)

    def release(self, job: Job) -> None:
        """The job's work is over: its member may start another while its message shows how it ended."""
        if self.by_id.pop(job.id, None) is not None:
            self.by_user.pop(job.user_id, None)
            self.ending.add(job)

    def finish(self, job: Job) -> None:
        """The job's message shows its end."""
        self.release(job)
        self.ending.discard(job)
        job.finished.set()

    def from_earlier_process(self, job_id: str) -> bool:
        return not job_id.startswith(self.boot)

    def cancel(self, job: Job, user_id: int) -> None:
        """Stop the job after its current iteration, if `user_id` is the member who started it."""
        if user_id != job.user_id:
            raise UserError(f"Only {mention(job.user_id)}, who started this optimization, can cancel it.")
        job.cancel.set()

    async def shutdown(self, grace: float | None = None) -> None:
        """Pause every job after its current iteration and give it `grace` seconds (SHUTDOWN_GRACE) to store its
        checkpoint and say so on its message (a job already measuring shows its result). A job that could not in
        time resumes from its last periodic checkpoint."""
        grace = SHUTDOWN_GRACE if grace is None else grace
        self.closing = True
        running = [*self.by_id.values(), *self.ending]
        for job in running:
            job.pause.set()
        if running:
            await asyncio.wait([asyncio.create_task(job.finished.wait()) for job in running], timeout=grace)
        self.executor.shutdown(wait=False, cancel_futures=True)
