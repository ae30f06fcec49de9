"""/deck through the real command tree: optimize to completion with its files, progress, cancel, one job per
user, the work cap, bad opponent CSVs, duels, random decks, and an event loop that keeps answering."""

from __future__ import annotations

import asyncio
import copy
import random
import re
import sys
import threading
import time
from pathlib import Path

import pytest

from cogs.deck.jobs import Job, Turns
from cogs.deck.render import cancel_view, progress_embed
from offline_discord.fake_discord import RateLimits
from offline_discord.harness import CHANNEL_ID, OTHER_GUILD_CHANNEL_ID, OTHER_GUILD_ID, HeldCall, Message, User
from rules.deck import optimize as deck_optimize
from rules.deck.cards import random_deck, read_deck_csv, set_list
from rules.deck.fast import compile_kernels
from rules.deck.optimize import (
    OptimizeSettings,
    Progress,
    Score,
    duel,
    fresh_seed,
    optimize,
    score,
)
from tests.rules.test_csvio import formulas

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "deck"
RANDOM_7 = (EXAMPLES / "random-seed7.csv").read_bytes()
OPTIMIZED = (EXAMPLES / "optimized-seed1.csv").read_bytes()
OPPONENT = (EXAMPLES / "opponent-seed1.csv").read_bytes()
# 19.9 million games, and 2 x 10,000 to measure the decks afresh: far longer than any test waits
FINISHED_TITLES = ("🃏 Deck optimized: ", "🃏 No clear gain: ", "🃏 No better deck found: ")  # by the verdict
LONG_JOB = {"iterations": 100_000, "games": 199}
# About as many games in the longest batches the bot allows: every iteration is one 100,000-game call into
# the compiled kernel (about 0.1 s here); 18 million games, and 2 x 1,000,000 to measure the decks afresh.
HEAVY_JOB = {"iterations": 180, "games": 100_000}


@pytest.fixture(scope="session", autouse=True)
def compiled_kernels():
    """Compilation (about 10 s with an empty cache) is paid here, once per worker, not inside a test that waits
    for a job with a deadline."""
    compile_kernels()


def stale_button(message: Message, as_shown: Message) -> Message:
    """A click on a button a client still shows after `message` lost it: Discord sends the message as it is
    now (`message`), with the custom_id of the button the client showed (`as_shown`)."""
    return Message(
        message.id, message.channel_id, {**copy.deepcopy(message.data), "components": as_shown.data["components"]}
    )


def cog(h):
    return h.bot.get_cog("DeckOptimizer")


def jobs(h):
    return cog(h).jobs


async def wait_for(condition, within: float = 30.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.01)


async def start_long_job(h, user, job=LONG_JOB, **options):
    """Start a job that would take minutes; return its progress message once the job has made progress."""
    await h.run("deck optimize", user, wait=False, **job, **options)
    await wait_for(lambda: (job := jobs(h).by_user.get(user.id)) is not None and job.progress is not None)
    (message,) = [
        m
        for m in h.messages
        if m.embeds and m.embed.title == "🃏 Optimizing a deck…" and f"Requested by {user.name}" in m.embed.footer.text
    ]
    return message


def measured(s: Score, bold: bool = False) -> str:
    low, high = s.interval
    rate = f"{100 * s.winrate:.1f}%"
    return f"{f'**{rate}**' if bold else rate} (95% interval {100 * low:.1f}–{100 * high:.1f}%)"


