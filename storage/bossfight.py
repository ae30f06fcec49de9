"""Boss raid storage: saved decks, raids and attacks (uploaded bosses are in storage.uploads).

A raid's attacks are its record (RULINGS 7): each keeps its damage, the part the boss's HP absorbed
(credited), the boss's damage to the deck and whether it knocked its player out. Leaderboards, the final
blow and a channel's history are read from them, and they stay when the raid ends. A player's row
(bossfight_players) is only what their next attack starts from, which a revive resets.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.bossfight.models import Boss, boss_hp_after, credited_damage
from rules.bossfight.raid import RaidEnd, RaidOutcome, RaidPlayer, raid_outcome
from storage.protocol import Row, Storage
from storage.retry import retried_on_conflict
from storage.rows import from_row, required, utc_now_text
from storage.tables import InPlay, InWorker, Kept, Owned, Parent, Table, Tables
from storage.times import stored_time, unix_time
from storage.versioned import StaleUpdate


@dataclass(frozen=True)
class SavedDeck:
    csv_text: str
    file_name: str
    saved_at: str


class RaidStatus(StrEnum):
    LIVE = "live"
    DEFEATED = "defeated"  # the boss fell
    REPLACED = "replaced"  # a GM spawned another boss in the channel first
    CLOSED = "closed"  # its channel was deleted before the boss fell (kept, with its attacks)


@dataclass(frozen=True)
class Raid:
    id: int
    guild_id: int
    channel_id: int
    boss: Boss
    max_hp: float
    hp: float
    status: RaidStatus
    spawned_by: int
    cooldown_seconds: int = 0
    spawned_at: str = ""  # utc_now_text's format
    ended_at: str | None = None

    def outcome(self) -> RaidOutcome | None:
        """None while the raid is live; else the contract's outcome: the players won if the boss fell."""
        return None if self.status is RaidStatus.LIVE else raid_outcome(RaidEnd(self.status.value))


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
class LandedAttack:
    """What one attack did to the raid, as stored."""

    raid: Raid  # after the attack
    hp_before: float  # the boss's HP when the attack landed (others' attacks may have landed since it was read)
    damage: float
    credited: float  # the HP `damage` removed from the boss (RULINGS 8)
    defeated_now: bool  # this attack brought the boss to 0

    @property
    def overkill(self) -> float:
        return max(0.0, self.damage - self.credited)


@dataclass(frozen=True)
class DamageTotal:
    """One player's record in a raid (RULINGS 7), and what their next attack starts from."""

    user_id: int
    damage: float  # credited: what the boss's HP absorbed of their attacks
    overkill: float  # dealt beyond the HP the boss had left, never credited
    attacks: int
    taken: float  # dealt by the boss over the whole raid, revives or not
    knockouts: int  # how often the boss knocked them out
    taken_now: float  # what their next attack starts from: the damage taken since the last revive
    out_now: bool  # knocked out and not revived since


@dataclass(frozen=True)
class FinishedRaid:
    """A finished raid as its channel's history shows it."""

    raid: Raid
    totals: list[DamageTotal]
    final_blow_by: int | None  # None: the raid was replaced before the boss fell


@dataclass(frozen=True)
class RaidTotals:
    """A member's totals over every raid of a server (the raids' leaderboards added up)."""

    damage: float  # credited
    attacks: int
    raids: int  # raids they attacked in
    knockouts: int
    bosses_felled: int  # final blows

    @property
    def empty(self) -> bool:
        """No attack yet: the raids on a member's profile say so."""
        return self.attacks == 0


class RaidNotLive(Exception):
    """The channel has no live boss (never spawned, or it fell meanwhile)."""


class RaidAlreadyLive(Exception):
    def __init__(self, raid: Raid):
        super().__init__(raid.boss.name)
        self.raid = raid


def _raid(row: Row) -> Raid:
    return from_row(Raid, row, boss=Boss.model_validate_json(row["boss_json"]), status=RaidStatus(row["status"]))


def _player(row: Row) -> StoredPlayer:
    last_attack_at = row["last_attack_at"]
    standing = RaidPlayer(
        row["damage_taken"], bool(row["knocked_out"]), None if last_attack_at is None else unix_time(last_attack_at)
    )
    return StoredPlayer(standing, row["version"])


