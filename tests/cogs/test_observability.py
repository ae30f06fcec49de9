"""METRICS_PORT's /metrics and /healthz, scraped over HTTP while the harness plays, and LOG_FORMAT=json (issue 26)."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import socket
import time
from contextlib import suppress

import aiohttp
import discord
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import handle_message_parameters
from discord.shard import EventItem, Shard
from prometheus_client.parser import text_string_to_metric_families
from yarl import URL

from local_postgres.server import PostgresMissing, PostgresServer
from observability import JsonLogFormatter, MetricsUnavailable
from observability.build import build_labels
from observability.discord_http import route_kind, status_label
from observability.logs import log_reconnects_as_warnings
from offline_discord.fake_discord import RateLimits
from offline_discord.harness import CHANNEL_ID, GUILD_ID, FakeDiscord, FakeGateway, Harness, make_settings, start_bot
from tests.cogs.test_mfd import HEROES, VILLAINS
from tests.conftest import fresh_postgres_database

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


@pytest.fixture
async def observed(database_path):
    """The harness's bot with METRICS_PORT=0: its server on a free loopback port."""
    fake, settings = FakeDiscord(), make_settings(database_path, metrics_port=0)
    h = Harness(await start_bot(settings, fake), fake, settings)
    yield h
    await h.bot.close()


def port_of(h: Harness) -> int:
    server = h.bot.observer.server
    assert server is not None and server.port is not None
    return server.port


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


async def scrape(port: int) -> Samples:
    """Every sample /metrics shows, read by prometheus-client's own parser."""
    status, text = await get(port, "/metrics")
    assert status == 200
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, metric: str, /, **labels: str) -> float:
    return samples.get((metric, frozenset(labels.items())), 0.0)


async def test_the_counts_and_histograms_move_as_commands_and_clicks_are_answered(observed, monkeypatch):
    h = observed
    port = port_of(h)
    before = await scrape(port)

    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    assert await h.click(fight, "Attack Wolf", h.alice) == []
    (refusal,) = await h.click(fight, "Attack Wolf", h.bob)  # a user's mistake, answered privately
    assert refusal.ephemeral and refusal.content.startswith("❌ This is")

    def broken_engine(*args: object) -> None:
        raise RuntimeError("the engine broke")

    monkeypatch.setattr("cogs.andor.fight.applied", broken_engine)  # the fight's moves
    (failure,) = await h.click(fight, "Attack Wolf", h.alice)
    assert failure.content.startswith("⚠️ Something went wrong on our side (error id `")

    after = await scrape(port)

    def moved(metric: str, /, **labels: str) -> float:
        return value(after, metric, **labels) - value(before, metric, **labels)

    counted = "arena_interactions_total"
    assert moved(counted, game="andor", kind="command", name="andor fight", outcome="answered") == 1
    assert moved(counted, game="andor", kind="component", name="attack", outcome="answered") == 1
    assert moved(counted, game="andor", kind="component", name="attack", outcome="refused") == 1
    assert moved(counted, game="andor", kind="component", name="attack", outcome="error") == 1
    # Every one of them timed, to its first response and to its final answer, on the guild's shard (0 of 1).
    for histogram in ("arena_interaction_first_response_seconds", "arena_interaction_final_answer_seconds"):
        assert moved(f"{histogram}_count", shard="0", game="andor", kind="command") == 1
        assert moved(f"{histogram}_count", shard="0", game="andor", kind="component") == 3
        assert moved(f"{histogram}_bucket", shard="0", game="andor", kind="component", le="+Inf") == 3
        assert moved(f"{histogram}_sum", shard="0", game="andor", kind="component") > 0
    # The two presses that reached the engine ran in the quick pool, the broken one too; none is left.
    assert moved("arena_engine_job_seconds_count", pool="engine") == 2
    assert value(after, "arena_engine_jobs_running", pool="engine") == 0
    assert value(after, "arena_engine_jobs_queued", pool="engine") == 0
    # The fight's writes: a transaction for the new fight and one for the move, on SQLite, none failed.
    assert moved("arena_database_seconds_count", backend="sqlite", operation="transaction") >= 2
    assert value(after, "arena_database_errors_total", backend="sqlite", operation="transaction") == 0
    assert value(after, "arena_deck_jobs_running") == 0
    # Label values are bounded: no member, guild or channel id anywhere.
    ids = {str(h.alice.id), str(h.bob.id), str(GUILD_ID)}
    assert not [labels for _, labels in after for _, label in labels if label in ids]


