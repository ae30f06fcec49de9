"""A plain-text breakdown of an attack, for the command line and as a file a player can keep.

Every number in it can be checked by hand: the flags behind each modifier are shown beside it, each
modifier is exact, and the totals are spelled out as the sums and products that give them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rules.bossfight.engine import AttackBreakdown
from rules.text import format_number as num

EXACT_POWERS = 10  # modifiers up to 2^10 and down to 2^-10 are short enough to write out in full


def format_modifier(value: float) -> str:
    """A modifier exactly. Each is a product of 0, 0.5, 1 and 2, so 0 or a power of two: written out while
    that is short (0.125, 1024), as 2^k beyond (2^-20), where a decimal would be rounded."""
    if value > 0:
        exponent = math.log2(value)
        if exponent.is_integer() and abs(exponent) > EXACT_POWERS:
            return f"2^{int(exponent)}"
    return num(value)


def yes_no(flag: bool) -> str:
    return "Y" if flag else "N"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, text_columns: int = 2) -> list[str]:
    """Columns as wide as their widest cell: the first `text_columns` left-aligned, the numbers right-aligned."""
    widths = [max(len(cell) for cell in column) for column in zip(headers, *rows)]

    def line(cells: Sequence[str]) -> str:
        padded = (f"{c:<{w}}" if i < text_columns else f"{c:>{w}}" for i, (c, w) in enumerate(zip(cells, widths)))
        return "  ".join(padded).rstrip()

    return [line(headers), *(line(row) for row in rows)]


def _boss_lines(result: AttackBreakdown) -> list[str]:
    """The boss as the attack found it."""
    boss = result.boss
    return [
        f"Boss: {boss.name} (level {num(boss.level)}, {boss.element}), HP {num(result.boss_hp_before)} "
        f"of {num(boss.health)}",
        f"  physical damage {num(boss.physical_damage)}, penetration {yes_no(boss.physical_penetration)}, "
        f"resistance {yes_no(boss.physical_resistance)}",
        f"  magical damage {num(boss.magical_damage)}, penetration {yes_no(boss.magical_penetration)}, "
        f"resistance {yes_no(boss.magical_resistance)}",
    ]


def _damage_to_boss_lines(result: AttackBreakdown) -> list[str]:
    """Each token's damage to the boss, and their sum."""
    mod = format_modifier
    headers = [
        "token",
        "element",
        "health",
        "physical",
        "pen",
        "phys mod",
        "magical",
        "pen",
        "mag mod",
        "elem mod",
        "dealt",
    ]
    rows = [
        [
            t.name,
            t.element,
            num(t.health),
            num(t.physical_damage),
            yes_no(t.physical_penetration),
            mod(t.boss_physical_modifier),
            num(t.magical_damage),
            yes_no(t.magical_penetration),
            mod(t.boss_magical_modifier),
            mod(t.boss_element_modifier),
            num(t.damage_dealt),
        ]
        for t in result.tokens
    ]
    return [
        "Damage to the boss, per token: physical x phys mod + magical x mag mod x elem mod",
        "(a mod is 0.5 where the boss resists and the token does not penetrate; elem is the boss's element",
        " modifier against the token's element)",
        *table(headers, rows),
        f"Total damage to the boss: {' + '.join(num(t.damage_dealt) for t in result.tokens)}"
        f" = {num(result.damage_to_boss)}",
    ]


def _damage_to_deck_lines(result: AttackBreakdown) -> list[str]:
    """Each trait's modifiers of the boss's damage, their products, and the damage the deck takes."""
    boss = result.boss
    mod = format_modifier
    rows = [
        [
            t.token,
            t.trait,
            yes_no(t.physical_resistance),
            mod(t.physical),
            yes_no(t.magical_resistance),
            mod(t.magical),
            mod(t.element),
        ]
        for t in result.traits
    ]
    return [
        "Modifiers of the damage your deck takes, per trait (0.5 where the trait resists and the boss does not",
        "penetrate; elem is the token's element modifier against the boss, once per trait of its token)",
        *table(["token", "trait", "phys res", "phys mod", "mag res", "mag mod", "elem mod"], rows),
        f"Stacked (the product of each column over {len(result.traits)} traits): "
        f"physical {mod(result.deck_physical_modifier)}, magical {mod(result.deck_magical_modifier)}, "
        f"element {mod(result.deck_element_modifier)}",
        f"Damage to the deck: {num(boss.physical_damage)} x {mod(result.deck_physical_modifier)} + "
        f"{num(boss.magical_damage)} x {mod(result.deck_magical_modifier)} x {mod(result.deck_element_modifier)}"
        f" = {num(result.damage_to_deck)}",
    ]


def _hp_lines(result: AttackBreakdown) -> list[str]:
    """The boss's and the deck's HP after the attack."""
    boss_hp = f"Boss HP: {num(result.boss_hp_before)} - {num(result.damage_to_boss)} -> {num(result.boss_hp_after)}"
    credited = f"Credited: {num(result.credited_damage)}, overkill beyond the HP left: {num(result.overkill)}"
    earlier = f" - {num(result.damage_taken_before)} taken earlier in the raid" if result.damage_taken_before else ""
    return [
        boss_hp + (" (defeated)" if result.boss_defeated else ""),
        *([credited] if result.overkill > 0 else []),
        f"Deck HP: {num(result.deck_health)}{earlier} - {num(result.damage_to_deck)} = {num(result.deck_hp_after)}"
        + (" (survives)" if result.deck_survives else " (knocked out of the raid)"),
    ]


def format_breakdown(result: AttackBreakdown) -> str:
    sections = (_boss_lines, _damage_to_boss_lines, _damage_to_deck_lines, _hp_lines)
    return "\n\n".join("\n".join(section(result)) for section in sections)
