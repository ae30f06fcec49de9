"""Starting the bot: settings, and what a newcomer without a token is told."""

import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[1]


def run_bot(tmp_path, timeout: float = 60, preexec_fn=None, **env):
    clean = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID"}}
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=tmp_path,
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=preexec_fn,
    )


def test_without_a_token_it_explains_what_to_do_and_fails(tmp_path):
    result = run_bot(tmp_path)
    assert result.returncode != 0
    assert "Arena needs a Discord bot token to start, and DISCORD_TOKEN is not set." in result.stderr
    assert "Reset Token" in result.stderr and "DISCORD_TOKEN=<your token>" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_invalid_setting_is_named(tmp_path):
    result = run_bot(tmp_path, DISCORD_TOKEN="x", DEV_GUILD_ID="not-a-number")
    assert result.returncode != 0
    assert "A setting is not valid: DEV_GUILD_ID" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("settings", "sentence"),
    [
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS must be shard numbers from 0 to 1, separated by commas"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT, the number of shards of the whole bot"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "SHARD_IDS names a shard twice"),
        ({"DEV_GUILD_ID": "0"}, "DEV_GUILD_ID: Input should be greater than 0"),
    ],
)
def test_settings_that_do_not_fit_together_are_one_sentence(tmp_path, monkeypatch, settings, sentence):
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DATABASE_URL", "DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in {"DISCORD_TOKEN": "x", **settings}.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as ended:
        load_settings()
    assert str(ended.value).startswith(f"A setting is not valid: {sentence}")


async def test_a_dev_guild_discord_refuses_ends_the_start_with_what_to_do(tmp_path):
    from types import SimpleNamespace
    from typing import Any, cast

    import discord

    from arena.bot import CommandSyncRefused, create_bot
    from offline_discord.harness import make_settings

    bot = create_bot(make_settings(tmp_path / "arena.sqlite3", dev_guild_id=1347358084300800009))

    async def missing_access(**_: object) -> list[object]:  # the bot is not in that server
        response = cast(Any, SimpleNamespace(status=403, reason="Forbidden"))
        raise discord.Forbidden(response, {"code": 50001, "message": "Missing Access"})

    bot.tree.sync = missing_access  # pyright: ignore[reportAttributeAccessIssue]
    try:
        with pytest.raises(CommandSyncRefused) as refused:
            await bot.setup_hook()
    finally:
        await bot.close()
    assert str(refused.value) == (
        "Discord refused the commands for the server DEV_GUILD_ID names (1347358084300800009: Missing Access). "
        "Invite the bot to that server with the applications.commands scope (README.md has the link), or leave "
        "DEV_GUILD_ID empty"
    )


def test_a_database_path_under_home_is_read_as_a_shell_reads_it(tmp_path):
    from offline_discord.harness import make_settings

    assert make_settings(Path("~/arena/arena.sqlite3")).database_path == Path.home() / "arena" / "arena.sqlite3"


def test_a_token_of_spaces_is_no_token(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "   ")
    with pytest.raises(SystemExit) as ended:
        load_settings()
    assert str(ended.value).startswith("Arena needs a Discord bot token to start, and DISCORD_TOKEN is not set.")


def test_a_misspelt_setting_in_dotenv_is_named(tmp_path):
    from arena.settings import unknown_dotenv_names

    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\nDATABSE_URL=postgresql://db/arena\nlog_level=DEBUG\n")
    assert unknown_dotenv_names(tmp_path / ".env") == ["DATABSE_URL"]
    assert unknown_dotenv_names(tmp_path / "missing.env") == []


def test_settings_defaults_and_dotenv(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "GM_ROLE", "LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nDEV_GUILD_ID=\nGM_ROLE=Raid Leader\n")
    settings = Settings()  # pyright: ignore[reportCallIssue]  # the token comes from .env
    assert settings.discord_token.get_secret_value() == "abc"
    assert settings.database_path == Path("data/arena.sqlite3")
    assert settings.dev_guild_id is None
    assert settings.gm_role == "Raid Leader"
    assert settings.log_level == "INFO"


def test_env_example_documents_every_setting():
    text = (ROOT / ".env.example").read_text()
    for name in Settings.model_fields:
        assert f"{name.upper()}=" in text


def test_a_rejected_token_is_explained(monkeypatch, tmp_path, capsys):
    import discord
    import pytest

    from arena import lifecycle

    async def reject(self, token, *, reconnect=True):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "arena.sqlite3"))
    monkeypatch.setattr(lifecycle.ArenaBot, "start", reject)
    with pytest.raises(SystemExit) as stopped:
        lifecycle.main()
    assert "Discord rejected the DISCORD_TOKEN it was given" in str(stopped.value)


def test_a_database_that_cannot_be_used_ends_the_bot_with_one_sentence(tmp_path):
    not_sqlite = tmp_path / "notes.sqlite3"
    not_sqlite.write_text("these are notes, not a database\n" * 200)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    cases = {
        str(not_sqlite): f"Arena cannot start: {not_sqlite} cannot be used as Arena's database: the file is not an "
        "SQLite database (move it away, or point DATABASE_PATH elsewhere).",
        str(blocker / "data" / "arena.sqlite3"): f"Arena cannot start: the folder {blocker / 'data'} cannot be "
        "created (Not a directory).",
        "/sys/arena.sqlite3": "Arena cannot start: /sys/arena.sqlite3 cannot be used as Arena's database: the file "
        "cannot be opened or created there (check the folder's permissions).",
    }
    for path, sentence in cases.items():
        # The token is never tried: the database is opened before Discord is reached.
        result = run_bot(tmp_path, DISCORD_TOKEN="x", DATABASE_PATH=path)
        assert result.returncode == 1, result.stderr
        assert result.stderr.strip().splitlines()[-1] == sentence
        assert "Traceback" not in result.stderr


