"""Andor's Trail party fights (migration 0024): the sign-up, the fight's state after every action, and each
member's part, settled on their character in the same transaction as the action that ended it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.andor.engine import settle
from rules.andor.models import Character, Monster
from rules.andor.party import MAX_MEMBERS, PartyState, abandoned, member_summary
from storage.andor import OPEN_PARTY_STATUSES, AndorRepository, Elsewhere, InAnotherFight
from storage.codec import StateCodec
from storage.protocol import Row, Storage, StorageTransaction
from storage.rows import from_row, required, utc_now_text
from storage.times import stored_time, unix_time
from storage.versioned import StaleUpdate, save_versioned


def _party_data(state: PartyState) -> dict[str, Any]:
    return state.model_dump(mode="json")


PARTY_STATE = StateCodec("Andor party fight", 1, _party_data, PartyState.model_validate)


class PartyStatus(StrEnum):
    SIGNUP = "signup"
    LIVE = "live"
    WON = "won"
    LOST = "lost"
    FLED = "fled"
    DRAW = "draw"
    LAPSED = "lapsed"  # the sign-up closed without a fight


OPEN_PARTY = tuple(PartyStatus(status) for status in OPEN_PARTY_STATUSES)  # signing up or fighting


@dataclass(frozen=True)
class PartyMemberRow:
    user_id: int
    name: str
    position: int
    in_fight: bool
    xp_change: int | None = None
    level_after: int | None = None
    xp_after: int | None = None


@dataclass(frozen=True)
class PartyTotals:
    """A member's party fights in a server: the ones their part of is over, and those the party won."""

    fought: int = 0
    won: int = 0


@dataclass(frozen=True)
class Party:
    id: int
    guild_id: int
    channel_id: int
    opener_id: int
    status: PartyStatus
    monster: Monster
    monster_count: int
    seed: int
    monsters_first: bool
    state: PartyState | None
    deadline: float  # unix time: the sign-up lapses, or the turn runs out
    version: int
    members: tuple[PartyMemberRow, ...]
    message_id: int | None = None
    ping_message_id: int | None = None

    @property
    def live(self) -> bool:
        return self.status == PartyStatus.LIVE

    def member(self, user_id: int) -> PartyMemberRow | None:
        return next((m for m in self.members if m.user_id == user_id), None)


class SignupClosed(Exception):
    """The party is no longer signing up (it started or lapsed), or it is full."""


def _status(state: PartyState) -> PartyStatus:
    return PartyStatus.LIVE if state.phase == "playing" else PartyStatus(state.phase)