class Clock:
    """Health's clock, moved by the test: the real monotonic time when made, then only forward when told."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def __call__(self) -> float:
        return self.now


async def test_readyz_wants_every_shard_connected_and_healthz_waits_the_grace(observed):
    h = observed
    port = port_of(h)
    h.bot.observer.health.clock = clock = Clock()
    not_connected = (503, "shard 0 is not connected to Discord\n")
    assert await get(port, "/readyz") == not_connected  # never connected
    assert await get(port, "/healthz") == (200, "ok\n")  # starting: within HEALTH_GRACE_SECONDS (60 s)
    clock.now += 61
    status, reason = await get(port, "/healthz")
    assert status == 503 and re.fullmatch(
        r"shard 0 is not connected to Discord, for 6\d s \(HEALTH_GRACE_SECONDS: 60\)\n", reason
    )
    h.bot.ws = FakeGateway(latency=0.042)  # pyright: ignore[reportAttributeAccessIssue]  # Discord's connection
    h.add_role(555, "raid leader")  # the guild reaches the bot's cache, as the gateway would bring it
    assert await get(port, "/healthz") == await get(port, "/readyz") == (200, "ok\n")
    samples = await scrape(port)
    assert value(samples, "arena_gateway_connected", shard="0") == 1
    assert value(samples, "arena_gateway_latency_seconds", shard="0") == 0.042
    assert value(samples, "arena_guilds", shard="0") == 1


async def test_with_no_grace_healthz_fails_as_soon_as_a_shard_is_down(database_path):
    fake, settings = FakeDiscord(), make_settings(database_path, metrics_port=0, health_grace_seconds=0)
    h = Harness(await start_bot(settings, fake), fake, settings)
    try:
        status, reason = await get(port_of(h), "/healthz")
        assert status == 503 and reason.startswith("shard 0 is not connected to Discord, for 0 s"), reason
    finally:
        await h.bot.close()


class DroppingGateway(FakeGateway):
    """A gateway connection that drops as a reset connection does; with what discord.py resumes from."""

    sequence, gateway, session_id, shard_id = 41, URL("wss://gateway.discord.gg"), "session", None

    async def poll_event(self) -> None:
        self.open = False
        raise ConnectionResetError(104, "Connection reset by peer")  # not one discord.py resumes at once on Linux


class NoBackoff:
    def delay(self) -> float:
        return 0.0


class Stop(Exception):
    """Ends discord.py's reconnect loop where the test has seen what it wanted."""


