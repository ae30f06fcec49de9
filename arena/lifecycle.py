"""The process: start-up (settings, logging, the bot), the one-sentence reasons it cannot start, and the
signals that stop it cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

import aiohttp
import discord

from arena.bot import ArenaBot, CommandSyncRefused, create_bot
from arena.settings import TOKEN_HELP, Settings, load_settings, unknown_dotenv_names
from observability import MetricsUnavailable, setup_logging
from storage.errors import StorageUnavailable
from web.errors import WebUnavailable

log = logging.getLogger("arena")


def stop_on_signals(bot: ArenaBot) -> None:
    """SIGTERM (a service manager) and SIGINT (Ctrl+C) close the bot cleanly: replies on their way are sent,
    the database is closed, and `bot.start` returns."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows: Ctrl+C still interrupts
            loop.add_signal_handler(signum, lambda: bot.keep(asyncio.ensure_future(bot.close())))


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
    except (StorageUnavailable, CommandSyncRefused, MetricsUnavailable, WebUnavailable) as exc:
        raise SystemExit(f"Arena cannot start: {exc}.") from None
    except discord.LoginFailure:
        raise SystemExit(TOKEN_HELP.format(problem="Discord rejected the DISCORD_TOKEN it was given")) from None
    except (OSError, aiohttp.ClientError) as exc:
        raise SystemExit(f"Arena could not reach Discord ({exc}). Check this machine's internet connection.") from None
    except KeyboardInterrupt:
        log.info("stopped")
