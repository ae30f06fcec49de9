"""Shared cog helpers: Discord's limits, bars and the error mapping."""

import asyncio
import re
from types import SimpleNamespace
from typing import Any, cast

import aiohttp
import discord
import pytest
from aiohttp import web
from discord import app_commands
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from arena.tree import user_message
from cogs.common import (
    EmbedLimits,
    ProgressMessage,
    UserError,
    fit_embed,
    hp_bar,
    lines_within,
    markdown_safe,
    medal_lines,
    progress_bar,
    seed_footer,
)
from cogs.common.components import component_template, custom_id
from rules.errors import InputProblem, RuleInputError


def test_lines_within_says_how_many_were_left_out():
    text = lines_within([f"line {i:03}" for i in range(100)], 60)
    assert len(text) <= 60
    assert text.splitlines()[0] == "line 000"
    kept = len(text.splitlines()) - 1
    assert text.splitlines()[-1] == f"… and {100 - kept} more"


def test_lines_within_keeps_everything_that_fits():
    assert lines_within(["a", "b"], 100) == "a\nb"


def test_markdown_safe_clips_before_escaping():
    assert markdown_safe("**boss_name**") == r"\*\*boss\_name\*\*"
    mentions = "<@1200000000000000002> <@&810000000000000001> @here"
    assert markdown_safe(mentions) == "<@\u200b1200000000000000002> <@\u200b&810000000000000001> @\u200bhere"
    # Clipping "ab_c" to 3 gives "ab…", not a dangling "ab\".
    assert markdown_safe("ab_c", 3) == "ab…"


def test_hp_bar_rounds_up_while_alive():
    assert hp_bar(1, 1000, width=10) == "█░░░░░░░░░ 1/1000"
    assert hp_bar(0, 1000, width=10) == "░░░░░░░░░░ 0/1000"
    assert hp_bar(500, 1000, width=10) == "█████░░░░░ 500/1000"
    assert hp_bar(333.456, 1000, width=10) == "████░░░░░░ 333.46/1000"
    assert hp_bar(0.004, 1000, width=10) == "█░░░░░░░░░ 0.004/1000"  # alive: never "0"
    assert hp_bar(0.0000123, 1000, width=10) == "█░░░░░░░░░ 0.000012/1000"
    assert hp_bar(0.000001, 1000, width=10) == "█░░░░░░░░░ 0.000001/1000"  # the least a boss keeps


def test_progress_bar():
    assert progress_bar(0.5, width=4) == "`██░░` 50%"


def test_fit_embed_respects_every_limit():
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for i in range(30):
        embed.add_field(name=f"f{i}", value="v" * 2000)
    fit_embed(embed)
    assert len(embed.title or "") == EmbedLimits.TITLE
    assert len(embed.description or "") <= EmbedLimits.DESCRIPTION
    assert len(embed.fields) <= EmbedLimits.FIELDS
    assert all(len(f.value or "") <= EmbedLimits.FIELD_VALUE for f in embed.fields)
    assert len(embed) <= EmbedLimits.TOTAL


def test_user_mistakes_map_to_their_message_and_bugs_to_none():
    rule_error = RuleInputError(InputProblem("'x' is not a number", "a.csv", 3, "HP"))
    wrapped = app_commands.CommandInvokeError.__new__(app_commands.CommandInvokeError)
    wrapped.original = rule_error
    assert user_message(wrapped) == "a.csv, row 3, column 'HP': 'x' is not a number"
    assert user_message(UserError("no boss here")) == "no boss here"
    assert user_message(RuntimeError("bug")) is None


async def test_a_click_on_a_dead_button_gets_an_answer(harness):
    from offline_discord.harness import CHANNEL_ID

    buttons = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Old", "custom_id": "gone:1:press"}]}]
    orphan = harness.fake._post(CHANNEL_ID, {"content": "old", "components": buttons}, {})
    (reply,) = await harness.click(orphan, "Old")
    assert reply.ephemeral
    assert reply.content == "⌛ These buttons are no longer active. Run the command again for fresh ones."


