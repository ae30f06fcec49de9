"""What an operator watches: Prometheus metrics and /healthz (METRICS_PORT) and the log format (LOG_FORMAT).

Apart from the games: the bot, the cogs' shared helpers and the storage it opens report here, and nothing here
knows a game or the bot's own code: what it needs of the bot beyond discord.py's `Bot` (its settings, its storage,
its component routes) the bot gives to `Observer`, the one object it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from observability.health import Health
from observability.logs import JsonLogFormatter, log_fields, log_reconnects_as_warnings, setup_logging
from observability.metrics import (
    ComponentRoutes,
    Metrics,
    answered,
    ended_with,
    handling,
    interaction_context,
    watch_gateway,
)
from observability.server import MetricsServer, MetricsUnavailable
from observability.storage import MeasuredStorage

if TYPE_CHECKING:
    from discord.ext import commands

    from storage.protocol import Storage


class ObservedSettings(Protocol):
    """The settings observability reads (the bot's settings have them)."""

    @property
    def metrics_port(self) -> int | None: ...

    @property
    def metrics_host(self) -> str: ...

    @property
    def health_grace_seconds(self) -> float: ...


class Observer:
    """A bot's metrics, its health, its measured storage and, with METRICS_PORT, the server of /metrics, /healthz
    and /readyz. `storage` gives the bot's open storage (RuntimeError while none is); `routes` its component
    routes."""

    def __init__(
        self,
        bot: commands.Bot,
        settings: ObservedSettings,
        storage: Callable[[], Storage],
        routes: ComponentRoutes,
    ):
        self.bot = bot
        self.metrics = Metrics(bot, routes)
        log_reconnects_as_warnings()
        self.health = Health(bot, storage, settings.health_grace_seconds)
        watch_gateway(bot, self.gateway_event)
        port = settings.metrics_port
        self.server = (
            MetricsServer(self.health, self.metrics.registry, settings.metrics_host, port) if port is not None else None
        )

    def gateway_event(self, event: str, shard: str) -> None:
        self.metrics.gateway_event(event, shard)
        self.health.gateway_event(event, shard)

    def measured(self, storage: Storage) -> MeasuredStorage:
        return MeasuredStorage(storage, self.metrics)

    async def start(self) -> None:
        if self.server is not None and self.server.port is None:
            await self.server.start()

    async def close(self) -> None:
        if self.server is not None:
            await self.server.close()


__all__ = [
    "Health",
    "JsonLogFormatter",
    "MeasuredStorage",
    "Metrics",
    "MetricsServer",
    "MetricsUnavailable",
    "ObservedSettings",
    "Observer",
    "answered",
    "ended_with",
    "handling",
    "interaction_context",
    "log_fields",
    "setup_logging",
]
