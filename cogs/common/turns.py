"""The one driver of a move in a turn-based game (MMA, Andor): load, place check, retired board, version check,
legality, the engine in the pool, the versioned save, the redraw, the call of the next player.

Every click on a message that shows a stored game is a `GameClick`: `loaded_for` loads the game, checks the
click's place and answers a click on a board the game has left (it was posted again since). A click that only
shows something goes on from there; a click that changes the game is a `TurnMove` and goes through `play_turn`.

A game gives a `TurnMove` for each click: what the click asks (`version`: the moment of the game the clicked
message showed, None for a move that acts on the game as it is now, such as a concession) and the game's own
steps. `play_turn` runs them in order. Nothing is held in memory between the steps: two clicks at once, in one
process or two, both load the same version and both run the engine, and the versioned save
(`storage.versioned.save_versioned`) takes the first; the second gets StaleUpdate. That is the one rule for a
lost race, the same as for a click on an older message: the loser reloads, and a click on an earlier moment is
shown the game as it is ("nothing was changed"), while a move that names no moment is played again on it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

import discord

from arena.tree import UserError
from cogs.common.executor import run_engine
from storage.retry import CONFLICT_ATTEMPTS
from storage.versioned import StaleUpdate

if TYPE_CHECKING:
    from arena.bot import ArenaBot


class Versioned(Protocol):
    """A stored game a move acts on (an MMA match, an Andor fight)."""

    @property
    def id(self) -> int: ...

    @property
    def version(self) -> int: ...


GameT = TypeVar("GameT", bound=Versioned)
PlayedT = TypeVar("PlayedT")


class GameClick(ABC, Generic[GameT]):
    """A click on a message that shows a stored game (`GameT`), as of the moment `version` (None: as it is now)."""

    what: str  # "match", "fight": how the refusals name the game

    def __init__(self, game_id: int, version: int | None):
        self.game_id = game_id
        self.version = version

    @abstractmethod
    async def load(self) -> GameT | None:
        """The stored game, as of now."""

    def check_place(self, interaction: discord.Interaction, game: GameT, /) -> None:
        """Refuse a click from outside the game's server or channel (`require_here`), or by someone not in it."""

    def is_retired(self, interaction: discord.Interaction, game: GameT, /) -> bool:
        """Whether the click came from an earlier board of a game posted again since (none by default)."""
        return False

    async def show_retired(self, interaction: discord.Interaction, game: GameT, /) -> None:
        """Answer a click on a retired board: take its buttons off, point to the live one; nothing was changed."""


class TurnMove(GameClick[GameT], Generic[GameT, PlayedT]):
    """One click's move in a game stored as `GameT`; the engine's answer is a `PlayedT` (the new state and
    what happened). The steps run in `play_turn`'s order; each may refuse with UserError, changing nothing."""

    def is_stale(self, game: GameT, /) -> bool:
        """Whether the click was on an earlier moment of the game than the stored one."""
        return self.version is not None and self.version != game.version

    @abstractmethod
    async def show_stale(self, interaction: discord.Interaction, game: GameT, /) -> None:
        """Answer a click on an earlier moment: show the game as stored, say that nothing was changed."""

    @abstractmethod
    def check(self, game: GameT, /) -> None:
        """Refuse a move the rules do not allow now (UserError, in the game's words)."""

    @abstractmethod
    def play(self, game: GameT, /) -> PlayedT:
        """The engine's work, in a worker thread: the copying forms only, so `game` stays as it was."""

    @abstractmethod
    async def save(self, game: GameT, played: PlayedT, /) -> GameT:
        """The versioned save of what was played (StaleUpdate when another save came first)."""

    @abstractmethod
    async def show_played(
        self, interaction: discord.Interaction, before: GameT, saved: GameT, played: PlayedT, /
    ) -> None:
        """Answer the click and redraw what shows the game."""

    async def call_next(self, before: GameT, saved: GameT, /) -> None:
        """Call the player the game now waits for, where that changed (nothing by default)."""


async def loaded_for(interaction: discord.Interaction, click: GameClick[GameT]) -> GameT | None:
    """The game `click` acts on, loaded and its place checked; None when the click came from a retired board,
    which is answered here."""
    game = await click.load()
    if game is None:
        raise UserError(f"This {click.what} no longer exists.")
    click.check_place(interaction, game)
    if click.is_retired(interaction, game):
        await click.show_retired(interaction, game)
        return None
    return game


async def play_turn(bot: ArenaBot, interaction: discord.Interaction, move: TurnMove[GameT, PlayedT]) -> None:
    """Play one click's move through its game's steps; see the module's text for a lost race."""
    for attempt in range(1, CONFLICT_ATTEMPTS + 1):
        game = await loaded_for(interaction, move)
        if game is None:
            return
        if move.is_stale(game):
            await move.show_stale(interaction, game)
            return
        move.check(game)
        played = await run_engine(bot, move.play, game)
        try:
            saved = await move.save(game, played)
        except StaleUpdate:
            if move.version is None and attempt < CONFLICT_ATTEMPTS:
                continue  # a move on the game as it is: play it on what came first
            if (game := await loaded_for(interaction, move)) is not None:
                await move.show_stale(interaction, game)
            return
        await move.show_played(interaction, game, saved, played)
        await move.call_next(game, saved)
        return


__all__ = ["GameClick", "TurnMove", "Versioned", "loaded_for", "play_turn"]
