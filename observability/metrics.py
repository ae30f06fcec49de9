"""The process's Prometheus metrics: interactions, engine pools, the database, the gateway, /deck jobs.

Every bot has its own registry (a restart in one process, or two bots in a test, never share counts). Label
values are bounded: a game, a command's name or a component's action, an outcome, a pool, a shard, a
backend; never a user, guild, channel or match id.

An interaction is counted once, when both its handler has ended and it has an answer (or an error id): its
outcome is `answered`, `refused` (a user's mistake answered privately) or `error` (an error id). Time to first
response runs from receipt to Discord's confirmation of the first answer (a deferral counts: the user sees
"thinking…"); time to the final answer runs to the end of the handler, the last edit or followup included.
"""

from __future__ import annotations

import asyncio
import math
import re
import threading
import time
from collections import Counter as Tally
from collections.abc import Callable, Coroutine, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

import discord
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from observability.build import build_labels
from observability.discord_http import discord_http_tracing
from observability.logs import InteractionContext, enter_interaction

T = TypeVar("T")

# seconds; Discord fails an interaction whose first answer takes over 3 s
FIRST_RESPONSE_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
# seconds; a battle or a /deck optimization can take minutes, within the 15 minutes an interaction may edit
FINAL_ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 900.0)
ENGINE_JOB_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
WORLD_BOSS_BATCH_SIZES = (1, 5, 10, 25, 50, 100, 250, 500, 1000, 2000)
DATABASE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

OUTCOME_SEVERITY = {"answered": 0, "refused": 1, "error": 2}
WATCH = "arena.metrics"  # the key of an interaction's InteractionWatch in `interaction.extras`
OTHER = "other"  # a label value for whatever the bot does not know (a component of no game)

# The dynamic items the bot routes clicks to, by their custom id pattern: given by the bot, which alone reads
# discord.py's routing table (arena.discord_internals).
ComponentRoutes = Callable[[], Mapping[re.Pattern[str], type[object]]]

INTERACTION_KINDS = {
    discord.InteractionType.application_command: "command",
    discord.InteractionType.autocomplete: "autocomplete",
    discord.InteractionType.component: "component",
    discord.InteractionType.modal_submit: "modal",
}


