"""/deck jobs across restarts, through the real command tree on both backends: a job paused by a clean restart
and one whose bot was killed (in this process, and for real with SIGKILL in a process of its own) each end, in
the next bot, with the result of a run never stopped; a resumed job is cancelled by its member; a job whose
channel is gone is dropped; one older than a day is abandoned."""

from __future__ import annotations

import asyncio
import copy
import json
import re
import signal
import sys
import threading
import time
from pathlib import Path

from arena.settings import open_storage
from offline_discord.harness import CHANNEL_ID, HeldCall, Message, start_bot
from rules.deck import optimize as deck_optimize
from rules.deck.optimize import Checkpoint
from storage.deck import JOB_STATE
from storage.times import stored_time
from tests.cogs.test_deck import (  # noqa: F401  # the fixtures, used by name
    FINISHED_TITLES,
    OPPONENT,
    RANDOM_7,
    compiled_kernels,
    jobs,
    no_job_left,
    start_long_job,
    wait_for,
)

ROOT = Path(__file__).resolve().parents[2]
RESUMED = {"iterations": 60, "games": 300, "seed": 12}  # a run the tests stop at an iteration of their choice


class IterationGate:
    """Holds the job's thread as it begins iteration `n` (its n-th proposed swap) until `release()`: a restart
    at an iteration of the test's choice, whatever the machine's speed."""

    def __init__(self, monkeypatch, n: int):
        self.reached, self.go = threading.Event(), threading.Event()
        original, calls = deck_optimize.propose_swap, 0

        def gated(*args):
            nonlocal calls
            calls += 1
            if calls == n:
                self.reached.set()
                assert self.go.wait(10), "the gate was never released"
            return original(*args)

        monkeypatch.setattr(deck_optimize, "propose_swap", gated)

    async def wait(self) -> None:
        assert await asyncio.to_thread(self.reached.wait, 10), "the job never reached the gate"

    def release(self) -> None:
        self.go.set()


def as_compared(message: Message) -> tuple[dict, dict[str, bytes]]:
    """A result message's embed and files, but for the seconds it took."""
    embed = copy.deepcopy(message.data["embeds"][0])
    for f in embed["fields"]:
        f["value"] = re.sub(r" in [0-9.]+ s · ", " in … s · ", f["value"])
    return embed, message.files


async def uninterrupted(h, options: dict = RESUMED) -> tuple[dict, dict[str, bytes]]:
    """The result of a run with `options` through the bot from start to end, by another member."""
    (message,) = await h.run("deck optimize", h.bob, **options)
    assert message.embed.title.startswith(FINISHED_TITLES)
    return as_compared(message)


def result_after_restart(h) -> Message:
    (posted,) = [m for m in h.messages if m.content.startswith("The optimization Alice started, resumed after")]
    assert posted.content == "The optimization Alice started, resumed after a restart, is over:"
    return posted


async def test_a_clean_restart_pauses_the_job_and_the_next_bot_ends_it_with_the_uninterrupted_result(
    harness, monkeypatch
):
    h = harness
    expected = await uninterrupted(h)
    gate = IterationGate(monkeypatch, 25)
    await h.run("deck optimize", h.alice, wait=False, **RESUMED)
    await gate.wait()
    job = jobs(h).by_user[h.alice.id]
    closing = asyncio.ensure_future(h.bot.close())
    await wait_for(lambda: job.pause.is_set())
    gate.release()  # iteration 25 ends, and the job pauses with its checkpoint
    await closing
    message = h.fake.messages[job.message_id]
    assert message.embed.title == "⏸️ Optimization paused: the bot is restarting"
    assert message.embed.description.startswith("`")  # its last progress, kept
    assert message.embed.footer.text == (
        "seed 12 · Requested by Alice; only they can cancel it. If the bot restarts, this run resumes where it was."
    )
    assert message.component("Cancel")["custom_id"] == f"deck:{job.id}:0:cancel"

    h.bot = await start_bot(h.settings, h.fake)
    assert list(jobs(h).by_id) == [job.id]  # resumed under its id, before any click can come
    await h.settle()
    assert as_compared(result_after_restart(h)) == expected
    ended = h.fake.messages[job.message_id]
    assert ended.embed.title == "🃏 Optimization finished after a restart: its result is posted below"
    assert "🔁 resumed after a restart of the bot, from iteration 25" in ended.embed.description
    assert ended.components == [] and jobs(h).by_id == {}
    assert await h.bot.db.fetch_all("SELECT * FROM deck_jobs") == []
    (kept,) = await h.bot.db.fetch_all("SELECT user_id, seed FROM deck_results WHERE user_id = ?", (h.alice.id,))
    assert kept["seed"] == 12


