"""Arena's entry point: settings, logging, the bot, and running it.

`make run` starts this file. Settings come from the environment and `.env` (see .env.example).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pkgutil
import signal
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

import aiohttp
import discord
from discord.ext import commands
from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

import cogs
from cogs.common import ArenaTree, report_error
from storage import Database
from storage.database import StorageUnavailable

log = logging.getLogger("arena")

ENGINE_WORKERS = 2  # quick engine calls that run at once; more wait their turn
LONG_JOB_WORKERS = 2  # long engine jobs (simulations, whole battles) that run at once
ANSWER_DEADLINE = 2.5  # seconds: Discord fails an interaction not answered within 3 s of being sent

# Arena never joins voice channels, so the warnings about missing voice libraries are noise.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False

TOKEN_HELP = """\
Arena needs a Discord bot token to start, and {problem}.
To get one: open https://discord.com/developers/applications, choose "New Application", open its "Bot"
page and press "Reset Token", then copy the token. Put it in a file named .env in the folder Arena starts
from (the project folder, for `make run`), as the line DISCORD_TOKEN=<your token> (copy .env.example to .env
to start from every setting), or set DISCORD_TOKEN in the environment. Then run `make run` again. README.md
explains how to invite the bot to your server."""


class Settings(BaseSettings):
    """Every setting, read from the environment and from .env; .env.example documents each one."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True)

    discord_token: SecretStr = Field(min_length=1)
    database_path: Path = Path("data/arena.sqlite3")
    dev_guild_id: int | None = None
    gm_role: str | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"


class ArenaBot(commands.Bot):
    def __init__(self, settings: Settings):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=ArenaTree,
            help_command=None,
        )
        self.settings = settings
        self.engine_executor = ThreadPoolExecutor(ENGINE_WORKERS, thread_name_prefix="engine")
        self.long_job_executor = ThreadPoolExecutor(LONG_JOB_WORKERS, thread_name_prefix="long-job")
        self._db: Database | None = None
        self.answer_deadline = ANSWER_DEADLINE
        self._background: set[asyncio.Task] = set()

    @property
    def db(self) -> Database:
        """The open storage (from `prepare` until `close`)."""
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    async def open_storage(self) -> None:
        if self._db is None:
            self._db = await Database.open(self.settings.database_path)

    async def prepare(self) -> None:
        """Open storage (applying migrations) and load every cog; no network involved."""
        await self.open_storage()
        for module in pkgutil.iter_modules(cogs.__path__):
            if module.name != "common":
                await self.load_extension(f"cogs.{module.name}")
        log.info("storage open at %s, cogs loaded: %s", self.settings.database_path, ", ".join(self.cogs))

    async def setup_hook(self) -> None:
        await self.prepare()
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (Discord may take up to an hour to show them)", len(synced))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Make sure every click and form gets an answer.

        A click no live view or persistent button handles is told so. discord.py drops some failures of the
        others with only a log line (a dynamic item whose `from_custom_id` or check raises, a view item gone):
        whatever is still unanswered shortly before Discord's 3 s limit gets an error id instead of "This
        interaction failed".
        """
        if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return
        if interaction.type is discord.InteractionType.component and not has_component_handler(self, interaction):
            await interaction.response.send_message(
                "⌛ These buttons are no longer active. Run the command again for fresh ones.", ephemeral=True
            )
            return
        self.loop.call_later(self.answer_deadline, self._answer_if_unanswered, interaction)

    def _answer_if_unanswered(self, interaction: discord.Interaction) -> None:
        if interaction.response.is_done():
            return
        problem = UnansweredInteraction(f"no answer within {self.answer_deadline} s (see the exception logged before)")
        task = self.loop.create_task(report_error(interaction, problem))
        self._background.add(task)  # keep a reference until it is done
        task.add_done_callback(self._background.discard)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, self.user.id if self.user else "?", len(self.guilds))

    async def close(self) -> None:
        await super().close()
        if self._db is not None:
            await self._db.close()
            self._db = None
        self.engine_executor.shutdown(wait=False, cancel_futures=True)
        self.long_job_executor.shutdown(wait=False, cancel_futures=True)


class UnansweredInteraction(RuntimeError):
    """A click or form that its handler left without an answer."""


def has_component_handler(client: discord.Client, interaction: discord.Interaction) -> bool:
    # discord.py exposes no public lookup, so this reads its view store the way its own dispatch does.
    store = client._connection._view_store
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id", "")
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items):
        return True
    key = (data.get("component_type"), custom_id)
    message_id = interaction.message.id if interaction.message else None
    return key in store._views.get(message_id, {}) or key in store._views.get(None, {})


def load_settings() -> Settings:
    try:
        return Settings()  # pyright: ignore[reportCallIssue]  # pydantic-settings fills the fields from the environment
    except ValidationError as exc:
        fields = {str(err["loc"][0]) for err in exc.errors()}
        if "discord_token" in fields:
            raise SystemExit(TOKEN_HELP.format(problem="DISCORD_TOKEN is not set")) from None
        details = "; ".join(f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in exc.errors())
        raise SystemExit(f"A setting is not valid: {details}. See .env.example for what each one takes.") from None


async def run(settings: Settings) -> None:
    async with ArenaBot(settings) as bot:
        await bot.open_storage()  # before Discord: a database problem is reported as one, not as the network
        # A service manager stops the bot with SIGTERM: close cleanly, as on Ctrl+C.
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
        await bot.start(settings.discord_token.get_secret_value())


def main() -> None:
    settings = load_settings()
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    try:
        asyncio.run(run(settings))
    except StorageUnavailable as exc:
        raise SystemExit(f"Arena cannot start: {exc}.") from None
    except discord.LoginFailure:
        raise SystemExit(TOKEN_HELP.format(problem="Discord rejected the DISCORD_TOKEN it was given")) from None
    except (OSError, aiohttp.ClientError) as exc:
        raise SystemExit(f"Arena could not reach Discord ({exc}). Check this machine's internet connection.") from None
    except KeyboardInterrupt:
        log.info("stopped")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