async def test_optimize_runs_to_completion_with_its_files(harness):
    h = harness
    (message,) = await h.run("deck optimize", h.alice, iterations=30, games=200, seed=5)
    expected = optimize(OptimizeSettings(iterations=30, games=200, seed=5))
    start, final = expected.fresh.start, expected.fresh.final
    embed = message.embed
    # the winrates shown are the start and final decks measured afresh, with their 95% intervals
    assert (start.winrate, final.winrate) == (0.0889, 0.2335)  # apart beyond both 95% intervals
    assert embed.title == "🃏 Deck optimized: 8.9% → 23.4%"
    gain = 100 * (final.winrate - start.winrate)
    assert message.field("Winrate") == (
        f"start {measured(start)} → final {measured(final, bold=True)}\n"
        f"{gain:+.1f} points, {len(expected.accepted)} swaps kept · measured afresh after the run over 10,000 new "
        f"games each\nbest measurement during the run (the chart's curve, 200 games each, biased high): "
        f"{100 * expected.best_winrate:.1f}%"
    )
    assert "30 iterations × 200 games · all keywords on" in message.field("Run")
    assert embed.footer.text.startswith("seed 5 · Files: the result deck and the opponent as CSV")
    assert embed.description.startswith(
        "**Result: the final deck (the best found)**\nThe final deck measured better than the start deck beyond "
        "both 95% intervals: it is the result.\n```\n"
    )
    assert "opponent: a random deck from the seed" in message.field("Run")
    assert "26,200 games (20,000 of them measuring afresh) in" in message.field("Work")
    assert expected.best.compact() in embed.description
    assert embed.image.url == "attachment://winrate-5.png"
    assert read_deck_csv(message.files["deck-5.csv"].decode(), "deck-5.csv") == expected.best
    assert read_deck_csv(message.files["opponent-5.csv"].decode(), "o.csv") == expected.opponent
    assert formulas(message.files["deck-5.csv"]) == formulas(message.files["opponent-5.csv"]) == []
    assert message.files["winrate-5.png"].startswith(b"\x89PNG")
    assert message.components == []  # the Cancel button is gone
    assert not message.ephemeral
    assert jobs(h).by_user == {}


async def test_optimize_with_an_opponent_file_and_keywords_off(harness):
    h = harness
    (message,) = await h.run(
        "deck optimize",
        h.bob,
        iterations=10,
        games=100,
        seed=2,
        opponent=("mine.csv", OPTIMIZED),
        taunt=False,
        first_strike=False,
    )
    # the optimized example deck has taunters: with taunt off it is refused, naming row and column
    assert message.ephemeral
    assert message.content.startswith("❌ mine.csv, row ")
    assert "column 'taunt': Taunt is switched off for this run" in message.content
    plain = random_deck(set_list(()), random.Random(1)).to_csv().encode()
    (message,) = await h.run(
        "deck optimize",
        h.bob,
        iterations=10,
        games=100,
        seed=2,
        opponent=("plain.csv", plain),
        taunt=False,
        first_strike=False,
    )
    assert "off: Taunt, First Strike" in message.field("Run") and "opponent: plain.csv" in message.field("Run")
    best = read_deck_csv(message.files["deck-2.csv"].decode(), "deck-2.csv")
    assert not any(c.taunt or c.first_strike for c in best.cards)
    assert message.files["opponent-2.csv"].decode() == plain.decode()


async def test_bad_opponent_csv_is_rejected_with_row_and_column(harness):
    h = harness
    bad = b"atk,def,copies\n1,1,2\nx,2,2\n"
    (reply,) = await h.run("deck optimize", h.alice, iterations=5, games=10, opponent=("opp.csv", bad))
    assert reply.ephemeral and reply.content == "❌ opp.csv, row 3, column 'atk': 'x' is not a number"
    short = b"atk,def,copies\n1,1,2\n2,2,2\n"
    (reply,) = await h.run("deck optimize", h.alice, iterations=5, games=10, opponent=("opp.csv", short))
    assert reply.content == "❌ opp.csv: has 4 cards; a deck has exactly 30"
    assert jobs(h).by_user == {} and not jobs(h).reserved


async def test_a_failing_job_says_so_on_its_message_and_frees_the_user(harness, monkeypatch):
    h = harness

    def broken_chart(*_):
        raise RuntimeError("chart backend missing")

    monkeypatch.setattr(sys.modules["cogs.deck.jobs"], "winrate_chart_png", broken_chart)  # the module the bot loaded
    posted = await h.run("deck optimize", h.alice, iterations=3, games=10, seed=6)
    failed, apology = posted
    assert failed.embed.title == "⚠️ The optimization failed" and failed.embed.footer.text == "seed 6"
    assert failed.components == []
    assert apology.ephemeral and apology.content.startswith("⚠️ Something went wrong on our side (error id `")
    assert jobs(h).by_user == {} and jobs(h).by_id == {}


