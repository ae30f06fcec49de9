"""/bossfight's rendering: every embed and file the game sends (bosses, attacks, leaderboards, decks)."""

from __future__ import annotations

import discord

from cogs.common import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    EmbedLimits,
    clip,
    fit_embed,
    hp_bar,
    lines_within,
    markdown_safe,
    medal_lines,
    mention,
    text_file,
)
from rules.bossfight import AttackBreakdown, Boss, Deck
from rules.bossfight.raid import duration_text
from rules.bossfight.report import format_breakdown, format_modifier
from rules.text import format_number as num
from rules.text import plural
from storage.bossfight import AttackRecord, DamageTotal, Raid, SavedDeck

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


def roster_embed(bosses: list[Boss]) -> discord.Embed:
    embed = discord.Embed(
        title=f"Boss roster ({len(bosses)})",
        description=lines_within([describe_boss(b) for b in bosses], EmbedLimits.DESCRIPTION),
        color=COLOR_INFO,
    )
    embed.set_footer(
        text="GMs: /bossfight spawn to start a raid, /bossfight upload to add bosses, "
        "/bossfight remove to take uploaded ones out."
    )
    return fit_embed(embed)


def spawn_embed(raid: Raid) -> discord.Embed:
    boss = raid.boss
    embed = discord.Embed(
        title=f"{ELEMENT_ICONS[boss.element]} {markdown_safe(boss.name)} appears!",
        description=f"{describe_boss(boss)}\n\n{hp_bar(raid.hp, raid.max_hp)}",
        color=COLOR_DEFEAT,
    )
    rules = "The boss's damage to you adds up over the raid; at 0 you are out until a GM revives you."
    if raid.cooldown_seconds:
        rules += f" Each player attacks at most once every {duration_text(raid.cooldown_seconds)}."
    embed.add_field(name="Raid rules", value=rules, inline=False)
    embed.set_footer(text="Attack with /bossfight attack (attach a deck CSV or use your saved deck).")
    return fit_embed(embed)


def attack_embed(attacker: str, record: AttackRecord, result: AttackBreakdown) -> discord.Embed:
    """The public reply to an attack; `attacker` is the player's display name, `result` the engine's breakdown
    at the HP the attack really hit."""
    raid = record.raid
    embed = discord.Embed(
        title=f"⚔️ {markdown_safe(attacker)} hits {markdown_safe(raid.boss.name)} "
        f"for {num(round(result.damage_to_boss, 2))}",
        description=f"**Boss HP**\n{hp_bar(raid.hp, raid.max_hp)}",
        color=COLOR_VICTORY if record.defeated_now else COLOR_INFO,
    )
    breakdown_fields(embed, result)
    return fit_embed(embed)


def fallen_embed(raid: Raid, totals: list[DamageTotal]) -> discord.Embed:
    embed = discord.Embed(
        title=f"🏆 {markdown_safe(raid.boss.name)} has fallen!",
        description="**Damage leaderboard**\n" + lines_within(leaderboard_lines(totals), EmbedLimits.DESCRIPTION - 30),
        color=COLOR_VICTORY,
    )
    embed.set_footer(text="The raid is archived. A GM can spawn the next boss with /bossfight spawn.")
    return fit_embed(embed)


def preview_embed(boss: Boss, result: AttackBreakdown, max_hp: float) -> discord.Embed:
    embed = discord.Embed(
        title=f"🔍 Preview: your deck against {markdown_safe(boss.name)} would deal "
        f"{num(round(result.damage_to_boss, 2))}",
        description=f"**Boss HP after**\n{hp_bar(result.boss_hp_after, max_hp)}\n(dry run: nothing was changed)",
        color=COLOR_INFO,
    )
    breakdown_fields(embed, result)
    return fit_embed(embed)


def status_embed(raid: Raid, totals: list[DamageTotal]) -> discord.Embed:
    embed = discord.Embed(
        title=f"{ELEMENT_ICONS[raid.boss.element]} {markdown_safe(raid.boss.name)}",
        description=f"{describe_boss(raid.boss)}\n\n**HP**\n{hp_bar(raid.hp, raid.max_hp)}",
        color=COLOR_DEFEAT,
    )
    embed.add_field(
        name=f"Attackers ({len(totals)})",
        value=lines_within(leaderboard_lines(totals), EmbedLimits.FIELD_VALUE) if totals else "No one yet.",
        inline=False,
    )
    return fit_embed(embed)


def deck_embed(saved: SavedDeck, deck: Deck) -> discord.Embed:
    lines = [
        f"{ELEMENT_ICONS[t.element]} **{markdown_safe(t.name)}** ({t.element}): {plural(len(t.traits), 'trait')}, "
        f"HP {num(t.health)}, physical {num(t.physical_damage)}, magical {num(t.magical_damage)}"
        for t in deck.tokens
    ]
    embed = discord.Embed(
        title=f"Your deck: {markdown_safe(saved.file_name)}",
        description=lines_within(lines, EmbedLimits.DESCRIPTION),
        color=COLOR_INFO,
    )
    embed.set_footer(
        text=f"{plural(len(deck.tokens), 'token')}, {num(deck.health)} health; saved {saved.saved_at[:16]} UTC"
    )
    return fit_embed(embed)
