"""The plain-data state of an MMA Warriors match, its actions and events, and their JSON form.

The state is mutable slotted objects holding ints and lists of card ids, so that the engine's hot loop
(thousands of AI games a second) touches nothing heavier; validation happens only in `from_dict`, at
the save boundary.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple

from rules.contract import Outcome
from rules.errors import RuleInputError
from rules.mma.cards import CARDS, DECK_LIST, FIGHTER_COUNT

# Phases of a match.
DRAW_PHASE = "draw"  # the player to move draws or skips the draw
MAIN_PHASE = "main"  # the player to move plays cards or ends the turn
REPLACE_PHASE = "replace"  # a player whose fighter was knocked out picks the next one from hand
OVER = "over"

# Action kinds.
DRAW = "draw"
SKIP_DRAW = "skip_draw"
PLAY = "play"
END_TURN = "end_turn"
DEPLOY = "deploy"
CONCEDE = "concede"
ACTION_KINDS = (DRAW, SKIP_DRAW, PLAY, END_TURN, DEPLOY, CONCEDE)

NO_ONE = -1  # no advantage / no fighter / no pending defense / a drawn match


class Action(NamedTuple):
    player: int
    kind: str
    card: int = NO_ONE  # the card played or deployed

    def to_dict(self) -> dict[str, int | str]:
        return {"player": self.player, "kind": self.kind, "card": self.card}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Action:
        try:
            action = Action(int(data["player"]), str(data["kind"]), int(data.get("card", NO_ONE)))
        except (KeyError, TypeError, ValueError):
            raise RuleInputError(f"not an MMA action: {data!r}") from None
        if action.kind not in ACTION_KINDS or action.player not in (0, 1):
            raise RuleInputError(f"not an MMA action: {data!r}")
        return action


NO_NUMBERS: Mapping[str, Any] = MappingProxyType({})  # read-only: shared by every event without figures


class Event(NamedTuple):
    """Something that happened; `numbers` holds every figure a reader needs to check it."""

    kind: str
    player: int
    card: int = NO_ONE
    numbers: Mapping[str, Any] = NO_NUMBERS


class EndReason(StrEnum):
    """How a match ended. The value is the code a saved match keeps (its state, its row, its results and rating
    changes); the words shown for it are its `label`, from END_REASON_LABELS alone, so rewording one changes no
    stored row."""

    HEALTH_DEPLETED = "health_depleted"
    NO_FIGHTERS = "no_fighters"
    DECK_OUT = "deck_out"
    JUDGES = "judges"
    CONCEDED = "conceded"
    IDLE = "idle"

    @property
    def label(self) -> str:
        return END_REASON_LABELS[self]


# The words of each ending, as the document's end screens word them.
END_REASON_LABELS: Mapping[EndReason, str] = MappingProxyType(
    {
        EndReason.HEALTH_DEPLETED: "Health depleted",
        EndReason.NO_FIGHTERS: "No fighters in hand",
        EndReason.DECK_OUT: "Deck Out",
        EndReason.JUDGES: "Judges' decision",
        EndReason.CONCEDED: "Conceded",
        EndReason.IDLE: "Opponent idle",
    }
)


MatchOutcome = Outcome[EndReason]  # winner None: a draw on the judges' cards


class PlayerState:
    __slots__ = (
        "bleed",
        "coach",
        "deck",
        "discard",
        "energy",
        "fielded",
        "fighter",
        "guard",
        "hand",
        "health",
        "knockouts",
        "max_stamina",
        "staggered",
        "stamina",
        "training",
        "turns",
    )

    def __init__(self) -> None:
        self.deck: list[int] = []  # deck[-1] is the top card
        self.hand: list[int] = []  # oldest first
        self.discard: list[int] = []  # played cards, discarded cards and knocked-out fighters
        self.health = 100
        self.energy = 0
        self.turns = 0  # turns begun, skipped ones included
        self.fighter = NO_ONE  # the active fighter's card id
        self.stamina = 0
        self.max_stamina = 0
        self.coach = 0  # Master Coach plays on the active fighter: +1 striking, grappling, defense each
        self.training = 0  # Intense Training striking bonus until the fighter's next strike
        self.bleed = 0  # bleed ticks left
        self.staggered = False  # skips the rest of their next turn
        self.guard = NO_ONE  # the pending defense card
        self.fielded: list[int] = []  # fighters deployed this match, in order
        self.knockouts = 0  # own fighters knocked out

    @property
    def has_fighter(self) -> bool:
        return self.fighter != NO_ONE

    @property
    def has_guard(self) -> bool:
        """Whether a defense card waits for the next attack (`guard`)."""
        return self.guard != NO_ONE

    # Effective stats of the active fighter.
    @property
    def striking(self) -> int:
        return CARDS[self.fighter].striking + self.coach

    @property
    def grappling(self) -> int:
        return CARDS[self.fighter].grappling + self.coach

    @property
    def defense(self) -> int:
        return CARDS[self.fighter].defense + self.coach

    def fighters_in_hand(self) -> int:
        count = 0
        for card in self.hand:
            if card < FIGHTER_COUNT:
                count += 1
        return count

    def copy(self) -> PlayerState:
        other = PlayerState.__new__(PlayerState)
        for name in PlayerState.__slots__:
            value = getattr(self, name)
            setattr(other, name, value[:] if type(value) is list else value)
        return other


_INT_FIELDS = (
    "health",
    "energy",
    "turns",
    "fighter",
    "stamina",
    "max_stamina",
    "coach",
    "training",
    "bleed",
    "guard",
    "knockouts",
)
_LIST_FIELDS = ("deck", "hand", "discard", "fielded")


class GameState:
    __slots__ = (
        "advantage",
        "current",
        "moves",
        "phase",
        "players",
        "plays",
        "reason",
        "replacing",
        "seed",
        "winner",
    )

    def __init__(self, seed: int = 0) -> None:
        self.players: tuple[PlayerState, PlayerState] = (PlayerState(), PlayerState())
        self.current = 0  # whose turn it is
        self.phase = DRAW_PHASE
        self.replacing = NO_ONE  # in REPLACE_PHASE: who picks a fighter
        self.advantage = NO_ONE  # the one player with positional advantage, if any
        self.plays = 0  # cards played this turn
        self.moves = 0  # actions applied so far
        self.seed = seed
        self.winner = NO_ONE  # once OVER: 0, 1 or NO_ONE for a draw
        self.reason = ""

    @property
    def on_top(self) -> int | None:
        """The player with positional advantage, None while both fighters stand."""
        return None if self.advantage == NO_ONE else self.advantage

    @property
    def to_move(self) -> int:
        """The player the match is waiting for (NO_ONE once it is over)."""
        if self.phase == OVER:
            return NO_ONE
        return self.replacing if self.phase == REPLACE_PHASE else self.current

    def copy(self) -> GameState:
        other = GameState.__new__(GameState)
        for name in GameState.__slots__:
            setattr(other, name, getattr(self, name))
        other.players = (self.players[0].copy(), self.players[1].copy())
        return other

    def to_dict(self) -> dict[str, Any]:
        """The state as plain data (the stored form, which storage.mma's codec versions)."""
        data: dict[str, Any] = {}
        for name in GameState.__slots__:
            if name != "players":
                data[name] = getattr(self, name)
        data["players"] = [
            {
                name: (getattr(p, name)[:] if name in _LIST_FIELDS else getattr(p, name))
                for name in PlayerState.__slots__
            }
            for p in self.players
        ]
        return data

    @staticmethod
    def from_dict(data: dict[str, Any]) -> GameState:
        """Rebuild a saved state, checking it is one this engine could have produced."""
        try:
            return _from_dict(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RuleInputError(f"saved MMA match is damaged ({type(exc).__name__}: {exc})") from None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


def _from_dict(data: dict[str, Any]) -> GameState:
    state = GameState(int(data["seed"]))
    for name in ("current", "replacing", "advantage", "plays", "moves", "winner"):
        setattr(state, name, int(data[name]))
    for name in ("phase", "reason"):
        setattr(state, name, str(data[name]))
    if state.phase not in (DRAW_PHASE, MAIN_PHASE, REPLACE_PHASE, OVER):
        raise ValueError(f"unknown phase {state.phase!r}")
    if state.reason and state.reason not in set(EndReason):
        raise ValueError(f"unknown end reason {state.reason!r}")
    if state.current not in (0, 1) or state.advantage not in (NO_ONE, 0, 1):
        raise ValueError("player index out of range")
    raw_players = data["players"]
    if len(raw_players) != 2:
        raise ValueError("a match has two players")
    for player, raw in zip(state.players, raw_players):
        for name in _INT_FIELDS:
            setattr(player, name, int(raw[name]))
        player.staggered = bool(raw["staggered"])
        for name in _LIST_FIELDS:
            cards = [int(c) for c in raw[name]]
            if any(not 0 <= c < len(CARDS) for c in cards):
                raise ValueError(f"unknown card id in {name}")
            setattr(player, name, cards)
        owned = player.deck + player.hand + player.discard + ([player.fighter] if player.fighter >= 0 else [])
        if sorted(owned) != sorted(DECK_LIST):
            raise ValueError("cards do not add up to one deck")
    return state
