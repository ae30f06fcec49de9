"""Typed data of Andor's Trail fights: characters, monsters, fighters, actions, events and the fight state.

Everything here is plain data that round-trips through JSON (`model_dump_json` / `model_validate_json`),
so a fight can be saved after every click and resumed after a restart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.contract import Outcome
from rules.csvio import NOT_ONE_LINE
from rules.errors import RuleInputError
from rules.text import format_number

POTION_COST = 5  # AP
FLEE_COST = 1  # AP
FLEE_CHANCE = 80  # % of d100
DEFAULT_CRIT_MULTIPLIER = 1.5
HP_PER_LEVEL = 5  # the level factor
MAX_LEVEL = 999
DEATH_XP_LOSS_PERCENT = 30
POTION_PRICE = 10  # gold, in /andor shop (RULINGS 6)
QUIET_ROUNDS_FOR_DRAW = 20  # rounds in a row without damage from either side end a fight as a draw (RULINGS 6)


@dataclass(frozen=True)
class StatLimit:
    minimum: float
    maximum: float
    integer: bool = True
    help: str = ""  # what the stat does, for a player setting it (the bot adds the range and the default)


# One table of allowed values, used for uploaded monsters and for characters alike. The bounds keep every
# fight and simulation finite and cheap (AP / attack cost bounds the attacks per turn).
STAT_LIMITS: dict[str, StatLimit] = {
    "hp": StatLimit(1, 100_000, help="Hit points"),
    "ap": StatLimit(1, 100, help="Action points (AP) you get each turn"),
    "attack_cost": StatLimit(1, 100, help="AP one attack costs; at most your AP"),
    "attack_chance": StatLimit(0, 1_000, help="Attack chance (AC); hit % rises with AC minus the target's BC"),
    "damage_min": StatLimit(0, 100_000, help="Least damage of a hit, before bonuses"),
    "damage_max": StatLimit(0, 100_000, help="Most damage of a hit, before bonuses; at least damage_min"),
    "crit_chance": StatLimit(0, 100, help="Chance in % that a hit is critical, 0 for never"),
    "crit_multiplier": StatLimit(1, 10, integer=False, help="Critical hits multiply damage by this, up to 2 decimals"),
    "block_chance": StatLimit(0, 1_000, help="Block chance (BC); lowers the monsters' hit %"),
    "damage_resistance": StatLimit(0, 100_000, help="Damage resistance (DR), taken off every hit you take"),
    "xp": StatLimit(0, 1_000_000_000, help="XP within your level; 55 x level x level XP levels you up"),
    # monster only: the gold a kill drops, a whole number in [gold_min, gold_max]
    "gold_min": StatLimit(0, 1_000_000),
    "gold_max": StatLimit(0, 1_000_000),
    # player only
    "level": StatLimit(1, MAX_LEVEL, help="Level, +5 max HP each; a new level starts at 0 XP unless you set xp too"),
    "base_hp": StatLimit(1, 100_000, help="Base HP; max HP = base HP + 5 x level + HP bonus"),
    "hp_bonus": StatLimit(0, 100_000, help="Extra max HP from equipment"),
    "ad_bonus": StatLimit(0, 1_000, help="Attack damage bonus in %: your damage x (1 + bonus/100)"),
    "armor": StatLimit(0, 200, help="Armor: damage you take x (1 - armor/200)"),
    "potions": StatLimit(0, 99, help="Potions you carry into each fight; drinking one costs 5 AP"),
    "potion_heal": StatLimit(1, 100_000, help="HP one potion heals, up to your max HP"),
}

MAX_NAME_LENGTH = 40
PLAYER_NAME = "You"  # the player's name in a fight's feed, so no monster may take it


def stat_problem(name: str, value: float) -> str | None:
    """What is wrong with one stat value, or None when it is allowed."""
    limit = STAT_LIMITS[name]
    if not math.isfinite(value):
        return f"{value} is not a finite number"
    if limit.integer and float(value) != int(value):
        return f"{format_number(value)} is not a whole number"
    if not limit.minimum <= value <= limit.maximum:
        return f"{format_number(value)} is outside {format_number(limit.minimum)}..{format_number(limit.maximum)}"
    if name == "crit_multiplier" and abs(value * 100 - round(value * 100)) > 1e-9:
        return f"{format_number(value)} has more than 2 decimals"
    return None


def hundredths(multiplier: float) -> int:
    """A critical multiplier as an exact whole number of hundredths (1.5 -> 150)."""
    return round(multiplier * 100)


def check_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned:
        raise RuleInputError("a monster needs a name")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise RuleInputError(f"the name '{cleaned[:MAX_NAME_LENGTH]}...' is longer than {MAX_NAME_LENGTH} characters")
    if not cleaned.isprintable():
        raise RuleInputError(NOT_ONE_LINE)
    if cleaned.lower() == PLAYER_NAME.lower():
        raise RuleInputError(f"'{cleaned}' is how a fight's feed names the player; give the monster another name")
    return cleaned


class CombatStats(BaseModel):
    """What every actor has (RULINGS 4)."""

    model_config = ConfigDict(frozen=True)

    ap: int = 10
    attack_cost: int = 4
    attack_chance: int = 60
    damage_min: int = 1
    damage_max: int = 1
    crit_chance: int = 0
    crit_multiplier: float = DEFAULT_CRIT_MULTIPLIER
    block_chance: int = 9
    damage_resistance: int = 0

    def problems(self) -> list[tuple[str, str]]:
        """(stat, what is wrong) for every value out of bounds and every inconsistency."""
        found: list[tuple[str, str]] = []
        for name in type(self).model_fields:
            value = getattr(self, name)
            if name in STAT_LIMITS and value is not None and (message := stat_problem(name, value)):
                found.append((name, message))
        if self.damage_min > self.damage_max:
            found.append(("damage_min", f"{self.damage_min} is above damage_max {self.damage_max}"))
        if self.attack_cost > self.ap:
            found.append(("attack_cost", f"{self.attack_cost} is above ap {self.ap}, so no attack could ever happen"))
        return found


class Monster(CombatStats):
    name: str
    hp: int
    xp: int  # what a kill gives
    gold_min: int | None = None  # None: the built-in loot, 0 to floor(XP / 2) (RULINGS 6)
    gold_max: int | None = None
    aggressive: bool = False  # starts its fights: the monsters take the first turn

    @property
    def gold_range(self) -> tuple[int, int]:
        if self.gold_min is None or self.gold_max is None:
            return 0, self.xp // 2
        return self.gold_min, self.gold_max

    def problems(self) -> list[tuple[str, str]]:
        found = super().problems()
        low, high = self.gold_range
        if low > high:
            found.append(("gold_min", f"{low} is above gold_max {high}"))
        return found


class Character(CombatStats):
    """A player's character in one guild. `xp` is the XP earned within the current level."""

    level: int = 1
    xp: int = 0
    base_hp: int = 20
    hp_bonus: int = 0
    ad_bonus: int = 0
    armor: int = 0
    potions: int = 2
    potion_heal: int = 20
    gold: int = 0  # earned from kills, spent in /andor shop; not a stat a player sets

    @property
    def max_hp(self) -> int:
        return self.base_hp + self.level * HP_PER_LEVEL + self.hp_bonus

    @property
    def xp_to_next_level(self) -> int:
        return xp_to_next_level(self.level)