class Metrics:
    """The metrics of one bot, in their own registry (`registry`, what /metrics serves)."""

    def __init__(self, bot: commands.Bot, routes: ComponentRoutes):
        self.bot = bot
        self.routes = routes
        self.registry = registry = CollectorRegistry(auto_describe=True)
        self.interactions = Counter(
            "arena_interactions",
            "Interactions answered, by game, kind (command, component, autocomplete, modal), command or "
            "component action, and outcome (answered, refused: a user's mistake answered privately, error: an "
            "error id)",
            ["game", "kind", "name", "outcome"],
            registry=registry,
        )
        self.first_response = Histogram(
            "arena_interaction_first_response_seconds",
            "From receiving an interaction to Discord confirming its first answer (a deferral counts)",
            ["shard", "game", "kind"],
            buckets=FIRST_RESPONSE_BUCKETS,
            registry=registry,
        )
        self.final_answer = Histogram(
            "arena_interaction_final_answer_seconds",
            "From receiving an interaction to the end of its handling, its last edit or followup included",
            ["shard", "game", "kind"],
            buckets=FINAL_ANSWER_BUCKETS,
            registry=registry,
        )
        self.engine_running = Gauge(
            "arena_engine_jobs_running", "Engine jobs running in a worker pool", ["pool"], registry=registry
        )
        self.engine_queued = Gauge(
            "arena_engine_jobs_queued", "Engine jobs waiting for a worker of a pool", ["pool"], registry=registry
        )
        self.engine_seconds = Histogram(
            "arena_engine_job_seconds",
            "How long an engine job ran in its worker (its wait in the queue apart)",
            ["pool"],
            buckets=ENGINE_JOB_BUCKETS,
            registry=registry,
        )
        self.database_seconds = Histogram(
            "arena_database_seconds",
            "Database operations: a transaction from asking for it to its commit or rollback (waiting for the "
            "write lock included), or a read outside one",
            ["backend", "operation"],
            buckets=DATABASE_BUCKETS,
            registry=registry,
        )
        self.database_errors = Counter(
            "arena_database_errors",
            "Database operations that failed in the database (not a stale update or a user's mistake)",
            ["backend", "operation"],
            registry=registry,
        )
        self.deck_jobs = Gauge("arena_deck_jobs_running", "/deck optimizations running", registry=registry)
        self.world_boss_applied = Counter(
            "arena_world_boss_attacks_applied",
            "World boss attacks this process applied (every process's, while it held the boss's lease)",
            registry=registry,
        )
        self.world_boss_batch_size = Histogram(
            "arena_world_boss_batch_size", "World boss attacks applied in one batch", buckets=WORLD_BOSS_BATCH_SIZES,
            registry=registry,
        )  # fmt: skip
        self.world_boss_batch_seconds = Histogram(
            "arena_world_boss_batch_seconds", "How long one batch of world boss attacks took to apply",
            buckets=DATABASE_BUCKETS, registry=registry,
        )  # fmt: skip
        self.world_boss_lag = Histogram(
            "arena_world_boss_lag_seconds",
            "From a world boss attack's storing (in any process) to its application: the lag between processes",
            buckets=ENGINE_JOB_BUCKETS,
            registry=registry,
        )
        registry.register(GatewayCollector(bot))
        self.gateway_events = {
            event: Counter(name, text, ["shard"], registry=registry) for event, (name, text) in GATEWAY_EVENTS.items()
        }
        for counter in self.gateway_events.values():
            for shard_id in shard_states(bot):
                counter.labels(str(shard_id))  # at 0 from the start, so increase() sees the first one
        self.discord_requests = Counter(
            "arena_discord_requests",
            "HTTP requests to Discord by route kind (interaction-callback, webhook, channel-message, commands, "
            "gateway, cdn, other) and status (2xx, 401, 403, 404, 429, 4xx, 5xx..., network: no answer)",
            ["route", "status"],
            registry=registry,
        )
        if bot.http.http_trace is not None:
            discord_http_tracing(bot.http.http_trace, self.discord_requests)
        Info(
            "arena_build", "The running build: Arena's version and commit, its libraries' versions", registry=registry
        ).info(build_labels())
        # The default registry's process figures (memory, CPU, open files; Python's version), in this one.
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)

    def world_boss_batch(self, size: int, seconds: float, lag_seconds: float) -> None:
        """A batch of world boss attacks applied: `lag_seconds` from its oldest attack's storing."""
        self.world_boss_applied.inc(size)
        self.world_boss_batch_size.observe(size)
        self.world_boss_batch_seconds.observe(seconds)
        self.world_boss_lag.observe(lag_seconds)

    def gateway_event(self, event: str, shard: str) -> None:
        self.gateway_events[event].labels(shard).inc()

    # --- interactions ------------------------------------------------------------------------------

    def interaction_received(self, interaction: discord.Interaction) -> None:
        """Start watching an interaction discord.py has just parsed (before its handler runs)."""
        game, kind, name = interaction_labels(self.bot, self.routes, interaction)
        interaction.extras[WATCH] = InteractionWatch(
            self, interaction, game, kind, name, shard_of(self.bot, interaction), time.perf_counter()
        )

    # --- engine pools ------------------------------------------------------------------------------

    def pool_job(self, pool: str, call: Callable[[], T]) -> PoolJob[T]:
        """`call`, counted as queued in `pool` from now and as running while a worker runs it."""
        return PoolJob(self, pool, call)


def interaction_labels(
    bot: commands.Bot, routes: ComponentRoutes, interaction: discord.Interaction
) -> tuple[str, str, str]:
    """(game, kind, name): a command's full name (`mma challenge`), a component's action (`hand`)."""
    kind = INTERACTION_KINDS.get(interaction.type, OTHER)
    if kind in ("command", "autocomplete"):
        command = interaction.command
        if command is None:
            return OTHER, kind, OTHER
        return command.qualified_name.split(" ")[0], kind, command.qualified_name
    custom_id = str((interaction.data or {}).get("custom_id", ""))
    game = custom_id.split(":", 1)[0]
    if game not in {command.name for command in bot.tree.get_commands()}:
        return OTHER, kind, OTHER
    return game, kind, component_action(routes, custom_id)


def component_action(routes: ComponentRoutes, custom_id: str) -> str:
    """The action of a game's component (the `action` group of its template, without a value it carries,
    MMA's `play-<card>` is `play`), or the class that handles it; `other` for none."""
    for pattern, item in routes().items():
        match = pattern.fullmatch(custom_id)
        if match is not None:
            action = match.groupdict().get("action")
            return action.split("-", 1)[0] if action else item.__name__
    return OTHER