def commands_of(top_level):
    """The commands of a top-level group, or the top-level command itself (/arena-settings)."""
    return list(top_level.walk_commands()) if isinstance(top_level, discord.app_commands.Group) else [top_level]


async def test_every_command_and_option_has_help(harness):
    groups = harness.bot.tree.get_commands()
    assert {g.name for g in groups} >= {"bossfight", "mfd", "mma", "andor", "deck", "arena-settings"}
    for group in groups:
        # Every game keeps per-server state except the deck optimizer, which also works in direct messages.
        assert group.guild_only == (group.name != "deck"), group.name
        for command in commands_of(group):
            assert command.description and command.description != "…", command.qualified_name
            for param in getattr(command, "parameters", []):
                assert param.description and param.description != "…", f"{command.qualified_name} {param.name}"


class BrokenButton(discord.ui.DynamicItem[discord.ui.Button], template=r"broken:(?P<n>[0-9]+)"):
    """A persistent button whose rebuilding fails: discord.py only logs that, and answers nothing."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        raise RuntimeError("cannot rebuild")


class SlowlyAnsweredButton(discord.ui.DynamicItem[discord.ui.Button], template=r"slow:(?P<n>[0-9]+)"):
    """A persistent button whose answer leaves before the watchdog's deadline and arrives after it."""

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content="drawn again")


async def test_the_watchdog_never_answers_over_an_answer_on_its_way(harness, monkeypatch, caplog):
    from offline_discord.harness import CHANNEL_ID

    harness.bot.add_dynamic_items(SlowlyAnsweredButton)
    harness.bot.answer_deadline = 0.05
    send = harness.fake.request

    async def slow_callbacks(route, *args, **kwargs):
        if route.path.endswith("/callback"):
            await asyncio.sleep(0.3)  # Discord confirms the answer well after the watchdog's deadline
        return await send(route, *args, **kwargs)

    monkeypatch.setattr(harness.fake, "request", slow_callbacks)
    buttons = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "slow:1"}]}]
    message = harness.fake._post(CHANNEL_ID, {"content": "a game", "components": buttons}, {})
    await harness.click(message, "Go", wait=False)
    await asyncio.sleep(0.6)  # past the deadline and the answer's arrival, with the watchdog's rechecks
    await harness.settle()
    assert harness.fake.messages[message.id].content == "drawn again"
    assert [m for m in harness.messages if m.ephemeral] == []  # no error id
    assert not [r for r in caplog.records if r.name == "arena.errors" or "error" in r.getMessage()]


async def test_a_click_discord_py_drops_silently_still_gets_an_error_id(harness, caplog):
    import asyncio

    from offline_discord.harness import CHANNEL_ID

    harness.bot.add_dynamic_items(BrokenButton)
    harness.bot.answer_deadline = 0.05
    buttons = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "broken:1"}]}]
    message = harness.fake._post(CHANNEL_ID, {"content": "a game", "components": buttons}, {})
    await harness.click(message, "Go", wait=False)
    await asyncio.sleep(0.3)
    await harness.settle()
    (reply,) = [m for m in harness.messages if m.ephemeral]
    assert reply.content.startswith("⚠️ Something went wrong on our side (error id `")
    error_id = reply.content.split("`")[1]
    logged = [r for r in caplog.records if error_id in r.getMessage()]
    assert logged and "no answer within 0.05 s" in str(logged[0].exc_info[1])


async def test_no_help_text_is_cut_by_discord(harness):
    # discord.py shortens help over Discord's 100 characters, ending it with an ellipsis.
    for group in harness.bot.tree.get_commands():
        for command in commands_of(group):
            texts = [command.description] + [p.description for p in getattr(command, "parameters", [])]
            assert not any(str(text).endswith("…") for text in texts), (command.qualified_name, texts)


async def test_quick_engine_work_never_waits_behind_long_jobs(harness):
    import threading

    from arena.bot import LONG_JOB_WORKERS
    from tests.cogs.test_bossfight import DECK_400

    release = threading.Event()
    busy = [harness.bot.long_job_executor.submit(release.wait, 30) for _ in range(LONG_JOB_WORKERS)]
    try:
        (saved,) = await harness.run("bossfight deck save", harness.alice, deck=("deck.csv", DECK_400))
        assert saved.content.startswith("✅ Saved deck.csv")
        assert not any(job.done() for job in busy)
    finally:
        release.set()


