"""Andor's Trail's tables, declared in one place (storage/tables.py says what a declaration holds): a member's
character and fights alone, and the party fights they fought with others (RULINGS 9), with what the member's
profile shows of them."""

from __future__ import annotations

from dataclasses import dataclass

from rules.andor.models import Character
from rules.andor.party import renamed
from storage.andor import AndorRepository, FightStatus, FightTotals
from storage.andor_party import OPEN_PARTY, PARTY_STATE, PartyRepository, PartyTotals
from storage.protocol import Storage, StorageTransaction
from storage.tables import FORMER_MEMBER, FORMER_MEMBER_NAME, Going, InPlay, InWorker, Kept, Owned, Table, Tables

# The party fights whose stored state names the member (read before their rows are erased).
_PLAYED_PARTIES = (
    "SELECT p.id, p.state_json FROM andor_parties p JOIN andor_party_members m ON m.party_id = p.id "
    "WHERE m.guild_id = ? AND m.user_id = ? AND p.state_json IS NOT NULL ORDER BY p.id"
)


async def _forget_in_parties(conn: StorageTransaction, guild_id: int, user_id: int) -> None:
    """In every party fight the member fought, they become a former member, their part kept for the others."""
    for row in await conn.fetch_all(_PLAYED_PARTIES, (guild_id, user_id)):
        state = renamed(PARTY_STATE.from_text(row["state_json"], row["id"]), user_id, FORMER_MEMBER, FORMER_MEMBER_NAME)
        await conn.execute(
            "UPDATE andor_parties SET state_json = ? WHERE id = ?", (PARTY_STATE.to_text(state), row["id"])
        )


@dataclass(frozen=True)
class AndorProfile:
    """Andor's Trail on a member's profile: their character, their fights alone and their party fights."""

    character: Character | None  # None: no character stored (never set, never fought, or reset)
    fights: FightTotals
    parties: PartyTotals

    @property
    def empty(self) -> bool:
        return self.character is None and self.fights.fights == 0 and self.parties.fought == 0


async def _profile(db: Storage, guild_id: int, user_id: int, in_worker: InWorker) -> AndorProfile:
    """The totals of the member's fights are counted off the event loop (they decode older ended fights)."""
    repo = AndorRepository(db)
    character = await repo.character(guild_id, user_id)
    fights = await in_worker((await repo.ended_fights(guild_id, user_id)).totals)
    return AndorProfile(character, fights, await PartyRepository(db).member_totals(guild_id, user_id))


# A character and its fights are the member's alone; a live fight, alone or in a party, holds back their erasure
# (RULINGS 8). A party fight is every member's: the opener's id is kept as a former member's, and the member's
# own row (their part and their character's change) goes.
TABLES = Tables(
    "Andor's Trail",
    (
        Table("andor_characters", "Andor character", members=(Owned("user_id"),)),
        Table(
            "andor_fights",
            "Andor fights",
            members=(Owned("user_id"),),
            order="id",
            in_play=InPlay("status = ?", (FightStatus.LIVE,), Going("Andor fight", "Andor fights")),
        ),
        Table(
            "andor_party_members",
            "Andor party fights",
            members=(Owned("user_id"),),
            references=("andor_parties",),
            order="party_id",
        ),
        Table(
            "andor_parties",
            "Andor party fights opened",
            members=(Kept("opener_id"),),
            columns="id, guild_id, channel_id, opener_id, status, monster_count, seed, created_at, ended_at",
            order="id",
            in_play=InPlay(
                "status IN (?, ?)",
                OPEN_PARTY,
                Going(
                    "Andor party fight",
                    "Andor party fights",
                    member="id IN (SELECT party_id FROM andor_party_members WHERE user_id = ? AND in_fight = 1)",
                ),
            ),
            forget_first=_forget_in_parties,
        ),
    ),
    profile=_profile,
)

__all__ = ["TABLES", "AndorProfile"]
