"""A plain-text breakdown of an attack, for the command line and as a file a player can keep."""

from __future__ import annotations

from rules.bossfight.engine import AttackBreakdown
from rules.csvio import format_number as num


def format_breakdown(result: AttackBreakdown) -> str:
    boss = result.boss
    lines = [
        f"Boss: {boss.name} (level {num(boss.level)}, {boss.element}), HP {num(result.boss_hp_before)}",
        "",
        "Damage to the boss, per token (physical x phys mod + magical x mag mod x element mod):",
        f"{'token':<20} {'element':<9} {'phys':>10} {'mod':>4} {'magic':>10} {'mod':>4} {'elem':>4} {'dealt':>12}",
    ]
    for t in result.tokens:
        lines.append(
            f"{t.name[:20]:<20} {t.element:<9} {num(t.physical_damage):>10} {num(t.boss_physical_modifier):>4} "
            f"{num(t.magical_damage):>10} {num(t.boss_magical_modifier):>4} {num(t.boss_element_modifier):>4} "
            f"{num(t.damage_dealt):>12}"
        )
    lines += [
        f"Total damage to the boss: {num(result.damage_to_boss)}",
        "",
        "Deck modifiers, per trait (element applies once per trait of its token):",
        f"{'token':<20} {'trait':<20} {'phys':>6} {'magic':>6} {'elem':>6}",
    ]
    for t in result.traits:
        lines.append(f"{t.token[:20]:<20} {t.trait[:20]:<20} {num(t.physical):>6} {num(t.magical):>6} {num(t.element):>6}")
    lines += [
        f"Stacked: physical {num(result.deck_physical_modifier)}, magical {num(result.deck_magical_modifier)}, "
        f"element {num(result.deck_element_modifier)}",
        f"Damage to the deck: {num(boss.physical_damage)} x {num(result.deck_physical_modifier)} + "
        f"{num(boss.magical_damage)} x {num(result.deck_magical_modifier)} x {num(result.deck_element_modifier)}"
        f" = {num(result.damage_to_deck)}",
        "",
        f"Boss HP: {num(result.boss_hp_before)} -> {num(result.boss_hp_after)}"
        + (" (defeated)" if result.boss_defeated else ""),
        f"Deck HP: {num(result.deck_health)} -> {num(result.deck_hp_after)}"
        + (" (survives)" if result.deck_survives else " (destroyed)"),
    ]
    return "\n".join(lines)