def xp_to_next_level(level: int) -> int:
    """XP needed to go from `level` to `level + 1` (RULINGS 4: 55 x L x L)."""
    return 55 * level * level


class Fighter(BaseModel):
    """An actor inside one fight: a snapshot of its stats plus its current HP."""

    name: str
    max_hp: int
    hp: int
    ap: int
    attack_cost: int
    attack_chance: int
    damage_min: int
    damage_max: int
    crit_chance: int
    crit_multiplier: float
    block_chance: int
    damage_resistance: int
    ad_bonus: int = 0
    armor: int = 0
    xp: int = 0  # a monster's kill reward
    gold_min: int = 0  # a monster's loot range
    gold_max: int = 0

    @property
    def alive(self) -> bool:
        return self.hp > 0


class PlayerFighter(Fighter):
    potions: int
    potion_heal: int


# --- actions --------------------------------------------------------------------------------------------

ActionKind = Literal["attack", "potion", "flee", "call_draw", "end_turn"]


@dataclass(frozen=True)
class Action:
    kind: ActionKind
    target: int | None = None  # index into FightState.monsters, for attacks

    @classmethod
    def attack(cls, target: int) -> Action:
        return cls("attack", target)

    def __str__(self) -> str:
        return f"attack {self.target}" if self.kind == "attack" else self.kind


