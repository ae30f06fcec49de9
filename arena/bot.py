"""ArenaBot: the bot that loads every game, and its life from start-up (storage, cogs, the command sync) to a
clean shutdown."""

from __future__ import annotations

import asyncio
import importlib
import logging
import pkgutil
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.ext import commands

from arena.discord_internals import dynamic_items, interaction_handlers
from arena.settings import Settings, open_storage
from arena.tree import ArenaTree
from arena.watchdog import ANSWER_DEADLINE, see_answered, watch_response
from observability import Observer
from storage.protocol import Storage

if TYPE_CHECKING:
    from web.server import WebServer

log = logging.getLogger("arena")

ENGINE_WORKERS = 2  # quick engine calls that run at once; more wait their turn
LONG_JOB_WORKERS = 2  # long engine jobs (simulations, whole battles) that run at once
SHUTDOWN_GRACE = 3.0  # seconds a shutdown waits for the interactions being handled before it drops them
# What the bot needs in a channel to post and edit there on its own (MMA pings, boards and fights posted again),
# threads included: View Channels, Send Messages, Send Messages in Threads, Embed Links, Attach Files and Read
# Message History. README's step 3 says why each.
INVITE_PERMISSIONS = 274878024704


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with its slash commands and INVITE_PERMISSIONS."""
    permissions = discord.Permissions(INVITE_PERMISSIONS)
    return discord.utils.oauth_url(application_id, permissions=permissions, scopes=("bot", "applications.commands"))


# Arena never joins voice channels, so the warnings about missing voice libraries are noise.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


class ArenaBot(commands.Bot):
    def __init__(self, settings: Settings, **shards: Any):
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=ArenaTree,
            help_command=None,
            http_trace=aiohttp.TraceConfig(),  # the metrics count Discord's answers through it (observability)
            **shards,
        )
        self.settings = settings
        self.engine_executor = ThreadPoolExecutor(ENGINE_WORKERS, thread_name_prefix="engine")
        self.long_job_executor = ThreadPoolExecutor(LONG_JOB_WORKERS, thread_name_prefix="long-job")
        self._db: Storage | None = None
        self._pages: WebServer | None = None
        self.answer_deadline = ANSWER_DEADLINE
        self._background: set[asyncio.Future[Any]] = set()
        self._stopping: asyncio.Future[None] | None = None
        self.observer = Observer(self, settings, lambda: self.db, lambda: dynamic_items(self))

    @property
    def db(self) -> Storage:
        """The open storage (from `prepare` until `close`)."""
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    def serves_guild(self, guild_id: int) -> bool:
        """Whether this process serves the guild's shard (Discord's rule: guild id >> 22, modulo the shard count),
        so work of its own (a timer) is done by one process of a bot split over shards, not by all."""
        served = self.settings.shards
        return served is None or (guild_id >> 22) % (self.settings.shard_count or 1) in served

    async def open_storage(self) -> None:
        if self._db is not None:
            return
        self._db = self.observer.measured(await open_storage(self.settings))

    async def prepare(self) -> None:
        """Serve /metrics and /healthz (METRICS_PORT), open storage (applying migrations) and add every game's cog;
        nothing reaches Discord.

        Each package under cogs/ (but `common`) is imported once per process and its `setup(bot)` adds the cog.
        Not `load_extension`: that executes the package anew for every bot, which nothing here needs."""
        await self.observer.start()  # first: a port it cannot have stops the start before anything else opens
        await self.open_storage()
        await self.serve_pages()
        import cogs  # the one place the shell imports the games: it loads them (tests/test_layers.py)

        for module in pkgutil.iter_modules(cogs.__path__):
            if module.name != "common":
                await importlib.import_module(f"cogs.{module.name}").setup(self)
        log.info("storage open (%s), cogs loaded: %s", self.storage_name, ", ".join(self.cogs))

    async def serve_pages(self) -> None:
        """The web pages on WEB_PORT, in this process, over its storage (unset: none)."""
        if self.settings.web_port is None or self._pages is not None:
            return
        from web.server import WebServer  # loaded only where WEB_PORT is set

        pages = WebServer(
            self.db,
            self.settings.web_host,
            self.settings.web_port,
            executor=self.engine_executor,
            per_second=self.settings.web_rate_limit,
        )
        await pages.start()
        self._pages = pages

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
        """Every click and form gets an answer (`arena.watchdog`)."""
        await see_answered(self, interaction)

    @property
    def stopping(self) -> bool:
        """Whether the bot has begun to close (its games' buttons are being unregistered)."""
        return self._stopping is not None

    def keep(self, task: asyncio.Future[Any]) -> None:
        """Hold a reference to a task nobody awaits until it is done (the event loop keeps only weak ones)."""
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, self.user.id if self.user else "?", len(self.guilds))
        if self.application_id is not None:
            log.info("invite the bot to a server with %s", invite_url(self.application_id))

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
        pages, self._pages = self._pages, None
        if pages is not None:
            await pages.close()
        db, self._db = self._db, None
        if db is not None:
            await db.close()
        self.engine_executor.shutdown(wait=False, cancel_futures=True)
        self.long_job_executor.shutdown(wait=False, cancel_futures=True)
        await self.observer.close()


async def finish_interactions(grace: float) -> None:
    """Wait up to `grace` seconds for the tasks handling interactions; cancel those still running after it."""
    handlers = interaction_handlers()
    if not handlers:
        return
    _, late = await asyncio.wait(handlers, timeout=grace)
    for task in late:
        task.cancel()
    if late:
        log.warning("shutting down: dropped %d interaction(s) still being handled after %s s", len(late), grace)
        await asyncio.wait(late, timeout=1)


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
