"""A member's profile in a server across the games: each game's part, read as the game declares it
(storage/tables.py, `Tables.profile`) through its own repository, so every figure is the one that game's
commands show."""

from __future__ import annotations

from dataclasses import dataclass

from storage.games import DECLARED
from storage.protocol import Storage
from storage.tables import InWorker, ProfilePart


@dataclass(frozen=True)
class Profile:
    parts: tuple[ProfilePart, ...]  # one per game that shows one, in the order of the declarations

    @property
    def empty(self) -> bool:
        """Nothing stored for the member in any game."""
        return all(part.empty for part in self.parts)


class ProfileRepository:
    def __init__(self, db: Storage):
        self.db = db

    async def profile(self, guild_id: int, user_id: int, in_worker: InWorker) -> Profile:
        """The profile; `in_worker` runs a game's CPU work off the event loop (Andor's decodes older fights)."""
        return Profile(
            tuple(
                [
                    await owner.profile(self.db, guild_id, user_id, in_worker)
                    for owner in DECLARED
                    if owner.profile is not None
                ]
            )
        )


__all__ = ["Profile", "ProfileRepository"]