# A raid's final blow: its first attack that left the boss at 0 HP, in a raid whose boss was defeated.
_LEFT_AT_0 = "boss_hp_after <= 0"


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
            "SELECT * FROM bossfight_raids WHERE channel_id = ? AND status = ?", (channel_id, RaidStatus.LIVE)
        )
        return _raid(row) if row else None

    async def end_channel(self, channel_id: int) -> list[Raid]:
        """The channel was deleted: its live raid (if any) is closed and kept, with its attacks. Attacks take the
        raid's row lock and find it no longer live."""
        async with self.db.transaction() as conn:
            await conn.lock("bossfight channel", channel_id)
            rows = await conn.fetch_all(
                "UPDATE bossfight_raids SET status = ?, ended_at = ? WHERE channel_id = ? AND status = ? RETURNING *",
                (RaidStatus.CLOSED, utc_now_text(), channel_id, RaidStatus.LIVE),
            )
        return [_raid(row) for row in rows]

    @retried_on_conflict
    async def spawn(
        self, guild_id: int, channel_id: int, boss: Boss, spawned_by: int, *, replace: bool, cooldown_seconds: int = 0
    ) -> Raid:
        """Start a raid; a live one in the channel is replaced only when asked, else RaidAlreadyLive."""
        async with self.db.transaction() as conn:
            # The channel's spawns one at a time (its one live raid is also a unique index).
            await conn.lock("bossfight channel", channel_id)
            live = await conn.fetch_one(
                "SELECT * FROM bossfight_raids WHERE channel_id = ? AND status = ?", (channel_id, RaidStatus.LIVE)
            )
            if live is not None:
                if not replace:
                    raise RaidAlreadyLive(_raid(live))
                await conn.execute(
                    "UPDATE bossfight_raids SET status = ?, ended_at = ? WHERE id = ? AND status = ?",
                    (RaidStatus.REPLACED, utc_now_text(), live["id"], RaidStatus.LIVE),
                )
            return _raid(
                await conn.fetch_required(
                    "INSERT INTO bossfight_raids (guild_id, channel_id, boss_json, max_hp, hp, status, spawned_by, "
                    "cooldown_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                    (
                        guild_id,
                        channel_id,
                        boss.model_dump_json(),
                        boss.health,
                        boss.health,
                        RaidStatus.LIVE,
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
    ) -> LandedAttack:
        """Subtract `damage` from the live boss, apply `update` to the player and log the attack, atomically.

        Concurrent attacks each subtract from the boss's HP as it stands when their transaction runs, so all
        count. The player's row must still be at `player.version` (else StaleUpdate, nothing changed): the
        update was worked out from that standing.
        """
        async with self.db.transaction() as conn:
            # Locked: a concurrent attack waits here until this one's HP is committed, then subtracts from it.
            live = await conn.fetch_locked(
                "SELECT id, hp FROM bossfight_raids WHERE id = ? AND status = ?", (raid_id, RaidStatus.LIVE)
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
                (raid_id, user_id, taken, update.knocked_out, stored_time(update.at), player.version),
            )
            if saved is None:
                raise StaleUpdate(user_id)  # rolls the transaction back
            hp = boss_hp_after(live["hp"], damage)
            credited = credited_damage(live["hp"], damage)
            defeated_now = hp <= 0
            row = await conn.fetch_required(
                "UPDATE bossfight_raids SET hp = ?, status = ?, ended_at = ? WHERE id = ? RETURNING *",
                (
                    hp,
                    RaidStatus.DEFEATED if defeated_now else RaidStatus.LIVE,
                    utc_now_text() if defeated_now else None,
                    raid_id,
                ),
            )
            await conn.execute(
                "INSERT INTO bossfight_attacks (raid_id, user_id, damage, credited, deck_damage, deck_hp_after, "
                "boss_hp_after, knocked_out) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    raid_id,
                    user_id,
                    damage,
                    credited,
                    update.deck_damage,
                    update.deck_hp_after,
                    row["hp"],
                    update.knocked_out,
                ),
            )
        return LandedAttack(
            raid=_raid(row), hp_before=live["hp"], damage=damage, credited=credited, defeated_now=defeated_now
        )

    async def revive(self, raid_id: int, user_id: int) -> float | None:
        """The player's next attack starts with no damage taken (the raid's record keeps what they took); the
        damage they had taken since they joined or were last revived, or None when that was none."""
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
        """Every attacker's record in the raid, most credited damage first (a tie: who attacked first)."""
        rows = await self.db.fetch_all(
            "SELECT a.user_id, sum(a.credited) AS damage, sum(a.damage - a.credited) AS overkill, "
            "count(*) AS attacks, sum(a.deck_damage) AS taken, sum(a.knocked_out) AS knockouts, "
            "coalesce(p.damage_taken, 0) AS taken_now, coalesce(p.knocked_out, 0) AS out_now "
            "FROM bossfight_attacks AS a LEFT JOIN bossfight_players AS p "
            "ON p.raid_id = a.raid_id AND p.user_id = a.user_id "
            "WHERE a.raid_id = ? GROUP BY a.user_id, p.damage_taken, p.knocked_out ORDER BY damage DESC, min(a.id)",
            (raid_id,),
        )
        return [
            DamageTotal(
                user_id=r["user_id"],
                damage=r["damage"],
                overkill=max(0.0, r["overkill"]),
                attacks=r["attacks"],
                taken=r["taken"],
                knockouts=int(r["knockouts"]),  # PostgreSQL sums integers as numeric
                taken_now=r["taken_now"],
                out_now=bool(r["out_now"]),
            )
            for r in rows
        ]

    # --- the channel's history -------------------------------------------------------------------------

    async def finished_raids(self, channel_id: int, limit: int) -> list[Raid]:
        """The channel's ended raids (defeated or replaced), newest first."""
        rows = await self.db.fetch_all(
            "SELECT * FROM bossfight_raids WHERE channel_id = ? AND status <> ? ORDER BY id DESC LIMIT ?",
            (channel_id, RaidStatus.LIVE, limit),
        )
        return [_raid(row) for row in rows]

    async def finished_raid_count(self, channel_id: int) -> int:
        row = await self.db.fetch_one(
            "SELECT count(*) AS n FROM bossfight_raids WHERE channel_id = ? AND status <> ?",
            (channel_id, RaidStatus.LIVE),
        )
        return int(row["n"]) if row else 0

    async def finished_raid(self, channel_id: int, raid_id: int) -> FinishedRaid | None:
        """A finished raid of this channel with its leaderboard, or None (no such raid here, or still live)."""
        row = await self.db.fetch_one(
            "SELECT * FROM bossfight_raids WHERE id = ? AND channel_id = ? AND status <> ?",
            (raid_id, channel_id, RaidStatus.LIVE),
        )
        if row is None:
            return None
        raid = _raid(row)
        final = await self.db.fetch_one(
            f"SELECT user_id FROM bossfight_attacks WHERE raid_id = ? AND {_LEFT_AT_0} ORDER BY id LIMIT 1", (raid_id,)
        )
        final_blow_by = final["user_id"] if final and raid.status is RaidStatus.DEFEATED else None
        return FinishedRaid(raid, await self.leaderboard(raid_id), final_blow_by)

    # --- a member across the server's raids --------------------------------------------------------------

    async def member_totals(self, guild_id: int, user_id: int) -> RaidTotals:
        """The member's attacks over every raid of the server, live or ended, as each raid's leaderboard counts
        them, and the final blows they struck (as each raid's history names them)."""
        row = required(
            await self.db.fetch_one(
                "SELECT coalesce(sum(a.credited), 0) AS damage, count(*) AS attacks, "
                "count(DISTINCT a.raid_id) AS raids, coalesce(sum(a.knocked_out), 0) AS knockouts "
                "FROM bossfight_attacks AS a JOIN bossfight_raids AS r ON r.id = a.raid_id "
                "WHERE r.guild_id = ? AND a.user_id = ?",
                (guild_id, user_id),
            )
        )
        felled = required(
            await self.db.fetch_one(
                "SELECT count(*) AS n FROM bossfight_attacks AS a JOIN bossfight_raids AS r ON r.id = a.raid_id "
                "WHERE r.guild_id = ? AND r.status = ? AND a.user_id = ? AND a.id = "
                f"(SELECT min(f.id) FROM bossfight_attacks AS f WHERE f.raid_id = a.raid_id AND f.{_LEFT_AT_0})",
                (guild_id, RaidStatus.DEFEATED, user_id),
            )
        )
        return RaidTotals(
            damage=row["damage"],
            attacks=row["attacks"],
            raids=row["raids"],
            knockouts=int(row["knockouts"]),  # PostgreSQL sums integers as numeric
            bosses_felled=felled["n"],
        )


async def _profile(db: Storage, guild_id: int, user_id: int, in_worker: InWorker) -> RaidTotals:
    return await BossfightRepository(db).member_totals(guild_id, user_id)


# A raid's attacks are its record and add up to the boss's HP: they stay, with a member who erased their data as
# a former member, as does a raid they spawned; their saved deck and standing in a raid are theirs alone.
_RAIDS = Table(
    "bossfight_raids",
    "raids spawned",
    members=(Kept("spawned_by"),),
    order="id",
    in_play=InPlay("status = ?", (RaidStatus.LIVE,)),
)
TABLES = Tables(
    "boss raids",
    (
        Table("bossfight_decks", "saved raid deck", members=(Owned("user_id"),)),
        Table(
            "bossfight_attacks",
            "raid attacks",
            server=None,
            parent=Parent("raid_id", _RAIDS),
            members=(Kept("user_id"),),
            order="id",
        ),
        Table(
            "bossfight_players",
            "raid standings",
            server=None,
            parent=Parent("raid_id", _RAIDS),
            members=(Owned("user_id"),),
            order="raid_id",
        ),
        _RAIDS,
    ),
    profile=_profile,
)