async def test_one_game_per_iteration_reports_the_fresh_winrate_not_100_percent(harness):
    h = harness
    (message,) = await h.run("deck optimize", h.alice, iterations=50, games=1, seed=3)
    expected = optimize(OptimizeSettings(iterations=50, games=1, seed=3))
    assert expected.best_winrate == 1.0  # the run's best measurement: one game, won
    deck = read_deck_csv(message.files["deck-3.csv"].decode(), "deck-3.csv")
    opponent = read_deck_csv(message.files["opponent-3.csv"].decode(), "opponent-3.csv")
    start = score(expected.start, opponent, 10_000, fresh_seed(3))
    final = score(expected.best, opponent, 10_000, fresh_seed(3))
    assert (start.winrate, final.winrate) == (0.0724, 0.0693)  # the 95% intervals overlap: no deck is better
    assert deck == expected.start  # the result is the start deck, which measured no lower
    assert message.embed.title == "🃏 No clear gain: 7.2% → 6.9%, too noisy to tell apart"
    assert message.field("Winrate").startswith(f"start {measured(start, bold=True)} → final {measured(final)}\n")
    assert message.field("Winrate").endswith("(the chart's curve, 1 game each, biased high): 100.0%")


async def test_a_run_that_found_a_worse_deck_keeps_the_start_deck_and_says_the_settings_are_too_noisy(harness):
    # The run the players reported: its search kept a swap on the noise of 100 games, and the deck it ended
    # on measures worse than the start deck on the same 10,000 fresh games.
    h = harness
    (message,) = await h.run("deck optimize", h.alice, iterations=50, games=100, seed=5)
    expected = optimize(OptimizeSettings(iterations=50, games=100, seed=5))
    start, final = expected.fresh.start, expected.fresh.final
    assert (start.winrate, final.winrate) == (0.0889, 0.0579)
    assert message.embed.title == "🃏 No better deck found: the start deck stays at 8.9%"
    assert message.embed.description == (
        "**Result: the start deck**\nThe final deck measured worse than the start deck on the same fresh games, "
        "so the result is the start deck. The search kept swaps on noise: a measurement of 100 games is only "
        "good to about ±5.7 points, too noisy to optimize on; use more games per iteration.\n```\n"
        + expected.start.compact()
        + "\n```"
    )
    assert message.field("Winrate").startswith(
        f"start {measured(start, bold=True)} → final {measured(final)}\n-3.1 points, 1 swap kept"
    )
    assert read_deck_csv(message.files["deck-5.csv"].decode(), "deck-5.csv") == expected.start != expected.best


async def test_a_gain_inside_the_intervals_is_kept_and_said_to_be_too_noisy(harness):
    h = harness
    (message,) = await h.run("deck optimize", h.alice, iterations=10, games=100, seed=2)
    expected = optimize(OptimizeSettings(iterations=10, games=100, seed=2))
    assert (expected.fresh.start.winrate, expected.fresh.final.winrate) == (0.293, 0.3018)
    assert message.embed.title == "🃏 No clear gain: 29.3% → 30.2%, too noisy to tell apart"
    assert message.embed.description.startswith(
        "**Result: the final deck (the best found)**\nToo noisy to tell the decks apart: the start and final "
        "decks' 95% intervals overlap, so the difference may be chance. The result is the final deck, which "
        "measured higher. With these settings a measurement of 100 games is only good to about ±8.8 points; "
        "more games per iteration measure finer.\n"
    )
    assert read_deck_csv(message.files["deck-2.csv"].decode(), "deck-2.csv") == expected.best != expected.start


async def test_the_work_cap_is_stated(harness):
    (reply,) = await harness.run("deck optimize", harness.alice, iterations=1000, games=50_000)
    assert reply.ephemeral
    assert reply.content == (
        "❌ iterations x games = 1,000 x 50,000 = 50,000,000 games, plus 2 x 500,000 to "
        "measure the start and final decks afresh: 51,000,000 games; the limit is 20,000,000"
    )
    # 19,900,000 games would pass alone; with 2 x 1,000,000 to measure afresh they do not
    (reply,) = await harness.run("deck optimize", harness.alice, iterations=199, games=100_000)
    assert reply.content.endswith(
        "plus 2 x 1,000,000 to measure the start and final decks afresh: 21,900,000 games; the limit is 20,000,000"
    )