class PartyRepository:
    def __init__(self, db: Storage):
        self.db = db
        self.fights = AndorRepository(db)

    async def party(self, party_id: int) -> Party | None:
        row = await self.db.fetch_one("SELECT * FROM andor_parties WHERE id = ?", (party_id,))
        return None if row is None else await self._party(self.db, row)

    async def open_parties(self) -> list[Party]:
        """Every party signing up or fighting, for their clocks at start-up."""
        rows = await self.db.fetch_all(
            "SELECT * FROM andor_parties WHERE status IN (?, ?) ORDER BY id", OPEN_PARTY_STATUSES
        )
        return [await self._party(self.db, row) for row in rows]

    async def member_totals(self, guild_id: int, user_id: int) -> PartyTotals:
        row = required(
            await self.db.fetch_one(
                "SELECT count(*) AS fought, coalesce(sum(CASE WHEN p.status = ? THEN 1 ELSE 0 END), 0) AS won "
                "FROM andor_party_members m JOIN andor_parties p ON p.id = m.party_id "
                "WHERE m.guild_id = ? AND m.user_id = ? AND m.xp_change IS NOT NULL",
                (PartyStatus.WON, guild_id, user_id),
            )
        )
        return PartyTotals(int(row["fought"]), int(row["won"]))

    async def party_of(self, guild_id: int, user_id: int) -> Party | None:
        """The party the member is signed up for or standing in, in the server; None when none."""
        row = await self.db.fetch_one(
            "SELECT p.* FROM andor_party_members m JOIN andor_parties p ON p.id = m.party_id "
            "WHERE m.guild_id = ? AND m.user_id = ? AND m.in_fight = 1 AND p.status IN (?, ?)",
            (guild_id, user_id, *OPEN_PARTY_STATUSES),
        )
        return None if row is None else await self._party(self.db, row)

    async def elsewhere(self, guild_id: int, user_id: int) -> Elsewhere | None:
        """Where the member fights in the server now, alone or in a party; None when nowhere."""
        return await self.fights.elsewhere(self.db, guild_id, user_id)

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        opener: tuple[int, str],
        monster: Monster,
        count: int,
        seed: int,
        monsters_first: bool,
        deadline: float,
    ) -> Party:
        """A new sign-up with its opener as the first member; InAnotherFight when they fight already."""
        async with self.db.transaction() as conn:
            await self._claim_member(conn, guild_id, opener[0])
            row = await conn.fetch_required(
                "INSERT INTO andor_parties (guild_id, channel_id, opener_id, status, monster_json, monster_count, seed, "
                "monsters_first, deadline, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    channel_id,
                    opener[0],
                    PartyStatus.SIGNUP.value,
                    monster.model_dump_json(),
                    count,
                    seed,
                    int(monsters_first),
                    stored_time(deadline),
                    utc_now_text(),
                ),
            )
            await self._add_member(conn, row["id"], guild_id, opener, 0)
            return await self._party(conn, row)

    async def join(self, party_id: int, user: tuple[int, str]) -> Party:
        """Sign the member up (SignupClosed when it started, lapsed or is full; InAnotherFight)."""
        async with self.db.transaction() as conn:
            party = await self._signup(conn, party_id)
            if party.member(user[0]) is None:
                if len(party.members) >= MAX_MEMBERS:
                    raise SignupClosed(f"the party is full ({MAX_MEMBERS} members)")
                await self._claim_member(conn, party.guild_id, user[0])
                position = max(m.position for m in party.members) + 1
                await self._add_member(conn, party_id, party.guild_id, user, position)
            return await self._bumped(conn, party_id)

    async def leave(self, party_id: int, user_id: int) -> Party:
        """Take the member off the sign-up (the opener's leave closes it: nobody is left to start it)."""
        async with self.db.transaction() as conn:
            party = await self._signup(conn, party_id)
            if user_id == party.opener_id:
                await self._close(conn, party_id)
            else:
                await conn.execute(
                    "DELETE FROM andor_party_members WHERE party_id = ? AND user_id = ?", (party_id, user_id)
                )
            return await self._bumped(conn, party_id)

    async def lapse(self, party: Party) -> Party:
        """The sign-up's 10 minutes are over with fewer than 2 members: it closes (StaleUpdate if it changed)."""
        async with self.db.transaction() as conn:
            await save_versioned(conn, "andor_parties", party.id, party.version, {}, status=PartyStatus.SIGNUP)
            await self._close(conn, party.id)
            return await self._party(conn, await self._row(conn, party.id))

    async def start(self, party: Party, state: PartyState, deadline: float) -> Party:
        """The fight begins (StaleUpdate when the sign-up changed since `party` was read)."""
        return await self.save(party, state, deadline, status=PartyStatus.SIGNUP)

    async def save(
        self, party: Party, state: PartyState, deadline: float, *, status: PartyStatus = PartyStatus.LIVE
    ) -> Party:
        """Save the fight's next state if it is still at `party.version` (else StaleUpdate); every member whose
        part ended with it (knocked out, fled, removed, or the fight over) is settled on their character in the
        same transaction, once."""
        new_status = _status(state)
        changes = {
            "state_json": PARTY_STATE.to_text(state),
            "status": new_status,
            "deadline": stored_time(deadline),
            "ended_at": None if new_status == PartyStatus.LIVE else utc_now_text(),
        }
        async with self.db.transaction() as conn:
            row = await save_versioned(conn, "andor_parties", party.id, party.version, changes, status=status)
            await self._settle_members(conn, party, state)
            return await self._party(conn, row)

    async def set_message(self, party_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE andor_parties SET message_id = ? WHERE id = ?", (message_id, party_id))

    async def set_ping(self, party_id: int, message_id: int | None) -> None:
        async with self.db.transaction() as conn:
            await conn.execute("UPDATE andor_parties SET ping_message_id = ? WHERE id = ?", (message_id, party_id))

    async def end_channel(self, channel_id: int) -> list[Party]:
        """The channel was deleted: a sign-up there closes, a fight ends as if every member standing fled."""
        ended: list[Party] = []
        rows = await self.db.fetch_all(
            "SELECT id FROM andor_parties WHERE channel_id = ? AND status IN (?, ?) ORDER BY id",
            (channel_id, *OPEN_PARTY),
        )
        for row in rows:
            while (party := await self.party(row["id"])) is not None and party.status in OPEN_PARTY:
                try:
                    if party.state is None:
                        ended.append(await self.lapse(party))
                    else:
                        ended.append(await self.save(party, abandoned(party.state), party.deadline))
                except StaleUpdate:
                    continue
                break
        return ended

    # --- internals --------------------------------------------------------------------------------------

    async def _party(self, reader: Storage | StorageTransaction, row: Row) -> Party:
        members = await reader.fetch_all(
            "SELECT * FROM andor_party_members WHERE party_id = ? ORDER BY position", (row["id"],)
        )
        state = row["state_json"]
        return from_row(
            Party,
            row,
            status=PartyStatus(row["status"]),
            monster=Monster.model_validate_json(row["monster_json"]),
            monsters_first=bool(row["monsters_first"]),
            state=None if state is None else PARTY_STATE.from_text(state, row["id"]),
            deadline=unix_time(row["deadline"]),
            members=tuple(from_row(PartyMemberRow, m, in_fight=bool(m["in_fight"])) for m in members),
        )

    @staticmethod
    async def _row(conn: StorageTransaction, party_id: int) -> Row:
        return required(await conn.fetch_one("SELECT * FROM andor_parties WHERE id = ?", (party_id,)))

    async def _signup(self, conn: StorageTransaction, party_id: int) -> Party:
        """The party, locked, if it is still signing up; else SignupClosed."""
        await conn.lock("andor party", party_id)
        row = await conn.fetch_one("SELECT * FROM andor_parties WHERE id = ?", (party_id,))
        if row is None or row["status"] != PartyStatus.SIGNUP:
            raise SignupClosed("this party is no longer signing up")
        return await self._party(conn, row)

    async def _bumped(self, conn: StorageTransaction, party_id: int) -> Party:
        """The party after a sign-up change, its version moved on (a Start drawn before it is stale)."""
        row = await conn.fetch_required(
            "UPDATE andor_parties SET version = version + 1 WHERE id = ? RETURNING *", (party_id,)
        )
        return await self._party(conn, row)

    @staticmethod
    async def _close(conn: StorageTransaction, party_id: int) -> None:
        await conn.execute(
            "UPDATE andor_parties SET status = ?, ended_at = ? WHERE id = ?",
            (PartyStatus.LAPSED.value, utc_now_text(), party_id),
        )
        await conn.execute("UPDATE andor_party_members SET in_fight = 0 WHERE party_id = ?", (party_id,))

    async def _claim_member(self, conn: StorageTransaction, guild_id: int, user_id: int) -> None:
        """Lock the member's fights (the lock a fight alone takes too) and refuse one who fights already."""
        await conn.lock(f"andor fights {guild_id}", user_id)
        if (where := await self.fights.elsewhere(conn, guild_id, user_id)) is not None:
            raise InAnotherFight(where)

    @staticmethod
    async def _add_member(
        conn: StorageTransaction, party_id: int, guild_id: int, user: tuple[int, str], position: int
    ) -> None:
        await conn.execute(
            "INSERT INTO andor_party_members (party_id, guild_id, user_id, position, name) VALUES (?, ?, ?, ?, ?)",
            (party_id, guild_id, user[0], position, user[1]),
        )

    async def _settle_members(self, conn: StorageTransaction, party: Party, state: PartyState) -> None:
        rows = {m.user_id: m for m in party.members}
        for index, member in enumerate(state.members):
            ended = member_summary(state, index)
            row = rows.get(member.user_id)
            if ended is None or row is None or not await self._still_in(conn, party.id, member.user_id):
                continue
            stored = await self.fights.character_for_update(conn, party.guild_id, member.user_id)
            character, xp_change = settle(stored or Character(), ended)
            await self.fights.put_character(conn, party.guild_id, member.user_id, character)
            await conn.execute(
                "UPDATE andor_party_members SET in_fight = 0, xp_change = ?, level_after = ?, xp_after = ? "
                "WHERE party_id = ? AND user_id = ?",
                (xp_change, character.level, character.xp, party.id, member.user_id),
            )

    @staticmethod
    async def _still_in(conn: StorageTransaction, party_id: int, user_id: int) -> bool:
        row = await conn.fetch_one(
            "SELECT in_fight FROM andor_party_members WHERE party_id = ? AND user_id = ?", (party_id, user_id)
        )
        return row is not None and bool(row["in_fight"])


def characters_of(party: Party, stored: Sequence[Character | None]) -> list[tuple[int, str, Character]]:
    """The party's members as the engine takes them: (user id, name, character), in join order."""
    return [(m.user_id, m.name, c or Character()) for m, c in zip(party.members, stored, strict=True)]


__all__ = [
    "OPEN_PARTY",
    "PARTY_STATE",
    "Party",
    "PartyMemberRow",
    "PartyRepository",
    "PartyStatus",
    "PartyTotals",
    "SignupClosed",
    "characters_of",
]
