"""Boss raid: a player's token deck against a boss (rules: docs/rules/bossfight.md and RULINGS 1, 6, 7
and 8).

RULINGS 6 played here:
- HP after damage (the boss's and the deck's) is rounded to 6 decimals before it is compared with 0, so
  decimal damage that adds up to the HP fells the boss (333.3 + 333.3 + 333.4 fell 1000 HP); damage itself
  is shown and summed unrounded.
- The boss's damage to a player adds up over a raid (rules.bossfight.raid): each attack's deck starts at its
  health less what the boss dealt that player earlier in the raid, whatever deck they used then. A deck that
  ends an attack at 0 or below knocks its player out of the raid until a GM revives them (back to no damage
  taken). A raid may set a cooldown between a player's attacks.
- Choice: a deck that the raid's earlier damage would already leave at 0 or below cannot attack (the attack is
  refused and changes nothing); a player who is not knocked out may bring a bigger deck.

RULINGS 7 played here:
- A player is credited with the damage the boss's HP could absorb (`credited_damage`); what a blow dealt
  beyond the HP left is overkill, shown apart and never credited. A boss's HP never goes below 0.
- A revive resets what the player's next attack starts from (no damage taken), not the raid's record, which
  keeps every player's damage taken over the whole raid and their knock-outs (storage.bossfight).

RULINGS 8 played here:
- An attack is credited with the HP it removed, the stored HP before less the stored HP after (both rounded
  to 6 decimals): damage too small to move the stored HP is credited 0, so a raid's credits add up to the
  boss's HP exactly (`credited_damage`).

Choices where the documents are silent:
- A deck may hold at most MAX_DECK_ROWS trait rows and every number is at most MAX_STAT, so sums and
  products stay finite whatever a file says.
- Token names are matched as written (case-sensitive); a token's rows need not be adjacent in the file.
"""

from rules.bossfight.engine import (
    AttackBreakdown,
    TokenBreakdown,
    TraitModifiers,
    boss_element_modifier,
    calculate_attack,
    damage_to_deck,
    pen_res_modifier,
    player_element_modifier,
)
from rules.bossfight.models import ELEMENTS, Boss, Deck, Token, TraitRow
from rules.bossfight.parsing import parse_bosses, parse_deck
from rules.bossfight.roster import BUILTIN_BOSSES, find_boss, guild_roster

__all__ = [
    "BUILTIN_BOSSES",
    "ELEMENTS",
    "AttackBreakdown",
    "Boss",
    "Deck",
    "Token",
    "TokenBreakdown",
    "TraitModifiers",
    "TraitRow",
    "boss_element_modifier",
    "calculate_attack",
    "damage_to_deck",
    "find_boss",
    "guild_roster",
    "parse_bosses",
    "parse_deck",
    "pen_res_modifier",
    "player_element_modifier",
]
