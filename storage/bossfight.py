"""Boss raid storage: saved decks, raids and attacks (uploaded bosses are in storage.uploads)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import aiosqlite

from rules.bossfight.models import Boss, hp_after
from rules.bossfight.raid import RaidPlayer
from storage.database import StaleUpdate, Storage, from_row, retried_on_conflict, utc_now_text


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
    cooldown_seconds: int = 0


@dataclass(frozen=True)
class StoredPlayer:
    """A player's standing in a raid as stored, with the version an update must still find."""

    standing: RaidPlayer
    version: int = 0  # 0: no row yet


@dataclass(frozen=True)
class PlayerUpdate:
    """What one attack does to its player, worked out by the engine."""

    deck_damage: float
    deck_hp_after: float
    knocked_out: bool
    at: float  # unix seconds


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
    damage: float  # dealt to the boss
    attacks: int
    taken: float  # dealt by the boss since the raid began or the last revive
    knocked_out: bool


class RaidNotLive(Exception):
    """The channel has no live boss (never spawned, or it fell meanwhile)."""


class RaidAlreadyLive(Exception):
    def __init__(self, raid: Raid):
        super().__init__(raid.boss.name)
        self.raid = raid


def _raid(row: aiosqlite.Row) -> Raid:
    return from_row(Raid, row, boss=Boss.model_validate_json(row["boss_json"]))


def _player(row: aiosqlite.Row) -> StoredPlayer:
    standing = RaidPlayer(row["damage_taken"], bool(row["knocked_out"]), row["last_attack_at"])
    return StoredPlayer(standing, row["version"])


class BossfightRepository:
    def __init__(self, db: Storage):
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

    @retried_on_conflict
    async def spawn(
        self, guild_id: int, channel_id: int, boss: Boss, spawned_by: int, *, replace: bool, cooldown_seconds: int = 0
    ) -> Raid:
        """Start a raid; a live one in the channel is replaced only when asked, else RaidAlreadyLive."""
        async with self.db.transaction() as conn:
            # The channel's spawns one at a time (its one live raid is also a unique index).
            await conn.lock("bossfight channel", channel_id)
            live = await conn.fetch_one(
                "SELECT * FROM bossfight_raids WHERE channel_id = ? AND status = 'live'", (channel_id,)
            )
            if live is not None:
                if not replace:
                    raise RaidAlreadyLive(_raid(live))
                await conn.execute(
                    "UPDATE bossfight_raids SET status = 'replaced', ended_at = ? WHERE id = ? AND status = 'live'",
                    (utc_now_text(), live["id"]),
                )
            return _raid(
                await conn.fetch_required(
                    "INSERT INTO bossfight_raids (guild_id, channel_id, boss_json, max_hp, hp, status, spawned_by, "
                    "cooldown_seconds) VALUES (?, ?, ?, ?, ?, 'live', ?, ?) RETURNING *",
                    (
                        guild_id,
                        channel_id,
                        boss.model_dump_json(),
                        boss.health,
                        boss.health,
                        spawned_by,
                        cooldown_seconds,
                    ),
                )
            )

    async def player(self, raid_id: int, user_id: int) -> StoredPlayer:
        row = await self.db.fetch_one(
            "SELECT * FROM bossfight_players WHERE raid_id = ? AND user_id = ?", (raid_id, user_id)
        )
        return _player(row) if row else StoredPlayer(RaidPlayer())

    async def record_attack(
        self, raid_id: int, user_id: int, player: StoredPlayer, damage: float, update: PlayerUpdate
    ) -> AttackRecord:
        """Subtract `damage` from the live boss, apply `update` to the player and log the attack, atomically.

        Concurrent attacks each subtract from the boss's HP as it stands when their transaction runs, so all
        count. The player's row must still be at `player.version` (else StaleUpdate, nothing changed): the
        update was worked out from that standing.
        """
        async with self.db.transaction() as conn:
            # Locked: a concurrent attack waits here until this one's HP is committed, then subtracts from it.
            live = await conn.fetch_locked(
                "SELECT id, hp FROM bossfight_raids WHERE id = ? AND status = 'live'", (raid_id,)
            )
            if live is None:
                raise RaidNotLive()
            taken = player.standing.damage_taken + update.deck_damage
            saved = await conn.fetch_one(
                "INSERT INTO bossfight_players (raid_id, user_id, damage_taken, knocked_out, last_attack_at, version) "
                "VALUES (?, ?, ?, ?, ?, 1) ON CONFLICT (raid_id, user_id) DO UPDATE SET "
                "damage_taken = excluded.damage_taken, knocked_out = excluded.knocked_out, "
                "last_attack_at = excluded.last_attack_at, version = bossfight_players.version + 1 "
                "WHERE bossfight_players.version = ? RETURNING version",
                (raid_id, user_id, taken, update.knocked_out, update.at, player.version),
            )
            if saved is None:
                raise StaleUpdate(user_id)  # rolls the transaction back
            hp = max(0.0, hp_after(live["hp"], damage))
            row = await conn.fetch_required("UPDATE bossfight_raids SET hp = ? WHERE id = ? RETURNING *", (hp, raid_id))
            defeated_now = row["hp"] <= 0
            if defeated_now:
                await conn.execute(
                    "UPDATE bossfight_raids SET status = 'defeated', ended_at = ? WHERE id = ?",
                    (utc_now_text(), raid_id),
                )
            await conn.execute(
                "INSERT INTO bossfight_attacks (raid_id, user_id, damage, deck_damage, deck_hp_after, boss_hp_after) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (raid_id, user_id, damage, update.deck_damage, update.deck_hp_after, row["hp"]),
            )
        raid = _raid(row)
        if defeated_now:
            raid = replace(raid, status="defeated")
        return AttackRecord(raid=raid, hp_before=live["hp"], damage=damage, defeated_now=defeated_now)

    async def revive(self, raid_id: int, user_id: int) -> float | None:
        """Back to no damage taken; the damage the player had taken, or None when they had taken none."""
        async with self.db.transaction() as conn:
            row = await conn.fetch_locked(
                "SELECT damage_taken FROM bossfight_players WHERE raid_id = ? AND user_id = ? AND damage_taken > 0",
                (raid_id, user_id),
            )
            if row is None:
                return None
            await conn.execute(
                "UPDATE bossfight_players SET damage_taken = 0, knocked_out = 0, version = version + 1 "
                "WHERE raid_id = ? AND user_id = ?",
                (raid_id, user_id),
            )
            return row["damage_taken"]

    async def leaderboard(self, raid_id: int) -> list[DamageTotal]:
        rows = await self.db.fetch_all(
            "SELECT a.user_id, sum(a.damage) AS damage, count(*) AS attacks, "
            "coalesce(p.damage_taken, 0) AS taken, coalesce(p.knocked_out, 0) AS knocked_out "
            "FROM bossfight_attacks AS a LEFT JOIN bossfight_players AS p "
            "ON p.raid_id = a.raid_id AND p.user_id = a.user_id "
            "WHERE a.raid_id = ? GROUP BY a.user_id, p.damage_taken, p.knocked_out ORDER BY damage DESC, min(a.id)",
            (raid_id,),
        )
        return [DamageTotal(r["user_id"], r["damage"], r["attacks"], r["taken"], bool(r["knocked_out"])) for r in rows]
