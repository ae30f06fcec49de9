"""World boss storage (RULINGS 9, migration 0022): the boss, its attacks, its members' standings, its posts.

The hot path is an append: an attack is one insert into world_boss_attacks (with its member's standing, under a
version check), acknowledged once committed. No attack locks the boss's row; its HP moves only in
`apply_pending`, which takes that row's lock and applies the attacks stored since, in id order, as
`rules.bossfight.world.apply_attacks` says. Which process runs it is a lease on the boss's row
(storage.world_boss_applier); the row lock alone keeps two appliers from applying one attack twice.

An attack is pending until applied (outcome NULL): an attack that commits after a later-numbered one was already
applied is applied in the next batch, so the order of application is the order attacks became stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.bossfight.models import Boss
from rules.bossfight.raid import RaidPlayer
from rules.bossfight.world import (
    AttackOutcome,
    PendingAttack,
    WorldBossStatus,
    apply_attacks,
    expired,
    from_micro,
    to_micro,
)
from storage.bossfight import PlayerUpdate, StoredPlayer
from storage.protocol import Row, Storage
from storage.retry import retried_on_conflict
from storage.rows import from_row, required
from storage.times import stored_time, unix_time
from storage.versioned import StaleUpdate


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


def _boss(row: Row) -> WorldBoss:
    return from_row(
        WorldBoss, row, boss=Boss.model_validate_json(row["boss_json"]), status=WorldBossStatus(row["status"])
    )


def _result(row: Row) -> AttackResult:
    return from_row(AttackResult, row, outcome=AttackOutcome(row["outcome"]))


_APPLIED = "outcome IS NOT NULL"


def _values(columns: int, rows: int) -> str:
    """The placeholders of a multi-row VALUES: `(?, ?), (?, ?)`."""
    row = "(" + ", ".join("?" * columns) + ")"
    return ", ".join([row] * rows)


_CREDITED = "coalesce(sum(credited_micro), 0)"


class WorldBossRepository:
    def __init__(self, db: Storage):
        self.db = db

    # --- the boss ------------------------------------------------------------------------------------------

    @retried_on_conflict
    async def spawn(
        self, boss: Boss, hp: float, *, spawned_by: int, now: float, ends_at: float, cooldown_seconds: int
    ) -> WorldBoss:
        """A new world boss; WorldBossAlreadyLive while one is live (a unique index keeps it one)."""
        async with self.db.transaction() as conn:
            await conn.lock("world boss spawn", 0)
            live = await conn.fetch_one("SELECT * FROM world_bosses WHERE status = ?", (WorldBossStatus.LIVE,))
            if live is not None:
                raise WorldBossAlreadyLive(_boss(live))
            micro = to_micro(hp)
            row = await conn.fetch_required(
                "INSERT INTO world_bosses (boss_json, max_hp_micro, hp_micro, status, spawned_by, spawned_at, "
                "ends_at, cooldown_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    boss.model_dump_json(),
                    micro,
                    micro,
                    WorldBossStatus.LIVE,
                    spawned_by,
                    stored_time(now),
                    stored_time(ends_at),
                    cooldown_seconds,
                ),
            )
        return _boss(row)

    async def get(self, boss_id: int) -> WorldBoss | None:
        row = await self.db.fetch_one("SELECT * FROM world_bosses WHERE id = ?", (boss_id,))
        return _boss(row) if row else None

    async def live(self) -> WorldBoss | None:
        row = await self.db.fetch_one("SELECT * FROM world_bosses WHERE status = ?", (WorldBossStatus.LIVE,))
        return _boss(row) if row else None

    async def latest(self) -> WorldBoss | None:
        """The live boss, else the last one to end."""
        row = await self.db.fetch_one("SELECT * FROM world_bosses ORDER BY id DESC LIMIT 1")
        return _boss(row) if row else None

    async def finished(self, limit: int) -> list[WorldBoss]:
        rows = await self.db.fetch_all(
            "SELECT * FROM world_bosses WHERE status <> ? ORDER BY id DESC LIMIT ?", (WorldBossStatus.LIVE, limit)
        )
        return [_boss(row) for row in rows]

    # --- a member's attack ------------------------------------------------------------------------------------

    async def player(self, boss_id: int, guild_id: int, user_id: int) -> StoredPlayer:
        row = await self.db.fetch_one(
            "SELECT damage_taken, knocked_out, last_attack_at, version FROM world_boss_players "
            "WHERE boss_id = ? AND guild_id = ? AND user_id = ?",
            (boss_id, guild_id, user_id),
        )
        if row is None:
            return StoredPlayer(RaidPlayer())
        at = row["last_attack_at"]
        standing = RaidPlayer(row["damage_taken"], bool(row["knocked_out"]), None if at is None else unix_time(at))
        return StoredPlayer(standing, row["version"])

    async def store_attack(
        self, boss_id: int, guild_id: int, user_id: int, player: StoredPlayer, damage: float, update: PlayerUpdate
    ) -> int:
        """Store one attack (`store_attacks`); its id. StaleUpdate, nothing stored, when the member's standing
        moved on since `player` was read."""
        stored = await self.store_attacks([NewAttack(boss_id, guild_id, user_id, player, damage, update)])
        if not stored:
            raise StaleUpdate(user_id)
        return stored[(guild_id, user_id)]

    async def store_attacks(self, attacks: Sequence[NewAttack]) -> dict[tuple[int, int], int]:
        """Store attacks of different members (a process's group commit) with their members' new standings, in
        one transaction: the ids of the attacks stored, by (guild, member), once committed (acknowledged). A
        member whose standing moved on since it was read (their other attack, a revive) has nothing stored and
        is left out."""
        if not attacks:
            return {}
        async with self.db.transaction() as conn:
            rows = [
                (
                    a.boss_id,
                    a.guild_id,
                    a.user_id,
                    a.player.standing.damage_taken + a.update.deck_damage,
                    a.update.knocked_out,
                    stored_time(a.update.at),
                    a.player.version + 1,
                )
                for a in attacks
            ]
            saved = await conn.fetch_all(
                "INSERT INTO world_boss_players (boss_id, guild_id, user_id, damage_taken, knocked_out, "
                f"last_attack_at, version) VALUES {_values(7, len(rows))} "
                "ON CONFLICT (boss_id, guild_id, user_id) DO UPDATE SET damage_taken = excluded.damage_taken, "
                "knocked_out = excluded.knocked_out, last_attack_at = excluded.last_attack_at, "
                "version = excluded.version WHERE world_boss_players.version + 1 = excluded.version "
                "RETURNING guild_id, user_id",
                [value for row in rows for value in row],
            )
            current = {(row["guild_id"], row["user_id"]) for row in saved}
            kept = [a for a in attacks if (a.guild_id, a.user_id) in current]
            if not kept:
                return {}
            stored = await conn.fetch_all(
                "INSERT INTO world_boss_attacks (boss_id, guild_id, user_id, damage, deck_damage, deck_hp_after, "
                f"knocked_out, stored_at) VALUES {_values(8, len(kept))} RETURNING id, guild_id, user_id",
                [
                    value
                    for a in kept
                    for value in (
                        a.boss_id,
                        a.guild_id,
                        a.user_id,
                        a.damage,
                        a.update.deck_damage,
                        a.update.deck_hp_after,
                        a.update.knocked_out,
                        stored_time(a.update.at),
                    )
                ],
            )
        return {(row["guild_id"], row["user_id"]): int(row["id"]) for row in stored}

    async def results(self, attack_ids: Sequence[int]) -> list[AttackResult]:
        """The attacks of `attack_ids` applied so far."""
        if not attack_ids:
            return []
        marks = ", ".join("?" * len(attack_ids))
        rows = await self.db.fetch_all(
            "SELECT id, guild_id, user_id, damage, outcome, credited_micro, hp_after_micro FROM world_boss_attacks "
            f"WHERE id IN ({marks}) AND {_APPLIED}",
            tuple(attack_ids),
        )
        return [_result(row) for row in rows]

    async def revive(self, boss_id: int, guild_id: int, user_id: int) -> float | None:
        """The member's next attack starts with no damage taken; what they had taken, or None if nothing."""
        async with self.db.transaction() as conn:
            row = await conn.fetch_locked(
                "SELECT damage_taken FROM world_boss_players WHERE boss_id = ? AND guild_id = ? AND user_id = ? "
                "AND damage_taken > 0",
                (boss_id, guild_id, user_id),
            )
            if row is None:
                return None
            await conn.execute(
                "UPDATE world_boss_players SET damage_taken = 0, knocked_out = 0, version = version + 1 "
                "WHERE boss_id = ? AND guild_id = ? AND user_id = ?",
                (boss_id, guild_id, user_id),
            )
            return row["damage_taken"]

    # --- applying attacks ---------------------------------------------------------------------------------

    async def apply_pending(self, boss_id: int, now: float, limit: int) -> BatchApplied:
        """Apply up to `limit` pending attacks in id order under the boss row's lock, and end the boss when its
        end time has come; one transaction."""
        async with self.db.transaction() as conn:
            row = required(await conn.fetch_locked("SELECT * FROM world_bosses WHERE id = ?", (boss_id,)))
            boss = _boss(row)
            pending = await conn.fetch_all(
                "SELECT id, damage, stored_at FROM world_boss_attacks WHERE boss_id = ? AND outcome IS NULL "
                "ORDER BY id LIMIT ?",
                (boss_id, limit),
            )
            attacks = [PendingAttack(p["id"], p["damage"], unix_time(p["stored_at"])) for p in pending]
            done = apply_attacks(boss.hp_micro, boss.status, boss.ends_at_unix, attacks)
            status = done.status
            if len(attacks) < limit and expired(status, boss.ends_at_unix, now):
                status = WorldBossStatus.EXPIRED  # every attack stored before now is applied
            if not attacks and status is boss.status:
                return BatchApplied(boss, 0, 0.0, ended_now=False)
            await conn.execute_many(
                "UPDATE world_boss_attacks SET outcome = ?, credited_micro = ?, hp_after_micro = ? WHERE id = ?",
                [(a.outcome, a.credited_micro, a.hp_after_micro, a.id) for a in done.attacks],
            )
            ended_now = status is not WorldBossStatus.LIVE and boss.status is WorldBossStatus.LIVE
            after = await conn.fetch_required(
                "UPDATE world_bosses SET hp_micro = ?, status = ?, final_attack_id = coalesce(final_attack_id, ?), "
                "ended_at = coalesce(ended_at, ?), applied = applied + ? WHERE id = ? RETURNING *",
                (
                    done.hp_micro,
                    status,
                    done.final_attack_id,
                    stored_time(now) if ended_now else None,
                    len(attacks),
                    boss_id,
                ),
            )
        lag = max(0.0, now - attacks[0].at) if attacks else 0.0
        return BatchApplied(_boss(after), len(attacks), lag, ended_now)

    async def take_lease(self, boss_id: int, process: str, now: float, seconds: float) -> bool:
        """Become (or stay) the process that applies the boss's attacks until now + seconds, unless another
        process's lease runs still."""
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE world_bosses SET applier = ?, lease_until = ? WHERE id = ? AND "
                "(applier = ? OR applier IS NULL OR lease_until < ?)",
                (process, stored_time(now + seconds), boss_id, process, stored_time(now)),
            )
        return changed == 1

    async def release_lease(self, boss_id: int, process: str) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE world_bosses SET applier = NULL, lease_until = NULL WHERE id = ? AND applier = ?",
                (boss_id, process),
            )

    async def lease(self, boss_id: int) -> tuple[str | None, float]:
        """Who holds the boss's lease, and until when (0: nobody)."""
        row = required(
            await self.db.fetch_one("SELECT applier, lease_until FROM world_bosses WHERE id = ?", (boss_id,))
        )
        until = row["lease_until"]
        return row["applier"], 0.0 if until is None else unix_time(until)

    async def pending_count(self, boss_id: int) -> int:
        row = required(
            await self.db.fetch_one(
                "SELECT count(*) AS n FROM world_boss_attacks WHERE boss_id = ? AND outcome IS NULL", (boss_id,)
            )
        )
        return int(row["n"])

    # --- boards -------------------------------------------------------------------------------------------

    async def server_board(self, boss_id: int, guild_id: int) -> list[MemberCredit]:
        """The server's members by credited damage (a tie: who attacked first)."""
        rows = await self.db.fetch_all(
            f"SELECT user_id, {_CREDITED} AS credited, count(*) AS attacks, "
            "coalesce(sum(knocked_out), 0) AS knockouts FROM world_boss_attacks "
            f"WHERE boss_id = ? AND guild_id = ? AND {_APPLIED} GROUP BY user_id ORDER BY credited DESC, min(id)",
            (boss_id, guild_id),
        )
        return [MemberCredit(r["user_id"], int(r["credited"]), r["attacks"], int(r["knockouts"])) for r in rows]

    async def world_board(self, boss_id: int) -> list[ServerCredit]:
        """Every server that attacked, by its members' credited damage (a tie: who attacked first)."""
        rows = await self.db.fetch_all(
            f"SELECT guild_id, {_CREDITED} AS credited, count(DISTINCT user_id) AS members FROM world_boss_attacks "
            f"WHERE boss_id = ? AND {_APPLIED} GROUP BY guild_id ORDER BY credited DESC, min(id)",
            (boss_id,),
        )
        return [ServerCredit(r["guild_id"], int(r["credited"]), r["members"]) for r in rows]

    async def attack(self, attack_id: int) -> AttackResult | None:
        """An applied attack (the final blow, say)."""
        (found,) = await self.results([attack_id]) or [None]
        return found

    # --- taking part and posts ------------------------------------------------------------------------------

    async def claim_post(self, boss_id: int, guild_id: int, kind: str, channel_id: int, now: float) -> bool:
        """True for the one process that is to post the boss's `kind` ('spawn', 'end') in the server."""
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                "INSERT INTO world_boss_posts (boss_id, guild_id, kind, channel_id, posted_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (boss_id, guild_id, kind) DO NOTHING",
                (boss_id, guild_id, kind, channel_id, stored_time(now)),
            )
        return changed == 1

    async def posted(self, boss_id: int, kind: str) -> set[int]:
        """The servers where the boss's `kind` was posted."""
        rows = await self.db.fetch_all(
            "SELECT guild_id FROM world_boss_posts WHERE boss_id = ? AND kind = ?", (boss_id, kind)
        )
        return {row["guild_id"] for row in rows}

    async def taking_part(self) -> dict[int, int]:
        """Every server taking part: its world-boss channel, by server."""
        rows = await self.db.fetch_all(
            "SELECT guild_id, world_boss_channel_id FROM guild_settings WHERE world_boss_channel_id IS NOT NULL"
        )
        return {row["guild_id"]: row["world_boss_channel_id"] for row in rows}


__all__ = [
    "AttackResult",
    "BatchApplied",
    "MemberCredit",
    "NewAttack",
    "ServerCredit",
    "WorldBoss",
    "WorldBossAlreadyLive",
    "WorldBossRepository",
]
