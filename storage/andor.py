"""Andor's Trail storage: characters and fights saved after every click (uploaded monsters are in storage.uploads)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Any

from rules.andor.engine import abandoned, settle, summary
from rules.andor.models import Character, FightState, FightSummary
from rules.contract import Tally
from storage.codec import StateCodec
from storage.protocol import Row, Storage, StorageTransaction
from storage.retry import retried_on_conflict
from storage.rows import from_row, required, utc_now_text
from storage.versioned import StaleUpdate, save_versioned


def _fight_data(state: FightState) -> dict[str, Any]:
    return state.model_dump(mode="json")


FIGHT_STATE = StateCodec("Andor fight", 1, _fight_data, FightState.model_validate)


class FightStatus(StrEnum):
    """A stored fight's status: live on the player's turn, else how it ended (a rules.andor.models.Ending)."""

    LIVE = "live"
    WON = "won"
    LOST = "lost"
    FLED = "fled"
    DRAW = "draw"


@dataclass(frozen=True)
class Fight:
    id: int
    guild_id: int
    channel_id: int
    user_id: int
    seed: int
    version: int
    status: FightStatus
    state: FightState
    xp_change: int | None = None
    level_after: int | None = None
    xp_after: int | None = None
    message_id: int | None = None  # the public message that shows the fight; None before it was posted


@dataclass(frozen=True)
class FightTotals:
    """A member's ended fights in a server: how each ended (won, lost or drawn, or fled), and the monsters they
    killed (at 0 HP in them)."""

    ends: Tally
    fled: int
    kills: int

    @property
    def fights(self) -> int:
        return self.ends.played + self.fled


@dataclass(frozen=True)
class EndedFights:
    """A member's ended fights as stored: each one's status and kills, or, for a fight that ended before kills
    were stored (migration 0013), its encoded state."""

    rows: tuple[tuple[int, FightStatus, int | None, str | None], ...]  # id, status, kills, state

    def totals(self) -> FightTotals:
        """How they ended and the kills (a kill's XP and gold are kept whatever the end, RULINGS 6). Fights from
        before kills were stored are decoded, CPU work: run it in an engine worker."""
        ends = Counter(status for _, status, _, _ in self.rows)
        kills = sum(
            stored if stored is not None else _kills(FIGHT_STATE.from_text(text or "", fight_id)) or 0
            for fight_id, _, stored, text in self.rows
        )
        return FightTotals(
            ends=Tally(wins=ends[FightStatus.WON], losses=ends[FightStatus.LOST], draws=ends[FightStatus.DRAW]),
            fled=ends[FightStatus.FLED],
            kills=kills,
        )


def _kills(state: FightState) -> int | None:
    """The kills of an ended fight, stored with it; None while it goes on."""
    ended = summary(state)
    return None if ended is None else ended.kills


OPEN_PARTY_STATUSES = ("signup", "live")  # storage.andor_party.OPEN_PARTY: a party signing up or fighting


@dataclass(frozen=True)
class Elsewhere:
    """Where a member already fights: a fight alone or a party (its channel and message, when known)."""

    channel_id: int
    message_id: int | None
    party: bool


class InAnotherFight(Exception):
    """The member fights already, alone or in a party (`where`)."""

    def __init__(self, where: Elsewhere):
        super().__init__(where.channel_id)
        self.where = where


class FightAlreadyLive(Exception):
    def __init__(self, fight: Fight):
        super().__init__(fight.id)
        self.fight = fight


# Settles a finished fight: the stored character (None when the member never set one) -> the character
# to store and its XP change.
Settle = Callable[[Character | None], tuple[Character, int]]


def _settle_fled(fled: FightSummary, stored: Character | None) -> tuple[Character, int]:
    return settle(stored or Character(), fled)


def _fight(row: Row) -> Fight:
    return from_row(
        Fight, row, state=FIGHT_STATE.from_text(row["state_json"], row["id"]), status=FightStatus(row["status"])
    )


def _status(state: FightState) -> FightStatus:
    """The stored status of a fight in `state`: live on the player's turn, else how it ended."""
    return FightStatus.LIVE if state.phase == "player" else FightStatus(state.phase)


class AndorRepository:
    def __init__(self, db: Storage):
        self.db = db

    # --- characters --------------------------------------------------------------------------------------

    async def character(self, guild_id: int, user_id: int) -> Character | None:
        row = await self.db.fetch_one(
            "SELECT character_json FROM andor_characters WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return Character.model_validate_json(row["character_json"]) if row else None

    async def save_character(self, guild_id: int, user_id: int, character: Character) -> None:
        async with self.db.transaction() as conn:
            await self.put_character(conn, guild_id, user_id, character)

    async def update_character(
        self, guild_id: int, user_id: int, change: Callable[[Character | None], Character]
    ) -> Character:
        """Read, change and write the character in one transaction, so concurrent changes cannot be lost."""
        async with self.db.transaction() as conn:
            character = change(await self.character_for_update(conn, guild_id, user_id))
            await self.put_character(conn, guild_id, user_id, character)
        return character

    async def delete_character(self, guild_id: int, user_id: int) -> bool:
        async with self.db.transaction() as conn:
            deleted = await conn.execute(
                "DELETE FROM andor_characters WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
            )
            return deleted > 0

    @staticmethod
    async def character_for_update(conn: StorageTransaction, guild_id: int, user_id: int) -> Character | None:
        """The character, for a change written in the same transaction: locked (also while there is none
        yet), so a concurrent change waits and then reads this one's."""
        await conn.lock(f"andor character {guild_id}", user_id)
        row = await conn.fetch_one(
            "SELECT character_json FROM andor_characters WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return Character.model_validate_json(row["character_json"]) if row else None

    @staticmethod
    async def put_character(conn: StorageTransaction, guild_id: int, user_id: int, character: Character) -> None:
        await conn.execute(
            "INSERT INTO andor_characters (guild_id, user_id, character_json) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET character_json = excluded.character_json, "
            "updated_at = excluded.updated_at",
            (guild_id, user_id, character.model_dump_json()),
        )

    # --- fights ------------------------------------------------------------------------------------------

    async def fight(self, fight_id: int) -> Fight | None:
        row = await self.db.fetch_one("SELECT * FROM andor_fights WHERE id = ?", (fight_id,))
        return _fight(row) if row else None

    async def ended_fights(self, guild_id: int, user_id: int) -> EndedFights:
        """The member's ended fights here, as stored (`EndedFights.totals` decodes them)."""
        rows = await self.db.fetch_all(
            "SELECT id, status, kills, CASE WHEN kills IS NULL THEN state_json END AS state_json FROM andor_fights "
            "WHERE guild_id = ? AND user_id = ? AND status <> ? ORDER BY id",
            (guild_id, user_id, FightStatus.LIVE),
        )
        return EndedFights(
            tuple((row["id"], FightStatus(row["status"]), row["kills"], row["state_json"]) for row in rows)
        )

    async def end_channel(self, channel_id: int) -> list[Fight]:
        """The channel was deleted: each live fight there ends as if its player fled (`abandoned`), settled like
        any fled fight. A click saved meanwhile wins the race, and the fight is ended as that click left it."""
        ended: list[Fight] = []
        rows = await self.db.fetch_all(
            "SELECT * FROM andor_fights WHERE channel_id = ? AND status = ? ORDER BY id", (channel_id, FightStatus.LIVE)
        )
        for row in rows:
            fight: Fight | None = _fight(row)
            while fight is not None and fight.status is FightStatus.LIVE:
                state = abandoned(fight.state)
                try:
                    ended.append(await self.update_fight(fight, state, partial(_settle_fled, required(summary(state)))))
                except StaleUpdate:
                    fight = await self.fight(fight.id)
                else:
                    break
        return ended

    @staticmethod
    async def elsewhere(reader: Storage | StorageTransaction, guild_id: int, user_id: int) -> Elsewhere | None:
        """Where the member fights in the server now, alone or in a party; None when nowhere."""
        alone = await reader.fetch_one(
            "SELECT channel_id, message_id FROM andor_fights WHERE guild_id = ? AND user_id = ? AND status = ?",
            (guild_id, user_id, FightStatus.LIVE),
        )
        if alone is not None:
            return Elsewhere(alone["channel_id"], alone["message_id"], party=False)
        party = await reader.fetch_one(
            "SELECT p.channel_id, p.message_id FROM andor_party_members m JOIN andor_parties p ON p.id = m.party_id "
            "WHERE m.guild_id = ? AND m.user_id = ? AND m.in_fight = 1 AND p.status IN (?, ?)",
            (guild_id, user_id, *OPEN_PARTY_STATUSES),
        )
        return None if party is None else Elsewhere(party["channel_id"], party["message_id"], party=True)

    async def live_fight(self, guild_id: int, user_id: int) -> Fight | None:
        row = await self.db.fetch_one(
            "SELECT * FROM andor_fights WHERE guild_id = ? AND user_id = ? AND status = ?",
            (guild_id, user_id, FightStatus.LIVE),
        )
        return _fight(row) if row else None

    @retried_on_conflict
    async def start_fight(
        self, guild_id: int, channel_id: int, user_id: int, seed: int, state: FightState, settle: Settle | None = None
    ) -> Fight:
        """Store a new fight; FightAlreadyLive when the member is already fighting in this guild. A fight the
        monsters' opening turn already ended is stored ended, with `settle` applied in the same transaction."""
        status = _status(state)
        async with self.db.transaction() as conn:
            # The member's starts one at a time (their one live fight is also a unique index).
            await conn.lock(f"andor fights {guild_id}", user_id)
            live = await conn.fetch_one(
                "SELECT * FROM andor_fights WHERE guild_id = ? AND user_id = ? AND status = ?",
                (guild_id, user_id, FightStatus.LIVE),
            )
            if live is not None:
                raise FightAlreadyLive(_fight(live))
            if (where := await self.elsewhere(conn, guild_id, user_id)) is not None:
                raise InAnotherFight(where)  # in a party fight
            row = await conn.fetch_required(
                "INSERT INTO andor_fights (guild_id, channel_id, user_id, seed, status, state_json, ended_at, kills) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    channel_id,
                    user_id,
                    seed,
                    status.value,
                    FIGHT_STATE.to_text(state),
                    None if status == FightStatus.LIVE else utc_now_text(),
                    _kills(state),
                ),
            )
            return await self._settled(conn, row, settle) if status != FightStatus.LIVE and settle else _fight(row)

    async def set_message(self, fight_id: int, channel_id: int, message_id: int) -> None:
        """Record the message that shows the fight now, and its channel (a copy posted again, maybe in another
        channel of the server, replaces the one that was lost)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE andor_fights SET channel_id = ?, message_id = ? WHERE id = ?",
                (channel_id, message_id, fight_id),
            )

    async def update_fight(self, fight: Fight, state: FightState, settle: Settle | None = None) -> Fight:
        """Save the fight's next state if it is still at `fight.version` (else StaleUpdate, nothing changed:
        `storage.versioned.save_versioned`).

        When the state is over, `settle` updates the member's character in the same transaction.
        """
        status = _status(state)
        changes = {
            "state_json": FIGHT_STATE.to_text(state),
            "status": status,
            "ended_at": None if status == FightStatus.LIVE else utc_now_text(),
            "kills": _kills(state),
        }
        async with self.db.transaction() as conn:
            row = await save_versioned(conn, "andor_fights", fight.id, fight.version, changes, status=FightStatus.LIVE)
            return await self._settled(conn, row, settle) if status != FightStatus.LIVE and settle else _fight(row)

    async def _settled(self, conn: StorageTransaction, row: Row, settle: Settle) -> Fight:
        """The ended fight of `row` with `settle` applied to its member's character, within `conn`'s transaction."""
        fight = _fight(row)
        character, xp_change = settle(await self.character_for_update(conn, fight.guild_id, fight.user_id))
        await self.put_character(conn, fight.guild_id, fight.user_id, character)
        return _fight(
            await conn.fetch_required(
                "UPDATE andor_fights SET xp_change = ?, level_after = ?, xp_after = ? WHERE id = ? RETURNING *",
                (xp_change, character.level, character.xp, fight.id),
            )
        )
