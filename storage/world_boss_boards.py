"""What the world boss's commands and announcements read (RULINGS 9): the boards of a server's members and of the
world's servers, applied attacks, past bosses, and which server's announcement is whose to post."""

from __future__ import annotations

from collections.abc import Sequence

from rules.bossfight.world import WorldBossStatus
from storage.protocol import Storage
from storage.times import stored_time
from storage.world_boss_records import (
    AttackResult,
    MemberCredit,
    ServerCredit,
    WorldBoss,
    boss_from_row,
    result_from_row,
)

_APPLIED = "outcome IS NOT NULL"
_CREDITED = "coalesce(sum(credited_micro), 0)"


class WorldBossBoards:
    def __init__(self, db: Storage):
        self.db = db

    async def finished(self, limit: int) -> list[WorldBoss]:
        rows = await self.db.fetch_all(
            "SELECT * FROM world_bosses WHERE status <> ? ORDER BY id DESC LIMIT ?", (WorldBossStatus.LIVE, limit)
        )
        return [boss_from_row(row) for row in rows]

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
        return [result_from_row(row) for row in rows]

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


__all__ = ["WorldBossBoards"]
