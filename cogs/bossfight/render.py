"""/bossfight's rendering: bosses, attack breakdowns and leaderboards as embeds and files."""

from __future__ import annotations

import discord

from cogs.common import EmbedLimits, clip, hp_bar, lines_within, markdown_safe, medal_lines, mention, text_file
from rules.bossfight import AttackBreakdown, Boss
from rules.bossfight.report import format_breakdown, format_modifier
from rules.text import format_number as num
from rules.text import plural
from storage.bossfight import DamageTotal

ELEMENT_ICONS = {"Water": "💧", "Fire": "🔥", "Air": "🌪️", "Lightning": "⚡", "Earth": "🪨", "None": "◽"}


def describe_boss(boss: Boss) -> str:
    def traits(penetration: bool, resistance: bool) -> str:
        marks = [m for m, on in (("pen", penetration), ("res", resistance)) if on]
        return f" ({', '.join(marks)})" if marks else ""

    return (
        f"{ELEMENT_ICONS[boss.element]} **{markdown_safe(boss.name)}**: level {num(boss.level)} {boss.element}, "
        f"HP {num(boss.health)}, "
        f"physical {num(boss.physical_damage)}{traits(boss.physical_penetration, boss.physical_resistance)}, "
        f"magical {num(boss.magical_damage)}{traits(boss.magical_penetration, boss.magical_resistance)}"
    )


def leaderboard_lines(totals: list[DamageTotal]) -> list[str]:
    """Each attacker, most damage first: damage dealt, damage taken, and whether they are knocked out."""
    return medal_lines(
        f"{mention(t.user_id)}: {num(round(t.damage, 2))} damage dealt ({plural(t.attacks, 'attack')}), "
        f"{num(round(t.taken, 2))} taken{' · 💀 knocked out' if t.knocked_out else ''}"
        for t in totals
    )


def token_table(result: AttackBreakdown) -> str:
    def cell(text: str, width: int) -> str:
        return clip(text.replace("`", "'"), width)  # a backtick would end the code block

    rows = [
        f"{cell(t.name, 14):<14} {cell(t.element, 5):<5} {format_modifier(t.boss_physical_modifier):>4} "
        f"{format_modifier(t.boss_magical_modifier):>4} {format_modifier(t.boss_element_modifier):>4} "
        f"{format_modifier(t.player_element_modifier):>4} {num(round(t.damage_dealt, 2)):>9}"
        for t in result.tokens
    ]
    header = f"{'token':<14} {'elem':<5} {'phys':>4} {'mag':>4} {'elem':>4} {'you':>4} {'dealt':>9}"
    return "```\n" + lines_within([header, *rows], EmbedLimits.FIELD_VALUE - 8) + "\n```"


def breakdown_fields(embed: discord.Embed, result: AttackBreakdown) -> None:
    boss = result.boss
    mod = format_modifier
    embed.add_field(
        name="Damage per token (modifiers: boss takes phys / mag / elem, you take elem)",
        value=token_table(result),
        inline=False,
    )
    embed.add_field(
        name="Stacked modifiers of your deck",
        value=f"physical ×{mod(result.deck_physical_modifier)} · magical ×{mod(result.deck_magical_modifier)} · "
        f"element ×{mod(result.deck_element_modifier)} (over {plural(len(result.traits), 'trait')}; each trait's are in "
        "attack-breakdown.txt)",
        inline=False,
    )
    embed.add_field(
        name="Damage your deck took",
        value=f"{num(boss.physical_damage)} × {mod(result.deck_physical_modifier)} + {num(boss.magical_damage)} × "
        f"{mod(result.deck_magical_modifier)} × {mod(result.deck_element_modifier)} = **{num(result.damage_to_deck)}**",
        inline=False,
    )
    verdict = (
        "still in the raid ✅"
        if result.deck_survives
        else "💀 knocked out of the raid: a GM can bring you back with `/bossfight revive`"
    )
    embed.add_field(
        name="Your deck",
        value=f"health {num(result.deck_health)} − taken earlier in the raid {num(result.damage_taken_before)} − "
        f"this attack {num(result.damage_to_deck)} = **{num(result.deck_hp_after)}** left\n"
        f"{hp_bar(max(result.deck_hp_after, 0), result.deck_health)}\n{verdict}",
        inline=False,
    )


def breakdown_file(result: AttackBreakdown) -> discord.File:
    return text_file("attack-breakdown.txt", format_breakdown(result) + "\n")