def test_rankings_get_medals_then_numbers():
    assert medal_lines(["a", "b", "c", "d"]) == ["🥇 a", "🥈 b", "🥉 c", "4. d"]


def test_the_seed_leads_every_seeded_footer():
    assert seed_footer(42) == "seed 42"
    assert seed_footer(42, "fight #3", "round 2") == "seed 42 · fight #3 · round 2"


async def test_progress_edits_are_spaced_by_the_interval_counted_from_the_last_edit(monkeypatch):
    now = [100.0]  # a clock the test moves by hand
    waits = []  # the delay before each edit
    shown = []

    async def edit(step: int) -> None:
        shown.append(step)
        now[0] += 0.5  # the edit itself takes half a second

    show_after = ProgressMessage._show_after

    async def show_without_waiting(self: ProgressMessage, delay: float) -> None:
        waits.append(round(delay, 9))
        await show_after(self, 0)

    monkeypatch.setattr(ProgressMessage, "_show_after", show_without_waiting)
    progress = ProgressMessage(edit, what="job 7", min_interval=2.0, clock=lambda: now[0])
    for step, moment in ((1, 100.0), (2, 100.7), (3, 104.0)):
        now[0] = max(now[0], moment)
        progress.report(step)
        for _ in range(5):
            await asyncio.sleep(0)
    await progress.close()
    assert shown == [1, 2, 3]
    # the first at once; the second 2 s after the first edit ended (100.5); the third was due already
    assert waits == [0.0, 1.8, 0.0]


async def test_a_progress_edit_discord_refuses_is_logged_and_the_next_one_is_shown(caplog):
    shown = []

    async def edit(step: int) -> None:
        if step == 1:
            raise discord.NotFound(cast(Any, SimpleNamespace(status=404, reason="Not Found")), "Unknown Message")
        shown.append(step)

    progress = ProgressMessage(edit, what="job 7", min_interval=0)
    for step in (1, 2):
        progress.report(step)
        for _ in range(5):  # the report is scheduled, then the edit runs: a few turns of the loop, no clock
            await asyncio.sleep(0)
    await progress.close()
    assert shown == [2]
    assert [r.getMessage() for r in caplog.records if r.name == "arena.progress"] == [
        "could not show the progress of job 7"
    ]


async def test_a_report_made_while_an_edit_is_on_its_way_is_shown_after_it():
    shown: list[int] = []
    editing, release = asyncio.Event(), asyncio.Event()

    async def edit(step: int) -> None:
        shown.append(step)
        if step == 1:
            editing.set()
            await release.wait()

    progress = ProgressMessage(edit, what="job 7", min_interval=0)
    progress.report(1)
    await editing.wait()
    progress.report(2)  # e.g. /deck's "measuring afresh", after which no report comes for a while
    release.set()
    for _ in range(10):
        await asyncio.sleep(0)
    await progress.close()
    assert shown == [1, 2]


async def test_closing_waits_for_an_edit_on_its_way_instead_of_cancelling_it():
    shown: list[int] = []
    editing, release = asyncio.Event(), asyncio.Event()

    async def edit(step: int) -> None:
        editing.set()
        await release.wait()
        shown.append(step)

    progress = ProgressMessage(edit, what="job 7", min_interval=0)
    progress.report(1)
    await editing.wait()
    closing = asyncio.ensure_future(progress.close())
    await asyncio.sleep(0)
    assert not closing.done()  # it waits for the edit ...
    release.set()
    await closing
    assert shown == [1]  # ... which finished, not cancelled


