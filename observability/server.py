"""METRICS_PORT: /metrics (Prometheus) and /healthz on one port, served by aiohttp on the bot's event loop.

/healthz answers 200 `ok` when every shard of this process is connected to Discord and the database answers a
trivial query within HEALTH_DATABASE_TIMEOUT, and 503 with the reasons, one a line, otherwise: what a
container platform's liveness or readiness probe, or a service manager's watchdog, asks.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry
from prometheus_client.exposition import choose_encoder

from observability.metrics import shard_states
from observability.storage import MeasuredStorage

if TYPE_CHECKING:
    from aiohttp import web

    from arena.bot import ArenaBot

log = logging.getLogger("arena.metrics")

HEALTH_DATABASE_TIMEOUT = 1.0  # seconds the database has to answer /healthz's query


async def health_problems(bot: ArenaBot) -> list[str]:
    """What keeps this process from being healthy, in plain sentences; none when it is."""
    if bot.is_closed():
        return ["the bot is stopping"]
    problems = [
        f"shard {shard_id} is not connected to Discord"
        for shard_id, state in sorted(shard_states(bot).items())
        if not state.connected
    ]
    problem = await database_problem(bot)
    if problem is not None:
        problems.append(problem)
    return problems


async def database_problem(bot: ArenaBot) -> str | None:
    try:
        storage = bot.db
    except RuntimeError:
        return "the database is not open"
    # Asked directly, not through the measured storage: the probes would swamp the games' figures.
    inner = storage.inner if isinstance(storage, MeasuredStorage) else storage
    try:
        await asyncio.wait_for(inner.fetch_one("SELECT 1"), HEALTH_DATABASE_TIMEOUT)
    except TimeoutError:
        return f"the database did not answer within {HEALTH_DATABASE_TIMEOUT:g} s"
    except Exception as exc:
        return f"the database did not answer: {type(exc).__name__}: {exc}"
    return None


class MetricsUnavailable(Exception):
    """METRICS_PORT cannot be listened on (taken, or a host this machine does not have); one sentence."""


class MetricsServer:
    """The HTTP listener, started by `start` and stopped by `close`; `port` is the one bound (METRICS_PORT=0:
    any free one)."""

    def __init__(self, bot: ArenaBot, registry: CollectorRegistry, host: str, port: int):
        self.bot = bot
        self.registry = registry
        self.host = host
        self.requested_port = port
        self.port: int | None = None
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        from aiohttp import web  # loaded only where METRICS_PORT is set

        app = web.Application()
        app.router.add_get("/metrics", self.metrics)
        app.router.add_get("/healthz", self.healthz)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.requested_port).start()
        except OSError as exc:
            await runner.cleanup()
            raise MetricsUnavailable(
                f"METRICS_PORT {self.requested_port} on {self.host} cannot be listened on ({exc.strerror or exc})"
            ) from None
        self._runner = runner
        self.port = runner.addresses[0][1]
        log.info("metrics and health on http://%s:%d/metrics and /healthz", self.host, self.port)

    async def close(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def metrics(self, request: web.Request) -> web.Response:
        from aiohttp import web

        encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
        response = web.Response(body=encoder(self.registry))
        response.headers["Content-Type"] = content_type
        return response

    async def healthz(self, request: web.Request) -> web.Response:
        from aiohttp import web

        problems = await health_problems(self.bot)
        if problems:
            return web.Response(status=503, text="\n".join(problems) + "\n")
        return web.Response(text="ok\n")
