"""Starting the bot: settings, and what a newcomer without a token is told."""

import os
import subprocess
import sys
from pathlib import Path

from bot import Settings

ROOT = Path(__file__).resolve().parents[1]


def run_bot(tmp_path, **env):
    clean = {k: v for k, v in os.environ.items() if k not in {"DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID"}}
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=clean | env, capture_output=True, text=True, timeout=60
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

    import bot

    async def reject(self, token, *, reconnect=True):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "arena.sqlite3"))
    monkeypatch.setattr(bot.ArenaBot, "start", reject)
    with pytest.raises(SystemExit) as stopped:
        bot.main()
    assert "Discord rejected the DISCORD_TOKEN it was given" in str(stopped.value)