async def test_closing_leaves_no_webhook_lock_held_by_an_edit_sleeping_out_its_bucket(aiohttp_discord):
    """discord.py's webhook adapter sleeps out an exhausted rate-limit bucket before it releases the
    interaction's lock: an edit cancelled in that sleep would keep every later request of the interaction
    (a job's final answer) waiting for ever."""
    adapter, session, answered = aiohttp_discord
    route = lambda: Route(  # noqa: E731
        "PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", webhook_id=1, webhook_token="t"
    )
    progress = ProgressMessage(
        lambda text: adapter.request(route(), session, payload={"content": text}), what="job 7", min_interval=0
    )
    progress.report("50%")
    await answered.wait()
    (lock,) = adapter._locks.values()  # the edit's, taken for its request
    await asyncio.sleep(0.1)  # the answer read, the adapter sleeps out the bucket's 0.3 s reset
    await progress.close()  # while the adapter sleeps out the bucket's reset, holding the lock
    assert not lock.locked()
    await asyncio.wait_for(adapter.request(route(), session, payload={"content": "done"}), 5)


@pytest.fixture
async def aiohttp_discord():
    """discord.py's own webhook adapter and an aiohttp session against a loopback server that answers every edit
    with an exhausted bucket (X-RateLimit-Remaining 0, reset after 0.3 s), as Discord does under load."""
    answered = asyncio.Event()

    async def edit(request: web.Request) -> web.Response:
        answered.set()
        headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "0.3", "X-RateLimit-Limit": "5"}
        return web.json_response({"id": "1"}, headers=headers)

    app = web.Application()
    app.router.add_route("PATCH", "/{tail:.*}", edit)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    base = Route.BASE
    Route.BASE = f"http://127.0.0.1:{runner.addresses[0][1]}/api/v10"
    adapter = AsyncWebhookAdapter()
    try:
        async with aiohttp.ClientSession() as session:
            yield adapter, session, answered
    finally:
        Route.BASE = base
        await runner.cleanup()


def test_one_custom_id_layout_for_every_game():
    template = component_template("andor", ["attack", "flee"])
    assert custom_id("andor", 12, 3, "flee") == "andor:12:3:flee"
    match = re.fullmatch(template, "andor:12:3:flee")
    assert match is not None
    assert (match["id"], match["version"], match["action"]) == ("12", "3", "flee")
    assert re.fullmatch(template, "andor:12:3:dance") is None
    assert re.fullmatch(component_template("deck", ["cancel"], ids="[0-9a-f]{8}"), "deck:00ff00ff:0:cancel")


def test_an_id_is_a_whole_number_a_database_holds():
    from cogs.common.components import stored_id

    assert [stored_id(text) for text in ("0", "12", str(2**63 - 1))] == [0, 12, 2**63 - 1]
    # too large for a 64-bit integer, a leading zero (no id is written so), or no plain number
    assert [stored_id(text) for text in (str(2**63), "1" * 20, "012", "", "-1", "1.0", "²", "١٢")] == [None] * 8
    template = component_template("mma", ["draw"])
    assert re.fullmatch(template, f"mma:{2**63 - 1}:0:draw")
    assert re.fullmatch(template, f"mma:{2**63}:0:draw") is None


async def test_a_second_close_returns_only_once_the_first_has_closed_everything(harness):
    """A signal's close, then start() returning closes again: the second may not return (and let the event loop
    close) while the first still waits for the database's worker thread."""
    first = asyncio.ensure_future(harness.bot.close())
    await asyncio.sleep(0)  # the first close is on its way
    await harness.bot.close()
    assert first.done() and harness.bot.is_closed() and harness.bot._db is None


NO_LONGER_ACTIVE = "⌛ These buttons are no longer active. Run the command again for fresh ones."
MAX_INT64 = 2**63 - 1  # the largest integer SQLite (and PostgreSQL's bigint) store