async def test_a_job_of_a_killed_bot_goes_on_from_its_last_checkpoint_to_the_uninterrupted_result(harness, monkeypatch):
    """A bot that hung or was killed, as the next process finds it, at an iteration of the test's choice (the
    real kill -9 is the test after this one): the dead bot's job thread is frozen mid-iteration and the bot is
    never closed (no pause, no last checkpoint, its message still says it is optimizing); a new bot starts on
    the same database and Discord. The dead one is closed only after the checks."""
    h = harness
    expected = await uninterrupted(h)
    jobs_module = sys.modules[type(jobs(h)).__module__]
    # a checkpoint and a progress report after every iteration, every report shown at once
    monkeypatch.setattr(jobs_module, "CHECKPOINT_INTERVAL", 0.0)
    monkeypatch.setattr(jobs_module, "REPORT_INTERVAL", 0.0)
    monkeypatch.setattr(h.cog_module("DeckOptimizer"), "PROGRESS_INTERVAL", 0.0)
    gate = IterationGate(monkeypatch, 40)
    await h.run("deck optimize", h.alice, wait=False, **RESUMED)
    await gate.wait()
    killed = h.bot
    job = jobs(h).by_user[h.alice.id]

    async def stored_iteration() -> int:
        (row,) = await killed.db.fetch_all("SELECT state_json FROM deck_jobs")
        return (JOB_STATE.from_text(row["state_json"]).checkpoint or Checkpoint(0, 0, (), (), ())).iterations_done

    deadline = time.monotonic() + 10
    while await stored_iteration() < 39:  # the checkpoint of iteration 39 is on its way to the database
        assert time.monotonic() < deadline
        await asyncio.sleep(0.01)
    # its last progress shown: the dead bot has nothing left on its way to Discord
    await wait_for(lambda: "iteration 39/60 · " in h.fake.messages[job.message_id].embed.description)
    assert h.fake.messages[job.message_id].embed.title == "🃏 Optimizing a deck…"
    try:
        dead_tasks = asyncio.all_tasks()  # its command's handler, waiting on the frozen thread for ever
        h.bot = await start_bot(h.settings, h.fake)
        await h.settle(dead_tasks)
        assert as_compared(result_after_restart(h)) == expected
        ended = h.fake.messages[job.message_id]
        assert "🔁 resumed after a restart of the bot, from iteration 39" in ended.embed.description
        assert await h.bot.db.fetch_all("SELECT * FROM deck_jobs") == []
    finally:
        job.cancel.set()  # the dead bot's thread, let go only to end the test
        gate.release()
        await killed.close()


KILLED = {"iterations": 400, "games": 300, "seed": 13}  # about 4 s in the killed bot, slowed there


async def stored_iteration(db) -> int:
    """The iteration the stored job's last checkpoint reached (0: none yet)."""
    (row,) = await db.fetch_all("SELECT state_json FROM deck_jobs")
    checkpoint = JOB_STATE.from_text(row["state_json"]).checkpoint
    return checkpoint.iterations_done if checkpoint else 0


async def test_a_job_of_a_bot_killed_with_sigkill_goes_on_from_its_last_checkpoint_to_the_uninterrupted_result(
    harness, tmp_path
):
    """A real kill -9: the job runs in a bot process of its own (tests/cogs/deck_bot_to_kill.py) that talks to
    this test's Discord; once it has stored a checkpoint past iteration 50 the process is killed between two
    checkpoints, and a new bot on the same database and Discord ends the job."""
    h = harness
    expected = await uninterrupted(h, KILLED)
    await h.bot.close()
    h.fake.session_open = True  # the other process's bot opens its own session to this Discord
    given = {
        "discord": h.fake.base_url,
        "database_path": str(h.settings.database_path),
        "database_url": h.settings.database_url.get_secret_value() if h.settings.database_url else None,
        "options": KILLED,
    }
    errors = tmp_path / "killed-bot.stderr"
    with errors.open("wb") as stderr:
        bot_process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.cogs.deck_bot_to_kill", json.dumps(given), cwd=ROOT, stderr=stderr
        )
    db = await open_storage(h.settings)
    try:
        deadline = time.monotonic() + 60  # its start-up loads the bot and the compiled engine
        while not await db.fetch_all("SELECT 1 FROM deck_jobs") or await stored_iteration(db) < 50:
            assert bot_process.returncode is None, errors.read_text()
            assert time.monotonic() < deadline, errors.read_text()
            await asyncio.sleep(0.01)
        bot_process.send_signal(signal.SIGKILL)
        assert await bot_process.wait() == -signal.SIGKILL
        killed_at = await stored_iteration(db)
    finally:
        if bot_process.returncode is None:
            bot_process.kill()
            await bot_process.wait()
        await db.close()
    assert 50 <= killed_at < KILLED["iterations"]
    (message,) = [m for m in h.messages if m.embeds and "Requested by Alice" in m.embed.footer.text]
    assert message.embed.title == "🃏 Optimizing a deck…"  # killed: no pause, no word on its message

    h.bot = await start_bot(h.settings, h.fake)
    await h.settle()
    assert as_compared(result_after_restart(h)) == expected
    ended = h.fake.messages[message.id]
    assert ended.embed.title == "🃏 Optimization finished after a restart: its result is posted below"
    assert f"🔁 resumed after a restart of the bot, from iteration {killed_at}" in ended.embed.description
    assert await h.bot.db.fetch_all("SELECT * FROM deck_jobs") == []


