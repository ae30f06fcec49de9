"""The pages in Chromium: each loads with no console error and no serious or critical axe-core violation, fits a
375 px phone, and is photographed for the README; a replay steps by clicks and keys; a running tournament's page
follows a stored result; hostile names show as typed and run nothing; hidden and erased members are nowhere."""

from __future__ import annotations

import time

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from storage.lifecycle import LifecycleRepository
from storage.member_data import MemberDataRepository
from storage.web_pages import WebPagesRepository
from tests.web.builders import (
    GUILD,
    HOSTILE_NAMES,
    OTHER_GUILD,
    finish,
    pages_on,
    played_match,
    running_tournament,
    stored_name,
    world_boss,
)

NOW = 1_780_000_000.0
ALICE, BOB, CAROL, DAVE = (1001, "Alice"), (1002, "Bob"), (1003, "Carol"), (1004, "Dave")
SERVER = f"/servers/{GUILD}"


async def a_server(db) -> None:
    """The Pit: Alice, Bob and Carol with rated matches between them, and a running tournament of four."""
    await pages_on(db)
    await LifecycleRepository(db).guild_here(GUILD, "The Pit")
    for seed, pair in enumerate(((ALICE, BOB), (BOB, CAROL), (ALICE, CAROL), (CAROL, ALICE), (ALICE, BOB)), start=1):
        await played_match(db, pair, seed, NOW + seed * 60)


async def page_is_sound(browser, path: str, screenshot: str) -> None:
    await browser.open(path)
    assert await browser.console_errors() == []
    assert await browser.serious_accessibility_violations() == []
    await browser.screenshot(screenshot)
    await browser.call(browser.driver.set_window_size, 375, 800)
    assert await browser.script("return document.documentElement.scrollWidth") <= 375  # no sideways scrolling
    await browser.call(browser.driver.set_window_size, 1000, 1200)


async def test_every_page_loads_clean_accessible_and_fits_a_phone(browser):
    db = browser.served.db
    await a_server(db)
    _, boards = await running_tournament(db, [ALICE, BOB, CAROL, DAVE], NOW + 600)
    await finish(db, boards[0], NOW + 700)
    await page_is_sound(browser, SERVER, "server")
    assert "Alice" in await browser.text("table.leaderboard")
    await page_is_sound(browser, f"{SERVER}/members/1001", "member")
    # The chart's points carry what a hover shows: the match, the opponent, the result and the change.
    titles = await browser.script("return [...document.querySelectorAll('svg circle title')].map(t => t.textContent)")
    assert len(titles) == 5  # four matches, and her first tournament board
    assert titles[0] == "Match #1 against Bob: win, +75 to 1575"
    await page_is_sound(browser, f"{SERVER}/matches/1?step=3", "replay")
    await page_is_sound(browser, f"{SERVER}/tournaments/1", "tournament")
    assert "Crosstable" in await browser.text()
    # The reader's dark setting is followed.
    await browser.call(
        browser.driver.execute_cdp_cmd,
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": "dark"}]},
    )
    await browser.open(f"{SERVER}/matches/1?step=3")
    assert await browser.script("return getComputedStyle(document.body).backgroundColor") == "rgb(13, 17, 23)"
    await browser.screenshot("replay-dark")


async def test_the_world_boss_page_loads_clean_accessible_and_fits_a_phone(browser):
    db = browser.served.db
    await a_server(db)
    attacks = [(GUILD, ALICE[0], 1250.5), (OTHER_GUILD, 2001, 900.0), (GUILD, BOB[0], 400.0), (OTHER_GUILD, 2002, 75.0)]
    await world_boss(db, 5000.0, attacks, time.time(), ends_in=2 * 86400)  # live: two days left
    await page_is_sound(browser, "/world-boss", "world-boss")
    assert await browser.text("table.world-board tbody") == "1 The Pit 1650.5 2\n2 a server 975 2"
    assert "Time left: 47 h 59 min" in await browser.text()
    assert "Alice" not in await browser.text()
    await browser.open(SERVER)  # its place on the world's board, linking to the page
    assert "this server is 1 of 2 on the world's board" in await browser.text()
    assert await browser.console_errors() == []
    assert await browser.serious_accessibility_violations() == []


async def test_a_replay_steps_by_clicks_and_by_arrow_keys(browser):
    db = browser.served.db
    await a_server(db)
    await browser.open(f"{SERVER}/matches/1")
    last = int(await browser.script("return document.getElementById('replay').dataset.last"))
    await browser.script("window.stayed = true")  # gone if a step reloaded the page

    def step(driver):
        return int(driver.execute_script("return document.getElementById('replay').dataset.step"))

    async def now_at(number: int) -> None:
        await browser.wait_for(lambda driver: step(driver) == number)
        assert browser.driver.current_url.endswith(f"?step={number}")

    await browser.call(lambda: browser.driver.find_element(By.LINK_TEXT, "Forward ▶").click())
    await now_at(1)
    await browser.call(lambda: browser.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT))
    await now_at(2)
    await browser.call(lambda: browser.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT))
    await now_at(1)
    await browser.call(lambda: browser.driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END))
    await now_at(last)
    assert "won" in await browser.text()
    await browser.call(lambda: browser.driver.find_element(By.LINK_TEXT, "« Start").click())
    await now_at(0)
    assert await browser.script("return window.stayed === true")
    # Each turn has a link of its own, which works without the script too.
    await browser.call(lambda: browser.driver.find_element(By.CSS_SELECTOR, "nav.turns a[href='?turn=3']").click())
    await browser.wait_for(
        lambda driver: "turn 3" in driver.execute_script("return document.getElementById('step-title').innerText")
    )
    assert await browser.console_errors() == []


