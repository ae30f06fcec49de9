"""The web pages' tests: the app served on a loopback port over a real SQLite file, and Debian's Chromium
(`apt-get install chromium chromium-driver`) driven through Selenium. Where Chromium is not installed the browser
tests skip and say how to install it; with ARENA_REQUIRE_BROWSER=1 (.ci/run sets it) they fail instead."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from storage.sqlite import Database
from web.server import WebServer

REQUIRE_BROWSER = "ARENA_REQUIRE_BROWSER"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
T = TypeVar("T")


@dataclass
class Served:
    db: Database
    base: str

    def url(self, path: str) -> str:
        return self.base + path


@pytest.fixture
async def served(tmp_path):
    """A migrated database and the pages over it, on a free loopback port (no rate limit to speak of)."""
    db = await Database.open(tmp_path / "arena.sqlite3")
    server = WebServer(db, "127.0.0.1", 0, per_second=10_000, burst=10_000)
    await server.start()
    yield Served(db, f"http://127.0.0.1:{server.port}")
    await server.close()
    await db.close()


@pytest.fixture(scope="session")
def chromium():
    binary, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if binary is None or driver_path is None:
        missing = "Chromium and its driver are not installed: apt-get install chromium chromium-driver"
        if os.environ.get(REQUIRE_BROWSER) == "1":
            pytest.fail(f"{missing} ({REQUIRE_BROWSER}=1: the browser tests must run here)", pytrace=False)
        pytest.skip(missing)
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1000,1200"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=webdriver.ChromeService(driver_path), options=options)
    yield driver
    driver.quit()


class Browser:
    """Chromium, driven from a test's event loop: every Selenium call runs in a thread, so the pages' server on
    the same loop keeps answering."""

    def __init__(self, driver: Any, served: Served):
        self.driver = driver
        self.served = served

    async def call(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(work, *args)

    async def open(self, path: str) -> None:
        await self.call(self.driver.get, self.served.url(path))

    async def console_errors(self) -> list[str]:
        entries = await self.call(self.driver.get_log, "browser")
        return [entry["message"] for entry in entries if entry["level"] == "SEVERE"]

    async def script(self, source: str, *args: Any) -> Any:
        return await self.call(self.driver.execute_script, source, *args)

    async def text(self, css: str = "main") -> str:
        from selenium.webdriver.common.by import By

        return await self.call(lambda: self.driver.find_element(By.CSS_SELECTOR, css).text)

    async def wait_for(self, condition: Callable[[Any], Any], seconds: float = 5) -> Any:
        from selenium.webdriver.support.wait import WebDriverWait

        return await self.call(lambda: WebDriverWait(self.driver, seconds, poll_frequency=0.1).until(condition))

    async def serious_accessibility_violations(self) -> list[str]:
        from axe_selenium_python import Axe

        axe = Axe(self.driver)
        await self.call(axe.inject)
        results = await self.call(axe.run)
        return [
            f"{v['id']} ({v['impact']}): {v['help']} at {[node['target'] for node in v['nodes']]}"
            for v in results["violations"]
            if v["impact"] in ("serious", "critical")
        ]

    async def screenshot(self, name: str) -> None:
        """The whole page, as wide as the window, into docs/screenshots/ (the README shows them)."""
        import base64

        size = await self.script("return [document.documentElement.clientWidth, document.documentElement.scrollHeight]")
        shot = await self.call(
            self.driver.execute_cdp_cmd,
            "Page.captureScreenshot",
            {
                "captureBeyondViewport": True,
                "clip": {"x": 0, "y": 0, "width": size[0], "height": min(size[1], 2400), "scale": 1},
            },
        )
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS / f"{name}.png").write_bytes(base64.b64decode(shot["data"]))


@pytest.fixture
async def browser(chromium, served):
    chromium.get_log("browser")  # what an earlier test left
    yield Browser(chromium, served)
    await asyncio.to_thread(chromium.execute_cdp_cmd, "Emulation.setEmulatedMedia", {"features": []})