@pytest.mark.parametrize(
    ("forged", "answer"),
    [
        # numbers beyond the databases' 64-bit integers, in every game's id and version
        ("mma:9999999999999999999:0:draw", NO_LONGER_ACTIVE),
        (f"mma:{MAX_INT64 + 1}:0:draw", NO_LONGER_ACTIVE),
        ("andor:9999999999999999999:0:attack", NO_LONGER_ACTIVE),
        ("mfd:9999999999999999999:0:next", NO_LONGER_ACTIVE),
        ("mma:1:9999999999:draw", NO_LONGER_ACTIVE),
        ("mma:9999999999999999999:draw", NO_LONGER_ACTIVE),
        ("mma:1:draw:9999999999999999999", NO_LONGER_ACTIVE),
        ("mma:1:9:play-9999", NO_LONGER_ACTIVE),
        (f"mma:{'1' * 20}:0:history-0", NO_LONGER_ACTIVE),
        (f"mma:{MAX_INT64 + 1}:0:replay-first", NO_LONGER_ACTIVE),
        (f"andor:{MAX_INT64 + 1}:0:attack", NO_LONGER_ACTIVE),
        (f"mfd:0{MAX_INT64}:0:next", NO_LONGER_ACTIVE),  # no id is written with a leading zero
        # the largest numbers a custom id may carry: looked up, and not found
        (f"mma:{MAX_INT64}:0:draw", "❌ This match no longer exists."),
        (f"mma:{MAX_INT64}:draw:{MAX_INT64}", NO_LONGER_ACTIVE),  # a layout no message carries
        (f"andor:{MAX_INT64}:999999999:attack", "❌ This fight no longer exists."),
        (
            f"mfd:{MAX_INT64}:0:next",
            "❌ This battle is no longer this channel's battle; `/mfd status` shows the current one.",
        ),
    ],
)
async def test_a_number_too_large_for_the_database_is_an_unknown_custom_id(harness, forged, answer):
    from offline_discord.harness import CHANNEL_ID

    buttons = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": forged}]}]
    message = harness.fake._post(CHANNEL_ID, {"content": "a game", "components": buttons}, {})
    (reply,) = await harness.click(message, "Go", harness.gm)
    assert reply.ephemeral and reply.content == answer


def test_the_invite_asks_for_what_the_bot_uses_threads_included():
    from pathlib import Path

    from arena.bot import INVITE_PERMISSIONS, invite_url

    listed = discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,  # MMA pings and boards posted again, in a thread
        embed_links=True,
        attach_files=True,
        read_message_history=True,
    )
    assert listed.value == INVITE_PERMISSIONS
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert f"`{invite_url(1).replace('client_id=1&', 'client_id=<APPLICATION_ID>&')}`" in readme


async def test_the_bot_logs_its_invite_link_when_it_logs_in(harness, caplog):
    from arena.bot import invite_url

    caplog.set_level("INFO", logger="arena")
    await harness.bot.on_ready()
    assert f"invite the bot to a server with {invite_url(harness.bot.application_id)}" in caplog.messages
    assert f"client_id={harness.bot.application_id}&scope=bot+applications.commands&permissions=" in caplog.text


async def test_a_download_whose_connection_breaks_off_is_a_failed_download(harness, caplog):
    """The offline Discord's CDN drops the connection mid-download, as a network does: aiohttp raises (not
    discord.py), through discord.py's own CDN request."""
    harness.fake.failing_downloads.add("my_deck.csv")
    (reply,) = await harness.run("bossfight deck save", harness.alice, deck=("my_deck.csv", b"x"))
    assert reply.ephemeral and reply.content == (
        "❌ my\\_deck.csv could not be downloaded from Discord (network error); try attaching it again."
    )
    assert not [r for r in caplog.records if r.name == "arena.errors"]  # no error id was logged


@pytest.mark.parametrize(
    "failure",
    [aiohttp.ClientConnectionError("Connection reset by peer"), TimeoutError(), ConnectionResetError(104, "reset")],
)
async def test_an_attachment_the_network_fails_to_bring_is_a_failed_download(harness, monkeypatch, caplog, failure):
    async def failing_cdn(url: str) -> bytes:
        raise failure  # a network error on the way from Discord's CDN, not an answer of Discord's

    monkeypatch.setattr(harness.bot.http, "get_from_cdn", failing_cdn)
    (reply,) = await harness.run("bossfight deck save", harness.alice, deck=("my_deck.csv", b"x"))
    assert reply.ephemeral
    assert reply.content == (
        "❌ my\\_deck.csv could not be downloaded from Discord (network error); try attaching it again."
    )
    assert not [r for r in caplog.records if r.name == "arena.errors"]  # no error id was logged