STARTED_BOT_MODULES = """
import asyncio, sys
from pathlib import Path
from offline_discord.harness import FakeDiscord, make_settings, start_bot

async def main():
    bot = await start_bot(make_settings(Path(sys.argv[1])), FakeDiscord())
    print(sorted(bot.cogs))
    print(sorted({name.split(".")[0] for name in sys.modules} & {"numba", "llvmlite", "matplotlib", "PIL"}))
    await bot.close()

asyncio.run(main())
"""


def test_the_bot_starts_without_the_heavy_libraries_that_only_some_commands_use(tmp_path):
    # numba (/deck) and matplotlib (charts) load on first use: about 100 MB and a second a start does not pay.
    result = subprocess.run(
        [sys.executable, "-c", STARTED_BOT_MODULES, str(tmp_path / "arena.sqlite3")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    cogs, heavy = result.stdout.strip().splitlines()
    assert cogs == (
        "['Andor', 'Arena', 'Arena settings', 'Bossfight', 'DeckOptimizer', 'Lifecycle', 'MMA', 'MarkedForDeath']"
    )
    assert heavy == "[]"


def assert_ends_with_one_sentence(result, sentence: str) -> None:
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip().splitlines()[-1] == sentence
    assert "Traceback" not in result.stderr


def test_a_database_another_process_has_locked_ends_the_bot_promptly(tmp_path):
    path = tmp_path / "arena.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("CREATE TABLE notes (line TEXT)")
        holder.execute("BEGIN EXCLUSIVE")  # as another program writing to it would
        # timeout: the process must be gone within 5 s (it waits 1 s for the lock), not left hanging
        result = run_bot(tmp_path, timeout=5, DISCORD_TOKEN="x", DATABASE_PATH=str(path))
    finally:
        holder.close()
    assert_ends_with_one_sentence(
        result,
        f"Arena cannot start: {path} cannot be used as Arena's database: another program holds a lock on it (is "
        "another copy of Arena running?).",
    )


def test_a_disk_that_takes_no_more_writes_ends_the_bot_promptly(tmp_path):
    def small_file_limit() -> None:  # in the child: files may not grow past 8 KB, as on a disk that is full
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))

    path = tmp_path / "arena.sqlite3"
    result = run_bot(tmp_path, timeout=5, preexec_fn=small_file_limit, DISCORD_TOKEN="x", DATABASE_PATH=str(path))
    assert_ends_with_one_sentence(
        result,
        f"Arena cannot start: {path} cannot be used as Arena's database: reading or writing the file failed (is the "
        "disk full, or the file over a size limit?).",
    )


SIGNALLED_BOT = """
import asyncio, sys
from pathlib import Path
from arena.lifecycle import stop_on_signals
from offline_discord.harness import FakeDiscord, Harness, make_settings, start_bot

async def main():
    fake, settings = FakeDiscord(), make_settings(Path(sys.argv[1]))
    h = Harness(await start_bot(settings, fake), fake, settings)
    stop_on_signals(h.bot)
    send = fake.request

    async def slow_answers(route, *args, **kwargs):
        if route.path.endswith("/callback"):
            print("sending", flush=True)  # the test signals the process now
            await asyncio.sleep(1.0)
        return await send(route, *args, **kwargs)

    fake.request = slow_answers
    await h.run("deck random", h.alice, wait=False, seed=7)
    while not h.bot.is_closed():
        await asyncio.sleep(0.05)
    await h.bot.close()  # as bot.start() returning does: waits for the close the signal began
    print("answered:", [m.embed.title for m in h.messages])
    print("database closed:", h.bot._db is None)

asyncio.run(main())
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_a_reply_is_being_sent_ends_cleanly(tmp_path, signum):
    child = subprocess.Popen(
        [sys.executable, "-c", SIGNALLED_BOT, str(tmp_path / "arena.sqlite3")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "sending\n"
        child.send_signal(signum)
        out, err = child.communicate(timeout=30)  # a guard against a hang: it ends in about a second
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        raise AssertionError(f"the bot did not end after the signal; it wrote:\n{out}\n{err}") from None
    finally:
        child.kill()
    assert child.returncode == 0, err
    assert "answered: ['🎲 Random deck']" in out  # the reply on its way was sent, not cut off
    assert "database closed: True" in out
    assert "Traceback" not in err and "Session is closed" not in err


def test_shard_settings_are_checked_and_choose_the_sharded_bot(tmp_path):
    from pydantic import ValidationError

    from arena.bot import ArenaBot, ShardedArenaBot, create_bot
    from offline_discord.harness import make_settings

    with pytest.raises(ValidationError, match="SHARD_IDS needs SHARD_COUNT"):
        make_settings(tmp_path / "a.sqlite3", shard_ids="0")
    with pytest.raises(ValidationError, match="SHARD_IDS must be shard numbers from 0 to 1, separated by commas"):
        make_settings(tmp_path / "a.sqlite3", shard_count=2, shard_ids="0,2")
    plain = create_bot(make_settings(tmp_path / "a.sqlite3"))
    sharded = create_bot(make_settings(tmp_path / "a.sqlite3", shard_count=4, shard_ids="2,3"))
    assert type(plain) is ArenaBot and isinstance(sharded, ShardedArenaBot)
    assert (sharded.shard_count, sharded.shard_ids) == (4, [2, 3])