async def test_a_dropped_connection_is_one_warning_and_healthz_stays_200_through_the_reconnect(
    observed, monkeypatch, caplog
):
    h = observed
    port = port_of(h)
    h.bot.observer.health.clock = clock = Clock()
    monkeypatch.setattr(discord.client, "ExponentialBackoff", NoBackoff)
    seen: dict[str, tuple[int, str]] = {}

    async def from_client(client: object, **params: object) -> DroppingGateway:
        if params["initial"]:
            return DroppingGateway()
        # Reconnecting, with discord.py's session to resume: alive, not ready; past the grace, not alive.
        assert params["resume"] and params["session"] == "session" and params["sequence"] == 41
        seen["healthz"], seen["readyz"] = await get(port, "/healthz"), await get(port, "/readyz")
        clock.now += 61
        seen["healthz later"] = await get(port, "/healthz")
        raise Stop

    monkeypatch.setattr(DiscordWebSocket, "from_client", staticmethod(from_client))
    h.bot.ws = FakeGateway()  # pyright: ignore[reportAttributeAccessIssue]  # connected for an hour
    assert await get(port, "/healthz") == (200, "ok\n")
    clock.now += 3600  # the grace runs from the drop, not from the start
    caplog.set_level(logging.INFO)
    with pytest.raises(Stop):
        await h.bot.connect(reconnect=True)

    assert seen["healthz"] == (200, "ok\n")
    assert seen["readyz"] == (503, "shard 0 is not connected to Discord\n")
    assert seen["healthz later"][0] == 503
    (line,) = [r for r in caplog.records if r.levelno >= logging.WARNING]  # one line, and no ERROR
    assert (line.name, line.levelname, line.exc_info) == ("discord.client", "WARNING", None)
    assert line.getMessage() == (
        "Attempting a reconnect in 0.00s (the gateway connection failed: ConnectionResetError: [Errno 104] "
        "Connection reset by peer)"
    )
    await h.settle()
    assert value(await scrape(port), "arena_gateway_disconnects_total", shard="0") == 1


async def test_a_shard_that_drops_is_one_warning_too(database_path, monkeypatch, caplog):
    fake, settings = FakeDiscord(), make_settings(database_path, shard_count=2)
    h = Harness(await start_bot(settings, fake), fake, settings)
    try:
        monkeypatch.setattr(discord.shard, "ExponentialBackoff", NoBackoff)
        gateway = DroppingGateway()
        gateway.shard_id = 1  # pyright: ignore[reportAttributeAccessIssue]
        h.bot._reconnect = True  # pyright: ignore[reportAttributeAccessIssue]  # what AutoShardedClient.connect sets
        queued: list[EventItem] = []
        shard = Shard(gateway, h.bot, queued.append)  # pyright: ignore[reportArgumentType]
        caplog.set_level(logging.INFO)
        await shard._handle_disconnect(ConnectionResetError(104, "Connection reset by peer"))
        (line,) = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert (line.name, line.levelname, line.exc_info) == ("discord.shard", "WARNING", None)
        assert line.getMessage() == (
            "Attempting a reconnect for shard ID 1 in 0.00s (the gateway connection failed: ConnectionResetError: "
            "[Errno 104] Connection reset by peer)"
        )
        assert [item.shard for item in queued] == [shard]  # and discord.py reconnects it
    finally:
        await h.bot.close()


def test_an_error_that_is_no_reconnect_keeps_its_level_and_traceback(caplog):
    log_reconnects_as_warnings()
    try:
        raise ConnectionResetError(104, "Connection reset by peer")
    except ConnectionResetError:
        logging.getLogger("discord.client").exception("Ignoring exception in %s", "on_message")
    (line,) = caplog.records
    assert line.levelname == "ERROR" and line.exc_info is not None


async def test_readyz_turns_503_while_the_database_is_down_healthz_after_the_grace(tmp_path):
    try:
        server = PostgresServer.start()  # its own: this test stops it
    except PostgresMissing as missing:
        pytest.skip(str(missing))
    try:
        url = await fresh_postgres_database(server)
        settings = make_settings(tmp_path / "unused.sqlite3", database_url=url, metrics_port=0)
        h = Harness(await start_bot(settings, FakeDiscord()), FakeDiscord(), settings)
        h.bot.ws = FakeGateway()  # pyright: ignore[reportAttributeAccessIssue]
        port = port_of(h)
        h.bot.observer.health.clock = clock = Clock()
        try:
            assert await get(port, "/healthz") == await get(port, "/readyz") == (200, "ok\n")
            server.pause()
            status, reason = await get(port, "/readyz")
            assert status == 503 and reason.startswith("the database did not answer: "), reason
            assert await get(port, "/healthz") == (200, "ok\n")  # a restart of PostgreSQL heals by itself
            clock.now += 61
            status, reason = await get(port, "/healthz")
            assert status == 503 and reason.startswith("the database did not answer: "), reason
            server.resume()
            assert await get(port, "/healthz") == await get(port, "/readyz") == (200, "ok\n")
            samples = await scrape(port)
            assert value(samples, "arena_database_seconds_count", backend="postgresql", operation="transaction") == 0
        finally:
            await h.bot.close()
    finally:
        server.stop()


