"""What is running: Arena's version and commit and the versions of the libraries that talk to Discord, for
`arena_build_info` (which build a graph's change of behaviour began with)."""

from __future__ import annotations

import functools
import subprocess
import tomllib
from importlib.metadata import version
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
UNKNOWN = "unknown"


@functools.cache
def build_labels() -> dict[str, str]:
    """Read once per process: the build does not change while it runs."""
    with (PROJECT / "pyproject.toml").open("rb") as file:
        arena = str(tomllib.load(file)["project"]["version"])
    return {
        "version": arena,
        "commit": commit(),
        "discord_py": version("discord.py"),
        "aiohttp": version("aiohttp"),
        "prometheus_client": version("prometheus-client"),
    }


def commit() -> str:
    """The checked-out commit, abbreviated; `unknown` where the bot runs from a copy without git."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=PROJECT, capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.TimeoutExpired):
        return UNKNOWN
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else UNKNOWN