async def test_a_resumed_job_can_be_cancelled_by_its_member(harness):
    h = harness
    message = await start_long_job(h, h.alice, seed=3)
    await h.restart()
    await wait_for(lambda: h.alice.id in jobs(h).by_user and jobs(h).by_user[h.alice.id].progress is not None)
    (refusal,) = await h.click(h.fake.messages[message.id], "Cancel", h.bob)
    assert refusal.content == f"❌ Only <@{h.alice.id}>, who started this optimization, can cancel it."
    (ack,) = await h.click(h.fake.messages[message.id], "Cancel", h.alice)
    assert ack.content.startswith("⏹️ Cancelling")
    await h.settle()
    result = result_after_restart(h)
    assert (result.embed.title or "").startswith("⏹️ Optimization cancelled after ")
    assert "deck-3.csv" in result.files and jobs(h).by_id == {}


async def test_a_job_whose_channel_was_deleted_while_the_bot_was_down_is_dropped(harness):
    h = harness
    await start_long_job(h, h.alice, seed=3)
    await h.bot.close()
    h.fake.channels.pop(CHANNEL_ID)
    posted = len(h.messages)
    h.bot = await start_bot(h.settings, h.fake)
    await h.settle()
    assert jobs(h).by_id == {} and h.messages[posted:] == []
    assert await h.bot.db.fetch_all("SELECT * FROM deck_jobs") == []


async def test_a_job_older_than_a_day_is_abandoned_with_a_message(harness):
    h = harness
    message = await start_long_job(h, h.alice, seed=3)
    two_days_ago = stored_time(time.time() - 2 * 24 * 3600)
    async with h.bot.db.transaction() as conn:
        await conn.execute("UPDATE deck_jobs SET started_at = ?", (two_days_ago,))
    await h.restart()
    await h.settle()
    abandoned = h.fake.messages[message.id]
    assert abandoned.embed.title == "⌛ Optimization abandoned: the bot was away for more than a day"
    assert abandoned.components == [] and "100,000 iterations × 199 games" in abandoned.field("Run")
    assert abandoned.embed.footer.text == "seed 3 · Run /deck optimize again with the same seed to replay it."
    assert jobs(h).by_id == {} and await h.bot.db.fetch_all("SELECT * FROM deck_jobs") == []


async def test_a_job_that_cannot_pause_in_time_for_a_restart_says_it_resumes_and_a_duel_says_it_ended(
    harness, monkeypatch
):
    from arena import bot as bot_module
    from cogs.deck import jobs as jobs_module

    h = harness
    message = await start_long_job(h, h.alice, seed=3)
    # an iteration far longer than the shutdown's grace (many jobs of huge batches), and a duel beside it
    iteration = HeldCall(monkeypatch, deck_optimize, "propose_swap")
    await iteration.entered()
    monkeypatch.setattr(jobs_module, "SHUTDOWN_GRACE", 0.2)
    monkeypatch.setattr(bot_module, "SHUTDOWN_GRACE", 0.2)
    duel = HeldCall(monkeypatch, h.cog_module("DeckOptimizer"), "duel")
    await h.run("deck duel", h.bob, wait=False, deck_a=("a.csv", RANDOM_7), deck_b=("b.csv", OPPONENT), games=10)
    await duel.entered()
    try:
        await h.bot.close()
    finally:
        iteration.release()
        duel.release()
    paused = h.fake.messages[message.id]
    assert paused.embed.title == "⏸️ Optimization paused: the bot is restarting" and paused.components == []
    assert paused.embed.description.endswith("\n⏸️ It resumes where it stopped when the bot is back.")
    assert any(m.content == "⏹️ The bot restarted during this duel, which ended it; run it again." for m in h.messages)
    assert not h.fake.thinking
    # the next bot resumes the job from its stored start (it never reached a checkpoint), under the same id
    h.bot = await start_bot(h.settings, h.fake)
    await wait_for(lambda: h.fake.messages[message.id].embed.title == "🃏 Optimizing a deck…")
    assert (
        "🔁 resumed after a restart of the bot, from its first iteration"
        in h.fake.messages[message.id].embed.description
    )
    (ack,) = await h.click(h.fake.messages[message.id], "Cancel", h.alice)
    assert ack.content.startswith("⏹️ Cancelling")
    await h.settle()
