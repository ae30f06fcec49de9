"""Modifiers, multiplicative stacking and the outcome of one attack, with a checkable breakdown."""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules.bossfight.models import ELEMENTS, Boss, Deck, boss_hp_after, credited_damage, hp_after, overkill
from rules.bossfight.raid import check_deck_can_attack

# Index distance around the element cycle -> modifier; any other distance is neutral.
ELEMENT_RULE: dict[int, float] = {1: 2.0, 4: 0.5, 0: 0.0}
RESISTED = 0.5


def _element_modifier(subject_attacker: str, other: str) -> float:
    if subject_attacker == "None" or other == "None":
        return 1.0
    distance = (ELEMENTS.index(subject_attacker) - ELEMENTS.index(other)) % len(ELEMENTS)
    return ELEMENT_RULE.get(distance, 1.0)


def player_element_modifier(token_element: str, boss_element: str) -> float:
    """Multiplies the boss's magical damage to the deck, once per trait row of the token."""
    return _element_modifier(token_element, boss_element)


def boss_element_modifier(boss_element: str, token_element: str) -> float:
    """Multiplies the token's magical damage to the boss."""
    return _element_modifier(boss_element, token_element)


def pen_res_modifier(subject_resists: bool, opponent_penetrates: bool) -> float:
    return RESISTED if subject_resists and not opponent_penetrates else 1.0


@dataclass(frozen=True)
class TraitModifiers:
    """The player-side modifiers of one trait row against the boss."""

    token: str
    trait: str
    physical_resistance: bool
    magical_resistance: bool
    physical: float
    magical: float
    element: float


@dataclass(frozen=True)
class TokenBreakdown:
    name: str
    element: str
    rows: int
    health: float
    physical_damage: float
    magical_damage: float
    physical_penetration: bool
    magical_penetration: bool
    boss_physical_modifier: float
    boss_magical_modifier: float
    boss_element_modifier: float
    player_element_modifier: float

    @property
    def physical_dealt(self) -> float:
        return self.physical_damage * self.boss_physical_modifier

    @property
    def magical_dealt(self) -> float:
        return self.magical_damage * self.boss_magical_modifier * self.boss_element_modifier

    @property
    def damage_dealt(self) -> float:
        return self.physical_dealt + self.magical_dealt


@dataclass(frozen=True)
class AttackBreakdown:
    """Everything a player needs to check an attack by hand."""

    boss: Boss
    boss_hp_before: float
    tokens: tuple[TokenBreakdown, ...]
    traits: tuple[TraitModifiers, ...]
    deck_physical_modifier: float
    deck_magical_modifier: float
    deck_element_modifier: float
    deck_health: float
    damage_taken_before: float = 0.0  # what the boss dealt this player earlier in the raid (RULINGS 6)

    @property
    def damage_to_boss(self) -> float:
        return sum(t.damage_dealt for t in self.tokens)

    @property
    def damage_to_deck(self) -> float:
        return damage_to_deck(
            self.boss, self.deck_physical_modifier, self.deck_magical_modifier, self.deck_element_modifier
        )

    @property
    def credited_damage(self) -> float:
        """The HP the attack removed from the boss: what the attacker is credited with (RULINGS 8)."""
        return credited_damage(self.boss_hp_before, self.damage_to_boss)

    @property
    def overkill(self) -> float:
        """The damage beyond the HP the boss had left."""
        return overkill(self.boss_hp_before, self.damage_to_boss)

    @property
    def boss_hp_after(self) -> float:
        return boss_hp_after(self.boss_hp_before, self.damage_to_boss)

    @property
    def deck_hp_before(self) -> float:
        """The deck's health at the start of this attack: its total less the raid's earlier damage to the player."""
        return hp_after(self.deck_health, self.damage_taken_before)

    @property
    def deck_hp_after(self) -> float:
        return hp_after(self.deck_hp_before, self.damage_to_deck)

    @property
    def deck_survives(self) -> bool:
        """False: the player is knocked out of the raid."""
        return self.deck_hp_after > 0

    @property
    def boss_defeated(self) -> bool:
        return self.boss_hp_after <= 0


def damage_to_deck(boss: Boss, physical_modifier: float, magical_modifier: float, element_modifier: float) -> float:
    return boss.physical_damage * physical_modifier + boss.magical_damage * magical_modifier * element_modifier


def calculate_attack(
    boss: Boss, deck: Deck, boss_hp: float | None = None, damage_taken: float = 0.0
) -> AttackBreakdown:
    """One attack of `deck` on `boss`, whose current HP is `boss_hp` (its full health if None), by a player the
    boss has already dealt `damage_taken` in this raid (a deck left at 0 or below by it cannot attack)."""
    check_deck_can_attack(deck.health, damage_taken)
    tokens: list[TokenBreakdown] = []
    traits: list[TraitModifiers] = []
    element_factors: list[float] = []
    for token in deck.tokens:
        player_elem = player_element_modifier(token.element, boss.element)
        tokens.append(
            TokenBreakdown(
                name=token.name,
                element=token.element,
                rows=len(token.traits),
                health=token.health,
                physical_damage=token.physical_damage,
                magical_damage=token.magical_damage,
                physical_penetration=token.physical_penetration,
                magical_penetration=token.magical_penetration,
                boss_physical_modifier=pen_res_modifier(boss.physical_resistance, token.physical_penetration),
                boss_magical_modifier=pen_res_modifier(boss.magical_resistance, token.magical_penetration),
                boss_element_modifier=boss_element_modifier(boss.element, token.element),
                player_element_modifier=player_elem,
            )
        )
        # The element modifier is flattened to attribute level: it applies once per trait row.
        element_factors.append(player_elem ** len(token.traits))
        for row in token.traits:
            traits.append(
                TraitModifiers(
                    token=token.name,
                    trait=row.trait,
                    physical_resistance=row.physical_resistance,
                    magical_resistance=row.magical_resistance,
                    physical=pen_res_modifier(row.physical_resistance, boss.physical_penetration),
                    magical=pen_res_modifier(row.magical_resistance, boss.magical_penetration),
                    element=player_elem,
                )
            )
    return AttackBreakdown(
        boss=boss,
        boss_hp_before=boss.health if boss_hp is None else boss_hp,
        tokens=tuple(tokens),
        traits=tuple(traits),
        deck_physical_modifier=math.prod(t.physical for t in traits),
        deck_magical_modifier=math.prod(t.magical for t in traits),
        deck_element_modifier=math.prod(element_factors),
        deck_health=deck.health,
        damage_taken_before=damage_taken,
    )
