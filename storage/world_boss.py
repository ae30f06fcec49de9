"""World boss storage (RULINGS 9, migration 0026): the boss, its attacks, its members' standings, its posts.

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

from rules.bossfight.models import Boss
from rules.bossfight.raid import RaidPlayer
from rules.bossfight.world import PendingAttack, WorldBossStatus, apply_attacks, expired, to_micro
from storage.bossfight import PlayerUpdate, StoredPlayer
from storage.protocol import Storage
from storage.retry import retried_on_conflict
from storage.rows import required
from storage.tables import Kept, Operator, Owned, Table, Tables
from storage.times import stored_time, unix_time
from storage.versioned import StaleUpdate
from storage.world_boss_records import BatchApplied, NewAttack, WorldBoss, WorldBossAlreadyLive, boss_from_row


def _values(columns: int, rows: int) -> str:
    """The placeholders of a multi-row VALUES: `(?, ?), (?, ?)`."""
    row = "(" + ", ".join("?" * columns) + ")"
    return ", ".join([row] * rows)


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
                raise WorldBossAlreadyLive(boss_from_row(live))
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
        return boss_from_row(row)

    async def get(self, boss_id: int) -> WorldBoss | None:
        row = await self.db.fetch_one("SELECT * FROM world_bosses WHERE id = ?", (boss_id,))
        return boss_from_row(row) if row else None

    async def live(self) -> WorldBoss | None:
        row = await self.db.fetch_one("SELECT * FROM world_bosses WHERE status = ?", (WorldBossStatus.LIVE,))
        return boss_from_row(row) if row else None

    async def latest(self) -> WorldBoss | None:
        """The live boss, else the last one to end."""
        row = await self.db.fetch_one("SELECT * FROM world_bosses ORDER BY id DESC LIMIT 1")
        return boss_from_row(row) if row else None

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
        # In one order, so concurrent groups lock their members' rows in the same order (no deadlock).
        attacks = sorted(attacks, key=lambda a: (a.boss_id, a.guild_id, a.user_id))
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
            boss = boss_from_row(row)
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
        return BatchApplied(boss_from_row(after), len(attacks), lag, ended_now)

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


_BOSSES = Table("world_bosses", server=None, members=(Operator("spawned_by"),))

# The world boss is the whole installation's; a server's part of it is its members' attacks and standings and the
# announcements made there. A member who erases their data keeps their credited damage as a former member's, and
# a server erased keeps its attacks as a former server's (RULINGS 9), so the credit still adds up to the HP.
TABLES = Tables(
    "world boss",
    (
        _BOSSES,
        Table(
            "world_boss_attacks",
            "world boss attacks",
            members=(Kept("user_id"),),
            references=("world_bosses",),
            order="id",
            outlives_server=True,
        ),
        Table(
            "world_boss_players",
            "world boss standings",
            members=(Owned("user_id"),),
            references=("world_bosses",),
            order="boss_id",
        ),
        Table("world_boss_posts", references=("world_bosses",)),
    ),
)


__all__ = ["TABLES", "WorldBossRepository"]
