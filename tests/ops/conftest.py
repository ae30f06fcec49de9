"""What the deployment tests need: Prometheus's promtool (Debian's `prometheus` package ships it)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
# Set to 1 where the promtool tests must run (`.ci/run` sets it): there a missing promtool fails them.
REQUIRE_PROMTOOL = "ARENA_REQUIRE_PROMTOOL"
INSTALL_HINT = "promtool is not installed (Debian, Ubuntu: apt-get install prometheus)"


@pytest.fixture(scope="session")
def promtool() -> str:
    """promtool's path; a developer's machine without it skips, CI fails."""
    found = shutil.which("promtool")
    if found is None:
        if os.environ.get(REQUIRE_PROMTOOL) == "1":
            pytest.fail(f"{INSTALL_HINT} ({REQUIRE_PROMTOOL}=1: the promtool tests must run here)", pytrace=False)
        pytest.skip(INSTALL_HINT)
    return found