async def test_a_running_tournament_page_follows_a_stored_result(browser):
    db = browser.served.db
    await pages_on(db)
    _, boards = await running_tournament(db, [ALICE, BOB, CAROL, DAVE], NOW)
    await browser.open(f"{SERVER}/tournaments/1")
    assert "Board 1: Alice – Carol: playing" in await browser.text()
    shown = "return document.getElementById('tournament').innerText"
    before = await browser.script(shown)
    stored_at = time.monotonic()
    await finish(db, boards[0], NOW + 60)
    changed = await browser.wait_for(lambda driver: driver.execute_script(shown) != before, 5)
    assert changed and time.monotonic() - stored_at < 5
    assert "Board 2: Dave – Bob: playing" in await browser.text("#tournament")  # board 2 still is
    assert await browser.script("return document.querySelectorAll('#tournament a[href*=\"/matches/\"]').length") >= 1
    assert await browser.console_errors() == []


async def test_hostile_names_show_as_typed_and_run_nothing(browser):
    db = browser.served.db
    await pages_on(db)
    server_name = '"><img src=x onerror=alert(3)> مجلس'  # a server's name is its owner's, and as hostile
    await LifecycleRepository(db).guild_here(GUILD, server_name)
    hostile = [(2001 + number, name) for number, name in enumerate(HOSTILE_NAMES)]
    for seed, (first, second) in enumerate(zip(hostile, hostile[1:] + hostile[:1], strict=True), start=1):
        await played_match(db, (first, second), seed, NOW + seed)
    names = [name for _, name in hostile]
    expected = {  # each member played the next one and the one before (the last one and the first)
        SERVER: names,
        f"{SERVER}/members/2001": [names[0], names[1], names[4]],
        f"{SERVER}/matches/1": names[:2],
        f"{SERVER}/members/2005": [names[4], names[3], names[0]],
    }
    for path, shown_names in expected.items():
        await browser.open(path)
        shown = await browser.text()
        for name in shown_names:
            # as the bot stored it: a display name is clipped to 40 characters (the 100 W's to 39 and an ellipsis)
            typed = name if len(name) <= 40 else name[:39] + "…"
            assert typed in shown, (path, typed)
        try:
            alert = browser.driver.switch_to.alert
            raise AssertionError(f"a name ran a script: {alert.text}")
        except NoAlertPresentException:
            pass
        assert await browser.script("return document.querySelectorAll('img, main script').length") == 0
        assert await browser.console_errors() == []
        assert await browser.text("header") == "⚔️ Arena" + ("" if path == SERVER else f"\n{server_name}")  # crumbs
    await browser.open(SERVER)
    assert await browser.script("return document.title") == f"{server_name} · Leaderboard · Arena"
    assert await browser.text("h1") == f"{server_name} · MMA Warriors leaderboard"
    assert stored_name(HOSTILE_NAMES[0]) == HOSTILE_NAMES[0]
    await browser.screenshot("hostile-names")


async def test_pages_off_hidden_and_erased_members_are_nowhere(browser):
    db = browser.served.db
    await a_server(db)
    hidden = WebPagesRepository(db)
    await hidden.set_hidden(GUILD, BOB[0], True)
    await browser.open(f"{SERVER}/members/{BOB[0]}")
    assert await browser.call(lambda: browser.driver.title) == "Not found · Arena"
    for path in (SERVER, f"{SERVER}/members/1001", f"{SERVER}/matches/1"):
        await browser.open(path)
        assert "Bob" not in await browser.text()
        # gone from the leaderboard; where he played someone else, he is named as no one
        assert ("a hidden member" in await browser.text()) is (path != SERVER)
    # Carol erases her data (/arena forget-me): her pages are gone, her name too; her opponents keep the matches.
    members = MemberDataRepository(db)
    await members.forget(GUILD, CAROL[0], (await members.export(GUILD, CAROL[0])).fingerprint)
    await browser.open(f"{SERVER}/members/{CAROL[0]}")
    assert await browser.call(lambda: browser.driver.title) == "Not found · Arena"
    for path in (SERVER, f"{SERVER}/members/1001", f"{SERVER}/matches/3"):
        await browser.open(path)
        assert "Carol" not in await browser.text()
    assert "a former member" in await browser.text()
    # Pages off: the server is a 404, as a server Arena never saw.
    await hidden.settings.set_web_pages(GUILD, False)
    await browser.open(SERVER)
    assert await browser.call(lambda: browser.driver.title) == "Not found · Arena"