async def test_progress_then_cancel_by_the_requester_only(harness):
    h = harness
    message = await start_long_job(h, h.alice, seed=3)
    assert re.fullmatch(r"deck:[0-9a-f]{8}:0:cancel", message.component("Cancel")["custom_id"])
    assert "100,000 iterations × 199 games · all keywords on" in message.field("Run")
    assert message.embed.footer.text.startswith("seed 3 · Requested by Alice")

    as_shown = copy.deepcopy(message)
    (refusal,) = await h.click(message, "Cancel", h.bob)
    assert refusal.ephemeral and refusal.content == (
        f"❌ Only <@{h.alice.id}>, who started this optimization, can cancel it."
    )
    assert jobs(h).by_user[h.alice.id].cancel.is_set() is False

    (ack,) = await h.click(message, "Cancel", h.alice)
    assert ack.ephemeral and ack.content == (
        "⏹️ Cancelling: the run stops after its current iteration and shows its result so far, measured afresh."
    )
    await h.settle()
    final = h.fake.messages[message.id]
    assert final.embed.title.startswith("⏹️ Optimization cancelled after ")
    assert "/100,000 iterations" in final.embed.title
    # a cancelled run's result follows the same rule: the better of the start and final decks, never a worse one
    assert final.embed.description.startswith("**Result: the ")
    assert final.components == [] and "deck-3.csv" in final.files and "winrate-3.png" in final.files
    assert jobs(h).by_user == {} and jobs(h).by_id == {}

    (late,) = await h.click(stale_button(final, as_shown), "Cancel", h.alice)
    assert late.content.startswith("❌ This optimization is not running any more")


async def test_a_cancel_replayed_in_another_server_is_refused_and_the_job_runs_on(harness):
    h = harness
    message = await start_long_job(h, h.alice, seed=3)
    (refusal,) = await h.click(message, "Cancel", h.alice, guild_id=OTHER_GUILD_ID, channel_id=OTHER_GUILD_CHANNEL_ID)
    assert refusal.ephemeral
    assert refusal.content == "❌ This optimization belongs to another server, so nothing was changed."
    assert jobs(h).by_user[h.alice.id].cancel.is_set() is False
    (ack,) = await h.click(message, "Cancel", h.alice)
    assert ack.content.startswith("⏹️ Cancelling")


async def test_a_second_cancel_says_the_run_is_already_cancelling(harness, monkeypatch):
    h = harness
    message = await start_long_job(h, h.alice, seed=3)
    iteration = HeldCall(monkeypatch, deck_optimize, "propose_swap")  # it lasts until both presses are answered
    await iteration.entered()  # past this iteration's check for a cancel
    (first,) = await h.click(message, "Cancel", h.alice)
    (second,) = await h.click(message, "Cancel", h.alice)
    iteration.release()
    await h.settle()
    assert first.content.startswith("⏹️ Cancelling: ")
    assert second.content.startswith("⏹️ Already cancelling: ")
    assert h.fake.messages[message.id].embed.title.startswith("⏹️ Optimization cancelled after ")


async def test_cancel_during_the_fresh_measurement_says_the_iterations_are_over(harness):
    h = harness
    message = await start_long_job(h, h.alice, {"iterations": 2, "games": 100_000}, seed=3)
    job = jobs(h).by_user[h.alice.id]
    await wait_for(lambda: job.progress is not None and job.progress.measuring)  # 2 x 1,000,000 games: a second
    (reply,) = await h.click(message, "Cancel", h.alice)
    assert reply.content == (
        "The iterations are over: the run is measuring its start and final decks, and shows them soon."
    )
    await h.settle()
    assert h.fake.messages[message.id].embed.title.startswith(FINISHED_TITLES)  # all it planned, done


async def test_a_result_whose_progress_message_was_deleted_comes_as_a_new_message(harness):
    h = harness
    message = await start_long_job(h, h.alice, {"iterations": 3000, "games": 200}, seed=4)
    h.fake.messages.pop(message.id)  # a moderator deletes it while the job runs
    before = len(h.messages)
    await h.settle()
    (result,) = [m for m in h.messages[before:] if m.embeds]
    assert result.embed.title.startswith(FINISHED_TITLES) and not result.ephemeral
    assert "deck-4.csv" in result.files
    assert not [m.content for m in h.messages if "went wrong" in m.content]


