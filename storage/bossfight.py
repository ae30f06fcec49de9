"""Boss raid storage: saved decks, raids and attacks (uploaded bosses are in storage.uploads)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.bossfight.models import Boss, hp_after
from storage.database import Database, required


@dataclass(frozen=True)
class SavedDeck:
    csv_text: str
    file_name: str
    saved_at: str


@dataclass(frozen=True)
class Raid:
    id: int
    guild_id: int
    channel_id: int
    boss: Boss
    max_hp: float
    hp: float
    status: str
    spawned_by: int


@dataclass(frozen=True)
class AttackRecord:
    """What one attack did to the raid, as stored."""

    raid: Raid  # after the attack
    hp_before: float  # the boss's HP when the attack landed (others' attacks may have landed since it was read)
    damage: float
    defeated_now: bool  # this attack brought the boss to 0


@dataclass(frozen=True)
class DamageTotal:
    user_id: int
    damage: float
    attacks: int


class RaidNotLive(Exception):
    """The channel has no live boss (never spawned, or it fell meanwhile)."""


class RaidAlreadyLive(Exception):
    def __init__(self, raid: Raid):
        super().__init__(raid.boss.name)
        self.raid = raid


def _raid(row) -> Raid:
    return Raid(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        boss=Boss.model_validate_json(row["boss_json"]),
        max_hp=row["max_hp"],
        hp=row["hp"],
        status=row["status"],
        spawned_by=row["spawned_by"],
    )


class BossfightRepository:
    def __init__(self, db: Database):
        self.db = db

    # --- saved decks -----------------------------------------------------------------------------------

    async def save_deck(self, guild_id: int, user_id: int, csv_text: str, file_name: str) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO bossfight_decks (guild_id, user_id, csv_text, file_name) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id, user_id) DO UPDATE SET csv_text = excluded.csv_text, "
                "file_name = excluded.file_name, saved_at = excluded.saved_at",
                (guild_id, user_id, csv_text, file_name),
            )

    async def saved_deck(self, guild_id: int, user_id: int) -> SavedDeck | None:
        row = await self.db.fetch_one(
            "SELECT csv_text, file_name, saved_at FROM bossfight_decks WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return SavedDeck(row["csv_text"], row["file_name"], row["saved_at"]) if row else None

    # --- raids ---------------------------------------------------------------------------------------

    async def live_raid(self, channel_id: int) -> Raid | None:
        row = await self.db.fetch_one(
            "SELECT * FROM bossfight_raids WHERE channel_id = ? AND status = 'live'", (channel_id,)
        )
        return _raid(row) if row else None

    async def spawn(self, guild_id: int, channel_id: int, boss: Boss, spawned_by: int, *, replace: bool) -> Raid:
        """Start a raid; a live one in the channel is replaced only when asked, else RaidAlreadyLive."""
        async with self.db.transaction() as conn:
            async with conn.execute(
                "SELECT * FROM bossfight_raids WHERE channel_id = ? AND status = 'live'", (channel_id,)
            ) as cursor:
                live = await cursor.fetchone()
            if live is not None:
                if not replace:
                    raise RaidAlreadyLive(_raid(live))
                await conn.execute(
                    "UPDATE bossfight_raids SET status = 'replaced', "
                    "ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                    (live["id"],),
                )
            async with conn.execute(
                "INSERT INTO bossfight_raids (guild_id, channel_id, boss_json, max_hp, hp, status, spawned_by) "
                "VALUES (?, ?, ?, ?, ?, 'live', ?) RETURNING *",
                (guild_id, channel_id, boss.model_dump_json(), boss.health, boss.health, spawned_by),
            ) as cursor:
                return _raid(await cursor.fetchone())

    async def record_attack(self, channel_id: int, user_id: int, damage: float, deck_hp_after: float) -> AttackRecord:
        """Subtract `damage` from the live boss and log the attack, atomically.

        Concurrent attacks each subtract from the HP as it stands when their transaction runs, so all count.
        """
        async with self.db.transaction() as conn:
            async with conn.execute(
                "SELECT id, hp FROM bossfight_raids WHERE channel_id = ? AND status = 'live'", (channel_id,)
            ) as cursor:
                live = await cursor.fetchone()
            if live is None:
                raise RaidNotLive()
            hp = max(0.0, hp_after(live["hp"], damage))
            async with conn.execute(
                "UPDATE bossfight_raids SET hp = ? WHERE id = ? RETURNING *", (hp, live["id"])
            ) as cursor:
                row = required(await cursor.fetchone())
            defeated_now = row["hp"] <= 0
            if defeated_now:
                await conn.execute(
                    "UPDATE bossfight_raids SET status = 'defeated', "
                    "ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                    (row["id"],),
                )
            await conn.execute(
                "INSERT INTO bossfight_attacks (raid_id, user_id, damage, deck_hp_after, boss_hp_after) "
                "VALUES (?, ?, ?, ?, ?)",
                (row["id"], user_id, damage, deck_hp_after, row["hp"]),
            )
        raid = _raid(row)
        if defeated_now:
            raid = replace(raid, status="defeated")
        return AttackRecord(raid=raid, hp_before=live["hp"], damage=damage, defeated_now=defeated_now)

    async def leaderboard(self, raid_id: int) -> list[DamageTotal]:
        rows = await self.db.fetch_all(
            "SELECT user_id, sum(damage) AS damage, count(*) AS attacks FROM bossfight_attacks "
            "WHERE raid_id = ? GROUP BY user_id ORDER BY damage DESC, min(id)",
            (raid_id,),
        )
        return [DamageTotal(r["user_id"], r["damage"], r["attacks"]) for r in rows]
