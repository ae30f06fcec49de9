"""METRICS_PORT: /metrics (Prometheus), /healthz and /readyz on one port, served by aiohttp on the bot's event loop.

/healthz (alive: what a liveness probe or a service manager's watchdog asks) and /readyz (ready: a readiness
probe) answer 200 `ok`, or 503 with the reasons, one a line (`observability.health`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry
from prometheus_client.exposition import choose_encoder

from observability.health import Health

if TYPE_CHECKING:
    from aiohttp import web

log = logging.getLogger("arena.metrics")


class MetricsUnavailable(Exception):
    """METRICS_PORT cannot be listened on (taken, or a host this machine does not have); one sentence."""


class MetricsServer:
    """The HTTP listener, started by `start` and stopped by `close`; `port` is the one bound (METRICS_PORT=0:
    any free one)."""

    def __init__(self, health: Health, registry: CollectorRegistry, host: str, port: int):
        self.health = health
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
        app.router.add_get("/readyz", self.readyz)
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
        log.info("metrics and health on http://%s:%d/metrics, /healthz and /readyz", self.host, self.port)

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
        return answer(await self.health.liveness())

    async def readyz(self, request: web.Request) -> web.Response:
        return answer(await self.health.readiness())


def answer(problems: list[str]) -> web.Response:
    from aiohttp import web

    if problems:
        return web.Response(status=503, text="\n".join(problems) + "\n")
    return web.Response(text="ok\n")