async def test_progress_shows_the_iteration_the_measurement_and_a_bar(harness, monkeypatch):
    h = harness
    shown = []  # the description of each progress edit (their spacing is ProgressMessage's, tested in test_common)
    send = h.fake.request

    async def recorded(route, *args, payload=None, **kwargs):
        if route.method == "PATCH" and "@original" in route.path and payload and payload.get("embeds"):
            shown.append(payload["embeds"][0]["description"])
        return await send(route, *args, payload=payload, **kwargs)

    monkeypatch.setattr(h.fake, "request", recorded)
    message = await start_long_job(h, h.alice)
    await wait_for(lambda: len(shown) >= 2, within=10)
    latest = shown[1]
    assert "iteration " in latest and "best measurement so far **" in latest and "(start " in latest
    assert re.search(r"`[█░]{20}` \d+%", latest)  # how far the bar is filled depends on the machine's speed
    await h.click(message, "Cancel", h.alice)
    await h.settle()


async def test_the_first_job_since_start_up_says_it_is_loading_the_optimizer(harness, monkeypatch):
    h = harness
    deck_jobs = sys.modules[type(jobs(h)).__module__]
    monkeypatch.setattr(deck_jobs, "ENGINE_READY", threading.Event())  # as in a process that never ran a job
    shown = []  # the first description each job's message showed
    send = h.fake.request

    async def recorded(route, *args, payload=None, **kwargs):
        data = (payload or {}).get("data", payload) or {}
        if data.get("embeds"):
            shown.append(data["embeds"][0]["description"])
        return await send(route, *args, payload=payload, **kwargs)

    monkeypatch.setattr(h.fake, "request", recorded)
    (first,) = await h.run("deck optimize", h.alice, iterations=5, games=10, seed=1)
    assert "loading the optimizer: the first run since the bot started takes a few seconds more" in shown[0]
    assert first.embed.title.startswith(FINISHED_TITLES) and deck_jobs.ENGINE_READY.is_set()
    shown.clear()
    (second,) = await h.run("deck optimize", h.alice, iterations=5, games=10, seed=2)
    assert shown[0].endswith("starting…") and second.embed.title.startswith(FINISHED_TITLES)


async def test_one_job_per_user_and_others_still_served(harness):
    h = harness
    message = await start_long_job(h, h.alice)
    (refusal,) = await h.run("deck optimize", h.alice, iterations=5, games=10)
    assert refusal.ephemeral and refusal.content.startswith("❌ You already have an optimization running")
    (other,) = await h.run("deck optimize", h.bob, iterations=5, games=10, seed=1)
    assert other.embed.title.startswith(FINISHED_TITLES)
    await h.click(message, "Cancel", h.alice)
    await h.settle()
    (again,) = await h.run("deck optimize", h.alice, iterations=5, games=10, seed=1)
    assert again.embed.title.startswith(FINISHED_TITLES)


async def test_commands_are_served_while_a_job_runs(harness):
    h = harness
    message = await start_long_job(h, h.alice, HEAVY_JOB)
    job = jobs(h).by_user[h.alice.id]
    iterations_before = job.progress.iteration
    # A command served on the event loop, and one that plays games itself, sharing the kernel with the job.
    for command, options in (
        ("deck random", {"seed": 7}),
        ("deck duel", {"deck_a": ("a.csv", OPTIMIZED), "deck_b": ("b.csv", OPPONENT), "games": 10_000, "seed": 1}),
    ):
        (reply,) = await h.run(command, h.bob, **options)
        assert reply.embeds and not reply.ephemeral
    # the job computed all along: it played more 100,000-game batches and is still running
    await wait_for(lambda: job.progress.iteration >= iterations_before + 3)
    assert jobs(h).by_user[h.alice.id] is job and not job.cancel.is_set()
    await h.click(message, "Cancel", h.alice)
    await h.settle()


