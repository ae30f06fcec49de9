"""The world boss's records as the repositories return them (storage.world_boss, storage.world_boss_boards)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.bossfight.models import Boss
from rules.bossfight.world import AttackOutcome, WorldBossStatus, from_micro
from storage.bossfight import PlayerUpdate, StoredPlayer
from storage.protocol import Row
from storage.rows import from_row
from storage.times import unix_time


@dataclass(frozen=True)
class WorldBoss:
    id: int
    boss: Boss
    max_hp_micro: int
    hp_micro: int
    status: WorldBossStatus
    spawned_by: int
    spawned_at: str
    ends_at: str
    cooldown_seconds: int
    final_attack_id: int | None
    ended_at: str | None
    applied: int

    @property
    def hp(self) -> float:
        return from_micro(self.hp_micro)

    @property
    def max_hp(self) -> float:
        return from_micro(self.max_hp_micro)

    @property
    def ends_at_unix(self) -> float:
        return unix_time(self.ends_at)


@dataclass(frozen=True)
class AttackResult:
    """What an applied attack did, as stored."""

    id: int
    guild_id: int
    user_id: int
    damage: float
    outcome: AttackOutcome
    credited_micro: int
    hp_after_micro: int

    @property
    def credited(self) -> float:
        return from_micro(self.credited_micro)


@dataclass(frozen=True)
class BatchApplied:
    """One batch of `apply_pending`."""

    boss: WorldBoss  # after the batch
    count: int
    lag_seconds: float  # from the oldest attack's storing to its application (0: none applied)
    ended_now: bool  # the boss fell, or its end time came, in this batch


@dataclass(frozen=True)
class MemberCredit:
    user_id: int
    credited_micro: int
    attacks: int
    knockouts: int

    @property
    def credited(self) -> float:
        return from_micro(self.credited_micro)


@dataclass(frozen=True)
class ServerCredit:
    guild_id: int
    credited_micro: int
    members: int  # how many of its members attacked

    @property
    def credited(self) -> float:
        return from_micro(self.credited_micro)


@dataclass(frozen=True)
class NewAttack:
    """An attack worked out, to be stored: what the member's standing was, and what the attack does to it."""

    boss_id: int
    guild_id: int
    user_id: int
    player: StoredPlayer
    damage: float
    update: PlayerUpdate


class WorldBossAlreadyLive(Exception):
    def __init__(self, boss: WorldBoss):
        super().__init__(boss.boss.name)
        self.boss = boss


def boss_from_row(row: Row) -> WorldBoss:
    return from_row(
        WorldBoss, row, boss=Boss.model_validate_json(row["boss_json"]), status=WorldBossStatus(row["status"])
    )


def result_from_row(row: Row) -> AttackResult:
    return from_row(AttackResult, row, outcome=AttackOutcome(row["outcome"]))


__all__ = [
    "AttackResult",
    "BatchApplied",
    "MemberCredit",
    "NewAttack",
    "ServerCredit",
    "WorldBoss",
    "WorldBossAlreadyLive",
    "boss_from_row",
    "result_from_row",
]
