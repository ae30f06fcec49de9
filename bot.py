"""Arena's entry point: settings, logging, the bot, and running it.

`make run` starts this file. Settings come from the environment and `.env` (see .env.example).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import pkgutil
import signal
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

import aiohttp
import discord
from discord.ext import commands
from dotenv import dotenv_values
from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

import cogs
from cogs.common import ArenaTree, report_error
from observability import MetricsUnavailable, Observer, answered, setup_logging
from observability.logs import LogFormat
from storage import Database
from storage.database import Storage, StorageUnavailable

log = logging.getLogger("arena")

ENGINE_WORKERS = 2  # quick engine calls that run at once; more wait their turn
LONG_JOB_WORKERS = 2  # long engine jobs (simulations, whole battles) that run at once
ANSWER_DEADLINE = 2.5  # seconds: Discord fails an interaction not answered within 3 s of being sent
SHUTDOWN_GRACE = 3.0  # seconds a shutdown waits for the interactions being handled before it drops them
ANSWER_RECHECK = 0.2  # seconds: how often the watchdog looks again at an answer still on its way

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
    database_url: SecretStr | None = None  # postgresql://user:password@host/db: PostgreSQL instead of SQLite
    dev_guild_id: int | None = Field(default=None, gt=0)
    gm_role: str | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: LogFormat = "text"  # json: one JSON object a line, for log collectors
    metrics_port: int | None = Field(default=None, ge=0, le=65535)  # /metrics and /healthz; unset: none
    metrics_host: str = "127.0.0.1"
    # Discord's gateway shards this process serves, for a bot split over processes ("Running for many servers").
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: str | None = None  # e.g. "0,1"; with shard_count

    @property
    def shards(self) -> list[int] | None:
        return [int(part) for part in self.shard_ids.split(",")] if self.shard_ids else None

    @field_validator("discord_token")
    @classmethod
    def _token_given(cls, token: SecretStr) -> SecretStr:
        if not token.get_secret_value().strip():  # only spaces: as good as none
            raise ValueError("DISCORD_TOKEN is empty")
        return token

    @field_validator("database_path")
    @classmethod
    def _home_expanded(cls, path: Path) -> Path:
        return path.expanduser()  # ~/arena.sqlite3 as a shell would read it, not a folder named "~"

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT, the number of shards of the whole bot")
            parts = [part.strip() for part in self.shard_ids.split(",")]
            if not all(part.isascii() and part.isdigit() and int(part) < self.shard_count for part in parts):
                raise ValueError(
                    f"SHARD_IDS must be shard numbers from 0 to {self.shard_count - 1}, separated by commas"
                )
            if len(set(parts)) != len(parts):
                raise ValueError("SHARD_IDS names a shard twice; each shard runs in one process only, once")
        return self


class ArenaBot(commands.Bot):
    def __init__(self, settings: Settings, **shards: Any):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=ArenaTree,
            help_command=None,
            **shards,
        )
        self.settings = settings
        self.engine_executor = ThreadPoolExecutor(ENGINE_WORKERS, thread_name_prefix="engine")
        self.long_job_executor = ThreadPoolExecutor(LONG_JOB_WORKERS, thread_name_prefix="long-job")
        self._db: Storage | None = None
        self.answer_deadline = ANSWER_DEADLINE
        self._background: set[asyncio.Future[Any]] = set()
        self._stopping: asyncio.Future[None] | None = None
        self.observer = Observer(self)

    @property
    def db(self) -> Storage:
        """The open storage (from `prepare` until `close`)."""
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    async def open_storage(self) -> None:
        if self._db is not None:
            return
        if self.settings.database_url is not None:
            from storage.postgres import PostgresDatabase  # asyncpg is loaded only where PostgreSQL is used

            opened: Storage = await PostgresDatabase.open(self.settings.database_url.get_secret_value())
        else:
            opened = await Database.open(self.settings.database_path)
        self._db = self.observer.measured(opened)

    async def prepare(self) -> None:
        """Serve /metrics and /healthz (METRICS_PORT), open storage (applying migrations) and add every game's cog;
        nothing reaches Discord.

        Each package under cogs/ (but `common`) is imported once per process and its `setup(bot)` adds the cog.
        Not `load_extension`: that executes the package anew for every bot, which nothing here needs."""
        await self.observer.start()  # first: a port it cannot have stops the start before anything else opens
        await self.open_storage()
        for module in pkgutil.iter_modules(cogs.__path__):
            if module.name != "common":
                await importlib.import_module(f"cogs.{module.name}").setup(self)
        log.info("storage open (%s), cogs loaded: %s", self.storage_name, ", ".join(self.cogs))

    @property
    def storage_name(self) -> str:
        if self.settings.database_url is not None:
            from storage.postgres import shown_url

            return shown_url(self.settings.database_url.get_secret_value())
        return str(self.settings.database_path)

    async def setup_hook(self) -> None:
        await self.prepare()
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.Forbidden as exc:
                raise CommandSyncRefused(
                    f"Discord refused the commands for the server DEV_GUILD_ID names ({self.settings.dev_guild_id}: "
                    f"{exc.text or exc.status}). Invite the bot to that server with the applications.commands scope "
                    "(README.md has the link), or leave DEV_GUILD_ID empty"
                ) from None
            log.info("synced %d commands to guild %s", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (Discord may take up to an hour to show them)", len(synced))

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction":
            # discord.py has scheduled the handler's task but not run it: nothing has touched the response yet.
            watch_response(args[0])
            self.observer.metrics.interaction_received(args[0])
        super().dispatch(event_name, *args, **kwargs)

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
            if self._stopping is not None:  # the games' buttons are unregistered while the bot stops
                reply = "⏳ The bot is restarting: press the button again in a moment."
            else:
                reply = "⌛ These buttons are no longer active. Run the command again for fresh ones."
            await interaction.response.send_message(reply, ephemeral=True)
            return
        self.loop.call_later(self.answer_deadline, self._answer_if_unanswered, interaction)

    def _answer_if_unanswered(self, interaction: discord.Interaction) -> None:
        response = interaction.response
        if response.is_done():
            return
        if isinstance(response, WatchedResponse) and response.sending:
            # An answer is on its way (discord.py marks it done only once Discord confirms): never answer over it.
            self.loop.call_later(ANSWER_RECHECK, self._answer_if_unanswered, interaction)
            return
        problem = UnansweredInteraction(f"no answer within {self.answer_deadline} s (see the exception logged before)")
        self.keep(self.loop.create_task(report_error(interaction, problem)))

    def keep(self, task: asyncio.Future[Any]) -> None:
        """Hold a reference to a task nobody awaits until it is done (the event loop keeps only weak ones)."""
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, self.user.id if self.user else "?", len(self.guilds))

    async def _stop_games(self) -> None:
        for name in tuple(self.cogs):
            try:
                await self.remove_cog(name)  # runs the cog's cog_unload
            except Exception:
                log.exception("shutting down: removing the %s cog failed", name)
        await finish_interactions(SHUTDOWN_GRACE)

    async def close(self) -> None:
        """Stop the games (each cog's unload, e.g. /deck's jobs showing where they stopped), let the interactions
        being handled finish within SHUTDOWN_GRACE (a reply on its way, a move being saved), then close
        Discord's connection, the database and the worker pools.

        The first call does it; any later one (a signal, then start() returning) waits for that one to end, the
        database closed included: returning earlier would let the event loop close under the database's worker
        thread."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._close_once())
        await self._stopping

    async def _close_once(self) -> None:
        try:
            await self._stop_games()
        except Exception:  # whatever went wrong there, the connection and the database still close
            log.exception("shutting down: stopping the games failed")
        await super().close()
        db, self._db = self._db, None
        if db is not None:
            await db.close()
        self.engine_executor.shutdown(wait=False, cancel_futures=True)
        self.long_job_executor.shutdown(wait=False, cancel_futures=True)
        await self.observer.close()