@pytest.mark.parametrize("round_trip", [0.0, 0.05])
async def test_jobs_started_together_all_finish_round_after_round_while_commands_are_answered(
    harness, monkeypatch, round_trip
):
    """Three members start optimizations at the same moment, six times in a row, while every interaction's
    rate-limit bucket runs empty after two edits (so discord.py sleeps out its resets between progress edits):
    each job ends with its result and frees its slot, and a quick command is answered in time meanwhile."""
    h = harness
    monkeypatch.setattr(h.cog_module("DeckOptimizer"), "PROGRESS_INTERVAL", 0.0)  # edits as fast as allowed
    monkeypatch.setattr(sys.modules[type(jobs(h)).__module__], "REPORT_INTERVAL", 0.0)
    h.fake.rate_limits = RateLimits(limit=2, per=0.3)
    h.fake.network_delay = round_trip
    members = [h.alice, h.bob, h.gm]
    passer_by = User(1200000000000000005, "Dana")
    for round_number in range(6):
        posted = len(h.messages)
        for index, member in enumerate(members):
            seed = round_number * len(members) + index
            await h.run("deck optimize", member, wait=False, iterations=40, games=300, seed=seed)
        await wait_for(lambda: len(jobs(h).by_id) == len(members))
        await h.run("deck random", passer_by, seed=7)
        reply = h.fake.messages[h.fake.original_by_token[h.last_token]]
        assert reply.embed.title and h.last_token not in h.fake.expired  # answered within Discord's 3 s
        await h.settle()
        results = [m for m in h.messages[posted:] if m.embeds and m.embed.title.startswith(FINISHED_TITLES)]
        assert sorted(m.embed.footer.text.split(" ")[1] for m in results) == sorted(
            str(round_number * len(members) + i) for i in range(len(members))
        )
        assert all(m.files for m in results) and jobs(h).by_id == {} and jobs(h).by_user == {}
    assert h.fake.rate_limited == []  # discord.py waited out every empty bucket: Discord never answered 429


async def test_a_job_that_outlives_its_interaction_posts_its_result_as_a_new_message(harness, monkeypatch):
    """Discord takes edits of an interaction's response for 15 minutes; a result that comes later is posted in
    the channel instead, saying whose it is, and the job frees its slot."""
    h = harness
    held = HeldCall(monkeypatch, sys.modules[type(jobs(h)).__module__], "Search")
    try:
        await h.run("deck optimize", h.alice, wait=False, iterations=5, games=10, seed=3)
        await held.entered()
        clock = h.fake.clock
        h.fake.clock = lambda: clock() + 16 * 60  # the job waited its turn for a quarter of an hour
    finally:
        held.release()
    await h.settle()
    (progress, result) = [m for m in h.messages if m.embeds]
    assert progress.embed.title.startswith("🃏 Optimizing")  # the response Discord no longer lets the bot edit
    assert result.content == (
        f"{h.alice.mention}'s /deck optimize ran past the 15 minutes Discord gives an answer, so here it is anew."
    )
    assert result.embed.title.startswith(FINISHED_TITLES) and result.embed.footer.text.startswith("seed 3")
    assert sorted(result.files) == ["deck-3.csv", "opponent-3.csv", "winrate-3.png"]
    assert h.fake.token_expired and jobs(h).by_id == {}


async def test_the_number_of_jobs_in_the_bot_is_capped(harness, monkeypatch):
    h = harness
    monkeypatch.setattr(jobs(h), "max_jobs", 1)
    message = await start_long_job(h, h.alice)
    (refusal,) = await h.run("deck optimize", h.bob, iterations=5, games=10)
    assert (
        refusal.ephemeral and refusal.content == "❌ The bot is already running 1 optimization; try again in a minute."
    )
    assert list(jobs(h).by_user) == [h.alice.id]
    await h.click(message, "Cancel", h.alice)
    await h.settle()


async def test_a_button_pressed_while_the_bot_stops_is_told_to_try_again(harness, monkeypatch):
    h = harness
    message = await start_long_job(h, h.alice, seed=11)
    iteration = HeldCall(monkeypatch, deck_optimize, "propose_swap")  # the bot stops while the job ends its iteration
    await iteration.entered()
    closing = asyncio.ensure_future(h.bot.close())
    await wait_for(lambda: h.bot.get_cog("DeckOptimizer") is None, 5)
    try:
        (reply,) = await h.click(message, "Cancel", h.bob)
    finally:
        iteration.release()
    await closing
    assert reply.content == "⏳ The bot is restarting: press the button again in a moment."


