"""Andor's Trail fights (rules: docs/rules/andor.md and RULINGS 4).

Modules: models (data), engine (formulas and the fight state machine), ai (the simulation policy),
simulate (odds over many fights), party and party_text (the party fight of RULINGS 9 and its lines), bestiary
(built-in bestiary.csv and GM uploads), text (plain-text event lines), cli (`python -m rules andor ...`).

Choices where the rules are silent:
- The player engages, so the player's turn comes first (the engine can let the monsters begin).
- Every fight starts at the character's full max HP with its potion count; a fight changes only the
  stored XP, level, gold and potions (the kills' XP and gold whatever the end, levelling up as often as the
  XP allows; death: - 30% of the XP within the level, rounded down; a potion drunk is spent, RULINGS 7).
- `xp` of a character is the XP within its current level (0 .. 55 x level^2 - 1), so the death penalty
  can never cost a level. Setting more XP than the level needs levels the character up at once; setting
  a different level without XP starts that level at 0 XP (the old XP could level it straight back up).
- A potion can only be drunk below max HP (it would be wasted otherwise); the fight message says so.
- The player's turn ends by itself only when no action is affordable (RULINGS 4); since fleeing costs
  1 AP, that is at 0 AP, so with AP left but too few to attack the player can still flee. The fight
  message says so and points at the End turn button.
- Damage is computed exactly in whole hundredths (AD bonus and armor are whole numbers, critical
  multipliers have at most 2 decimals), then truncated.
- A monster attacks AP // attack cost times per turn; the attack cost may not exceed the AP (such an actor
  could never attack, which is surely a typo).
- Several monsters in one fight are copies of one bestiary entry, named "Wolf 1", "Wolf 2", ...
"""