def shard_of(bot: commands.Bot, interaction: discord.Interaction) -> str:
    """The shard that delivered the interaction: Discord's rule, (guild id >> 22) % shard count; 0 for a DM."""
    if bot.shard_count and interaction.guild_id is not None:
        return str((interaction.guild_id >> 22) % bot.shard_count)
    return str(bot.shard_id or 0)


class InteractionWatch:
    """One interaction's way through the bot, until it is counted."""

    def __init__(
        self,
        metrics: Metrics,
        interaction: discord.Interaction,
        game: str,
        kind: str,
        name: str,
        shard: str,
        received: float,
    ):
        self.metrics = metrics
        self.interaction = interaction
        self.game, self.kind, self.name, self.shard = game, kind, name, shard
        self.received = received
        self.answered_at: float | None = None
        self.outcome: str | None = None
        self.handler: asyncio.Task[Any] | None = None
        self.handler_running = False  # no handler known: counted at its first answer (an expired button's)
        self.counted = False

    @property
    def context(self) -> InteractionContext:
        return InteractionContext(str(self.interaction.id), self.name)

    def handler_started(self, task: asyncio.Task[Any] | None) -> None:
        if self.handler is not None or task is None:
            return
        self.handler, self.handler_running = task, True
        task.add_done_callback(self._handler_ended)

    def _handler_ended(self, _task: asyncio.Task[Any]) -> None:
        self.handler_running = False
        self._count_if_settled()

    def answered(self) -> None:
        if self.answered_at is None:
            self.answered_at = time.perf_counter()
            self.metrics.first_response.labels(self.shard, self.game, self.kind).observe(
                self.answered_at - self.received
            )
        self._count_if_settled()

    def ended_with(self, outcome: str) -> None:
        if self.outcome is None or OUTCOME_SEVERITY[outcome] > OUTCOME_SEVERITY[self.outcome]:
            self.outcome = outcome
        self._count_if_settled()

    def _count_if_settled(self) -> None:
        """Count once the handler has ended and the user has an answer; a handler that ended without one is
        counted when the watchdog's error id reaches the user (`ended_with`)."""
        if self.counted or self.handler_running:
            return
        if self.outcome is None and not self.interaction.response.is_done():
            return
        self.counted = True
        now = time.perf_counter()
        if self.answered_at is None and self.interaction.response.is_done():  # an answer not sent through
            self.answered_at = now  # WatchedResponse (autocomplete choices): its first is its final
            self.metrics.first_response.labels(self.shard, self.game, self.kind).observe(now - self.received)
        self.metrics.interactions.labels(self.game, self.kind, self.name, self.outcome or "answered").inc()
        self.metrics.final_answer.labels(self.shard, self.game, self.kind).observe(now - self.received)


def watch_of(interaction: discord.Interaction) -> InteractionWatch | None:
    watch = interaction.extras.get(WATCH)
    return watch if isinstance(watch, InteractionWatch) else None


def handling(interaction: discord.Interaction) -> None:
    """Called first thing in an interaction's handler task: its log lines carry the interaction's id and
    command from here on, and its end is the end of the interaction's handling."""
    watch = watch_of(interaction)
    if watch is None:
        return
    enter_interaction(watch.context)
    watch.handler_started(asyncio.current_task())


def answered(interaction: discord.Interaction) -> None:
    """Discord confirmed an answer of the interaction (a message, a deferral, an edit, a modal)."""
    watch = watch_of(interaction)
    if watch is not None:
        watch.answered()


def ended_with(interaction: discord.Interaction, outcome: str) -> None:
    """The interaction's failure was answered: `refused` (a user's mistake) or `error` (an error id)."""
    watch = watch_of(interaction)
    if watch is not None:
        watch.ended_with(outcome)


def interaction_context(interaction: discord.Interaction) -> InteractionContext:
    """The interaction's id and command name, for log lines written outside its handler."""
    watch = watch_of(interaction)
    return watch.context if watch is not None else InteractionContext(str(interaction.id), None)


# --- engine pools --------------------------------------------------------------------------------------