POTION = Action("potion")
FLEE = Action("flee")
CALL_DRAW = Action("call_draw")  # only while neither side can hurt the other (engine.stalemate)
END_TURN = Action("end_turn")


# --- events ---------------------------------------------------------------------------------------------


class AttackEvent(BaseModel):
    kind: Literal["attack"] = "attack"
    round: int
    attacker: str
    target: str
    hit_chance: int
    roll: int  # d100; a hit when roll <= hit_chance
    hit: bool
    base_damage: int | None = None  # the uniform roll in the damage range
    crit_chance: int | None = None  # the attacker's, when it has one
    crit_roll: int | None = None  # d100, only when the attacker has a critical chance; critical when <= crit_chance
    critical: bool = False
    damage: int = 0
    target_hp: int  # after the attack
    killed: bool = False
    xp: int = 0  # a monster's kill: the XP it gave
    gold: int = 0  # and the gold it dropped


class PotionEvent(BaseModel):
    kind: Literal["potion"] = "potion"
    round: int
    healed: int
    hp: int
    potions_left: int


class FleeEvent(BaseModel):
    kind: Literal["flee"] = "flee"
    round: int
    roll: int  # d100; escaped when roll <= chance
    chance: int
    escaped: bool


class TurnEvent(BaseModel):
    kind: Literal["turn"] = "turn"
    round: int
    side: Literal["player", "monsters"]
    ap: int | None = None  # the player's AP at the start of the turn


class EndEvent(BaseModel):
    kind: Literal["end"] = "end"
    round: int
    result: Literal["won", "lost", "fled", "draw"]
    xp: int = 0  # gained in the whole fight
    gold: int = 0
    called: bool = False  # a draw the player called, neither side able to hurt the other


Event = Annotated[AttackEvent | PotionEvent | FleeEvent | TurnEvent | EndEvent, Field(discriminator="kind")]

Phase = Literal["player", "won", "lost", "fled", "draw"]


class FightState(BaseModel):
    """A fight between one player and 1-5 monsters. It is the player's turn unless the fight is over."""

    player: PlayerFighter
    monsters: list[Fighter]
    phase: Phase = "player"
    round: int = 1  # counts the player's turns
    ap_left: int
    feed: list[Event] = Field(default_factory=list[Event])  # the latest events, newest last, at most FEED_LENGTH
    target: int = 0  # the monster the player's attacks go to (the attack buttons and the 🎯)
    seed: int = 0  # the fight's seed and the moves made so far: the next move's randomness (engine.replay_rng)
    moves: int = 0
    xp_gained: int = 0  # from the monsters killed so far: kept whatever the end (RULINGS 6)
    gold_gained: int = 0
    potions_drunk: int = 0  # spent whatever the end (RULINGS 7); a fight saved before this counted none
    quiet_rounds: int = 0  # rounds in a row in which neither side dealt damage
    hurt_this_round: bool = False


FEED_LENGTH = 30  # enough for a whole monsters' turn of five monsters with 3 attacks each


class Ending(StrEnum):
    """How a fight ended; the values are what storage keeps as the fight's status."""

    WON = "won"
    LOST = "lost"
    FLED = "fled"
    DRAW = "draw"  # QUIET_ROUNDS_FOR_DRAW rounds without damage


FightOutcome = Outcome[Ending]  # the contract's outcome: the player (0) wins when the monsters are all dead


@dataclass(frozen=True)
class FightSummary:
    """What a finished fight leaves behind, for its reader and for `engine.settle`."""

    ending: Ending
    rounds: int
    hp_left: int
    xp: int  # XP the kills gave, whatever the end
    gold: int = 0  # gold the kills dropped
    potions_drunk: int = 0  # spent: the stored character carries this many fewer (RULINGS 7)
    kills: int = 0  # monsters at 0 HP: only the player's attacks hurt them, so each is the player's kill