def listening_sockets() -> set[str]:
    """The inodes of this process's TCP sockets that listen (Linux's /proc)."""
    mine: set[str] = set()
    for fd in os.listdir("/proc/self/fd"):
        with suppress(OSError):  # closed meanwhile
            link = os.readlink(f"/proc/self/fd/{fd}")
            if link.startswith("socket:["):
                mine.add(link[len("socket:[") : -1])
    listening: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[3] == "0A" and fields[9] in mine:  # 0A: LISTEN
                    listening.add(fields[9])
    return listening


async def test_with_metrics_port_unset_nothing_listens(database_path):
    fake = FakeDiscord()
    await fake.start()  # the fake Discord's own loopback port is not the bot's
    before = listening_sockets()
    bot = await start_bot(make_settings(database_path), fake)
    try:
        assert listening_sockets() == before and bot.observer.server is None
    finally:
        await bot.close()
    # The same look sees the one listener METRICS_PORT opens, and it is gone once the bot has closed.
    bot = await start_bot(make_settings(database_path, metrics_port=0), fake)
    try:
        assert len(listening_sockets() - before) == 1
    finally:
        await bot.close()
    assert listening_sockets() == before


async def test_a_metrics_port_already_taken_stops_the_start_with_one_sentence(database_path):
    from arena.bot import create_bot

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = create_bot(make_settings(database_path, metrics_port=port))
        with pytest.raises(MetricsUnavailable, match=f"^METRICS_PORT {port} on 127.0.0.1 cannot be listened on"):
            await bot.observer.start()


async def test_json_log_lines_parse_and_carry_the_interaction_and_the_error_id(observed, monkeypatch):
    h = observed
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLogFormatter())
    logger = logging.getLogger("arena")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
        battle_id = h.last_token.removeprefix("token-")
        (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)

        def broken_engine(*args: object) -> None:
            raise RuntimeError("the engine broke")

        monkeypatch.setattr("cogs.andor.fight.applied", broken_engine)  # the fight's moves
        (failure,) = await h.click(fight, "Attack Wolf", h.alice)
        click_id = h.last_token.removeprefix("token-")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]  # every line is one JSON object

    # The battle's log line, written while its command ran, names the interaction and the command.
    (battle,) = [line for line in lines if line["logger"] == "arena.mfd" and line["message"].startswith("battle ")]
    assert (battle["interaction_id"], battle["command"], battle["level"]) == (battle_id, "mfd battle", "INFO")
    # The error's line carries the id the user was shown, the click's interaction and the traceback.
    error_id = failure.content.split("`")[1]
    (error,) = [line for line in lines if line.get("error_id") == error_id]
    assert (error["interaction_id"], error["command"], error["level"]) == (click_id, "attack", "ERROR")
    assert "RuntimeError: the engine broke" in error["exception"]
    assert error["time"].endswith("+00:00")


async def test_process_figures_and_the_build_are_scraped(observed):
    samples = await scrape(port_of(observed))
    assert value(samples, "process_resident_memory_bytes") > 10_000_000  # a Python with discord.py loaded
    assert value(samples, "process_open_fds") > 0
    assert value(samples, "process_cpu_seconds_total") > 0
    (build,) = [dict(labels) for name, labels in samples if name == "arena_build_info"]
    assert build["discord_py"] == discord.__version__ and build["version"] == "0.1.0"
    assert len(build["commit"]) == 12 and build == build_labels()  # this checkout's commit, from git