class PoolJob(Generic[T]):
    """A callable for a worker pool that keeps the pool's gauges: queued until a worker starts it (or its
    future is cancelled before), running until it returns."""

    def __init__(self, metrics: Metrics, pool: str, call: Callable[[], T]):
        self.call = call
        self.queued = metrics.engine_queued.labels(pool)
        self.running = metrics.engine_running.labels(pool)
        self.seconds = metrics.engine_seconds.labels(pool)
        self._lock = threading.Lock()
        self._waiting = True
        self.queued.inc()

    def leave_queue(self) -> None:
        with self._lock:
            if not self._waiting:
                return
            self._waiting = False
        self.queued.dec()

    def __call__(self) -> T:
        self.leave_queue()
        self.running.inc()
        started = time.perf_counter()
        try:
            return self.call()
        finally:
            self.seconds.observe(time.perf_counter() - started)
            self.running.dec()

    async def run_in(self, executor: Any) -> T:
        """Run in `executor` (a concurrent.futures pool) and wait for the result."""
        future = asyncio.get_running_loop().run_in_executor(executor, self)
        future.add_done_callback(lambda _: self.leave_queue())  # cancelled before a worker took it
        return await future


# --- the gateway ---------------------------------------------------------------------------------------

# discord.py's event (`on_<event>`, or `on_shard_<event>` with the shard's id on a sharded bot) -> its counter
GATEWAY_EVENTS = {
    "disconnect": ("arena_gateway_disconnects", "Gateway connections that closed or failed (a reconnect follows)"),
    "connect": (
        "arena_gateway_sessions",
        "New gateway sessions (an identify: the first, or a reconnect that could not resume)",
    ),
    "resumed": ("arena_gateway_resumes", "Reconnects that resumed the gateway session (no event lost)"),
}


def watch_gateway(bot: commands.Bot, seen: Callable[[str, str], None]) -> None:
    """Call `seen(event, shard)` at every event of GATEWAY_EVENTS of any shard of the bot."""
    sharded = isinstance(bot, discord.AutoShardedClient)

    def listener(event: str) -> Callable[..., Coroutine[Any, Any, None]]:
        async def heard(*args: Any) -> None:
            seen(event, str(args[0]) if sharded else str(bot.shard_id or 0))

        return heard

    for event in GATEWAY_EVENTS:
        bot.add_listener(listener(event), f"on_shard_{event}" if sharded else f"on_{event}")


@dataclass(frozen=True)
class ShardState:
    connected: bool
    latency: float  # seconds between a heartbeat and its acknowledgement; NaN before the first


def shard_states(bot: commands.Bot) -> dict[int, ShardState]:
    """Every shard this process serves (SHARD_IDS, all of SHARD_COUNT, or the one connection), connected or not."""
    if isinstance(bot, discord.AutoShardedClient):
        shards = bot.shards
        served = bot.shard_ids if bot.shard_ids is not None else range(bot.shard_count or 1)
        states: dict[int, ShardState] = {}
        for shard_id in served:
            shard = shards.get(shard_id)
            connected = shard is not None and not shard.is_closed()
            states[shard_id] = ShardState(connected, finite(shard.latency) if shard is not None else math.nan)
        return states
    ws = cast("DiscordWebSocket | None", bot.ws)  # None until the first connection, whatever the stubs say
    connected = ws is not None and ws.open and not bot.is_closed()
    return {bot.shard_id or 0: ShardState(connected, finite(ws.latency) if ws is not None else math.nan)}


def finite(seconds: float) -> float:
    return seconds if math.isfinite(seconds) else math.nan  # discord.py says inf before the first heartbeat


class GatewayCollector(Collector):
    """Read at each scrape: the gateway's state and latency and the guilds of each shard."""

    def __init__(self, bot: commands.Bot):
        self.bot = bot

    def collect(self) -> Iterator[GaugeMetricFamily]:
        connected = GaugeMetricFamily(
            "arena_gateway_connected", "1 while the shard's gateway connection is open", labels=["shard"]
        )
        latency = GaugeMetricFamily(
            "arena_gateway_latency_seconds",
            "Between the shard's last heartbeat and its acknowledgement (NaN before the first)",
            labels=["shard"],
        )
        guilds = GaugeMetricFamily("arena_guilds", "Servers the shard serves", labels=["shard"])
        states = shard_states(self.bot)
        per_shard = Tally(guild.shard_id for guild in self.bot.guilds)
        for shard_id, state in sorted(states.items()):
            connected.add_metric([str(shard_id)], 1.0 if state.connected else 0.0)
            latency.add_metric([str(shard_id)], state.latency)
            guilds.add_metric([str(shard_id)], float(per_shard.get(shard_id, 0)))
        yield connected
        yield latency
        yield guilds
