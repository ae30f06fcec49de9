"""Marked for Death storage: each channel's battle, its state compressed, updated with a version check.

A state can hold tens of thousands of fighters, so encoding and decoding (`encode_state`,
`StoredBattle.state`) are CPU work the cog does in an engine worker thread (`run_engine` and
`run_long_engine`, with the run itself), not on the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.mfd.models import BattleState, Ending
from storage.codec import StateCodec
from storage.protocol import Row, Storage
from storage.retry import retried_on_conflict
from storage.rows import from_row, utc_now_text
from storage.tables import InPlay, Kept, Table, Tables
from storage.versioned import StaleUpdate, save_versioned

BATTLE_STATE = StateCodec("Marked for Death battle", 1, BattleState.to_dict, BattleState.from_dict)


def encode_state(state: BattleState) -> bytes:
    return BATTLE_STATE.to_bytes(state)


@dataclass(frozen=True)
class StoredBattle:
    id: int
    guild_id: int
    channel_id: int
    version: int
    seed: int
    rounds_fought: int
    ending: Ending  # of the battle's last run (the `outcome` column)
    heroes_left: int
    villains_left: int
    started_by: int
    updated_by: int
    updated_at: str
    state_zlib: bytes
    closed_at: str | None = None  # when its channel was deleted: the battle is kept, and goes on no more

    def state(self) -> BattleState:
        return BATTLE_STATE.from_bytes(self.state_zlib, self.id)


def _battle(row: Row) -> StoredBattle:
    return from_row(StoredBattle, row, ending=Ending(row["outcome"]))


def _summary(state: BattleState) -> tuple[int, int, str, int, int]:
    return (
        state.seed,
        state.rounds_fought,
        state.ending.value,
        len(state.heroes.fighters),
        len(state.villains.fighters),
    )


class MfdRepository:
    def __init__(self, db: Storage):
        self.db = db

    async def battle(self, channel_id: int) -> StoredBattle | None:
        row = await self.db.fetch_one("SELECT * FROM mfd_battles WHERE channel_id = ?", (channel_id,))
        return _battle(row) if row else None

    async def battle_by_id(self, battle_id: int) -> StoredBattle | None:
        row = await self.db.fetch_one("SELECT * FROM mfd_battles WHERE id = ?", (battle_id,))
        return _battle(row) if row else None

    @retried_on_conflict
    async def start(
        self, guild_id: int, channel_id: int, state: BattleState, state_zlib: bytes, user_id: int
    ) -> StoredBattle:
        """Store a new battle as the channel's battle, replacing the one there was.

        SQLite may give the new battle the id of the one it replaces, so its version goes on from that one's: a
        button or a run of the old battle (id and version) can never match the new one."""
        async with self.db.transaction() as conn:
            await conn.lock("mfd channel", channel_id)  # the channel's starts one at a time (channel_id is unique too)
            replaced = await conn.fetch_one(
                "DELETE FROM mfd_battles WHERE channel_id = ? RETURNING version", (channel_id,)
            )
            return _battle(
                await conn.fetch_required(
                    "INSERT INTO mfd_battles (guild_id, channel_id, state_zlib, seed, rounds_fought, outcome, "
                    "heroes_left, villains_left, started_by, updated_by, version) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                    (
                        guild_id,
                        channel_id,
                        state_zlib,
                        *_summary(state),
                        user_id,
                        user_id,
                        replaced["version"] + 1 if replaced else 1,
                    ),
                )
            )

    async def end_channel(self, channel_id: int) -> list[StoredBattle]:
        """The channel was deleted: its battle (if any) is closed and kept; a run saved meanwhile finds the version
        moved on."""
        async with self.db.transaction() as conn:
            await conn.lock("mfd channel", channel_id)
            rows = await conn.fetch_all(
                "UPDATE mfd_battles SET closed_at = ?, version = version + 1 WHERE channel_id = ? AND closed_at IS NULL "
                "RETURNING *",
                (utc_now_text(), channel_id),
            )
        return [_battle(row) for row in rows]

    async def save(self, battle: StoredBattle, state: BattleState, state_zlib: bytes, user_id: int) -> StoredBattle:
        """Store the battle's next state if nobody saved it (or replaced it) since `battle` was read;
        else StaleUpdate and nothing changes."""
        seed, rounds_fought, outcome, heroes_left, villains_left = _summary(state)
        changes = {
            "state_zlib": state_zlib,
            "seed": seed,
            "rounds_fought": rounds_fought,
            "outcome": outcome,
            "heroes_left": heroes_left,
            "villains_left": villains_left,
            "updated_by": user_id,
            "updated_at": utc_now_text(),
        }
        async with self.db.transaction() as conn:
            return _battle(await save_versioned(conn, "mfd_battles", battle.id, battle.version, changes))


# A battle is the GMs' who ran it and the server's: it stays with its GMs as former members. Its state
# (compressed) is the heroes' and villains', not a member's, so their copy leaves it out.
TABLES = Tables(
    "Marked for Death",
    (
        Table(
            "mfd_battles",
            "Marked for Death battles run",
            members=(Kept("started_by"), Kept("updated_by")),
            columns=(
                "id, guild_id, channel_id, seed, rounds_fought, outcome, "
                "heroes_left, villains_left, version, started_by, updated_by, started_at, updated_at"
            ),
            order="id",
            in_play=InPlay("closed_at IS NULL"),
        ),
    ),
)


__all__ = ["TABLES", "MfdRepository", "StaleUpdate", "StoredBattle", "encode_state"]
