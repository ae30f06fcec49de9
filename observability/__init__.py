"""What an operator watches: Prometheus metrics and /healthz (METRICS_PORT) and the log format (LOG_FORMAT).

Apart from the games: the bot, the cogs' shared helpers and the storage it opens report here, and nothing here
knows a game. `Observer` is the one object the bot holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from observability.health import Health
from observability.logs import JsonLogFormatter, log_fields, log_reconnects_as_warnings, setup_logging
from observability.metrics import Metrics, answered, ended_with, handling, interaction_context, watch_gateway
from observability.server import MetricsServer, MetricsUnavailable
from observability.storage import MeasuredStorage

if TYPE_CHECKING:
    from arena.bot import ArenaBot
    from storage.database import Storage


class Observer:
    """A bot's metrics, its health, its measured storage and, with METRICS_PORT, the server of /metrics, /healthz
    and /readyz."""

    def __init__(self, bot: ArenaBot):
        self.bot = bot
        self.metrics = Metrics(bot)
        log_reconnects_as_warnings()
        self.health = Health(bot, bot.settings.health_grace_seconds)
        watch_gateway(bot, self.gateway_event)
        port = bot.settings.metrics_port
        self.server = (
            MetricsServer(self.health, self.metrics.registry, bot.settings.metrics_host, port)
            if port is not None
            else None
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
    "Observer",
    "answered",
    "ended_with",
    "handling",
    "interaction_context",
    "log_fields",
    "setup_logging",
]