class WatchedResponse(discord.InteractionResponse):
    """An interaction's response that also knows when an answer is on its way to Discord.

    discord.py marks a response done only after Discord has confirmed it, so an answer sent just before the
    watchdog's deadline would still look unanswered while it travels, and the watchdog would post an error id
    over a click that succeeded.
    """

    __slots__ = ("sending",)

    def __init__(self, parent: discord.Interaction):
        super().__init__(parent)
        self.sending = False

    @contextlib.contextmanager
    def _sending(self) -> Iterator[None]:
        self.sending = True
        try:
            yield
        finally:
            self.sending = False
        answered(self._parent)  # reached only once Discord confirmed it

    async def defer(self, *args: Any, **kwargs: Any) -> Any:
        with self._sending():
            return await super().defer(*args, **kwargs)

    async def send_message(self, *args: Any, **kwargs: Any) -> Any:
        with self._sending():
            return await super().send_message(*args, **kwargs)

    async def edit_message(self, *args: Any, **kwargs: Any) -> Any:
        with self._sending():
            return await super().edit_message(*args, **kwargs)

    async def send_modal(self, *args: Any, **kwargs: Any) -> Any:
        with self._sending():
            return await super().send_modal(*args, **kwargs)


def watch_response(interaction: discord.Interaction) -> None:
    """Give a new interaction a `WatchedResponse` (before its handler runs, so the handler answers through it)."""
    interaction._cs_response = WatchedResponse(interaction)  # pyright: ignore[reportAttributeAccessIssue]  # discord.py's cached slot


