"""The two ways the pages are served: in the bot's process (WEB_PORT), and alone (`python -m web`)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sys
from pathlib import Path

import aiohttp
import pytest

from offline_discord.harness import GUILD_ID, FakeDiscord, Harness, make_settings, start_bot
from web.errors import WebUnavailable

ROOT = Path(__file__).resolve().parents[2]


async def status_of(url: str) -> int:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status


async def test_the_bot_serves_the_pages_its_game_master_turned_on(tmp_path):
    fake, settings = FakeDiscord(), make_settings(tmp_path / "arena.sqlite3", web_port=0)
    h = Harness(await start_bot(settings, fake), fake, settings)
    try:
        pages = h.bot._pages
        assert pages is not None and pages.port is not None
        page = f"http://127.0.0.1:{pages.port}/servers/{GUILD_ID}"
        assert await status_of(page) == 404
        await h.run("arena-settings", h.gm, web_pages=True)
        assert await status_of(page) == 200
    finally:
        await h.bot.close()
    with pytest.raises(aiohttp.ClientConnectionError):  # closed with the bot
        await status_of(page)


async def test_a_taken_web_port_is_said_in_one_sentence(tmp_path):
    from arena.bot import create_bot

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = create_bot(make_settings(tmp_path / "arena.sqlite3", web_port=port))
        await bot.open_storage()
        try:
            with pytest.raises(WebUnavailable, match=f"^WEB_PORT {port} on 127.0.0.1 cannot be listened on"):
                await bot.serve_pages()
        finally:
            await bot.close()


async def test_python_m_web_serves_alone_and_stops_on_sigterm(tmp_path):
    env = {**os.environ, "WEB_PORT": "0", "DATABASE_PATH": str(tmp_path / "arena.sqlite3"), "DISCORD_TOKEN": ""}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "web", cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)}, stderr=asyncio.subprocess.PIPE
    )
    assert process.stderr is not None
    try:
        line = ""
        while "web pages on" not in line:
            line = (await asyncio.wait_for(process.stderr.readline(), 20)).decode()
            assert line, "python -m web stopped before serving"
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found is not None
        assert await status_of(f"http://127.0.0.1:{found.group(1)}/servers/{GUILD_ID}") == 404
    finally:
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 20) == 0


async def test_python_m_web_without_a_port_says_what_to_set(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "WEB_PORT"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "web", cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)}, stderr=asyncio.subprocess.PIPE
    )
    _, err = await process.communicate()
    assert process.returncode == 1
    assert err.decode().strip() == "Set WEB_PORT (in .env or the environment) to the port the pages are served on."
