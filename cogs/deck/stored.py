"""A /deck job as storage keeps it (storage.deck): the row stored when it starts, the job a stored row resumes
after a restart, and the result kept for the member's profile when it ends."""

from __future__ import annotations

from cogs.deck.jobs import Job, JobResult
from storage.deck import DeckResult, JobState, StoredJob


def stored_job(job: Job) -> StoredJob:
    assert job.channel_id is not None  # a command always comes from a channel
    return StoredJob(
        id=job.id,
        guild_id=job.guild_id,
        channel_id=job.channel_id,
        message_id=job.message_id,
        user_id=job.user_id,
        requester=job.requester,
        opponent_file=job.opponent_file,
        state=JobState(job.settings, None),
        seconds=0.0,
        started_at=job.started_at,
    )


def resumed_job(row: StoredJob) -> Job:
    """The job an earlier process left running, to go on from its last checkpoint."""
    return Job(
        row.id,
        row.user_id,
        row.state.settings,
        row.opponent_file,
        row.guild_id,
        row.channel_id,
        requester=row.requester,
        started_at=row.started_at,
        message_id=row.message_id,
        resumed=True,
        resume_from=row.state.checkpoint,
        seconds_before=row.seconds,
    )


def kept_result(job: Job, done: JobResult) -> DeckResult | None:
    """The result deck's fresh measurement, kept for the member's best (a run in a server only: a profile is a
    server's)."""
    if job.guild_id is None:
        return None
    result, settings = done.result, job.settings
    return DeckResult(
        guild_id=job.guild_id,
        user_id=job.user_id,
        seed=settings.seed,
        iterations=settings.iterations,
        iterations_done=result.iterations_done,
        games=settings.games,
        opponent_file=job.opponent_file,
        score=result.deck_score,
    )
