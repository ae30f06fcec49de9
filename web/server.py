"""WEB_PORT: the pages served by aiohttp on the event loop it is started on (the bot's, or `python -m web`'s)."""

from __future__ import annotations

import logging
from concurrent.futures import Executor

from aiohttp import web

from storage.protocol import Storage
from web.app import create_app
from web.errors import WebUnavailable

log = logging.getLogger("arena.web")


class WebServer:
    """The pages' listener, started by `start` and stopped by `close`; `port` is the one bound (WEB_PORT=0: any
    free one)."""

    def __init__(
        self,
        db: Storage,
        host: str,
        port: int,
        *,
        executor: Executor | None = None,
        per_second: float = 10.0,
        burst: int | None = None,
    ):
        burst = burst if burst is not None else max(1, round(4 * per_second))
        self.app = create_app(db, executor=executor, per_second=per_second, burst=burst)
        self.host = host
        self.requested_port = port
        self.port: int | None = None
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        runner = web.AppRunner(self.app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.requested_port).start()
        except OSError as exc:
            await runner.cleanup()
            raise WebUnavailable(
                f"WEB_PORT {self.requested_port} on {self.host} cannot be listened on ({exc.strerror or exc})"
            ) from None
        self._runner = runner
        self.port = runner.addresses[0][1]
        log.info("web pages on http://%s:%d/", self.host, self.port)

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()


__all__ = ["WebServer", "WebUnavailable"]
