"""deploy/systemd: the units pass `systemd-analyze verify`, and the health timer's check, run as systemd runs it
against a real bot's /healthz, restarts the bot on a 503 and only then."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from offline_discord.harness import FakeDiscord, FakeGateway, Harness, make_settings, start_bot
from tests.cogs.test_observability import port_of
from tests.ops.conftest import DEPLOY

SYSTEMD = DEPLOY / "systemd"
UNITS = ("arena.service", "arena-health.service", "arena-health.timer")
PROJECT = DEPLOY.parent
INSTALLED_AT = "/opt/arena"
EXAMPLE_PORT = "9108"


def test_the_units_pass_systemd_analyze_verify(tmp_path: Path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (Debian, Ubuntu: apt-get install systemd)")
    # As installed, with this checkout standing for /opt/arena: verify checks that ExecStart's program exists.
    for unit in UNITS:
        (tmp_path / unit).write_text((SYSTEMD / unit).read_text().replace(INSTALLED_AT, str(PROJECT)))
    done = subprocess.run(
        [analyze, "verify", *(f"./{unit}" for unit in UNITS)], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def health_check_command() -> str:
    """The shell command of arena-health.service, as systemd hands it to sh ($$ is one $)."""
    (line,) = [
        line for line in (SYSTEMD / "arena-health.service").read_text().splitlines() if line.startswith("ExecStart=")
    ]
    command = line.removeprefix("ExecStart=/bin/sh -c ")
    assert command[0] == command[-1] == "'"
    return command[1:-1].replace("$$", "$")


async def run_check(port: int, tmp_path: Path) -> tuple[str, str]:
    """(its output, what it asked systemctl): systemctl is a stand-in that writes down its arguments."""
    calls = tmp_path / "systemctl-calls"
    calls.unlink(missing_ok=True)
    systemctl = tmp_path / "systemctl"
    systemctl.write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')
    systemctl.chmod(0o755)
    command = health_check_command().replace(EXAMPLE_PORT, str(port))
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    process = await asyncio.create_subprocess_exec(
        "/bin/sh", "-c", command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    output, _ = await process.communicate()
    assert process.returncode == 0
    return output.decode(), calls.read_text() if calls.exists() else ""


async def test_the_health_timer_restarts_the_bot_on_a_503_and_only_then(tmp_path: Path):
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    fake = FakeDiscord()
    settings = make_settings(tmp_path / "arena.sqlite3", metrics_port=0, health_grace_seconds=0)
    h = Harness(await start_bot(settings, fake), fake, settings)
    try:
        port = port_of(h)
        output, restarts = await run_check(port, tmp_path)  # never connected, no grace: 503
        assert restarts == "restart arena.service\n"
        assert output.splitlines() == [  # curl's line, then /healthz's reasons: the journal says why
            "curl: (22) The requested URL returned error: 503",
            "arena: /healthz said: shard 0 is not connected to Discord, for 0 s (HEALTH_GRACE_SECONDS: 0); restarting",
        ]
        h.bot.ws = FakeGateway()  # pyright: ignore[reportAttributeAccessIssue]
        assert await run_check(port, tmp_path) == ("", "")  # healthy: quiet, and no restart
    finally:
        await h.bot.close()