async def test_discord_answers_are_counted_by_route_kind_and_status(observed):
    h = observed
    port = port_of(h)
    before = await scrape(port)
    await h.run("andor fight", h.alice, monster="Wolf", seed=1)  # an interaction callback, answered
    h.fake.rate_limits = RateLimits(limit=0, per=0.01)  # every channel and webhook request refused with a 429
    with pytest.raises(discord.HTTPException):  # discord.py waits and retries, then gives up
        await h.bot.http.send_message(CHANNEL_ID, params=handle_message_parameters(content="hello"))
    h.fake.rate_limits = RateLimits()
    after = await scrape(port)

    def moved(**labels: str) -> float:
        metric = "arena_discord_requests_total"
        return value(after, metric, **labels) - value(before, metric, **labels)

    assert moved(route="interaction-callback", status="2xx") == 1
    assert moved(route="channel-message", status="429") == 5  # discord.py's five tries
    assert moved(route="channel-message", status="2xx") == 0


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("https://discord.com/api/v10/interactions/1/tok/callback?with_response=1", "interaction-callback"),
        ("https://discord.com/api/v10/webhooks/1/tok/messages/@original", "webhook"),
        ("https://discord.com/api/v10/channels/1/messages/2", "channel-message"),
        ("https://discord.com/api/v10/applications/1/guilds/2/commands", "commands"),
        ("https://discord.com/api/v10/gateway/bot", "gateway"),
        ("wss://gateway.discord.gg/?v=10&encoding=json", "gateway"),
        ("https://discord.com/api/v10/users/@me", "other"),
        ("https://cdn.discordapp.com/attachments/1/2/deck.csv", "cdn"),
    ],
)
def test_a_route_kind_names_what_the_request_is_and_no_id(url: str, kind: str):
    assert route_kind(URL(url)) == kind


def test_statuses_an_operator_acts_on_are_their_own_label_the_rest_by_class():
    assert [status_label(s) for s in (200, 204, 401, 403, 404, 429, 400, 500, 502)] == [
        "2xx", "2xx", "401", "403", "404", "429", "4xx", "5xx", "5xx"
    ]  # fmt: skip


async def test_gateway_disconnects_sessions_and_resumes_are_counted_per_shard(observed):
    h = observed
    port = port_of(h)
    before = await scrape(port)
    assert value(before, "arena_gateway_disconnects_total", shard="0") == 0  # there before the first
    for event in ("connect", "disconnect", "resumed", "disconnect", "connect"):
        h.bot.dispatch(event)  # as discord.py's gateway does: READY, a dropped connection, RESUMED
    await h.settle()
    after = await scrape(port)
    assert value(after, "arena_gateway_disconnects_total", shard="0") == 2
    assert value(after, "arena_gateway_sessions_total", shard="0") == 2
    assert value(after, "arena_gateway_resumes_total", shard="0") == 1


async def test_a_sharded_bot_counts_each_shards_events_under_its_own_id(database_path):
    fake, settings = FakeDiscord(), make_settings(database_path, metrics_port=0, shard_count=4, shard_ids="2,3")
    h = Harness(await start_bot(settings, fake), fake, settings)
    try:
        h.bot.dispatch("disconnect")  # a sharded bot's plain event names no shard: counted by the shard's own
        h.bot.dispatch("shard_disconnect", 3)
        h.bot.dispatch("shard_resumed", 3)
        await h.settle()
        samples = await scrape(port_of(h))
        assert value(samples, "arena_gateway_disconnects_total", shard="3") == 1
        assert value(samples, "arena_gateway_resumes_total", shard="3") == 1
        assert value(samples, "arena_gateway_disconnects_total", shard="2") == 0
        assert ("arena_gateway_disconnects_total", frozenset({("shard", "0")})) not in samples  # not served here
    finally:
        await h.bot.close()
