"""Andor's Trail storage: characters and fights saved after every click (uploaded monsters are in storage.uploads)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import aiosqlite

from rules.andor.models import Character, FightState
from storage.database import StaleUpdate, Storage, StorageTransaction, from_row, retried_on_conflict, utc_now_text


@dataclass(frozen=True)
class Fight:
    id: int
    guild_id: int
    channel_id: int
    user_id: int
    seed: int
    version: int
    status: str  # live, won, lost or fled (a rules.andor.models.Ending once over)
    state: FightState
    xp_change: int | None = None
    level_after: int | None = None
    xp_after: int | None = None


class FightAlreadyLive(Exception):
    def __init__(self, fight: Fight):
        super().__init__(fight.id)
        self.fight = fight


# Settles a finished fight: the stored character (None when the member never set one) -> the character
# to store and its XP change.
Settle = Callable[[Character | None], tuple[Character, int]]


def _state(row: aiosqlite.Row) -> FightState:
    state = FightState.model_validate_json(row["state_json"])
    if "seed" not in state.model_fields_set:  # saved before the state carried its seed, moves and target
        state.seed, state.moves, state.target = row["seed"], row["version"], row["target"]
    return state


def _fight(row: aiosqlite.Row) -> Fight:
    return from_row(Fight, row, state=_state(row))


def _status(state: FightState) -> str:
    """The stored status of a fight in `state`: "live" on the player's turn, else how it ended."""
    return "live" if state.phase == "player" else state.phase


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
            await self._put_character(conn, guild_id, user_id, character)

    async def update_character(
        self, guild_id: int, user_id: int, change: Callable[[Character | None], Character]
    ) -> Character:
        """Read, change and write the character in one transaction, so concurrent changes cannot be lost."""
        async with self.db.transaction() as conn:
            character = change(await self._get_character(conn, guild_id, user_id))
            await self._put_character(conn, guild_id, user_id, character)
        return character

    async def delete_character(self, guild_id: int, user_id: int) -> bool:
        async with self.db.transaction() as conn:
            deleted = await conn.execute(
                "DELETE FROM andor_characters WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
            )
            return deleted > 0

    @staticmethod
    async def _get_character(conn: StorageTransaction, guild_id: int, user_id: int) -> Character | None:
        """The character, for a change written in the same transaction: locked (also while there is none
        yet), so a concurrent change waits and then reads this one's."""
        await conn.lock(f"andor character {guild_id}", user_id)
        row = await conn.fetch_one(
            "SELECT character_json FROM andor_characters WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return Character.model_validate_json(row["character_json"]) if row else None

    @staticmethod
    async def _put_character(conn: StorageTransaction, guild_id: int, user_id: int, character: Character) -> None:
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

    async def live_fight(self, guild_id: int, user_id: int) -> Fight | None:
        row = await self.db.fetch_one(
            "SELECT * FROM andor_fights WHERE guild_id = ? AND user_id = ? AND status = 'live'", (guild_id, user_id)
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
                "SELECT * FROM andor_fights WHERE guild_id = ? AND user_id = ? AND status = 'live'", (guild_id, user_id)
            )
            if live is not None:
                raise FightAlreadyLive(_fight(live))
            row = await conn.fetch_required(
                "INSERT INTO andor_fights (guild_id, channel_id, user_id, seed, status, state_json, ended_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    channel_id,
                    user_id,
                    seed,
                    status,
                    state.model_dump_json(),
                    None if status == "live" else utc_now_text(),
                ),
            )
            return await self._settled(conn, row, settle) if status != "live" and settle else _fight(row)

    async def update_fight(self, fight: Fight, state: FightState, settle: Settle | None = None) -> Fight:
        """Save the fight's next state if it is still at `fight.version` (else StaleUpdate, nothing changed).

        When the state is over, `settle` updates the member's character in the same transaction.
        """
        status = _status(state)
        async with self.db.transaction() as conn:
            row = await conn.fetch_one(
                "UPDATE andor_fights SET state_json = ?, target = ?, status = ?, version = version + 1, "
                "ended_at = ? WHERE id = ? AND version = ? AND status = 'live' RETURNING *",
                (
                    state.model_dump_json(),
                    state.target,
                    status,
                    None if status == "live" else utc_now_text(),
                    fight.id,
                    fight.version,
                ),
            )
            if row is None:
                raise StaleUpdate(fight.id)
            return await self._settled(conn, row, settle) if status != "live" and settle else _fight(row)

    async def _settled(self, conn: StorageTransaction, row: aiosqlite.Row, settle: Settle) -> Fight:
        """The ended fight of `row` with `settle` applied to its member's character, within `conn`'s transaction."""
        fight = _fight(row)
        character, xp_change = settle(await self._get_character(conn, fight.guild_id, fight.user_id))
        await self._put_character(conn, fight.guild_id, fight.user_id, character)
        return _fight(
            await conn.fetch_required(
                "UPDATE andor_fights SET xp_change = ?, level_after = ?, xp_after = ? WHERE id = ? RETURNING *",
                (xp_change, character.level, character.xp, fight.id),
            )
        )
