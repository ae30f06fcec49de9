"""`python -m web`: the pages alone, without the bot, over the database the settings name (DATABASE_URL or
DATABASE_PATH) on WEB_HOST:WEB_PORT. Any number of these may read one PostgreSQL database behind a proxy."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal

from pydantic import ValidationError

from arena.settings import StorageSettings, open_storage
from observability import setup_logging
from storage.errors import StorageUnavailable
from web.errors import WebUnavailable
from web.server import WebServer

log = logging.getLogger("arena.web")


async def serve(settings: StorageSettings, port: int) -> None:
    db = await open_storage(settings)
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stopped.set)
    pages = WebServer(db, settings.web_host, port, per_second=settings.web_rate_limit)
    try:
        await pages.start()
        # What start-up made (modules, templates, the database's pool) lives as long as the process: set aside, the
        # collector's full collections no longer walk it, 3-5 ms each instead of about 50 (benchmarks.web: p95
        # 15-19 ms instead of 17-30, the CPU a page 5.6 ms instead of 6.2)
        gc.freeze()
        await stopped.wait()
    finally:
        await pages.close()
        await db.close()


def main() -> None:
    try:
        settings = StorageSettings()
    except ValidationError as exc:
        raise SystemExit(f"A setting is not valid: {exc}. See .env.example for what each one takes.") from None
    setup_logging(settings.log_level, settings.log_format)
    if settings.web_port is None:
        raise SystemExit("Set WEB_PORT (in .env or the environment) to the port the pages are served on.")
    try:
        asyncio.run(serve(settings, settings.web_port))
    except (StorageUnavailable, WebUnavailable) as exc:
        raise SystemExit(f"The pages cannot be served: {exc}.") from None
    except KeyboardInterrupt:
        log.info("stopped")


if __name__ == "__main__":
    main()
