"""What an operator watches: Prometheus metrics and /healthz (METRICS_PORT) and the log format (LOG_FORMAT).

Apart from the games: the bot, the cogs' shared helpers and the storage it opens report here, and nothing here
knows a game. `Observer` is the one object the bot holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from observability.logs import JsonLogFormatter, log_fields, setup_logging
from observability.metrics import Metrics, answered, ended_with, handling, interaction_context, watch_gateway
from observability.server import MetricsServer, MetricsUnavailable, health_problems
from observability.storage import MeasuredStorage

if TYPE_CHECKING:
    from arena.bot import ArenaBot
    from storage.database import Storage


class Observer:
    """A bot's metrics, its measured storage and, with METRICS_PORT, the server of /metrics and /healthz."""

    def __init__(self, bot: ArenaBot):
        self.bot = bot
        self.metrics = Metrics(bot)
        watch_gateway(bot, self.metrics.gateway_event)
        port = bot.settings.metrics_port
        self.server = (
            MetricsServer(bot, self.metrics.registry, bot.settings.metrics_host, port) if port is not None else None
        )

    def measured(self, storage: Storage) -> MeasuredStorage:
        return MeasuredStorage(storage, self.metrics)

    async def start(self) -> None:
        if self.server is not None and self.server.port is None:
            await self.server.start()

    async def close(self) -> None:
        if self.server is not None:
            await self.server.close()


__all__ = [
    "JsonLogFormatter",
    "MeasuredStorage",
    "Metrics",
    "MetricsServer",
    "MetricsUnavailable",
    "Observer",
    "answered",
    "ended_with",
    "handling",
    "health_problems",
    "interaction_context",
    "log_fields",
    "setup_logging",
]