async def test_a_member_may_start_again_while_their_result_is_being_shown(harness, monkeypatch):
    h = harness
    showing, go_on = asyncio.Event(), asyncio.Event()
    messages = sys.modules["cogs.deck.messages"]
    show = messages.InteractionMessage.show_result

    async def slow_show(self, done):
        showing.set()
        await go_on.wait()  # the result's upload takes its time
        await show(self, done)

    monkeypatch.setattr(messages.InteractionMessage, "show_result", slow_show)
    await h.run("deck optimize", h.alice, wait=False, iterations=5, games=10, seed=1)
    await asyncio.wait_for(showing.wait(), 10)
    await h.run("deck optimize", h.alice, wait=False, iterations=5, games=10, seed=2)
    await wait_for(lambda: len([m for m in h.messages if m.embeds]) == 2)
    assert not [m for m in h.messages if m.ephemeral]  # not told they already have one running
    go_on.set()
    await h.settle()
    assert sorted(m.embed.footer.text.split(" ")[1] for m in h.messages) == ["1", "2"]


async def test_a_progress_message_left_by_a_crash_is_marked_stopped_when_its_button_is_pressed(harness):
    h = harness
    # What a bot that died mid-job leaves behind: its progress message, with the Cancel button of a job
    # started by that earlier process.
    earlier_boot = f"{(int(jobs(h).boot, 16) + 1) % 0x10000:04x}"
    job = Job(earlier_boot + "0001", h.alice.id, OptimizeSettings(iterations=500, games=1000, seed=8), "opp.csv")
    left = h.fake._post(
        CHANNEL_ID,
        {"embeds": [progress_embed(job, "Alice").to_dict()], "components": cancel_view(job.id).to_components()},
        {},
    )
    assert await h.click(left, "Cancel", h.bob) == []  # the message itself is the answer
    stopped = h.fake.messages[left.id]
    assert stopped.embed.title == "⏹️ Optimization stopped: the bot restarted"
    assert stopped.embed.description.startswith("The bot restarted during this run, which ended it")
    assert "500 iterations × 1,000 games · all keywords on" in stopped.field("Run")
    assert stopped.embed.footer.text == "seed 8 · Run /deck optimize again with the same seed to replay it."
    assert stopped.components == []


async def test_a_cancel_button_in_the_layout_before_the_shared_one_is_no_longer_active(harness):
    """`deck:<job>:cancel`, as buttons were drawn before every game's custom ids became `<game>:<id>:<version>:
    <action>`, matches no template: the click gets the bot-wide answer and the message is left as it was."""
    h = harness
    job = Job("00000001", h.alice.id, OptimizeSettings(iterations=500, games=1000, seed=8), None)
    components = cancel_view(job.id).to_components()
    components[0]["components"][0]["custom_id"] = f"deck:{job.id}:cancel"
    left = h.fake._post(CHANNEL_ID, {"embeds": [progress_embed(job, "Alice").to_dict()], "components": components}, {})
    (reply,) = await h.click(left, "Cancel", h.alice)
    assert reply.ephemeral
    assert reply.content == "⌛ These buttons are no longer active. Run the command again for fresh ones."
    assert h.fake.messages[left.id].embed.title == "🃏 Optimizing a deck…"
    assert h.fake.messages[left.id].components == components[0]["components"]


def test_names_in_a_jobs_message_are_shown_as_written():
    job = Job("00000001", 1, OptimizeSettings(iterations=10, games=10, seed=8), "my_deck_v2.csv")
    embed = progress_embed(job, "Star_Lord_")
    assert embed.fields[0].value == "10 iterations × 10 games · all keywords on\nopponent: my\\_deck\\_v2.csv"
    assert embed.footer.text == (
        "seed 8 · Requested by Star\\_Lord\\_; only they can cancel it. If the bot restarts, this run resumes where "
        "it was."
    )
    job.progress = Progress(1, 10, 0.4, 0.5, 1, 20, 220)
    assert progress_embed(job, "Alice").description == (
        "`█░░░░░░░░░░░░░░░░░░░` 9%\niteration 1/10 · best measurement so far **50.0%** (start 40.0%) · 1 swap kept"
    )


async def test_a_bad_opponent_file_is_named_as_written(harness):
    bad = b"atk,def,copies\n1,1,2\nx,2,2\n"
    (reply,) = await harness.run("deck optimize", harness.alice, iterations=5, games=10, opponent=("my_opp_.csv", bad))
    assert reply.ephemeral and reply.content == "❌ my\\_opp\\_.csv, row 3, column 'atk': 'x' is not a number"


