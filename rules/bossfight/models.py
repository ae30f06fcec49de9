"""Bosses, trait rows, tokens and decks as immutable pydantic models."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

# The element cycle: each element has the advantage over the next one.
ELEMENTS: tuple[str, ...] = ("Water", "Fire", "Air", "Lightning", "Earth")
Element = Literal["Water", "Fire", "Air", "Lightning", "Earth", "None"]

MAX_STAT = 1e12
MAX_DECK_ROWS = 500
MAX_ROSTER_ROWS = 200  # bosses in one uploaded file
MAX_GUILD_BOSSES = 200  # a guild's uploaded bosses: the roster and autocomplete read them all
HP_DECIMALS = 6


def hp_after(hp: float, damage: float) -> float:
    """HP left after `damage`, rounded to HP_DECIMALS (RULINGS 6).

    Decimal damage such as 333.3 + 333.3 + 333.4 leaves float noise (2.8e-14) that would keep a 1000-HP
    boss alive at "0/1000"; HP and damage are compared after rounding instead.
    """
    return round(hp - damage, HP_DECIMALS) + 0.0  # + 0.0 turns a rounded -0.0 into 0.0


def boss_hp_after(hp: float, damage: float) -> float:
    """The boss's HP as stored after `damage`: rounded as `hp_after`, and never below 0 (RULINGS 7)."""
    return max(0.0, hp_after(hp, damage))


def credited_damage(hp: float, damage: float) -> float:
    """What an attack of `damage` on a boss at `hp` is credited with (RULINGS 8): the HP it removed, the stored HP
    before less the stored HP after. Damage too small to move the stored HP is credited 0, and a felling blow
    the HP it had left, so a raid's credits add up to the boss's HP. Rounded like the HP, so float noise in the
    subtraction (1000 - 666.7) is not credited either."""
    return round(hp - boss_hp_after(hp, damage), HP_DECIMALS) + 0.0


def overkill(hp: float, damage: float) -> float:
    """What an attack dealt and is not credited with: beyond the HP a boss at `hp` had left (RULINGS 7), or too
    little to move the stored HP (RULINGS 8). Shown apart, never credited."""
    return max(0.0, damage - credited_damage(hp, damage))


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Boss(_Frozen):
    name: str = Field(min_length=1, max_length=100)
    level: float = Field(ge=0)
    element: Element
    health: float = Field(gt=0)
    physical_damage: float = Field(ge=0)
    physical_penetration: bool
    physical_resistance: bool
    magical_damage: float = Field(ge=0)
    magical_penetration: bool
    magical_resistance: bool


class TraitRow(_Frozen):
    """One CSV row of a deck: one trait of a token."""

    token: str
    trait: str
    element: Element
    health: float = Field(ge=0)
    physical_damage: float = Field(ge=0)
    physical_penetration: bool
    physical_resistance: bool
    magical_damage: float = Field(ge=0)
    magical_penetration: bool
    magical_resistance: bool


class Token(_Frozen):
    """The rows sharing a token name; its numbers are the sums over them."""

    name: str
    element: Element
    traits: tuple[TraitRow, ...]

    @property
    def health(self) -> float:
        return sum(t.health for t in self.traits)

    @property
    def physical_damage(self) -> float:
        return sum(t.physical_damage for t in self.traits)

    @property
    def magical_damage(self) -> float:
        return sum(t.magical_damage for t in self.traits)

    @property
    def physical_penetration(self) -> bool:
        return any(t.physical_penetration for t in self.traits)

    @property
    def magical_penetration(self) -> bool:
        return any(t.magical_penetration for t in self.traits)


class Deck(_Frozen):
    tokens: tuple[Token, ...]

    @property
    def health(self) -> float:
        return sum(t.health for t in self.tokens)

    @property
    def rows(self) -> tuple[TraitRow, ...]:
        return tuple(row for token in self.tokens for row in token.traits)
