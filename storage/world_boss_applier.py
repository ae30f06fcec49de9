"""A process's side of the world boss's hot path: store an attack (acknowledged once committed), then wait for
its credit.

One task per process (started while attacks of this process wait) does two things, every `poll_seconds`:
- if this process holds the boss's lease (or it is free or ran out: a process killed with kill -9 holds it no
  longer than `lease_seconds`), it applies every pending attack, of every process, in batches
  (`WorldBossRepository.apply_pending`), so one process at a time moves the HP;
- it reads which of its waiting attacks have been applied, in one query, and answers their waiters.
A process releases the lease when none of its attacks wait, so another with waiting attacks takes it at once.
Processes learn of each other's work only through the database, so it works the same with one process on SQLite.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from rules.bossfight.raid import RaidPlayer
from rules.bossfight.world import world_attack_refusal
from storage.bossfight import PlayerUpdate, StoredPlayer
from storage.retry import CONFLICT_ATTEMPTS
from storage.versioned import StaleUpdate
from storage.world_boss import WorldBossRepository
from storage.world_boss_boards import WorldBossBoards
from storage.world_boss_records import AttackResult, BatchApplied, NewAttack, WorldBoss

log = logging.getLogger("arena.world_boss")

BATCH_LIMIT = 2000  # attacks applied in one transaction at most
LEASE_SECONDS = 2.0
POLL_SECONDS = 0.01
LEASE_CHECK_SECONDS = 0.05
GROUP_LIMIT = 200  # attacks stored in one transaction at most
COMMITTERS = 2  # group commits of one process at once: a group forms while the one before commits
REMEMBERED_PLAYERS = 100_000  # how often a process without the lease looks whether it is free


class AttackFigures(Protocol):
    """What the engine worked out of an attack (`rules.bossfight.AttackBreakdown`), as far as storing it goes."""

    @property
    def damage_to_boss(self) -> float: ...

    @property
    def damage_to_deck(self) -> float: ...

    @property
    def deck_hp_after(self) -> float: ...

    @property
    def deck_survives(self) -> bool: ...


Figures = TypeVar("Figures", bound=AttackFigures)


class AttackRefused(Exception):
    """The member may not attack now (knocked out, cooling down): the message says why; nothing was stored."""


@dataclass
class _Waiting:
    boss_id: int
    answer: asyncio.Future[AttackResult]


@dataclass
class WorldBossApplier:
    repo: WorldBossRepository
    clock: Callable[[], float] = time.time  # the game's: when an attack lands, whether the end time has come
    process: str = field(default_factory=lambda: f"{os.getpid()}-{uuid.uuid4().hex[:8]}")
    poll_seconds: float = POLL_SECONDS
    lease_seconds: float = LEASE_SECONDS
    batch_limit: int = BATCH_LIMIT
    on_batch: Callable[[BatchApplied, float], None] | None = None  # (the batch, seconds it took): metrics
    _waiting: dict[int, _Waiting] = field(default_factory=dict[int, _Waiting])
    _leases: dict[int, float] = field(default_factory=dict[int, float])  # boss -> our lease's end
    _lease_checked: dict[int, float] = field(default_factory=dict[int, float])
    _task: asyncio.Task[None] | None = None
    _queue: list[tuple[NewAttack, asyncio.Future[int | None]]] = field(
        default_factory=list[tuple[NewAttack, "asyncio.Future[int | None]"]]
    )
    _committers: set[asyncio.Task[None]] = field(default_factory=set[asyncio.Task[None]])
    _committing: set[tuple[int, int, int]] = field(default_factory=set[tuple[int, int, int]])
    # What this process last stored of a member's standing: their next attack here needs no read (the version
    # check catches a standing that moved on elsewhere).
    _players: dict[tuple[int, int, int], StoredPlayer] = field(default_factory=dict[tuple[int, int, int], StoredPlayer])

    async def attack(
        self,
        boss: WorldBoss,
        guild_id: int,
        user_id: int,
        now: float,
        work_out: Callable[[float], Awaitable[Figures]],
    ) -> tuple[int, Figures]:
        """A member's attack, up to its acknowledgement: their standing checked (AttackRefused), the attack worked
        out from the damage they have taken (`work_out`, the engine) and stored; the attack's id and figures.
        Another attack of theirs stored first: worked out again from their standing then."""
        key = (boss.id, guild_id, user_id)
        for _ in range(CONFLICT_ATTEMPTS):
            player = self._players.pop(key, None)
            if player is None or world_attack_refusal(player.standing, boss.cooldown_seconds, now) is not None:
                player = await self.repo.player(boss.id, guild_id, user_id)  # as stored (a revive, another process)
            refusal = world_attack_refusal(player.standing, boss.cooldown_seconds, now)
            if refusal is not None:
                raise AttackRefused(refusal)
            figures = await work_out(player.standing.damage_taken)
            update = PlayerUpdate(figures.damage_to_deck, figures.deck_hp_after, not figures.deck_survives, now)
            try:
                attack_id = await self.store(boss.id, guild_id, user_id, player, figures.damage_to_boss, update)
            except StaleUpdate:
                continue
            if len(self._players) >= REMEMBERED_PLAYERS:
                self._players.clear()
            taken = player.standing.damage_taken + update.deck_damage
            self._players[key] = StoredPlayer(RaidPlayer(taken, update.knocked_out, now), player.version + 1)
            return attack_id, figures
        raise AttackRefused("Your other attacks kept landing first; nothing was changed by this one. Try again.")

    async def store(
        self, boss_id: int, guild_id: int, user_id: int, player: StoredPlayer, damage: float, update: PlayerUpdate
    ) -> int:
        """Store the attack, in this process's next group commit: once this returns its id, it is acknowledged
        (committed). StaleUpdate, nothing stored, when the member's standing moved on since `player`."""
        stored = asyncio.get_running_loop().create_future()
        self._queue.append((NewAttack(boss_id, guild_id, user_id, player, damage, update), stored))
        if len(self._committers) < COMMITTERS:
            committer = asyncio.create_task(self._commit_queued(), name="world boss group commit")
            self._committers.add(committer)
            committer.add_done_callback(self._committers.discard)
        attack_id = await stored
        if attack_id is None:
            raise StaleUpdate(user_id)
        return attack_id

    async def _commit_queued(self) -> None:
        """Commit queued attacks in groups, one transaction a group, while any wait; up to COMMITTERS groups at
        once, a member in one group at a time (their next attack waits for the group before it)."""
        while self._queue:
            group: list[tuple[NewAttack, asyncio.Future[int | None]]] = []
            later: list[tuple[NewAttack, asyncio.Future[int | None]]] = []
            members: set[tuple[int, int, int]] = set()
            for queued in self._queue:
                member = (queued[0].boss_id, queued[0].guild_id, queued[0].user_id)
                busy = member in members or member in self._committing or len(group) >= GROUP_LIMIT
                (later if busy else group).append(queued)
                members.add(member)
            self._queue = later
            if not group:
                return  # each attack left waits for its member's group, whose committer takes it next
            committing = {(a.boss_id, a.guild_id, a.user_id) for a, _ in group}
            self._committing |= committing
            try:
                stored = await self.repo.store_attacks([attack for attack, _ in group])
            except Exception as exc:  # nothing of the group was stored: each attacker hears why
                for _, answer in group:
                    if not answer.done():
                        answer.set_exception(exc)
                continue
            finally:
                self._committing -= committing
            for attack, answer in group:
                if not answer.done():
                    answer.set_result(stored.get((attack.guild_id, attack.user_id)))

    async def credit(self, boss_id: int, attack_id: int) -> AttackResult:
        """Wait until the stored attack is applied; what it did."""
        waiting = self._waiting.get(attack_id)
        if waiting is None:
            waiting = self._waiting[attack_id] = _Waiting(boss_id, asyncio.get_running_loop().create_future())
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="world boss applier")
        return await asyncio.shield(waiting.answer)

    async def settle(self, boss_id: int) -> list[BatchApplied]:
        """Apply every attack pending now (and end the boss if its time has come), whoever holds the lease: what
        a process's poller calls, so attacks whose process died and an end time that passed are not left waiting."""
        batches: list[BatchApplied] = []
        while True:
            batch = await self._apply_batch(boss_id)
            batches.append(batch)
            if batch.count < self.batch_limit:
                return batches

    async def close(self) -> None:
        if self._task is not None:
            # With attacks waiting it is cancelled; without, it is only releasing its leases, and is let finish:
            # a release cancelled midway could leave a lease held until it ran out.
            if self._waiting:
                self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for boss_id in list(self._leases):
            with contextlib.suppress(Exception):
                await self.repo.release_lease(boss_id, self.process)
        self._leases.clear()

    # --- the task --------------------------------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            try:
                while self._waiting:
                    await self._round()
                    if self._waiting:
                        await asyncio.sleep(self.poll_seconds)
            except Exception as exc:  # the database is away: each waiter hears it, the next attack starts afresh
                for waiting in self._waiting.values():
                    if not waiting.answer.done():
                        waiting.answer.set_exception(exc)
                self._waiting.clear()
            for boss_id in list(self._leases):
                with contextlib.suppress(Exception):
                    await self.repo.release_lease(boss_id, self.process)
                self._leases.pop(boss_id, None)  # after: a close that cancels the release releases it again
            if not self._waiting:  # else an attack began to wait while the lease was released
                return

    async def _round(self) -> None:
        for boss_id in {w.boss_id for w in self._waiting.values()}:
            if await self._holds_lease(boss_id):
                await self.settle(boss_id)
        for result in await WorldBossBoards(self.repo.db).results(list(self._waiting)):
            waiting = self._waiting.pop(result.id)
            if not waiting.answer.done():
                waiting.answer.set_result(result)

    async def _apply_batch(self, boss_id: int) -> BatchApplied:
        started = time.perf_counter()
        batch = await self.repo.apply_pending(boss_id, self.clock(), self.batch_limit)
        if self.on_batch is not None and batch.count:
            self.on_batch(batch, time.perf_counter() - started)
        return batch

    async def _holds_lease(self, boss_id: int) -> bool:
        now = time.time()  # leases are the processes' wall clock, whatever the game's clock says
        ours = self._leases.get(boss_id)
        if ours is not None and ours - now > self.lease_seconds / 2:
            return True
        if ours is None:
            # Another process's lease is read rarely; it is taken when free or run out.
            if now - self._lease_checked.get(boss_id, 0.0) < LEASE_CHECK_SECONDS:
                return False
            self._lease_checked[boss_id] = now
            holder, until = await self.repo.lease(boss_id)
            if holder is not None and until >= now:
                return False
        if await self.repo.take_lease(boss_id, self.process, now, self.lease_seconds):
            self._leases[boss_id] = now + self.lease_seconds
            return True
        self._leases.pop(boss_id, None)
        return False


__all__ = ["AttackFigures", "AttackRefused", "WorldBossApplier"]