def test_progress_counts_the_fresh_measurement():
    job = Job("00000001", 1, OptimizeSettings(iterations=1000, games=1000, seed=8), "opp.csv")
    # 1000 iterations done: 1,001,000 games of 1,021,000, then the start deck's 10,000
    job.progress = Progress(1000, 1000, 0.412, 0.6, 12, 1_011_000, 1_021_000, measuring=True)
    assert progress_embed(job, "Alice").description == (
        "`███████████████████░` 99%\niteration 1,000/1,000 · best measurement so far **60.0%** (start 41.2%) · "
        "12 swaps kept\nmeasuring the start and final decks afresh over 10,000 new games each…"
    )


async def test_duel_reports_winrate_with_interval(harness):
    h = harness
    (reply,) = await h.run(
        "deck duel", h.alice, deck_a=("best.csv", OPTIMIZED), deck_b=("opp.csv", OPPONENT), games=4000, seed=9
    )
    a = read_deck_csv(OPTIMIZED.decode(), "a")
    b = read_deck_csv(OPPONENT.decode(), "b")
    s = duel(a, b, 4000, 9).score
    low, high = s.interval
    assert reply.embed.title == f"⚔️ best.csv vs opp.csv: {100 * s.winrate:.2f}%"
    assert f"won **{s.wins:,}** of 4,000 games, lost {s.losses:,}, tied {s.ties:,}" in reply.embed.description
    assert f"95% interval: **{100 * low:.2f}% – {100 * high:.2f}%**" in reply.embed.description
    assert reply.embed.footer.text == "seed 9 · each deck started half the games"


async def test_duel_rejects_a_bad_deck(harness):
    bad = b"atk,def,copies\n1,1,3\n"
    (reply,) = await harness.run("deck duel", harness.alice, deck_a=("a.csv", bad), deck_b=("b.csv", OPPONENT))
    assert reply.ephemeral and reply.content.startswith("❌ a.csv, row 2, column 'copies': 3 is above")


async def test_random_deck_table_and_csv(harness):
    (reply,) = await harness.run("deck random", harness.alice, seed=7)
    assert reply.embed.title == "🎲 Random deck"
    assert reply.embed.footer.text == (
        "seed 7 · 30 cards, mean cost 5.90. Use the CSV with /deck duel or as an opponent."
    )
    assert reply.files["deck-7.csv"] == RANDOM_7
    assert formulas(RANDOM_7) == []
    deck = read_deck_csv(RANDOM_7.decode(), "r")
    table = reply.embed.description
    assert table.count("\n") == len(deck.counts()) + 3  # fence, header, one row per card, fence, legend
    assert "   4   0   2   .   Y   Y   Y  1" in table  # the 0/2 Trample+Distortion+First Strike
    (other,) = await harness.run("deck random", harness.alice)
    assert re.fullmatch(r"seed [0-9]+ · 30 cards, .*", other.embed.footer.text)


async def test_every_command_and_option_has_help_within_limits(harness):
    group = harness.bot.tree.get_command("deck")
    for command in group.walk_commands():
        assert command.description and len(command.description) <= 100, command.qualified_name
        for param in command.parameters:
            assert param.description and len(param.description) <= 100, f"{command.qualified_name} {param.name}"


@pytest.fixture(autouse=True)
async def no_job_left(harness):
    yield
    for job in list(cog(harness).jobs.by_id.values()) if cog(harness) else []:
        job.cancel.set()
    await harness.settle()


def test_jobs_take_turns_in_the_order_they_asked():
    turns, order = Turns(), []
    turns.take()  # a first job plays

    def job(number: int) -> None:
        turns.take()
        order.append(number)
        turns.give()

    threads = [threading.Thread(target=job, args=(number,)) for number in range(3)]
    for asked, thread in enumerate(threads, start=2):
        thread.start()
        deadline = time.monotonic() + 10
        while len(turns._queue) < asked:  # this one waits behind the earlier ones before the next asks
            assert time.monotonic() < deadline
            time.sleep(0.001)
    assert turns.others_waiting() and order == []
    turns.give()
    for thread in threads:
        thread.join(10)
    assert order == [0, 1, 2] and not turns.others_waiting()
