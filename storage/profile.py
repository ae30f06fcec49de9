"""A member's profile in a server across the games, read from each game's own tables through its repository,
so every figure is the one that game's commands show."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from rules.andor.models import Character
from rules.rating import Rating
from storage.andor import AndorRepository, FightTotals
from storage.andor_party import PartyRepository, PartyTotals
from storage.bossfight import BossfightRepository, RaidTotals
from storage.deck import DeckRepository, DeckResult
from storage.mma import MatchTallies, MmaRepository
from storage.protocol import Storage
from storage.ratings import RatingRepository


@dataclass(frozen=True)
class Profile:
    rating: Rating  # games 0: never rated
    matches: MatchTallies  # MMA matches, against the AI included
    raids: RaidTotals
    character: Character | None  # None: no character stored (never set, never fought, or reset)
    fights: FightTotals
    best_deck: DeckResult | None  # None: no optimization recorded here
    parties: PartyTotals = field(default_factory=PartyTotals)  # Andor party fights

    @property
    def empty(self) -> bool:
        """Nothing stored for the member in any game."""
        return (
            self.rating.games == 0
            and self.matches.overall.played == 0
            and self.raids.attacks == 0
            and self.character is None
            and self.fights.fights == 0
            and self.best_deck is None
            and self.parties.fought == 0
        )


class ProfileRepository:
    def __init__(self, db: Storage):
        self.ratings = RatingRepository(db)
        self.mma = MmaRepository(db)
        self.bossfight = BossfightRepository(db)
        self.andor = AndorRepository(db)
        self.deck = DeckRepository(db)
        self.parties = PartyRepository(db)

    async def profile(
        self, guild_id: int, user_id: int, in_worker: Callable[[Callable[[], FightTotals]], Awaitable[FightTotals]]
    ) -> Profile:
        """The profile; `in_worker` runs the totals of the member's Andor fights off the event loop (it decodes
        every ended fight)."""
        return Profile(
            rating=await self.ratings.rating(guild_id, user_id),
            matches=await self.mma.tallies(guild_id, user_id),
            raids=await self.bossfight.member_totals(guild_id, user_id),
            character=await self.andor.character(guild_id, user_id),
            fights=await in_worker((await self.andor.ended_fights(guild_id, user_id)).totals),
            best_deck=await self.deck.best_result(guild_id, user_id),
            parties=await self.parties.member_totals(guild_id, user_id),
        )


__all__ = ["Profile", "ProfileRepository"]
