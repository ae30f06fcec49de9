"""The pieces of deploy/ run together: the bot on PostgreSQL serving METRICS_PORT, and a real Prometheus
(Debian's `prometheus`, the package promtool comes from) started with deploy/prometheus/prometheus.yml, which
scrapes it and loads every alert rule."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
from pathlib import Path

import aiohttp
import pytest

from offline_discord.harness import FakeDiscord, FakeGateway, Harness, make_settings, start_bot
from tests.cogs.test_observability import port_of
from tests.conftest import fresh_postgres_database
from tests.ops.test_alerts import PROMETHEUS

PATIENCE = 30.0  # seconds for Prometheus to start and scrape, on a busy machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def query(session: aiohttp.ClientSession, base: str, path: str) -> list[dict]:
    async with session.get(f"{base}{path}") as response:
        return (await response.json())["data"]["result" if "query" in path else "groups"]


async def test_prometheus_with_the_example_configuration_scrapes_the_bot_and_loads_the_alerts(
    promtool, postgres_server, tmp_path: Path
):
    prometheus = shutil.which("prometheus") or pytest.fail("promtool without prometheus: a broken install")
    url = await fresh_postgres_database(postgres_server)
    settings = make_settings(tmp_path / "unused.sqlite3", database_url=url, metrics_port=0)
    fake = FakeDiscord()
    h = Harness(await start_bot(settings, fake), fake, settings)
    h.bot.ws = FakeGateway()  # pyright: ignore[reportAttributeAccessIssue]
    await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    # The example as shipped, pointed at this bot's port and scraping every second instead of every 15.
    config = (PROMETHEUS / "prometheus.yml").read_text().replace("127.0.0.1:9108", f"127.0.0.1:{port_of(h)}")
    (tmp_path / "prometheus.yml").write_text(config.replace(": 15s", ": 1s"))
    shutil.copy(PROMETHEUS / "alerts.yml", tmp_path)
    web = f"127.0.0.1:{free_port()}"
    server = await asyncio.create_subprocess_exec(
        prometheus,
        f"--config.file={tmp_path}/prometheus.yml",
        f"--storage.tsdb.path={tmp_path}/data",
        f"--web.listen-address={web}",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        async with aiohttp.ClientSession() as session:
            base = f"http://{web}/api/v1"
            loop = asyncio.get_running_loop()
            deadline = loop.time() + PATIENCE
            while True:
                try:
                    up = await query(session, base, '/query?query=up{job="arena"}')
                except aiohttp.ClientError:
                    up = []  # not listening yet
                if up and up[0]["value"][1] == "1":
                    break
                assert loop.time() < deadline, f"Prometheus did not scrape the bot within {PATIENCE} s: {up}"
                await asyncio.sleep(0.5)
            answered = await query(session, base, "/query?query=sum by (game, outcome) (arena_interactions_total)")
            assert [(r["metric"], r["value"][1]) for r in answered] == [({"game": "andor", "outcome": "answered"}, "1")]
            stored = await query(session, base, '/query?query=arena_database_seconds_count{operation="transaction"}')
            assert {r["metric"]["backend"] for r in stored} == {"postgresql"}
            groups = await query(session, base, "/rules")
            rules = [(rule["name"], rule["health"]) for group in groups for rule in group["rules"]]
            assert len(rules) == 10 and all(health == "ok" for _, health in rules), rules
    finally:
        server.terminate()
        await asyncio.wait_for(server.wait(), 30)
        await h.bot.close()