# The names discord.py gives the tasks that run an interaction's handler (commands, views, persistent items, modals).
HANDLER_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal",
)


async def finish_interactions(grace: float) -> None:
    """Wait up to `grace` seconds for the tasks handling interactions; cancel those still running after it."""
    current = asyncio.current_task()
    handlers = [
        task
        for task in asyncio.all_tasks()
        if task is not current and not task.done() and task.get_name().startswith(HANDLER_TASK_PREFIXES)
    ]
    if not handlers:
        return
    _, late = await asyncio.wait(handlers, timeout=grace)
    for task in late:
        task.cancel()
    if late:
        log.warning("shutting down: dropped %d interaction(s) still being handled after %s s", len(late), grace)
        await asyncio.wait(late, timeout=1)


def stop_on_signals(bot: ArenaBot) -> None:
    """SIGTERM (a service manager) and SIGINT (Ctrl+C) close the bot cleanly: replies on their way are sent,
    the database is closed, and `bot.start` returns."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows: Ctrl+C still interrupts
            loop.add_signal_handler(signum, lambda: bot.keep(asyncio.ensure_future(bot.close())))


class ShardedArenaBot(ArenaBot, commands.AutoShardedBot):
    """The bot serving the shards SHARD_COUNT and SHARD_IDS name: several processes, each a set of shards of
    one application, share one database (PostgreSQL), so nothing a game needs lives in one process only."""


def create_bot(settings: Settings) -> ArenaBot:
    """The bot the settings ask for: one connection to Discord, as always, unless SHARD_COUNT is set."""
    if settings.shard_count is None:
        return ArenaBot(settings)
    return ShardedArenaBot(settings, shard_count=settings.shard_count, shard_ids=settings.shards)


class CommandSyncRefused(Exception):
    """Discord refused the command list for DEV_GUILD_ID; the text says what to do, in one sentence."""


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
        fields = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
        if "discord_token" in fields:
            raise SystemExit(TOKEN_HELP.format(problem="DISCORD_TOKEN is not set")) from None
        # a check of several settings together (SHARD_IDS with SHARD_COUNT) has no one field: its text names them
        details = "; ".join(
            f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}"
            if e["loc"]
            else e["msg"].removeprefix("Value error, ")
            for e in exc.errors()
        )
        raise SystemExit(f"A setting is not valid: {details}. See .env.example for what each one takes.") from None


def unknown_dotenv_names(path: Path = Path(".env")) -> list[str]:
    """The names `path` sets that are none of Arena's settings: a misspelt one would quietly leave the setting
    at its default (DATABSE_URL: a shard on its own SQLite file instead of the shared PostgreSQL)."""
    known = {name.upper() for name in Settings.model_fields}
    return sorted(name for name in dotenv_values(path) if name.upper() not in known)


async def run(settings: Settings) -> None:
    async with create_bot(settings) as bot:
        await bot.open_storage()  # before Discord: a database problem is reported as one, not as the network
        stop_on_signals(bot)
        await bot.start(settings.discord_token.get_secret_value())


def main() -> None:
    settings = load_settings()
    setup_logging(settings.log_level, settings.log_format)
    for name in unknown_dotenv_names():
        log.warning(".env sets %s, which is none of Arena's settings (.env.example lists them): it is ignored", name)
    try:
        asyncio.run(run(settings))
    except (StorageUnavailable, CommandSyncRefused, MetricsUnavailable) as exc:
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
